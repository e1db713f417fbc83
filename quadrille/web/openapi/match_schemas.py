"""The schemas of the match door's answers: STATE, a new match, a claimed seat, a position, a RECORD, the live
list (docs/api.md, *STATE* and *HTTP*)."""
from __future__ import annotations

from .common import (BOOLEAN, INTEGER, NUMBER, SEAT, SEATS, STRING, TIME, array, nullable, obj, ref)

OUTCOME = obj(("winners",), winners=SEATS, scores=array(NUMBER),
              reason={"type": "string", "description": "the engine's word, or resigned, aborted, agreed, "
                                                       "abandoned, time, move-limit"})

SEAT_ENTRY = obj(("seat", "taken", "name", "kind"), seat=SEAT, taken=BOOLEAN, name=nullable(STRING),
                 kind={"enum": ["human", "ai"]}, account=BOOLEAN, level={}, level_name=STRING)

AWAY = obj(("seat", "seconds", "claimable_in", "rule", "timeout"), seat=SEAT, seconds=NUMBER,
           claimable_in=nullable(NUMBER), rule={"enum": ["disconnect", "realtime", "correspondence", "rated-start"]},
           timeout=nullable(NUMBER))

CLOCK = nullable(obj(("kind",), kind={"enum": ["realtime", "correspondence"]}, minutes=NUMBER, increment=NUMBER,
                     days=INTEGER, left=array(NUMBER), running=nullable(SEAT), started=BOOLEAN,
                     flagged=nullable(SEAT)))

STATE = obj(
    ("match", "game", "title", "options", "mode", "version", "turn", "legal", "view", "moves", "outcome",
     "started", "players", "seats", "seat_names"),
    match=nullable(STRING), game=STRING, title=STRING, options={"type": "object"},
    mode={"enum": ["online", "local", "ai", "lesson"]}, name=nullable(STRING),
    version={"type": "integer", "minimum": 0}, turn=nullable(SEAT), legal=array(STRING),
    view={"description": "the engine's view(): everything a renderer needs"}, moves=array(STRING),
    move_names=array(STRING), movers=array(nullable(SEAT)), outcome=nullable(OUTCOME), started=BOOLEAN,
    creator_starts=BOOLEAN, players=INTEGER, seats=array(SEAT_ENTRY), seat_names=array(STRING), draws=BOOLEAN,
    visibility={"enum": ["private", "public", "open"]}, paused=BOOLEAN,
    offers={"type": "object", "additionalProperties": SEATS}, declined={"type": "object"},
    abortable=BOOLEAN, resignable=BOOLEAN, away=array(AWAY), disconnect_timeout=nullable(NUMBER),
    rematch=nullable(STRING), clock=CLOCK, seat_ratings={"type": "object"}, ratings={"type": "object"})

CREATED = obj(("match", "seat", "seats", "token"),
              match=STRING, seat=nullable(SEAT), seats=SEATS, token=nullable(STRING), created=BOOLEAN,
              url=STRING, invite=nullable(STRING), invite_secret=nullable(STRING),
              visibility={"enum": ["private", "public", "open"]})

SEATED = obj(("match", "seat", "seats", "token"), match=STRING, seat=SEAT, seats=SEATS, token=STRING)

WATCHING = obj(("match", "seat", "token"), match=STRING, seat={"type": "null"}, token={"type": "null"})

POSITION = obj(("match", "ply", "plies", "view", "turn", "moves"), match=STRING, ply=INTEGER, plies=INTEGER,
               view={}, turn=nullable(SEAT), moves=array(STRING))

RECORD_EVENT = obj(("seq", "kind"), seq=INTEGER, kind=STRING, seat=nullable(SEAT), at=TIME)

RECORD = obj(("format", "format_version", "match", "game", "options", "moves", "events"),
             format={"const": "quadrille-record"}, format_version=INTEGER, match=STRING, game=STRING,
             options={"type": "object"}, mode=STRING, name=nullable(STRING), created=TIME, moves=array(STRING),
             outcome=nullable(OUTCOME), version=INTEGER,
             seats=array(obj(("seat",), seat=SEAT, name=nullable(STRING), kind=STRING)), events=array(RECORD_EVENT))

RECORD_IN = {**obj(("game", "moves"), game=STRING, options={"type": "object"}, moves=array(STRING)),
             "description": "a RECORD: only `game`, `options` and `moves` are read"}

RECENT = array(obj(("id", "game", "mode", "created", "version", "moves", "visibility", "free_seats"),
                   id=STRING, game=STRING, mode=STRING, name=nullable(STRING), created=TIME, version=INTEGER,
                   moves=INTEGER, visibility={"enum": ["public", "open"]}, free_seats=INTEGER))

GAME_INFO = obj(("name", "title", "seats", "options", "levels"),
                name=STRING, title=STRING, seats=array(nullable(INTEGER), minItems=2, maxItems=2),
                options={"type": "object", "additionalProperties": obj(("default", "kind"), default={}, kind=STRING,
                                                                      help=STRING, range=array(NUMBER),
                                                                      choices=array({}))},
                summary=STRING, formats=array(STRING), draws=BOOLEAN,
                levels=array(obj(("id", "label"), id={"type": ["integer", "string"]}, label=STRING)))

HEALTH = obj(("ok", "process", "database"), ok=BOOLEAN, process=INTEGER,
             database={"enum": ["sqlite", "postgresql"]}, queue=nullable({"const": "redis"}), sockets=INTEGER,
             version={"type": "string", "description": "the release this process runs"},
             unreachable=array({"enum": ["database", "queue"]}))

SCHEMAS = {"State": STATE, "Outcome": OUTCOME, "CreatedMatch": CREATED, "Seated": SEATED, "Position": POSITION,
           "Record": RECORD, "RecentMatches": RECENT, "GameInfo": GAME_INFO, "Health": HEALTH}
STATE_REF, CREATED_REF, RECORD_REF = ref("State"), ref("CreatedMatch"), ref("Record")
