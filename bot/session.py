"""A game as the bot works with it: the stored row, its seats and the engine state.

Why a separate type: every flow (lobby, moves, commands) starts by loading these three things
together. The engine state is decoded from the stored JSON, and the decoded object is reused
while that JSON is the stored one: a click that only opens a sub-menu, or the hand of a player
who waits, reads it without decoding again. So the state of a ``LoadedGame`` is read-only; a
move is applied to a fresh copy (``mutable_state``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.storage.cache import LruCache
from bot.storage.models import GameRow, GameStatus, SeatRow
from bot.storage.repository import Store
from games import Game, State

DECODED_STATES = 1_000
_decoded: LruCache[int, tuple[dict[str, Any], State]] = LruCache(DECODED_STATES)
"""Per game id: the stored JSON and its decoded state (compared by identity, never equality)."""


AI_MARK = "🤖"


def seat_name(seat: SeatRow) -> str:
    """An AI player is "🤖 Akira"; a human whose seat the AI plays for now is "Anna 🤖"."""
    if seat.ai_level is not None:
        return f"{AI_MARK} {seat.display_name}"
    if seat.takeover:
        return f"{seat.display_name} {AI_MARK}"
    return seat.display_name


@dataclass
class LoadedGame:
    row: GameRow
    seats: list[SeatRow]
    game: Game
    state: State | None
    _views: dict[int | None, dict[str, Any]] = field(default_factory=dict, repr=False)

    @property
    def id(self) -> int:
        assert self.row.id is not None
        return self.row.id

    @property
    def status(self) -> GameStatus:
        return GameStatus(self.row.status)

    @property
    def names(self) -> list[str]:
        """What the table calls each seat; the AI is marked wherever a name is shown."""
        return [seat_name(seat) for seat in self.seats]

    def seat_of(self, user_id: int) -> int | None:
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat.seat
        return None

    def view(self, seat: int | None) -> dict[str, Any]:
        """``state.view(seat)``, computed once per loaded game (a move renders it many times)."""
        view = self._views.get(seat)
        if view is None:
            assert self.state is not None
            view = self._views[seat] = self.state.view(seat)
        return view

    def mutable_state(self) -> State:
        """A private copy of the state, to apply a move to."""
        assert self.row.state is not None
        return self.game.state_from_json(self.row.state)

    def snapshot(self) -> LoadedGame:
        """This game with a row of its own, which later moves do not change.

        The row of a running game is the store's kept copy, which every commit brings up to
        date in place. Work that awaits Discord for a while (a courier delivering) would then
        show an old state under a newer version: a footer with the wrong move number, and
        controls whose custom_id claims the newer version for choices made on the old state.
        """
        row = GameRow(**{name: getattr(self.row, name) for name in GameRow.model_fields})
        return LoadedGame(
            row=row, seats=self.seats, game=self.game, state=self.state, _views=self._views
        )

    def after_move(self, state: State) -> LoadedGame:
        """This game once ``state`` (decoded from the JSON just stored) is the stored one."""
        assert self.row.state is not None
        _decoded.put(self.id, (self.row.state, state))
        return LoadedGame(row=self.row, seats=self.seats, game=self.game, state=state)


def decode(game: Game, row: GameRow) -> State | None:
    if row.state is None:
        return None
    if row.id is not None:
        known = _decoded.get(row.id)
        if known is not None and known[0] is row.state:
            return known[1]
    state = game.state_from_json(row.state)
    if row.id is not None and row.status == GameStatus.ACTIVE:
        _decoded.put(row.id, (row.state, state))
    return state


async def load_game(store: Store, registry: Mapping[str, Game], game_id: int) -> LoadedGame | None:
    """The game ``game_id`` with its seats and state, or ``None`` if it does not exist."""
    found = await store.game_with_seats(game_id)
    if found is None:
        return None
    row, seats = found
    game = registry[row.game_key]
    return LoadedGame(row=row, seats=seats, game=game, state=decode(game, row))


async def complete(store: Store, registry: Mapping[str, Game], row: GameRow) -> LoadedGame:
    assert row.id is not None
    game = registry[row.game_key]
    return LoadedGame(row=row, seats=await store.seats(row.id), game=game, state=decode(game, row))
