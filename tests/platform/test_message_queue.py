"""The Socket.IO message queue (quadrille/infra/message_queue.py), through a real Redis: a process decodes a
broadcast only when it has something to do with it."""
from __future__ import annotations

import json
import queue
import threading
import time
import uuid

import socketio

from quadrille.infra.message_queue import RoomAwareRedisManager


def manager(redis_url: str, channel: str) -> RoomAwareRedisManager:
    """A process's manager: a server of its own (threading mode: no monkey-patching needed), not listening."""
    made = RoomAwareRedisManager(redis_url, channel=channel)
    made.set_server(socketio.Server(async_mode="threading", client_manager=made))
    made.server.start_background_task = lambda *a, **k: None  # the test reads `_listen` itself
    return made


def test_a_process_decodes_only_the_messages_it_has_something_to_do_with(redis_url):
    channel = f"test-{uuid.uuid4().hex}"
    here, there = manager(redis_url, channel), manager(redis_url, channel)
    watcher = here.connect("eio-1", "/")
    here.enter_room(watcher, "/", "match:watched")
    heard: queue.Queue = queue.Queue()

    done = threading.Event()

    def listen():
        for message in here._listen():
            if done.is_set():
                break
            heard.put(message)
        here.pubsub.close()
    listening = threading.Thread(target=listen, daemon=True)
    listening.start()
    there._redis_connect()
    deadline = time.monotonic() + 10
    while there.redis.pubsub_numsub(channel)[0][1] < 1:  # here has subscribed
        assert time.monotonic() < deadline
        time.sleep(0.02)

    there.emit("state", {"version": 1}, room="match:unwatched")  # nobody here watches it: not even decoded
    here.emit("state", {"version": 2}, room="match:watched")  # here's own: handled when sent
    there.emit("state", {"version": 3}, room="match:watched")
    there.emit("notice", {"all": True})  # to everyone
    there.emit("state", {"version": 4}, room=["match:other", "match:watched"])
    there._publish({"method": "callback", "host_id": here.host_id, "sid": watcher, "namespace": "/", "id": 1,
                    "args": []})  # an acknowledgement for here
    there._publish({"method": "callback", "host_id": "someone-else", "sid": "x", "namespace": "/", "id": 1,
                    "args": []})
    there.redis.publish(channel, json.dumps({"method": "emit", "event": "stock", "data": [1], "room": None,
                                             "namespace": "/", "host_id": there.host_id}))  # a stock manager's

    got = [heard.get(timeout=10) for _ in range(5)]
    assert [(m.get("event"), m["method"]) for m in got[:4] if isinstance(m, dict)] == [
        ("state", "emit"), ("notice", "emit"), ("state", "emit"), (None, "callback")]
    assert [m["data"] for m in got[:4] if m["method"] == "emit"] == [[{"version": 3}], [{"all": True}],
                                                                    [{"version": 4}]]
    assert json.loads(got[4])["event"] == "stock"  # decoded by the stock code path, as before
    assert heard.empty()
    done.set()
    there.emit("notice", {"all": True})  # wakes the listener, which stops
    listening.join(10)
    assert not listening.is_alive()
