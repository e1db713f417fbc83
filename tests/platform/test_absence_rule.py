"""The absence rule per time control (quadrille/matches/absence.py), as arithmetic: no server, no clock."""
from __future__ import annotations

import pytest

from quadrille.matches.absence import Rule, rule_for


def rule(control, rated=False, everyone_moved=True):
    return rule_for(control, rated, everyone_moved, disconnect_timeout=60.0, realtime_grace=40.0)


@pytest.mark.parametrize("minutes, increment, seconds", [
    (0.25, 0, 40), (1, 0, 40), (3, 2, 40), (5, 3, 40),   # bullet and blitz: estimated under 480 s
    (8, 0, 80), (5, 5, 80), (15, 10, 80),                # rapid: under 1,500 s
    (25, 0, 120), (15, 15, 120), (180, 180, 120),        # classical
])
def test_a_real_time_grace_follows_the_clocks_speed(minutes, increment, seconds):
    assert rule({"kind": "realtime", "minutes": minutes, "increment": increment}) == Rule("realtime", seconds)


def test_without_a_clock_the_disconnect_timeout_and_with_days_per_move_never():
    assert rule(None) == Rule("disconnect", 60.0)
    assert rule({"kind": "correspondence", "days": 3}) == Rule("correspondence", None)


@pytest.mark.parametrize("control", [None, {"kind": "realtime", "minutes": 5, "increment": 3},
                                     {"kind": "correspondence", "days": 3}])
def test_a_rated_game_before_everyone_moved_is_aborted_whatever_its_clock(control):
    assert rule(control, rated=True, everyone_moved=False) == Rule("rated-start", None)
    assert rule(control, rated=False, everyone_moved=False).kind != "rated-start"
    assert rule(control, rated=True, everyone_moved=True) == rule(control)
