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
from tests.support.clock import Clock
from tests.support.waiting import wait_until


def manager(redis_url: str, channel: str) -> RoomAwareRedisManager:
    """A process's manager: a server of its own (threading mode: no monkey-patching needed), not listening."""
    made = RoomAwareRedisManager(redis_url, channel=channel)
    made.set_server(socketio.Server(async_mode="threading", client_manager=made))
    made.server.start_background_task = lambda *a, **k: None  # the test reads `_listen` itself
    return made


def publishing_where_heard(redis_url: str, channel: str, prefix: str, ttl: float | None = None):
    """The manager of the process "there", connected, publishing a match room's broadcasts only when the hash
    `prefix` + room (presence's entries) names another process."""
    made = manager(redis_url, channel)
    made._redis_connect()
    made.publish_only_where_heard(lambda room: prefix + room if room.startswith("match:") else None, "there",
                                  ttl=ttl)
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
    wait_until(lambda: there.redis.pubsub_numsub(channel)[0][1] >= 1, 10, "here to subscribe")

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


def test_a_match_broadcast_is_published_only_when_another_process_has_a_socket_in_it(redis_url):
    """The hash named for a room (presence's entries: a field per process with a socket in the match) decides:
    a room heard only here, or nowhere, costs no message; one that another process hears gets it, and so do rooms
    that no hash describes (an account's inbox, everyone)."""
    import redis
    channel, prefix = f"test-{uuid.uuid4().hex}", f"test-{uuid.uuid4().hex}:"
    there = publishing_where_heard(redis_url, channel, prefix)
    client = redis.Redis.from_url(redis_url)
    subscriber = client.pubsub(ignore_subscribe_messages=True)
    subscriber.subscribe(channel)
    client.hset(prefix + "match:alone", "there", "{}")
    client.hset(prefix + "match:shared", mapping={"there": "{}", "here": "{}"})
    try:
        wait_until(lambda: client.pubsub_numsub(channel)[0][1] >= 1, 10, "the subscription")
        there.emit("state", {"version": 1}, room="match:alone")
        there.emit("state", {"version": 2}, room="match:nobody")
        there.emit("state", {"version": 3}, room="match:shared")
        there.emit("challenge", {"id": 4}, room="inbox:4")
        there.emit("notice", {"all": True})
        client.hdel(prefix + "match:shared", "here")  # the other process's last socket left
        there.emit("state", {"version": 6}, room="match:shared")
        there.emit("notice", {"last": True})
        heard, deadline = [], time.monotonic() + 10
        while not heard or heard[-1] != [{"last": True}]:
            assert time.monotonic() < deadline, heard
            message = subscriber.get_message(timeout=1)  # None for the (ignored) subscription's confirmation
            if message is not None:
                heard.append(json.loads(message["data"].partition(b"\n")[2])["data"])
        assert heard == [[{"version": 3}], [{"id": 4}], [{"all": True}], [{"last": True}]]
    finally:
        subscriber.close()
        client.delete(prefix + "match:alone", prefix + "match:shared")


