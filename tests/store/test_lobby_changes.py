"""Lobbies change atomically: joins are idempotent and counted, Start sees exactly the seats.

Several ``Store`` objects on one database stand for handlers that run at the same moment (or
processes sharing PostgreSQL): nothing in memory serialises them, only the database.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.outbox.entries import START, Publication
from bot.storage.models import GameStatus
from bot.storage.repository import LobbyFull, StorageConflict, Store
from tests.store.conftest import join, new_lobby, start


def stores_of(store: Store, count: int) -> list[Store]:
    """``count`` independent stores (no shared memory) on the same database."""
    return [Store(store.engine) for _ in range(count)]


async def seated(store: Store, game_id: int) -> list[int]:
    return [seat.user_id for seat in await Store(store.engine).seats(game_id)]


async def test_a_double_join_seats_the_user_once(store: Store) -> None:
    game = await new_lobby(store)
    first, second = await asyncio.gather(join(store, game.id, 2), join(store, game.id, 2))
    assert sorted([first, second]) == [False, True]
    assert await seated(store, game.id) == [1, 2]
    assert await join(store, game.id, 1) is False, "the host is seated already"


async def test_four_users_joining_at_once_fill_a_four_seat_lobby_exactly(store: Store) -> None:
    game = await new_lobby(store)
    users = [2, 3, 4, 5, 6]
    outcomes = await asyncio.gather(
        *(
            handler.join(game.id, user, f"u{user}", "en", capacity=4)
            for handler, user in zip(stores_of(store, len(users)), users, strict=True)
        ),
        return_exceptions=True,
    )
    full = [o for o in outcomes if isinstance(o, LobbyFull)]
    joined = [o for o in outcomes if isinstance(o, tuple)]
    assert len(joined) == 3 and len(full) == 2
    seats = await Store(store.engine).seats(game.id)
    assert [seat.seat for seat in seats] == [0, 1, 2, 3]
    assert len({seat.user_id for seat in seats}) == 4


async def test_every_lobby_change_moves_the_lobby_version(store: Store) -> None:
    game = await new_lobby(store)
    versions = [(await store.game(game.id)).version]
    await join(store, game.id, 2)
    versions.append((await store.game(game.id)).version)
    await store.set_options(game.id, {"target": 5})
    versions.append((await store.game(game.id)).version)
    await store.leave_lobby(game.id, 2)
    versions.append((await store.game(game.id)).version)
    assert versions == sorted(set(versions)), "each change gives a new version"
    await join(store, game.id, 1)
    assert (await store.game(game.id)).version == versions[-1], "a no-op join changes nothing"


async def test_start_refuses_a_lobby_that_changed_since_it_was_read(store: Store) -> None:
    game = await new_lobby(store)
    await join(store, game.id, 2)
    await join(store, game.id, 3)
    read = await store.game(game.id)
    await store.leave_lobby(game.id, 3)  # Leave lands between reading and starting
    with pytest.raises(StorageConflict):
        await store.start(
            game.id,
            expected_version=read.version,
            seed=1,
            state={"players": 3},
            publication=Publication(START),
        )
    row = await store.game(game.id)
    assert row.status == GameStatus.LOBBY and row.state is None
    assert await store.pending_publications() == []
    await start(store, game.id, state={"players": 2})
    assert (await store.game(game.id)).status == GameStatus.ACTIVE


async def test_leave_and_start_at_once_start_with_the_stored_seats_or_not_at_all(
    store: Store,
) -> None:
    for attempt in range(5):
        game = await new_lobby(store, channel_id=100 + attempt)
        await join(store, game.id, 2)
        await join(store, game.id, 3)
        read = await store.game(game.id)
        leaver, starter = stores_of(store, 2)
        left, started = await asyncio.gather(
            leaver.leave_lobby(game.id, 3),
            starter.start(
                game.id,
                expected_version=read.version,
                seed=1,
                state={"players": 3},
                publication=Publication(START),
            ),
            return_exceptions=True,
        )
        row = await store.game(game.id)
        seats = await seated(store, game.id)
        if row.status == GameStatus.ACTIVE:
            assert row.state == {"players": 3} and seats == [1, 2, 3]
            assert isinstance(left, StorageConflict), "the lobby was closed by the start"
        else:
            assert isinstance(started, StorageConflict) and left is True
            assert seats == [1, 2]


async def test_options_change_only_the_lobby_that_was_read(store: Store) -> None:
    game = await new_lobby(store)
    read = await store.game(game.id)
    await join(store, game.id, 2)
    with pytest.raises(StorageConflict):
        await store.set_options(game.id, {"target": 5}, expected_version=read.version)
    assert (await store.game(game.id)).options == {}
