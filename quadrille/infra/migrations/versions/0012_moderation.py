"""Moderation: bans, mutes and moderators on accounts, players' reports, and the moderators' audit log.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-27

- `accounts.banned`, `accounts.muted`: when the account was banned or muted (NULL: it is not); read with the
  account's row where a session or an API token is resolved (quadrille/moderation/).
- `accounts.moderator`: the account may use /moderation (set by `python -m quadrille admin moderator NAME`).
- `reports`: a player reports an account or a match, with a reason.
- `moderation_log`: every moderation action, who did it and to whom; the server processes follow it by id.

Columns are added with a plain ALTER TABLE (no table rebuild), so SQLite's AUTOINCREMENT of accounts stays.
"""
from alembic import op
import sqlalchemy as sa

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("accounts", sa.Column("banned", sa.Float, nullable=True))
    op.add_column("accounts", sa.Column("muted", sa.Float, nullable=True))
    op.add_column("accounts", sa.Column("moderator", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("reporter", sa.Integer, nullable=False),
        sa.Column("account_id", sa.Integer),
        sa.Column("match_id", sa.String(32)),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("text", sa.String(500)),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("resolved", sa.Float),
    )
    op.create_index("ix_reports_account", "reports", ["account_id"])
    op.create_index("ix_reports_reporter_created", "reports", ["reporter", "created"])
    op.create_table(
        "moderation_log",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("actor", sa.String(40), nullable=False),
        sa.Column("action", sa.String(24), nullable=False),
        sa.Column("account_id", sa.Integer),
        sa.Column("account_name", sa.String(20)),
        sa.Column("match_id", sa.String(32)),
        sa.Column("detail", sa.Text, nullable=False, server_default="{}"),
    )


def downgrade() -> None:
    op.drop_table("moderation_log")
    op.drop_index("ix_reports_reporter_created", "reports")
    op.drop_index("ix_reports_account", "reports")
    op.drop_table("reports")
    for column in ("moderator", "muted", "banned"):  # ALTER TABLE DROP COLUMN (SQLite 3.35+): no rebuild
        op.drop_column("accounts", column)
