"""Lists of games from the summaries on the matches' rows say what a list built from each match's STATE said
(issue 22: lists never replay a match), through every kind of event that changes a line: moves, the last seat
taken, a resignation, an abort, an agreed draw, a seat handed to the computer, a Gamma started with fewer
players, a clock running; and a match stored without a summary (an earlier release's) is summarised once when a
list meets it. On SQLite and PostgreSQL."""
from __future__ import annotations

import json

import pytest
from sqlalchemy import update

from quadrille.option_words import describe
from quadrille.infra.schema import matches_table


def entry_from_state(state: dict, mine: list[int], updated: float) -> dict:
    """The list's line as it was built before the summaries: from the match's whole STATE."""
    outcome = state.get("outcome")
    names = state.get("seat_names") or []
    seat_name = lambda seat: names[seat - 1] if 0 < seat <= len(names) else f"Player {seat}"  # noqa: E731
    opponents = [{"seat": s["seat"], "side": seat_name(s["seat"]),
                  "name": s["name"] if s["kind"] == "human" else "Computer", "taken": s["taken"]}
                 for s in state["seats"] if s["seat"] not in mine]
    result = None
    if outcome is not None:
        winners = outcome.get("winners") or []
        if outcome.get("reason") == "aborted":
            result = "aborted"
        elif not winners or set(winners) >= set(s["seat"] for s in state["seats"]):
            result = "draw"
        else:
            result = "win" if set(mine) & set(winners) else "loss"
    turn, clock = state.get("turn"), state.get("clock")
    running = clock.get("running") if clock and outcome is None else None
    return {
        "match": state["match"], "game": state["game"], "title": state["title"], "options": state["options"],
        "options_words": describe(state["game"], state["options"]),
        "mode": state["mode"], "seats": mine, "sides": [seat_name(s) for s in mine], "opponents": opponents,
        "updated": updated, "started": state.get("started", True), "turn": turn,
        "turn_name": seat_name(turn) if turn else None,
        "your_turn": turn is not None and turn in mine and outcome is None,
        "finished": outcome is not None, "result": result,
        "reason": outcome.get("reason") if outcome else None, "rated": False, "url": f"/m/{state['match']}",
        "rating": None,
        "clock": None if clock is None else {"kind": clock["kind"],
                                              "seconds_left": clock["left"][running - 1] if running else None},
    }


pytestmark = pytest.mark.app_settings(RATELIMIT_ENABLED=False, DISCONNECT_TIMEOUT=0.0, PRESENCE_GRACE=0.0)


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def listed(client, tokens: dict) -> dict:
    games = client.post("/api/me/games?finished=1", json={"tokens": tokens}).json["games"]
    return {line["match"]: line for line in games}


def expected(client, storage, match: str, mine: list[int]) -> dict:
    state = client.get(f"/api/matches/{match}").json
    return entry_from_state(state, mine, storage.listed([match])[match].updated)


def same_line(line: dict, want: dict) -> bool:
    """Equal, but a running clock's seconds left, which move between the two reads: within a second."""
    left = [entry["clock"]["seconds_left"] if entry["clock"] else None for entry in (line, want)]
    if None not in left:
        if abs(left[0] - left[1]) > 1:
            return False
        line, want = ({**entry, "clock": {**entry["clock"], "seconds_left": "running"}} for entry in (line, want))
    return line == want


