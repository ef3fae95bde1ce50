"""A stored game as a replay reads it, and the replays kept in memory.

Why a cache: a replay is stepped through one click at a time, and rebuilding a 300-move game
for every click would cost a few milliseconds each time (``benchmarks/replay.py``). Ended games
never change, so a built ``Replay`` stays right for as long as it is kept; the cache is
bounded (least recently used replays go first).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from sqlmodel import col, select

from bot.replays.rebuild import LoggedStep, Replay
from bot.storage.cache import LruCache
from bot.storage.models import GameRow, GameStatus, MoveRow, SeatRow
from bot.storage.repository import OPENING_SEAT, Store
from bot.storage.settings_cache import SettingsCache
from games import Game

ENDED = (GameStatus.FINISHED, GameStatus.ABANDONED, GameStatus.CANCELLED)
"""The games a replay shows (a cancelled one only if it had started): over, so nothing in
them is hidden any more."""
KEPT_REPLAYS = 16
"""A kept replay holds its whole move log and a state every 16 moves: 0.6 MB for a 308-move
Kami game, 0.9 MB for a 587-move Call to Glory game (tracemalloc), so at most about 15 MB."""


@dataclass(frozen=True)
class GameRecord:
    row: GameRow
    seats: list[SeatRow]
    steps: list[LoggedStep]
    opening_events: list[dict]


async def load_record(store: Store, game_id: int) -> GameRecord | None:
    """The game, its seats and its whole move log (``None``: no such game)."""
    async with store.session() as session:
        row = await session.get(GameRow, game_id)
        if row is None:
            return None
        seats = list(
            (
                await session.exec(
                    select(SeatRow).where(SeatRow.game_id == game_id).order_by(col(SeatRow.seat))
                )
            ).all()
        )
        # Plain columns, not ORM objects: a long game has hundreds of moves.
        moves = (
            await session.exec(
                select(MoveRow.seat, MoveRow.action, MoveRow.events, MoveRow.created_at)
                .where(MoveRow.game_id == game_id)
                .order_by(col(MoveRow.version))
            )
        ).all()
    opening = [event for seat, _, events, _ in moves if seat == OPENING_SEAT for event in events]
    steps = [
        LoggedStep(seat, action, events, played_at)
        for seat, action, events, played_at in moves
        if seat != OPENING_SEAT
    ]
    return GameRecord(row, seats, steps, opening)


def build_replay(game: Game, record: GameRecord) -> Replay:
    row = record.row
    return Replay.build(
        game,
        players=len(record.seats),
        seed=row.seed,
        options=row.options,
        opening_events=record.opening_events,
        steps=record.steps,
        final_state=row.state,
    )


class Replays:
    """Built replays of ended games, by game id, with their records."""

    def __init__(self, store: Store, registry: Mapping[str, Game], size: int = KEPT_REPLAYS):
        self.store = store
        self.registry = registry
        self._kept: LruCache[int, tuple[GameRecord, Replay]] = LruCache(size)
        self._reveal = SettingsCache(
            store.replay_hands, changes_elsewhere=lambda: store.shared, size=1_000
        )

    async def reveal(self, guild_id: int) -> bool:
        """Whether the server shows every hand in replays (kept: a step must not wait for the
        database each time)."""
        return await self._reveal.get(guild_id)

    def forget_setting(self, guild_id: int) -> None:
        self._reveal.forget(guild_id)

    async def get(self, game_id: int) -> tuple[GameRecord, Replay | None] | None:
        """The game's record and, if it has ended, its replay; ``None``: no such game."""
        kept = self._kept.get(game_id)
        if kept is not None:
            return kept
        record = await load_record(self.store, game_id)
        if record is None:
            return None
        if GameStatus(record.row.status) not in ENDED or record.row.state is None:
            return record, None
        game = self.registry.get(record.row.game_key)
        if game is None:
            return record, None
        replay = build_replay(game, record)
        self._kept.put(game_id, (record, replay))
        return record, replay
