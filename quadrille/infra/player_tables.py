"""The tables of players (migration 0006): accounts, their sessions (0009) and API tokens, which matches each
account plays, challenges, ratings, and the site's own keys. They hang on storage's `metadata`, so the schema
test compares them with the migrations too; each service (accounts/, challenges/, ratings/) reads and writes
its own tables through SQLAlchemy Core on storage's engine.

An account's id is never used again once the account is deleted (SQLite's AUTOINCREMENT, PostgreSQL's
sequence), so nothing that still names a deleted account's id (a rated match's players, another process's
cached answer) can ever point at a newcomer. No foreign keys: deleting an account deletes its own rows
(accounts/deletion.py), while rated_matches keep its id, so the games it played stay rated for the others.
"""
from __future__ import annotations

from sqlalchemy import Boolean, Column, Float, Index, Integer, String, Table, Text, false

from ..names import key as name_key_of
from .storage import metadata


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
