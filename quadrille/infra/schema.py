"""Every table of Quadrille's database, on one `metadata`: what the migrations (migrations/versions/) make.

Alembic's environment (migrations/env.py) compares this metadata with the migrations, and a test
(tests/platform/test_storage.py) checks that a migrated database and this metadata agree, on SQLite and
PostgreSQL: change both together. Each service keeps its own SQL beside it and imports its tables from here:
the matches' (matches, seats, events) in matches/store.py, the clocks' in clocks/store.py, the players' in
accounts/, challenges/ and ratings/. This module imports nothing of Quadrille's but names.py (an account's
look-alike key, filled in on insert).

The players' tables (migration 0006 and later): accounts, their sessions (0009) and API tokens, which matches
each account plays, challenges, ratings, blocks, and the site's own keys. An account's id is never used again
once the account is deleted (SQLite's AUTOINCREMENT, PostgreSQL's sequence), so nothing that still names a
deleted account's id (a rated match's players, another process's cached answer) can ever point at a newcomer.
No foreign keys: deleting an account deletes its own rows (accounts/deletion.py), while rated_matches keep its
id, so the games it played stay rated for the others.
"""
from __future__ import annotations

from sqlalchemy import Boolean, Column, Float, Index, Integer, MetaData, String, Table, Text, false

from ..names import key as name_key_of

metadata = MetaData()


# -- the matches (migrations 0001-0005, 0008) and their clocks (0007) ------------------------------------
matches_table = Table(
    "matches", metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("options", Text, nullable=False),       # JSON object
    Column("mode", String(16), nullable=False),    # online | local | ai
    Column("name", String(64)),                    # match name for by-name play, else NULL
    Column("meta", Text, nullable=False, default="{}"),  # JSON: e.g. ai settings, the invite secret's hash
    Column("created", Float, nullable=False),
    # A summary of the match's events, kept by append_event in the same transaction: the recent list reads
    # these through ix_matches_listed_updated and never the events.
    Column("version", Integer, nullable=False, server_default="0"),  # the number of events: the highest seq
    Column("updated", Float, nullable=False),                        # the last event's time, else created
    # Who may see the match in the public list, as its creator chose: private (unlisted, the default),
    # public (listed, to watch) or open (listed, and a free seat is anyone's). `listed` says whether it is in
    # the list, so that the list reads one range of one index.
    Column("visibility", String(16), nullable=False, server_default="private"),
    Column("listed", Boolean, nullable=False, server_default=false()),
    # Every write to the match bumps it (events, seats, pause): what a process that caches the match checks.
    Column("revision", Integer, nullable=False, server_default="0"),
    Column("paused", Boolean, nullable=False, server_default=false()),   # the computer waits (a demo's P key)
    # What lists of games show (JSON, quadrille/matches/summary.py: the version it describes, whose turn, the
    # outcome, the seats, the computer's seats, the clock's deadline), written by the match service with every
    # event in the append's own statement, and with a claimed seat: lists read it and never replay a match. NULL
    # (a match of a release before it, migration 0008) or of another version: summarised again when met.
    Column("summary", Text),
    # An anonymous import that nobody opened is deleted after this time (matches/retention.py); NULL: kept.
    Column("expires", Float),
    Index("ix_matches_listed_updated", "listed", "updated"),
    Index("ix_matches_name_created", "name", "created"),  # find_by_name: the newest match of a name
    Index("ix_matches_expires", "expires"),               # the retention's sweep: the imports due, by time
)

