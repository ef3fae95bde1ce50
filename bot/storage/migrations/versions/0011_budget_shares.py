"""budget_shares: the processes that share Discord's global request budget (PostgreSQL)

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-27 22:00:00.000000

- ``budget_shares``: one row per running process on a shared PostgreSQL database, refreshed
  every few seconds; each process paces its Discord requests within its part of
  ``GLOBAL_REQUESTS_PER_SECOND`` (``bot/outbox/budget.py``, ``bot/storage/budget_shares.py``).
  A SQLite database (one process) gets the empty table.
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "budget_shares",
        sa.Column("origin", sa.String(length=40), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("origin"),
    )


def downgrade() -> None:
    op.drop_table("budget_shares")
