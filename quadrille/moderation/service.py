"""The moderation service: what the operator's commands and the moderators' page do, one method an action.

Each action changes the database first, then records itself in the audit log (`moderation_log`) and in the
log `quadrille.moderation` (who, what, whom; never a secret). A running server follows the audit log (live.py)
and does what its memory needs: a ban or a close made by the command line reaches its sockets within a
second. Whatever checks who is asking reads the account's row (the session's and the API token's look-ups join
it), so a ban holds at once in every process, with no query of its own.

- ban: the account cannot log in; its sessions end, its API tokens open nothing (kept, for an unban), its seats
  go to a new seat key (the key its browsers keep plays nothing), its pending challenges close, and nobody can
  challenge it (so it plays no rated game). unban undoes the refusals: it logs in again and gets its seats back.
- mute / unmute: the account cannot name what others see (a by-name match's name, a seat's name): Quadrille
  has no chat or messages, and these are the only words a player shows others (moderation_api.py refuses them).
- close: a match under way ends as aborted by the site (an `abort` event, `by: "site"`): no result, unrated.
- delete: closed first if under way, then the match and its record are gone.
- free_name: a by-name match's name is free for a new match (the match stays playable by its link).
- reset_rating: an account's rating of one game starts again (its history in that game goes).
"""
from __future__ import annotations

import logging
import time

from ..errors import ServiceError
from ..i18n.words import N_
from ..i18n import _l, _ln
from ..matches.core import Decision
from . import decisions
from .store import ModerationStore

log = logging.getLogger("quadrille.moderation")
CONSOLE = "console"          # the actor the command line records
REPORTS_PER_DAY = 20         # reports one account may file in a day, besides the budget per address


