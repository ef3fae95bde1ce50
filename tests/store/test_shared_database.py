"""Several processes on one PostgreSQL (issue 18): each ``Store`` here stands for a process of its
own (its own memory, its own connections, its own change notices), and some tests start real
processes. Moves from every store on the same game are each applied once and none is lost; a
store never serves a game or a user another store changed; a game's outbox is delivered by one
store at a time, and a claim of a store that stalls is taken over after its lease, while a
claim of a process that was killed is free at once (its liveness lock went with its
connections); a turn's deadline is played once.

PostgreSQL only (the shared mode does not exist on SQLite): skipped without a server, unless
``GLORY_REQUIRE_POSTGRES=1``.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from collections import Counter
from collections.abc import AsyncIterator, Sequence
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import asyncpg
import pytest
from sqlalchemy import text

from bot.ai import autoplay as autoplay_module
from bot.ai.autoplay import Autoplay
from bot.flows.clock import TurnClock
from bot.flows.game_locks import GameLocks
from bot.flows.moves import MoveFlow
from bot.flows.session import load_game
from bot.outbox import dispatch as dispatch_module
from bot.outbox.courier import Courier
from bot.outbox.dispatch import Outbox
from bot.outbox.entries import START, Entry, Publication
from bot.outbox.lanes import TABLE
from bot.process.config import Settings
from bot.storage import claims
from bot.storage.models import GameStatus, utcnow
from bot.storage.repository import MoveRecord, SeatTurns, StorageConflict, Store
from games import REGISTRY
from tests.store.conftest import PUBLISH_MOVE, join, new_lobby, start
from tests.store.postgres import fresh_database

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def database() -> AsyncIterator[str]:
    async with fresh_database() as url:
        yield url


@pytest.fixture
async def stores(database: str) -> AsyncIterator[list[Store]]:
    """Three stores on one database, as three processes would have them."""
    opened = list(await asyncio.gather(*(Store.open(database) for _ in range(3))))
    yield opened
    for store in opened:
        await store.close()


async def running_game(store: Store, channel_id: int = 10) -> int:
    game = await new_lobby(store, channel_id=channel_id)
    await join(store, game.id, 2)
    await start(store, game.id, state={"n": 0})
    assert game.id is not None
    return game.id


async def eventually(check: Any, seconds: float = 5.0) -> None:
    """Wait until ``check()`` is true (a change notice is on its way)."""
    deadline = asyncio.get_running_loop().time() + seconds
    while not check():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.01)


async def logged_counts(store: Store, game_id: int) -> list[int]:
    """The ``n`` of every logged move after the opening, in version order."""
    async with store.engine.connect() as connection:
        rows = await connection.execute(
            text("SELECT version, action FROM moves WHERE game_id = :g ORDER BY version"),
            {"g": game_id},
        )
        return [row.action["n"] for row in rows if row.version > 1]


# ---------------------------------------------------------------------- mode


async def test_postgresql_is_shared_by_default_and_sqlite_never(database: str, tmp_path) -> None:
    shared = await Store.open(database)
    alone = await Store.open(database, shared=False)
    embedded = await Store.open(f"sqlite+aiosqlite:///{tmp_path}/one.db")
    try:
        assert shared.shared and shared.listening
        assert not alone.shared and not embedded.shared
        with pytest.raises(ValueError, match="PostgreSQL"):
            Store(embedded.engine, shared=True)
    finally:
        for store in (shared, alone, embedded):
            await store.close()


async def test_processes_starting_at_once_migrate_the_database_once(database: str) -> None:
    opened = await asyncio.gather(*(Store.open(database) for _ in range(4)))
    for store in opened:
        await store.close()


# ---------------------------------------------------------------------- moves and memory


async def test_moves_from_three_stores_on_one_game_are_each_applied_once(
    stores: list[Store],
) -> None:
    """Every store plays as fast as it can on the same game, each from its memory; a lost
    compare-and-swap makes it read the game again. Every committed move builds on the one
    before: none lost, none applied twice, and none made on a state another store replaced."""
    game_id = await running_game(stores[0])
    total = 60
    committed: list[int] = []

    async def play(store: Store, seat: int) -> int:
        conflicts = 0
        while len(committed) < total:
            row, _ = await store.game_with_seats(game_id)  # type: ignore[misc]
            n = row.state["n"] + 1
            try:
                await store.commit_move(
                    game_id,
                    expected_version=row.version,
                    state={"n": n},
                    move=MoveRecord(seat=seat, action={"n": n}, events=[]),
                    publication=PUBLISH_MOVE,
                )
            except StorageConflict:
                conflicts += 1
                continue
            committed.append(n)
            await asyncio.sleep(0)
        return conflicts

    conflicts = await asyncio.gather(*(play(store, i % 2) for i, store in enumerate(stores)))
    assert sorted(committed) == list(range(1, len(committed) + 1)), "a move applied twice"
    assert await logged_counts(stores[0], game_id) == list(range(1, len(committed) + 1))
    final = await Store(stores[0].engine).game(game_id)
    assert final.state == {"n": len(committed)} and final.version == len(committed) + 1
    assert sum(conflicts) > 0, "the stores never raced: the test proves nothing"


async def test_a_store_never_serves_a_game_another_store_changed(stores: list[Store]) -> None:
    a, b, _ = stores
    game_id = await running_game(a)
    await b.game_with_seats(game_id)  # b keeps the game at version 1
    await a.game_with_seats(game_id)
    await a.commit_move(
        game_id,
        expected_version=1,
        state={"n": 1},
        move=MoveRecord(seat=0, action={"n": 1}, events=[]),
        publication=PUBLISH_MOVE,
    )
    # A reader that knows the game reached version 2 (a click's control, an outbox entry) gets
    # it at once, before the notice arrives.
    row, _ = await b.game_with_seats(game_id, at_least=2)  # type: ignore[misc]
    assert (row.version, row.state) == (2, {"n": 1})
    # Any reader, once the notice is in (a moment after the commit).
    await b.game_with_seats(game_id)
    await a.set_seat_turns(game_id, SeatTurns(1, 3, True))
    await eventually(lambda: b._games.get(game_id) is None)
    row, seats = await b.game_with_seats(game_id)  # type: ignore[misc]
    assert seats[1].takeover and seats[1].missed_turns == 3
    await a.set_hand_message(game_id, 0, 500, 501, 2)
    await eventually(lambda: b._games.get(game_id) is None)
    assert (await b.current_seat(game_id, 0)).hand_message_id == 501


async def test_a_store_never_serves_a_user_another_store_changed(stores: list[Store]) -> None:
    a, b, _ = stores
    assert await b.remembered_locales([7]) == {}
    await a.remember_locale(7, "de")
    await eventually(lambda: b._users.get(7) is None)
    assert await b.remembered_locales([7]) == {7: "de"}
    await a.set_dms_closed(7, True)
    await eventually(lambda: b._users.get(7) is None)
    assert await b.dms_closed(7)
    assert await b.hand_images(7)
    await a.set_hand_images(7, False)
    await eventually(lambda: b._users.get(7) is None)
    assert b.known_hand_images(7) is None
    assert await b.hand_images(7) is False
    # Its own writes it follows without being told, and does not tell itself.
    await b.remember_locale(7, "ru")
    assert await b.remembered_locales([7]) == {7: "ru"}
    await eventually(lambda: a._users.get(7) is None)
    assert await a.remembered_locales([7]) == {7: "ru"}


async def test_a_store_that_may_have_missed_notices_forgets_what_it_kept(
    stores: list[Store],
) -> None:
    """The listening connection is killed: whatever another store changes meanwhile, the store
    serves nothing from memory it kept before, and keeps using memory once it hears again."""
    a, b, _ = stores
    game_id = await running_game(a)
    await b.game_with_seats(game_id)
    assert b._feed is not None and b._feed._connection is not None
    listener = b._feed._connection.get_server_pid()
    async with a.engine.connect() as connection:
        await connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": listener})
    # The store learns of the loss when the driver reports the closed connection, not at the
    # same instant (docs/architecture.md, "Several processes"): it then drops what it kept and
    # listens again on a new connection.
    await eventually(
        lambda: (
            not b.listening
            or (
                b._feed._connection is not None  # type: ignore[union-attr]
                and b._feed._connection.get_server_pid() != listener  # type: ignore[union-attr]
            )
        ),
        seconds=10,
    )
    await a.game_with_seats(game_id)
    await a.commit_move(
        game_id,
        expected_version=1,
        state={"n": 1},
        move=MoveRecord(seat=0, action={"n": 1}, events=[]),
        publication=PUBLISH_MOVE,
    )
    row, _ = await b.game_with_seats(game_id)  # type: ignore[misc]
    assert row.version == 2, "a store served a game from before it stopped hearing notices"
    await eventually(
        lambda: (
            b.listening
            and b._feed._connection is not None  # type: ignore[union-attr]
            and b._feed._connection.get_server_pid() != listener
        )  # type: ignore[union-attr]
    )
    await b.game_with_seats(game_id)
    assert b._games.get(game_id) is not None, "memory is used again once notices are heard"


async def test_moves_from_three_processes_on_one_game_are_each_applied_once(
    database: str,
) -> None:
    """The same race with real processes: each opens its own store and plays until the game
    reaches 90 moves, reading the game again after a lost compare-and-swap."""
    setup = await Store.open(database)
    try:
        game_id = await running_game(setup)
    finally:
        await setup.close()
    script = textwrap.dedent(
        f"""
        import asyncio, sys
        from bot.outbox.entries import Publication
        from bot.storage.repository import MoveRecord, StorageConflict, Store

        async def main():
            store = await Store.open({database!r})
            mine = 0
            while True:
                row, _ = await store.game_with_seats({game_id})
                n = row.state["n"] + 1
                if n > 90:
                    break
                try:
                    await store.commit_move({game_id}, expected_version=row.version,
                        state={{"n": n}}, move=MoveRecord(0, {{"n": n}}, []),
                        publication=Publication.move([], []))
                    mine += 1
                except StorageConflict:
                    pass
            await store.close()
            print(mine)

        asyncio.run(main())
        """
    )
    processes = [
        await asyncio.create_subprocess_exec(
            sys.executable, "-c", script, cwd=ROOT, stdout=subprocess.PIPE
        )
        for _ in range(3)
    ]
    outputs = [await process.communicate() for process in processes]
    assert all(process.returncode == 0 for process in processes)
    made = [int(stdout.decode().strip()) for stdout, _ in outputs]
    assert sum(made) == 90, made
    check = await Store.open(database, shared=False)
    try:
        assert await logged_counts(check, game_id) == list(range(1, 91))
        assert (await check.game(game_id)).state == {"n": 90}
    finally:
        await check.close()


# ---------------------------------------------------------------------- the outbox


def outbox_of(store: Store, **options: Any) -> Outbox:
    """An outbox on ``store`` that shows a table after every move: with the production pace (a
    second between showings) the first courier to claim a game holds it through the whole
    burst, and the claims these tests are about are contended far less."""
    options = {"table_pace": 0.0, **options}
    return Outbox(SimpleNamespace(store=store), delete_after=0.01, **options)  # type: ignore[arg-type]


@pytest.fixture
def deliveries(monkeypatch) -> list[tuple[str, str, list[int]]]:
    """Every lane's delivery as (store, lane, entries); Discord is left out (``perform``
    waits a moment, as a call would)."""
    shown: list[tuple[str, str, list[int]]] = []
    lane_done = Courier.lane_done

    async def perform(self: Courier, lane: str, ops: list) -> None:
        await asyncio.sleep(0.002)

    def recording(self: Courier, lane: str, entry_ids: Sequence[int]) -> None:
        entry_ids = list(entry_ids)
        if lane:
            shown.append((self.outbox.bot.store.origin, lane, entry_ids))
        lane_done(self, lane, entry_ids)

    monkeypatch.setattr(Courier, "perform", perform)
    monkeypatch.setattr(Courier, "lane_done", recording)
    return shown


async def commit(store: Store, game_id: int) -> Entry:
    for _ in range(50):
        row, _ = await store.game_with_seats(game_id)  # type: ignore[misc]
        try:
            return await store.commit_move(
                game_id,
                expected_version=row.version,
                state={"n": row.state["n"] + 1},
                move=MoveRecord(seat=0, action={"n": row.state["n"] + 1}, events=[]),
                publication=PUBLISH_MOVE,
            )
        except StorageConflict:
            continue
    raise AssertionError("never committed")


async def all_idle(outboxes: Sequence[Outbox], store: Store) -> None:
    for _ in range(200):
        for outbox in outboxes:
            await outbox.idle()
        if not await store.pending_publications():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"left undelivered: {await store.pending_publications()}")


async def test_each_outbox_entry_is_delivered_by_exactly_one_store(
    stores: list[Store], deliveries: list
) -> None:
    games = [await running_game(stores[0], channel_id=channel) for channel in (10, 11, 12)]
    outboxes = [outbox_of(store) for store in stores]
    for outbox in outboxes:
        outbox.follow_other_processes()
    entries = await stores[0].pending_publications()  # the starts
    for outbox in outboxes:  # every store hears of the starts (a resume at start-up, say)
        outbox.deliver(entries)

    async def play(index: int) -> None:
        store, outbox = stores[index], outboxes[index]
        for turn in range(12):
            entry = await commit(store, games[(index + turn) % len(games)])
            outbox.deliver([entry])
            await asyncio.sleep(0.001 * (turn % 3))

    await asyncio.gather(*(play(index) for index in range(3)), *(o.resume() for o in outboxes))
    await all_idle(outboxes, stores[0])
    # (a start plans two jobs on the channel's lane: one delivery of one entry)
    shown = Counter(entry for _, lane, ids in deliveries if lane == TABLE for entry in set(ids))
    assert len(shown) == 3 + 36, "every start and every move was delivered"
    assert set(shown.values()) == {1}, [entry for entry, n in shown.items() if n > 1]
    assert len({origin for origin, _, _ in deliveries}) > 1, "only one store ever delivered"
    async with stores[0].engine.connect() as connection:
        left = (await connection.execute(text("SELECT count(*) FROM claims"))).scalar()
    assert left == 0, "a released claim was left behind"
    for outbox in outboxes:
        await outbox.close()


async def test_a_stalled_stores_claim_is_taken_over_after_its_lease(
    stores: list[Store], deliveries: list, monkeypatch
) -> None:
    a, b, _ = stores
    game_id = await running_game(a)
    await a.published([entry.id for entry in await a.pending_publications()])
    entry = await commit(a, game_id)
    # a claims the game and stalls at work: its delivery never ends, and nothing renews. Its
    # connections stay open (as a host that vanished leaves them on the server for a while),
    # so only the lease frees the claim.
    stuck = asyncio.Event()

    async def perform(self: Courier, lane: str, ops: list) -> None:
        if self.outbox is dead:
            await stuck.wait()

    monkeypatch.setattr(Courier, "perform", perform)
    lease = 2.0  # long enough that a loaded machine (CI) sweeps before it runs out
    dead = outbox_of(a, lease_seconds=lease)
    dead.deliver([entry])
    await eventually(lambda: dead.couriers[game_id].token is not None)
    assert dead._renewer is not None
    dead._renewer.cancel()
    monkeypatch.setattr(dispatch_module, "SWEEP_AGE", timedelta(0))
    survivor = outbox_of(b, lease_seconds=lease)
    assert await survivor.sweep() == 0, "a live claim is left alone"
    await asyncio.sleep(lease + 0.1)
    assert await survivor.sweep() == 1
    await survivor.idle()
    assert [(origin, ids) for origin, lane, ids in deliveries] == [(b.origin, [entry.id])]
    assert await b.pending_publications() == []
    # The stalled store, should it wake, learns that the game is no longer its to deliver.
    await dead.renew()
    assert dead.couriers[game_id].given_up
    stuck.set()
    await dead.close()
    await survivor.close()


async def test_a_refused_courier_leaves_its_entries_to_the_holder(
    stores: list[Store], deliveries: list, monkeypatch
) -> None:
    """b commits while a's courier is at work on the game: b's courier is refused and lets go
    at once, and a delivers b's entry too (told by b's change notice, or when it lets go)."""
    a, b, _ = stores
    game_id = await running_game(a)
    await a.published([entry.id for entry in await a.pending_publications()])
    holder, other = outbox_of(a), outbox_of(b)
    holder.follow_other_processes()
    slow = asyncio.Event()
    perform = Courier.perform

    async def held_up(self: Courier, lane: str, ops: list) -> None:
        if self.outbox is holder:
            await slow.wait()
        await perform(self, lane, ops)

    monkeypatch.setattr(Courier, "perform", held_up)
    first = await commit(a, game_id)
    holder.deliver([first])
    await eventually(lambda: game_id in holder.couriers and holder.couriers[game_id].token)
    second = await commit(b, game_id)
    other.deliver([second])
    await eventually(lambda: not other.couriers)
    assert deliveries == [], "b's courier delivered while a's held the game"
    slow.set()
    await all_idle([holder, other], a)
    origins = {entry: origin for origin, _, ids in deliveries for entry in ids}
    assert origins == {first.id: a.origin, second.id: a.origin}
    await holder.close()
    await other.close()


# ---------------------------------------------------------------------- the turn clock and AI


class StoppedClock:
    """The turn clock's time, standing still: a deadline in the past fires at once, one in the
    future never does (the test ends first)."""

    def __init__(self) -> None:
        self.time = utcnow()

    def now(self):  # type: ignore[no-untyped-def]
        return self.time

    async def sleep_until(self, when) -> None:  # type: ignore[no-untyped-def]
        if when > self.time:
            await asyncio.Event().wait()


def process(store: Store) -> SimpleNamespace:
    """What the turn clock, the AI and the move pipeline of one process use."""
    bot = SimpleNamespace(
        store=store,
        registry=REGISTRY,
        settings=Settings(ai_workers=0, ai_pause_seconds=0.0, ai_max_ms=50),
        delivered=[],
    )
    bot.outbox = SimpleNamespace(deliver=lambda entries, shown=(): bot.delivered.extend(entries))
    # Only what this test's turns reach: no lobby, publisher, languages, forced moves or
    # seat handover (a human's turn here is the clock's, and no game ends).
    unused: Any = None
    common: dict[str, Any] = {
        "store": store,
        "registry": REGISTRY,
        "outbox": bot.outbox,
        "locks": GameLocks(),
    }
    bot.autoplay = Autoplay(settings=bot.settings, **common)
    bot.clock = TurnClock(
        settings=bot.settings,
        languages=unused,
        publisher=unused,
        autoplay=bot.autoplay,
        time=StoppedClock(),
        **common,
    )
    bot.moves = MoveFlow(
        publisher=unused, clock=bot.clock, lobby=unused, autoplay=bot.autoplay, **common
    )
    bot.autoplay.drive(bot.moves, bot.clock, forced=unused, handover=unused)
    bot.searches = 0
    decide = bot.autoplay.pool.decide

    async def counted(request: dict) -> dict:
        bot.searches += 1
        return await decide(request)

    bot.autoplay.pool.decide = counted
    return bot


async def timed_kami_game(store: Store) -> int:
    """A two-player Kami game with a 2-minute turn clock whose first deadline has passed."""
    lobby = await new_lobby(store)
    await join(store, lobby.id, 2)
    await store.set_turn_clock(lobby.id, 120, expected_version=(await store.game(lobby.id)).version)
    game = REGISTRY["kami"]
    state = game.new_state(2, 11, {option.name: option.default for option in game.options})
    await store.start(
        lobby.id,
        expected_version=(await store.game(lobby.id)).version,
        seed=11,
        state=state.to_json(),
        publication=Publication(START, {"hands": [0, 1], "fresh": [0, 1]}),
        opening_events=list(state.opening_events),
        deadline=utcnow() - timedelta(seconds=1),
    )
    return lobby.id


async def test_a_passed_deadline_is_played_once_by_three_processes(stores: list[Store]) -> None:
    game_id = await timed_kami_game(stores[0])
    processes = [process(store) for store in stores]
    loaded = [await load_game(p.store, REGISTRY, game_id) for p in processes]
    for p, game in zip(processes, loaded, strict=True):
        p.clock.watch(game)  # every process times the turn (each ran its start-up, say)
    await eventually(lambda: sum(len(p.delivered) for p in processes) >= 1)
    await asyncio.sleep(0.3)  # time for a second (wrong) move to show up
    assert sum(p.searches for p in processes) == 1, "the turn was searched more than once"
    assert sum(len(p.delivered) for p in processes) == 1, "the move was published twice"
    async with stores[0].engine.connect() as connection:
        moves = (
            await connection.execute(
                text("SELECT version, events FROM moves WHERE game_id = :g AND version > 1"),
                {"g": game_id},
            )
        ).all()
    assert [version for version, _ in moves] == [2]
    assert moves[0].events[0]["type"] == "autoplay", "the AI stood in for the absent player"
    for p in processes:
        p.clock.close()
        await p.autoplay.close()


async def test_an_ai_turn_is_searched_by_one_process_only(stores: list[Store]) -> None:
    game_id = await running_game(stores[0])
    version = (await stores[0].game(game_id)).version
    tokens = await asyncio.gather(
        *(store.claim(game_id, claims.TURN, version=version, lease=60) for store in stores)
    )
    assert len([token for token in tokens if token]) == 1
    # Not for a turn the game is not at; a new turn is free at once, whatever the old lease.
    assert await stores[1].claim(game_id, claims.TURN, version=version + 1, lease=60) is None
    await commit(stores[0], game_id)
    assert await stores[1].claim(game_id, claims.TURN, version=version + 1, lease=60)


async def test_a_lobby_expiry_ends_only_a_lobby(stores: list[Store]) -> None:
    """Every process times every lobby; one that another process started is not ended."""
    game_id = await running_game(stores[0])
    with pytest.raises(StorageConflict):
        await stores[1].end(game_id, GameStatus.EXPIRED, only_from=GameStatus.LOBBY)
    assert (await stores[1].game(game_id)).status == GameStatus.ACTIVE


async def test_a_turn_whose_process_stalled_mid_search_is_played_by_another(
    stores: list[Store], monkeypatch
) -> None:
    """a claims the turn at the deadline and stalls searching (still running: its lock is
    held); once the claim lapsed, b's sweep finds the quiet game and plays the turn."""
    game_id = await timed_kami_game(stores[0])
    dead, survivor = stores[0], process(stores[1])
    version = (await dead.game(game_id)).version
    assert await dead.claim(game_id, claims.TURN, version=version, lease=0.3)
    monkeypatch.setattr(autoplay_module, "TURN_LEASE_SECONDS", 0.3)
    assert await survivor.autoplay.sweep() == 0, "a live claim is left alone"
    await asyncio.sleep(0.5)
    assert await survivor.autoplay.sweep() == 1
    await eventually(lambda: len(survivor.delivered) == 1)
    assert survivor.searches == 1
    assert (await stores[1].game(game_id)).version == version + 1
    survivor.clock.close()
    await survivor.autoplay.close()


