"""Connections that wait for a request, held by the event loop itself rather than by a greenlet each.

A greenlet that waits for a connection's first byte costs its stack, its timeout and two switches, and the loop
wakes each such greenlet in turn when its connection ends: a flood's idle connections, all ending at once (the
attacker lets go, or they all reach their idle timeout together), took the loop over a second to close, ahead of
everyone else's frames. Here a waiting connection is a socket and one watcher of the hub's, for both async modes
(web/listener.py and web/eventlet_listener.py hand connections in and start the handlers; web/admission.py's
gate caps how many wait):

- **Parked**: at accept (once the gate has let it in), and after each answer on a kept-alive connection whose
  next request has not begun to arrive, a connection is parked here; its handler greenlet, if it had one, ends.
- **Ready**: when the hub sees it readable, the room peeks at it. A byte of a request: it is handed to the
  server, which starts its handler (gevent's WSGIHandler, eventlet.wsgi's protocol), and it waits no more once its
  request has arrived whole (the handler tells the gate). The end of the stream (the client left): it is closed
  there and then, a system call or two, never a greenlet.
- **Idle**: a connection parked longer than IDLE_TIMEOUT is closed by a sweep that runs every quarter of it (so
  it waits up to a quarter more), at most SWEEP_BATCH in one turn of the loop, the rest on the next turns:
  a flood's connections, opened together, are never all closed ahead of everyone else.
- **Evicted**: when the gate lets another connection wait in place of a parked one, the room closes it.
"""
from __future__ import annotations

import socket
import time
from functools import partial

SWEEP_BATCH = 64  # idle connections closed in one turn of the loop, at most


class Peer(tuple):
    """A client's (host, port), as the WSGI servers expect it, carrying its connection's ticket. Two peers are
    never equal: every Unix socket peer is ("", 0), and eventlet.wsgi keeps its connections by peer. `parking`:
    its handler has handed the connection back to the waiting room, which takes it when the handler is done."""

    ticket: object
    parking = False
    __eq__ = object.__eq__
    __ne__ = object.__ne__
    __hash__ = object.__hash__


def shut(sock) -> None:
    """End a connection from outside its handler: whatever it waits for sees the end of the stream."""
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


def next_request_begun(sock, rfile) -> bool:
    """Whether a kept-alive connection's next request has begun to arrive (in the handler's buffer, or on the
    socket), found without waiting. Nothing yet (or the end of the stream): the connection can be parked."""
    timeout = sock.gettimeout()
    sock.settimeout(0.0)  # a read that would wait returns nothing instead
    try:
        return bool(rfile.peek(1))
    except (OSError, ValueError):
        return False  # parked, its watcher sees the error at once and the room closes it
    finally:
        sock.settimeout(timeout)


class Parked:
    __slots__ = ("sock", "peer", "since", "watcher")

    def __init__(self, sock, peer: Peer, since: float):
        self.sock, self.peer, self.since, self.watcher = sock, peer, since, None


