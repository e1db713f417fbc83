"""A player's live inbox over Socket.IO: a socket that emits `inbox` joins its account's room and hears
`challenge` events (a challenge made to them, answered, cancelled, or turned into a match) at once.
The account is the API token's (`auth: {token}` in the handshake, or the event's own `token`: a bot's), else
the session cookie's, sent with the Socket.IO handshake (same site only: SameSite=Lax)."""
from __future__ import annotations

from flask import request
from flask_socketio import SocketIO, join_room

from ..i18n import _l, translated
from ..errors import ServiceError
from .sessions import session_account
from .socket_tokens import SocketTokens


def room_of(account_id: int) -> str:
    return f"account:{account_id}"


def register(socketio: SocketIO, tokens: SocketTokens | None = None) -> None:
    tokens = tokens or SocketTokens()

    @socketio.on("inbox")
    def inbox(data=None):
        try:
            account = tokens.account(request.sid, data if isinstance(data, dict) else None)
        except ServiceError as exc:
            return {"ok": False, **exc.to_dict()}
        if account is None:
            account = session_account()
        if account is None:
            return {"ok": False, "error": "login-required", "reason": translated(_l(
                "Log in (or send an API token) to receive challenges."))}
        join_room(room_of(account.id))
        return {"ok": True, "account": account.public()}