async def test_a_courier_whose_claim_fails_asks_again(
    stores: list[Store], deliveries: list, monkeypatch
) -> None:
    a = stores[0]
    game_id = await running_game(a)
    await a.published([entry.id for entry in await a.pending_publications()])
    entry = await commit(a, game_id)
    claim_outbox, failures = a.claim_outbox, []

    async def flaky(game: int, *, lease: float):  # type: ignore[no-untyped-def]
        if not failures:
            failures.append(game)
            raise ConnectionResetError("the database went away for a moment")
        return await claim_outbox(game, lease=lease)

    monkeypatch.setattr(a, "claim_outbox", flaky)
    outbox = Outbox(SimpleNamespace(store=a), delete_after=0.01, retry_base=0.01)  # type: ignore[arg-type]
    outbox.deliver([entry])
    await all_idle([outbox], a)
    assert failures == [game_id]
    assert [(origin, ids) for origin, _, ids in deliveries] == [(a.origin, [entry.id])]
    await outbox.close()


# ---------------------------------------------------------------------- liveness of claim owners

HOLDER = textwrap.dedent(
    """
    import asyncio, sys
    from bot.outbox.entries import RESYNC, Publication
    from bot.storage import claims
    from bot.storage.repository import Store

    async def main(url, game_id, version):
        store = await Store.open(url)
        assert store.alive
        delivering = await store.claim(game_id, claims.OUTBOX, lease=600)
        searching = await store.claim(game_id, claims.TURN, version=version, lease=600)
        entry = await store.publish(game_id, Publication(RESYNC))
        print("held" if delivering and searching else "refused", entry.id, flush=True)
        await asyncio.Event().wait()  # at work until killed

    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
    """
)
"""A process that claims a game's outbox and its turn for ten minutes, writes an outbox entry
and stays at work until it is killed."""


