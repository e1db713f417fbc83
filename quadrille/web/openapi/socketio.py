"""The Socket.IO events (web/sockets.py, web/inbox.py) as an AsyncAPI 3.0 document: a JSON Schema for each
event's payload and for its acknowledgement, and for what the server emits. Seen from the server: it
`receive`s what a client emits (and replies with the acknowledgement) and `send`s to rooms.

Socket.IO v5 over Engine.IO v4 (python-socketio 5): socket.io-client 3.x and 4.x, python-socketio 5.x."""
from __future__ import annotations

import copy

from .common import BOOLEAN, INTEGER, SEAT, SEATS, STRING, array, nullable, obj, ref
from .match_schemas import AWAY, SCHEMAS as MATCH_SCHEMAS
from .challenges import SCHEMAS as CHALLENGE_SCHEMAS

MATCH, TOKEN, OFFER = STRING, STRING, {"enum": ["takeback", "draw", "rematch"]}
REFUSAL = obj(("ok", "error", "reason"), ok={"const": False}, error=STRING, reason=STRING)
VERSION_ACK = obj(("ok", "version"), ok={"const": True}, version=INTEGER)
NEW_MATCH_ACK = obj(("ok", "match", "seat", "seats", "token"), ok={"const": True}, match=STRING, seat=SEAT,
                    seats=SEATS, token=nullable(STRING), created=BOOLEAN)  # null to an API token: it plays them
PRESENCE = obj(("match", "online", "spectators", "away"), match=STRING, online=SEATS, spectators=INTEGER,
               away=array(AWAY))


def with_token(*required: str, **more) -> dict:
    """A match event of a seat: its `token` (a seat token, a seat key or an API token), which a socket whose
    handshake carried an API token (`auth: {"token": "qbt_…"}`) may leave out."""
    return obj(("match", *required), match=MATCH, token=TOKEN, **more)


# event: (what the client sends, what the acknowledgement holds when it is {"ok": true, ...}, summary)
CLIENT_EVENTS = {
    "watch": (obj(("match",), match=MATCH, token=TOKEN),
              obj(("ok", "state", "you", "presence"), ok={"const": True}, state=ref("State"),
                  you=obj(("seats",), seats=SEATS), presence=ref("Presence")),
              "watch a match (joins its room, leaving any other); with a token, play its seats. Send it again "
              "after every reconnection: the acknowledgement's STATE is the truth"),
    "move": (with_token("move", move=STRING, version=INTEGER), VERSION_ACK, "play a move"),
    "claim": (obj(("match",), match=MATCH, invite=STRING, seat=SEAT, player=STRING), NEW_MATCH_ACK,
              "take a free seat with the invite secret (an open match needs none)"),
    "takeback": (with_token(), VERSION_ACK, "take back the last move"),
    "resign": (with_token(), VERSION_ACK, "resign"),
    "reclaim": (with_token(), VERSION_ACK, "take one's seat back from the computer"),
    "start": (with_token(computer_level={"type": ["integer", "string", "null"]}), VERSION_ACK,
              "start an online match waiting for players"),
    "pause": (with_token("paused", paused=BOOLEAN), VERSION_ACK, "pause or resume the computer"),
    "computer": (with_token("seat", seat=SEAT, level={"type": ["integer", "string"]}),
                 obj(("ok", "version"), ok={"const": True}, version=INTEGER, waiting_for=SEATS),
                 "hand an absent player's seat to the computer"),
    "rewind": (with_token("to", to={"type": "integer", "minimum": 0}), VERSION_ACK, "local games: go back"),
    "rematch": (with_token(), {"anyOf": [VERSION_ACK, NEW_MATCH_ACK]}, "offer or accept a rematch"),
    "decline": (with_token(offer=OFFER), VERSION_ACK, "decline another player's offer"),
    "offer": (with_token("offer", offer=OFFER), {"anyOf": [VERSION_ACK, NEW_MATCH_ACK]}, "make an offer"),
    "accept": (with_token("offer", offer=OFFER), {"anyOf": [VERSION_ACK, NEW_MATCH_ACK]}, "accept an offer"),
    "abort": (with_token(), VERSION_ACK, "abort before every player moved"),
    "timeout": (with_token(result={"enum": ["win", "draw"]}), VERSION_ACK, "claim once the other player left"),
    "position": (obj(("match", "ply"), match=MATCH, ply={"type": "integer", "minimum": 0}),
                 obj(("ok", "ply", "plies", "view", "turn", "moves"), ok={"const": True}, ply=INTEGER,
                     plies=INTEGER, view={}, turn=nullable(SEAT), moves=array(STRING)),
                 "the position after `ply` moves"),
    "inbox": (obj(token={"type": "string", "description": "an API token, if the handshake carried none"}),
              obj(("ok", "account"), ok={"const": True}, account=ref("Account")),
              "hear the account's `challenge` events (the session cookie, or an API token)"),
}

