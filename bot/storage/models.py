"""The tables. Discord ids are BIGINT (64-bit on PostgreSQL too); JSON columns hold engine data.

``GameRow.version`` counts committed moves; every write of a game compares and swaps it, so two
processes (or two clicks) can never both apply a move to the same state.
"""

from __future__ import annotations

import enum
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Column, DateTime, Index, text
from sqlmodel import Field, SQLModel


def utcnow() -> datetime:
    return datetime.now(UTC)


class GameStatus(enum.StrEnum):
    LOBBY = "lobby"
    ACTIVE = "active"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    ABANDONED = "abandoned"
    EXPIRED = "expired"


OPEN_STATUSES = (GameStatus.LOBBY, GameStatus.ACTIVE)


def _when() -> Any:
    return Field(default_factory=utcnow, sa_type=DateTime(timezone=True))


class GameRow(SQLModel, table=True):
    __tablename__ = "games"
    __table_args__ = (
        Index(
            "ix_games_one_open_per_channel",
            "channel_id",
            unique=True,
            sqlite_where=text("status IN ('lobby', 'active')"),
            postgresql_where=text("status IN ('lobby', 'active')"),
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_type=BigInteger, index=True)
    channel_id: int = Field(sa_type=BigInteger)
    host_id: int = Field(sa_type=BigInteger)
    game_key: str = Field(max_length=40)
    options: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    status: str = Field(default=GameStatus.LOBBY, max_length=16)
    version: int = 0
    seed: int = Field(default=0, sa_type=BigInteger)
    state: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    locale: str = Field(default="en", max_length=16)
    lobby_message_id: int | None = Field(default=None, sa_type=BigInteger)
    table_message_id: int | None = Field(default=None, sa_type=BigInteger)
    created_at: datetime = _when()
    updated_at: datetime = _when()
    expires_at: datetime | None = Field(default=None, sa_type=DateTime(timezone=True))
    turn_seconds: int | None = None
    """The turn clock chosen in the lobby (``None``: no clock)."""
    turn_deadline: datetime | None = Field(default=None, sa_type=DateTime(timezone=True))
    """When the seat on turn runs out of time (set with every move while the clock runs)."""
    reminded_version: int | None = None
    """The version whose turn was last reminded of its deadline (one reminder per turn, however
    many processes or restarts)."""
    rematch_of: int | None = Field(default=None, index=True)
    """The game this lobby is the rematch of (its Rematch button opened it; migration 0012)."""


class SeatRow(SQLModel, table=True):
    __tablename__ = "seats"

    game_id: int = Field(foreign_key="games.id", primary_key=True, ondelete="CASCADE")
    seat: int = Field(primary_key=True)
    user_id: int = Field(sa_type=BigInteger, index=True)
    display_name: str = Field(default="", max_length=100)
    locale: str = Field(default="en", max_length=16)
    hand_channel_id: int | None = Field(default=None, sa_type=BigInteger)
    hand_message_id: int | None = Field(default=None, sa_type=BigInteger)
    hand_version: int | None = None
    """The game version the hand DM shows (``None``: no DM yet)."""
    stale_hand_message_id: int | None = Field(default=None, sa_type=BigInteger)
    """The hand DM that a newer one replaced, until it is deleted (a crash between sending the
    new DM and deleting the old one must not leave two live hands)."""
    ai_level: str | None = Field(default=None, max_length=16)
    """An AI player's level (``games.ai.LEVELS``); ``None`` for a human. An AI seat's
    ``user_id`` is negative, so it never matches a Discord user."""
    takeover: bool = False
    """The AI plays this human's seat (missed too many turns) until the player takes it back."""
    missed_turns: int = 0
    """Turns in a row that the clock ran out on (reset by the player's own move)."""
    departed: bool = False
    """The player left the game (``/leave``): the AI plays the seat (``takeover``) until they
    take it back; if it ends so, their result is a loss (``bot/flows/seat_handover.py``)."""
    confirmed: bool = True
    """In a rematch lobby: whether this player of the last game has confirmed their seat."""
    hints_used: int = 0
    joined_at: datetime = _when()


class MoveRow(SQLModel, table=True):
    """Append-only: one row per applied action, with the events it produced."""

    __tablename__ = "moves"
    __table_args__ = (Index("ix_moves_game_version", "game_id", "version", unique=True),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", ondelete="CASCADE")
    version: int
    seat: int
    action: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    events: list[dict[str, Any]] = Field(
        default_factory=list, sa_column=Column(JSON, nullable=False)
    )
    created_at: datetime = _when()


class OutboxRow(SQLModel, table=True):
    """What a committed change still has to show on Discord (see ``bot/outbox``).

    Written in the same transaction as the change; deleted once every message it names is
    up to date. ``version`` is the game's version when it was written.
    """

    __tablename__ = "outbox"
    __table_args__ = (
        Index("ix_outbox_game", "game_id", "id"),
        {"sqlite_autoincrement": True},  # never reuse an id (couriers tell entries apart by it)
    )

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", ondelete="CASCADE")
    version: int
    kind: str = Field(max_length=16)
    body: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    created_at: datetime = _when()


class ResultRow(SQLModel, table=True):
    """One row per seat of a game that ended; ``outcome`` is ``finished`` or ``abandoned``."""

    __tablename__ = "results"

    game_id: int = Field(foreign_key="games.id", primary_key=True, ondelete="CASCADE")
    seat: int = Field(primary_key=True)
    guild_id: int = Field(sa_type=BigInteger, index=True)
    game_key: str = Field(max_length=40)
    user_id: int = Field(sa_type=BigInteger, index=True)
    score: int = 0
    won: bool = False
    outcome: str = Field(default="finished", max_length=16)
    ai_level: str | None = Field(default=None, max_length=16)
    """Set for an AI seat: never a human's result."""
    with_ai: bool = False
    """The game had AI seats or a seat the AI took over: kept apart from all-human games."""
    autoplayed: bool = False
    """The AI was playing this human's seat when the game ended: no win is credited."""
    departed: bool = False
    """The player had left the game (``/leave``) when it ended: rated as a loss."""
    side: int | None = None
    """The seat's side (``State.sides``: Kami partners share one); ``None`` in results from
    before migration 0007 that it could not work out (the seat is then its own side)."""
    finished_at: datetime = _when()


class UserRow(SQLModel, table=True):
    """Per-user memory: closed DMs, so a 403 is not retried every turn, the user's language,
    and the user's DM channel.

    ``locale`` is the client language of the user's latest interaction; DMs sent without one
    (the hand DM when a turn comes round) are written in it. ``dm_channel_id`` is the bot's DM
    channel with the user, so that a DM needs no ``POST /users/@me/channels`` (one bucket for
    the whole bot) after a restart or in the user's next game.
    """

    __tablename__ = "users"

    user_id: int = Field(
        sa_type=BigInteger, primary_key=True, sa_column_kwargs={"autoincrement": False}
    )
    dms_closed_at: datetime | None = Field(default=None, sa_type=DateTime(timezone=True))
    locale: str | None = Field(default=None, max_length=16)
    dm_channel_id: int | None = Field(default=None, sa_type=BigInteger)
    hand_images: bool | None = None
    """Whether the user's hands carry a picture (``/pictures``; ``None``: yes, the default)."""
    auto_pass: bool | None = None
    """``/autopass``: a move that is the player's only choice is made for them (``None``: no)."""


class GuildSettingsRow(SQLModel, table=True):
    """A server's choices; ``language`` (``/settings language``) overrides its Discord locale."""

    __tablename__ = "guild_settings"

    guild_id: int = Field(
        sa_type=BigInteger, primary_key=True, sa_column_kwargs={"autoincrement": False}
    )
    language: str | None = Field(default=None, max_length=16)
    hints: bool = True
    """Whether players may ask for a hint (``/settings hints``)."""
    replay_hands: bool = True
    """Whether a replay of an ended game shows every player's hand (``/settings replays``)."""
    images: bool = True
    """Whether tables, hands and score charts carry pictures (``/settings images``)."""
    updated_at: datetime = _when()


class ClaimRow(SQLModel, table=True):
    """Work on a game that one process at a time may do, while its lease runs (several
    processes on one PostgreSQL; see ``bot/storage/claims.py``).

    ``kind`` names the work: ``outbox`` (delivering the game's outbox) or ``turn`` (the AI's
    search and move for the turn at ``version``). ``owner`` is the claiming process's store,
    ``token`` this one claim (a release or renewal names it, so a newer claim by the same
    process is never released by an older one). A process that dies leaves its claim behind
    until ``lease_until``; then any other may take it.
    """

    __tablename__ = "claims"

    game_id: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    kind: str = Field(primary_key=True, max_length=16)
    owner: str = Field(max_length=40)
    token: str = Field(max_length=40, index=True)
    version: int | None = None
    lease_until: datetime = Field(sa_type=DateTime(timezone=True))
