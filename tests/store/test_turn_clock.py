"""The turn clock's records: a turn's reminder is claimed once, whoever asks (several processes,
a restart), and the claim stores its outbox entry in the same transaction; a seat's record is
reset when its player takes it back."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from bot.outbox.entries import REMIND, Publication
from bot.storage.models import GameStatus
from bot.storage.repository import MoveRecord, SeatTurns, Store
from tests.store.conftest import join, new_lobby, start

MOVE_RECORD = MoveRecord(seat=0, action={"kind": "x"}, events=[{"type": "e"}])


async def running_game(store: Store) -> int:
    game = await new_lobby(store)
    await join(store, game.id, 2)
    await start(store, game.id, state={"n": 0})
    assert game.id is not None
    return game.id


async def reminders(store: Store, game_id: int) -> list[tuple[int, dict]]:
    return [
        (entry.version, entry.body)
        for entry in await store.pending_publications()
        if entry.game_id == game_id and entry.kind == REMIND
    ]


async def test_a_turns_reminder_is_claimed_once(store: Store) -> None:
    game_id = await running_game(store)
    assert await store.claim_reminder(game_id, 1, Publication.remind(0)) is not None
    assert await store.claim_reminder(game_id, 1, Publication.remind(0)) is None
    # A fresh reader (another process, a restart) does not get it either.
    assert await Store(store.engine).claim_reminder(game_id, 1, Publication.remind(0)) is None
    assert (await store.game(game_id)).reminded_version == 1
    # Not for a turn the game is not at.
    assert await store.claim_reminder(game_id, 2, Publication.remind(0)) is None
    await store.commit_move(
        game_id,
        expected_version=1,
        state={"n": 1},
        move=MOVE_RECORD,
        publication=Publication.move([], []),
    )
    assert await store.claim_reminder(game_id, 2, Publication.remind(0)) is not None
    assert await store.claim_reminder(game_id, 2, Publication.remind(0)) is None


async def test_simultaneous_claims_with_their_entries_let_one_win(store: Store) -> None:
    game_id = await running_game(store)
    results = await asyncio.gather(
        *(store.claim_reminder(game_id, 1, Publication.remind(0)) for _ in range(4))
    )
    won = [entry for entry in results if entry is not None]
    assert len(won) == 1
    assert (won[0].kind, won[0].version, won[0].body) == (REMIND, 1, {"seat": 0})
    assert await reminders(store, game_id) == [(1, {"seat": 0})]
    # A lost claim stores nothing; nor does one for a finished game.
    assert await store.claim_reminder(game_id, 1, Publication.remind(0)) is None
    assert await reminders(store, game_id) == [(1, {"seat": 0})]
    await store.end(game_id, GameStatus.CANCELLED, publication=Publication.move([], []))
    assert await store.claim_reminder(game_id, 2, Publication.remind(1)) is None
    assert await reminders(store, game_id) == [(1, {"seat": 0})]


async def test_taking_a_seat_back_resets_its_record(store: Store) -> None:
    game_id = await running_game(store)
    await store.set_seat_turns(game_id, SeatTurns(1, 3, True))
    seat = (await Store(store.engine).seats(game_id))[1]
    assert (seat.missed_turns, seat.takeover) == (3, True)
    await store.set_seat_turns(game_id, SeatTurns(1, 0, False))
    for reader in (store, Store(store.engine)):
        seat = (await reader.seats(game_id))[1]
        assert (seat.missed_turns, seat.takeover) == (0, False)


async def test_a_seat_taken_back_stores_its_publication_and_deadline_with_it(store: Store) -> None:
    """Taking a seat back is one transaction: the record, the outbox entry that shows it and
    the deadline of the turn the player is back on (a restart finds all three or none)."""
    game_id = await running_game(store)
    await store.set_seat_turns(game_id, SeatTurns(1, 3, True))
    deadline = datetime(2030, 1, 2, 3, 4, 5, tzinfo=UTC)
    entry = await store.set_seat_turns(
        game_id, SeatTurns(1, 0, False), publication=Publication.move([1], []), deadline=deadline
    )
    assert entry is not None and (entry.version, entry.hands) == (1, [1])
    assert entry.id in {pending.id for pending in await store.pending_publications()}
    row = await Store(store.engine).game(game_id)
    assert row is not None and row.turn_deadline is not None
    stored = row.turn_deadline  # SQLite gives it back without a zone, PostgreSQL with one
    assert (stored.replace(tzinfo=UTC) if stored.tzinfo is None else stored) == deadline
