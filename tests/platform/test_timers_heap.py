"""MemoryTimers keeps no cancelled key for long (issue 22, Low): a clock's flag is cancelled and set again at every
move, and the heap kept each cancelled entry until its time, days away in a correspondence game (244 dead entries
for one game in the review)."""
from __future__ import annotations

import time

from quadrille.clocks import Clocks
from quadrille.matches.store import Storage
from quadrille.infra.timers import COMPACT_AT, MemoryTimers
from quadrille.matches import MatchService


def test_cancelled_keys_leave_the_heap_and_the_live_ones_still_fire():
    now = [0.0]
    timers, fired = MemoryTimers(lambda: now[0]), []
    timers.handle("flag:", fired.extend)
    for k in range(1000):  # each new deadline supersedes the last, as a clock's flag does at every move
        timers.cancel(f"flag:m:{k - 1}")
        timers.schedule(f"flag:m:{k}", 86400.0 + k)
        timers.schedule("flag:other", 50_000.0 - k)  # an earlier time for a known key: its old entry is dead
    assert len(timers) <= 2 * COMPACT_AT + 4, len(timers)
    now[0] = 100_000.0
    assert sorted(timers.fire_due()) == ["flag:m:999", "flag:other"] and sorted(fired) == ["flag:m:999", "flag:other"]
    assert len(timers) == 0


def test_a_correspondence_game_keeps_one_flag_in_the_heap(tmp_path):
    storage = Storage.sqlite(str(tmp_path / "c.db"))
    clocks = Clocks(storage, clock=time.time, timers=MemoryTimers(time.time))
    service = MatchService(storage, clocks=clocks)
    created = service.create("gamma", {"width": 16, "height": 16, "players": 2, "areas": 100}, "online",
                             clock={"kind": "correspondence", "days": 3})
    friend = service.claim_seat(created["match"], invite=created["invite_secret"])
    service.start(created["match"], created["token"])
    tokens = {1: created["token"], 2: friend["token"]}
    played = 0
    while played < 244:
        state = service.state(created["match"])
        if state["outcome"] is not None:
            break
        placement = next(m for m in state["legal"] if m[0].isdigit())
        service.play(created["match"], tokens[state["turn"]], placement, state["version"])
        played += 1
    assert played == 244
    assert len(clocks.timers) <= COMPACT_AT + 2, len(clocks.timers)  # was one entry per move
    storage.close()