async def wait_until_true(check: Any, seconds: float = 5.0) -> float:
    """Await ``check()`` until it is true; how long that took (fails after ``seconds``)."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    while not await check():
        assert loop.time() - started < seconds, f"still false after {seconds} s"
        await asyncio.sleep(0.01)
    return loop.time() - started


async def live_advisory_keys(store: Store) -> set[int]:
    async with store.engine.connect() as connection:
        rows = await connection.execute(text(f"SELECT * FROM {claims.liveness.LIVE_KEYS} AS k"))
        return {row[0] for row in rows}


async def liveness_key(store: Store, origin: str) -> int:
    async with store.engine.connect() as connection:
        key = claims.liveness.KEY.format(owner=":origin")
        return (await connection.execute(text(f"SELECT {key}"), {"origin": origin})).scalar_one()


async def test_a_killed_processs_claims_are_free_at_once_and_a_live_ones_are_not(
    database: str, stores: list[Store], deliveries: list, monkeypatch
) -> None:
    """A real process claims a game's outbox and its turn for ten minutes and writes an outbox
    entry. While it runs, no other store takes either claim and no sweep sees the entry. Killed
    with SIGKILL, its claims are free at once (its sessions end with it): the sweep of another
    store delivers its entry, however young, and another store plays the turn it claimed."""
    b, c, _ = stores
    game_id = await timed_kami_game(b)
    await b.published([entry.id for entry in await b.pending_publications()])
    version = (await b.game(game_id)).version
    holder = await asyncio.create_subprocess_exec(
        sys.executable, "-c", HOLDER, database, str(game_id), str(version),
        cwd=ROOT, stdout=subprocess.PIPE,
    )  # fmt: skip
    try:
        assert holder.stdout is not None
        said = (await asyncio.wait_for(holder.stdout.readline(), 60)).decode().split()
        assert said[0] == "held", said
        entry_id = int(said[1])
        survivor, player = outbox_of(b), process(c)
        monkeypatch.setattr(autoplay_module, "TURN_LEASE_SECONDS", 600)

        # Alive: its claims are its own, whatever the others ask.
        assert await b.claim(game_id, claims.OUTBOX, lease=30) is None
        assert await c.claim(game_id, claims.TURN, version=version, lease=60) is None
        assert await b.pending_publications(unclaimed=True) == []
        swept = await b.pending_publications(older_than=dispatch_module.SWEEP_AGE, unclaimed=True)
        assert swept == []
        assert await survivor.sweep() == 0
        assert await c.quiet_games(timedelta(seconds=60)) == []
        assert await player.autoplay.sweep() == 0

        holder.kill()
        await holder.wait()
    finally:
        if holder.returncode is None:
            holder.kill()
            await holder.wait()

    async def freed() -> bool:
        return [e.id for e in await b.pending_publications(unclaimed=True)] == [entry_id]

    waited = await wait_until_true(freed)
    assert waited < 2.0, f"the dead process's claim was free only after {waited:.2f} s"
    # Another live store's sweep takes the young entry over, and another plays the turn.
    assert await survivor.sweep() == 1
    await survivor.idle()
    assert [(origin, ids) for origin, _, ids in deliveries] == [(b.origin, [entry_id])]
    assert await c.quiet_games(timedelta(seconds=60)) == [game_id]
    assert await player.autoplay.sweep() == 1
    await eventually(lambda: len(player.delivered) == 1)
    assert player.searches == 1
    assert (await c.game(game_id)).version == version + 1
    player.clock.close()
    await player.autoplay.close()
    await survivor.close()


async def test_a_store_whose_listening_connection_was_cut_holds_its_claims_again(
    stores: list[Store],
) -> None:
    """The liveness lock lives on the listening connection: cut, the feed listens again and
    takes the lock again, and the store's claims are its own once more."""
    a, b, _ = stores
    game_id = await running_game(a)
    assert await a.claim(game_id, claims.OUTBOX, lease=30)
    assert a.alive and await liveness_key(a, a.origin) in await live_advisory_keys(b)
    feed = a._feed
    assert feed is not None and feed._connection is not None
    cut = feed._connection.get_server_pid()
    async with b.engine.connect() as connection:
        await connection.execute(text("SELECT pg_terminate_backend(:p, 5000)"), {"p": cut})

    async def alive_again() -> bool:
        connection = feed._connection
        return a.alive and connection is not None and connection.get_server_pid() != cut

    await wait_until_true(alive_again)
    assert await b.claim(game_id, claims.OUTBOX, lease=30) is None


