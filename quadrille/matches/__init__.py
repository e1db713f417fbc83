"""Matches: the match core (core.py) behind its service (service.py), the deciders of a match's life beside it,
and the bus (bus.py) on which the services beside it hear of endings and rematches."""
from .bus import ENDED, REMATCH, MatchBus
from .match import Match
from .service import MatchService

__all__ = ["ENDED", "REMATCH", "Match", "MatchBus", "MatchService"]
