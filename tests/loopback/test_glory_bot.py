"""Process-level tests of the real bot (``python -m bot``) against the emulator.

Players act only through Discord: ``/play``, lobby buttons, and the menus in their hands.
The bot runs as its own process on a SQLite file; it is killed with SIGKILL mid-game and
restarted on the same file, loses its gateway, and meets 429s and 500s.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import json
import random
import re
import sqlite3
from pathlib import Path

import pytest

from bot.loopback import Emulator
from bot.loopback.bot_process import BotProcess, glory_bot
from bot.loopback.faults import CHANNEL_MESSAGE, INTERACTION_CALLBACK
from bot.loopback.ui_players import (
    Table,
    act_randomly,
    live_hand,
    open_and_start,
    play_to_end,
    play_until_version,
    versions_rendered,
)
from games import REGISTRY

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("bot.app") is None, reason="the bot is not written yet"
)

GAMES = ("kami", "call_to_glory", "clans_and_glory")


def database_url(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'glory.db'}"


LOG_RECORD_START = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", re.MULTILINE)


async def assert_clean_log(bot: BotProcess, emulator: Emulator) -> None:
    """No error or traceback in the bot's log, and no route the emulator lacks.

    Waits a moment first: discord.py raises some errors only after the callback was sent,
    so the emulator can see the answer before the bot logs the failure.
    """
    await asyncio.sleep(0.3)
    log = bot.log_path.read_text(errors="replace")
    errors = [r for r in LOG_RECORD_START.split(log) if " ERROR " in r or "Traceback" in r]
    assert not errors, "\n".join(errors)[-4000:]
    assert emulator.unhandled == []


@pytest.mark.parametrize("game", GAMES)
async def test_game_survives_kill_9(emulator: Emulator, tmp_path: Path, game: str) -> None:
    players = [emulator.add_actor(name) for name in ("alice", "bob", "carol")]
    rng = random.Random(f"{game}-7")
    async with glory_bot(emulator, tmp_path) as bot:
        table = await open_and_start(emulator, players, game)
        await play_until_version(table, 4, rng)
        before_crash = table.version()

        await bot.kill()
        await bot.start()
        await bot.wait_ready(emulator)

        # Only hands rendered before the crash exist; playing on proves old buttons work.
        await play_until_version(table, before_crash + 3, rng)
        await assert_clean_log(bot, emulator)


QUICK_GAME_OPTIONS = {"call_to_glory": "rounds=1"}
"""``/play``'s ``options`` text for complete games: Call to Glory's one-round quick game (a
random-clicking four-round game needs ~2,400 menu actions, one round about 500-800)."""


@pytest.mark.parametrize("game", GAMES)
async def test_complete_game_ends_with_a_final_table_and_no_live_hands(
    emulator: Emulator, tmp_path: Path, game: str
) -> None:
    """A whole game through Discord only; the table ends without controls, hands are final,
    and every message the bot deleted was deleted once (a finished game used to delete each
    seat's last replaced hand DM a second time: a 404 and a wasted request each)."""
    players = [emulator.add_actor(name) for name in ("alice", "bob", "carol")]
    async with glory_bot(emulator, tmp_path) as bot:
        options = QUICK_GAME_OPTIONS.get(game)
        table = await open_and_start(emulator, players, game, options=options)
        steps = await play_to_end(table, random.Random(f"{game}-end"))
        assert steps > 10
        assert not table.message.components
        assert all(live_hand(player) is None for player in players)
        if game == "call_to_glory":  # the one-round game asked for in /play, over after it
            from bot.i18n import t

            only_round = t("call_to_glory.view.round", "en-US", round=1, total=1)
            assert only_round in table.message.embeds[0]["description"]
        await assert_clean_log(bot, emulator)
    deletions = [call for call in emulator.calls("DELETE") if "/messages/" in call.path]
    assert deletions
    assert [call.status for call in deletions if call.status != 204] == []
    assert len({call.path for call in deletions}) == len(deletions)


async def test_gateway_and_rest_faults_mid_game(emulator: Emulator, tmp_path: Path) -> None:
    """Drop, RESUME, 429, 500 and a re-IDENTIFY mid-game: every click answered exactly once."""
    players = [emulator.add_actor(name) for name in ("alice", "bob", "carol")]
    rng = random.Random("faults")
    async with glory_bot(emulator, tmp_path) as bot:
        table = await open_and_start(emulator, players, "clans_and_glory")
        await play_until_version(table, 2, rng)

        await emulator.gateway.drop(code=4000)  # the next clicks are replayed after RESUME
        await play_until_version(table, 3, rng)
        assert emulator.gateway.stats.resumes == 1
        assert emulator.gateway.stats.replayed_frames >= 1

        limited = emulator.faults.rate_limit(
            "POST", INTERACTION_CALLBACK, retry_after=0.05, times=2
        )
        failed = emulator.faults.fail("PATCH", CHANNEL_MESSAGE, 500, times=1)
        await play_until_version(table, 5, rng)
        # The table shows a burst of moves at most once a second (the courier's pace).
        await emulator.wait_for(lambda: failed.hits, timeout=10, what="the table's edit")
        assert (limited.hits, failed.hits) == (2, 1)

        # discord.py waits 5 s before the new IDENTIFY. A click in that gap would reach the
        # bot more than 3 s late and be refused (10062), as on Discord, where a new session
        # does not even receive it: players click again once the bot is back.
        await emulator.gateway.invalidate_session(resumable=False)
        await emulator.wait_for(
            lambda: emulator.gateway.stats.identifies == 2 and emulator.gateway.connected,
            timeout=15,
            what="the new session",
        )
        await play_until_version(table, 6, rng)

        records = list(emulator.interactions.values())
        assert all(r.acknowledged and not r.rejected_callbacks for r in records)
        assert all(r.deliveries == 1 for r in records)
        await assert_clean_log(bot, emulator)


def stored_games(path: Path) -> dict[int, tuple[str, int, str, object, list[int]]]:
    """What the database file holds per game: key, version, status, state, logged versions.

    Read with plain sqlite3 while the bot is dead, as a restart would find it."""
    with contextlib.closing(sqlite3.connect(path)) as database:
        games = database.execute("SELECT id, game_key, version, status, state FROM games")
        found = {
            game_id: (key, version, status, json.loads(state) if state else None, [])
            for game_id, key, version, status, state in games
        }
        for game_id, version in database.execute(
            "SELECT game_id, version FROM moves ORDER BY game_id, version"
        ):
            found[game_id][4].append(version)
    return found


async def test_kill_9_during_a_burst_of_moves_from_many_games(
    emulator: Emulator, tmp_path: Path
) -> None:
    """SIGKILL while six games click concurrently. The database file then holds every move a
    player saw acknowledged, with an unbroken move log and states the engines load; after a
    restart on it the bot never shows an older state, the old DM buttons play on, and every
    game is played to its end."""
    rng = random.Random("burst")
    async with glory_bot(emulator, tmp_path) as bot:
        tables: list[Table] = []
        for number in range(6):
            players = [emulator.add_actor(f"t{number}p{seat}") for seat in range(3)]
            channel = await emulator.add_channel(f"table-{number}")
            game = GAMES[number % 3]
            options = QUICK_GAME_OPTIONS.get(game)
            tables.append(
                await open_and_start(emulator, players, game, channel=channel, options=options)
            )
        everyone = [player for table in tables for player in table.players]
        answered = 0

        async def keep_clicking(table: Table) -> None:
            nonlocal answered
            for _ in range(1000):  # cancelled by the crash long before
                movers = table.movers()
                if movers:
                    await act_randomly(rng.choice(movers), rng)
                    answered += 1
                else:
                    await asyncio.sleep(0.005)

        burst = [asyncio.create_task(keep_clicking(table)) for table in tables]
        await emulator.wait_for(lambda: answered >= 40, timeout=20, what="40 answered moves")
        await bot.kill()
        for task in burst:
            task.cancel()
        await asyncio.gather(*burst, return_exceptions=True)
        before_crash = versions_rendered(everyone)
        assert len(before_crash) == 6

        stored = stored_games(tmp_path / "glory.db")
        for game_id, shown in before_crash.items():
            key, version, status, state, logged = stored[game_id]
            assert status == "active" and state is not None, f"game {game_id} is no longer running"
            assert version >= max(shown), f"game {game_id}: an acknowledged move was lost"
            assert logged == list(range(1, version + 1)), f"game {game_id}: the move log has gaps"
            loaded = REGISTRY[key].state_from_json(state)
            assert loaded.to_json() == state, f"game {game_id}: the stored state is corrupt"

        await bot.start()
        await bot.wait_ready(emulator)
        for table in tables:
            await play_until_version(table, table.version() + 2, rng)

        after = versions_rendered(everyone)
        for game_id, old_versions in before_crash.items():
            new_versions = after[game_id] - old_versions
            assert new_versions, f"game {game_id} did not move after the restart"
            assert min(new_versions) > max(old_versions), (
                f"game {game_id} went back from {max(old_versions)} to {min(new_versions)}"
            )
        await asyncio.gather(*(play_to_end(table, rng) for table in tables))
        assert all(not table.message.components for table in tables)
        assert all(live_hand(player) is None for player in everyone)
        await assert_clean_log(bot, emulator)
    finished = stored_games(tmp_path / "glory.db")
    assert {finished[game_id][2] for game_id in before_crash} == {"finished"}


async def test_my_hand_when_it_is_not_your_turn(emulator: Emulator, tmp_path: Path) -> None:
    """Regression: "My hand" for a seat without controls once passed ``view=None`` to
    ``send_message``, which discord.py 2.7.1 rejects after sending (interactions.py:1101)."""
    players = [emulator.add_actor(name) for name in ("alice", "bob")]
    async with glory_bot(emulator, tmp_path) as bot:
        table = await open_and_start(emulator, players, "kami")
        waiting = next(p for p in players if live_hand(p) is None)
        custom_id = next(
            c["custom_id"]
            for c in table.message.iter_components()
            if "glory:hand:" in c["custom_id"]
        )
        hand = await (await waiting.click(table.message, custom_id=custom_id)).settled(timeout=10)
        assert hand.ephemeral and hand.embeds and "went wrong" not in str(hand.content)
        await assert_clean_log(bot, emulator)
