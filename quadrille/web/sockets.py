"""The Socket.IO door (for the pages): every event is acknowledged; changes reach the match's room.

Each handler parses its payload, calls the match service and answers
{"ok": true, ...} or {"ok": false, "error", "reason"}. Presence (which seats are
connected, how many watch) is fed from here, because only this door knows sockets;
the budgets of each socket and address are spent here too (see socketio_server.py
for what happens before a handler runs).
"""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from functools import wraps

from flask import request
from flask_socketio import SocketIO, join_room, leave_room

from ..errors import ServiceError, bad_request
from ..i18n import _l, translated
from ..i18n.words import N_
from ..infra.limits import Audiences, Budgets
from ..infra.presence import Presence
from ..matches import MatchService
from .clients import client_address
from .socket_tokens import SocketTokens, hide_seat_key, refused
from .socketio_server import harden, refusal

log = logging.getLogger("quadrille")

RATE_LIMITED = refusal("rate-limited", N_("Too many messages at once; wait a few seconds and try again."))
TOO_MANY_WATCHERS = ServiceError(429, "rate-limited", _l("Too many connections from your address are watching this "
                                                         "match; close another tab that shows it and try again."))
# What an event costs of its socket's budget: a move or a take-back is one; events that make the server
# replay a match or broadcast a whole STATE to the room cost more, so that their floods end sooner.
EVENT_COSTS = {"watch": 2, "claim": 5, "pause": 5, "rematch": 5, "decline": 2, "computer": 5,
               "reclaim": 5, "start": 5, "rewind": 2, "offer": 5, "accept": 5, "abort": 5, "timeout": 5}
MAX_COST = max(EVENT_COSTS.values())


MATCH_ROOM = "match:"  # a match's Socket.IO room is this and its id


def room_of(match_id: str) -> str:
    return f"{MATCH_ROOM}{match_id}"


def match_of(room: str) -> str | None:
    """The match whose room this is, or None for another kind of room."""
    return room.removeprefix(MATCH_ROOM) if room.startswith(MATCH_ROOM) else None


