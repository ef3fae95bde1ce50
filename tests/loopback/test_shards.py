"""Several real bot processes, one per shard, on one PostgreSQL database (issue 18).

Discord sends a guild's events to the shard of that guild and every DM, and every click in a
DM, to shard 0: here every move is made from a DM, so the process of shard 0 makes the moves
of games whose lobby, table and AI seats belong to another process. The rules checked, on the
emulator's record and on the database:

- every game finishes;
- no move is lost or applied twice: the stored moves are versions 1..N of the game, and
  replaying them from the seed gives exactly the stored state;
- no player sees a publication twice: no hand DM is posted twice for one state, and no table
  edit repeats the one before it;
- kill -9 of one process mid-burst: the others carry on, and the restarted one takes its
  shard back.

PostgreSQL only: skipped without ``GLORY_TEST_POSTGRES_URL`` unless ``GLORY_REQUIRE_POSTGRES=1``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import weakref
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.loopback import Actor, Emulator, InteractionRecord, Message
from bot.loopback.bot_process import BotProcess, shard_bots
from bot.loopback.faults import UNLIMITED, RestFault
from bot.loopback.ui_players import (
    HAND_BUTTON,
    Table,
    _custom_ids,
    menu_components,
    open_and_start,
    state_version,
    use_random_control,
)
from bot.storage.engine import normalise_url
from bot.storage.repository import OPENING_SEAT
from games import REGISTRY
from tests.store.postgres import fresh_database

from .test_glory_bot import assert_clean_log

GAME = "clans_and_glory"
"""Two players finish it in about 30 moves, whatever they choose."""
PROCESS_SETTINGS = {
    "AI_WORKERS": "0",
    "AI_PAUSE_SECONDS": "0",
    "AI_MAX_MS": "30",
    "LOG_LEVEL": "INFO",
}
READY_SECONDS = 60.0
WAIT_SECONDS = 15.0
"""How long a player waits for a hand in their DMs before the test calls the game stuck."""


@pytest.fixture
async def database() -> AsyncIterator[str]:
    async with fresh_database() as url:
        yield url


def shard_processes(
    emulator: Emulator, tmp_path: Path, database: str, count: int
) -> contextlib.AbstractAsyncContextManager[list[BotProcess]]:
    return shard_bots(
        emulator, tmp_path, database, count, settings=PROCESS_SETTINGS, ready_timeout=READY_SECONDS
    )


# -- players who move only from their DMs ------------------------------------------------------

_abandoned: weakref.WeakKeyDictionary[Actor, set[int]] = weakref.WeakKeyDictionary()


def dm_hand(actor: Actor) -> Message | None:
    """The usable menu in the player's DMs rendered for the newest state (hands, and the
    ephemeral answers given in the DM)."""
    abandoned = _abandoned.get(actor, set())
    usable = [m for m in actor.dms if m.id not in abandoned and menu_components(m)]
    return max(usable, key=lambda m: (state_version(m), m.id), default=None)


async def act_from_dm(actor: Actor, rng: random.Random) -> InteractionRecord | None:
    hand = dm_hand(actor)
    if hand is None:
        return None
    record = await use_random_control(actor, hand, rng)
    assert record.guild_id is None  # a DM: Discord sends it to shard 0
    await record.response(timeout=10)
    if record.response_message_id != hand.id:
        _abandoned.setdefault(actor, set()).add(hand.id)
    return record


async def play_from_dms(
    table: Table,
    rng: random.Random,
    clicks: list[InteractionRecord],
    *,
    until_version: int | None = None,
    max_steps: int = 600,
) -> None:
    """Random moves from the players' DMs until the game ends (or a hand shows
    ``until_version``); every click is kept in ``clicks``."""
    emulator = table.emulator

    def movers() -> list[Actor]:
        return [actor for actor in table.players if dm_hand(actor) is not None]

    def reached() -> bool:
        return until_version is not None and table.version() >= until_version

    for _ in range(max_steps):
        if not table.running or reached():
            return
        await emulator.wait_for(
            lambda: movers() or not table.running,
            timeout=WAIT_SECONDS,
            what=f"a hand with controls in a DM (game at state {table.version()})",
        )
        if not table.running:
            return
        record = await act_from_dm(rng.choice(movers()), rng)
        if record is not None:
            clicks.append(record)
    raise AssertionError(f"the game did not end within {max_steps} clicks")


# -- what the database and the emulator must show afterwards --------------------------------


async def stored_games(database: str) -> list[dict[str, Any]]:
    """Every game row with its seats and moves, read straight from PostgreSQL."""
    engine = create_async_engine(normalise_url(database))
    try:
        async with engine.connect() as connection:
            games = (await connection.execute(text("SELECT * FROM games ORDER BY id"))).mappings()
            found = [dict(row) for row in games]
            for game in found:
                seats = await connection.execute(
                    text("SELECT * FROM seats WHERE game_id = :g ORDER BY seat"), {"g": game["id"]}
                )
                moves = await connection.execute(
                    text("SELECT * FROM moves WHERE game_id = :g ORDER BY version"),
                    {"g": game["id"]},
                )
                game["seats"] = [dict(row) for row in seats.mappings()]
                game["moves"] = [dict(row) for row in moves.mappings()]
    finally:
        await engine.dispose()
    return found


def as_json(value: Any) -> Any:
    return json.loads(json.dumps(value if not isinstance(value, str) else json.loads(value)))


def assert_moves_are_the_game(game: dict[str, Any]) -> None:
    """The start is version 1 (its record, when the game opens with events) and the moves are
    versions 2..N, each once; the seed's state with those moves is the stored state."""
    moves = [move for move in game["moves"] if move["seat"] != OPENING_SEAT]
    versions = [move["version"] for move in moves]
    assert versions == list(range(2, game["version"] + 1)), f"game {game['id']}: {versions}"
    engine = REGISTRY[game["game_key"]]
    options = as_json(game["options"])
    state = engine.new_state(len(game["seats"]), game["seed"], options)
    for move in moves:
        state.apply(engine.action_from_json(as_json(move["action"])))
    assert as_json(state.to_json()) == as_json(game["state"]), f"game {game['id']} diverged"
    assert state.is_over


