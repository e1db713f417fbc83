"""The players' door, continued (web/players_api.py): profiles, leaderboards, my games and challenges."""
from __future__ import annotations

from .common import (ACCOUNT_READ, ACCOUNT_WRITE, ANYONE, GAME, BOOLEAN, INTEGER, NUMBER, STRING, TIME, array, body,
                     nullable, obj, ok, path_param, query_param, ref, refused)
from .matches import CLOCK_IN, OPTIONS_IN

STATUS = {"enum": ["pending", "accepted", "declined", "cancelled"]}
CHALLENGE = obj(("challenge", "game", "status", "from", "to"),
                challenge=STRING, game=STRING, title=STRING, options={"type": "object"}, options_words=STRING,
                clock={"anyOf": [{"type": "object"}, {"type": "null"}]}, rated=BOOLEAN, first=STRING,
                status=STATUS, match=nullable(STRING), **{"from": STRING},
                to=array(obj(("name", "status"), name=STRING, status=STATUS)), created=TIME, updated=TIME)
CHALLENGES = obj(("incoming", "outgoing"), incoming=array(ref("Challenge")), outgoing=array(ref("Challenge")))
MY_GAME = obj(("match", "game", "seats", "finished"),
           match=STRING, game=STRING, title=STRING, options={"type": "object"}, options_words=STRING, mode=STRING,
           seats=array(INTEGER), sides=array(STRING), opponents=array({"type": "object"}), updated=TIME,
           started=BOOLEAN, turn=nullable(INTEGER), turn_name=nullable(STRING), your_turn=BOOLEAN,
           finished=BOOLEAN, result=nullable({"enum": ["win", "loss", "draw", "aborted"]}),
           reason=nullable(STRING), rated=BOOLEAN, url=STRING, clock=nullable({"type": "object"}),
           rating=nullable({"type": "object"}))
RATING = obj(("rating", "rd", "games", "provisional"), rating=NUMBER, rd=NUMBER, games=INTEGER,
             provisional=BOOLEAN, opponents=INTEGER, last_played=nullable(TIME), ranked=BOOLEAN,
             missing={"type": "object"})
PROFILE = obj(("name", "ratings", "history", "recent"), name=STRING,
              ratings={"type": "object", "additionalProperties": RATING}, history={"type": "object"},
              recent=array(ref("MyGame")))
LEADERBOARD = obj(("game", "players", "rule"), game=STRING,
                  players=array(obj(("rank", "name", "rating"), rank=INTEGER, name=STRING, rating=NUMBER,
                                    rd=NUMBER, games=INTEGER, provisional=BOOLEAN)),
                  rule=obj(("rd", "games", "opponents", "days"), rd=NUMBER, games=INTEGER, opponents=INTEGER,
                           days=NUMBER))
FINISHED = query_param("finished", STRING, "1: the finished games too")
CHALLENGE_ID = path_param("challenge_id")


def answer(op_id: str, summary: str) -> dict:
    return {"post": {"operationId": op_id, "summary": summary, "security": ACCOUNT_WRITE,
                     "parameters": [CHALLENGE_ID],
                     "responses": {**ok(ref("Challenge")), **refused(400, 401, 403, 404, 409, 413, 415, 429)}}}


PATHS = {
    "/api/players": {"get": {
        "operationId": "searchPlayers", "summary": "player names that start with a prefix", "security": ANYONE,
        "parameters": [query_param("search", STRING, "the prefix")],
        "responses": {**ok(obj(("players",), players=array(STRING))), **refused(429)}}},
    "/api/players/{name}": {"get": {
        "operationId": "getProfile", "summary": "a player's profile", "security": ANYONE,
        "parameters": [path_param("name")], "responses": {**ok(ref("Profile")), **refused(404, 429)}}},
    "/api/leaderboard/{game}": {"get": {
        "operationId": "leaderboard", "summary": "the best 50 ranked players of a game", "security": ANYONE,
        "parameters": [path_param("game", GAME)], "responses": {**ok(LEADERBOARD), **refused(404, 429)}}},
    "/api/me/games": {
        "get": {"operationId": "myGames", "summary": "the account's games and challenges",
                "security": ACCOUNT_READ, "parameters": [FINISHED],
                "responses": {**ok(obj(("games", "challenges"), games=array(ref("MyGame")), challenges=CHALLENGES)),
                              **refused(401, 429)}},
        "post": {"operationId": "tokenGames", "summary": "the same list for a browser without an account",
                 "security": ANYONE, "parameters": [FINISHED],
                 "requestBody": body(obj(("tokens",), tokens={"type": "object", "additionalProperties": STRING,
                                                              "maxProperties": 500})),
                 "responses": {**ok(obj(("games",), games=array(ref("MyGame")))),
                               **refused(400, 403, 413, 415, 429)}}},
    "/api/challenges": {
        "post": {"operationId": "createChallenge", "summary": "challenge a player (Gamma: several) by name",
                 "security": ACCOUNT_WRITE,
                 "requestBody": body(obj(("to", "game"), to={"anyOf": [STRING, array(STRING)]}, game=GAME,
                                         options=OPTIONS_IN, rated=BOOLEAN,
                                         first={"enum": ["random", "challenger", "opponent"]}, clock=CLOCK_IN)),
                 "responses": {**ok(ref("Challenge"), "the challenge", 201),
                               **refused(400, 401, 403, 404, 409, 413, 415, 429)}},
        "get": {"operationId": "listChallenges", "summary": "challenges waiting for you, and yours",
                "security": ACCOUNT_READ, "responses": {**ok(CHALLENGES), **refused(401, 429)}}},
    "/api/challenges/{challenge_id}": {"get": {
        "operationId": "getChallenge", "summary": "one challenge, to its players", "security": ACCOUNT_READ,
        "parameters": [CHALLENGE_ID], "responses": {**ok(ref("Challenge")), **refused(401, 404, 429)}}},
    "/api/challenges/{challenge_id}/accept": answer("acceptChallenge", "accept (a match of two starts at once)"),
    "/api/challenges/{challenge_id}/decline": answer("declineChallenge", "decline it"),
    "/api/challenges/{challenge_id}/cancel": answer("cancelChallenge", "the challenger cancels it"),
    "/api/challenges/{challenge_id}/start": answer("startChallenge", "the challenger of several starts it"),
}

TO_THE_CHALLENGE = {name: {"operationId": name, "parameters": {"challenge_id": "$response.body#/challenge"}}
                    for name in ("getChallenge", "cancelChallenge", "startChallenge")}
PATHS["/api/challenges"]["post"]["responses"]["201"]["links"] = TO_THE_CHALLENGE

SCHEMAS = {"Challenge": CHALLENGE, "MyGame": MY_GAME, "Profile": PROFILE}
