"""Who each of a one-machine cluster's servers runs as, and what stays private to it (scripts/services/).

Started by root, PostgreSQL runs as the `postgres` system user, Redis as `redis` and nginx as `www-data`
(Debian's own users for them; `nobody` where one is missing), each with its own group and no supplementary
group: `subprocess.Popen(user=...)` alone changes the uid but keeps root's group and groups. Started by anyone
else, everything runs as that user. Each server's directory belongs to it with mode 0700, so its Unix socket
is out of reach of every other user but root; the app processes' sockets are in a directory shared with
nginx's group alone (`shared_with`); secrets and logs are written with mode 0600.
"""
from __future__ import annotations

import os
import pwd
import secrets
import subprocess
from dataclasses import dataclass
from pathlib import Path


def is_root() -> bool:
    return os.geteuid() == 0


@dataclass(frozen=True)
class RunAs:
    """A system user a server process runs as: its uid, its own primary group, and no other group."""

    name: str
    uid: int
    gid: int

    def popen(self) -> dict:
        """subprocess keyword arguments that start a process as this user and nothing more."""
        return {"user": self.uid, "group": self.gid, "extra_groups": []}


def system_user(*candidates: str) -> RunAs | None:
    """The first of `candidates` that exists, when this process is root (None otherwise: a server started by an
    ordinary user runs as that user). Never root itself."""
    if not is_root():
        return None
    for name in candidates:
        try:
            entry = pwd.getpwnam(name)
        except KeyError:
            continue
        if entry.pw_uid != 0 and entry.pw_gid != 0:
            return RunAs(name, entry.pw_uid, entry.pw_gid)
    raise RuntimeError(f"none of the system users {', '.join(candidates)} exists to run a server as")


def popen_as(run_as: RunAs | None) -> dict:
    return run_as.popen() if run_as else {}


def private_directory(path: Path, run_as: RunAs | None, recursive: bool = False) -> Path:
    """`path` made (if need be), with mode 0700, owned by `run_as` (when given): nobody else may enter it."""
    path.mkdir(parents=True, exist_ok=True)
    if run_as:
        check_reachable(path.parent, run_as)
        for entry in [path, *(path.rglob("*") if recursive else [])]:
            os.chown(entry, run_as.uid, run_as.gid, follow_symlinks=False)
    os.chmod(path, 0o700)
    return path


def shared_with(path: Path, run_as: RunAs | None) -> Path:
    """`path` made (if need be) for this user and `run_as` alone: owned by this user, in `run_as`'s group, mode
    2710 (the group may pass through to a socket inside but not list it; set-group-id, so that a socket made
    inside belongs to that group too). Without `run_as` (not root: everything runs as this user), mode 0700.
    The app processes' sockets live there, reached by nginx's user (scripts/cluster.py)."""
    path.mkdir(parents=True, exist_ok=True)
    if run_as:
        check_reachable(path.parent, run_as)
        os.chown(path, os.geteuid(), run_as.gid)
        os.chmod(path, 0o2710)
    else:
        os.chmod(path, 0o700)
    return path


def check_reachable(path: Path, run_as: RunAs) -> None:
    """Refuse early, and clearly, when `run_as` cannot reach `path` (a folder above it closed to others)."""
    probe = subprocess.run(["test", "-x", str(path)], **run_as.popen())
    if probe.returncode != 0:
        raise RuntimeError(f"the {run_as.name} system user cannot reach {path}: give the folders above it o+x, "
                           f"or choose another --data")


def write_private(path: Path, text: str, owner: RunAs | None = None) -> Path:
    """`text` in `path` with mode 0600, owned by `owner` if given. Written whole beside it and renamed into
    place, so a reader (an operator's script, a test reading cluster.json while the supervisor rewrites it)
    sees the old text or the new one, never a file cut short."""
    path = Path(path)
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    try:
        with os.fdopen(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as file:
            os.fchmod(file.fileno(), 0o600)
            if owner:
                os.fchown(file.fileno(), owner.uid, owner.gid)
            file.write(text.encode())
        os.replace(partial, path)
    except BaseException:
        partial.unlink(missing_ok=True)  # a write that failed leaves no stray file beside the real one
        raise
    return path


def private_log(path: Path):
    """A log file opened for appending, mode 0600: a server's log may quote a statement or a URL."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.fchmod(fd, 0o600)
    return os.fdopen(fd, "ab")


def new_secret() -> str:
    """A password: 192 random bits, URL-safe (it goes into database and Redis URLs unquoted)."""
    return secrets.token_urlsafe(24)
