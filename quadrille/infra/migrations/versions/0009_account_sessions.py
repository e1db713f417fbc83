"""Account sessions on the server, API tokens' last use, and account ids that are never reused.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02

- `account_sessions`: a row per logged-in browser. The session cookie names a random session id whose
  SHA-256 is the row's key: logging out deletes the row, so a copy of the cookie ends with it; a new password
  deletes the account's other rows. Sessions of the cookie of an earlier release (an account id and an
  epoch, no session id) are not carried over: their holders log in again, once.
- `api_tokens.last_used`: when a token last authenticated a request (to a few minutes), for the account page.
- `accounts`: on SQLite the id becomes AUTOINCREMENT, so a deleted account's id is never given to a new
  account (SQLite reused the highest id after a delete, and a deleted account's old cookie then answered as
  the newcomer). The table is rebuilt with its rows; the counter starts past the highest account id any
  table of players still names, so that ids deleted before this migration are not reused either.
  PostgreSQL's `SERIAL` draws ids from a sequence, which never goes back: nothing to change there.
  `session_epoch` goes: the session rows replace it.
"""
from alembic import op
import sqlalchemy as sa

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

# Every column of players' tables that holds an account id, by table.
ACCOUNT_IDS = {"accounts": "id", "api_tokens": "account_id", "account_matches": "account_id",
               "ratings": "account_id", "rating_history": "account_id", "challenges": "challenger",
               "challenge_invitees": "account_id"}


def upgrade() -> None:
    op.create_table(
        "account_sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("last_used", sa.Float, nullable=False),
    )
    op.create_index("ix_account_sessions_account_id", "account_sessions", ["account_id"])
    with op.batch_alter_table("api_tokens") as batch:
        batch.add_column(sa.Column("last_used", sa.Float))
    if op.get_bind().dialect.name == "sqlite":
        with op.batch_alter_table("accounts", recreate="always", table_kwargs={"sqlite_autoincrement": True}) as batch:
            batch.drop_column("session_epoch")
        never_reuse_deleted_ids()
    else:
        op.drop_column("accounts", "session_epoch")


def never_reuse_deleted_ids() -> None:
    """Start SQLite's AUTOINCREMENT counter for accounts past every account id still named anywhere."""
    bind = op.get_bind()
    highest = max(bind.execute(sa.text(f"SELECT COALESCE(MAX({column}), 0) FROM {table}")).scalar_one()
                  for table, column in ACCOUNT_IDS.items())
    if highest == 0:
        return
    updated = bind.execute(sa.text("UPDATE sqlite_sequence SET seq = MAX(seq, :highest) WHERE name = 'accounts'"),
                           {"highest": highest})
    if updated.rowcount == 0:
        bind.execute(sa.text("INSERT INTO sqlite_sequence (name, seq) VALUES ('accounts', :highest)"),
                     {"highest": highest})


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        with op.batch_alter_table("accounts", recreate="always", table_kwargs={"sqlite_autoincrement": False}) as batch:
            batch.add_column(sa.Column("session_epoch", sa.Integer, nullable=False, server_default="0"))
    else:
        op.add_column("accounts", sa.Column("session_epoch", sa.Integer, nullable=False, server_default="0"))
    with op.batch_alter_table("api_tokens") as batch:
        batch.drop_column("last_used")
    op.drop_index("ix_account_sessions_account_id", table_name="account_sessions")
    op.drop_table("account_sessions")
