"""move order index, seats.hand_version

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22 07:10:00.000000

- ``moves (game_id, version)`` unique: the latest moves of a game are read by index, and a
  version can never be logged twice.
- ``seats.hand_version``: the game version a seat's hand DM shows, so a restart can find the
  DMs a crash left behind (stored when the DM is written).
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("moves", schema=None) as batch_op:
        batch_op.drop_index("ix_moves_game_id")
        batch_op.create_index("ix_moves_game_version", ["game_id", "version"], unique=True)
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("hand_version", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_column("hand_version")
    with op.batch_alter_table("moves", schema=None) as batch_op:
        batch_op.drop_index("ix_moves_game_version")
        batch_op.create_index("ix_moves_game_id", ["game_id"], unique=False)
