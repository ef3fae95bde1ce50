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
"""A move: the table, the hands in ``hands``, and a new DM (a ping) for the seats in ``fresh``;
``over``: the move ended the game (its game-over message is posted,
``bot/messages/game_over.py``); ``turn_goes_on``: the seat that moved decides next too, and
when (Unix time): its table may wait for the move that passes the turn
(``bot/outbox/turn_hold.py``)."""
START = "start"
"""A game started: the table is posted, every seat gets its first hand DM."""
END = "end"
"""A game was cancelled or abandoned: the table (or lobby) and every hand show it, and a game
that had started gets its game-over message (``why``: the reason it gives)."""
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
entry's version); written with the claim of the turn's reminder (``bot/flows/clock.py``)."""

LOBBY = "lobby"
"""The lobby message is shown again: a seat of a rematch lobby was taken from the game-over
message (``bot/flows/rematch.py``), not from the lobby's own buttons."""

TURN_GOES_ON = "turn_goes_on"
"""A move's body: the mover's turn goes on (the Unix time of the move)."""

KINDS = (MOVE, START, END, EXPIRE, REPOST, REDRAW, RESYNC, REMIND, LOBBY)


@dataclass(frozen=True, slots=True)
class Publication:
    """What a change must show; stored in the same transaction as the change itself."""

    kind: str
    body: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown publication kind {self.kind!r}")

    @classmethod
    def move(
        cls,
        hands: list[int],
        fresh: list[int],
        *,
        over: bool = False,
        turn_goes_on: float | None = None,
    ) -> Publication:
        body: dict[str, Any] = {"hands": hands, "fresh": fresh}
        if over:
            body["over"] = True
        elif turn_goes_on is not None:
            body[TURN_GOES_ON] = round(turn_goes_on, 3)
        return cls(MOVE, body)

    @property
    def ends_game(self) -> bool:
        """It shows a game's end (its game-over message is due)."""
        return self.kind == END or bool(self.body.get("over"))

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

    @property
    def ends_game(self) -> bool:
        """A game's end: a move that ended it, a cancel or an abandon (``Publication``)."""
        return self.kind == END or bool(self.body.get("over"))

    @property
    def turn_goes_on(self) -> float | None:
        """When the move was made, if the seat that made it decides next too (a table that
        may wait, ``bot/outbox/turn_hold.py``); ``None`` otherwise (and for entries stored
        before the hold existed)."""
        if self.kind != MOVE:
            return None
        at = self.body.get(TURN_GOES_ON)
        return float(at) if isinstance(at, (int, float)) else None
