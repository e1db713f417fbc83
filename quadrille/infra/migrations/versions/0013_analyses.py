"""Analyses: the computer's analysis of a match, stored so that a second request or another viewer gets it
at once, and resumed after a restart (quadrille/analysis/).

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-27

- `analyses`: one row a match: the version and moves analysed, status (queued, running, done, failed),
  progress (0..1), the result as JSON (while running: the positions evaluated so far), who asked and when.
"""
from alembic import op
import sqlalchemy as sa

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("match_id", sa.String(32), primary_key=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("plies", sa.Integer, nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("moves", sa.Text, nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("progress", sa.Float, nullable=False, server_default="0"),
        sa.Column("result", sa.Text),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("requested_at", sa.Float, nullable=False),
        sa.Column("finished_at", sa.Float),
    )
    op.create_index("ix_analyses_status", "analyses", ["status"])
    op.create_index("ix_analyses_owner_status", "analyses", ["owner", "status"])


def downgrade() -> None:
    op.drop_index("ix_analyses_owner_status", "analyses")
    op.drop_index("ix_analyses_status", "analyses")
    op.drop_table("analyses")
