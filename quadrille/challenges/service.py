"""Challenges, as lila's challenge module: an account challenges one named player (Gamma: several) to a game
with its options, who moves first, rated or not, and a time control; each one challenged accepts or
declines; the challenger may cancel while it is pending. An accepted challenge becomes an online match whose
seats the accounts' seat keys hold, so both find it in their lists and continue it from any browser.

A Gamma challenge of several players starts when every one has accepted, or when its creator starts it with
those who did. A challenge's `clock` is kept verbatim and given to the match service exactly as
POST /api/matches would take it (the match service's own `clock` argument, where the clocks exist).

Status: pending → accepted | declined | cancelled, each change a conditional UPDATE, so two answers racing
(accept and cancel, say) leave one winner and the other a clear `challenge-closed`.

What one account may ask of others (issue 22: one account made and cancelled 150 challenges in 3.1 s, 300
events on its victim's page): each account makes at most CHALLENGE_RATE challenges (`budget`, counted where
the other budgets are, so across processes), at most MAX_PENDING of them waiting at once; a player has at
most `max_incoming` challenges waiting for their answer (CHALLENGES_WAITING_MAX); and a player may block an
account (blocks.py), whose challenges are then refused as "not accepted", nothing more. A rated challenge is
checked by the ratings (`RatingService.check_rated`): the standard start, and the pair's rated games of the day.
"""
from __future__ import annotations

import json
import secrets
import time
from typing import Callable

from sqlalchemy import func, insert, select, update

import games
from games.reasons import reason_of

from ..errors import ServiceError, bad_request
from ..i18n import _l, _ln
from ..infra.schema import challenge_invitees_table, challenges_table
from ..matches import MatchService
from ..matches.sides import creator_seat
from .blocks import Blocks
from .listing import describe, listing
from .refusals import closed, not_accepted, not_found

FIRSTS = ("random", "challenger", "opponent")
MAX_PENDING = 20          # pending challenges an account may have out at once
MAX_INVITEES = 7          # a Gamma challenge: up to eight players in all


