"""Seating: a match made, its seats claimed (by invite, by a shared name), handed over, and its start.

    create(core, game, options, mode, ...)        # a new match; the creator's seats and token
    claim_seat(core, match_id, seat, player, invite, token)   # a free seat taken (not claim_win: endings.py)
    join_by_name(core, name, game, ...)           # the first to type a name creates, the second joins
    hand_over(core, match_id, token, new_token)   # seats moved to another token (an account's seat key)
    start(core, match, seats, computer_level, owner)   # the creator begins a match that waits (a decider)
"""
from __future__ import annotations

import secrets
import time

import games
from games import IllegalMove
from games.reasons import reason_of

from .. import names
from ..errors import ServiceError, bad_request
from ..i18n import _l, _ln
from .store import EventRow, MatchRow, SeatRow
from ..infra.tokens import hash_token, new_token
from . import computer_seats, holders, invites, summary
from .core import MatchCore, record
from .inputs import clean_name, integer
from .match import MODES, Match, begins_on_start, begins_when_seated


def create(core: MatchCore, game_name, options=None, mode="online", seats=None, ai=None, name=None,
           player=None, moves=(), owner=None, visibility=None, token=None, clock=None, imported=False) -> dict:
    """A new match; the creator holds `seats` (default [1]; every seat when local). `owner`: the creator's
    address, counted against its cap of matches against the computer. `visibility`: private (default), public
    or open (invites.py); an online match's answer carries `invite_secret`, the secret that lets a friend take a
    free seat. `token`: the token to hold the seats with (an account's seat key, see accounts/), else a new one.
    `clock`: its time control (clocks/control.py: None, {"kind": "realtime", "minutes", "increment"} or
    {"kind": "correspondence", "days"}). `imported`: an anonymous import, deleted after `import_retention`
    seconds unless someone opens it (retention.py)."""
    game = game_named(game_name)
    if options is not None and not isinstance(options, dict):
        raise bad_request(_l("options must be an object."), "bad-options")
    if mode not in MODES:
        raise bad_request(_l("mode must be one of: %(choices)s.", choices=", ".join(MODES)), "bad-mode")
    control = core.clocks.parse(clock, mode)
    visibility = invites.visibility_for(visibility, mode)
    try:
        board = game.new(**within_form(game, options or {}))
    except ValueError as exc:
        raise bad_request(reason_of(exc), "bad-options")
    by_account = token is not None  # only an account's seat key is given here (holders.py)
    player = names.seat_name(player, None if by_account else core.looks_like_account)
    name = clean_name(name)
    computer = computer_seats.parse(game.name, ai, board.players) if mode == "ai" else {}
    held = _creator_seats(seats, board.players, mode, computer)
    limit = game.move_limit(board.options)
    if len(moves) > limit:
        raise bad_request(_ln("This record has %(num)d move; a game of %(title)s with these options lasts at "
                              "most %(limit)d.", "This record has %(num)d moves; a game of %(title)s with these "
                              "options lasts at most %(limit)d.", len(moves), title=game.title, limit=limit),
                          "bad-record")
    pace = core.pacer()
    for i, move in enumerate(moves):
        try:
            board.push(move)
        except IllegalMove as exc:
            raise bad_request(_l("Move %(number)d ('%(move)s') is illegal: %(reason)s", number=i + 1, move=move,
                                 reason=exc.reason), "bad-record")
        pace()
    if moves and begins_on_start(game, mode):
        raise bad_request(_l("An imported record continues as a local match for this game."), "bad-mode")

    token, now = token or new_token(), time.time()
    seat_rows = [SeatRow(seat=seat, kind="ai" if seat in computer else "human",
                         token_hash=hash_token(token) if seat in held else None,
                         name=(player or f"Player {seat}") if seat in held else None,
                         claimed=now if seat in held else None)
                 for seat in range(1, board.players + 1)]
    secret, invite_hash = invites.new_invite()
    expires = now + core.import_retention if imported and core.import_retention else None
    match = insert(core, game, board, mode, name.lower() if name else None, seat_rows, computer, owner=owner,
                   visibility=visibility, invite_hash=invite_hash, clock=control.to_dict() if control else None,
                   expires=expires)
    mine = [s for s in held if s not in computer]
    if by_account:
        match.accounts.update(mine)
    core.presence.seen(match.id, mine)  # creating a match is its creator's first act there
    created = {"match": match.id, "seat": mine[0] if mine else None, "seats": mine, "token": token,
               "created": True, "visibility": visibility}
    if mode == "online":
        created["invite_secret"] = secret
    return created


