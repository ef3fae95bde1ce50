"""What the store keeps in memory between clicks: running games and what it knows of users.

Why: every click needs the game, its seats and its last moves, and every hand DM needs its
reader's language and whether their DMs are closed. Reading those from the database on each
click cost more than the rest of the move, so the store keeps them and updates them on its own
writes (write-through). Only games that are being played are kept; lobbies and ended games are
read from the database.

The database stays the truth. A write that fails, or loses a compare-and-swap, drops the game
from memory so the next click reads it again. With several processes on one PostgreSQL, another
process's change notice drops what it changed, and memory is not used while notices may be
missed (``changes``; docs/architecture.md, "Several processes on one PostgreSQL").
"""

from __future__ import annotations

from collections import OrderedDict, deque
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar

from bot.storage.models import GameRow, SeatRow

K = TypeVar("K")
V = TypeVar("V")

KEPT_MOVES = 12
"""How many of a game's latest moves are kept: what the table's log and a hand's story (the
moves since the player's own last move: a round of four players' turns) read, with no
database read on a click's path."""
KEPT_GAMES = 1_000
"""Running games kept in memory (least recently played ones are read again when needed)."""
KEPT_USERS = 50_000
"""Users whose language, DM channel and closed-DM flag are kept in memory."""


@dataclass(frozen=True, slots=True)
class LoggedMove:
    """One move of the log as the bot reads it back (lighter than an ORM row to keep)."""

    version: int
    seat: int
    events: list[dict[str, Any]]


class LruCache(Generic[K, V]):
    """A dict that forgets the least recently used entry beyond ``size``."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        value = self._entries.get(key)
        if value is not None:
            self._entries.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> None:
        self._entries[key] = value
        self._entries.move_to_end(key)
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)

    def pop(self, key: K) -> None:
        self._entries.pop(key, None)


@dataclass
class KeptGame:
    """A running game as last written: its row, its seats and (once read) its latest moves.

    The objects are shared with the flows that loaded them; they change only after the
    database write that makes the change true.
    """

    row: GameRow
    seats: list[SeatRow]
    moves: deque[LoggedMove] | None = None


@dataclass
class KnownUser:
    """What the store knows of a user; ``None`` fields are unknown or unset."""

    locale: str | None = None
    dms_closed_at: datetime | None = None
    dm_channel_id: int | None = None
    hand_images: bool | None = None
    """``/pictures``: ``False`` if the user turned the pictures of their hands off."""