class ChallengeService:
    def __init__(self, storage, matches: MatchService, accounts, ratings,
                 notify: Callable[[int, str, dict], None] | None = None,
                 budget: Callable[[int], bool] | None = None, max_incoming: int = 30):
        """`notify(account_id, event, payload)`: tells a player's open pages (Socket.IO) at once.
        `budget(account_id)`: counts a challenge the account makes, False when it has made too many lately
        (CHALLENGE_RATE); `max_incoming`: challenges waiting for one player's answer (CHALLENGES_WAITING_MAX)."""
        self.engine = storage.engine
        self.reading = storage.reading  # a connection for reads only
        self.matches = matches
        self.accounts = accounts
        self.ratings = ratings
        self.notify = notify or (lambda account_id, event, payload: None)
        self.budget = budget or (lambda account_id: True)
        self.max_incoming = max_incoming
        self.blocks = Blocks(storage, accounts)

    # -- making one -------------------------------------------------------------------------------
    def create(self, challenger, to, game_name, options=None, rated=False, clock=None, first="random") -> dict:
        game = self._game(game_name)
        names = [to] if isinstance(to, str) else to
        if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
            raise bad_request(_l("to must be a player's name (or, for Gamma, a list of names)."), "bad-player")
        if len(names) > 1 and game.seats[1] is not None and game.seats[1] < len(names) + 1 or len(names) > MAX_INVITEES:
            raise bad_request(_l("%(title)s is for two players: challenge one.", title=game.title), "bad-player")
        invitees = []
        for name in names:
            account = self.accounts.by_name(name)
            if account is None:
                raise ServiceError(404, "unknown-player", _l("There is no player called '%(name)s'.", name=name))
            if account.id == challenger.id:
                raise bad_request(_l("You cannot challenge yourself."), "self-challenge")
            if account.id in (a.id for a in invitees):
                raise bad_request(_l("%(name)s is named twice.", name=account.name), "bad-player")
            invitees.append(account)
        if options is not None and not isinstance(options, dict):
            raise bad_request(_l("options must be an object."), "bad-options")
        options = dict(options or {})
        if "players" in game.options:
            options["players"] = len(invitees) + 1
        try:
            options = MatchService.offered_options(game, options)
        except ValueError as exc:
            raise bad_request(reason_of(exc), "bad-options")
        if not isinstance(rated, bool):
            raise bad_request(_l("rated must be true or false."), "bad-rated")
        if rated and len(invitees) > 1:
            raise bad_request(_l("Games of more than two players are not rated."), "bad-rated")
        if first not in FIRSTS:
            raise bad_request(_l("first must be one of: %(choices)s.", choices=", ".join(FIRSTS)), "bad-first")
        if rated:
            self.ratings.check_rated(game, options, [challenger.id, invitees[0].id])
        clock_text = self._clock(clock)
        if not self.budget(challenger.id):
            raise ServiceError(429, "rate-limited", _l("You have made many challenges in a short time; wait a few "
                                                       "minutes before the next one."))
        now = time.time()
        challenge_id = secrets.token_urlsafe(6)
        with self.engine.begin() as conn:
            pending = conn.execute(select(func.count()).select_from(challenges_table).where(
                challenges_table.c.challenger == challenger.id, challenges_table.c.status == "pending")).scalar_one()
            if pending >= MAX_PENDING:
                raise ServiceError(429, "too-many-challenges",
                                   _ln("You have %(num)d challenge waiting for an answer; cancel it first.",
                                       "You have %(num)d challenges waiting for an answer; cancel some first.",
                                       pending))
            for account in invitees:
                self._check_reachable(conn, challenger, account)
            conn.execute(insert(challenges_table).values(
                id=challenge_id, challenger=challenger.id, game=game.name, options=json.dumps(options),
                clock=clock_text, rated=rated, first=first, status="pending", match_id=None, created=now,
                updated=now))
            for account in invitees:
                conn.execute(insert(challenge_invitees_table).values(challenge_id=challenge_id,
                                                                     account_id=account.id, status="pending"))
        found = self.get(challenge_id)
        for account in invitees:
            self.notify(account.id, "challenge", found)
        return found

    def _check_reachable(self, conn, challenger, account) -> None:
        """The player may be challenged by this account now: they do not block it and are not banned (a refusal
        in the words of any refusal), and fewer than `max_incoming` challenges wait for their answer."""
        if account.banned or self.blocks.blocks(conn, account.id, challenger.id):
            raise not_accepted()
        waiting = conn.execute(select(func.count()).select_from(challenge_invitees_table).join(
            challenges_table, challenges_table.c.id == challenge_invitees_table.c.challenge_id).where(
            challenge_invitees_table.c.account_id == account.id, challenge_invitees_table.c.status == "pending",
            challenges_table.c.status == "pending")).scalar_one()
        if waiting >= self.max_incoming:
            raise ServiceError(429, "too-many-challenges", _ln("%(name)s has %(num)d challenge waiting for an "
                                                               "answer, the most they can have; try again later.",
                                                                   "%(name)s has %(num)d challenges waiting for an "
                                                                   "answer, the most they can have; try again later.",
                                                                   waiting, name=account.name))

    def _clock(self, clock) -> str | None:
        """The time control, checked now by the clocks' one check (bad-clock), kept as sent and given to the
        match's creation when the challenge is accepted, exactly as POST /api/matches would take it."""
        self.matches.clocks.parse(clock, "online")
        return None if clock is None else json.dumps(clock)

    @staticmethod
    def _game(game_name) -> games.Game:
        try:
            return games.get(game_name)
        except (KeyError, TypeError):
            raise bad_request(_l("game must be one of: %(choices)s.", choices=", ".join(games.names())), "unknown-game")

    # -- reading ----------------------------------------------------------------------------------
    def _row(self, conn, challenge_id):
        if not isinstance(challenge_id, str) or len(challenge_id) > 16:
            return None
        return conn.execute(select(challenges_table).where(challenges_table.c.id == challenge_id)).first()

    def get(self, challenge_id) -> dict:
        with self.reading() as conn:
            row = self._row(conn, challenge_id)
            if row is None:
                raise not_found()
            invitees = conn.execute(select(challenge_invitees_table).where(
                challenge_invitees_table.c.challenge_id == challenge_id)).all()
        return self._describe(row, invitees)

    def _describe(self, row, invitees, names: dict | None = None) -> dict:
        """A challenge as the API shows it; `names`: the accounts' names, when the caller read them already."""
        if names is None:
            names = self.accounts.names([row.challenger] + [i.account_id for i in invitees])
        return describe(row, invitees, names)

    def listing(self, account) -> dict:
        """{"incoming": challenges waiting for this account's answer, "outgoing": its own, the latest 50}."""
        return listing(self.reading, self.accounts, account)

    # -- answering --------------------------------------------------------------------------------
    def _invitee(self, conn, row, account):
        if row is None:
            raise not_found()
        invitee = conn.execute(select(challenge_invitees_table).where(
            challenge_invitees_table.c.challenge_id == row.id,
            challenge_invitees_table.c.account_id == account.id)).first()
        if invitee is None:
            if row.challenger == account.id:
                raise ServiceError(403, "not-yours", _l("This is your own challenge: the player you challenged "
                                                        "answers it."))
            raise not_found()
        if row.status != "pending":
            raise closed(row.status)
        if invitee.status != "pending":
            raise ServiceError(409, "challenge-closed",
                               _l("You have accepted this challenge already.") if invitee.status == "accepted"
                               else _l("You have declined this challenge already.") if invitee.status == "declined"
                               else _l("You have answered this challenge already."))
        return invitee

    def accept(self, account, challenge_id) -> dict:
        with self.engine.begin() as conn:
            row = self._row(conn, challenge_id)
            self._invitee(conn, row, account)
            answered = conn.execute(update(challenge_invitees_table).where(
                challenge_invitees_table.c.challenge_id == row.id,
                challenge_invitees_table.c.account_id == account.id,
                challenge_invitees_table.c.status == "pending").values(status="accepted", answered=time.time()))
            if answered.rowcount != 1:
                raise closed("answered")
            remaining = conn.execute(select(func.count()).select_from(challenge_invitees_table).where(
                challenge_invitees_table.c.challenge_id == row.id,
                challenge_invitees_table.c.status != "accepted")).scalar_one()
        if remaining:
            found = self.get(row.id)
            self.notify(row.challenger, "challenge", found)
            return {**found, "match": None}
        try:
            return self._begin(row)
        except ServiceError as exc:
            if exc.error != "challenge-closed":
                raise
            return self.get(row.id)  # the last two accepted at once: the other one began it

    def start(self, account, challenge_id) -> dict:
        """The creator of a challenge of several players starts it with those who accepted."""
        with self.reading() as conn:
            row = self._row(conn, challenge_id)
            if row is None or row.challenger != account.id:
                raise not_found()
            if row.status != "pending":
                raise closed(row.status)
            accepted = conn.execute(select(func.count()).select_from(challenge_invitees_table).where(
                challenge_invitees_table.c.challenge_id == row.id,
                challenge_invitees_table.c.status == "accepted")).scalar_one()
        if not accepted:
            raise ServiceError(409, "not-enough-players", _l("Nobody has accepted yet: wait, or cancel the challenge."))
        return self._begin(row)

    def _begin(self, row) -> dict:
        """Close the challenge as accepted (once: the conditional UPDATE), then make its match."""
        with self.engine.begin() as conn:
            won = conn.execute(update(challenges_table).where(challenges_table.c.id == row.id,
                                                              challenges_table.c.status == "pending")
                               .values(status="accepted", updated=time.time()))
            if won.rowcount != 1:
                raise closed("answered")
            players = [r.account_id for r in conn.execute(select(challenge_invitees_table).where(
                challenge_invitees_table.c.challenge_id == row.id,
                challenge_invitees_table.c.status == "accepted"))]
        try:
            match_id = self._make_match(row, players)
        except Exception:
            with self.engine.begin() as conn:  # the match could not be made: the challenge stands, as it was
                conn.execute(update(challenges_table).where(challenges_table.c.id == row.id)
                             .values(status="pending"))
                conn.execute(update(challenge_invitees_table).where(
                    challenge_invitees_table.c.challenge_id == row.id,
                    challenge_invitees_table.c.status == "accepted").values(status="pending", answered=None))
            raise
        with self.engine.begin() as conn:
            conn.execute(update(challenges_table).where(challenges_table.c.id == row.id).values(match_id=match_id))
        found = self.get(row.id)
        for account_id in [row.challenger, *players]:
            self.notify(account_id, "challenge", found)
        return found

    def _make_match(self, row, players: list[int]) -> str:
        challenger = self.accounts.get(row.challenger)
        opponents = [a for a in (self.accounts.get(i) for i in players) if a is not None]
        if challenger is None or not opponents:
            raise ServiceError(409, "challenge-closed", _l("A player of this challenge has deleted their account."))
        game = games.get(row.game)
        options = json.loads(row.options)
        if "players" in game.options:
            options["players"] = len(opponents) + 1
        extra = {"clock": json.loads(row.clock)} if row.clock else {}
        creator_starts = "players" in game.options  # Gamma: its creator (seat 1) starts it
        if creator_starts:
            mine = 1
        else:
            mine = creator_seat(game, options, {"challenger": "first", "opponent": "second"}.get(row.first, "random"))
        created = self.matches.create(game.name, options, "online", seats=[mine], player=challenger.name,
                                      token=challenger.seat_key, **extra)
        match_id = created["match"]
        seats = {mine: challenger.id}
        free = [s for s in range(1, len(opponents) + 2) if s != mine]
        for seat, opponent in zip(free, opponents):
            self.matches.claim_seat(match_id, seat=seat, player=opponent.name, invite=created["invite_secret"],
                               token=opponent.seat_key)
            seats[seat] = opponent.id
        if creator_starts:
            self.matches.start(match_id, challenger.seat_key)
        for seat, account_id in seats.items():
            self.accounts.record_seats(account_id, match_id, [seat])
        if row.rated and len(seats) == 2:
            self.ratings.register(match_id, game.name, seats, options)
        return match_id

    def decline(self, account, challenge_id) -> dict:
        with self.engine.begin() as conn:
            row = self._row(conn, challenge_id)
            self._invitee(conn, row, account)
            if self._declined_by(conn, row.id, account.id):
                conn.execute(update(challenges_table).where(challenges_table.c.id == row.id)
                             .values(updated=time.time()))
        found = self.get(row.id)
        self.notify(row.challenger, "challenge", found)
        return found

    @staticmethod
    def _declined_by(conn, challenge_id, account_id: int) -> bool:
        """The invitee's pending answer becomes a decline; a challenge nobody is left to accept is declined.
        Whether anyone is left."""
        now = time.time()
        conn.execute(update(challenge_invitees_table).where(
            challenge_invitees_table.c.challenge_id == challenge_id,
            challenge_invitees_table.c.account_id == account_id,
            challenge_invitees_table.c.status == "pending").values(status="declined", answered=now))
        left = conn.execute(select(func.count()).select_from(challenge_invitees_table).where(
            challenge_invitees_table.c.challenge_id == challenge_id,
            challenge_invitees_table.c.status != "declined")).scalar_one()
        if not left:  # everyone declined
            conn.execute(update(challenges_table).where(challenges_table.c.id == challenge_id,
                                                        challenges_table.c.status == "pending")
                         .values(status="declined", updated=now))
        return bool(left)

    # -- a deleted account ------------------------------------------------------------------------
    def forget(self, conn, account_id: int) -> None:
        """A deleted account's pending challenges, in the deletion's transaction: those it made are cancelled,
        and it declines those it was invited to (as `decline` does, without telling anyone); its blocks go."""
        self.withdraw(conn, account_id)
        self.blocks.forget(conn, account_id)

    def withdraw(self, conn, account_id: int) -> None:
        """The account's pending challenges close, in the caller's transaction: those it made are cancelled, and
        it declines those it was invited to (a deletion's, and a ban's: quadrille/moderation/)."""
        made = list(conn.execute(select(challenges_table.c.id).where(
            challenges_table.c.challenger == account_id, challenges_table.c.status == "pending")).scalars())
        conn.execute(update(challenges_table).where(challenges_table.c.id.in_(made))
                     .values(status="cancelled", updated=time.time()))
        self._close_answers(conn, made)
        waiting = list(conn.execute(select(challenge_invitees_table.c.challenge_id).where(
            challenge_invitees_table.c.account_id == account_id,
            challenge_invitees_table.c.status == "pending")).scalars())
        for challenge_id in waiting:
            self._declined_by(conn, challenge_id, account_id)

    def cancel(self, account, challenge_id) -> dict:
        with self.engine.begin() as conn:
            row = self._row(conn, challenge_id)
            if row is None or row.challenger != account.id:
                if row is not None and conn.execute(select(challenge_invitees_table).where(
                        challenge_invitees_table.c.challenge_id == row.id,
                        challenge_invitees_table.c.account_id == account.id)).first():
                    raise ServiceError(403, "not-yours", _l("Only the challenger can cancel a challenge; decline it "
                                                            "instead."))
                raise not_found()
            done = conn.execute(update(challenges_table).where(challenges_table.c.id == row.id,
                                                               challenges_table.c.status == "pending")
                                .values(status="cancelled", updated=time.time()))
            if done.rowcount != 1:
                raise closed(row.status)
            self._close_answers(conn, [row.id])
            invitees = [r.account_id for r in conn.execute(select(challenge_invitees_table.c.account_id).where(
                challenge_invitees_table.c.challenge_id == row.id))]
        found = self.get(row.id)
        for account_id in invitees:
            self.notify(account_id, "challenge", found)
        return found

    @staticmethod
    def _close_answers(conn, challenge_ids: list[str]) -> None:
        """The answers still awaited for cancelled challenges are closed too (status cancelled), so that a
        player's waiting challenges are only those still open (the cap on them counts these rows)."""
        if challenge_ids:
            conn.execute(update(challenge_invitees_table).where(
                challenge_invitees_table.c.challenge_id.in_(challenge_ids),
                challenge_invitees_table.c.status == "pending").values(status="cancelled"))

    # -- blocks -----------------------------------------------------------------------------------
    def block(self, account, name) -> list[dict]:
        """Block a player: their challenges are refused from now on, and those waiting for this account's
        answer are declined (they hear "declined", as for any decline). The blocks, as `blocks.listing`."""
        with self.engine.begin() as conn:
            other = self.blocks.block(conn, account, name)
            waiting = list(conn.execute(select(challenges_table.c.id).join(
                challenge_invitees_table, challenge_invitees_table.c.challenge_id == challenges_table.c.id).where(
                challenges_table.c.challenger == other.id, challenges_table.c.status == "pending",
                challenge_invitees_table.c.account_id == account.id,
                challenge_invitees_table.c.status == "pending")).scalars())
            for challenge_id in waiting:
                if self._declined_by(conn, challenge_id, account.id):
                    conn.execute(update(challenges_table).where(challenges_table.c.id == challenge_id)
                                 .values(updated=time.time()))
        for challenge_id in waiting:
            self.notify(other.id, "challenge", self.get(challenge_id))
        return self.blocks.listing(account)