def insert(core: MatchCore, game: games.Game, board, mode: str, name: str | None, seats: list[SeatRow],
           computer: dict, creator_started: bool | None = None, owner=None, visibility: str = "private",
           invite_hash: str | None = None, clock: dict | None = None, expires: float | None = None) -> Match:
    """Store a new match whose seats are already decided, cache it, and let the computer start.
    `creator_started`: a match that would wait for its creator's start begins at once (a rematch). `owner`: the
    creator's address, counted against its cap of matches against the computer. `invite_hash`: the hash of the
    secret that takes a free seat (every new match has one, even without free seats, so that only a match of an
    earlier release goes without: see invites.py). `clock`: its time control, checked (kept in `meta`, with the
    match, in one write)."""
    now = time.time()
    meta = {"invite": invite_hash or invites.new_invite()[1]}
    if clock:
        meta["clock"] = clock
    if computer:
        meta["computer"] = {str(seat): level for seat, level in computer.items()}
    row = MatchRow(id=secrets.token_urlsafe(6), game=game.name, options=dict(board.options), mode=mode,
                   name=name, created=now, seats=seats, meta=meta, visibility=visibility)
    if computer:
        core.admit_computer(row.id, owner)
    row.events, pace = [], core.pacer()
    for i, move in enumerate(board.moves):  # an import's moves: the others are served meanwhile
        row.events.append(EventRow(seq=i + 1, kind="move", data={"move": move}, seat=None, at=now))
        pace()
    waits = begins_on_start(game, mode)
    if waits and creator_started:
        row.events.append(EventRow(seq=len(row.events) + 1, kind="start", data={"options": {}}, seat=1, at=now))
    match = Match(row=row, board=board, version=len(row.events), creator_started=not waits or bool(creator_started),
                  begins_when_seated=begins_when_seated(game, mode), began_at=core.clock(),
                  move_seats=[None] * len(board.moves), computer=computer,
                  clock=core.clocks.new_state(clock, len(seats)))
    row.summary, row.expires = summary.summarise(match, match.version), expires
    core.storage.create_match(row, pause=pace)
    if clock:
        core.clocks.arm(match)  # its row in the clocks table, before anything runs
    match.announced = match.version
    core.cache(match)
    core.wake_computer_of(match)
    return match


def offered_options(game: games.Game, options: dict) -> dict:
    """Options as a new match here would take them: normalised, and within what the server offers (ValueError
    naming the option otherwise)."""
    return game.normalise(within_form(game, options))


def within_form(game: games.Game, options: dict) -> dict:
    """The server offers what the new-game form offers: an engine may take bigger boards (gamma's batch mode
    takes millions of fields), but a match on this server must not tie up its memory and CPU."""
    for name, option in game.options.items():
        value = options.get(name)
        if option.form and isinstance(value, int) and not option.form[0] <= value <= option.form[1]:
            raise ValueError(f"option {name!r}: got {value!r}, this server offers "
                             f"{option.form[0]} to {option.form[1]}")
    return options


def game_named(game_name) -> games.Game:
    try:
        return games.get(game_name)
    except KeyError:
        raise bad_request(_l("game must be one of: %(choices)s.", choices=", ".join(games.names())), "unknown-game")


def _creator_seats(seats, players: int, mode: str, computer: dict | None = None) -> list[int]:
    if mode == "local":
        return list(range(1, players + 1))
    if mode == "ai":
        humans = [s for s in range(1, players + 1) if s not in computer]
        return humans or list(range(1, players + 1))  # a demo: the creator holds the computer's seats
    if seats is None:
        return [1]
    if isinstance(seats, int) and not isinstance(seats, bool):
        seats = [seats]
    if (not isinstance(seats, list) or not seats
            or not all(isinstance(s, int) and not isinstance(s, bool) and 1 <= s <= players for s in seats)):
        raise bad_request(_l("seats must be a list of seat numbers from 1 to %(players)s.", players=players))
    return sorted(set(seats))


