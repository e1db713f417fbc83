"""What a running server does about moderation decided elsewhere (the command line, another process).

The database holds every decision, and the look-ups of sessions and API tokens read it with the account, so a
ban refuses the next request in every process with nothing to tell. What a process keeps in memory is brought
in line here: each server process follows the audit log (`moderation_log`, by id: one indexed read every
`every` seconds) and, for each new entry,

- ban: forgets its copies of the account's matches (their seats went to a new key: the old key's next move or
  `watch` is refused) and closes the account's inbox room (challenges stop reaching its open pages);
- close: forgets its copy of the match and tells the room the match's STATE, which shows it ended;
- delete: forgets its copy of the match.

An action taken in this process (the moderators' page) did the same already; doing it again is harmless.
"""
from __future__ import annotations

import logging

from ..errors import ServiceError

log = logging.getLogger("quadrille.moderation")


class LiveModeration:
    def __init__(self, store, matches, accounts, close_room, spawn=None, sleep=None, every: float = 1.0):
        """`close_room(account_id)`: the account's inbox sockets leave its room (Flask-SocketIO's close_room)."""
        self.store, self.matches, self.accounts, self.close_room = store, matches, accounts, close_room
        self.spawn, self.sleep, self.every = spawn, sleep, every
        self.last = store.last_id()  # what came before this process started is in the database already
        self.running = False

    def start(self) -> "LiveModeration":
        if self.spawn is not None and self.every:
            self.running = True
            self.spawn(self._follow)
        return self

    def close(self) -> None:
        self.running = False

    def _follow(self) -> None:
        while self.running:
            self.sleep(self.every)
            try:
                self.catch_up()
            except Exception:  # the database away for a moment: the next turn tries again
                log.exception("moderation: could not read the audit log")

    def catch_up(self) -> int:
        """Apply the entries written since the last look; how many there were."""
        entries = self.store.journal(after=self.last)
        for entry in entries:
            self.last = entry["id"]
            self.apply(entry)
        return len(entries)

    def apply(self, entry: dict) -> None:
        action, match_id, account_id = entry["action"], entry["match_id"], entry["account_id"]
        if action == "ban" and account_id is not None:
            self.matches.forget(self.accounts.match_ids(account_id))
            self.close_room(account_id)
        elif action in ("close", "delete") and match_id:
            self.matches.forget([match_id])
            if action == "close":
                try:
                    state = self.matches.state(match_id)
                except ServiceError:
                    return  # deleted meanwhile
                self.matches.listener(match_id, "state", state)
