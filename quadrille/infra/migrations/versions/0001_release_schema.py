"""The schema of the first release, exactly as its metadata.create_all made it: matches, seats, events.

Revision ID: 0001
Revises:
Create Date: 2026-11-23

A database made by that release has these tables and no alembic_version table; start-up stamps it at this
revision (quadrille/infra/migrate.py) and upgrades it from here.
"""
from alembic import op
import sqlalchemy as sa

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "matches",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("name", sa.String(64)),
        sa.Column("meta", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_matches_name", "matches", ["name"])
    op.create_table(
        "seats",
        sa.Column("match_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("token_hash", sa.String(64)),
        sa.Column("name", sa.String(64)),
        sa.Column("claimed", sa.Float),
    )
    op.create_table(
        "events",
        sa.Column("match_id", sa.String(32), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("seat", sa.Integer),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("events")
    op.drop_table("seats")
    op.drop_index("ix_matches_name", table_name="matches")
    op.drop_table("matches")