seats_table = Table(
    "seats", metadata,
    Column("match_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),    # human | ai
    Column("token_hash", String(64)),              # sha256 hex of the seat token; NULL = free
    Column("name", String(64)),                    # display name
    Column("claimed", Float),
)

events_table = Table(
    "events", metadata,
    Column("match_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),      # 1, 2, ...: the match version after this event
    Column("kind", String(16), nullable=False),    # move | rewind | resign | start | ...
    Column("data", Text, nullable=False),          # JSON
    Column("seat", Integer),
    Column("at", Float, nullable=False),
)

# The clocks of matches that have one (quadrille/clocks/): the control, and when the seat to move runs out of
# time, so that a server starting up re-arms every flag (ix_clocks_deadline) and a list of one player's games can
# say "your turn, 2 days left" without replaying them. The clocks themselves live in the events (snapshots).
clocks_table = Table(
    "clocks", metadata,
    Column("match_id", String(32), primary_key=True),
    Column("control", Text, nullable=False),        # JSON: {"kind": "realtime", "minutes", "increment"} | {...days}
    Column("seat", Integer),                        # the seat whose clock runs; NULL: none runs
    Column("deadline", Float),                      # when its time runs out (the clocks' clock: wall-clock time)
    Index("ix_clocks_deadline", "deadline"),
)

# One row: when a server process last said it was alive (every CLOCK_BEAT seconds). A server starting after
# every process was down credits the clocks that were running with the time nobody served them.
clock_beat_table = Table(
    "clock_beat", metadata,
    Column("id", Integer, primary_key=True),
    Column("at", Float, nullable=False),
)


# -- the players (migration 0006 and later) ---------------------------------------------------------------
def _look_alike_key(context) -> str:
    """An account's `name_skeleton`, filled in from its name when a row is inserted (quadrille/names.py)."""
    return name_key_of(context.get_current_parameters()["name"])


accounts_table = Table(
    "accounts", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(20), nullable=False),                   # as its owner typed it
    Column("name_key", String(20), nullable=False, unique=True),  # lower case: names are unique ignoring case
    Column("password_hash", String(200), nullable=False),         # Argon2id, argon2-cffi's encoded string
    Column("seat_salt", String(64), nullable=False),              # the account's seat key is derived from it
    Column("created", Float, nullable=False),
    # names.key(name), unique (migration 0010): no two accounts' names look alike (ann, Ann, аnn, annI, ann1);
    # a guest's seat name is checked against it too
    Column("name_skeleton", String(80), nullable=False, default=_look_alike_key),
    Index("ix_accounts_name_skeleton", "name_skeleton", unique=True),
    # moderation (migration 0012, quadrille/moderation/): when the account was banned or muted (NULL: it is
    # not), and whether it may use the moderators' page. Read with the account's row wherever a session or an
    # API token is resolved, so a ban costs no query of its own and holds in every process at once.
    Column("banned", Float),
    Column("muted", Float),
    Column("moderator", Boolean, nullable=False, server_default=false()),
    # the language the member chose (migration 0015, quadrille/i18n/): a shipped language's code, or NULL for
    # none (their pages follow the browser); read with the row like the moderation columns above
    Column("language", String(8)),
    sqlite_autoincrement=True,                                    # ids of deleted accounts are never reused
)

account_sessions_table = Table(
    "account_sessions", metadata,
    Column("id_hash", String(64), primary_key=True),              # sha256 hex of the cookie's session id
    Column("account_id", Integer, nullable=False, index=True),
    Column("created", Float, nullable=False),
    Column("last_used", Float, nullable=False),                   # refreshed at most every few minutes
)

api_tokens_table = Table(
    "api_tokens", metadata,
    Column("token_hash", String(64), primary_key=True),           # sha256 hex; the token is shown once
    Column("account_id", Integer, nullable=False, index=True),
    Column("label", String(40)),
    Column("created", Float, nullable=False),
    Column("last_used", Float),                                   # NULL: never used; refreshed every few minutes
)

account_matches_table = Table(
    "account_matches", metadata,
    Column("account_id", Integer, primary_key=True),
    Column("match_id", String(32), primary_key=True),
    Column("seats", Text, nullable=False),                        # JSON list of the account's seats
    Column("joined", Float, nullable=False),
    Index("ix_account_matches_match", "match_id"),
)

challenges_table = Table(
    "challenges", metadata,
    Column("id", String(16), primary_key=True),
    Column("challenger", Integer, nullable=False),
    Column("game", String(32), nullable=False),
    Column("options", Text, nullable=False),                      # JSON object, normalised
    Column("clock", Text),                                        # JSON, verbatim as POST /api/challenges had it
    Column("rated", Boolean, nullable=False, server_default=false()),
    Column("first", String(16), nullable=False),                  # challenger | opponent | random
    Column("status", String(16), nullable=False),                 # pending | accepted | declined | cancelled
    Column("match_id", String(32)),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Index("ix_challenges_challenger_updated", "challenger", "updated"),
)

challenge_invitees_table = Table(
    "challenge_invitees", metadata,
    Column("challenge_id", String(16), primary_key=True),
    Column("account_id", Integer, primary_key=True),
    Column("status", String(16), nullable=False),                 # pending | accepted | declined
    Column("answered", Float),
    Index("ix_challenge_invitees_account", "account_id", "status"),
)

ratings_table = Table(
    "ratings", metadata,
    Column("account_id", Integer, primary_key=True),
    Column("game", String(32), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("rd", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", Float, nullable=False),
    Index("ix_ratings_game_rating", "game", "rating"),
)

rating_history_table = Table(
    "rating_history", metadata,
    Column("account_id", Integer, primary_key=True),
    Column("game", String(32), primary_key=True),
    Column("match_id", String(32), primary_key=True),
    Column("at", Float, nullable=False),
    Column("rating", Float, nullable=False),
    Column("rd", Float, nullable=False),
    # what the match started from (0011): the "+12" of a result and of my games (ratings/match_ratings.py)
    Column("rating_before", Float),
    Column("rd_before", Float),
    # a pair's rated games of a game in the last day (ratings/service.py): one account's recent rows (0010)
    Index("ix_rating_history_recent", "account_id", "game", "at"),
)

rated_matches_table = Table(
    "rated_matches", metadata,
    Column("match_id", String(32), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("players", Text, nullable=False),                      # JSON {seat: account id}
    Column("applied", Boolean, nullable=False, server_default=false()),  # set once, by the first to rate it
    # what its end did to the ratings (migration 0010): null while it is played (or ended before 0010), then
    # rated | aborted | early (it ended before every player had moved) | limit (past the pair's rated games
    # of the day): quadrille/ratings/service.py
    Column("verdict", String(16)),
)

site_keys_table = Table(
    "site_keys", metadata,
    Column("name", String(32), primary_key=True),
    Column("value", Text, nullable=False),
)


# -- blocks (migration 0010): a player refuses another's challenges (quadrille/challenges/blocks.py) ----------
blocks_table = Table(
    "blocks", metadata,
    Column("account_id", Integer, primary_key=True),              # who blocks
    Column("blocked_id", Integer, primary_key=True),              # whom
    Column("created", Float, nullable=False),
    Index("ix_blocks_blocked", "blocked_id"),                     # an account deleted: the rows that name it
)


# -- moderation (migration 0012): players' reports and the moderators' audit log (quadrille/moderation/) -------
reports_table = Table(
    "reports", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("reporter", Integer, nullable=False),                  # the account that reports
    Column("account_id", Integer),                                # the account reported, or NULL
    Column("match_id", String(32)),                               # the match reported, or NULL
    Column("reason", String(16), nullable=False),                 # one of moderation/decisions.py's REASONS
    Column("text", String(500)),                                  # the reporter's own words, optional
    Column("created", Float, nullable=False),
    Column("resolved", Float),                                    # when a moderator dismissed it; NULL: open
    Index("ix_reports_account", "account_id"),
    Index("ix_reports_reporter_created", "reporter", "created"),
)

moderation_log_table = Table(
    "moderation_log", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),  # every server process follows it by id
    Column("at", Float, nullable=False),
    Column("actor", String(40), nullable=False),                  # the moderator's name, or "console" (the CLI)
    Column("action", String(24), nullable=False),                 # ban, unban, mute, close, delete, ...
    Column("account_id", Integer),                                # whom it acted on, if an account
    Column("account_name", String(20)),                           # (kept: the account may be deleted later)
    Column("match_id", String(32)),                               # the match it acted on, if any
    Column("detail", Text, nullable=False, server_default="{}"),  # JSON: the game, a name, a note
)


# -- analyses (migration 0013): the computer's analysis of a match, one row a match (quadrille/analysis/) -----
analyses_table = Table(
    "analyses", metadata,
    Column("match_id", String(32), primary_key=True),
    Column("version", Integer, nullable=False),                   # the match's version when it was asked
    Column("plies", Integer, nullable=False),                     # how many moves it analyses
    Column("game", String(32), nullable=False),
    Column("options", Text, nullable=False),                      # JSON object
    Column("moves", Text, nullable=False),                        # JSON list: the moves analysed
    Column("status", String(8), nullable=False),                  # queued | running | done | failed
    Column("progress", Float, nullable=False, server_default="0"),  # 0..1
    Column("result", Text),                                       # JSON: the analysis when done; while it runs,
                                                                  # the positions evaluated so far (resumed)
    Column("owner", String(64), nullable=False),                  # the address that asked (its queue's budget)
    Column("requested_at", Float, nullable=False),
    Column("finished_at", Float),
    Index("ix_analyses_status", "status"),                        # start-up: the unfinished ones, resumed
    Index("ix_analyses_owner_status", "owner", "status"),         # an address's analyses waiting
)


# -- puzzles (migration 0014): each puzzle's rating, players' puzzle ratings, their attempts -----------------
# quadrille/puzzles/store.py. A puzzle without a row still has its shipped rating (games/<name>/puzzles.json).
puzzle_ratings_table = Table(
    "puzzle_ratings", metadata,
    Column("puzzle_id", String(64), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("rd", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("plays", Integer, nullable=False),                     # rated results (also the row's version)
    Column("wins", Integer, nullable=False),                      # of which the solver was right
)

puzzle_player_ratings_table = Table(
    "puzzle_player_ratings", metadata,
    Column("account_id", Integer, primary_key=True),
    Column("rating", Float, nullable=False),
    Column("rd", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("plays", Integer, nullable=False),                     # rated results (also the row's version)
    Column("wins", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)

puzzle_attempts_table = Table(
    "puzzle_attempts", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", Integer),                                # an account's result, or NULL (a guest's)
    Column("client", String(64)),                                 # a guest's address, keyed (HMAC), or NULL
    Column("puzzle_id", String(64), nullable=False),
    Column("correct", Boolean, nullable=False),
    Column("rated", Boolean, nullable=False),                     # whether it moved the ratings
    Column("at", Float, nullable=False),
    Index("ix_puzzle_attempts_account", "account_id", "puzzle_id"),
    Index("ix_puzzle_attempts_client", "client", "at"),
)
