"""The worked positions of shared/rules/lattice_cases.md.

Cases 1-13 are read from the document itself (position, side to move, diagram, complete legal list, chosen
action, promotion, return, next decision), cases 14 and 15 (end, score, elimination) too; case 16's
hand-made checks are restated here as named tests."""
from __future__ import annotations

import json
import re
from functools import lru_cache

import pytest

import games
from tests.support.paths import SHARED

SEAT = {"B": 1, "T": 2}


@lru_cache(maxsize=1)
def cases() -> dict:
    text = (SHARED / "rules" / "lattice_cases.md").read_text(encoding="utf-8")
    out = {}
    for m in re.finditer(r"^## Case (\d+)\. (.*?)$(.*?)(?=^## Case |\Z)", text, re.M | re.S):
        num, title, body = int(m.group(1)), m.group(2), m.group(3)
        case = {"title": title, "body": body}
        size = re.search(r"\(size (\d{3})", body) or re.search(r"\((\d)x(\d)x(\d)", title + body)
        case["size"] = "".join(size.groups()) if size else "222"
        if (src := re.search(r"side to move \*\*([BT])\*\*", body)):
            case["side"] = src.group(1)
        if (pos := re.search(r"pos string: `([^`]*)`", body)):
            case["pos"] = pos.group(1)
        if (legal := re.search(r"legal actions \(complete list\): `(\[.*?\])`", body)):
            case["legal"] = json.loads(legal.group(1))
        if (ch := re.search(r"chosen: `([^`]*)`; promoted: (true|false); return: (.*)$", body, re.M)):
            case["chosen"] = None if ch.group(1) == "None" else ch.group(1)
            case["promoted"] = ch.group(2) == "true"
            case["return"] = json.loads(ch.group(3))
        if (nx := re.search(r"next decision: side \*\*([BT])\*\*, extra=(true|false), pos `([^`]*)`", body)):
            case["next"] = (nx.group(1), nx.group(2) == "true", nx.group(3))
        if (diagram := re.search(r"```\n(.*?)```", body, re.S)):
            case["diagram"] = diagram.group(1)
        out[num] = case
    return out


def start(case, **options):
    return games.get("lattice").new(size=case["size"], first=SEAT[case["side"]], start=case["pos"], **options)


def diagram_levels(diagram: str, width: int) -> dict:
    """level -> rows from y = a upward, each a string of `width` cells (' ' = no node), as in view()."""
    levels, current = {}, None
    for line in diagram.splitlines():
        if (m := re.match(r"level (\d+):", line)):
            current = levels.setdefault(int(m.group(1)), [])
        elif current is not None and re.match(r"^ {9}[a-f]", line):
            current.append("".join(line[12 + 2 * j] if len(line) > 12 + 2 * j else " " for j in range(width)))
    return {lv: rows[::-1] for lv, rows in levels.items()}


def test_the_document_has_16_cases():
    assert sorted(cases()) == list(range(1, 17))
    assert all("pos" in cases()[n] and "legal" in cases()[n] for n in range(1, 14))


@pytest.mark.parametrize("num", range(1, 14))
def test_worked_case(num):
    case = cases()[num]
    board = start(case)
    assert board.pos() == case["pos"]
    # the diagram shows the same position as the flat levels view
    view = board.view()
    drawn = diagram_levels(case["diagram"], view["grid"][0])
    assert {lv["level"]: lv["rows"] for lv in view["levels"]} == drawn
    if case["legal"] == []:
        # case 13: the side has no action, the engine passes for it at once
        assert board.turn == 3 - SEAT[case["side"]]
        assert board.passed == (SEAT[case["side"]],)
        assert case["chosen"] is None
        side, extra, pos = case["next"]
        assert board.turn == SEAT[side] and board.extra_turn == extra and board.pos() == pos
        return
    assert board.turn == SEAT[case["side"]]
    assert board.legal_moves() == case["legal"]
    board.push(case["chosen"])
    assert board.last["promoted"] == case["promoted"]
    if case["return"] is not None:
        assert board.pending_return and board.turn == SEAT[case["side"]]
        assert board.legal_moves() == ["+" + o for o in case["return"]["options"]]
        board.push("+" + case["return"]["chosen"])
    else:
        assert not board.pending_return
    if "next" in case:
        side, extra, pos = case["next"]
        assert board.turn == SEAT[side]
        assert board.extra_turn == extra
        assert board.pos() == pos


def test_case_14_draw_when_neither_side_can_act():
    final = re.search(r"Final position `([^`]*)`", cases()[14]["body"]).group(1)
    board = games.get("lattice").new(size="222", start=final)
    assert board.turn is None and board.legal_moves() == []
    out = board.outcome()
    assert out.scores == (3, 3) and out.winners == () and out.reason == "stuck"
    assert board.view()["outcome"] == {"winners": [], "scores": [3, 3], "reason": "stuck"}


