"""Puzzles: each puzzle's Glicko-2 rating, each account's puzzle rating, and the results of attempts.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-27

- `puzzle_ratings`: a puzzle's rating once it has been rated (before that, its shipped rating);
- `puzzle_player_ratings`: an account's puzzle rating (a guest's lives in the browser);
- `puzzle_attempts`: each result of an account (or of a guest, by its keyed address): a puzzle is rated once
  per solver, and not served again soon (quadrille/puzzles/store.py).
"""
from alembic import op
import sqlalchemy as sa

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "puzzle_ratings",
        sa.Column("puzzle_id", sa.String(64), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("plays", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
    )
    op.create_table(
        "puzzle_player_ratings",
        sa.Column("account_id", sa.Integer, primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("plays", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        "puzzle_attempts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer),
        sa.Column("client", sa.String(64)),
        sa.Column("puzzle_id", sa.String(64), nullable=False),
        sa.Column("correct", sa.Boolean, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_puzzle_attempts_account", "puzzle_attempts", ["account_id", "puzzle_id"])
    op.create_index("ix_puzzle_attempts_client", "puzzle_attempts", ["client", "at"])


def downgrade() -> None:
    op.drop_index("ix_puzzle_attempts_client", "puzzle_attempts")
    op.drop_index("ix_puzzle_attempts_account", "puzzle_attempts")
    op.drop_table("puzzle_attempts")
    op.drop_table("puzzle_player_ratings")
    op.drop_table("puzzle_ratings")
