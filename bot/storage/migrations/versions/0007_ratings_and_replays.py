"""Skill ratings, and the replay setting

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25 14:30:00.000000

- ``results.side``: the side a seat played for (Kami partners share one), which the ratings
  treat as a team; filled in for existing results from each game's stored final state.
- ``ratings`` (current rating per server, game and player or AI level), ``rating_changes``
  (every seat of every rated game, before and after), ``rated_games`` (the order games were
  rated in, which a rebuild follows). The finished games already stored are rated here,
  oldest first, by the same code the bot rates a game with (``bot.ratings.ledger``).
- ``guild_settings.replay_hands``: whether replays of ended games show the hands.
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("results", schema=None) as batch_op:
        batch_op.add_column(sa.Column("side", sa.Integer(), nullable=True))
    with op.batch_alter_table("guild_settings", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("replay_hands", sa.Boolean(), nullable=False, server_default=sa.true())
        )
    op.create_table(
        "ratings",
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("game_key", sa.String(length=40), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("ai_level", sa.String(length=16), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "game_key", "user_id", "ai_level"),
    )
    op.create_index("ix_ratings_board", "ratings", ["guild_id", "game_key"])
    op.create_table(
        "rating_changes",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("game_key", sa.String(length=40), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("ai_level", sa.String(length=16), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("counted", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "seat"),
    )
    op.create_index(
        "ix_rating_changes_player", "rating_changes", ["guild_id", "game_key", "user_id"]
    )
    op.create_table(
        "rated_games",
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("game_key", sa.String(length=40), nullable=False),
        sa.Column("rated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("seq"),
        sa.UniqueConstraint("game_id"),
    )
    connection = op.get_bind()
    _fill_in_sides(connection)
    from bot.ratings.ledger import rate_unrated

    rate_unrated(connection)


def _fill_in_sides(connection: sa.engine.Connection) -> None:
    """Each existing result's side, from its game's stored final state (engines are pure)."""
    from games import REGISTRY, MalformedState

    games = sa.table("games", sa.column("id"), sa.column("game_key"), sa.column("state", sa.JSON()))
    results = sa.table("results", sa.column("game_id"), sa.column("seat"), sa.column("side"))
    pending = connection.execute(
        sa.select(games.c.id, games.c.game_key, games.c.state).where(
            games.c.id.in_(sa.select(results.c.game_id).where(results.c.side.is_(None)))
        )
    ).all()
    for game_id, game_key, state in pending:
        game = REGISTRY.get(game_key)
        if game is None or state is None:
            continue
        try:
            sides = game.state_from_json(state).sides
        except MalformedState:  # a state this engine no longer reads: each seat its own side
            continue
        for seat, side in enumerate(sides):
            connection.execute(
                results.update()
                .where(results.c.game_id == game_id, results.c.seat == seat)
                .values(side=side)
            )


def downgrade() -> None:
    op.drop_table("rated_games")
    op.drop_index("ix_rating_changes_player", table_name="rating_changes")
    op.drop_table("rating_changes")
    op.drop_index("ix_ratings_board", table_name="ratings")
    op.drop_table("ratings")
    with op.batch_alter_table("guild_settings", schema=None) as batch_op:
        batch_op.drop_column("replay_hands")
    with op.batch_alter_table("results", schema=None) as batch_op:
        batch_op.drop_column("side")
