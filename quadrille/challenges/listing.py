"""Challenges as the API shows them: one described, and an account's incoming and outgoing lists read in four
queries, whatever the number of challenges (each of them read alone took three)."""
from __future__ import annotations

import json

from sqlalchemy import select

import games

from .. import option_words
from ..infra.schema import challenge_invitees_table, challenges_table


def describe(row, invitees, names: dict) -> dict:
    """A challenge as the API shows it, given its invitees' rows and the accounts' names."""
    options = json.loads(row.options)
    return {
        "challenge": row.id, "game": row.game, "title": games.get(row.game).title,
        "options": options, "options_words": option_words.describe(row.game, options),
        "clock": json.loads(row.clock) if row.clock else None,
        "rated": bool(row.rated), "first": row.first, "status": row.status, "match": row.match_id,
        "from": names.get(row.challenger, "deleted player"),
        "to": [{"name": names.get(i.account_id, "deleted player"), "status": i.status} for i in invitees],
        "created": row.created, "updated": row.updated,
    }


def listing(reading, accounts, account) -> dict:
    """{"incoming": challenges waiting for this account's answer, newest first, "outgoing": its own, the latest
    50}; `reading()` opens a read, `accounts.names(ids)` names accounts."""
    with reading() as conn:
        incoming_ids = list(conn.execute(select(challenge_invitees_table.c.challenge_id).where(
            challenge_invitees_table.c.account_id == account.id,
            challenge_invitees_table.c.status == "pending")).scalars())
        outgoing = conn.execute(select(challenges_table).where(
            challenges_table.c.challenger == account.id).order_by(challenges_table.c.updated.desc())
            .limit(50)).all()
        incoming = conn.execute(select(challenges_table).where(
            challenges_table.c.id.in_(incoming_ids), challenges_table.c.status == "pending")).all() \
            if incoming_ids else []
        ids = [row.id for row in outgoing] + [row.id for row in incoming]
        invitees: dict[str, list] = {}
        for invitee in (conn.execute(select(challenge_invitees_table).where(
                challenge_invitees_table.c.challenge_id.in_(ids)).order_by(
                challenge_invitees_table.c.challenge_id, challenge_invitees_table.c.account_id)) if ids else ()):
            invitees.setdefault(invitee.challenge_id, []).append(invitee)
    names = accounts.names({row.challenger for row in [*outgoing, *incoming]}
                           | {i.account_id for found in invitees.values() for i in found})
    return {"incoming": sorted((describe(row, invitees.get(row.id, []), names) for row in incoming),
                               key=lambda c: -c["created"]),
            "outgoing": [describe(row, invitees.get(row.id, []), names) for row in outgoing]}