def assert_no_publication_seen_twice(emulator: Emulator, players: list[Actor]) -> None:
    """No hand DM is posted twice for one state of a game, and no table is posted twice.

    (An edit that repeats the table as it was is invisible to the players, so it is not
    counted here; docs/scaling.md says how often it happened.)"""
    for actor in players:
        posted: dict[tuple[int, int], int] = {}
        for message in actor.dms:
            if message.ephemeral:
                continue
            first = message.history[0] if message.history else message
            version = state_version(_revision(first))
            if not version:
                continue
            key = (message.channel_id, version)
            assert key not in posted, (
                f"{actor.user.name} got two DMs for state {version}: {posted[key]} and {message.id}"
            )
            posted[key] = message.id
    for guild in emulator.world.guilds.values():
        for channel_id in guild.channel_ids:
            tables: dict[str, list[int]] = {}
            for message in emulator.messages_in(emulator.world.channels[channel_id]):
                first = message.history[0] if message.history else message
                for custom_id in _custom_ids(first.components):
                    if HAND_BUTTON.match(custom_id):
                        tables.setdefault(custom_id, []).append(message.id)
            twice = {game: ids for game, ids in tables.items() if len(ids) > 1}
            assert not twice, f"tables posted more than once: {twice}"


def _revision(revision: Any) -> Message:
    """A past revision as a message, for ``state_version``."""
    return Message(id=0, channel_id=0, author_id=0, components=revision.components)


def assert_every_click_answered(clicks: list[InteractionRecord]) -> None:
    unanswered = [r.id for r in clicks if not r.acknowledged or r.rejected_callbacks]
    assert not unanswered, f"clicks without a (single) answer: {unanswered}"


# -- the tests -------------------------------------------------------------------------------


