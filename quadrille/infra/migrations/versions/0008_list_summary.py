"""What lists of games show, on each match's row; and when an anonymous import nobody opened expires.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02

Lists of games (my games, a profile's recent games, the public recent list, by-name play) replayed every match
they showed, through its engine, to say whose turn it was and how it ended: a request naming 150 long imported
records cost 22 s. `summary` (JSON, quadrille/matches/summary.py) is written by the match service with each
event, in the append's own statement, and with a claimed seat, so a list reads rows and never events.

Matches of earlier releases have no summary (NULL) after this revision: the server summarises them once, in
the background at start-up (one replay each) and, before that is done, when a list first meets one. Filling
them here would need the match service and every engine inside a migration.

`expires` (indexed): an anonymous import that nobody opened, played or claimed is deleted after the retention
(setting IMPORT_RETENTION; matches/retention.py). Existing matches never expire (NULL).
"""
from alembic import op
import sqlalchemy as sa

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("summary", sa.Text))
        batch.add_column(sa.Column("expires", sa.Float))
    op.create_index("ix_matches_expires", "matches", ["expires"])


def downgrade() -> None:
    op.drop_index("ix_matches_expires", table_name="matches")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("expires")
        batch.drop_column("summary")
