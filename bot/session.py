"""A game as the bot works with it: the stored row, its seats and the engine state.

Why a separate type: every flow (lobby, moves, commands) starts by loading these three things
together, and the engine state is rebuilt from JSON on each load so no process keeps a copy that
could go stale.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.storage.models import GameRow, GameStatus, SeatRow
from bot.storage.repository import Store
from games import Game, State


@dataclass
class LoadedGame:
    row: GameRow
    seats: list[SeatRow]
    game: Game
    state: State | None

    @property
    def id(self) -> int:
        assert self.row.id is not None
        return self.row.id

    @property
    def status(self) -> GameStatus:
        return GameStatus(self.row.status)

    @property
    def names(self) -> list[str]:
        return [seat.display_name for seat in self.seats]

    def seat_of(self, user_id: int) -> int | None:
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat.seat
        return None


async def load_game(store: Store, registry: Mapping[str, Game], game_id: int) -> LoadedGame | None:
    """The game ``game_id`` with its seats and state, or ``None`` if it does not exist."""
    found = await store.game_with_seats(game_id)
    if found is None:
        return None
    row, seats = found
    game = registry[row.game_key]
    state = game.state_from_json(row.state) if row.state is not None else None
    return LoadedGame(row=row, seats=seats, game=game, state=state)


async def complete(store: Store, registry: Mapping[str, Game], row: GameRow) -> LoadedGame:
    assert row.id is not None
    game = registry[row.game_key]
    state = game.state_from_json(row.state) if row.state is not None else None
    return LoadedGame(row=row, seats=await store.seats(row.id), game=game, state=state)
