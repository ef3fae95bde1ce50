"""delivery outbox, seats.stale_hand_message_id

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23 18:00:00.000000

- ``outbox``: what a committed change still has to publish on Discord, written in the same
  transaction as the change (``bot/outbox``); its ids are never reused.
- ``seats.stale_hand_message_id``: the hand DM a newer one replaced, until it is deleted.
- Every running game gets one ``resync`` entry: before the outbox, a crash between a commit and
  its Discord messages could leave a table stale or a turn untold; the first start on this
  schema shows every running game again and pings the seat on turn if it missed its DM.
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "game_id", sa.Integer(), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        # Ids are never reused (SQLite would reuse a deleted row's id otherwise): a courier
        # tells entries apart by id, also one just delivered from one just written.
        sqlite_autoincrement=True,
    )
    op.create_index("ix_outbox_game", "outbox", ["game_id", "id"])
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("stale_hand_message_id", sa.BigInteger(), nullable=True))
    op.execute(
        "INSERT INTO outbox (game_id, version, kind, body, created_at) "
        "SELECT id, version, 'resync', '{}', CURRENT_TIMESTAMP FROM games "
        "WHERE status = 'active'"
    )


def downgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_column("stale_hand_message_id")
    op.drop_index("ix_outbox_game", table_name="outbox")
    op.drop_table("outbox")
