"""Ratings: Glicko-2 per game (glicko2.py, from Glickman's paper), updated when a rated match ends; leaderboards
rank only established players (standing.py)."""
from .service import RatingService
from .standing import LeaderboardRule

__all__ = ["LeaderboardRule", "RatingService"]
