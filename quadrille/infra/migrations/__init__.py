"""Alembic migrations of Quadrille's storage schema. See quadrille/infra/migrate.py and docs/architecture.md."""
