"""Property tests of the Towers engine on random games (hypothesis): push/pop are exact inverses, counts never go
negative and pawns are conserved as the rules say, the legal set agrees with the move checker, the draw and win
rules hold, and copies and records rebuild the same board."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import games
from games.base import IllegalMove
from games.towers import RULE_ORDER
from games.towers.core import GAME_OVER

TOWERS = games.get("towers")
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

sizes = st.one_of(st.integers(5, 8), st.sampled_from([11, 13]))  # the form offers 5..10; the engine more
rule_sets = st.lists(st.sampled_from(RULE_ORDER), unique=True, max_size=4)


def snapshot(b):
    return (b.state(), b.moves, b.legal_moves(), b.view(), b.turn, b.outcome(), b.plies(), b.ply)


def totals(b):
    """Pawns of each player: on the board and in the reserve."""
    on = [0, 0, 0]
    for y in range(b.size):
        for x in range(b.size):
            v = b.cell(x, y)
            if v > 0:
                on[1] += v
            elif v < 0:
                on[2] -= v
    return on


def play(data, b, steps):
    """Random moves, `end` more often than uniform so that passes and draws happen."""
    for _ in range(steps):
        if b.turn is None:
            return
        legal = b.legal_moves()
        i = data.draw(st.integers(0, len(legal) + 2), label="choice")
        b.push(legal[i] if i < len(legal) else "end")


def check_invariants(b):
    n = b.size
    s = b.state()
    assert min(s["reserve"]) >= 0 and s["move_points"] >= 0
    assert s["move_points"] <= s["reserve"][s["current"] - 1]  # points come from the reserve, imports cost both
    on = totals(b)
    assert on[1] >= 0 and on[2] >= 0
    if b.outcome() is None:
        assert b.turn == s["current"] == 1 + b.ply % 2
        for p in (1, 2):
            m = b.master_cell(p)
            assert m is not None
            v = b.cell(*m)
            assert (v > 0) == (p == 1) and v != 0
            if p != b.turn:
                assert abs(v) == 1  # exported at the end of its turn
        assert all(b.cell(x, y) != 0 for x, y in b.locked_cells())
        if b.turn == 1 and b.ply == 0 and "no-first-lock-master" not in b.rules and not b.moves:
            assert b.locked_cells() == [b.master_cell(1)]
    assert len(s["board"]) == n


@SETTINGS
@given(size=sizes, rules=rule_sets, data=st.data())
def test_push_pop_inverse(size, rules, data):
    b = TOWERS.new(size=size, rules=rules)
    history = [snapshot(b)]
    for _ in range(data.draw(st.integers(0, 70), label="steps")):
        if b.turn is None:
            break
        legal = b.legal_moves()
        i = data.draw(st.integers(0, len(legal) + 2), label="choice")
        move = legal[i] if i < len(legal) else "end"
        before = snapshot(b)
        b.push(move)
        assert b.pop() == move
        assert snapshot(b) == before
        b.push(move)
        history.append(snapshot(b))
    # undo everything, back to the start
    while b.moves:
        history.pop()
        b.pop()
        assert snapshot(b) == history[-1]
    assert snapshot(b) == snapshot(TOWERS.new(size=size, rules=rules))
    with pytest.raises(IndexError):
        b.pop()


@SETTINGS
@given(size=sizes, rules=rule_sets, data=st.data())
def test_counts_and_conservation(size, rules, data):
    b = TOWERS.new(size=size, rules=rules)
    check_invariants(b)
    for _ in range(data.draw(st.integers(0, 80), label="steps")):
        if b.turn is None:
            break
        me = b.turn
        opp = 3 - me
        before = totals(b)
        res = b.reserve
        before = [0, before[1] + res[0], before[2] + res[1]]
        legal = b.legal_moves()
        i = data.draw(st.integers(0, len(legal) + 2), label="choice")
        b.push(legal[i] if i < len(legal) else "end")
        check_invariants(b)
        after = totals(b)
        res = b.reserve
        after = [0, after[1] + res[0], after[2] + res[1]]
        # the mover never loses pawns, gains only what the opponent loses (captures by the master tower)
        assert after[me] >= before[me] and after[opp] <= before[opp]
        assert after[me] - before[me] <= before[opp] - after[opp]


@SETTINGS
@given(size=sizes, rules=rule_sets, data=st.data())
def test_legal_set_agrees_with_checker(size, rules, data):
    b = TOWERS.new(size=size, rules=rules)
    play(data, b, data.draw(st.integers(0, 40), label="steps"))
    legal = set(b.legal_moves())
    for m in legal:
        b.validate(m)
    n = b.size
    for _ in range(25):
        kind = data.draw(st.sampled_from("mmmmi"), label="kind")
        if kind == "i":
            move = f"i{data.draw(st.integers(0, 12))}"
        else:
            x1, y1, x2, y2 = (data.draw(st.integers(0, n - 1)) for _ in range(4))
            move = f"m{x1},{y1}>{x2},{y2}:{data.draw(st.integers(0, 4))}"
        try:
            b.validate(move)
            ok = True
        except IllegalMove as exc:
            ok = False
            assert exc.reason and exc.detail
        assert ok == (move in legal), move
        if not ok:
            before = snapshot(b)
            with pytest.raises(IllegalMove):
                b.push(move)
            assert snapshot(b) == before
    # the fast path (cached legal set) and the checker (no cache) refuse and accept alike
    c = b.copy()
    c._legal = None
    for m in sorted(legal)[:10]:
        c.push(m)
        c.pop()


def aggressive(data, b):
    """A move that favours attacks on the enemy master (to reach wins) and passes (to reach draws)."""
    legal = b.legal_moves()
    mode = data.draw(st.sampled_from(["random", "end", "end", "advance", "advance", "kill"]), label="mode")
    if mode == "end":
        return "end"
    if mode == "kill":
        tm = b.master_cell(3 - b.turn)
        kills = [m for m in legal if m.startswith("m") and m.split(">")[1].split(":")[0] == f"{tm[0]},{tm[1]}"]
        if kills:
            return data.draw(st.sampled_from(kills), label="kill")
    if mode in ("advance", "kill"):
        # moves towards the enemy's back row
        fwd = [m for m in legal if m.startswith("m")
               and (int(m.split(">")[1].split(",")[1].split(":")[0]) - int(m.split(",")[1].split(">")[0]))
               * (1 if b.turn == 2 else -1) > 0]
        if fwd:
            return data.draw(st.sampled_from(fwd), label="advance")
    return legal[data.draw(st.integers(0, len(legal) - 1), label="choice")]


@SETTINGS
@given(size=sizes, rules=rule_sets, data=st.data())
def test_draw_and_win_rules(size, rules, data):
    b = TOWERS.new(size=size, rules=rules)
    for _ in range(data.draw(st.integers(0, 150), label="steps")):
        if b.turn is None:
            break
        mover = b.turn
        b.push(aggressive(data, b))
        plies = b.plies()
        completed = plies[:-1]
        four_passes = len(completed) >= 4 and all(p == ["end"] for p in completed[-4:])
        out = b.outcome()
        if out is None:
            assert not four_passes
            assert b.master_cell(1) and b.master_cell(2)
        elif out.reason == "draw-passes":
            assert four_passes and out.winners == () and plies[-1] == [] and b.moves[-1] == "end"
        else:
            assert out.reason == "master-captured" and out.winners == (mover,)
            assert b.master_cell(3 - mover) is None and b.master_cell(mover) is not None
            assert not b.moves[-1].startswith(("i", "e"))
            if "no-master-win" in b.rules:
                # the whole master tower did not make the capture (it would stand on the captured cell)
                assert list(b.master_cell(mover)) != b.state()["masters"][2 - mover]
        if out is not None:
            event(out.reason)
            assert b.turn is None and b.legal_moves() == []
            for m in ["end", "i1", b.moves[-1]]:
                with pytest.raises(IllegalMove) as exc:
                    b.push(m)
                assert exc.value.reason == GAME_OVER
            break


@SETTINGS
@given(size=sizes, rules=rule_sets, data=st.data())
def test_no_master_win_never_lets_the_master_take_the_master(size, rules, data):
    rules = sorted(set(rules) | {"no-master-win"})
    b = TOWERS.new(size=size, rules=rules)
    for _ in range(data.draw(st.integers(0, 120), label="steps")):
        if b.turn is None:
            break
        me = b.turn
        mine, theirs = b.master_cell(me), b.master_cell(3 - me)
        h = abs(b.cell(*mine))
        forbidden = f"m{mine[0]},{mine[1]}>{theirs[0]},{theirs[1]}:{h}"
        assert forbidden not in b.legal_moves()
        legal = b.legal_moves()
        b.push(legal[data.draw(st.integers(0, len(legal) - 1), label="choice")])


@SETTINGS
@given(size=sizes, rules=rule_sets, data=st.data())
def test_copy_and_record(size, rules, data):
    b = TOWERS.new(size=size, rules=rules)
    play(data, b, data.draw(st.integers(0, 60), label="steps"))
    c = b.copy()
    assert snapshot(c) == snapshot(b)
    if c.turn is not None:
        c.push(c.legal_moves()[0])
        assert snapshot(c) != snapshot(b) or c.moves != b.moves
    again = games.from_dict(b.to_dict())
    assert snapshot(again) == snapshot(b)
    # copies share history but not state: undo and play on one never shows on the other
    if b.moves:
        c = b.copy()
        c.pop()
        if c.turn is not None:
            legal = c.legal_moves()
            c.push(legal[data.draw(st.integers(0, len(legal) - 1), label="other")])
        while b.moves:  # `again` was rebuilt from the record: it shares nothing with b
            assert b.pop() == again.pop()
            assert snapshot(b) == snapshot(again)


@SETTINGS
@given(size=sizes, passes=st.lists(st.sampled_from(["end", "i1", "move"]), max_size=14))
def test_draw_exactly_after_four_consecutive_passes(size, passes):
    b = TOWERS.new(size=size, rules=["no-first-lock-master"])
    run = 0
    for kind in passes:
        if kind == "i1":
            b.push("i1")
            if b.turn == b.current and b.turn_moves():
                b.push("end")
            run = 0
        elif kind == "move":
            b.push(next(m for m in b.legal_moves() if m.startswith("m")))
            if b.turn_moves():
                b.push("end")
            run = 0
        else:
            b.push("end")
            run += 1
        assert (b.outcome() is not None) == (run >= 4)
        if b.outcome() is not None:
            assert b.outcome().reason == "draw-passes"
            break
