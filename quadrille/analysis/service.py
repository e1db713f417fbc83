"""The computer's analysis of a match, and of one position (the analysis board's).

    request(match_id, owner) -> (answer, status)  # 202 {"status", "progress"} queued or running; 200 when done
    view(match_id) -> dict                        # the stored analysis: status, progress, plies, summary
    position(game, options, moves, owner) -> dict # {"eval", "evals", "best", "line"} of the position after moves

The rules: a match that does not exist is 404 `unknown-match`; an online game under way is 409
`game-in-progress` (the analysis must never help a player during a game), while a game on one screen, against
the computer, or imported may be analysed at any time, and a finished game always. An analysis is stored, one
a match: asking again, or another viewer, gets it at once; it is made again only when the match has other
moves since (a game on one screen that went on). An address may have ANALYSIS_QUEUE_PER_ADDRESS analyses
queued or running; past that, 429. Matches are read only through the match service's public `record`.
"""
from __future__ import annotations

import time
from typing import Callable

import games
from games.reasons import reason_of

from .. import pictures
from ..errors import ServiceError, bad_request
from ..i18n import _l, _ln
from .runner import AnalysisRunner, StepRefused
from .store import WAITING, AnalysisRow, AnalysisStore

SCALE = 1000  # an evaluation's scale (ai/analysis.py): +1000 the seat wins by force, -1000 it loses, 0 level


def under_way_online(record: dict) -> bool:
    """An online game under way: never analysed, nor opened on the analysis board, so that the computer never
    helps a player during a game (a game on one screen, against the computer or imported may be)."""
    return record.get("mode") == "online" and record.get("outcome") is None


class AnalysisService:
    def __init__(self, matches, store: AnalysisStore, runner: AnalysisRunner, per_address: int | None,
                 position_nodes: int, position_moves: int, clock: Callable[[], float] = time.time):
        self.matches, self.store, self.runner = matches, store, runner
        self.per_address, self.position_nodes, self.position_moves = per_address, position_nodes, position_moves
        self.clock = clock

    # -- a match's analysis ----------------------------------------------------------------------------------
    def request(self, match_id, owner: str) -> tuple[dict, int]:
        record = self._record(match_id)
        if under_way_online(record):
            raise ServiceError(409, "game-in-progress", _l("An online game under way cannot be analysed: the "
                               "computer's analysis must not help a player during a game. Ask again once it ends."))
        row = self.store.get(record["match"])
        if row is None or row.status == "failed" or row.moves != record["moves"]:
            self._admit(owner)
            self.store.request(record["match"], record["version"], record["game"], record["options"],
                               record["moves"], owner, self.clock())
            row = self.store.get(record["match"])
        if row.status in WAITING:
            self.runner.start(row.match_id, row.version)  # (again, should a stop have interrupted it)
        answer = shape(row)
        if row.status == "done":
            return answer, 200
        return {key: answer[key] for key in ("match", "status", "progress")}, 202

    def view(self, match_id) -> dict:
        row = self.store.get(str(match_id))
        if row is None:
            self._record(match_id)  # 404 unknown-match if there is no such match either
            raise ServiceError(404, "no-analysis", _l("Nobody has asked for an analysis of this match yet: "
                               "POST /api/matches/<id>/analysis asks for one."))
        return shape(row)

    def _record(self, match_id) -> dict:
        try:
            return self.matches.record(str(match_id))
        except ServiceError as exc:
            if exc.status == 404:
                raise ServiceError(404, "unknown-match", _l("There is no such match.")) from None
            raise

    def _admit(self, owner: str) -> None:
        if self.per_address is not None and self.store.waiting_for(owner) >= self.per_address:
            raise ServiceError(429, "rate-limited", _ln(
                "Your address already has %(num)d analysis waiting; ask again when it is done.",
                "Your address already has %(num)d analyses waiting; ask again when one of them is done.",
                self.per_address))

    # -- one position (the analysis board) ---------------------------------------------------------------------
    def position(self, game_name, options, moves, owner: str) -> dict:
        """The position after `moves` evaluated on a worker within the position node budget. The request is
        checked here (400 with the engine's reason); the moves are replayed on the worker."""
        game, options = self._game_and_options(game_name, options)
        if moves is None:
            moves = []
        if not isinstance(moves, list) or not all(isinstance(move, str) for move in moves):
            raise bad_request(_l("moves must be a list of strings."), "bad-moves")
        limit = min(self.position_moves, game.move_limit(options))
        if len(moves) > limit:
            raise bad_request(_ln("At most %(num)d move can be analysed in one position.",
                                  "At most %(num)d moves can be analysed in one position.", limit), "too-many-moves")
        try:
            # a person waits for it: in the queue's lowest lane all the same, but at the worker's own priority
            found = self.runner.evaluate(owner, game.name, options, moves, self.position_nodes, nice=0)
        except StepRefused as exc:
            raise bad_request(exc.reason, exc.code)
        return {"eval": found["score"], "evals": found["scores"], "best": found["best"], "line": found["line"],
                "scale": SCALE}

    @staticmethod
    def _game_and_options(game_name, options) -> tuple[games.Game, dict]:
        if not isinstance(game_name, str) or game_name not in games.names():
            raise bad_request(_l("game must be one of: %(choices)s.", choices=", ".join(games.names())), "unknown-game")
        game = games.get(game_name)
        options = {} if options is None else options
        if not isinstance(options, dict):
            raise bad_request(_l("options must be an object."), "bad-options")
        try:
            return game, game.normalise(options)
        except (TypeError, ValueError) as exc:
            raise bad_request(reason_of(exc), "bad-options")


def shape(row: AnalysisRow) -> dict:
    """What the API serves of a stored analysis (docs/api.md, "Analysis"): while it waits, no plies yet."""
    answer = {"match": row.match_id, "status": row.status, "progress": round(row.progress, 3),
              "version": row.version, "ply_count": row.plies, "scale": SCALE, "plies": [], "summary": {}}
    if row.status == "done":
        answer.update(start=row.result["start"], plies=row.result["plies"], summary=row.result["summary"])
        # the best moves' cells and names, for the match page (quadrille/pictures.py)
        answer.update(pictures.best_moves_answer(row.game, row.options, row.moves, row.result["plies"]))
    elif row.status == "failed":
        answer["reason"] = (row.result or {}).get("reason", "The analysis failed.")
    return answer
