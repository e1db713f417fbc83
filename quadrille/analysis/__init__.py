"""The computer's analysis of matches (service.py: the rules; store.py: the `analyses` table; runner.py: the
analyses run step by step on the computer's worker processes, behind people's moves)."""
from .runner import AnalysisRunner
from .service import AnalysisService
from .store import AnalysisStore

__all__ = ["AnalysisRunner", "AnalysisService", "AnalysisStore"]
