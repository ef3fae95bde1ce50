"""The outbox is written in the same transaction as the change it publishes, and only then."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from sqlalchemy import text
from sqlalchemy.exc import StatementError

from bot.outbox.entries import END, EXPIRE, MOVE, REPOST, START, Publication
from bot.storage.models import GameStatus
from bot.storage.repository import MoveRecord, StorageConflict, Store
from tests.store.conftest import join, new_lobby, start

MOVE_RECORD = MoveRecord(seat=0, action={"kind": "x"}, events=[{"type": "e"}])


async def running_game(store: Store, channel_id: int = 10) -> int:
    game = await new_lobby(store, channel_id=channel_id)
    await join(store, game.id, 2)
    await start(store, game.id, state={"n": 0})
    assert game.id is not None
    return game.id


async def stored_kinds(store: Store, game_id: int) -> list[tuple[int, str]]:
    return [(e.version, e.kind) for e in await store.pending_publications() if e.game_id == game_id]


async def test_a_move_and_its_publication_are_committed_together(store: Store) -> None:
    game_id = await running_game(store)
    publication = Publication.move(hands=[0, 1], fresh=[1])
    entry = await store.commit_move(
        game_id, expected_version=1, state={"n": 1}, move=MOVE_RECORD, publication=publication
    )
    assert (entry.game_id, entry.version, entry.kind) == (game_id, 2, MOVE)
    assert entry.hands == [0, 1] and entry.fresh == [1]
    pending = [e for e in await Store(store.engine).pending_publications() if e.id == entry.id]
    assert pending == [entry], "a fresh reader sees the entry exactly as the mover got it"


async def test_a_move_that_loses_its_race_leaves_no_publication(store: Store) -> None:
    game_id = await running_game(store)
    results = await asyncio.gather(
        *(
            store.commit_move(
                game_id,
                expected_version=1,
                state={"n": n},
                move=MOVE_RECORD,
                publication=Publication.move([n], []),
            )
            for n in range(3)
        ),
        return_exceptions=True,
    )
    winners = [r for r in results if not isinstance(r, StorageConflict)]
    assert len(winners) == 1
    assert await stored_kinds(store, game_id) == [(1, START), (2, MOVE)]


async def test_the_last_move_records_results_and_its_publication(store: Store) -> None:
    from bot.storage.repository import FinalScore

    game_id = await running_game(store)
    entry = await store.commit_move(
        game_id,
        expected_version=1,
        state={"over": True},
        move=MOVE_RECORD,
        publication=Publication.move([0, 1], []),
        final=[FinalScore(0, 1, 5, True), FinalScore(1, 2, 3, False)],
    )
    assert entry.version == 2
    assert (await store.game(game_id)).status == GameStatus.FINISHED
    assert (2, MOVE) in await stored_kinds(store, game_id)


async def test_start_end_and_repost_each_write_their_publication(store: Store) -> None:
    game_id = await running_game(store)
    repost = await store.publish(game_id, Publication(REPOST))
    assert (repost.version, repost.kind) == (1, REPOST), "a repost publishes, it is no move"
    _, ended = await store.end(game_id, GameStatus.CANCELLED, publication=Publication(END))
    assert ended is not None and ended.version == 2
    lobby = await new_lobby(store, channel_id=11)
    _, expired = await store.end(lobby.id, GameStatus.EXPIRED, publication=Publication(EXPIRE))
    assert await stored_kinds(store, game_id) == [(1, START), (1, REPOST), (2, END)]
    assert await stored_kinds(store, lobby.id) == [(expired.version, EXPIRE)]


async def test_delivered_publications_are_forgotten(store: Store) -> None:
    game_id = await running_game(store)
    entry = await store.commit_move(
        game_id,
        expected_version=1,
        state={"n": 1},
        move=MOVE_RECORD,
        publication=Publication.move([], []),
    )
    starts = [e.id for e in await store.pending_publications() if e.kind == START]
    await store.published([entry.id, *starts])
    assert await store.pending_publications() == []


async def test_a_sweep_sees_only_publications_older_than_asked(store: Store) -> None:
    game_id = await running_game(store)
    assert await store.pending_publications(older_than=timedelta(minutes=5)) == []
    async with store.engine.begin() as connection:
        await connection.execute(
            text("UPDATE outbox SET created_at = :when"),
            {"when": (await store.game(game_id)).created_at - timedelta(hours=1)},
        )
    old = await store.pending_publications(older_than=timedelta(minutes=5))
    assert [(e.game_id, e.kind) for e in old] == [(game_id, START)]


async def test_a_move_whose_publication_cannot_be_written_is_not_stored(store: Store) -> None:
    """The entry is part of the move's transaction: when writing it fails, nothing is stored."""
    game_id = await running_game(store)
    unwritable = Publication.move(hands=[object()], fresh=[])  # type: ignore[list-item]
    with pytest.raises(StatementError):
        await store.commit_move(
            game_id, expected_version=1, state={"n": 1}, move=MOVE_RECORD, publication=unwritable
        )
    row = await Store(store.engine).game(game_id)
    assert row is not None and row.version == 1 and row.state == {"n": 0}
    assert await store.move_count(game_id) == 0
    assert await stored_kinds(store, game_id) == [(1, START)]
    entry = await store.commit_move(
        game_id,
        expected_version=1,
        state={"n": 1},
        move=MOVE_RECORD,
        publication=Publication.move([0], []),
    )
    assert entry.version == 2, "the game is not left half-written"


async def test_an_entry_id_is_never_given_again_after_it_was_delivered(store: Store) -> None:
    """Couriers tell entries apart by id: one just delivered (its deletion on its way) and
    one just written must never share it."""
    game_id = await running_game(store)
    seen = {e.id for e in await store.pending_publications()}
    for version in range(1, 6):
        entry = await store.commit_move(
            game_id,
            expected_version=version,
            state={"n": version},
            move=MOVE_RECORD,
            publication=Publication.move([], []),
        )
        assert entry.id not in seen
        seen.add(entry.id)
        await store.published([e.id for e in await store.pending_publications()])
        assert await store.pending_publications() == []
