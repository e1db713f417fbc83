"""Fair play: blocks between players, accounts' look-alike keys, and what a rated match's end did.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27

- `blocks`: a player refuses another's challenges (quadrille/challenges/blocks.py).
- `accounts.name_skeleton`: `quadrille.names.key(name)`, unique, so that no two accounts' names look alike.
  Existing accounts get theirs here; where two earlier accounts already looked alike, the older one (smaller id)
  keeps the plain key and each younger one's key gets `#<id>` after it, so both keep their names (and nobody
  else can take a third look-alike of either).
- `rated_matches.verdict`: rated, aborted, early or limit once a rated match ended (ratings/service.py); null
  for those that ended before this revision.
- `ix_rating_history_recent` (account, game, time): the rated games of a pair in the last day.
"""
from contextlib import contextmanager

from alembic import op
import sqlalchemy as sa

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    from quadrille.names import key

    op.create_table(
        "blocks",
        sa.Column("account_id", sa.Integer, primary_key=True),
        sa.Column("blocked_id", sa.Integer, primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_blocks_blocked", "blocks", ["blocked_id"])

    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("name_skeleton", sa.String(80), nullable=True))
    accounts = sa.table("accounts", sa.column("id", sa.Integer), sa.column("name", sa.String),
                        sa.column("name_skeleton", sa.String))
    if op.get_context().as_sql:
        # SQL printed to run elsewhere (--sql) cannot compute keys in Python: the lower-case name (unique, as
        # name_key is) stands in, which merges case; running this revision on the database itself merges the rest.
        op.execute(sa.update(accounts).values(name_skeleton=sa.func.lower(accounts.c.name)))
    else:
        conn, taken = op.get_bind(), set()
        for account_id, name in conn.execute(sa.select(accounts.c.id, accounts.c.name).order_by(accounts.c.id)).all():
            skeleton = key(name)
            if skeleton in taken:
                skeleton = f"{skeleton}#{account_id}"
            taken.add(skeleton)
            conn.execute(sa.update(accounts).where(accounts.c.id == account_id).values(name_skeleton=skeleton))
    with keeping_the_account_id_counter():
        # SQLite rebuilds the table to add NOT NULL: it must stay AUTOINCREMENT (0009), its counter where it was
        with op.batch_alter_table("accounts", table_kwargs={"sqlite_autoincrement": True}) as batch:
            batch.alter_column("name_skeleton", existing_type=sa.String(80), nullable=False)
    op.create_index("ix_accounts_name_skeleton", "accounts", ["name_skeleton"], unique=True)

    with op.batch_alter_table("rated_matches") as batch:
        batch.add_column(sa.Column("verdict", sa.String(16), nullable=True))
    op.create_index("ix_rating_history_recent", "rating_history", ["account_id", "game", "at"])


@contextmanager
def keeping_the_account_id_counter():
    """On SQLite, the AUTOINCREMENT counter of accounts (past every id ever given, 0009) as it was before a
    rebuild of the table: a rebuilt table's counter would restart at its highest id, and a deleted account's
    id could be given again."""
    bind = op.get_bind()
    if bind.dialect.name != "sqlite" or op.get_context().as_sql:
        yield
        return
    counter = "SELECT seq FROM sqlite_sequence WHERE name = 'accounts'"
    before = bind.execute(sa.text(counter)).scalar()
    yield
    if before is not None:
        bind.execute(sa.text("UPDATE sqlite_sequence SET seq = MAX(seq, :before) WHERE name = 'accounts'"),
                     {"before": before})
        if bind.execute(sa.text(counter)).scalar() is None:
            bind.execute(sa.text("INSERT INTO sqlite_sequence (name, seq) VALUES ('accounts', :before)"),
                         {"before": before})


def downgrade() -> None:
    op.drop_index("ix_rating_history_recent", table_name="rating_history")
    with op.batch_alter_table("rated_matches") as batch:
        batch.drop_column("verdict")
    op.drop_index("ix_accounts_name_skeleton", table_name="accounts")
    with keeping_the_account_id_counter():
        with op.batch_alter_table("accounts", table_kwargs={"sqlite_autoincrement": True}) as batch:
            batch.drop_column("name_skeleton")
    op.drop_index("ix_blocks_blocked", table_name="blocks")
    op.drop_table("blocks")