class ModerationService:
    def __init__(self, storage, matches, accounts, challenges, clock=time.time, budget=None):
        """`budget(account_id)`: False once the account sent too many reports lately (REPORT_RATE)."""
        self.budget = budget or (lambda account_id: True)
        self.store = ModerationStore(storage, clock)
        self.matches, self.accounts, self.challenges, self.clock = matches, accounts, challenges, clock

    # -- who --------------------------------------------------------------------------------------------
    def account(self, name):
        found = self.accounts.by_name(name) if isinstance(name, str) else None
        if found is None:
            raise ServiceError(404, "unknown-player", _l("There is no player called '%(name)s'.", name=name))
        return found

    def _done(self, actor: str, action: str, account=None, match_id=None, **detail) -> dict:
        entry_id = self.store.record(actor, action, account, match_id, **detail)
        whom = " ".join(part for part in (f"account {account.name} (id {account.id})" if account else "",
                                          f"match {match_id}" if match_id else "") if part)
        extra = "".join(f" {key}={value!r}" for key, value in sorted(detail.items()) if value is not None)
        log.info("moderation: %s %s %s%s", actor, action, whom, extra)
        return {"ok": True, "action": action, "log": entry_id}

    # -- accounts -----------------------------------------------------------------------------------
    def ban(self, actor: str, name, note=None) -> dict:
        note = decisions.text(note, decisions.MAX_NOTE, "note")
        account = self.account(name)
        if account.banned:
            raise ServiceError(409, "already-banned", _l("%(name)s is banned already.", name=account.name))
        if account.name == actor:
            raise ServiceError(403, "not-allowed", _l("A moderator cannot ban their own account."))
        with self.accounts.engine.begin() as conn:
            self.store.set_flags(conn, account.id, banned=self.clock())
            self.challenges.withdraw(conn, account.id)
        self.accounts.lock_out(account.id)  # sessions end, seats to a new key (after the flag: no new login)
        return self._done(actor, "ban", account, note=note)

    # the flags an action sets or clears: (flag, set?) -> the action's name, and the refusal when already so
    _FLAGS = {("banned", False): ("unban", "not-banned", N_("%(name)s is not banned.")),
              ("muted", True): ("mute", "already-muted", N_("%(name)s is muted already.")),
              ("muted", False): ("unmute", "not-muted", N_("%(name)s is not muted."))}

    def unban(self, actor: str, name, note=None) -> dict:
        return self._flag(actor, name, note, "banned", False)

    def mute(self, actor: str, name, note=None) -> dict:
        return self._flag(actor, name, note, "muted", True)

    def unmute(self, actor: str, name, note=None) -> dict:
        return self._flag(actor, name, note, "muted", False)

    def _flag(self, actor: str, name, note, flag: str, on: bool) -> dict:
        """Set (`on`: to now) or clear an account's `flag`; refused when it is so already."""
        action, reason, words = self._FLAGS[(flag, on)]
        note = decisions.text(note, decisions.MAX_NOTE, "note")
        account = self.account(name)
        if bool(getattr(account, flag)) == on:
            raise ServiceError(409, reason, _l(words, name=account.name))
        with self.accounts.engine.begin() as conn:
            self.store.set_flags(conn, account.id, **{flag: self.clock() if on else None})
        return self._done(actor, action, account, note=note)

    def set_moderator(self, actor: str, name, moderator: bool) -> dict:
        account = self.account(name)
        if account.moderator == moderator:
            raise ServiceError(409, "unchanged", _l("%(name)s is a moderator already.", name=account.name) if moderator
                               else _l("%(name)s is not a moderator already.", name=account.name))
        with self.accounts.engine.begin() as conn:
            self.store.set_flags(conn, account.id, moderator=moderator)
        return self._done(actor, "moderator" if moderator else "moderator-removed", account)

    def reset_rating(self, actor: str, name, game) -> dict:
        game = decisions.game(game)
        account = self.account(name)
        was = self.store.reset_rating(account.id, game)
        if was is None:
            raise ServiceError(409, "no-rating", _l("%(name)s has no %(game)s rating to reset.",
                                                    name=account.name, game=game))
        return self._done(actor, "reset-rating", account, game=game, was=was["rating"], games=was["games"])

    def sanctioned(self) -> list[dict]:
        return self.store.sanctioned()

    # -- matches ----------------------------------------------------------------------------------------
    def under_way(self, limit: int = 100) -> list[dict]:
        return self.store.under_way(limit)

    def close(self, actor: str, match_id, note=None) -> dict:
        """End a match under way as aborted by the site: recorded as an event, so its players see it end."""
        match_id, note = decisions.match_id(match_id), decisions.text(note, decisions.MAX_NOTE, "note")
        self._close(match_id)
        return self._done(actor, "close", match_id=match_id, note=note)

    def _close(self, match_id: str) -> None:
        match = self.matches.load(match_id)
        with match.lock:
            if match.outcome() is not None:
                raise ServiceError(409, "game-over", _l("This match is over already."))
            # the match core's own path for an event (written, then the room and the bus told), seatless
            self.matches.carry_out(match, Decision(event=("abort", {"seat": None, "by": "site"}, None)))

    def delete(self, actor: str, match_id, note=None) -> dict:
        match_id, note = decisions.match_id(match_id), decisions.text(note, decisions.MAX_NOTE, "note")
        if not self.store.match_exists(match_id):
            raise ServiceError(404, "not-found", _l("There is no such match."))
        try:
            self._close(match_id)  # its players see it end first (and a rated game is settled as aborted)
        except ServiceError as exc:
            if exc.error != "game-over":
                raise
        if not self.store.delete_match(match_id):
            raise ServiceError(404, "not-found", _l("There is no such match."))
        self.matches.forget([match_id])
        return self._done(actor, "delete", match_id=match_id, note=note)

    def free_name(self, actor: str, name) -> dict:
        key = decisions.match_name(name)
        freed = self.store.free_name(key)
        if not freed:
            raise ServiceError(404, "not-found", _l("No match is called '%(key)s'.", key=key))
        return self._done(actor, "free-name", match_id=freed[0], name=key, matches=len(freed))

    # -- reports ----------------------------------------------------------------------------------------
    def report(self, reporter, account=None, match=None, reason=None, text=None) -> dict:
        """A player reports an account or a match (or a player in a match), with a reason from REASONS and
        optional words."""
        account_name, match_id = decisions.target(account, match)
        reason, text = decisions.reason(reason), decisions.text(text)
        reported = self.account(account_name) if account_name is not None else None
        if reported is not None and reported.id == reporter.id:
            raise ServiceError(400, "bad-player", _l("You cannot report yourself."))
        if match_id is not None and not self.store.match_exists(match_id):
            raise ServiceError(404, "not-found", _l("There is no such match."))
        if not self.budget(reporter.id):
            raise ServiceError(429, "rate-limited", _l("You have sent many reports in a short time; wait a while "
                                                       "before the next one."))
        if self.store.reports_by(reporter.id, self.clock() - 86400) >= REPORTS_PER_DAY:
            raise ServiceError(429, "rate-limited", _ln("You have sent %(num)d report today; the moderators will "
                                                        "read it. Try again tomorrow.",
                                                        "You have sent %(num)d reports today; the moderators will "
                                                        "read them. Try again tomorrow.",
                                                        REPORTS_PER_DAY))
        report_id = self.store.add_report(reporter.id, reported.id if reported else None, match_id, reason, text)
        log.info("moderation: report %d by %s (id %d): %s%s, %s", report_id, reporter.name, reporter.id,
                 f"account {reported.name} " if reported else "", f"match {match_id}" if match_id else "", reason)
        return {"ok": True, "report": report_id}

    def reported_players(self, limit: int = 100) -> list[dict]:
        return self.store.reported_players(limit)

    def open_reports(self, limit: int = 100) -> list[dict]:
        return self.store.open_reports(limit)

    def dismiss(self, actor: str, report_id) -> dict:
        if not isinstance(report_id, int) or isinstance(report_id, bool) or not self.store.resolve_report(report_id):
            raise ServiceError(404, "not-found", _l("There is no such open report."))
        return self._done(actor, "dismiss-report", report=report_id)

    def journal(self, limit: int = 100) -> list[dict]:
        return self.store.journal(limit)
