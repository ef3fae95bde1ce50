"""The rating tables (created by migration 0007).

``ratings`` holds the current rating of each player per server and game; ``rating_changes``
every change a rated game made (what ``/profile`` draws its trend from); ``rated_games`` the
order in which games were rated, which ``ledger.rebuild`` follows so that a rebuild gives
exactly the ratings the bot stored one game at a time.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, DateTime, Float, Index
from sqlmodel import Field, SQLModel

from bot.storage.models import utcnow

HUMAN = ""
"""``ai_level`` of a human player's rating (an AI anchor's is its level)."""
ANCHOR_USER = 0
"""``user_id`` of an AI level's rating: AI seats have per-game negative ids, so one AI level
is one player per server and game whatever seat it sat in."""


class RatingRow(SQLModel, table=True):
    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_board", "guild_id", "game_key"),)

    guild_id: int = Field(sa_type=BigInteger, primary_key=True)
    game_key: str = Field(max_length=40, primary_key=True)
    user_id: int = Field(sa_type=BigInteger, primary_key=True)
    ai_level: str = Field(default=HUMAN, max_length=16, primary_key=True)
    mu: float = Field(sa_type=Float)
    sigma: float = Field(sa_type=Float)
    games: int = 0
    wins: int = 0
    updated_at: datetime = Field(default_factory=utcnow, sa_type=DateTime(timezone=True))


class RatingChangeRow(SQLModel, table=True):
    """One seat of a rated game: the player's rating before and after it.

    ``counted`` is false for a human seat the AI was playing when the game ended: that seat
    took part with its player's rating (the others were rated against it), but its own
    result is never the human's, so before and after are equal.
    """

    __tablename__ = "rating_changes"
    __table_args__ = (Index("ix_rating_changes_player", "guild_id", "game_key", "user_id"),)

    game_id: int = Field(foreign_key="games.id", primary_key=True, ondelete="CASCADE")
    seat: int = Field(primary_key=True)
    guild_id: int = Field(sa_type=BigInteger)
    game_key: str = Field(max_length=40)
    user_id: int = Field(sa_type=BigInteger)
    ai_level: str = Field(default=HUMAN, max_length=16)
    mu_before: float = Field(sa_type=Float)
    sigma_before: float = Field(sa_type=Float)
    mu_after: float = Field(sa_type=Float)
    sigma_after: float = Field(sa_type=Float)
    rank: int
    counted: bool = True


class RatedGameRow(SQLModel, table=True):
    """The order games were rated in (``seq``), one row per rated game."""

    __tablename__ = "rated_games"

    seq: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", unique=True, ondelete="CASCADE")
    guild_id: int = Field(sa_type=BigInteger)
    game_key: str = Field(max_length=40)
    rated_at: datetime = Field(default_factory=utcnow, sa_type=DateTime(timezone=True))
