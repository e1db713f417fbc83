"""The match bus: services beside the match core hear the events of a match's life they care about.

The room (the Socket.IO door) hears every STATE; other services need far less: the ratings need a match's end,
the accounts a rematch's seats. Each subscribes to its kinds, and hears nothing else:

    bus.subscribe(ENDED, ratings.on_ended)       # listener(match_id, payload)
    bus.publish(ENDED, match.id, {"outcome": ..., "movers": [...]})

Kinds published by the core (core.py) and the deciders:
- `ENDED`: the game ended through the event just recorded in this process (a move, a resignation, a flag...),
  once per ending: {"outcome": the STATE's outcome, "movers": the seat of each move of the line, "online": an
  online game, "accounts": the seats accounts hold (Match.accounts)}.
- `REMATCH`: a rematch was agreed: {"match": the new match, "from": the old one, "seats": the rematch's seat of
  each old seat, in order}.

A listener runs after the event is written and the room told, in the thread of the command (a move waits for
it). A listener's failure is logged and goes no further: the move stands, and the other listeners still hear.
"""
from __future__ import annotations

import logging
import threading
from typing import Callable

ENDED = "ended"
REMATCH = "rematch"
KINDS = (ENDED, REMATCH)

Listener = Callable[[str, dict], None]
log = logging.getLogger("quadrille")


class MatchBus:
    def __init__(self):
        self._listeners: dict[str, tuple[Listener, ...]] = {kind: () for kind in KINDS}
        self._lock = threading.Lock()

    def subscribe(self, kind: str, listener: Listener) -> None:
        if kind not in self._listeners:
            raise ValueError(f"no match event {kind!r}; the bus carries {', '.join(KINDS)}")
        with self._lock:  # a new tuple: a publish under way keeps the one it read
            self._listeners[kind] = self._listeners[kind] + (listener,)

    def publish(self, kind: str, match_id: str, payload: dict) -> None:
        for listener in self._listeners[kind]:
            try:
                listener(match_id, payload)
            except Exception:  # a listener's failure must never undo or hold up a move, nor silence the others
                log.exception("match listener %s failed on %s of %s", listener, kind, match_id)
