"""What lists of games read of matches: their rows and summaries (matches/summary.py), never their events.

Part of the matches' storage (store.py's Storage inherits it): it reads through the Database's `reading()`.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from sqlalchemy import bindparam, func, select, true

from ..infra.schema import matches_table, seats_table


@dataclass
class ListedRow:
    """A match as lists of games read it: its row's own columns and its summary (JSON text, None for a match
    of an earlier release), never its events."""
    id: str
    game: str
    mode: str
    options: dict
    name: str | None
    created: float
    version: int
    updated: float
    visibility: str
    revision: int
    summary: str | None


def _listed_row(row) -> ListedRow:
    return ListedRow(id=row.id, game=row.game, mode=row.mode, options=json.loads(row.options), name=row.name,
                     created=row.created, version=row.version, updated=row.updated, visibility=row.visibility,
                     revision=row.revision, summary=row.summary)


class ListReads:
    """The reads of lists of games (a mixin of Storage, which gives `reading()`)."""

    def find_by_name(self, name: str) -> ListedRow | None:
        """The newest match with this name (its row and summary, as lists read it), or None."""
        with self.reading() as conn:
            row = conn.execute(self._listed.where(matches_table.c.name == name)
                               .order_by(matches_table.c.created.desc()).limit(1)).first()
        return _listed_row(row) if row else None

    _listed = select(matches_table.c.id, matches_table.c.game, matches_table.c.mode, matches_table.c.options,
                     matches_table.c.name, matches_table.c.created, matches_table.c.version, matches_table.c.updated,
                     matches_table.c.visibility, matches_table.c.revision, matches_table.c.summary)

    def listed(self, match_ids) -> dict[str, ListedRow]:
        """The rows of these matches that exist, by primary key: what a list of games shows of each."""
        match_ids = list(match_ids)
        if not match_ids:
            return {}
        with self.reading() as conn:
            return {row.id: _listed_row(row) for row in conn.execute(
                self._listed.where(matches_table.c.id.in_(match_ids)))}

    def unsummarised(self, after: str = "", limit: int = 100) -> list[str]:
        """Ids of matches without a summary, in id order after `after` (the start-up's backfill walks them a
        batch at a time along the primary key)."""
        with self.reading() as conn:
            return list(conn.execute(select(matches_table.c.id).where(
                matches_table.c.id > after, matches_table.c.summary.is_(None))
                .order_by(matches_table.c.id).limit(limit)).scalars())

    # The newest entries of ix_matches_listed_updated under listed: its cost does not grow with the number of
    # matches or events, listed or not.
    # The free seats of each listed match: people's seats that nobody holds (read by the seats' primary key).
    _free_seats = (select(func.count()).select_from(seats_table)
                   .where(seats_table.c.match_id == matches_table.c.id, seats_table.c.kind == "human",
                          seats_table.c.token_hash.is_(None))
                   .scalar_subquery())
    _recent = (select(matches_table.c.id, matches_table.c.game, matches_table.c.mode, matches_table.c.name,
                      matches_table.c.created, matches_table.c.version, matches_table.c.visibility,
                      _free_seats.label("free_seats"), matches_table.c.revision, matches_table.c.summary)
               .where(matches_table.c.listed == true())
               .order_by(matches_table.c.updated.desc()).limit(bindparam("limit")))

    def recent_matches(self, limit: int = 20) -> list[dict]:
        """The most recently active listed matches, newest first: id, game, mode, name, created, version,
        visibility, free_seats (the people's seats nobody holds), and for the match service revision and summary
        (matches/summary.py). Unlisted matches (private ones, local, against the computer, embedded) never
        appear."""
        with self.reading() as conn:
            return [r._asdict() for r in conn.execute(self._recent, {"limit": limit})]
