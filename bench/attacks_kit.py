"""What bench/attacks.py's attacks are made of: an attack names its finding, prepares its arguments on the server
(or the cluster) under attack, and says in words what the attacker got. The attacks themselves are the tests'
(tests/security/, tests/cluster/), imported, so that the bench replays exactly what the tests check."""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Attack:
    name: str                   # short, for --only
    finding: str                # issue 22's finding ("1" to "10"), or "earlier" for the first review's
    what: str                   # the attack, in words
    # (the server or cluster under attack, a dict of set-ups shared by attacks) -> (function, its arguments):
    # the function runs in a process of its own while the victim probes, and returns what the attacker got
    prepare: Callable[[object, dict], tuple[Callable, tuple]]
    said: Callable[[object], str]   # what the attacker got, in words
    on: str = "server"          # "server": one app.py process alone; "cluster": scripts/cluster.py's
    timeout: float = 300.0


def statuses(answers, what: str = "requests") -> str:
    """'120 requests: 10 answered 401, 110 refused 429' from a list of statuses (or of tuples that start with
    one)."""
    counted = Counter(answer[0] if isinstance(answer, (tuple, list)) else answer for answer in answers)
    parts = [f"{n:,} {'refused' if status in (429, 503) else 'answered'} {status}"
             for status, n in sorted(counted.items())]
    return f"{len(answers):,} {what}: " + ", ".join(parts)


def errors(answers) -> str:
    """'rate-limited 105, busy 5' from (status, error, ...) tuples, for the refused ones."""
    counted = Counter(answer[1] for answer in answers if answer[0] == 429)
    return ", ".join(f"{error} {n}" for error, n in sorted(counted.items()))


def ms(seconds: float) -> str:
    return f"{1000 * seconds:.0f} ms"