def test_an_answer_alone_is_trusted_until_another_process_says_it_arrived_or_the_answer_expires(redis_url):
    """A process found alone in a match asks Redis again only when another process's `audience_grew` reaches it
    (that process's field is new), or when its answer is `ttl` old: until then a broadcast costs no question."""
    import redis
    channel, prefix = f"test-{uuid.uuid4().hex}", f"test-{uuid.uuid4().hex}:"
    here, there = manager(redis_url, channel), publishing_where_heard(redis_url, channel, prefix, ttl=0.6)
    there.clock = clock = Clock()
    done = threading.Event()

    def hear_until_done():  # `there` hears the channel, as its listening thread would, until the test is over
        for _ in there._listen():
            if done.is_set():
                return
    heard_by_there = threading.Thread(target=hear_until_done, daemon=True)
    heard_by_there.start()
    client = redis.Redis.from_url(redis_url)
    subscriber = client.pubsub(ignore_subscribe_messages=True)
    subscriber.subscribe(channel)
    published: list = []

    def publishes(version: int) -> bool:
        """Whether `there` publishes a STATE of this version to the match's room."""
        there.emit("state", {"version": version}, room="match:m")
        there.emit("notice", {"marker": version})  # always published: what came before it has come
        deadline = time.monotonic() + 5
        while True:
            assert time.monotonic() < deadline, "the marker never came"
            message = subscriber.get_message(timeout=1)  # None for the (ignored) subscription's confirmation
            if message is None:
                continue
            head, _, body = message["data"].partition(b"\n")
            if json.loads(head)[1] == "audience":
                continue
            data = json.loads(body)["data"][0]
            if data == {"marker": version}:
                return data in published or {"version": version} in published
            published.append(data)
    try:
        wait_until(lambda: client.pubsub_numsub(channel)[0][1] >= 2, 10,  # `there` and the test's subscriber
                   "both subscriptions")
        client.hset(prefix + "match:m", "there", "{}")
        assert not publishes(1)  # alone: asked once
        client.hset(prefix + "match:m", "here", "{}")  # another process's field, written without a word
        assert not publishes(2)  # the answer is trusted
        here._redis_connect()
        here.audience_grew(prefix + "match:m")  # ... until that process says it arrived
        wait_until(lambda: prefix + "match:m" not in there._alone_until, 5, "the arrival to be heard")
        assert publishes(3)
        client.hdel(prefix + "match:m", "here")
        assert not publishes(4)  # alone again, and trusted again
        client.hset(prefix + "match:m", "here", "{}")
        clock.advance(0.7)  # no word this time: the answer expires
        assert publishes(5)
        client.hdel(prefix + "match:m", "here")
        asking = there.redis.hkeys

        def overtaken(key):  # an arrival heard while the question was out: it may postdate the answer
            answer = asking(key)
            there._heard_arrival(key)
            return answer
        there.redis.hkeys = overtaken
        assert not publishes(6)
        there.redis.hkeys = asking
        client.hset(prefix + "match:m", "here", "{}")
        assert publishes(7)  # that answer was not trusted: asked again
    finally:
        # Another process's word wakes the listener, which then stops: left listening, it would outlive the
        # session's Redis and print its retries on a closed stream.
        done.set()
        here.emit("notice", {"done": True})
        heard_by_there.join(5)
        subscriber.close()
        client.delete(prefix + "match:m")


def test_the_answers_and_arrivals_a_process_keeps_stay_bounded(redis_url):
    """Past MAX_ANSWERS, the expired answers go (all of them, when none has expired: that only costs questions),
    and arrivals older than any answer that could still be kept go."""
    channel, prefix = f"test-{uuid.uuid4().hex}", f"test-{uuid.uuid4().hex}:"
    there = publishing_where_heard(redis_url, channel, prefix, ttl=0.3)
    there.clock = clock = Clock()
    there.MAX_ANSWERS = 3
    there.pubsub.subscribe(channel)  # as its listening thread would: answers are kept only while subscribed
    for room in ("match:a", "match:b", "match:c"):
        assert there._heard_only_here(room)  # nobody hears these rooms: alone
    assert set(there._alone_until) == {prefix + "match:" + r for r in "abc"}
    assert there._heard_only_here("match:d")
    assert set(there._alone_until) == {prefix + "match:d"}  # none had expired: all went
    clock.advance(0.35)
    for room in ("match:e", "match:f", "match:g"):
        there._heard_only_here(room)
    assert set(there._alone_until) == {prefix + "match:" + r for r in "efg"}  # d had expired
    for room in ("match:e", "match:f", "match:g"):
        there._heard_arrival(prefix + room)
    assert there._alone_until == {} and len(there._grew_at) == 3
    clock.advance(0.35)
    there._heard_arrival(prefix + "match:h")
    assert set(there._grew_at) == {prefix + "match:h"}
    there.pubsub.close()


