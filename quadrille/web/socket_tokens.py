"""An account's API token (`qbt_…`) over Socket.IO: in the handshake (`auth: {token}`) and in any event's
`token` field. The socket then acts as that account, as the token does over HTTP (http_api.bearer_token): in
every match event the token stands for the account's seat key, so it plays the account's seats (those of its
challenges, its rematches, and the seats it took over with `POST /api/account/claim`) and no others, and the
`inbox` event joins the account's room.

- A handshake whose token is not a live API token is refused (`connect_error` data `{"error": "bad-token",
  "reason"}`); an event whose `token` is a `qbt_…` that is not live is answered `bad-token`. Nothing changes.
- The token is looked up again at each event (one read, as an HTTP request does): revoking it stops the socket
  at its next event. The socket keeps the token in this process's memory only; it is never logged, and never
  answered: an answer that would carry the account's seat key (a rematch's `token`) has `token: null` instead
  (the API token plays the rematch's seats).
- An event's own `token` wins over the handshake's (a seat token of a match the account does not hold).
"""
from __future__ import annotations

import threading

from flask import current_app
from flask_socketio import ConnectionRefusedError  # python-socketio's: its data reaches the client

from ..accounts.service import is_api_token
from ..errors import ServiceError
from ..i18n.words import N_, translated

BAD_TOKEN = N_("This API token is not valid (revoked, or of a deleted account).")


def refused(error: str, reason: str) -> ConnectionRefusedError:
    """A refused handshake: the client's `connect_error` has `message` (the reason) and `data` {"error",
    "reason"} (socket.io-client: `err.message`, `err.data`)."""
    reason = translated(reason)  # in the handshake's language (its request context)
    return ConnectionRefusedError(reason, {"error": error, "reason": reason})


def bad_token() -> ServiceError:
    return ServiceError(401, "bad-token", BAD_TOKEN)


class SocketTokens:
    """sid -> the API token its handshake gave (only sockets that gave one)."""

    def __init__(self):
        self._tokens: dict[str, str] = {}
        self._lock = threading.Lock()

    @staticmethod
    def accounts():
        return current_app.extensions["quadrille.accounts"]

    def connect(self, sid: str, auth) -> None:
        """Check the handshake's `auth` (None, or {"token": "qbt_…"}); ConnectionRefusedError when it is bad."""
        if auth is None:
            return
        if not isinstance(auth, dict):
            raise refused("bad-request", N_("The handshake's auth must be an object such as {\"token\": \"qbt_…\"}."))
        token = auth.get("token")
        if token is None:
            return  # no token: a socket as any page's
        if not is_api_token(token):
            raise refused("bad-token", N_("The handshake's auth token must be an account's API token (qbt_…)."))
        if self.accounts().by_api_token(token) is None:
            raise refused("bad-token", BAD_TOKEN)
        with self._lock:
            self._tokens[sid] = token

    def forget(self, sid: str) -> None:
        with self._lock:
            self._tokens.pop(sid, None)

    def account(self, sid: str, data: dict | None = None):
        """The account acting on this event: its `token` field's if an API token, else the handshake's; None
        without either. A token that no longer stands: `bad-token`."""
        token = (data or {}).get("token")
        if not is_api_token(token):
            token = self._tokens.get(sid)
            if token is None:
                return None
        account = self.accounts().by_api_token(token)
        if account is None:
            raise bad_token()
        return account

    def resolve(self, sid: str, data: dict) -> tuple[dict, object]:
        """The event's payload with its `token` as the match service takes it (an API token becomes its
        account's seat key; no token, with a handshake token, the same), and the account acting (or None)."""
        token = data.get("token")
        if token is not None and not is_api_token(token):
            return data, None  # a seat token, as before
        account = self.account(sid, data)
        if account is None:
            return data, None
        return {**data, "token": account.seat_key}, account


def hide_seat_key(answer, account):
    """An answer to an account's API token never carries its seat key (a rematch carries its token over)."""
    if account is not None and isinstance(answer, dict) and answer.get("token") == account.seat_key:
        return {**answer, "token": None}
    return answer
