"""Each match's visibility, as its creator chose it: private (unlisted), public (listed to watch) or open
(listed, a free seat for anyone); the recent list reads ix_matches_listed_updated instead of ix_matches_updated.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24

Before this revision every match was in the public list, and the plain address of an online match gave its
free seat to whoever opened it first, a stranger included. Matches of earlier releases become private
(unlisted): nobody chose to show them. Their free seats stay claimable by the plain address (they have no
invite secret, see matches/invites.py), since the links their creators already sent carry none.
ix_matches_updated is dropped: the recent list no longer reads it, and every appended event would still
have to update it.
"""
from alembic import op
import sqlalchemy as sa

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:  # SQLite rebuilds the table to add NOT NULL columns
        batch.add_column(sa.Column("visibility", sa.String(16), nullable=False, server_default="private"))
        batch.add_column(sa.Column("listed", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_index("ix_matches_listed_updated", "matches", ["listed", "updated"])
    op.drop_index("ix_matches_updated", table_name="matches")


def downgrade() -> None:
    op.create_index("ix_matches_updated", "matches", ["updated"])
    op.drop_index("ix_matches_listed_updated", table_name="matches")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("listed")
        batch.drop_column("visibility")
