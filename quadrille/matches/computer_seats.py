"""Computer seats: which seats the computer plays, handing it a seat whose player left (and reclaiming it),
pausing it, and what its workers (computer/pool.py) ask and answer.

    parse(game, {"seats": [2], "level": 2}, players)   # the `ai` of a new match: seat -> level
    hand_to_computer(core, match, seats, seat, level, owner)   # a decider: the players still here agree
    reclaim_seat(core, match, seats)                   # a decider: a returning player's seat back from it
    pause(core, match, seats, paused)                  # a decider: a demo's P key
    request(core, match_id, version) / wake(core, match_id) / resume(core, match_ids)
"""
from __future__ import annotations

from ..errors import ServiceError, bad_request
from ..i18n import _l
from .core import CHANGED, UNCHANGED, Decision, MatchCore, record
from .match import Match


def parse(game_name: str, spec, players: int) -> dict:
    """`ai`: {"seats": [2], "level": 1..3 or a classic level id}; "seats" may map seat -> level."""
    import ai
    if not isinstance(spec, dict):
        raise bad_request(_l("ai must be an object such as {\"seats\": [2], \"level\": 2}."), "bad-ai")
    known = [entry["id"] for entry in ai.levels(game_name)]
    seats, level = spec.get("seats", [players]), spec.get("level", 1)
    if isinstance(seats, list):
        seats = {seat: level for seat in seats}
    if not isinstance(seats, dict) or not seats:
        raise bad_request(_l("ai.seats must list the seats the computer plays."), "bad-ai")
    computer = {}
    for seat, lvl in seats.items():
        seat = int(seat) if isinstance(seat, str) and seat.isdigit() else seat
        if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= players:
            raise bad_request(_l("ai.seats: seats are numbered 1 to %(players)s.", players=players), "bad-ai")
        if lvl not in known:
            raise bad_request(_l("ai.level must be one of: %(choices)s.", choices=", ".join(map(str, known))), "bad-ai")
        computer[seat] = lvl
    return computer


def hand_to_computer(core: MatchCore, match: Match, seats: list[int], seat: int, level=1, owner=None) -> Decision:
    """The computer takes over a seat whose player is gone, when the players still here agree.

    A player asks; in a two-player game that is everyone left, so it happens at once. With more players, each
    other player present asks too (agrees), and the last agreement hands the seat over. A player counts as gone
    only after presence's grace period (a reload is not leaving), and an agreement lapses after `vote_ttl`
    seconds."""
    import ai
    core.refuse_unless_live(match)
    if seat not in match.humans() or seat in seats:
        raise bad_request(_l("Only another player's seat can be handed to the computer."), "bad-ai")
    if core.presence.present(match.id, seat):
        raise ServiceError(409, "player-present", _l("%(name)s is still here (or left only a moment ago).",
                                                     name=match.name(seat)))
    core.absence.check_hand_over(match, seat, core.away_of(match, fresh=True))
    if level not in [entry["id"] for entry in ai.levels(match.row.game)]:
        raise bad_request(_l("Unknown computer level."), "bad-ai")
    now = core.clock()
    votes = {voter: at for voter, at in match.votes.get(seat, {}).items() if now - at <= core.vote_ttl}
    votes.update({voter: now for voter in seats})
    match.votes[seat] = votes
    needed = [s for s in match.humans() if s != seat]
    if not set(needed) <= set(votes):
        return Decision(extra={"waiting_for": [s for s in needed if s not in votes]})
    core.admit_computer(match.id, owner)
    del match.votes[seat]
    return record("computer", {"seat": seat, "level": level}, seats[0])


def reclaim_seat(core: MatchCore, match: Match, seats: list[int]) -> Decision:
    """A returning player takes their seat back from the computer (not a take-back of moves: takebacks.py)."""
    mine = [s.seat for s in match.row.seats if s.seat in seats and s.kind == "human" and s.seat in match.computer]
    if not mine:
        raise bad_request(_l("The computer plays none of your seats."), "bad-ai")
    return record("human", {"seat": mine[0]}, mine[0])


def pause(core: MatchCore, match: Match, seats: list[int], paused) -> Decision:
    """Pause or resume the computer (for demos: the original's P key)."""
    if match.paused == paused:
        return UNCHANGED  # nothing changes, so nobody needs to hear of it
    if paused and match.clock is not None and match.humans():
        # the clocks do not stop: a paused computer would only lose on time
        raise ServiceError(403, "not-allowed", _l("The computer cannot be paused in a game with a clock."))
    core.storage.set_paused(match.id, paused)
    match.paused, match.revision = paused, match.revision + 1
    return CHANGED


def request(core: MatchCore, match_id, version) -> dict | None:
    """What a worker needs to choose the computer's move, or None if the position moved on."""
    match = core.load(match_id)
    with match.lock:
        if match.version != version or not match.computer_to_move():
            return None
        seat = match.board.turn
        return {"game": match.row.game, "options": dict(match.row.options), "moves": list(match.board.moves),
                "seat": seat, "level": match.computer[seat], "seed": version, "demo": not match.humans()}


def wake(core: MatchCore, match_id) -> None:
    """Someone started watching the match: a demo that rested for want of watchers resumes. A match without
    computer seats costs no check (with several processes, a seat handed to the computer through another
    process is driven, and taken over, from there)."""
    if not core.load(match_id, check=False).computer:
        return
    match = core.load(match_id)
    with match.lock:
        core.wake_computer_of(match)


def resume(core: MatchCore, match_ids) -> None:
    """Wake the computer in those of these matches whose cached copy has computer seats (the takeover sweep of
    several processes: a computer to move that nobody drives any more is taken over)."""
    mine = [m for m in match_ids if (match := core.cached(m)) is not None and match.computer]
    for match_id in mine:
        try:
            wake(core, match_id)
        except ServiceError:
            pass