def claim_seat(core: MatchCore, match_id, seat=None, player=None, invite=None, trusted: bool = False,
               token=None) -> dict:
    """Claim a free seat (the first free one unless `seat` is named) with the match's invite secret (an open
    match's seats need none). The claim that takes the last seat of a two-player match begins it. `token`: the
    token to hold the seat with (an account's seat key), else a new one. `trusted`: the caller proved its right
    to a seat another way (by-name play: the shared name)."""
    match = core.load(match_id)
    seat = integer(seat, "seat")
    player = names.seat_name(player, None if token else core.looks_like_account)
    with match.lock:
        if match.creator_started and begins_on_start(games.get(match.row.game), match.row.mode):
            raise ServiceError(409, "no-free-seat", _l("This match has started; you can watch it."))
        if match.outcome() is not None:
            raise ServiceError(409, "no-free-seat", _l("This match is over; you can watch it."))
        free = [s for s in match.row.seats if s.kind == "human" and s.token_hash is None
                and (seat is None or s.seat == seat)]
        if seat is not None and not 1 <= seat <= len(match.row.seats):
            raise bad_request(_l("seat must be from 1 to %(last)d.", last=len(match.row.seats)))
        if not free:
            raise ServiceError(409, "no-free-seat", _l("Every seat of this match is taken; you can watch it."))
        if not trusted:
            invites.check_claim(match.row.visibility, match.row.meta, invite)
        waiting = not match.begun()
        trusted_token, token, now = token is not None, token or new_token(), time.time()
        target = free[0]
        name = player or f"Player {target.seat}"
        before, claimed = (target.token_hash, target.name, target.claimed), False
        target.token_hash, target.name, target.claimed = hash_token(token), name, now  # the summary after it
        try:
            claimed = core.storage.claim_seat(match.id, target.seat, target.token_hash, name, now,
                                              summary=summary.summarise(match, match.version))
        finally:
            if not claimed:
                target.token_hash, target.name, target.claimed = before
        if not claimed:
            match.revision = -1  # taken through another process: catch up on the next request
            raise ServiceError(409, "no-free-seat", _l("That seat was taken a moment ago."))
        match.revision += 1
        if trusted_token:
            match.accounts.add(target.seat)
        if waiting and match.begun():
            match.began_at = core.clock()  # the away countdown of a player who left the waiting room
        match.unseen = [target.seat]  # its player is here: told to presence with the STATE's look
        try:
            core.listener(match.id, "state", core.state_of(match))
        finally:
            core.sighted(match)
    return {"match": match.id, "seat": target.seat, "seats": [target.seat], "token": token}


def join_by_name(core: MatchCore, name, game_name, options=None, player=None, clock=None) -> dict:
    """Both players type the same match name: the first creates it (and moves first), the second joins.

    Anyone arriving later watches. A name is free again for a new match once its match has ended or has idled
    (nothing happened in it) for `name_idle` seconds, so names cannot be held by matches nobody plays. `clock`:
    the time control of a match this creates (checked either way; one that is joined keeps its own)."""
    core.clocks.parse(clock, "online")
    name = clean_name(name)
    if name is None:
        raise bad_request(_l("Type a match name."))
    key = name.lower()
    with core.name_lock:  # one by-name match per name, however many ask at once
        existing = core.storage.find_by_name(key)
        if existing is not None and summary.name_in_use(core, existing, core.name_idle):
            if existing.game != game_name:
                raise ServiceError(409, "name-taken", _l("The match name '%(name)s' is in use for another game.",
                                                         name=name))
            try:
                return {**claim_seat(core, existing.id, player=player, trusted=True), "created": False}
            except ServiceError as exc:
                if exc.error != "no-free-seat":
                    raise
                return {"match": existing.id, "seat": None, "seats": [], "token": None, "created": False}
        return create(core, game_name, options, "online", name=name, player=player, clock=clock)


def hand_over(core: MatchCore, match_id, token, new_token_, name=None) -> list[int]:
    """Move the seats `token` holds to `new_token_` (and, given `name`, rename them): an anonymous player's seats
    going to their new account's seat key, a deleted account's seats to a key nobody holds. The old token holds
    nothing afterwards. Answers the seats moved (401 when the token holds none)."""
    match = core.load(match_id)
    with match.lock:
        seats = match.seats_of(token)
        if not seats:
            raise ServiceError(401, "unauthorized", _l("This token holds no seat in this match."))
        for row in match.row.seats:
            if row.seat in seats:
                moved = SeatRow(row.seat, row.kind, hash_token(new_token_), name or row.name, row.claimed)
                core.storage.update_seat(match.id, moved)
                match.revision += 1
                row.token_hash, row.name = moved.token_hash, moved.name
        holders.handed(match.accounts, seats, new_token_)
        core.listener(match.id, "state", core.state_of(match))
    return seats


def start(core: MatchCore, match: Match, seats: list[int], computer_level=None, owner=None):
    """The creator begins a match that waits for its creator's start (a decider). Unclaimed seats are left out,
    or, with `computer_level`, played by the computer."""
    if match.creator_started:
        raise ServiceError(409, "already-started", _l("The match has already started."))
    if 1 not in seats:
        raise ServiceError(403, "not-allowed", _l("Only the match's creator can start it."))
    game = games.get(match.row.game)
    claimed = [s.seat for s in match.row.seats if s.token_hash is not None]
    if computer_level is not None:
        free = [s.seat for s in match.row.seats if s.token_hash is None]
        computer = computer_seats.parse(game.name, {"seats": free, "level": computer_level},
                                        len(match.row.seats)) if free else {}
        if computer:
            core.admit_computer(match.id, owner)
        return record("start", {"options": {}, "computer": computer}, 1)
    # An online match is for several people: alone, play a local game.
    if len(claimed) < max(game.seats[0], 2) or claimed != list(range(1, len(claimed) + 1)):
        raise ServiceError(409, "not-enough-players",
                           _l("Wait until another player has joined, or let the computer play the free seats."))
    options = {"players": len(claimed)} if "players" in game.options else {}
    return record("start", {"options": options}, 1)

