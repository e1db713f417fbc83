"""The append on SQLite (a move's hot path) through sqlite3's own connection (infra/database.py's
`_sqlite_writer`): the event and the match row's update in one transaction, nothing left behind by a lost race
or a moved revision, one connection for all greenlets of a thread, one per thread that appends at once."""
from __future__ import annotations

import sqlite3
import threading

import gevent
import pytest

from quadrille.matches.store import Conflict, EventRow, MatchRow, RevisionMoved, SeatRow, Storage


def match(match_id: str) -> MatchRow:
    return MatchRow(id=match_id, game="trails", options={}, mode="online", created=1.0, visibility="public",
                    seats=[SeatRow(1), SeatRow(2)])


def move(seq: int, at: float = 10.0) -> EventRow:
    return EventRow(seq, "move", {"move": "right"}, 1 + seq % 2, at)


def stored(path, match_id: str) -> tuple:
    """The match row's version, time, summary and revision, and its events' numbers, read by another
    connection (what is committed)."""
    with sqlite3.connect(path) as conn:
        row = conn.execute("SELECT version, updated, summary, revision FROM matches WHERE id = ?",
                           (match_id,)).fetchone()
        seqs = [r[0] for r in conn.execute("SELECT seq FROM events WHERE match_id = ? ORDER BY seq", (match_id,))]
    return row, seqs


@pytest.fixture
def storage(tmp_path):
    storage = Storage.sqlite(str(tmp_path / "append.db"))
    storage.create_match(match("m"))
    yield storage
    storage.close()


def test_the_event_and_the_match_row_are_written_together(storage, tmp_path):
    storage.append_event("m", move(1, 11.0), summary='{"version":1}')
    storage.append_event("m", move(2, 12.0), revision=1, summary='{"version":2}')
    assert stored(tmp_path / "append.db", "m") == ((2, 12.0, '{"version":2}', 2), [1, 2])
    assert len(storage._writers) == 1  # sqlite3's own connection, kept for the next append


def test_a_lost_race_changes_nothing_and_leaves_no_transaction_open(storage, tmp_path):
    storage.append_event("m", move(1, 11.0), summary="one")
    with pytest.raises(Conflict):
        storage.append_event("m", move(1, 99.0), summary="lost")
    assert stored(tmp_path / "append.db", "m") == ((1, 11.0, "one", 1), [1])
    # rolled back: another connection writes at once (an open write transaction would make it wait 5 s)
    with sqlite3.connect(tmp_path / "append.db", timeout=0.1) as other:
        other.execute("UPDATE matches SET name = 'free' WHERE id = 'm'")
    storage.append_event("m", move(2, 12.0), summary="two")
    assert stored(tmp_path / "append.db", "m") == ((2, 12.0, "two", 2), [1, 2])


def test_a_guarded_append_writes_nothing_when_the_revision_moved(storage, tmp_path):
    storage.append_event("m", move(1, 11.0), revision=0, summary="one")
    storage.claim_seat("m", 2, "t" * 64, "Bob", 12.0, summary="claimed")  # revision 2: the writer's copy has 1
    with pytest.raises(RevisionMoved):
        storage.append_event("m", move(2, 13.0), revision=1, summary="stale")
    assert stored(tmp_path / "append.db", "m") == ((1, 11.0, "claimed", 2), [1])  # the insert rolled back too
    with sqlite3.connect(tmp_path / "append.db", timeout=0.1) as other:
        other.execute("UPDATE matches SET name = 'free' WHERE id = 'm'")
    storage.append_event("m", move(2, 14.0), revision=2, summary="two")
    assert stored(tmp_path / "append.db", "m") == ((2, 14.0, "two", 3), [1, 2])


def test_greenlets_of_one_thread_share_one_connection(storage, tmp_path):
    """sqlite3 never yields to the hub: a greenlet gives the connection back before any other runs."""
    def play(match_id: str) -> None:
        for seq in range(1, 21):
            storage.append_event(match_id, move(seq, float(seq)), summary=str(seq))
            gevent.sleep(0)  # the others run between two appends, as requests do
    for i in range(8):
        storage.create_match(match(f"g{i}"))
    gevent.joinall([gevent.spawn(play, f"g{i}") for i in range(8)], raise_error=True)
    for i in range(8):
        assert stored(tmp_path / "append.db", f"g{i}") == ((20, 20.0, "20", 20), list(range(1, 21)))
    assert len(storage._writers) == 1


def test_threads_never_share_a_connection(storage, tmp_path):
    errors = []

    def play(match_id: str) -> None:
        try:
            for seq in range(1, 31):
                storage.append_event(match_id, move(seq, float(seq)), summary=str(seq))
        except Exception as exc:  # reported below: an assertion in a thread would not fail the test
            errors.append(exc)
    for i in range(6):
        storage.create_match(match(f"t{i}"))
    threads = [threading.Thread(target=play, args=(f"t{i}",)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    for i in range(6):
        assert stored(tmp_path / "append.db", f"t{i}") == ((30, 30.0, "30", 30), list(range(1, 31)))
    assert 1 <= len(storage._writers) <= 6  # no more than appended at once


def test_closing_the_storage_closes_its_kept_connections(tmp_path):
    storage = Storage.sqlite(str(tmp_path / "append.db"))
    storage.create_match(match("m"))
    storage.append_event("m", move(1))
    kept = list(storage._writers)
    storage.close()
    assert storage._writers == [] and len(kept) == 1
    with pytest.raises(sqlite3.ProgrammingError):
        kept[0].execute("SELECT 1")


def test_a_database_in_memory_appends_through_the_engine():
    """Each pooled connection to `sqlite://` is a database of its own: the append stays on the pool's."""
    storage = Storage("sqlite://")
    storage.create_match(match("m"))
    storage.append_event("m", move(1, 11.0), summary="one")
    with pytest.raises(Conflict):
        storage.append_event("m", move(1, 12.0), summary="lost")
    with pytest.raises(RevisionMoved):
        storage.append_event("m", move(2, 12.0), revision=0)
    assert storage.since("m", 0)[0] == 1 and [e.seq for e in storage.since("m", 0)[2]] == [1]
    assert storage._writers == []
    storage.close()
