"""A logged-in player's live inbox over Socket.IO: a page that emits `inbox` joins its account's room and
hears `challenge` events (a challenge made to them, answered, cancelled, or turned into a match) at once.
The account is the session cookie's, sent with the Socket.IO handshake (same site only: SameSite=Lax)."""
from __future__ import annotations

from flask_socketio import SocketIO, join_room

from .sessions import session_account


def room_of(account_id: int) -> str:
    return f"account:{account_id}"


def register(socketio: SocketIO) -> None:
    @socketio.on("inbox")
    def inbox(_data=None):
        account = session_account()
        if account is None:
            return {"ok": False, "error": "login-required", "reason": "Log in to receive challenges."}
        join_room(room_of(account.id))
        return {"ok": True, "account": account.public()}
