"""The cluster (issue 22, finding 5) for bench/attacks.py: a real scripts/cluster.py cluster (PostgreSQL, Redis, two
app processes, nginx) at its default settings, attacked by another local user (`nobody`, through setpriv: the
bench runs as root): the servers, the app processes' sockets, and X-Forwarded-For forged through nginx. The attacks are
tests/cluster/test_cluster_security.py's."""
from __future__ import annotations

import re
from collections import Counter

from bench.attacks_kit import Attack
from tests.cluster.test_cluster_security import (app_process_tries, as_another_user, forged_through_nginx, postgres_tries,
                                                 redis_tries, said)

REASONS = ("password authentication failed", "no password supplied", "Permission denied", "PermissionError", "NOAUTH",
           "WRONGPASS", "Couldn't connect")


def reason(answer) -> str:
    """Why a try was refused, in the refusing program's words."""
    text = said(answer)
    found = next((words for words in REASONS if words in text), None)
    return found or (text.strip().splitlines() or ["(nothing said)"])[-1][:80]


def read_as_another_user(paths) -> list[tuple[str, str]]:
    return [(path.name, reason(as_another_user("cat", str(path)))) for path in paths]


def postgres(cluster) -> dict:
    """postgres_tries, and the secrets the passwords are kept in, read by the same user."""
    tries = postgres_tries(cluster.postgres)
    return {"tries": [(way, "|" in answer.stdout or answer.returncode == 0, reason(answer)) for way, answer in tries],
            "reads": read_as_another_user([cluster.data / "cluster.json", cluster.postgres.secrets_path])}


def redis(cluster) -> dict:
    tries = redis_tries(cluster.redis)
    return {"tries": [(" ".join(argv[1:4]), "PONG" in answer.stdout or re.search(r"^\(integer\)|^OK", answer.stdout,
                                                                                 re.M) is not None, reason(answer))
                      for argv, answer in tries],
            "reads": read_as_another_user([cluster.redis.directory / "redis.conf"])}


def said_tries(result: dict) -> str:
    tries = result["tries"]
    let_in = sum(got for _, got, _ in tries)
    reasons = Counter(why for _, _, why in tries)
    reads = ", ".join(f"{name}: {why}" for name, why in result["reads"])
    return (f"{len(tries)} tries as another local user, {let_in} let in: "
            + ", ".join(f"{n} '{why}'" for why, n in reasons.most_common()) + f"; reading {reads}")


def app_processes(cluster) -> dict:
    """app_process_tries: whether any try reached an app process (curl printed an answer, connect() returned)."""
    return {"tries": [(what, answer.returncode == 0, reason(answer)) for what, answer in app_process_tries(cluster)],
            "reads": read_as_another_user([cluster.data / "apps" / "app1.log"])}


def forged_forwarding(cluster, times: int) -> list[int]:
    """`times` requests through nginx from one address, each forging another X-Forwarded-For: the budget left."""
    return [forged_through_nginx(cluster, "127.0.0.5", f"198.51.{100 + i // 250}.{i % 250 + 1}")
            for i in range(times)]


def said_forwarding(budgets) -> str:
    return (f"{len(budgets)} requests through nginx naming as many forwarded addresses: one budget, counted down "
            f"from {budgets[0]} to {min(budgets)}")


ATTACKS = [
    Attack("cluster-postgres", "5", "another local user tries the cluster's PostgreSQL (TCP with no or guessed "
           "passwords, the Unix socket) and reads its secrets", lambda c, s: (postgres, (c,)), said_tries,
           on="cluster"),
    Attack("cluster-redis", "5", "another local user tries the cluster's Redis (PING, a forged challenge "
           "published, a budget edited; guessed passwords; the Unix socket)", lambda c, s: (redis, (c,)), said_tries,
           on="cluster"),
    Attack("cluster-apps", "5", "another local user tries the app processes' Unix sockets (curl forging "
           "X-Forwarded-For, a plain connect), lists their folder and reads an app's log",
           lambda c, s: (app_processes, (c,)), said_tries, on="cluster"),
    Attack("forwarded-for", "5", "200 requests through nginx as another local user, each forging another "
           "X-Forwarded-For", lambda c, s: (forged_forwarding, (c, 200)), said_forwarding, on="cluster"),
]
