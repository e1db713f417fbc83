"""The Socket.IO door (for the pages): every event is acknowledged; changes reach the match's room.

Each handler parses its payload, calls the match service and answers
{"ok": true, ...} or {"ok": false, "error", "reason"}. Presence (which seats are
connected, how many watch) is kept here, because only this door knows sockets.
"""
from __future__ import annotations

import logging
from functools import wraps

from flask import request
from flask_socketio import SocketIO, join_room, leave_room

from ..errors import ServiceError, bad_request
from ..infra.presence import Presence
from ..matches import MatchService

log = logging.getLogger("quadrille")


def room_of(match_id: str) -> str:
    return f"match:{match_id}"


def register(socketio: SocketIO, service: MatchService) -> Presence:
    presence = Presence()

    def acknowledged(handler):
        """Turn a handler's result or ServiceError into the acknowledgement; never raise to the client."""
        @wraps(handler)
        def wrapper(data=None):
            try:
                if not isinstance(data, dict):
                    raise bad_request("The event's payload must be an object.")
                return {"ok": True, **(handler(data) or {})}
            except ServiceError as exc:
                return {"ok": False, **exc.to_dict()}
            except Exception:  # a bug must not leave the client waiting for its acknowledgement
                log.exception("unexpected error in socket event %s", handler.__name__)
                return {"ok": False, "error": "server-error",
                        "reason": "Something went wrong on the server; nothing was changed."}
        return wrapper

    def announce(match_id: str) -> None:
        socketio.emit("presence", presence.summary(match_id), to=room_of(match_id))

    @socketio.on("watch")
    @acknowledged
    def watch(data):
        match_id = data.get("match")
        state = service.state(match_id)
        seats = service.seats_of(match_id, data.get("token"))
        left = presence.enter(request.sid, match_id, seats)
        if left:
            leave_room(room_of(left))
            announce(left)
        join_room(room_of(match_id))
        service.wake_computer(match_id)  # a demo rests while nobody watches it
        announce(match_id)
        return {"state": state, "you": {"seats": seats}, "presence": presence.summary(match_id)}

    @socketio.on("move")
    @acknowledged
    def move(data):
        state = service.play(data.get("match"), data.get("token"), data.get("move"), data.get("version"))
        return {"version": state["version"]}

    @socketio.on("claim")
    @acknowledged
    def claim(data):
        claimed = service.claim(data.get("match"), data.get("seat"), data.get("player"))
        presence.enter(request.sid, claimed["match"], claimed["seats"])
        announce(claimed["match"])
        return claimed

    def decision(name, call):
        @socketio.on(name)
        @acknowledged
        def handler(data):
            state = call(data)
            if "version" not in state:
                return state  # not a STATE: e.g. a rematch's new match, or a position
            return {"version": state["version"], **{k: state[k] for k in ("waiting_for",) if k in state}}
        return handler

    decision("takeback", lambda d: service.takeback(d.get("match"), d.get("token")))
    decision("rewind", lambda d: service.rewind(d.get("match"), d.get("token"), d.get("to")))
    decision("resign", lambda d: service.resign(d.get("match"), d.get("token")))
    decision("start", lambda d: service.start(d.get("match"), d.get("token"), d.get("computer_level"),
                                              owner=request.remote_addr))
    decision("pause", lambda d: service.pause(d.get("match"), d.get("token"), d.get("paused")))
    decision("reclaim", lambda d: service.take_back_seat(d.get("match"), d.get("token")))
    decision("computer", lambda d: service.hand_to_computer(
        d.get("match"), d.get("token"), d.get("seat"), d.get("level", 1),
        absent=d.get("seat") not in presence.summary(d.get("match"))["online"], owner=request.remote_addr))
    decision("rematch", lambda d: service.rematch(d.get("match"), d.get("token")))
    decision("position", lambda d: service.position(d.get("match"), d.get("ply")))

    @socketio.on("disconnect")
    def disconnect(*_args):
        left = presence.leave(request.sid)
        if left:
            announce(left)

    return presence
