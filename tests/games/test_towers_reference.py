"""Replay every game of shared/reference/towers.jsonl (towers.md §14) through the engine contract: the start of
every turn, every action and the state after it, the legal sets (start of turn and mid-turn), every illegal
probe with the original's reason, the end of every turn, the result; and the `.twr` record of every game
(import reproduces the game, export reproduces the text byte for byte)."""
from __future__ import annotations

import pytest

import games
from tests.support.paths import SHARED, read_jsonl
from games.base import IllegalMove
from games.towers import twr
from games.towers.core import NO_MASTER_WIN

GAMES = read_jsonl(SHARED / "reference" / "towers.jsonl")
BY_ID = {g["id"]: g for g in GAMES}
TOWERS = games.get("towers")


def notation(action: dict) -> str:
    """Reference ACTION -> Quadrille notation (towers.md, Notation)."""
    if action["type"] == "move":
        (x1, y1), (x2, y2) = action["from"], action["to"]
        return f"m{x1},{y1}>{x2},{y2}:{action['n']}"
    if action["type"] == "import":
        return f"i{action['n']}"
    assert action["type"] == "end", action
    return "end"


def master_takes_master(board, move: str) -> bool:
    """Whether `move` is the whole master tower of the player to move attacking the opposing master."""
    me, opp = board.master_cell(board.current), board.master_cell(3 - board.current)
    if me is None or opp is None or not move.startswith(f"m{me[0]},{me[1]}>{opp[0]},{opp[1]}:"):
        return False
    return int(move.rsplit(":", 1)[1]) == abs(board.cell(*me))


class Replay:
    def __init__(self, game: dict):
        self.g = game
        self.board = TOWERS.new(size=game["size"], rules=game["rules"])
        self.nmw = "no-master-win" in game["rules"]
        self.stats = {"states": 0, "legal": 0, "probes": 0, "actions": 0, "skipped_nmw_legal": 0}

    def where(self, text: str) -> str:
        return f"{self.g['id']} {text}"

    def state(self, expected: dict, where: str) -> None:
        assert self.board.state() == expected, self.where(where)
        self.stats["states"] += 1

    def legal(self, expected: list | None, where: str) -> None:
        if expected is None:
            return
        ours = self.board.legal_moves()
        assert ours == sorted(ours), self.where(where + ": legal_moves() is not sorted")
        assert "end" in ours, self.where(where)
        ours = [m for m in ours if m != "end"]
        if self.nmw:
            # Decision 3: the original lists master-takes-master captures that Quadrille forbids
            dropped = [m for m in expected if master_takes_master(self.board, m)]
            self.stats["skipped_nmw_legal"] += len(dropped)
            expected = [m for m in expected if m not in dropped]
        assert ours == sorted(expected), self.where(where)
        self.stats["legal"] += 1

    def probes(self, probes: list | None, where: str) -> None:
        board = self.board
        for p in probes or []:
            move = notation(p["action"])
            before = (board.state(), board.moves, board.legal_moves())
            with pytest.raises(IllegalMove) as exc:
                board.push(move)
            if p["reason"] != "import-refused":
                assert exc.value.reason == p["reason"], self.where(f"{where}: probe {move}")
            else:
                assert move.startswith("i") and exc.value.reason.startswith("Cannot import")
            assert (board.state(), board.moves, board.legal_moves()) == before, self.where(where)
            self.stats["probes"] += 1

    def run(self) -> None:
        g, board = self.g, self.board
        self.state(g["initial"], "initial")
        for t in g["turns"]:
            ply = t["ply"]
            assert board.ply == ply and board.turn == t["player"], self.where(f"ply {ply}")
            self.state(t["start"], f"start of ply {ply}")
            assert board.turn_moves() == []
            self.legal(t["legal"], f"legal at ply {ply}")
            self.probes(t["probes"], f"probes at ply {ply}")
            actions = t["actions"]
            for i, a in enumerate(actions):
                last = i == len(actions) - 1
                if a["action"]["type"] == "resign":
                    # resigning is the match's decision (towers.md Decision 2): nothing is pushed
                    assert t["turn_end"] == "resign" and last
                    assert g["result"] == {"winner": 3 - t["player"], "reason": "resign",
                                           "plies": g["result"]["plies"]}
                    assert board.outcome() is None and board.turn == t["player"]
                    return
                move = notation(a["action"])
                if g["id"] == "g073" and last and t is g["turns"][-1]:
                    # a master-takes-master capture: legal in the original, refused here (Decision 3)
                    assert master_takes_master(board, move)
                    with pytest.raises(IllegalMove) as exc:
                        board.push(move)
                    assert exc.value.reason == NO_MASTER_WIN
                    return
                assert move in board.legal_moves(), self.where(f"ply {ply} action {i}")
                assert board.validate(move) == a["cost"], self.where(f"cost of {move}")
                board.push(move)
                self.stats["actions"] += 1
                if t["turn_end"] == "points-exhausted" and last:
                    # the engine ends the turn by itself: the state is already the next turn's
                    assert board.moves[-1] == move and board.turn != t["player"]
                    self.state(t["state_after"], f"ply {ply} action {i} (points exhausted)")
                    continue
                self.state(a["after"], f"after ply {ply} action {i} ({move})")
                if board.turn == t["player"]:
                    self.legal(a.get("legal_after"), f"legal after ply {ply} action {i}")
                    assert board.turn_moves() == [notation(b["action"]) for b in actions[:i + 1]]
                if board.turn is None:
                    assert board.legal_moves() == []  # nothing is legal once the game is over
                    for p in a.get("probes_after") or []:
                        with pytest.raises(IllegalMove):
                            board.push(notation(p["action"]))
                else:
                    self.probes(a.get("probes_after"), f"probes after ply {ply} action {i}")
            end = t["turn_end"]
            if end == "win":
                assert board.turn is None and board.outcome().reason == "master-captured"
                assert board.outcome().winners == (t["player"],)
            elif end == "draw":
                assert board.turn is None and board.outcome().reason == "draw-passes"
                assert board.outcome().winners == ()
            else:
                assert board.turn == 3 - t["player"], self.where(f"end of ply {ply}")
            self.state(t["state_after"], f"state after ply {ply}")
        self.state(g["final"], "final")
        res = g["result"]
        out = board.outcome()
        if res["reason"] == "ply-cap":
            assert out is None and board.turn is not None
        elif res["reason"] == "draw":
            assert out is not None and out.winners == () and out.reason == "draw-passes"
        else:
            assert res["reason"] == "master-captured"
            assert out is not None and out.winners == (res["winner"],) and out.reason == "master-captured"
        # plies played: the capturing turn counts, though it never ended
        assert board.ply + (res["reason"] == "master-captured") == res["plies"] == len(g["turns"])


