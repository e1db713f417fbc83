"""Games against the computer end, and may be resigned, in the match service with real computer players:
Gamma ends once no field is left and every player skipped the golden move in a row (games/gamma/passes.py),
Towers draws when a person only passes against the original's AI-1 (games/towers/classic_computer.py), and the STATE's
`resignable` (quadrille/matches/resigning.py) offers *Resign* in every game against the computer."""
from __future__ import annotations

import pytest

from quadrille.errors import ServiceError
from quadrille.matches import MatchService
from tests.support.waiting import wait_until


def my_turn(service, match, seat=1) -> dict:
    """The STATE once it is `seat`'s turn or the game is over (the computer answers in its own thread)."""
    wait_until(lambda: (lambda s: s["outcome"] is not None or s["turn"] == seat)(service.state(match)), 30,
               "the computer's reply")
    return service.state(match)


def test_gamma_against_the_computer_ends_on_the_full_board(service):
    created = service.create("gamma", {"width": 3, "height": 3, "players": 2, "areas": 2}, "ai",
                             ai={"seats": [2], "level": 1})
    match, token = created["match"], created["token"]
    state = my_turn(service, match)
    assert state["resignable"]
    for _ in range(40):                       # the old code asked Blue to skip for ever once the board was full
        if state["outcome"] is not None:
            break
        fields = [m for m in state["legal"] if m != "skip" and not m.startswith("g")]
        service.play(match, token, fields[0] if fields else "skip")   # Blue keeps the golden move
        state = my_turn(service, match)
    assert state["outcome"] is not None, state["moves"]
    assert state["outcome"]["reason"] in ("passed", "stuck") and state["view"]["over"]
    assert sum(row.count(0) for row in state["view"]["cells"]) == 0
    assert len(state["moves"]) <= 9 + 2 + 2 and not state["resignable"]
    with pytest.raises(ServiceError) as refused:
        service.play(match, token, "skip")
    assert refused.value.error == "game-over"


def test_towers_against_the_original_ai_1_is_drawn_by_passing(service):
    created = service.create("towers", {"size": 5, "rules": ["no-first-lock-master"]}, "ai",
                             ai={"seats": [2], "level": "classic"})
    match, token = created["match"], created["token"]
    state = my_turn(service, match)
    for _ in range(12):                       # the old AI-1 answered each pass with "i1", "end": never a draw
        if state["outcome"] is not None:
            break
        service.play(match, token, "end")
        state = my_turn(service, match)
    assert state["outcome"] == {"winners": [], "scores": state["outcome"]["scores"], "reason": "draw-passes"}
    assert state["moves"][-4:] == ["end"] * 4


@pytest.mark.parametrize("game,options,computer,first", [
    ("trails", {"size": 7}, [2], "down"),
    ("lattice", {"size": "222"}, [2], None),
    ("towers", {"size": 5}, [2], "end"),
    ("gamma", {"width": 4, "height": 4, "players": 4, "areas": 2}, [2, 3, 4], "0,0"),
])
def test_every_game_against_the_computer_may_be_resigned(service, game, options, computer, first):
    created = service.create(game, options, "ai", ai={"seats": computer, "level": 1})
    match, token = created["match"], created["token"]
    state = my_turn(service, match)
    assert state["resignable"]
    service.play(match, token, first or state["legal"][0])
    state = service.resign(match, token)
    assert state["outcome"]["reason"] == "resigned" and state["outcome"]["resigned"] == 1
    assert state["outcome"]["winners"] == computer and not state["resignable"]
    again = MatchService(service.storage).state(match)          # replayed from storage: the same result
    assert again["outcome"]["winners"] == computer


def test_who_may_resign_is_decided_by_the_server(service):
    local = service.create("trails", None, "local")
    assert not service.state(local["match"])["resignable"]
    with pytest.raises(ServiceError) as refused:
        service.resign(local["match"], local["token"])
    assert refused.value.error == "not-allowed"
    demo = service.create("trails", None, "ai", ai={"seats": [1, 2], "level": 1})
    assert not service.state(demo["match"])["resignable"]
    online = service.create("gamma", {"players": 3}, "online")
    assert not service.state(online["match"])["resignable"]    # waiting for its start