def test_the_lists_lines_are_what_the_states_say_through_every_kind_of_event(app):
    client, storage = app.test_client(), app.extensions["quadrille.storage"]
    made, mine = {}, {}

    def online(game="trails", options=None, clock=None, players=2):
        created = client.post("/api/matches", json={"game": game, "options": options or {}, "clock": clock}).json
        made[created["match"]] = created["token"]
        mine[created["match"]] = [1]
        others = [client.post(f"/api/matches/{created['match']}/seats",
                              json={"invite": created["invite_secret"], "player": f"friend{k}"}).json
                  for k in range(players - 1)]
        return created, others

    def check():
        lines = listed(client, made)
        assert sorted(lines) == sorted(made)
        for match, line in lines.items():
            want = expected(client, storage, match, mine[match])
            assert same_line(line, want), (line, want)

    check()  # nothing yet
    waiting = client.post("/api/matches", json={"game": "trails"}).json  # a free seat: not begun
    made[waiting["match"]], mine[waiting["match"]] = waiting["token"], [1]
    played, (friend,) = online()
    for _ in range(3):
        state = client.get(f"/api/matches/{played['match']}").json
        token = played["token"] if state["turn"] == 1 else friend["token"]
        client.post(f"/api/matches/{played['match']}/moves", json={"move": state["legal"][0]}, headers=bearer(token))
    resigned, _ = online()
    client.post(f"/api/matches/{resigned['match']}/resign", headers=bearer(resigned["token"]))
    aborted, _ = online()
    client.post(f"/api/matches/{aborted['match']}/abort", headers=bearer(aborted["token"]))
    drawn, (other,) = online("lattice")
    client.post(f"/api/matches/{drawn['match']}/offer", json={"offer": "draw"}, headers=bearer(drawn["token"]))
    client.post(f"/api/matches/{drawn['match']}/accept", json={"offer": "draw"}, headers=bearer(other["token"]))
    handed, _ = online()
    assert client.post(f"/api/matches/{handed['match']}/computer", json={"seat": 2, "level": 1},
                       headers=bearer(handed["token"])).status_code == 200
    gamma, _ = online("gamma", {"players": 4}, players=2)  # started with the two who came: "players" becomes 2
    assert client.post(f"/api/matches/{gamma['match']}/start", headers=bearer(gamma["token"])).status_code == 200
    clocked, (rival,) = online(clock={"kind": "realtime", "minutes": 5, "increment": 2})
    state = client.get(f"/api/matches/{clocked['match']}").json
    client.post(f"/api/matches/{clocked['match']}/moves", json={"move": state["legal"][0]},
                headers=bearer(clocked["token"] if state["turn"] == 1 else rival["token"]))
    local = client.post("/api/matches", json={"game": "towers", "mode": "local"}).json
    made[local["match"]], mine[local["match"]] = local["token"], [1, 2]
    check()
    gamma_line = listed(client, made)[gamma["match"]]
    assert gamma_line["options"]["players"] == 2 and len(gamma_line["opponents"]) == 1
    assert listed(client, made)[clocked["match"]]["clock"]["seconds_left"] > 200


def test_a_match_without_a_summary_is_listed_and_summarised_once(app):
    client, storage = app.test_client(), app.extensions["quadrille.storage"]
    created = client.post("/api/matches", json={"game": "trails", "mode": "local"}).json
    state = client.get(f"/api/matches/{created['match']}").json
    client.post(f"/api/matches/{created['match']}/moves", json={"move": state["legal"][0]},
                headers=bearer(created["token"]))
    stored = storage.listed([created["match"]])[created["match"]].summary
    with storage.engine.begin() as conn:  # as a match of a release before the summaries
        conn.execute(update(matches_table).where(matches_table.c.id == created["match"]).values(summary=None))
    line = listed(client, {created["match"]: created["token"]})[created["match"]]
    assert line == expected(client, storage, created["match"], [1, 2])
    assert json.loads(storage.listed([created["match"]])[created["match"]].summary) == json.loads(stored)
    assert storage.unsummarised() == []
    # a move written by a process of the release before (its append leaves the summary as it was): outdated
    state = client.get(f"/api/matches/{created['match']}").json
    client.post(f"/api/matches/{created['match']}/moves", json={"move": state["legal"][0]},
                headers=bearer(created["token"]))
    with storage.engine.begin() as conn:
        conn.execute(update(matches_table).where(matches_table.c.id == created["match"]).values(summary=stored))
    line = listed(client, {created["match"]: created["token"]})[created["match"]]
    assert line == expected(client, storage, created["match"], [1, 2]) and line["turn"] != json.loads(stored)["turn"]
    assert json.loads(storage.listed([created["match"]])[created["match"]].summary)["version"] == 2