@pytest.mark.parametrize("gid", list(BY_ID))
def test_replay(gid):
    Replay(BY_ID[gid]).run()


def test_replay_coverage():
    """Every kind of check ran, as often as the data holds it (towers.md §14.1)."""
    totals = {}
    for g in GAMES:
        r = Replay(g)
        r.run()
        for k, v in r.stats.items():
            totals[k] = totals.get(k, 0) + v
    expected_legal = 0
    expected_probes = 0
    for g in GAMES:
        for t in g["turns"]:
            expected_legal += t["legal"] is not None
            expected_probes += len(t["probes"])
            for a in t["actions"]:
                expected_legal += a.get("legal_after") is not None
                expected_probes += len(a.get("probes_after") or [])
    assert len(GAMES) == 70
    assert expected_probes == 9370
    # g073's last action is not replayed (Decision 3); every legal list and probe before it is checked
    last_g073 = BY_ID["g073"]["turns"][-1]["actions"][-1]
    assert totals["legal"] == expected_legal - (last_g073.get("legal_after") is not None)
    assert totals["probes"] == expected_probes - len(last_g073.get("probes_after") or [])
    assert totals["actions"] == 3032 - 4 - 1  # minus the 4 resignations and g073's refused capture
    assert totals["skipped_nmw_legal"] == 5   # towers.md §13 row 5


@pytest.mark.parametrize("gid", list(BY_ID))
def test_twr_round_trip(gid):
    g = BY_ID[gid]
    classes = tuple("Alpha-Beta TXT" if p.startswith("(alphabeta") else "Human" for p in g["policies"])
    if gid == "g073":
        # ends with a master-takes-master capture under no-master-win: Quadrille refuses the file, naming it
        with pytest.raises(twr.TwrError, match=r"ply 50 \(Player 2\), action 3 \(move 3 3 3 5 1\) is illegal: "
                                               + NO_MASTER_WIN):
            twr.read(g["twr"])
        # the game up to that capture exports as the original's record without it
        board = TOWERS.new(size=g["size"], rules=g["rules"])
        for move in [notation(a["action"]) for t in g["turns"] for a in t["actions"]][:-1]:
            board.push(move)
        assert twr.dump(board, classes=classes) == g["twr"].replace(" (move 3 3 3 5 1))))", ")))")
        return
    game = twr.read(g["twr"])
    board = game.board
    assert game.version == "2.0" and game.size == g["size"] and game.rules == g["rules"]
    assert game.names == ("P1", "P2") and game.classes == classes
    res = g["result"]
    if res["reason"] == "resign":
        # the resignation came at the start of a turn: the board is that turn's start
        last = g["turns"][-1]
        assert game.resigned == last["player"] and board.state() == last["start"]
        assert game.outcome().winners == (res["winner"],) and game.outcome().reason == "resign"
    else:
        assert game.resigned is None
        assert board.state() == g["final"]
    # export with the same names and classes gives the original's text byte for byte
    assert twr.dump(board, classes=classes, resigned=game.resigned) == g["twr"]
    # and the moves are exactly the reference actions in notation
    expected = [notation(a["action"]) for t in g["turns"] for a in t["actions"] if a["action"]["type"] != "resign"]
    assert board.moves == expected
    # the contract's record rebuilds the same board
    again = games.from_dict(board.to_dict())
    assert again.state() == board.state() and again.moves == board.moves
