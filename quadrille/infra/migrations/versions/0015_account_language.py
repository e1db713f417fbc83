"""The language a member chose (issue 27, quadrille/i18n/): `accounts.language`.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-27

- `accounts.language`: a shipped language's code (`en`, `pl`, `fr`, `ru`, `de`, `es`; quadrille/i18n/languages.py),
  or NULL: the member chose none, and their pages follow the browser (Accept-Language, the `lang` cookie).
  Read with the account's row wherever a session or an API token is resolved, so it costs no query of its own.

A plain ALTER TABLE ADD COLUMN (no table rebuild), so SQLite's AUTOINCREMENT of accounts stays.
"""
from alembic import op
import sqlalchemy as sa

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("accounts", sa.Column("language", sa.String(8), nullable=True))


def downgrade() -> None:
    op.drop_column("accounts", "language")  # ALTER TABLE DROP COLUMN (SQLite 3.35+): no rebuild
