"""Each rated match's rating before it, beside the one after: the "+12" of a result and of my games.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-27

- `rating_history.rating_before`, `rating_history.rd_before`: the rating and deviation an account had in that
  game when the match was rated (ratings/service.py writes them with the new ones). Rows rated before this
  revision get the rating of the same account's previous row in that game (1500 and 350 for its first), which
  is what the rating service started from: a rating changes only by a rated match, and each writes a row.
"""
from alembic import op
import sqlalchemy as sa

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rating_history") as batch:
        batch.add_column(sa.Column("rating_before", sa.Float, nullable=True))
        batch.add_column(sa.Column("rd_before", sa.Float, nullable=True))
    if op.get_context().as_sql:
        return  # SQL printed to run elsewhere: earlier rows keep no "before" (shown without a change)
    history = sa.table("rating_history", sa.column("account_id", sa.Integer), sa.column("game", sa.String),
                       sa.column("match_id", sa.String), sa.column("at", sa.Float), sa.column("rating", sa.Float),
                       sa.column("rd", sa.Float), sa.column("rating_before", sa.Float),
                       sa.column("rd_before", sa.Float))
    conn, previous = op.get_bind(), {}
    rows = conn.execute(sa.select(history.c.account_id, history.c.game, history.c.match_id, history.c.rating,
                                  history.c.rd).order_by(history.c.account_id, history.c.game, history.c.at)).all()
    for account_id, game, match_id, rating, rd in rows:
        before = previous.get((account_id, game), (1500.0, 350.0))
        conn.execute(sa.update(history).where(history.c.account_id == account_id, history.c.game == game,
                                              history.c.match_id == match_id)
                     .values(rating_before=before[0], rd_before=before[1]))
        previous[(account_id, game)] = (rating, rd)


def downgrade() -> None:
    with op.batch_alter_table("rating_history") as batch:
        batch.drop_column("rd_before")
        batch.drop_column("rating_before")