def register(socketio: SocketIO, service: MatchService, presence: Presence, budgets: Budgets,
             presence_interval: float = 0.25, audiences: Audiences | None = None,
             send_queue_limit: int | None = None, tokens: SocketTokens | None = None) -> None:
    """`audiences`: the cap on one address's sockets watching one match; `send_queue_limit`: the messages
    waiting for one socket past which it is disconnected (socketio_server.py); `tokens`: the API tokens of the
    sockets that gave one in their handshake (socket_tokens.py)."""
    tokens = tokens or SocketTokens()
    counted: dict[str, str] = {}  # sid -> address, for the connections counted against an address
    addresses: dict[str, str] = {}  # sid -> address, for the events counted against it

    address = client_address

    def gate(sid: str, event: str | None) -> dict | None:
        player = bool(presence.seats_of(sid))
        cost = EVENT_COSTS.get(event, 1) if event is not None else MAX_COST
        return None if budgets.event(sid, addresses.get(sid, "?"), player, cost) else RATE_LIMITED

    harden(socketio.server, gate, budgets.should_close, send_queue_limit)

    @socketio.on("connect")
    def connect(auth=None, *_args):
        if not budgets.connect(address()):
            raise refused("rate-limited", translated(_l("Too many connections from your address; try again later.")))
        try:
            tokens.connect(request.sid, auth)  # an API token in the handshake: the socket acts as its account
        except Exception:
            budgets.disconnect(address())  # refused: no disconnect event will give the count back
            raise
        counted[request.sid] = addresses[request.sid] = address()

    def acknowledged(handler):
        """Turn a handler's result or ServiceError into the acknowledgement; never raise to the client."""
        @wraps(handler)
        def wrapper(data=None):
            try:
                if not isinstance(data, dict):
                    raise bad_request(_l("The event's payload must be an object."))
                data, account = tokens.resolve(request.sid, data)  # an API token stands for its seat key
                return {"ok": True, **(hide_seat_key(handler(data), account) or {})}
            except ServiceError as exc:
                return {"ok": False, **exc.to_dict()}
            except Exception:  # a bug must not leave the client waiting for its acknowledgement
                log.exception("unexpected error in socket event %s", handler.__name__)
                return {"ok": False, "error": "server-error",
                        "reason": translated(_l("Something went wrong on the server; nothing was changed."))}
        return wrapper

    pending_lock = threading.Lock()

    def once_per_interval(send: Callable[[str], None]) -> Callable[[str], None]:
        """`send(match_id)` at most once per match per interval: the calls that come while one is pending are
        folded into it (a burst of arrivals and departures, or a client that floods `watch`, costs one send)."""
        pending: set[str] = set()

        def later(match_id: str) -> None:
            socketio.sleep(presence_interval)
            with pending_lock:
                pending.discard(match_id)
            send(match_id)

        def schedule(match_id: str) -> None:
            with pending_lock:
                if match_id in pending:
                    return
                pending.add(match_id)
            socketio.start_background_task(later, match_id)
        return schedule

    def send_presence(match_id: str) -> None:
        """Tell the room who is here."""
        socketio.emit("presence", presence_of(match_id), to=room_of(match_id))

    def send_state(match_id: str, check: bool = False) -> None:
        """Send the room the match's STATE again if this process never broadcast its version. A player watches
        again after their connection dropped, which may be because their process died between recording their
        move and broadcasting it: the others would never hear of that move (and wait for it forever) but for
        this. Clients keep the newest STATE; one process alone broadcast every version itself and sends nothing
        here. `check`: catch the cached match up with storage first (when no `watch` just did)."""
        try:
            state = service.unannounced_state(match_id, check=check)
        except ServiceError:
            return
        if state is not None:
            socketio.emit("state", state, to=room_of(match_id))

    announce = once_per_interval(send_presence)
    resend_state = once_per_interval(send_state)

    def presence_of(match_id: str) -> dict:
        """Who is connected, how many watch, and who left a game under way (with its countdown). The summary
        first: across processes, the away seats are then read from the view it just read."""
        summary = presence.summary(match_id)
        try:
            away = service.away(match_id)
        except ServiceError:
            away = []
        return {**summary, "away": away}

    presence.on_change = announce  # another process's sockets vanished (it died): the room hears it

    def restore(match_id: str) -> None:
        """This process's presence in the match had lapsed, so other processes' broadcasts skipped it: its
        sockets there get the match's STATE now (only they: the others heard everything)."""
        try:
            state = service.state(match_id)
        except ServiceError:
            return
        socketio.emit("state", state, to=room_of(match_id), ignore_queue=True)

    presence.on_restored = restore

    def arrived(match_id: str) -> None:
        """This process's entry in the match is new, and other processes may have found themselves alone in the
        match just before, and go on skipping this one for a while (infra/message_queue.py): they are told to
        forget that, and once any such answer has expired, the room gets the STATE of a version this process
        never broadcast, which is what a move they committed in the meantime would be."""
        manager = socketio.server.manager
        manager.audience_grew(presence.entries_key(match_id))

        def after_every_answer_expired() -> None:
            socketio.sleep(manager.audience_ttl)
            if presence.has_sockets_in(match_id):
                send_state(match_id, check=True)
        socketio.start_background_task(after_every_answer_expired)

    presence.on_new_entry = arrived

    @socketio.on("watch")
    @acknowledged
    def watch(data):
        match_id = data.get("match")
        seats = service.seats_of(match_id, data.get("token"))
        if audiences is not None and not audiences.enter(request.sid, match_id, addresses.get(request.sid, "?")):
            raise TOO_MANY_WATCHERS
        left = presence.enter(request.sid, match_id, seats)  # before the STATE: its player is not away
        if left:
            leave_room(room_of(left))
            announce(left)
        # In the room before the STATE is read: a move made meanwhile (through this process or another) is
        # either in the STATE or broadcast to this socket, never lost between the two. (A broadcast may then
        # come before the answer's older STATE: versions only grow, and clients keep the newest.)
        join_room(room_of(match_id))
        state = service.state(match_id)
        service.wake_computer(match_id)  # a demo rests while nobody watches it
        announce(match_id)
        if seats:
            resend_state(match_id)
        return {"state": state, "you": {"seats": seats}, "presence": presence_of(match_id)}

    @socketio.on("move")
    @acknowledged
    def move(data):
        state = service.play(data.get("match"), data.get("token"), data.get("move"), data.get("version"))
        return {"version": state["version"]}

    @socketio.on("claim")
    @acknowledged
    def claim(data):
        claimed = service.claim_seat(data.get("match"), data.get("seat"), data.get("player"), data.get("invite"))
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
                                              owner=client_address()))
    decision("pause", lambda d: service.pause(d.get("match"), d.get("token"), d.get("paused")))
    decision("reclaim", lambda d: service.reclaim_seat(d.get("match"), d.get("token")))
    decision("computer", lambda d: service.hand_to_computer(d.get("match"), d.get("token"), d.get("seat"),
                                                            d.get("level", 1), owner=client_address()))
    decision("rematch", lambda d: service.rematch(d.get("match"), d.get("token"), owner=client_address()))
    decision("decline", lambda d: service.decline(d.get("match"), d.get("token"), d.get("offer", "rematch")))
    decision("offer", lambda d: service.offer(d.get("match"), d.get("token"), d.get("offer"), owner=client_address()))
    decision("accept", lambda d: service.accept(d.get("match"), d.get("token"), d.get("offer"),
                                                owner=client_address()))
    decision("abort", lambda d: service.abort(d.get("match"), d.get("token")))
    decision("timeout", lambda d: service.claim_win(d.get("match"), d.get("token"), d.get("result", "win")))
    decision("position", lambda d: service.position(d.get("match"), d.get("ply")))

    @socketio.on("disconnect")
    def disconnect(*_args):
        sid = request.sid
        tokens.forget(sid)
        addresses.pop(sid, None)
        if sid in counted:
            budgets.disconnect(counted.pop(sid))
        budgets.forget(sid)
        if audiences is not None:
            audiences.leave(sid)
        left = presence.leave(sid)
        if left:
            announce(left)
