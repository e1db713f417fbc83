"""The client manager's index of each socket's rooms (infra/room_index.py) leaves the library's state exactly as the
library's own manager does, through any sequence of connections, rooms entered and left, rooms closed and
disconnections."""
from __future__ import annotations

import random

import socketio

from quadrille.infra.room_index import IndexedManager


class _Ids:
    def __init__(self):
        self.n = 0

    def generate_id(self):
        self.n += 1
        return f"sid{self.n}"


class _Server:
    def __init__(self):
        self.eio = _Ids()
        self.packet_class = socketio.packet.Packet


def managers():
    pair = socketio.Manager(), IndexedManager()
    for manager in pair:
        manager.set_server(_Server())
    return pair


def state(manager) -> tuple:
    rooms = {ns: {room: dict(members) for room, members in by_room.items()} for ns, by_room in manager.rooms.items()}
    return rooms, dict(manager.pending_connect), dict(manager.pending_disconnect), set(manager.callbacks)


def test_any_sequence_leaves_the_rooms_as_the_library_does():
    for seed in range(20):
        rng = random.Random(seed)
        stock, indexed = managers()
        connected: list[str] = []
        for step in range(400):
            action = rng.random()
            namespace = rng.choice(["/", "/other"])
            if action < 0.25 or not connected:
                eio = f"eio{seed}-{step}"
                sids = {m.connect(eio, namespace) for m in (stock, indexed)}
                assert len(sids) == 1
                connected.append((sids.pop(), namespace))
                continue
            sid, ns = rng.choice(connected)
            room = f"match:{rng.randrange(6)}"
            if action < 0.55:
                for m in (stock, indexed):
                    m.enter_room(sid, ns, room)
            elif action < 0.7:
                for m in (stock, indexed):
                    m.leave_room(sid, ns, room)
            elif action < 0.75:
                for m in (stock, indexed):
                    m.close_room(room, ns)
            elif action < 0.8:
                for m in (stock, indexed):
                    m._generate_ack_id(sid, lambda *a: None)
            else:
                for m in (stock, indexed):
                    m.pre_disconnect(sid, ns)
                    m.disconnect(sid, ns)
                connected.remove((sid, ns))
            assert state(indexed) == state(stock), (seed, step)
            assert indexed.get_rooms(sid, ns) == stock.get_rooms(sid, ns)
        for sid, ns in list(connected):
            for m in (stock, indexed):
                m.disconnect(sid, ns)
        assert state(indexed) == state(stock)
        assert indexed._socket_rooms == {}  # nothing kept of sockets gone


def test_a_leaving_socket_tests_only_its_own_rooms():
    _, indexed = managers()
    sids = [indexed.connect(f"eio{n}", "/") for n in range(300)]
    for n, sid in enumerate(sids):
        indexed.enter_room(sid, "/", f"match:{n // 2}")
    looked = []

    class Counting(dict):
        def copy(self):
            looked.append(len(self))
            return dict.copy(self)
    indexed.rooms["/"] = Counting(indexed.rooms["/"])
    indexed.disconnect(sids[0], "/")
    assert looked == []  # the stock manager copies and tests all 451 rooms
    assert "match:0" in indexed.rooms["/"] and sids[0] not in indexed.rooms["/"]["match:0"]
