"""A summary of each match's events on its row, for the recent list: version and updated, with an index.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23

`version` is the number of events (the highest seq), `updated` the time of the last event, or the match's
creation when it has none; Storage.append_event keeps both in the transaction that adds an event. The
recent list then reads the newest rows of ix_matches_updated instead of grouping every event.
"""
from alembic import op
import sqlalchemy as sa

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("matches", sa.Column("version", sa.Integer, nullable=False, server_default="0"))
    op.add_column("matches", sa.Column("updated", sa.Float))
    matches = sa.table("matches", sa.column("id"), sa.column("created"), sa.column("version"),
                       sa.column("updated"))
    events = sa.table("events", sa.column("match_id"), sa.column("seq"), sa.column("at"))
    of_this_match = events.c.match_id == matches.c.id
    op.execute(matches.update().values(
        version=sa.func.coalesce(sa.select(sa.func.max(events.c.seq)).where(of_this_match).scalar_subquery(), 0),
        updated=sa.func.coalesce(sa.select(sa.func.max(events.c.at)).where(of_this_match).scalar_subquery(),
                                 matches.c.created)))
    with op.batch_alter_table("matches") as batch:  # SQLite rebuilds the table to add NOT NULL
        batch.alter_column("updated", existing_type=sa.Float, nullable=False)
    op.create_index("ix_matches_updated", "matches", ["updated"])


def downgrade() -> None:
    op.drop_index("ix_matches_updated", table_name="matches")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("updated")
        batch.drop_column("version")