class WaitingRoom:
    """`park(sock, peer)` a connection that waits for a request; `dispatch(sock, peer)` is called (in the hub)
    when its request begins to arrive. `loop`: the async mode's GeventLoop or EventletLoop below."""

    def __init__(self, gate, idle_timeout: float, loop, dispatch):
        self._gate, self._idle_timeout, self._loop, self._dispatch = gate, idle_timeout, loop, dispatch
        self._parked: dict[int, Parked] = {}  # by ticket id, the longest parked first
        self._sweeper = None
        self._closed = False

    def park(self, sock, peer: Peer) -> None:
        ticket = peer.ticket
        peer.parking = False
        if self._closed:  # the server has stopped: a handler that ends now closes its connection
            self._close(Parked(sock, peer, 0.0))
            return
        self._gate.waiting(ticket)  # past the cap, the gate evicts another waiting connection
        sock.settimeout(0.0)  # the room only ever reads what is there
        parked = Parked(sock, peer, time.monotonic())
        parked.watcher = self._loop.watch(sock, self._ready, parked)
        ticket.cut = partial(self._evict, parked)
        self._parked[ticket.id] = parked
        if self._sweeper is None:
            self._sweeper = self._loop.spawn(self._sweep)

    def __len__(self) -> int:
        return len(self._parked)

    def close(self) -> None:
        """The server stops: every parked connection is closed, and any parked from now on."""
        self._closed = True
        if self._sweeper is not None:
            self._loop.kill(self._sweeper)
            self._sweeper = None
        for parked in list(self._parked.values()):
            self._evict(parked)

    # -- in the hub ------------------------------------------------------------------------------------
    def _ready(self, parked: Parked) -> None:
        try:
            begun = bool(parked.sock.recv(1, socket.MSG_PEEK))
        except (BlockingIOError, InterruptedError):
            return  # nothing after all: it keeps waiting
        except OSError:
            begun = False  # reset by the client
        if not self._unpark(parked):
            return
        if not begun:
            self._close(parked)
            return
        parked.sock.settimeout(None)
        parked.peer.ticket.cut = partial(shut, parked.sock)
        self._dispatch(parked.sock, parked.peer)

    def _evict(self, parked: Parked) -> None:
        if self._unpark(parked):
            self._close(parked)

    def _unpark(self, parked: Parked) -> bool:
        if self._parked.pop(parked.peer.ticket.id, None) is None:
            return False
        self._loop.unwatch(parked.watcher)
        parked.watcher = None
        return True

    def _close(self, parked: Parked) -> None:
        ticket = parked.peer.ticket
        ticket.cut = _nothing  # and the ticket no longer holds the parked connection (a cycle)
        self._gate.release(ticket)
        # Shut down first: close() alone leaves the descriptor open while a file object its last handler made
        # still refers to the socket (gevent counts them), and a client that sends its next request on it then
        # waits for ever, where the end of the stream makes it open a new connection.
        shut(parked.sock)
        try:
            parked.sock.close()
        except OSError:
            pass

    def _sweep(self) -> None:
        """Close the connections parked longer than the idle timeout, the longest parked first, SWEEP_BATCH in
        a turn of the loop."""
        while True:
            expired = time.monotonic() - self._idle_timeout
            batch = []
            for parked in self._parked.values():
                if parked.since > expired or len(batch) == SWEEP_BATCH:
                    break
                batch.append(parked)
            for parked in batch:
                self._evict(parked)
            self._loop.sleep(0 if len(batch) == SWEEP_BATCH else self._idle_timeout / 4)


# -- the hub of each async mode ----------------------------------------------------------------------
class GeventLoop:
    """gevent's hub: an io watcher of libev's per parked connection."""

    def __init__(self):
        import gevent
        self._loop = gevent.get_hub().loop
        self.spawn, self.sleep, self.kill = gevent.spawn, gevent.sleep, gevent.kill

    def watch(self, sock, callback, *args):
        watcher = self._loop.io(sock.fileno(), 1)  # 1: readable
        watcher.start(callback, *args)
        return watcher

    @staticmethod
    def unwatch(watcher) -> None:
        watcher.stop()
        watcher.close()


class EventletLoop:
    """eventlet's hub: a listener of the hub's per parked connection (the connection has no greenthread that
    could read it meanwhile: eventlet allows one reader per descriptor)."""

    def __init__(self):
        import eventlet
        from eventlet.hubs import get_hub
        self._hub = get_hub
        self.spawn, self.sleep = eventlet.spawn, eventlet.sleep

    def watch(self, sock, callback, *args):
        hub = self._hub()
        return hub.add(hub.READ, sock.fileno(), lambda _fileno: callback(*args), _obsolete, _obsolete)

    def unwatch(self, listener) -> None:
        self._hub().remove(listener)

    @staticmethod
    def kill(thread) -> None:
        thread.kill()


def _nothing() -> None:
    """What cutting a closed connection does."""


def _obsolete(*_) -> None:
    """eventlet's hub calls this for a listener whose descriptor was closed and reused under it; the room removes
    its listener before it closes a connection, so there is nothing to do."""
