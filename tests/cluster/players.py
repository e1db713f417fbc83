"""Players for the cluster tests: many online Trails matches played through nginx by Socket.IO clients that
reconnect when their process goes away, as the pages do, and remember every move the server acknowledged.

`play(url, matches, seconds)` runs in a process of its own (the tests fork it) and returns, per match, the
moves acknowledged in order (version, move, when), every move sent (version, move), the moves whose
acknowledgement never came (lost with their process: they may or may not have been recorded), when each seat reconnected and in which match, when
each match ended, and counts of what the players met: reconnections, refusals by kind, timeouts. After
reconnecting, the player watches again and plays from the state the server holds (the version it sends
prevents a double).
"""
from __future__ import annotations

import asyncio
import random
import time

import requests

THINK = 0.25


class Seat:
    def __init__(self, url: str, stats: dict, rng: random.Random, think: float):
        self.url, self.stats, self.rng, self.think = url, stats, rng, think
        self.sio = None
        self.match = self.token = self.seat = None
        self.acknowledged: list = []
        self.over = asyncio.Event()
        self.moving = False
        self.version = -1
        self._connected_once = False
        self.generation = 0  # connections so far: a move sent on an earlier one is never answered
        self.joined = asyncio.Event()

    def new_client(self):
        """A Socket.IO client that reconnects as the pages do; its events count only while it is this seat's."""
        import socketio
        seat = self

        class Traced:
            """The client's own log lines (a reconnection's attempts), in this seat's trace."""
            def _note(self, message, *args, **_kwargs):
                if sio is not seat.sio or "packet" in message:
                    return
                try:
                    text = message % args if args else message
                except (TypeError, ValueError):  # as logging does, a line that does not format never raises
                    text = f"{message} {args!r}"
                seat.note("client: " + text[:120])
            info = warning = error = exception = debug = _note
        sio = socketio.AsyncClient(reconnection=True, reconnection_delay=0.2, reconnection_delay_max=1.0,
                                   randomization_factor=0.2, logger=Traced(), engineio_logger=Traced())

        async def state(data):
            if sio is self.sio:
                await self.on_state(data)

        async def connect():
            if sio is self.sio:
                await self.on_connect()

        async def disconnect(*_):
            if sio is self.sio:
                await self.on_disconnect()
        sio.on("state", state)
        sio.on("connect", connect)
        sio.on("disconnect", disconnect)
        return sio

    async def open(self, match: str) -> None:
        """A socket of its own for each match, as a browser has a page: the previous one closes once the
        answer to its last move came, and the new one names its match (`?match=`), as the match page does, so
        that nginx sends every socket of the match to the match's home process."""
        for _ in range(150):
            if not self.moving:
                break
            await asyncio.sleep(0.1)
        if self.sio is not None:
            await self.sio.disconnect()
        self.sio, self._connected_once = self.new_client(), False
        for _ in range(60):
            try:
                await self.sio.connect(f"{self.url}/?match={match}", transports=["websocket"], wait_timeout=30)
                return
            except Exception:  # a process restarting: nginx sends the next attempt elsewhere
                await asyncio.sleep(0.3)
        raise RuntimeError(f"could not connect for match {match}")

    async def on_disconnect(self, *_):
        """A move in flight went with the connection (no answer can come on the next one): the player may move
        again once the state it watches again says so."""
        self.generation += 1
        self.moving = False
        self.note("disconnected")

    async def on_connect(self):
        self.note("connected")
        if self._connected_once:
            self.stats["reconnects"] += 1
            if self.match and not self.over.is_set():
                self.stats["reconnected"].append((self.match, time.time()))
            if self.match:
                asyncio.get_running_loop().create_task(self.rewatch())
        self._connected_once = True

    async def rewatch(self):
        match = self.match
        for _ in range(20):
            if self.match != match:
                return
            try:
                ack = await self.sio.call("watch", {"match": self.match, "token": self.token}, timeout=15)
                if ack.get("ok"):
                    await self.on_state(ack["state"], again=True)
                    return
                self.note(f"watch refused {ack.get('error')}")
            except Exception as exc:
                self.note(f"watch failed {type(exc).__name__} connected {self.sio.connected}")
            await asyncio.sleep(0.3)

    async def join(self, match: str, token: str, seat: int, log: list) -> None:
        """Open the match's socket and watch the match as a player, and wait until its state came (from this
        watch, or from the one sent again after a reconnection: a call on a connection that died is never
        answered)."""
        await self.open(match)
        self.match, self.token, self.seat, self.acknowledged = match, token, seat, log
        self.moving = False  # a move of the previous match may still await its answer: it is not this match's
        self.over = asyncio.Event()
        self.joined = asyncio.Event()
        self.version = -1
        asyncio.get_running_loop().create_task(self.rewatch())
        await asyncio.wait_for(self.joined.wait(), 90)

    def note(self, what: str, match: str | None = None) -> None:
        match = match or self.match
        if match:
            self.stats["trace"].setdefault(match, []).append((self.seat, what, round(time.time() % 1000, 2)))

    async def on_state(self, state, again: bool = False):
        """`again`: the state read after reconnecting, which may be the one already seen (a move lost with its
        process): the player moves on it if it is still their turn."""
        self.note(f"state {state.get('version')} turn {state.get('turn')} again {again} mine {self.version} moving {self.moving}")
        if state.get("match") == self.match:
            self.joined.set()
        if state.get("match") != self.match or state["version"] < self.version or (
                state["version"] == self.version and not again):
            return
        self.version = state["version"]
        if state["outcome"] is not None:
            self.stats["ended"].setdefault(self.match, time.time())
            self.over.set()
        elif state["turn"] == self.seat and not self.moving:
            asyncio.get_running_loop().create_task(self.play(state))

    async def play(self, state):
        # The match and its log as they are now: the answer may come after this seat has joined its next match
        # (the move ended the game, the other seat heard it first and the table started a new one), and it
        # belongs to this match, whatever `self.match` and `self.acknowledged` are by then.
        match, log = self.match, self.acknowledged
        self.moving = True
        generation = self.generation
        try:
            await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)
            if generation != self.generation or match != self.match:
                return  # the connection went meanwhile (the state watched again decides), or the match did
            if not self.stats["running"]:
                self.over.set()
                return
            move = self.rng.choice(state["legal"])
            self.stats["sent"].setdefault(match, []).append((state["version"] + 1, move))
            try:
                ack = await self.sio.call("move", {"match": match, "token": self.token, "move": move,
                                                   "version": state["version"]}, timeout=10)
            except Exception as exc:  # the process went away with the move: the state will tell
                self.note(f"lost {type(exc).__name__}", match)
                self.stats["lost_acks"] += 1
                self.stats["errors"].append(type(exc).__name__)
                self.stats["lost"].setdefault(match, []).append((state["version"] + 1, move))
                return
            if ack.get("ok"):
                self.note(f"acknowledged {ack['version']}", match)
                self.stats["accepted"] += 1
                log.append((ack["version"], move, time.time()))
            else:
                self.note(f"refused {ack.get('error')}", match)
                self.stats["refused"][ack.get("error")] = self.stats["refused"].get(ack.get("error"), 0) + 1
        finally:
            if generation == self.generation and match == self.match:
                self.moving = False