def test_case_15_elimination_does_not_end_the_game():
    body = cases()[15]["body"]
    final = re.search(r"Final `([^`]*)`", body).group(1)
    board = games.get("lattice").new(size="222", start=final)
    out = board.outcome()
    assert out.scores == (6, 0) and out.winners == (1,) and out.reason == "stuck"
    # a little earlier: T has no piece and passes at once, B keeps moving
    before = final.replace("Ac3,", "Ab2,")
    board = games.get("lattice").new(size="222", first=2, start=before)
    assert board.turn == 1 and board.passed == (2,)
    assert board.outcome() is None
    board.push("Ab2-Ac3")
    assert board.pos() == final and board.outcome() == out
    # with end_on_elimination the same position is over at once, scored as it stands
    board = games.get("lattice").new(size="222", first=2, start=before, end_on_elimination=True)
    assert board.turn is None
    assert board.outcome() == ((1,), (6, 0), "eliminated")


def _replay_until(rec, n, **options):
    board = games.get("lattice").new(size=rec["size"], first=SEAT[rec["first"]], **options)
    for t in rec["turns"][:n]:
        if t["kind"] == "pass":
            continue
        board.push(t["chosen"])
        if t["return"]:
            board.push("+" + t["return"]["chosen"])
    return board


def test_case_15_game_101_the_eliminated_side_only_passes():
    from tests.support.paths import read_jsonl
    rec = next(g for g in read_jsonl(SHARED / "reference" / "lattice.jsonl") if g["game"] == 101)
    assert rec["turns"][31]["chosen"] == "Fb3:Fd1"
    board = _replay_until(rec, 32)
    assert board.on_board()[0] == 0 and board.outcome() is None
    assert board.turn == 2 and board.passed == (1,)
    while board.turn is not None:          # T plays on alone; B never gets the turn
        assert board.turn == 2
        board.push(board.legal_moves()[0])
    # with end_on_elimination the game ends right after the capture that took B's last piece
    board = _replay_until(rec, 32, end_on_elimination=True)
    assert board.turn is None and board.legal_moves() == []
    out = board.outcome()
    assert out.reason == "eliminated" and out.winners == (2,) and out.scores[0] == 0
    assert out.scores == board.scores()


# ---------------------------------------------------------------- case 16: hand-made checks

def new(pos, first=1, size="222", **options):
    return games.get("lattice").new(size=size, first=first, start=pos, **options)


def test_case_16_1_capture_is_mandatory():
    assert new("B:Bb1;T:Cb2;benchB:0;benchT:0").legal_moves() == ["Bb1:Db3"]


def test_case_16_2_occupied_landing_node_blocks_the_capture():
    assert new("B:Bb1;T:Cb2,Db3;benchB:0;benchT:0").legal_moves() == ["Bb1-Ab2", "Bb1-Ba2", "Bb1-Bc2"]


def test_case_16_3_corner_capture_and_corner_degree():
    assert new("B:Aa1;T:Ba2;benchB:0;benchT:0").legal_moves() == ["Aa1:Ca3"]
    assert new("B:Aa1;T:;benchB:0;benchT:0").legal_moves() == ["Aa1-Ab2", "Aa1-Ba2"]


def test_case_16_4_backward_capture_and_no_landing_outside_the_box():
    assert new("B:Cc3;T:Bc2,Dc4;benchB:0;benchT:0").legal_moves() == ["Cc3:Ac1"]


def test_case_16_5_capture_onto_the_far_level_promotes_returns_and_gives_an_extra_turn():
    board = new("B:Ab2;T:Bb3,Dc4;benchB:1;benchT:0")
    assert board.legal_moves() == ["Ab2:Cb4"]
    board.push("Ab2:Cb4")
    assert board.piece_at("Cb4") == (1, True)
    assert board.turn == 1 and board.pending_return
    assert board.legal_moves() == ["+Aa1", "+Ac1", "+Bb1", "+Bd1", "+Ca1", "+Cc1", "+Db1", "+Dd1"]
    board.push("+Bb1")
    assert board.piece_at("Bb1") == (1, False) and board.bench == (0, 1)
    assert board.turn == 1 and board.extra_turn and not board.pending_return
    assert board.legal_moves() == ["Bb1-Ab2", "Bb1-Ba2", "Bb1-Bc2", "Bb1-Cb2"]


def test_case_16_6_a_side_without_pieces_passes():
    board = new("B:;T:Bc2;benchB:8;benchT:7")
    assert board.turn == 2 and board.passed == (1,)
    assert board.legal_moves() == ["Bc2-Ac1", "Bc2-Bb1", "Bc2-Bd1", "Bc2-Cc1"]
    board.push("Bc2-Bb1")                  # promotes: T returns a ball and moves again
    assert board.turn == 2 and board.pending_return
    while board.turn is not None:          # the game ends only when T has no action either
        assert board.turn == 2
        board.push(board.legal_moves()[0])
    out = board.outcome()
    assert out.reason == "stuck" and out.winners == (2,) and out.scores[0] == 0


def test_case_16_7_labels_and_world_coordinates():
    from games.lattice import lattice
    lat = lattice("222")
    assert lat.coords[lat.node("Aa1")] == (0, 0, 0) and lat.world(lat.node("Aa1")) == (-3, -3, -3)
    assert "Dd4" not in lat.index
    with pytest.raises(ValueError):
        lat.node("Dd4")
    assert lat.coords[lat.node("Dc4")] == (3, 2, 3) and lat.world(lat.node("Dc4")) == (3, 1, 3)
    assert lat.from_world(3, 1, 3) == lat.node("Dc4")
