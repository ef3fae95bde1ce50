"""command_syncs: the fingerprint of the slash commands last registered with Discord, per scope

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27 10:00:00.000000

- ``command_syncs``: per scope (``global``, or ``guild:<id>`` for ``DEV_GUILD_ID``) the
  application the commands were registered for, the fingerprint of what was sent, how many
  commands that was and when. A start compares its own commands with it and registers them
  only when they differ (``bot/interactions/command_sync.py``), so an unchanged bot sends Discord
  nothing.
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "command_syncs",
        sa.Column("scope", sa.String(length=40), nullable=False),
        sa.Column("application_id", sa.BigInteger(), nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.Column("commands", sa.Integer(), nullable=False),
        sa.Column("synced_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("scope"),
    )


def downgrade() -> None:
    op.drop_table("command_syncs")
