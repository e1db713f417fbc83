"""Ratings: Glicko-2 per game (glicko2.py, from Glickman's paper), updated when a rated match ends."""
from .service import RatingService

__all__ = ["RatingService"]
