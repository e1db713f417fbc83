"""Computer players: the pool of worker processes (players.py) and the worker process itself (worker.py)."""
from .players import ComputerPlayers

__all__ = ["ComputerPlayers"]
