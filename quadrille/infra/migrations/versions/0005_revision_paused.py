"""Each match's revision (a counter of every change to it: an event, a seat claimed or handed over, a pause)
and whether its computer is paused.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24

Several server processes may serve one database. Each keeps a cache of live matches, and checks the one
number `revision` against the database before it uses a cached match: a change made through another process
(a move, a seat claimed, which does not change the version) makes it catch up (docs/architecture.md, "Past one
process"). `paused` was kept in memory only, so a pause was lost in a restart and unseen by another process.
Existing matches start at revision 0, not paused.
"""
from alembic import op
import sqlalchemy as sa

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:  # SQLite rebuilds the table to add NOT NULL columns
        batch.add_column(sa.Column("revision", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("paused", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("paused")
        batch.drop_column("revision")
