"""Picture settings

Revision ID: 0008
Revises: 0006
Create Date: 2026-11-25 15:20:00.000000

- ``guild_settings.images``: whether a server's games show pictures (``/settings images``).
- ``users.hand_images``: whether a user's hands carry a picture (``/pictures``; ``NULL``: yes).
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("guild_settings", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("images", sa.Boolean(), nullable=False, server_default=sa.true())
        )
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("hand_images", sa.Boolean(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("hand_images")
    with op.batch_alter_table("guild_settings", schema=None) as batch_op:
        batch_op.drop_column("images")
