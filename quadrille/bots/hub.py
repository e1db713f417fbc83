"""The streams' hub: what a bot's open stream waits for, published by whichever process it happened in.

    subscription = hub.subscribe("account:7")       # a stream opens
    hub.publish("account:7", {"type": "gameStart", ...})
    subscription.get(timeout=5)                      # the message, or None after 5 s (a keep-alive)
    subscription.close()                             # the stream ended

A subscription is a bounded queue in memory: a waiting stream costs its socket, a greenlet and this queue,
never a database connection. A stream whose client stops reading fills its queue; past `QUEUE` messages it
is told so (`overflowed`) and ends, instead of the server keeping everything for it.

- `MemoryHub`: one process hears its own publications.
- `RedisHub`: several processes. Each publication travels on one Redis channel (`<prefix>bots`) as a line
  naming its topic, then the JSON message; each process subscribes once and decodes only the messages of
  topics one of its streams waits for. Publishing never holds up the command that published (a move, a
  challenge): the messages are handed to one publishing greenlet, in order. A message published while the
  subscription is down (Redis restarting) is lost, as a Socket.IO broadcast would be: a client that reconnects
  starts again from a full state (docs/api.md, *Bots*).
"""
from __future__ import annotations

import json
import logging
import queue
import threading
from typing import Callable

log = logging.getLogger("quadrille.bots")

QUEUE = 256  # messages waiting for one stream before it is ended
SEPARATOR = b"\n"


class Subscription:
    def __init__(self, hub: "MemoryHub", topic: str):
        self.hub, self.topic = hub, topic
        self.messages = hub.make_queue()
        self.overflowed = False

    def deliver(self, message: dict) -> None:
        if self.messages.qsize() >= QUEUE:
            self.overflowed = True
            self.messages.put_nowait(None)  # wakes the stream, which sees `overflowed` and ends
        else:
            self.messages.put_nowait(message)

    def get(self, timeout: float) -> dict | None:
        """The next message, or None when none came within `timeout` seconds."""
        try:
            return self.messages.get(timeout=timeout)
        except Exception:  # the async mode's Empty (gevent's, eventlet's and the standard library's differ)
            return None

    def close(self) -> None:
        self.hub.unsubscribe(self)


class MemoryHub:
    """Topics heard in this process: topic -> its open subscriptions. `make_queue`: the async mode's queue
    (Engine.IO's `create_queue`: gevent's, eventlet's or the standard library's), which a greenlet waits on
    without holding up the others."""

    def __init__(self, make_queue: Callable = queue.Queue):
        self.make_queue = make_queue
        self._topics: dict[str, set[Subscription]] = {}
        self._lock = threading.Lock()

    def subscribe(self, topic: str) -> Subscription:
        subscription = Subscription(self, topic)
        with self._lock:
            self._topics.setdefault(topic, set()).add(subscription)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        with self._lock:
            listeners = self._topics.get(subscription.topic)
            if listeners is not None:
                listeners.discard(subscription)
                if not listeners:
                    del self._topics[subscription.topic]

    def heard(self, topic: str) -> bool:
        return topic in self._topics

    def publish(self, topic: str, message: dict) -> None:
        self.deliver(topic, message)

    def deliver(self, topic: str, message: dict) -> None:
        for subscription in tuple(self._topics.get(topic, ())):
            subscription.deliver(message)

    def close(self) -> None:
        pass


class RedisHub(MemoryHub):
    """Every process's publications, through one Redis channel."""

    OUTGOING = 10_000  # messages waiting for Redis before new ones are dropped

    def __init__(self, client, prefix: str, spawn: Callable, sleep: Callable[[float], None],
                 make_queue: Callable = queue.Queue):
        super().__init__(make_queue)
        self.client, self.channel = client, f"{prefix}bots"
        self.spawn, self.sleep = spawn, sleep
        self._outgoing = make_queue()
        self._started = False
        self._closed = False

    def subscribe(self, topic: str) -> Subscription:
        self._start()
        return super().subscribe(topic)

    def publish(self, topic: str, message: dict) -> None:
        self._start()
        if self._outgoing.qsize() >= self.OUTGOING:  # Redis has not answered for long: dropped (the stream's
            log.warning("bot streams: Redis is not taking messages; one to %s dropped", topic.split(":")[0])
            return                                   # client starts again from a full state when it reconnects)
        self._outgoing.put_nowait(topic.encode() + SEPARATOR + json.dumps(message).encode())

    def _start(self) -> None:
        with self._lock:
            if self._started:
                return
            self._started = True
        self.spawn(self._publishing)
        self.spawn(self._listening)

    def _publishing(self) -> None:
        while not self._closed:
            data = self._outgoing.get()
            if data is None:
                return
            for attempt in range(3):
                try:
                    self.client.publish(self.channel, data)
                    break
                except Exception as exc:  # Redis restarting: a short wait, then the message is given up
                    log.warning("bot streams: could not publish (%s)", exc)
                    self.sleep(0.5 * (attempt + 1))

    def _listening(self) -> None:
        while not self._closed:
            pubsub = self.client.pubsub(ignore_subscribe_messages=True)
            try:
                pubsub.subscribe(self.channel)
                while not self._closed:
                    raw = pubsub.get_message(timeout=1.0)
                    if raw is not None and raw.get("type") == "message":
                        self._heard(raw["data"])
            except Exception as exc:
                if not self._closed:
                    log.warning("bot streams: the Redis subscription dropped (%s); subscribing again", exc)
                    self.sleep(1.0)
            finally:
                try:
                    pubsub.close()
                except Exception:
                    pass

    def _heard(self, data) -> None:
        if isinstance(data, str):
            data = data.encode()
        topic, separator, body = data.partition(SEPARATOR)
        topic = topic.decode(errors="replace")
        if separator and self.heard(topic):  # decoded only when a stream of this process waits for it
            self.deliver(topic, json.loads(body))

    def close(self) -> None:
        self._closed = True
        self._outgoing.put_nowait(None)
