"""Challenges to named players (lila's challenge module): offered, accepted or declined, cancelled."""
from .service import ChallengeService

__all__ = ["ChallengeService"]