async def test_a_store_waits_for_its_previous_session_to_let_its_lock_go(
    database: str, stores: list[Store]
) -> None:
    """A re-opened listening connection whose store's lock is still held by another session
    (the previous connection, not yet seen closed by the server) takes it once that session
    ends; meanwhile the store counts as running, since its lock is held."""
    a, b, _ = stores
    game_id = await running_game(a)
    assert await a.claim(game_id, claims.OUTBOX, lease=30)
    lingering = await asyncpg.connect(database.replace("postgresql+asyncpg", "postgresql"))
    try:
        feed = a._feed
        assert feed is not None and feed._connection is not None
        old = feed._connection
        # Another session waits for the lock: it holds it the moment the old connection ends.
        queued = asyncio.create_task(claims.liveness.wait(lingering, a.origin))
        await asyncio.sleep(0.2)
        old.terminate()
        await asyncio.wait_for(queued, 5)

        async def relistening() -> bool:
            return feed.listening and feed._connection is not old

        await wait_until_true(relistening)
        assert not a.alive, "the lock is another session's"
        assert await b.claim(game_id, claims.OUTBOX, lease=30) is None, "a is still running"
        await lingering.close()

        async def alive() -> bool:
            return a.alive

        await wait_until_true(alive)
        assert await b.claim(game_id, claims.OUTBOX, lease=30) is None
    finally:
        await lingering.close()


async def test_processes_on_one_database_count_each_other_to_share_discords_budget(
    stores: list[Store],
) -> None:
    """Each process takes its part of GLOBAL_REQUESTS_PER_SECOND: they count each other
    through PostgreSQL; one that stops cleanly leaves at once, one that died (its liveness lock
    gone and its row stale) is no longer counted."""
    from bot.storage import budget_shares

    first, second, third = stores
    assert await budget_shares.processes_sharing(first) == 1
    assert await budget_shares.processes_sharing(second) == 2
    assert await budget_shares.processes_sharing(third) == 3
    assert await budget_shares.processes_sharing(first) == 3
    await budget_shares.leave(second)
    assert await budget_shares.processes_sharing(first) == 2
    # a process that died long ago: no liveness lock, a stale row
    async with first.engine.begin() as connection:
        await connection.execute(
            text(
                "INSERT INTO budget_shares VALUES ('gone', now() - interval '1 hour'),"
                " ('new', now())"
            )
        )
    assert await budget_shares.processes_sharing(first) == 3  # 'new' may still be starting
    async with first.engine.connect() as connection:
        left = await connection.scalar(text("SELECT count(*) FROM budget_shares"))
    assert left == 3  # the dead one's row is gone
