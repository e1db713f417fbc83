"""Players: accounts and their API tokens, the matches each account plays, challenges, ratings (Glicko-2) and
the site's own keys (the session secret, when the operator sets none).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-24

Only new tables: matches, seats and events are untouched, so every match of an earlier release plays on
exactly as before, anonymously, with its seat tokens.
"""
from alembic import op
import sqlalchemy as sa

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(20), nullable=False),
        sa.Column("name_key", sa.String(20), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("seat_salt", sa.String(64), nullable=False),
        sa.Column("session_epoch", sa.Integer, nullable=False, server_default="0"),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "api_tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, nullable=False),
        sa.Column("label", sa.String(40)),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_api_tokens_account_id", "api_tokens", ["account_id"])
    op.create_table(
        "account_matches",
        sa.Column("account_id", sa.Integer, primary_key=True),
        sa.Column("match_id", sa.String(32), primary_key=True),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("joined", sa.Float, nullable=False),
    )
    op.create_index("ix_account_matches_match", "account_matches", ["match_id"])
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("challenger", sa.Integer, nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("clock", sa.Text),
        sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("first", sa.String(16), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("match_id", sa.String(32)),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ix_challenges_challenger_updated", "challenges", ["challenger", "updated"])
    op.create_table(
        "challenge_invitees",
        sa.Column("challenge_id", sa.String(16), primary_key=True),
        sa.Column("account_id", sa.Integer, primary_key=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("answered", sa.Float),
    )
    op.create_index("ix_challenge_invitees_account", "challenge_invitees", ["account_id", "status"])
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer, primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ix_ratings_game_rating", "ratings", ["game", "rating"])
    op.create_table(
        "rating_history",
        sa.Column("account_id", sa.Integer, primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("match_id", sa.String(32), primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
    )
    op.create_table(
        "rated_matches",
        sa.Column("match_id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("players", sa.Text, nullable=False),
        sa.Column("applied", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "site_keys",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )


def downgrade() -> None:
    for table in ("site_keys", "rated_matches", "rating_history"):
        op.drop_table(table)
    op.drop_index("ix_ratings_game_rating", table_name="ratings")
    op.drop_table("ratings")
    op.drop_index("ix_challenge_invitees_account", table_name="challenge_invitees")
    op.drop_table("challenge_invitees")
    op.drop_index("ix_challenges_challenger_updated", table_name="challenges")
    op.drop_table("challenges")
    op.drop_index("ix_account_matches_match", table_name="account_matches")
    op.drop_table("account_matches")
    op.drop_index("ix_api_tokens_account_id", table_name="api_tokens")
    op.drop_table("api_tokens")
    op.drop_table("accounts")
