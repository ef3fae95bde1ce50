"""What a committed change must publish, as stored in the ``outbox`` table.

Plain data with no dependencies: the storage layer writes and reads these, the couriers act on
them. A publication names *what* must be shown (the table, which hands, whose turn it is), never
the rendered messages: the courier renders the game as it is when it delivers, so many moves
made while Discord was slow are shown by one edit of the newest state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

MOVE = "move"
"""A move: the table, the hands in ``hands``, and a new DM (a ping) for the seats in ``fresh``."""
START = "start"
"""A game started: the table is posted, every seat gets its first hand DM."""
END = "end"
"""A game was cancelled or abandoned: the table (or lobby) and every hand show it."""
EXPIRE = "expire"
"""A lobby expired: its message shows it and the channel is told."""
REPOST = "repost"
"""``/table``: the table is posted again at the bottom of the channel."""
REDRAW = "redraw"
"""The public language changed: the lobby or table is drawn again."""
RESYNC = "resync"
"""Show everything again and ping the seat on turn if it never got its DM (databases from
before the outbox, whose last publication may have been cut short)."""
REMIND = "remind"
"""The turn clock: remind ``seat`` (in ``body``) that its turn runs out, once per turn (the
entry's version); written with the claim of the turn's reminder (``bot/clock.py``)."""

KINDS = (MOVE, START, END, EXPIRE, REPOST, REDRAW, RESYNC, REMIND)


@dataclass(frozen=True, slots=True)
class Publication:
    """What a change must show; stored in the same transaction as the change itself."""

    kind: str
    body: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown publication kind {self.kind!r}")

    @classmethod
    def move(cls, hands: list[int], fresh: list[int]) -> Publication:
        return cls(MOVE, {"hands": hands, "fresh": fresh})

    @classmethod
    def remind(cls, seat: int) -> Publication:
        return cls(REMIND, {"seat": seat})


@dataclass(frozen=True, slots=True)
class Entry:
    """A stored publication: ``version`` is the game's version when it was written."""

    id: int
    game_id: int
    version: int
    kind: str
    body: dict[str, Any]

    @property
    def hands(self) -> list[int]:
        return list(self.body.get("hands", ()))

    @property
    def fresh(self) -> list[int]:
        return list(self.body.get("fresh", ()))
