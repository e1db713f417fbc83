"""The account service: who a player is, what proves it, and which seats are theirs.

An account's seats are held by its **seat key**: a token like any seat token (the match service knows
nothing of accounts), derived from the site's secret and a random salt of the account's own, so the server
can hand it again to the account's owner in any browser that logs in, and a bot's API token can stand for it
(web/players_api.py). Matches made for an account (a challenge) are created with its seat key; a player who
played anonymously and then signs up or logs in hands the seats of their browser's tokens over to it
(`claim_matches`), and the old tokens hold nothing afterwards.

`account_matches` lists which matches each account plays, for "my games"; the seats themselves are the
match's own. A password change with "sign out everywhere" gives the account a new seat key, handing every
seat of the old one over to it (`change_password`), so a copy of the old key plays nothing any more.

What proves who a player is: a server-side session (account_sessions.py; the cookie names it) or an API
token (api_tokens.py). Passwords are checked and hashed off the event loop, in the pool of
password_pool.py. Deleting an account is deletion.py's.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets
import time
from dataclasses import dataclass
from typing import Callable

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from ..errors import ServiceError, bad_request
from ..i18n import _l
from ..infra.schema import account_matches_table, accounts_table, matches_table
from ..infra.tokens import well_formed
from . import deletion
from .account_sessions import Sessions
from .api_tokens import PREFIX as API_TOKEN_PREFIX, ApiTokens, is_api_token
from .password_pool import PasswordPool, for_async_mode
from .passwords import hash_password, needs_rehash, verify_or_dummy

NAME = re.compile(r"[A-Za-z0-9_-]{2,20}")
MIN_PASSWORD, MAX_PASSWORD = 8, 256
SEAT_KEY_PREFIX = "qsk_"
MAX_CLAIMS = 500                    # matches a browser hands over (or lists) at once
DELETED = deletion.DELETED
SESSION_LIFETIME = 30 * 24 * 3600.0

__all__ = ["API_TOKEN_PREFIX", "Account", "AccountService", "checked_tokens", "is_api_token"]


def bad_credentials() -> ServiceError:
    # One answer for an unknown name and a wrong password: the wording never tells which.
    return ServiceError(401, "bad-credentials", _l("Wrong user name or password."))


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    seat_key: str
    # moderation (quadrille/moderation/): a banned account's sessions and API tokens open nothing, and it cannot
    # log in; a muted one names nothing others see; a moderator may use /moderation
    banned: bool = False
    muted: bool = False
    moderator: bool = False
    # the language the member chose (quadrille/i18n/), or None: their pages follow the browser
    language: str | None = None

    def public(self) -> dict:
        return {"id": self.id, "name": self.name}


def banned() -> ServiceError:
    return ServiceError(403, "banned", _l("This account is banned from this site."))


def checked_tokens(tokens) -> dict:
    """A browser's seat tokens ({match id: token}, as its pages keep them), or a 400 `bad-request` when they
    are not an object of strings or are too many to look at (a token that is a number or a list was passed
    over in silence before: bad input is refused, never half taken)."""
    if not isinstance(tokens, dict) or len(tokens) > MAX_CLAIMS:
        raise bad_request(_l("tokens must be an object of at most %(most)d match ids and their tokens.",
                             most=MAX_CLAIMS))
    if not all(isinstance(token, str) for token in tokens.values()):
        raise bad_request(_l("tokens must map each match id to its token, a string."))
    return tokens


class AccountService:
    def __init__(self, storage, matches, secret: bytes | str, hashing: PasswordPool | None = None,
                 session_lifetime: float = SESSION_LIFETIME, pause: Callable[[float], None] | None = None):
        """`storage`: the match storage (its engine holds the players' tables too); `matches`: the match
        service; `secret`: the site's secret (the session's), from which seat keys are derived; `hashing`:
        the pool that hashes and checks passwords off the event loop (password_pool.py; default: threads);
        `session_lifetime`: seconds a session lives unused; `pause(0)`: yield to the other clients (the async
        mode's sleep) between the matches of a long walk through an account's matches."""
        self.engine = storage.engine
        self.reading = storage.reading  # a connection for reads only
        self.matches = matches
        self.hashing = hashing or for_async_mode("threading")
        self.sessions = Sessions(self.engine, self.reading, session_lifetime)
        self.tokens = ApiTokens(self.engine, self.reading)
        self._secret = secret.encode() if isinstance(secret, str) else secret
        self.pause = pause or (lambda seconds: None)
        # Services beside this one that keep rows about accounts (ratings, challenges): each forgets a deleted
        # account's, `forget(conn, account_id)`, in the deletion's own transaction.
        self.forgetters: list[Callable] = []

    # -- names and passwords ------------------------------------------------------------------------
    @staticmethod
    def check_name(name) -> str:
        from ..names import account_name  # the one place for the rules of names (quadrille/names.py)
        return account_name(name)

    @staticmethod
    def check_password(password, what: str = "password") -> str:
        if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
            raise bad_request((_l("A new password has %(least)d to %(most)d characters.",
                                  least=MIN_PASSWORD, most=MAX_PASSWORD)
                              if what == "new password" else
                              _l("A password has %(least)d to %(most)d characters.",
                                 least=MIN_PASSWORD, most=MAX_PASSWORD)), "bad-password")
        return password

    def _verified(self, stored_hash: str | None, password) -> bool:
        """Argon2 in the pool (429 `busy` when it is full); an unknown account costs the same (a dummy hash)."""
        if not isinstance(password, str) or len(password) > MAX_PASSWORD:
            return False
        return self.hashing.run(verify_or_dummy, stored_hash, password)

    def _hashed(self, password: str) -> str:
        return self.hashing.run(hash_password, password)

    def seat_key(self, account_id: int, salt: str) -> str:
        digest = hmac.new(self._secret, f"seat-key:{account_id}:{salt}".encode(), hashlib.sha256).digest()
        return SEAT_KEY_PREFIX + base64.urlsafe_b64encode(digest).decode().rstrip("=")

    def _account(self, row) -> Account:
        return Account(row.id, row.name, self.seat_key(row.id, row.seat_salt), banned=row.banned is not None,
                       muted=row.muted is not None, moderator=bool(row.moderator),
                       language=row.language)

    # -- signing up, logging in -------------------------------------------------------------------
    def sign_up(self, name, password) -> Account:
        name = self.check_name(name)
        self.check_password(password)
        hashed = self._hashed(password)
        try:
            with self.engine.begin() as conn:
                account_id = conn.execute(insert(accounts_table).values(
                    name=name, name_key=name.lower(), password_hash=hashed, seat_salt=secrets.token_hex(16),
                    created=time.time())).inserted_primary_key[0]
        except IntegrityError:
            raise ServiceError(409, "name-taken", _l("The user name '%(name)s' is taken; choose another.", name=name))
        return self.get(account_id)

    def log_in(self, name, password) -> Account:
        """The account of this name and password; bad-credentials otherwise, in the same words and time."""
        row = self._row_by_name(name) if isinstance(name, str) and NAME.fullmatch(name) else None
        if not self._verified(row.password_hash if row else None, password) or row is None:
            raise bad_credentials()
        if row.banned is not None:  # told only to who knows the password
            raise banned()
        if needs_rehash(row.password_hash):
            with self.engine.begin() as conn:
                conn.execute(update(accounts_table).where(accounts_table.c.id == row.id)
                             .values(password_hash=self._hashed(password)))
        return self._account(row)

    def id_of(self, name) -> int | None:
        """The id of the account of this name (None: no such account), for the login budgets."""
        row = self._row_by_name(name) if isinstance(name, str) and NAME.fullmatch(name) else None
        return row.id if row else None

    def _check_own_password(self, account: Account, password, refusal: str):
        row = self._row(account.id)
        if row is None or not self._verified(row.password_hash, password):
            raise ServiceError(401, "bad-credentials", refusal)
        return row

    def change_password(self, account: Account, old, new, everywhere: bool = False) -> Account:
        """A new password ends every session of the account (the caller opens a new one for the browser that
        asked, as lichess does). `everywhere` ("sign out everywhere"): its API tokens are revoked too, and its
        seat key changes, so that a copy of the old one plays none of its seats."""
        self.check_password(new, "new password")
        if not isinstance(everywhere, bool):
            raise bad_request(_l("sign_out_everywhere must be true or false."))
        row = self._check_own_password(account, old, _l("Your current password is not that."))
        hashed = self._hashed(new)
        salt = self._rekey_seats(account, row.seat_salt) if everywhere else row.seat_salt
        with self.engine.begin() as conn:
            conn.execute(update(accounts_table).where(accounts_table.c.id == account.id)
                         .values(password_hash=hashed, seat_salt=salt))
            self.sessions.end_all(conn, account.id)
            if everywhere:
                self.tokens.revoke_all(conn, account.id)
        return self.get(account.id)

    def _rekey_seats(self, account: Account, old_salt: str) -> str:
        """Hand every seat the account's key holds to a new key (the match service's hand_over, match by
        match); answers the new key's salt, which the caller stores."""
        salt = secrets.token_hex(16)
        new_key = self.seat_key(account.id, salt)
        old_key = self.seat_key(account.id, old_salt)
        for match_id in self.match_ids(account.id):
            try:
                self.matches.hand_over(match_id, old_key, new_key)
            except ServiceError:
                pass  # a match whose seats the key no longer holds (handed to the computer, say)
            self.pause(0)  # a match not in the cache is replayed: let the others be served between two
        return salt

    def delete(self, account: Account, password) -> None:
        """Delete the account (deletion.py): its games under way end (aborted or resigned as the rules say),
        its seats go to a key nobody holds, named "deleted player" (its finished games stay in the others'
        lists), and in one transaction its sessions, tokens, list of matches and rating history go, the
        services in `forgetters` forget it (its ratings, its pending challenges), and the account row goes."""
        self._check_own_password(account, password, _l("That is not your password; the account stays."))
        with self.engine.begin() as conn:  # first of all, nothing of it acts any more
            self.sessions.end_all(conn, account.id)
            self.tokens.revoke_all(conn, account.id)
        deletion.end_games_and_release_seats(self.matches, self.match_ids(account.id), account.seat_key, self.pause)
        with self.engine.begin() as conn:
            deletion.forget_rows(conn, account.id, self.forgetters, self.sessions.end_all, self.tokens.revoke_all)

    # -- sessions and API tokens -------------------------------------------------------------------
    def open_session(self, account: Account) -> str:
        return self.sessions.open(account.id)

    def by_session(self, session_id) -> Account | None:
        row = self.sessions.account_row(session_id)
        return self._account(row) if row is not None and row.banned is None else None

    def end_session(self, session_id) -> None:
        self.sessions.end(session_id)

    def by_api_token(self, token) -> Account | None:
        """The token's account; none while it is banned (its tokens are kept, and work again once unbanned)."""
        row = self.tokens.account_row(token)
        return self._account(row) if row is not None and row.banned is None else None

    def lock_out(self, account_id: int) -> None:
        """A ban (quadrille/moderation/): every session of the account ends, and its seats go to a new seat key,
        so that the key its browsers keep plays none of its matches; it gets the new key when it may log in."""
        row = self._row(account_id)
        if row is None:
            return
        with self.engine.begin() as conn:
            self.sessions.end_all(conn, account_id)
        salt = self._rekey_seats(self._account(row), row.seat_salt)
        with self.engine.begin() as conn:
            conn.execute(update(accounts_table).where(accounts_table.c.id == account_id).values(seat_salt=salt))

    def set_language(self, account_id: int, language) -> str | None:
        """The language the member's pages speak (a shipped language's code), or None to follow the browser."""
        from ..i18n.languages import LANGUAGES
        if language is not None and language not in LANGUAGES:
            raise bad_request(_l("language must be one of %(codes)s, or null.", codes=", ".join(LANGUAGES)),
                              "bad-language")
        with self.engine.begin() as conn:
            conn.execute(update(accounts_table).where(accounts_table.c.id == account_id).values(language=language))
        return language

    # -- reading accounts -----------------------------------------------------------------------
    def _row(self, account_id):
        with self.reading() as conn:
            return conn.execute(select(accounts_table).where(accounts_table.c.id == account_id)).first()

    def _row_by_name(self, name: str):
        with self.reading() as conn:
            return conn.execute(select(accounts_table)
                                .where(accounts_table.c.name_key == name.lower())).first()

    def get(self, account_id) -> Account | None:
        row = self._row(account_id) if isinstance(account_id, int) else None
        return self._account(row) if row else None

    def by_name(self, name) -> Account | None:
        row = self._row_by_name(name) if isinstance(name, str) and NAME.fullmatch(name) else None
        return self._account(row) if row else None

    def names(self, ids) -> dict[int, str]:
        ids = list(set(ids))
        if not ids:
            return {}
        with self.reading() as conn:
            return dict(conn.execute(select(accounts_table.c.id, accounts_table.c.name)
                                     .where(accounts_table.c.id.in_(ids))).all())

    def search(self, prefix, limit: int = 10) -> list[str]:
        """Names that start with `prefix` (ignoring case), for the player search box."""
        if not isinstance(prefix, str) or not re.fullmatch(r"[A-Za-z0-9_-]{1,20}", prefix):
            return []
        key = prefix.lower().replace("_", r"\_")
        with self.reading() as conn:
            return list(conn.execute(select(accounts_table.c.name)
                                     .where(accounts_table.c.name_key.like(key + "%", escape="\\"))
                                     .order_by(accounts_table.c.name_key).limit(limit)).scalars())

    # -- the account's matches ------------------------------------------------------------------
    def record_seats(self, account_id: int, match_id: str, seats: list[int]) -> None:
        with self.engine.begin() as conn:
            existing = conn.execute(select(account_matches_table.c.seats).where(
                account_matches_table.c.account_id == account_id,
                account_matches_table.c.match_id == match_id)).first()
            if existing is None:
                conn.execute(insert(account_matches_table).values(
                    account_id=account_id, match_id=match_id, seats=json.dumps(sorted(seats)), joined=time.time()))
            else:
                merged = sorted(set(json.loads(existing.seats)) | set(seats))
                conn.execute(update(account_matches_table).where(
                    account_matches_table.c.account_id == account_id,
                    account_matches_table.c.match_id == match_id).values(seats=json.dumps(merged)))

    def match_ids(self, account_id: int, limit: int | None = None) -> list[str]:
        """The account's matches, the most recently active first (`limit`: only that many)."""
        query = (select(account_matches_table.c.match_id)
                 .join(matches_table, matches_table.c.id == account_matches_table.c.match_id)
                 .where(account_matches_table.c.account_id == account_id)
                 .order_by(matches_table.c.updated.desc()))
        with self.reading() as conn:
            return list(conn.execute(query.limit(limit) if limit else query).scalars())

    def accounts_in(self, match_id: str) -> dict[int, list[int]]:
        """The accounts that play a match, each with its seats."""
        with self.reading() as conn:
            return {r.account_id: json.loads(r.seats) for r in conn.execute(
                select(account_matches_table).where(account_matches_table.c.match_id == match_id))}

    def claim_matches(self, account: Account, tokens) -> list[dict]:
        """Hand the seats that this browser's tokens hold over to the account ({match id: token}); tokens
        that hold nothing are passed over. Answers [{"match", "seats"}] for the matches claimed."""
        claimed = []
        for match_id, token in checked_tokens(tokens).items():
            if not well_formed(token) or token == account.seat_key:
                continue
            try:
                seats = self.matches.hand_over(match_id, token, account.seat_key, name=account.name)
            except ServiceError:
                continue  # no such match, or a token that holds nothing there
            self.record_seats(account.id, match_id, seats)
            claimed.append({"match": match_id, "seats": seats})
            self.pause(0)
        return claimed

    def on_rematch(self, match_id: str, payload: dict) -> None:
        """The match bus's REMATCH (matches/bus.py): a rematch is played by the same accounts, in the seats the
        match core turned theirs into (`seats`: the rematch's seat of each old seat, in order)."""
        old = self.accounts_in(payload.get("from", ""))
        for account_id, seats in old.items():
            self.record_seats(account_id, payload["match"], [payload["seats"][seat - 1] for seat in seats])

    def updated(self, match_ids: list[str]) -> dict[str, float]:
        if not match_ids:
            return {}
        with self.reading() as conn:
            return dict(conn.execute(select(matches_table.c.id, matches_table.c.updated)
                                     .where(matches_table.c.id.in_(match_ids))).all())
