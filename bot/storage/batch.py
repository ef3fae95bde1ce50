"""What one group-commit transaction writes: moves, hand-message ids, delivered outbox entries.

Why a module of its own: a move's commit is the click's one database cost, so its statements
are built once here (building them per click cost more than running them), and the same
``write_rows`` runs them on SQLite's inline connection (on the event loop) and, through
``run_sync``, on the async engine (``StoreBase._write_batch``; docs/architecture.md, "Memory
and batching"). The write records say what each caller queued (``group_commit``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, and_, bindparam
from sqlalchemy.engine import Connection
from sqlalchemy.exc import OperationalError

from bot.outbox.entries import Entry, Publication
from bot.storage import changes
from bot.storage.models import GameStatus
from bot.storage.tables import GAMES, MOVES, OUTBOX, SEATS

# The statements of a move, built once.
STORE_STATE = (
    GAMES.update()
    .where(
        GAMES.c.id == bindparam("game"),
        GAMES.c.version == bindparam("expected"),
        GAMES.c.status == GameStatus.ACTIVE.value,
    )
    .values(
        state=bindparam("new_state", type_=GAMES.c.state.type),
        version=bindparam("new_version"),
        status=bindparam("new_status"),
        updated_at=bindparam("now", type_=GAMES.c.updated_at.type),
        turn_deadline=bindparam("deadline", type_=GAMES.c.turn_deadline.type),
    )
)
LOG_MOVE = MOVES.insert().values(
    game_id=bindparam("game"),
    version=bindparam("new_version"),
    seat=bindparam("seat"),
    action=bindparam("action", type_=MOVES.c.action.type),
    events=bindparam("events", type_=MOVES.c.events.type),
    created_at=bindparam("now", type_=MOVES.c.created_at.type),
)
STORE_HAND = (
    SEATS.update()
    .where(SEATS.c.game_id == bindparam("game"), SEATS.c.seat == bindparam("seat_number"))
    .values(
        hand_channel_id=bindparam("channel"),
        hand_message_id=bindparam("message"),
        hand_version=bindparam("shown_version"),
        stale_hand_message_id=bindparam("stale"),
    )
)
CLEAR_STALE_HAND = (
    SEATS.update()
    .where(
        SEATS.c.game_id == bindparam("game"),
        SEATS.c.seat == bindparam("seat_number"),
        SEATS.c.stale_hand_message_id == bindparam("deleted"),
    )
    .values(stale_hand_message_id=None)
)
"""A replaced hand DM is deleted: forget it (unless a newer one took its place meanwhile)."""
STORE_SEAT_TURNS = (
    SEATS.update()
    .where(SEATS.c.game_id == bindparam("game"), SEATS.c.seat == bindparam("seat_number"))
    .values(
        missed_turns=bindparam("missed"),
        takeover=bindparam("takeover", type_=Boolean),
        departed=and_(SEATS.c.departed, bindparam("takeover", type_=Boolean)),
    )
)
"""A move that changes its seat's clock record: a missed turn counted, or the count reset
(a player who left and is back on their seat is no longer departed)."""
QUEUE = OUTBOX.insert().returning(OUTBOX.c.id, sort_by_parameter_order=True)
"""Outbox entries of a batch of moves, their ids returned in the order of the moves."""
DELIVERED = OUTBOX.delete().where(OUTBOX.c.id == bindparam("entry"))


class LostRace(Exception):
    """Inside a batch: a compare-and-swap failed (the batch is then retried write by write)."""


def write_rows(
    connection: Connection,
    moves: Sequence[MoveWrite],
    hands: Sequence[dict[str, Any]],
    delivered: Sequence[int] = (),
    notices: Sequence[str] = (),
) -> list[int]:
    """The statements of a batch, for the inline engine and (via ``run_sync``) the async one.

    Returns the ids of the moves' outbox entries, in the order of ``moves``. ``notices``: the
    change notices to send with the batch (several processes, see ``changes``).
    """
    entry_ids: list[int] = []
    if moves:
        _store_states(connection, moves)
        connection.execute(LOG_MOVE, [m.log_values for m in moves])
        seat_turns = [m.seat_turns for m in moves if m.seat_turns is not None]
        if seat_turns:
            connection.execute(STORE_SEAT_TURNS, seat_turns)
        rows = connection.execute(QUEUE, [m.outbox_values for m in moves]).all()
        entry_ids = [row[0] for row in rows]
    stored = [hand for hand in hands if "deleted" not in hand]
    if stored:
        connection.execute(STORE_HAND, stored)
    if len(stored) < len(hands):
        connection.execute(CLEAR_STALE_HAND, [hand for hand in hands if "deleted" in hand])
    if delivered:
        connection.execute(DELIVERED, [{"entry": entry} for entry in delivered])
    if notices:
        connection.execute(changes.NOTIFY, {"payloads": list(notices)})
    return entry_ids


def _store_states(connection: Connection, moves: Sequence[MoveWrite]) -> None:
    if connection.dialect.supports_sane_multi_rowcount:  # SQLite: one statement for all
        result = connection.execute(STORE_STATE, [m.values for m in moves])
        if result.rowcount != len(moves):
            raise LostRace("a game is no longer at the version a move was made on")
        return
    for move in moves:
        result = connection.execute(STORE_STATE, move.values)
        if result.rowcount != 1:
            raise LostRace(f"game {move.values['game']} is not at the expected version")


def is_locked(error: OperationalError) -> bool:
    """SQLite's "database is locked": another connection holds the write lock."""
    return "locked" in str(error.orig).lower()


@dataclass(frozen=True)
class MoveWrite:
    values: dict[str, Any]
    move: dict[str, Any]
    publication: Publication
    seat_turns: dict[str, Any] | None = None

    @property
    def log_values(self) -> dict[str, Any]:
        return {**self.values, **self.move}

    @property
    def outbox_values(self) -> dict[str, Any]:
        return outbox_values(
            self.values["game"], self.values["new_version"], self.publication, self.values["now"]
        )

    def entry(self, entry_id: int) -> Entry:
        return Entry(
            entry_id,
            self.values["game"],
            self.values["new_version"],
            self.publication.kind,
            self.publication.body,
        )


def outbox_values(
    game_id: int, version: int, publication: Publication, now: datetime
) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "version": version,
        "kind": publication.kind,
        "body": publication.body,
        "created_at": now,
    }


@dataclass(frozen=True)
class HandWrite:
    values: dict[str, Any]


@dataclass(frozen=True)
class DeliveredWrite:
    """Outbox entries whose publication is complete (deleted in the next batch)."""

    entry_ids: tuple[int, ...]


Write = MoveWrite | HandWrite | DeliveredWrite
