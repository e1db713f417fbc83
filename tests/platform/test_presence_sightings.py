"""One process's presence (infra/presence.py) forgets old sightings, and looks for them at most once a minute:
a server that has seen thousands of seats within the hour must not read them all on every move."""
from __future__ import annotations

from quadrille.infra.presence import MemoryPresence
from tests.support.clock import Clock


def crowded_presence(clock: Clock) -> MemoryPresence:
    """A presence that saw more seats than it keeps before trimming, all of them over an hour ago."""
    presence = MemoryPresence(clock=clock)
    for n in range(MemoryPresence.TRIM_SIZE + 10):
        presence.seen(f"old{n}", [1])
    clock.advance(3601)
    return presence


def test_sightings_older_than_an_hour_are_forgotten_and_recent_ones_kept():
    clock = Clock()
    presence = crowded_presence(clock)
    presence.seen("live", [1, 2])
    assert presence.present("live", 1) and presence.present("live", 2)
    assert not presence.present("old3", 1)
    assert ("old3", 1) not in presence._last_seen  # forgotten, not merely out of its grace period
    assert len(presence._last_seen) == 2


def test_a_crowded_presence_looks_for_old_sightings_once_a_minute_not_on_every_move():
    clock = Clock()
    presence = crowded_presence(clock)
    for n in range(MemoryPresence.TRIM_SIZE + 10):  # as many live seats again: the tables stay over the size
        presence.seen(f"live{n}", [1])
    looks = []
    real = presence._forget_old
    presence._forget_old = lambda now: (looks.append(now), real(now))
    for _ in range(500):  # moves within the minute after the last look (made when the live seats came)
        presence.absences("live1", [1, 2], seen=[1])
        clock.advance(0.05)
    assert looks == []
    clock.advance(MemoryPresence.TRIM_INTERVAL)
    presence.absences("live1", [1, 2], seen=[1])
    assert looks == [clock.now]  # a minute on: one look, and the live seats are all kept
    assert len(presence._last_seen) == MemoryPresence.TRIM_SIZE + 10