def new_match(url: str) -> tuple[str, str, str]:
    for attempt in range(20):
        try:
            created = requests.post(f"{url}/api/matches", json={"game": "trails", "mode": "online",
                                                                "options": {"size": 7}}, timeout=10).json()
            second = requests.post(f"{url}/api/matches/{created['match']}/seats",
                                   json={"invite": created["invite_secret"]}, timeout=10).json()
            return created["match"], created["token"], second["token"]
        except Exception:
            time.sleep(0.3)  # a process restarting: nginx sends the next request elsewhere
    raise RuntimeError("could not create a match")


async def table(url: str, stats: dict, rng: random.Random, think: float, logs: dict) -> None:
    loop = asyncio.get_running_loop()
    blue, red = Seat(url, stats, rng, think), Seat(url, stats, rng, think)
    while stats["running"]:
        match, blue_token, red_token = await loop.run_in_executor(None, new_match, url)
        log = logs.setdefault(match, [])
        await red.join(match, red_token, 2, log)
        await blue.join(match, blue_token, 1, log)
        while stats["running"] and not (blue.over.is_set() or red.over.is_set()):
            await asyncio.sleep(0.05)
    for seat in (blue, red):
        if seat.sio is not None:
            await seat.sio.disconnect()


async def run(url: str, matches: int, seconds: float, think: float, seed: int) -> dict:
    rng = random.Random(seed)
    stats = {"accepted": 0, "refused": {}, "reconnects": 0, "lost_acks": 0, "errors": [], "running": True,
             "reconnected": [], "ended": {}, "lost": {}, "sent": {}, "trace": {}}
    logs: dict[str, list] = {}
    tasks = [asyncio.create_task(table(url, stats, rng, think, logs)) for _ in range(matches)]
    await asyncio.sleep(seconds)
    stats["running"] = False
    stats["stopped"] = time.time()
    await asyncio.wait(tasks, timeout=20)
    stats.pop("running")
    return {**stats, "logs": logs}


def play(url: str, matches: int, seconds: float, think: float = THINK, seed: int = 1) -> dict:
    return asyncio.run(run(url, matches, seconds, think, seed))
