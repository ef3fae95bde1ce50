"""AI seats, the turn clock and hints

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25 11:30:00.000000

- ``seats.ai_level``: an AI player's level (``NULL`` for a human); ``seats.takeover``: the AI
  plays an absent human's seat; ``seats.missed_turns``: turns in a row the clock ran out on;
  ``seats.hints_used``.
- ``games.turn_seconds`` (the lobby's turn clock), ``games.turn_deadline`` (when the seat on
  turn runs out of time) and ``games.reminded_version`` (one reminder per turn).
- ``results.ai_level``, ``results.with_ai``, ``results.autoplayed``: standings keep games with
  AI apart and never credit a win the AI played to an absent human.
- ``guild_settings.hints``: a server may turn hints off.
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    false = sa.false()
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("ai_level", sa.String(length=16), nullable=True))
        batch_op.add_column(
            sa.Column("takeover", sa.Boolean(), nullable=False, server_default=false)
        )
        batch_op.add_column(
            sa.Column("missed_turns", sa.Integer(), nullable=False, server_default="0")
        )
        batch_op.add_column(
            sa.Column("hints_used", sa.Integer(), nullable=False, server_default="0")
        )
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("turn_seconds", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("turn_deadline", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("reminded_version", sa.Integer(), nullable=True))
    with op.batch_alter_table("results", schema=None) as batch_op:
        batch_op.add_column(sa.Column("ai_level", sa.String(length=16), nullable=True))
        batch_op.add_column(
            sa.Column("with_ai", sa.Boolean(), nullable=False, server_default=false)
        )
        batch_op.add_column(
            sa.Column("autoplayed", sa.Boolean(), nullable=False, server_default=false)
        )
    with op.batch_alter_table("guild_settings", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("hints", sa.Boolean(), nullable=False, server_default=sa.true())
        )


def downgrade() -> None:
    with op.batch_alter_table("guild_settings", schema=None) as batch_op:
        batch_op.drop_column("hints")
    with op.batch_alter_table("results", schema=None) as batch_op:
        for column in ("autoplayed", "with_ai", "ai_level"):
            batch_op.drop_column(column)
    with op.batch_alter_table("games", schema=None) as batch_op:
        for column in ("reminded_version", "turn_deadline", "turn_seconds"):
            batch_op.drop_column(column)
    with op.batch_alter_table("seats", schema=None) as batch_op:
        for column in ("hints_used", "missed_turns", "takeover", "ai_level"):
            batch_op.drop_column(column)
