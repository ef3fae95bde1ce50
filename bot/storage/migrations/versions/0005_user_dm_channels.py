"""users.dm_channel_id

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25 11:10:00.000000

- ``users.dm_channel_id``: the bot's DM channel with the user. Opening a DM
  (``POST /users/@me/channels``) is one rate-limit bucket for the whole bot, and discord.py
  forgets the channels it opened when the process stops; with the id stored, a DM to a
  returning player is one send to that channel.
- Filled from what the bot already knows: the channel of each user's hand DMs
  (``seats.hand_channel_id``), so an upgraded bot does not open those DMs again.
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("dm_channel_id", sa.BigInteger(), nullable=True))
    # Plain SQL that SQLite and PostgreSQL read alike: a row for every seated user without
    # one, then each user's DM channel (a user has one DM channel with the bot; MAX picks it).
    op.execute(
        "INSERT INTO users (user_id) SELECT DISTINCT user_id FROM seats "
        "WHERE hand_channel_id IS NOT NULL "
        "AND user_id NOT IN (SELECT user_id FROM users)"
    )
    op.execute(
        "UPDATE users SET dm_channel_id = ("
        "SELECT MAX(seats.hand_channel_id) FROM seats WHERE seats.user_id = users.user_id"
        ") WHERE dm_channel_id IS NULL"
    )


def downgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("dm_channel_id")
