"""Play flow: forced moves made for a player, a seat handed to the AI, rematches

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-26 10:00:00.000000

- ``users.auto_pass``: the player lets the bot make a move that is their only choice (a forced
  pass) after a human-like delay (``/autopass``; ``NULL``: no).
- ``seats.departed``: the player left the game (``/leave``); the AI plays the seat
  (``takeover``) until they take it back. ``results.departed``: the player had left when the
  game ended (rated as a loss; the AI's play is credited to nobody).
- ``seats.confirmed``: in a rematch lobby, whether the player of the last game has confirmed
  their seat (every other seat is confirmed).
- ``games.rematch_of``: the game a rematch lobby was opened from.
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("auto_pass", sa.Boolean(), nullable=True))
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("departed", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch_op.add_column(
            sa.Column("confirmed", sa.Boolean(), nullable=False, server_default=sa.true())
        )
    with op.batch_alter_table("results", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("departed", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("rematch_of", sa.Integer(), nullable=True))
        batch_op.create_index("ix_games_rematch_of", ["rematch_of"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index("ix_games_rematch_of")
        batch_op.drop_column("rematch_of")
    with op.batch_alter_table("results", schema=None) as batch_op:
        batch_op.drop_column("departed")
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_column("confirmed")
        batch_op.drop_column("departed")
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("auto_pass")
