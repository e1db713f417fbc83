"""find_by_name reads one index entry: ix_matches_name (name) becomes ix_matches_name_created (name, created).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23

A finished match's name starts a new match, so a popular name gathers many matches; the newest of them was
found by sorting all of them. With `created` in the index it is the last entry under the name.
"""
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_matches_name_created", "matches", ["name", "created"])
    op.drop_index("ix_matches_name", table_name="matches")


def downgrade() -> None:
    op.create_index("ix_matches_name", "matches", ["name"])
    op.drop_index("ix_matches_name_created", table_name="matches")
