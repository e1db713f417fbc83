"""The analyses' SQL (infra/schema.py's `analyses` table): one row a match, the latest analysis asked of it."""
from __future__ import annotations

import json
from dataclasses import dataclass

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..infra.database import Database
from ..infra.schema import analyses_table as table, matches_table

WAITING = ("queued", "running")


@dataclass
class AnalysisRow:
    match_id: str
    version: int
    plies: int
    game: str
    options: dict
    moves: list
    status: str
    progress: float
    result: dict | None
    owner: str
    requested_at: float
    finished_at: float | None

    @classmethod
    def of(cls, row) -> "AnalysisRow":
        return cls(row.match_id, row.version, row.plies, row.game, json.loads(row.options), json.loads(row.moves),
                   row.status, row.progress, json.loads(row.result) if row.result else None, row.owner,
                   row.requested_at, row.finished_at)


class AnalysisStore:
    def __init__(self, storage: Database):
        self.engine = storage.engine
        self.reading = storage.reading

    def get(self, match_id: str) -> AnalysisRow | None:
        """The match's analysis; None, and the row forgotten, once the match itself was deleted (an import
        nobody opened, a moderator's deletion: no foreign keys here, infra/schema.py)."""
        with self.reading() as conn:
            row = conn.execute(select(table, matches_table.c.id.label("exists_"))
                               .outerjoin(matches_table, matches_table.c.id == table.c.match_id)
                               .where(table.c.match_id == match_id)).first()
        if row is not None and row.exists_ is None:
            with self.engine.begin() as conn:
                conn.execute(delete(table).where(table.c.match_id == match_id))
            return None
        return None if row is None else AnalysisRow.of(row)

    def request(self, match_id: str, version: int, game: str, options: dict, moves: list, owner: str,
                now: float) -> None:
        """A new analysis of the match, queued; it replaces an older one of the match (of fewer moves, or failed)."""
        values = {"match_id": match_id, "version": version, "plies": len(moves), "game": game,
                  "options": json.dumps(options), "moves": json.dumps(moves), "status": "queued", "progress": 0.0,
                  "result": None, "owner": owner, "requested_at": now, "finished_at": None}
        try:
            with self.engine.begin() as conn:
                conn.execute(delete(table).where(table.c.match_id == match_id))
                conn.execute(insert(table).values(**values))
        except IntegrityError:
            pass  # the same request from another process, at the same moment: its row stands

    def progress(self, match_id: str, version: int, progress: float, partial: dict) -> bool:
        """The analysis runs: how far it is, and what it has found so far (to resume from after a restart).
        False when a newer request replaced it."""
        return self._update(match_id, version, status="running", progress=progress, result=json.dumps(partial))

    def finish(self, match_id: str, version: int, result: dict, now: float) -> None:
        self._update(match_id, version, status="done", progress=1.0, result=json.dumps(result), finished_at=now)

    def fail(self, match_id: str, version: int, reason: str, now: float) -> None:
        self._update(match_id, version, status="failed", result=json.dumps({"reason": reason}), finished_at=now)

    def _update(self, match_id: str, version: int, **values) -> bool:
        """Only the analysis of that version: a newer request replaced the row meanwhile, and is left alone."""
        with self.engine.begin() as conn:
            return 1 == conn.execute(update(table).where(table.c.match_id == match_id, table.c.version == version)
                         .values(**values)).rowcount

    def unfinished(self) -> list[AnalysisRow]:
        """The analyses queued or running, oldest first (at start-up: those a stop interrupted)."""
        with self.reading() as conn:
            rows = conn.execute(select(table).join(matches_table, matches_table.c.id == table.c.match_id)
                                .where(table.c.status.in_(WAITING)).order_by(table.c.requested_at))
            return [AnalysisRow.of(row) for row in rows]

    def waiting_for(self, owner: str) -> int:
        """How many analyses the address has queued or running."""
        with self.reading() as conn:
            return conn.execute(select(func.count()).select_from(table)
                                .join(matches_table, matches_table.c.id == table.c.match_id)
                                .where(table.c.owner == owner, table.c.status.in_(WAITING))).scalar_one()