def entry_until(client, key: str) -> float:
    """Until when the one process's entry in a match's presence hash lives (infra/redis_presence.py)."""
    values = client.hvals(key)
    return max((json.loads(value)["until"] for value in values), default=0.0)


def test_sockets_whose_presence_had_lapsed_get_the_state_again(redis_url, tmp_path):
    """A real server on the queue: its entry in a match vanishes from Redis (as when another process reaps an
    entry whose refreshes failed for too long); its next refresh writes it again, and the match's sockets there
    get its STATE at once, in case a broadcast skipped them meanwhile."""
    import redis
    import requests
    from tests.support.servers import ServerProcess
    prefix = f"test-{uuid.uuid4().hex}:"
    server = ServerProcess(tmp_path / "lapse.db", settings={"CLUSTER_PREFIX": prefix, "PRESENCE_TTL": 0.6},
                           queue=redis_url).start()
    watcher = socketio.Client(reconnection=False)
    try:
        match = requests.post(f"{server.url}/api/matches", json={"game": "trails", "mode": "online"}).json()["match"]
        states: list = []
        watcher.on("state", states.append)
        watcher.connect(server.url, transports=["websocket"], wait_timeout=10)
        assert watcher.call("watch", {"match": match}, timeout=10)["ok"]
        entries = redis.Redis.from_url(redis_url)
        first = entry_until(entries, f"{prefix}presence:{match}")
        # refreshed meanwhile, for longer than the first entry would have lived: nothing lapsed, nothing sent
        wait_until(lambda: entry_until(entries, f"{prefix}presence:{match}") >= first + 0.6, 10,
                   "the server to refresh its entry for a whole PRESENCE_TTL")
        assert states == []
        entries.delete(f"{prefix}presence:{match}")
        wait_until(lambda: len(states) == 1, 5, "the STATE sent again")
        assert states[0]["match"] == match and states[0]["version"] == 0
    finally:
        watcher.disconnect()
        server.stop()


def test_a_move_that_no_broadcast_brought_reaches_a_new_watcher_once_every_answer_has_expired(redis_url, tmp_path):
    """A process that found itself alone in a match may skip a watcher who has just joined another process
    (infra/message_queue.py). The watcher's process sends the room what it never broadcast once every such answer
    has expired. Here the move comes from a process outside the message queue on the same database, so no
    broadcast ever brings it: the watcher gets it from that resend, AUDIENCE_TTL after it joined."""
    import requests
    from tests.support.servers import ServerProcess
    prefix, ttl = f"test-{uuid.uuid4().hex}:", 1.0
    db = tmp_path / "shared.db"
    watched = ServerProcess(db, settings={"CLUSTER_PREFIX": prefix, "AUDIENCE_TTL": ttl}, queue=redis_url).start()
    outsider = ServerProcess(db).start()
    watcher = socketio.Client(reconnection=False)
    try:
        created = requests.post(f"{watched.url}/api/matches", json={"game": "trails", "mode": "local"}).json()
        match, token = created["match"], created["token"]
        states: list = []
        watcher.on("state", states.append)
        watcher.connect(watched.url, transports=["websocket"], wait_timeout=10)
        answer = watcher.call("watch", {"match": match}, timeout=10)
        joined = time.monotonic()
        assert answer["ok"] and answer["state"]["version"] == 0
        move = requests.get(f"{outsider.url}/api/matches/{match}").json()["legal"][0]
        played = requests.post(f"{outsider.url}/api/matches/{match}/moves", json={"move": move},
                               headers={"Authorization": f"Bearer {token}"})
        assert played.status_code == 200, played.text
        version = played.json()["version"]
        wait_until(lambda: any(s["version"] == version for s in states), 10, "the move, sent again")
        assert time.monotonic() - joined >= ttl - 0.1
        assert [s["version"] for s in states] == [version]  # once, and nothing before it
    finally:
        watcher.disconnect()
        outsider.stop()
        watched.stop()
