"""`python -m quadrille admin` moderation commands: matches under way, close, delete, ban, unban, mute, unmute,
free-name, reset-rating, reports, dismiss-report, moderator, log (docs/moderation.md).

They act on the database the server uses (--db, else QUADRILLE_DB, else
quadrille.db, as app.py), with the services the server runs (quadrille/moderation/service.py); a running server
follows what they did within a second (quadrille/moderation/live.py). The audit log records the actor as
"console". A refusal prints its reason and changes nothing (exit status 1).
"""
from __future__ import annotations

import json
import sys
import time
from contextlib import contextmanager

from ..errors import ServiceError
from ..infra.engine import configured_database
from .cli import database_option
from ..moderation.service import CONSOLE

LISTING = 50


def database_of(args) -> str:
    return configured_database(args.db)  # as app.py and the backup commands choose it


@contextmanager
def site(args):
    """The moderation service on the site's database, with the match, account, rating and challenge services
    beside it as the server has them (a match closed here is rated as aborted, as in the server)."""
    from ..accounts import AccountService
    from ..challenges import ChallengeService
    from ..matches import ENDED, MatchService
    from ..matches.store import Storage
    from ..moderation import ModerationService
    from ..ratings import RatingService
    from ..web.sessions import site_secret

    storage = Storage.open(database_of(args))
    try:
        matches = MatchService(storage, checked=True, clock=time.time)  # other processes write the same matches
        accounts = AccountService(storage, matches, site_secret(storage, "seats"))
        ratings = RatingService(storage)
        matches.bus.subscribe(ENDED, ratings.on_ended)
        challenges = ChallengeService(storage, matches, accounts, ratings)
        yield ModerationService(storage, matches, accounts, challenges)
    finally:
        storage.close()


def when(at) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.gmtime(at)) if at else "-"


def show(answer, args) -> None:
    if getattr(args, "json", False):
        print(json.dumps(answer, indent=1, default=str))


# -- each command: run(args, moderation) -> what it prints -------------------------------------------------
def list_matches(args, moderation):
    found = moderation.under_way(args.limit)
    if args.json:
        return show(found, args)
    if not found:
        print("No online match is under way.")
    for m in found:
        state = "playing" if m["started"] else "waiting"
        name = f" name {m['name']!r}" if m["name"] else ""
        print(f"{m['id']}  {m['game']:<8} {state:<8} moves/events {m['version']:<4} last {when(m['updated'])}"
              f"{name}  players: {', '.join(m['players'])}")


def list_reports(args, moderation):
    players, reports = moderation.reported_players(args.limit), moderation.open_reports(args.limit)
    if args.json:
        return show({"players": players, "reports": reports}, args)
    print("Players reported (open reports):" if players else "No player is reported.")
    for p in players:
        print(f"  {p['name']:<20} {p['reports']} report(s) by {p['reporters']} player(s), latest {when(p['latest'])}")
    if reports:
        print("Open reports, newest first:")
    for r in reports:
        target = " ".join(x for x in (r["account_name"] and f"player {r['account_name']}",
                                      r["match_id"] and f"match {r['match_id']}") if x)
        words = f": {r['text']!r}" if r["text"] else ""
        print(f"  #{r['id']} {when(r['created'])} {r['reporter_name'] or '(deleted)'} reports {target} "
              f"for {r['reason']}{words}")


def list_log(args, moderation):
    entries = moderation.journal(args.limit)
    if args.json:
        return show(entries, args)
    for e in entries:
        whom = " ".join(x for x in (e["account_name"] and f"account {e['account_name']}",
                                    e["match_id"] and f"match {e['match_id']}") if x)
        detail = ", ".join(f"{k}={v}" for k, v in e["detail"].items() if v is not None)
        print(f"{when(e['at'])}  {e['actor']:<12} {e['action']:<16} {whom} {detail}".rstrip())


def acting(method: str, *names: str, done: str):
    """A command that calls ModerationService.<method>(CONSOLE, *(args.<name>)) and says what it did."""
    def run(args, moderation):
        getattr(moderation, method)(CONSOLE, *(getattr(args, name) for name in names))
        print(done.format(**vars(args)))
    return run


COMMANDS = {
    "matches": ("list the online matches under way", list_matches, []),
    "close": ("end a match under way as aborted by the site (its players see it end)",
              acting("close", "match", "note", done="Closed match {match}."), ["match", "note"]),
    "delete": ("delete a match and its record (closed first if it is under way)",
               acting("delete", "match", "note", done="Deleted match {match}."), ["match", "note"]),
    "ban": ("ban an account: no login, no API token, no challenge, no seat; its sessions end",
            acting("ban", "name", "note", done="Banned {name}."), ["name", "note"]),
    "unban": ("lift a ban", acting("unban", "name", "note", done="Unbanned {name}."), ["name", "note"]),
    "mute": ("mute an account: it cannot name matches or seats others see",
             acting("mute", "name", "note", done="Muted {name}."), ["name", "note"]),
    "unmute": ("lift a mute", acting("unmute", "name", "note", done="Unmuted {name}."), ["name", "note"]),
    "free-name": ("free a by-name match's name for a new match",
                  acting("free_name", "match_name", done="Freed the match name {match_name!r}."), ["match_name"]),
    "reset-rating": ("reset an account's rating of one game",
                     acting("reset_rating", "name", "game", done="Reset {name}'s {game} rating."), ["name", "game"]),
    "reports": ("list the players others reported, and the open reports", list_reports, []),
    "dismiss-report": ("close a report as dealt with",
                       acting("dismiss", "report", done="Dismissed report #{report}."), ["report"]),
    "log": ("show the moderation log, newest first", list_log, []),
}


def add_commands(subparsers) -> None:
    for name, (summary, run, positional) in COMMANDS.items():
        parser = subparsers.add_parser(name, help=summary, description=summary)
        database_option(parser)
        for arg in positional:
            if arg == "note":
                parser.add_argument("--note", help="why (shown in the moderation log; at most 200 characters)")
            elif arg == "report":
                parser.add_argument("report", type=int, help="the report's number (from `reports`)")
            else:
                parser.add_argument(arg, metavar=arg.upper().replace("_", "-"))
        if run in (list_matches, list_reports, list_log):
            parser.add_argument("--limit", type=int, default=LISTING, help=f"at most this many (default {LISTING})")
            parser.add_argument("--json", action="store_true", help="print JSON")
        parser.set_defaults(run=command(run))
    moderator = subparsers.add_parser("moderator", help="let an account use the moderators' page",
                                      description="Mark an account as a moderator (or, with --remove, no longer).")
    database_option(moderator)
    moderator.add_argument("name", metavar="NAME")
    moderator.add_argument("--remove", action="store_true", help="take the moderator's rights away")
    moderator.set_defaults(run=command(set_moderator))


def set_moderator(args, moderation):
    moderation.set_moderator(CONSOLE, args.name, not args.remove)
    print(f"{args.name} is {'no longer ' if args.remove else ''}a moderator.")


def command(run):
    def wrapped(args) -> int:
        try:
            with site(args) as moderation:
                run(args, moderation)
        except ServiceError as exc:
            print(f"error: {exc.reason}", file=sys.stderr)
            return 1
        return 0
    return wrapped
