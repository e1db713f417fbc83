"""Replay every recorded game of shared/reference/lattice.jsonl through the engine contract and compare
every decision (rules/lattice.md §12.3): side to move, extra turn, position, the complete sorted legal list,
the chosen action, promotion, the return options and choice, the automatic passes, the final position, score
and winner."""
from __future__ import annotations

from functools import lru_cache

import pytest

import games
from tests.support.paths import SHARED, read_jsonl

SEAT = {"B": 1, "T": 2}


@lru_cache(maxsize=1)
def reference() -> tuple:
    return tuple(read_jsonl(SHARED / "reference" / "lattice.jsonl"))


def _ids():
    return [f"game{g['game']}-{g['size']}" for g in reference()]


def test_reference_file_has_50_games_of_every_size():
    games_ = reference()
    assert len(games_) == 50
    assert sorted({g["size"] for g in games_}) == ["222", "223", "322", "323", "333"]
    assert sum(len(g["turns"]) for g in games_) == 8727


@pytest.mark.parametrize("index", range(50), ids=_ids())
def test_replay_reference_game(index):
    rec = reference()[index]
    board = games.get("lattice").new(size=rec["size"], first=SEAT[rec["first"]])
    assert board.pos() == rec["initial"]
    assert board.passed == ()
    passes = []                         # recorded passes since the last action
    for t in rec["turns"]:
        where = f"game {rec['game']} decision {t['n']}"
        if t["kind"] == "pass":
            assert t["legal"] == [] and t["chosen"] is None, where
            passes.append(SEAT[t["side"]])
            continue
        # the engine passed by itself exactly where the original passed
        assert list(board.passed) == passes, where
        passes = []
        seat = SEAT[t["side"]]
        assert board.turn == seat, where
        assert not board.pending_return, where
        assert board.extra_turn == t["extra"], where
        assert board.pos() == t["pos"], where
        assert board.legal_moves() == t["legal"], where
        assert t["chosen"] in t["legal"], where
        assert (":" in t["chosen"]) == (t["kind"] == "capture"), where
        board.push(t["chosen"])
        last = board.last
        assert last["move"] == t["chosen"] and last["seat"] == seat, where
        assert last["promoted"] == t["promoted"], where
        if t["return"] is not None:
            assert t["promoted"], where
            assert board.turn == seat and board.pending_return, where
            assert board.legal_moves() == ["+" + o for o in t["return"]["options"]], where
            board.push("+" + t["return"]["chosen"])
            assert board.last["kind"] == "return", where
        elif t["promoted"] and board.turn is not None:
            assert not board.pending_return, where
    # the game is over: the trailing recorded passes are the two sides' last, empty decisions
    result = rec["result"]
    assert result["reason"] == "no_moves_both"
    assert 1 <= len(passes) <= 2
    assert board.turn is None
    assert board.legal_moves() == []
    assert board.pos() == result["final"]
    out = board.outcome()
    assert out is not None and out.reason == "stuck"
    assert out.scores == (result["score"]["B"], result["score"]["T"])
    assert out.winners == {"B": (1,), "T": (2,), "draw": ()}[result["winner"]]
    # the record replays to the same board
    again = games.from_dict(board.to_dict())
    assert again.pos() == board.pos() and again.outcome() == out


def test_reference_totals_match_the_rules_doc():
    """The aggregate figures of rules/lattice.md §12.2, recounted while replaying."""
    simple = chains = promotions = returns = passes = longest = 0
    for rec in reference():
        for t in rec["turns"]:
            if t["kind"] == "pass":
                passes += 1
            elif t["kind"] == "capture":
                chains += 1
                longest = max(longest, t["chosen"].count(":"))
            else:
                simple += 1
            promotions += t["promoted"]
            returns += t["return"] is not None
    assert (simple, chains, promotions, returns, passes, longest) == (5695, 1215, 839, 631, 1817, 7)


def test_reference_ai_candidates_are_first_actions_of_the_legal_list():
    """The `ai` field (the classic AI levels, a later issue): per level "*" (all first actions) or a sorted,
    non-empty subset of the first actions: simple moves as they are, captures cut to `<from>:<landing1>`."""
    for rec in reference():
        for t in rec["turns"]:
            firsts = {":".join(m.split(":")[:2]) for m in t["legal"]}
            for level in ("1", "2", "3"):
                cand = t["ai"][level]
                if cand == "*":
                    continue
                assert cand == sorted(cand) and cand and set(cand) <= firsts, (rec["game"], t["n"], level)
            if t["return"] is not None:
                assert set(t["return"]["ai_pool"]) <= set(t["return"]["options"])
                assert t["return"]["chosen"] in t["return"]["ai_pool"]
