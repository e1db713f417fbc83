"""Matches: the match core (service.py) and, beside it, the decisions of a match's life."""
from .service import Match, MatchService

__all__ = ["Match", "MatchService"]
