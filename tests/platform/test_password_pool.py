"""The password pool (quadrille/accounts/password_pool.py): bounded, refusing at once past its queue, and
Argon2 really leaves the GIL while it hashes (else a thread would not free the event loop). Under gevent and
eventlet, on a real server: tests/security/test_password_floods.py."""
from __future__ import annotations

import sys
import threading
import time

import pytest

from quadrille.accounts.password_pool import for_async_mode
from quadrille.accounts.passwords import hash_password, verify_or_dummy
from quadrille.errors import ServiceError
from tests.support.waiting import wait_until


def error_of(call, *args):
    try:
        call(*args)
    except ServiceError as error:
        return error
    raise AssertionError("no ServiceError")


def test_past_its_workers_and_queue_the_pool_refuses_at_once():
    pool = for_async_mode("threading", workers=1, queue=1)
    release = threading.Event()
    started = threading.Event()

    def blocking():
        started.set()
        release.wait(10)
        return "done"
    answers = []
    callers = [threading.Thread(target=lambda: answers.append(pool.run(blocking))) for _ in range(2)]
    for caller in callers:
        caller.start()
    assert started.wait(5)
    wait_until(lambda: pool.admitted == 2, 5, "both callers admitted")
    # Refused while the worker and the queue are still held (`release` is not set): a pool that waited for a
    # worker would wait for ever, and wait_until below would fail.
    refused = []
    late = threading.Thread(target=lambda: refused.append(error_of(pool.run, blocking)), daemon=True)
    late.start()
    wait_until(lambda: refused, 10, "the refusal")
    assert not release.is_set()
    assert refused[0].status == 429 and refused[0].error == "busy"
    release.set()
    for caller in callers:
        caller.join(10)
    assert answers == ["done", "done"] and pool.admitted == 0
    assert pool.run(lambda: 42) == 42  # room again


def test_a_job_that_fails_gives_its_place_back():
    pool = for_async_mode("threading", workers=1, queue=0)
    with pytest.raises(ZeroDivisionError):
        pool.run(lambda: 1 / 0)
    assert pool.admitted == 0 and pool.run(lambda: "ok") == "ok"


def steps_while(work) -> int:
    """How many steps this thread takes while another thread runs `work()`, with Python's own switching between
    threads put off (a switch interval of 1,000 s): this thread then runs only when the other one lets go of the
    GIL, as a C function that releases it does. Each step yields the GIL again (sleep(0)), so that the other
    thread goes on when its call returns."""
    inside, done = threading.Event(), threading.Event()

    def run():
        inside.set()
        work()
        done.set()
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)
    try:
        worker = threading.Thread(target=run)
        worker.start()
        inside.wait()
        steps = 0
        while not done.is_set():
            steps += 1
            time.sleep(0)
        worker.join()
    finally:
        sys.setswitchinterval(interval)
    return steps


def test_argon2_leaves_the_gil_while_it_verifies():
    """While the pool verifies a password, this thread's Python keeps running: thousands of steps (counted, not
    timed), where a call holding the GIL leaves it only the few steps around the hand-over to the pool."""
    pool = for_async_mode("threading", workers=1, queue=0)
    stored = hash_password("correct horse")
    assert steps_while(lambda: pool.run(verify_or_dummy, stored, "wrong horse")) > 500

    def holds_the_gil():
        total = 0
        for i in range(3_000_000):
            total += i
    assert steps_while(lambda: pool.run(holds_the_gil)) < 200     # what the count tells apart


def test_the_workers_run_nicer_than_the_server():
    """So that on a small machine the event loop's thread still gets a core while Argon2 hashes (Linux)."""
    import os
    pool = for_async_mode("threading", workers=1, queue=0, nice=10)
    niceness = pool.run(lambda: os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
    assert niceness == min(19, os.getpriority(os.PRIO_PROCESS, 0) + 10)
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == os.getpriority(os.PRIO_PROCESS, 0)
