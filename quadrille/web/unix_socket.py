"""The server's Unix socket (`app.py --unix-socket PATH`), for a proxy on the same machine.

On one machine, a TCP port on 127.0.0.1 is open to every local user, and whoever connects from there is as
trusted as the proxy (its X-Forwarded-For believed, no cap on its connections). A Unix socket is a file: only
who may open it reaches the server, so its peer is the proxy (web/security.py, ProxyTrust).

- The file is made with mode 0660 (owner and group may connect, nobody else): the directory it is in must be
  one only the server's user and the proxy's may enter (scripts/cluster.py makes one, group of nginx's user);
  with the directory's set-group-id bit the file takes the directory's group, the proxy's.
- A socket file left at PATH by a server that was killed is replaced; one on which a server still answers is
  not, nor any other kind of file: the start-up stops with a clear message (SocketInUse).
- The file is removed when the server stops, unless another server has put its own there meanwhile.
"""
from __future__ import annotations

import os
import socket
import stat
from pathlib import Path

SOCKET_MODE = 0o660


class SocketInUse(RuntimeError):
    pass


class UnixSocketFile:
    """The socket file at `path`: `listen()` makes it, `remove()` takes it away."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        self._inode: int | None = None

    def listen(self, backlog: int) -> socket.socket:
        """A listening Unix socket at the path, mode 0660."""
        clear_stale(self.path)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        previous = os.umask(0o777 & ~SOCKET_MODE)  # never wider than 0660, not even between bind and chmod
        try:
            sock.bind(str(self.path))
        except OSError:
            sock.close()
            raise
        finally:
            os.umask(previous)
        os.chmod(self.path, SOCKET_MODE)
        self._inode = self.path.lstat().st_ino
        sock.listen(backlog)
        return sock

    def remove(self) -> None:
        try:
            if self._inode is not None and self.path.lstat().st_ino == self._inode:
                self.path.unlink()
        except FileNotFoundError:
            pass


def clear_stale(path: Path) -> None:
    """Remove a socket file no server answers on any more; refuse one a server answers on, or another file."""
    try:
        mode = path.lstat().st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISSOCK(mode):
        raise SocketInUse(f"{path} exists and is not a socket: choose another --unix-socket")
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.settimeout(1.0)
        probe.connect(str(path))
    except (ConnectionRefusedError, FileNotFoundError):
        path.unlink(missing_ok=True)  # left by a server that was killed
        return
    except OSError as exc:
        raise SocketInUse(f"{path} cannot be checked ({exc.strerror}): remove it, or choose another --unix-socket")
    finally:
        probe.close()
    raise SocketInUse(f"a server already listens on {path}")