async def test_games_on_every_shard_finish_with_every_move_made_from_dms(
    emulator: Emulator, tmp_path: Path, database: str
) -> None:
    """Two processes, two shards, two games in a guild on each shard: one between two people,
    one against the AI (whose turns the processes claim between them). All moves come from
    DMs, so shard 0's process makes them while shard 1's opened the lobbies there."""
    emulator.shard_count = 2
    rng = random.Random("shards")
    games: list[tuple[Any, list[Actor], tuple[str, ...]]] = []
    for shard in (0, 1):
        for opponents in ("people", "ai"):
            guild = await emulator.add_guild(f"{opponents} on shard {shard}", shard=shard)
            assert emulator.shard_of(guild) == shard
            names = [f"{opponents}{shard}{seat}" for seat in "ab"]
            if opponents == "ai":
                names = names[:1]
            players = [emulator.add_actor(name, guilds=(guild,)) for name in names]
            games.append((guild, players, () if opponents == "people" else ("easy",)))
    everyone = [actor for _, players, _ in games for actor in players]
    async with shard_processes(emulator, tmp_path, database, 2) as processes:
        # Each process is healthy once every shard it runs is connected (the health file).
        for shard in (0, 1):
            alive = tmp_path / f"bot-shard-{shard}.alive"
            await emulator.wait_for(alive.exists, timeout=5, what=f"shard {shard}'s health file")
        tables = [
            await open_and_start(emulator, players, GAME, channel=emulator.channel_of(guild), ai=ai)
            for guild, players, ai in games
        ]
        clicks: list[InteractionRecord] = []
        await asyncio.gather(
            *(play_from_dms(table, random.Random(rng.random()), clicks) for table in tables)
        )
        assert all(not table.running for table in tables)
        for process in processes:
            await assert_clean_log(process, emulator)
    assert_every_click_answered(clicks)
    stored = await stored_games(database)
    assert len(stored) == 4 and {game["status"] for game in stored} == {"finished"}
    for game in stored:
        assert_moves_are_the_game(game)
    ai_seats = {(g["id"], s["seat"]) for g in stored for s in g["seats"] if s["ai_level"]}
    ai_moves = [m for g in stored for m in g["moves"] if (g["id"], m["seat"]) in ai_seats]
    assert len(ai_seats) == 2 and ai_moves, "the AI seats played"
    assert_no_publication_seen_twice(emulator, everyone)
    assert emulator.nonces.absorbed == 0, "a message was posted twice (absorbed by its nonce)"
    assert emulator.gateway.stats.dispatched_by_shard[1] > 0
    assert not emulator.refused_payloads


async def press_my_hand(table: Table, actor: Actor, records: list[InteractionRecord]) -> None:
    """Keep pressing "My hand" on the table (a click in the guild: its shard's process answers
    it) until the game ends; unanswered clicks are kept too."""
    emulator = table.emulator
    while table.running:
        record = await actor.click(table.current_message(), custom_id=table.hand_custom_id)
        records.append(record)
        with contextlib.suppress(AssertionError):  # a dead process answers nothing
            await record.response(timeout=1)
        await asyncio.sleep(0.05)
        assert emulator.unhandled == []


async def test_a_killed_process_leaves_the_others_going_and_takes_its_shard_back(
    emulator: Emulator, tmp_path: Path, database: str
) -> None:
    """Three processes, a game on each shard; mid-burst (moves from DMs, "My hand" presses on
    the tables) the process of shard 2 is killed with SIGKILL. The other two go on: every game
    keeps moving, shard 2's included, since its moves arrive on shard 0. Restarted, the process
    answers its guild again, and every game ends with its moves intact."""
    emulator.shard_count = 3
    rng = random.Random("kill")
    games = []
    for shard in range(3):
        guild = await emulator.add_guild(f"shard {shard}", shard=shard)
        players = [emulator.add_actor(f"k{shard}{seat}", guilds=(guild,)) for seat in "ab"]
        games.append((guild, players))
    everyone = [actor for _, players in games for actor in players]
    async with shard_processes(emulator, tmp_path, database, 3) as processes:
        tables = [
            await open_and_start(emulator, players, GAME, channel=emulator.channel_of(guild))
            for guild, players in games
        ]
        clicks: list[InteractionRecord] = []
        presses: list[InteractionRecord] = []
        pressing = asyncio.create_task(press_my_hand(tables[2], games[2][1][0], presses))
        # Every game is brought to state 6 first: a game that runs ahead would end (and show
        # no hand) before the slowest got there, and the kill must land mid-game on all three.
        burst = [
            asyncio.create_task(
                play_from_dms(table, random.Random(rng.random()), clicks, until_version=6)
            )
            for table in tables
        ]
        try:
            await asyncio.wait_for(asyncio.gather(*burst), timeout=60)
            burst = [
                asyncio.create_task(play_from_dms(table, random.Random(rng.random()), clicks))
                for table in tables
            ]
            victim = processes[2]
            await victim.kill()
            killed_at = [table.version() for table in tables]
            await emulator.wait_for(
                lambda: all(
                    t.version() >= v + 4 or not t.running
                    for t, v in zip(tables, killed_at, strict=True)
                ),
                timeout=20,
                what="every game moving on while shard 2's process is dead",
            )
            assert not emulator.gateway.is_connected(2)
            assert all(process.running for process in processes[:2])

            await victim.start()
            await victim.wait_ready(emulator, timeout=READY_SECONDS)
            if tables[2].running:
                back = await games[2][1][1].click(
                    tables[2].current_message(), custom_id=tables[2].hand_custom_id
                )
                await back.response(timeout=10)  # shard 2 is answered again
            await asyncio.gather(*burst)
        finally:
            pressing.cancel()
            for task in burst:
                task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.gather(*burst, pressing, return_exceptions=True)
        assert all(not table.running for table in tables)
        for process in processes:
            await assert_clean_log(process, emulator)
        assert emulator.gateway.stats.identifies_by_shard == {0: 1, 1: 1, 2: 2}
    assert_every_click_answered(clicks)
    answered_presses = [r for r in presses if r.acknowledged]
    assert answered_presses, "shard 2's process answered its guild"
    stored = await stored_games(database)
    assert len(stored) == 3 and {game["status"] for game in stored} == {"finished"}
    for game in stored:
        assert_moves_are_the_game(game)
    assert_no_publication_seen_twice(emulator, everyone)


