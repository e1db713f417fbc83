"""Computer players: the pool of worker processes (pool.py) and the worker process itself (worker.py)."""
from .pool import ComputerPlayers

__all__ = ["ComputerPlayers"]
