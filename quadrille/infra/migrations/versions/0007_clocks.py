"""Clocks: each clocked match's control and its running deadline, and the servers' heartbeat.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24

Matches with a time control (real time or correspondence, quadrille/clocks/) keep their clocks in their events
(a snapshot per event); this table indexes when the seat to move runs out of time, so that a server starting up
re-arms every pending flag with one range of `ix_clocks_deadline`, and a player's list of games reads the time
left to move without replaying them. `clock_beat` holds one row: when a server process last said it was alive,
from which a server starting after a stop credits the running clocks with the time nobody served them.
Existing matches have no clock.
"""
from alembic import op
import sqlalchemy as sa

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "clocks",
        sa.Column("match_id", sa.String(32), primary_key=True),
        sa.Column("control", sa.Text, nullable=False),
        sa.Column("seat", sa.Integer),
        sa.Column("deadline", sa.Float),
    )
    op.create_index("ix_clocks_deadline", "clocks", ["deadline"])
    op.create_table(
        "clock_beat",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("clock_beat")
    op.drop_index("ix_clocks_deadline", table_name="clocks")
    op.drop_table("clocks")