HOLD_SECONDS = 4.0
"""How long Discord sits on a turn DM before refusing it (the process is killed meanwhile; a
process still alive then would retry it, and be held again)."""
GOES_ON_SECONDS = 10.0
"""A game the killed process was delivering goes on within this long of its restart (the
claims it held last 30 s, so without their liveness the game would wait about that long)."""


async def stored_version(database: str) -> int:
    """The version of the one game in the database."""
    engine = create_async_engine(normalise_url(database))
    try:
        async with engine.connect() as connection:
            return int((await connection.execute(text("SELECT max(version) FROM games"))).scalar())
    finally:
        await engine.dispose()


async def test_a_killed_process_that_was_delivering_a_game_lets_it_go_on_once_restarted(
    emulator: Emulator, tmp_path: Path, database: str
) -> None:
    """Two processes; a game in a guild on shard 1, played from DMs, so shard 0's process makes
    the moves and delivers them, holding the game's outbox claim while it does. Discord sits on
    the next turn DM, and shard 0's process is killed with SIGKILL in the middle of that
    delivery, its claim held with most of its 30 s lease to run. Restarted, the game goes on
    within a few seconds: the dead process's claim is free since its sessions ended."""
    emulator.shard_count = 2
    guild = await emulator.add_guild("killed deliverer", shard=1)
    players = [emulator.add_actor(f"d{seat}", guilds=(guild,)) for seat in "ab"]
    rng = random.Random("deliverer")
    async with shard_processes(emulator, tmp_path, database, 2) as processes:
        table = await open_and_start(emulator, players, GAME, channel=emulator.channel_of(guild))
        clicks: list[InteractionRecord] = []
        await play_from_dms(table, rng, clicks, until_version=4)
        dms = "|".join(str(emulator.world.existing_dm_channel(p.user).id) for p in players)  # type: ignore[union-attr]
        held = emulator.faults.add(
            RestFault(
                "POST", rf"^/channels/({dms})/messages$", 500, times=UNLIMITED, delay=HOLD_SECONDS
            )
        )
        for _ in range(100):  # moves until a turn passes: its DM is held
            await emulator.wait_for(
                lambda: held.hits or [p for p in players if dm_hand(p) is not None],
                timeout=WAIT_SECONDS,
                what="a hand in a DM, or a turn DM held",
            )
            if held.hits:
                break
            record = await act_from_dm(rng.choice([p for p in players if dm_hand(p)]), rng)
            if record is not None:
                clicks.append(record)
        assert held.hits and table.running, "no turn passed before the game ended"
        committed = await stored_version(database)

        def goes_on() -> bool:
            hands = [dm_hand(p) for p in players]
            return any(h is not None and state_version(h) >= committed for h in hands)

        assert not goes_on(), "the game does not wait for the held turn DM"
        deliverer = processes[0]
        await deliverer.kill()
        emulator.faults.clear()
        await deliverer.start()
        await deliverer.wait_ready(emulator, timeout=READY_SECONDS)
        ready = asyncio.get_running_loop().time()
        await emulator.wait_for(goes_on, timeout=45, what=f"a hand of state {committed}")
        waited = asyncio.get_running_loop().time() - ready
        assert waited < GOES_ON_SECONDS, f"the game went on {waited:.1f} s after the restart"
        await play_from_dms(table, rng, clicks)
        for process in processes:
            await assert_clean_log(process, emulator)
        assert emulator.gateway.stats.identifies_by_shard == {0: 2, 1: 1}
    assert_every_click_answered(clicks)
    [game] = await stored_games(database)
    assert game["status"] == "finished"
    assert_moves_are_the_game(game)
    assert_no_publication_seen_twice(emulator, players)
