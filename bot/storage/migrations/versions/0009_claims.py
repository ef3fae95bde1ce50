"""claims: work one process at a time does on a game (several processes on PostgreSQL)

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25 14:00:00.000000

- ``claims``: per game and kind of work (``outbox``: delivering its publications; ``turn``:
  the AI's search and move for one turn) the process that does it, until its lease runs out.
  Used only when several processes share a PostgreSQL database (``Store.shared``); a SQLite
  database gets the empty table.
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "claims",
        sa.Column("game_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("owner", sa.String(length=40), nullable=False),
        sa.Column("token", sa.String(length=40), nullable=False),
        sa.Column("version", sa.Integer(), nullable=True),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "kind"),
    )
    op.create_index("ix_claims_token", "claims", ["token"])


def downgrade() -> None:
    op.drop_index("ix_claims_token", table_name="claims")
    op.drop_table("claims")