SERVER_EVENTS = {
    "state": (ref("State"), "to a match's room after every change, in version order: keep the newest version"),
    "presence": (ref("Presence"), "to a match's room when someone comes or goes (at most 4 a second)"),
    "rematch": (obj(("match", "from", "seats"), match=STRING, seats=SEATS, **{"from": STRING}),
                "to the old match's room: every player agreed to a rematch"),
    "challenge": (ref("Challenge"), "to an account's inbox: a challenge made to it, answered, cancelled or "
                                    "turned into a match"),
}

# A refused handshake's CONNECT_ERROR packet (socket.io-client: err.message, err.data)
CONNECT_ERROR = obj(("message", "data"), message=STRING,
                    data=obj(("error", "reason"), error={"enum": ["rate-limited", "bad-token", "bad-request"]},
                             reason=STRING))


def message(name: str, payload: dict, summary: str) -> dict:
    return {"name": name, "title": name, "summary": summary, "contentType": "application/json", "payload": payload}


def asyncapi_document(version: str, host: str) -> dict:
    """Messages are named `emit.<event>` (a client sends), `emit.<event>.ack` (its acknowledgement) and
    `hear.<event>` (the server sends): `rematch` is both a client's event and the server's."""
    messages, operations = {}, {}
    for name, (payload, answer, summary) in CLIENT_EVENTS.items():
        messages[f"emit.{name}"] = message(name, payload, summary)
        messages[f"emit.{name}.ack"] = message(f"{name}.ack", {"anyOf": [answer, ref("Refusal")]},
                                               f"the acknowledgement of {name}")
        operations[name] = {"action": "receive", "channel": {"$ref": "#/channels/socket"}, "summary": summary,
                            "messages": [{"$ref": f"#/channels/socket/messages/emit.{name}"}],
                            "reply": {"channel": {"$ref": "#/channels/socket"},
                                      "messages": [{"$ref": f"#/channels/socket/messages/emit.{name}.ack"}]}}
    for name, (payload, summary) in SERVER_EVENTS.items():
        messages[f"hear.{name}"] = message(name, payload, summary)
        operations[f"hear.{name}"] = {"action": "send", "channel": {"$ref": "#/channels/socket"}, "summary": summary,
                                      "messages": [{"$ref": f"#/channels/socket/messages/hear.{name}"}]}
    messages["hear.connect_error"] = message("connect_error", ref("ConnectError"),
                                        "a refused handshake: over a budget, or a wrong API token in `auth`")
    schemas = {**copy.deepcopy(MATCH_SCHEMAS), **copy.deepcopy(CHALLENGE_SCHEMAS), "Presence": PRESENCE,
               "Refusal": REFUSAL, "ConnectError": CONNECT_ERROR,
               "Account": obj(("id", "name"), id=INTEGER, name=STRING)}
    return {
        "asyncapi": "3.0.0",
        "info": {"title": "Quadrille Socket.IO events", "version": version,
                 "description": "Socket.IO v5 over Engine.IO v4, the default namespace `/`: socket.io-client 3.x "
                                "and 4.x, python-socketio 5.x. Every event is `[name, payload]` and is "
                                "acknowledged; unknown events, unreadable packets and payloads that are not "
                                "objects are refused (`unknown-event`, `bad-request`). A client that reconnects "
                                "forgets the versions it answered and sends `watch` again."},
        "defaultContentType": "application/json",
        "servers": {"site": {"host": host, "protocol": "ws", "pathname": "/socket.io/",
                             "description": "Engine.IO v4 (`?EIO=4&transport=websocket` or polling); name the "
                                            "match in the query (`?match=<id>`) so that a cluster routes you to "
                                            "its process; a bot gives its API token in the handshake's `auth`: "
                                            "{\"token\": \"qbt_…\"}"}},
        "channels": {"socket": {"address": "/", "servers": [{"$ref": "#/servers/site"}], "messages": messages}},
        "operations": operations,
        "components": {"schemas": schemas},
    }
