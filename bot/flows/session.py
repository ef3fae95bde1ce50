"""A game as the bot works with it: the stored row, its seats and the engine state.

Why a separate type: every flow (lobby, moves, commands) starts by loading these three things
together. The engine state is decoded from the stored JSON, and the decoded object is reused
while that JSON is the stored one: a click that only opens a sub-menu, or the hand of a player
who waits, reads it without decoding again. So the state of a ``LoadedGame`` is read-only; a
move is applied to a fresh copy (``mutable_state``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bot.storage.cache import LruCache
from bot.storage.models import GameRow, GameStatus, SeatRow
from bot.storage.repository import Store
from games import Game, State

T = TypeVar("T")
DECODED_STATES = 1_000
_decoded: LruCache[int, tuple[dict[str, Any], State, Derived]] = LruCache(DECODED_STATES)
"""Per game id: the stored JSON, its decoded state (the JSON compared by identity, never
equality) and what has been derived from that state so far."""


PUBLISHED = 64
Views = dict[int | None, dict[str, Any]]
_published: dict[int, tuple[State, Views, dict[tuple[Any, ...], Any]]] = {}
"""Views of new states, computed for their move's publication before the move was stored, by
the state's id (the state is kept with them, so its id cannot be another's meanwhile), and
what was derived from them then."""


def share_views(
    state: State, views: Views, derived: dict[tuple[Any, ...], Any] | None = None
) -> None:
    """``state``'s views, computed before it is stored (``moves.move_publication``): the game
    after the move (``LoadedGame.after_move``) starts with them, and its ``Derived`` with
    ``derived`` (keys as for ``LoadedGame.derived``). A move that is not stored leaves them
    behind; the oldest are dropped."""
    if len(_published) >= PUBLISHED:
        del _published[next(iter(_published))]
    _published[id(state)] = (state, views, derived or {})


@dataclass
class Derived:
    """What is computed from one decoded state, shared by every ``LoadedGame`` made of it.

    A click's answer and the courier's deliveries of the same state render the same menus and
    hand texts: the hand DM the courier sends the player on turn leaves its texts here for
    that player's clicks in it. Lives as long as the state is the stored one (in
    ``_decoded``). Keys name everything besides the state that a value depends on (seat,
    language, names, …); nothing here is ever changed once computed. Kept are texts, the
    menu's tree (``controls.menu_tree``) and each seat's private part (``moves.private_parts``,
    what a move compares): not the whole views they are made from, which stay with one
    ``LoadedGame`` (kept as long as the state, a game's views took the memory per active game
    in ``benchmarks/bot_load.py`` from about 90 KB to 146 KB).
    """

    memo: dict[tuple[Any, ...], Any] = field(default_factory=dict)


AI_MARK = "🤖"


WAITING_MARK = "⏳"


def seat_name(seat: SeatRow) -> str:
    """An AI player is "🤖 Akira"; a human whose seat the AI plays for now is "Anna 🤖"; a
    player of the last game who has not confirmed their seat in its rematch is "Anna ⏳"."""
    if not seat.confirmed:
        return f"{seat.display_name} {WAITING_MARK}"
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
    _memo: dict[tuple[Any, ...], Any] = field(default_factory=dict, repr=False)

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

    def derived(self, key: tuple[Any, ...], make: Callable[[], T]) -> T:
        """``make()``, computed once per decoded state for ``key`` (see ``Derived``): the key
        must name everything the value depends on besides the state."""
        memo = self._memo
        if key in memo:
            return memo[key]  # type: ignore[no-any-return]
        value = memo[key] = make()
        return value

    def mutable_state(self) -> State:
        """A private copy of the state, to apply a move to: the engine's copy (4–6 µs, where
        decoding the stored JSON again took 60–90 µs a move), which continues exactly as the
        state would (``tests/games/ai/test_determinize.py``)."""
        assert self.state is not None
        return self.state.clone()

    def ahead(self, state: State) -> LoadedGame:
        """This game as it will be once ``state`` is stored, for work that may start while the
        commit runs (drawing the mover's new hand). It caches nothing: if the commit fails, no
        trace of ``state`` is left but the views its publication computed."""
        return self._became(state, _published.get(id(state)), {})

    def snapshot(self) -> LoadedGame:
        """This game with a row of its own, which later moves do not change.

        The row of a running game is the store's kept copy, which every commit brings up to
        date in place. Work that awaits Discord for a while (a courier delivering) would then
        show an old state under a newer version: a footer with the wrong move number, and
        controls whose custom_id claims the newer version for choices made on the old state.
        """
        row = GameRow(**{name: getattr(self.row, name) for name in GameRow.model_fields})
        return LoadedGame(
            row=row,
            seats=self.seats,
            game=self.game,
            state=self.state,
            _views=self._views,
            _memo=self._memo,
        )

    def after_move(self, state: State) -> LoadedGame:
        """This game once ``state``, whose ``to_json()`` was just stored, is the stored one.

        The state the move was applied to is kept as it is, not decoded again from the stored
        JSON: the engines' property tests show that a decoded copy continues identically
        (``tests/games/*/test_properties.py``), and decoding cost 120 µs a move on average."""
        assert self.row.state is not None
        known = _published.pop(id(state), None)
        derived = Derived()
        if known is not None and known[0] is state:
            derived.memo.update(known[2])
        _decoded.put(self.id, (self.row.state, state, derived))
        return self._became(state, known, derived.memo)

    def _became(
        self,
        state: State,
        published: tuple[State, Views, dict[tuple[Any, ...], Any]] | None,
        memo: dict[tuple[Any, ...], Any],
    ) -> LoadedGame:
        """This game at ``state``, with the views its move's publication computed."""
        views = published[1] if published is not None and published[0] is state else {}
        return LoadedGame(
            row=self.row, seats=self.seats, game=self.game, state=state, _views=views, _memo=memo
        )


def _loaded(
    row: GameRow, seats: list[SeatRow], game: Game, state: State | None, derived: Derived
) -> LoadedGame:
    return LoadedGame(row=row, seats=seats, game=game, state=state, _memo=derived.memo)


def decode(game: Game, row: GameRow) -> tuple[State | None, Derived]:
    """The row's state, decoded once while its JSON is the stored one, and what was derived
    from it so far."""
    if row.state is None:
        return None, Derived()
    if row.id is not None:
        known = _decoded.get(row.id)
        if known is not None and known[0] is row.state:
            return known[1], known[2]
    state, derived = game.state_from_json(row.state), Derived()
    if row.id is not None and row.status == GameStatus.ACTIVE:
        _decoded.put(row.id, (row.state, state, derived))
    return state, derived


async def load_game(
    store: Store, registry: Mapping[str, Game], game_id: int, *, at_least: int | None = None
) -> LoadedGame | None:
    """The game ``game_id`` with its seats and state, or ``None`` if it does not exist.

    ``at_least``: a version the caller knows the game has reached (memory behind it is read
    again; see ``Store.game_with_seats``)."""
    found = await store.game_with_seats(game_id, at_least=at_least)
    if found is None:
        return None
    row, seats = found
    game = registry[row.game_key]
    return _loaded(row, seats, game, *decode(game, row))


async def complete(store: Store, registry: Mapping[str, Game], row: GameRow) -> LoadedGame:
    assert row.id is not None
    game = registry[row.game_key]
    return _loaded(row, await store.seats(row.id), game, *decode(game, row))
