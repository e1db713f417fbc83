"""Moderation's SQL: the accounts' moderation columns, matches under way, deleting a match, freeing a match name,
resetting a rating, reports and the audit log. Tables from quadrille/infra/schema.py (migration 0012)."""
from __future__ import annotations

import json
import time

from sqlalchemy import delete, func, insert, select, update

from ..infra.schema import (account_matches_table, accounts_table, clocks_table, events_table, matches_table,
                            moderation_log_table, rated_matches_table, rating_history_table, ratings_table,
                            reports_table, seats_table)
from ..matches import summary

SCAN = 500        # the most recently active matches looked at for "under way"
EVENTS = 1000     # events deleted per statement (a long match holds many)

accounts, reports, journal = accounts_table.c, reports_table.c, moderation_log_table.c


class ModerationStore:
    def __init__(self, storage, clock=time.time):
        self.engine, self.reading, self.clock = storage.engine, storage.reading, clock

    # -- accounts -------------------------------------------------------------------------------------
    def set_flags(self, conn, account_id: int, **values) -> None:
        """banned / muted (a time, or None) and moderator (bool), in the caller's transaction."""
        conn.execute(update(accounts_table).where(accounts.id == account_id).values(**values))

    def sanctioned(self) -> list[dict]:
        """Accounts banned or muted, and moderators: [{"id", "name", "banned", "muted", "moderator"}]."""
        with self.reading() as conn:
            rows = conn.execute(select(accounts.id, accounts.name, accounts.banned, accounts.muted, accounts.moderator)
                                .where(accounts.banned.is_not(None) | accounts.muted.is_not(None)
                                       | accounts.moderator.is_(True)).order_by(accounts.name_key)).all()
        return [dict(row._mapping) for row in rows]

    # -- matches -------------------------------------------------------------------------------------
    def under_way(self, limit: int) -> list[dict]:
        """Online matches not over, the most recently active first: {"id", "game", "name", "created",
        "updated", "version", "started", "players": [seat names]} (read from rows and summaries, never events)."""
        m = matches_table.c
        with self.reading() as conn:
            rows = conn.execute(select(m.id, m.game, m.name, m.created, m.updated, m.version, m.summary)
                                .where(m.mode == "online").order_by(m.updated.desc()).limit(SCAN)).all()
            found = []
            for row in rows:
                said = summary.read(row.summary) if row.summary else {}
                if said.get("outcome") is not None:
                    continue
                found.append({"id": row.id, "game": row.game, "name": row.name, "created": row.created,
                              "updated": row.updated, "version": row.version, "started": bool(said.get("started"))})
                if len(found) == limit:
                    break
            names = {}
            for seat in conn.execute(select(seats_table.c.match_id, seats_table.c.seat, seats_table.c.name)
                                     .where(seats_table.c.match_id.in_([f["id"] for f in found]))
                                     .order_by(seats_table.c.seat)):
                names.setdefault(seat.match_id, []).append(seat.name or "(free seat)")
        for entry in found:
            entry["players"] = names.get(entry["id"], [])
        return found

    def match_exists(self, match_id: str) -> bool:
        with self.reading() as conn:
            return conn.execute(select(matches_table.c.id).where(matches_table.c.id == match_id)).first() is not None

    def delete_match(self, match_id: str) -> bool:
        """The match, its seats, clock, players' list entries and rated entry, then its events (in batches, each
        its own transaction: a match whose row is gone is gone for every reader). Whether there was one."""
        with self.engine.begin() as conn:
            if not conn.execute(delete(matches_table).where(matches_table.c.id == match_id)).rowcount:
                return False
            for table in (seats_table, clocks_table, account_matches_table, rated_matches_table):
                conn.execute(delete(table).where(table.c.match_id == match_id))
        while True:
            with self.engine.begin() as conn:
                top = conn.execute(select(func.min(events_table.c.seq) + EVENTS)
                                   .where(events_table.c.match_id == match_id)).scalar()
                if top is None:
                    return True
                conn.execute(delete(events_table).where(events_table.c.match_id == match_id,
                                                        events_table.c.seq < top))

    def free_name(self, key: str) -> list[str]:
        """Every match of this name gives it up (it stays playable by its link); the ids of those that had it."""
        m = matches_table.c
        with self.engine.begin() as conn:
            ids = list(conn.execute(select(m.id).where(func.lower(m.name) == key)).scalars())
            if ids:
                conn.execute(update(matches_table).where(m.id.in_(ids)).values(name=None))
        return ids

    def reset_rating(self, account_id: int, game: str) -> dict | None:
        """The account's rating of this game and its history in it go (it starts again as a newcomer); what it
        was ({"rating", "rd", "games"}), or None when it had none."""
        r, h = ratings_table.c, rating_history_table.c
        with self.engine.begin() as conn:
            row = conn.execute(select(r.rating, r.rd, r.games).where(r.account_id == account_id, r.game == game)).first()
            conn.execute(delete(ratings_table).where(r.account_id == account_id, r.game == game))
            conn.execute(delete(rating_history_table).where(h.account_id == account_id, h.game == game))
        return {"rating": round(row.rating), "rd": round(row.rd), "games": row.games} if row else None

    # -- reports -------------------------------------------------------------------------------------
    def add_report(self, reporter: int, account_id: int | None, match_id: str | None, reason: str,
                   text: str | None) -> int:
        with self.engine.begin() as conn:
            return conn.execute(insert(reports_table).values(
                reporter=reporter, account_id=account_id, match_id=match_id, reason=reason, text=text,
                created=self.clock(), resolved=None)).inserted_primary_key[0]

    def open_reports(self, limit: int) -> list[dict]:
        """Reports no moderator dismissed yet, the newest first, with the names of both accounts."""
        reporter, reported = accounts_table.alias("reporter"), accounts_table.alias("reported")
        query = (select(reports, reporter.c.name.label("reporter_name"), reported.c.name.label("account_name"))
                 .outerjoin(reporter, reporter.c.id == reports.reporter)
                 .outerjoin(reported, reported.c.id == reports.account_id)
                 .where(reports.resolved.is_(None)).order_by(reports.created.desc(), reports.id.desc()).limit(limit))
        with self.reading() as conn:
            return [dict(row._mapping) for row in conn.execute(query)]

    def reported_players(self, limit: int) -> list[dict]:
        """The accounts others reported (open reports), the most reported first: {"account_id", "name",
        "reports", "reporters", "latest"}."""
        query = (select(reports.account_id, accounts.name, func.count().label("reports"),
                        func.count(reports.reporter.distinct()).label("reporters"),
                        func.max(reports.created).label("latest"))
                 .join(accounts_table, accounts.id == reports.account_id)
                 .where(reports.resolved.is_(None)).group_by(reports.account_id, accounts.name)
                 .order_by(func.count(reports.reporter.distinct()).desc(), func.max(reports.created).desc())
                 .limit(limit))
        with self.reading() as conn:
            return [dict(row._mapping) for row in conn.execute(query)]

    def resolve_report(self, report_id: int) -> bool:
        with self.engine.begin() as conn:
            return bool(conn.execute(update(reports_table).where(reports.id == report_id, reports.resolved.is_(None))
                                     .values(resolved=self.clock())).rowcount)

    def reports_by(self, reporter: int, since: float) -> int:
        with self.reading() as conn:
            return conn.execute(select(func.count()).select_from(reports_table)
                                .where(reports.reporter == reporter, reports.created >= since)).scalar_one()

    # -- the audit log --------------------------------------------------------------------------------
    def record(self, actor: str, action: str, account=None, match_id: str | None = None, **detail) -> int:
        with self.engine.begin() as conn:
            return conn.execute(insert(moderation_log_table).values(
                at=self.clock(), actor=actor[:40], action=action, account_id=account.id if account else None,
                account_name=account.name if account else None, match_id=match_id,
                detail=json.dumps(detail, sort_keys=True))).inserted_primary_key[0]

    def journal(self, limit: int = 100, after: int = 0) -> list[dict]:
        """Actions after id `after`: the newest `limit` first (after=0), or all of them oldest first (after>0,
        as a server process follows them)."""
        query = select(moderation_log_table).where(journal.id > after)
        query = query.order_by(journal.id.desc()).limit(limit) if not after else query.order_by(journal.id)
        with self.reading() as conn:
            return [{**row._mapping, "detail": json.loads(row.detail or "{}")} for row in conn.execute(query)]

    def last_id(self) -> int:
        with self.reading() as conn:
            return conn.execute(select(func.max(journal.id))).scalar() or 0
