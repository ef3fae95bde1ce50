"""SIGTERM and SIGINT stop the bot cleanly: no traceback, commits finished, exit status 0.

systemd, Docker and every host stop a process with SIGTERM (and kill it ~10 s later); Ctrl-C
sends SIGINT. The bot then stops taking clicks, lets those in progress finish, leaves what it
has not yet shown in the outbox, and says so in one line.
"""

from __future__ import annotations

import asyncio
import random
import signal
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
    play_until_version,
    shown_version,
    versions_rendered,
)

from .test_glory_bot import stored_games


async def stop_with(bot: BotProcess, signal_number: int) -> int:
    assert bot.process is not None
    bot.process.send_signal(signal_number)
    return await asyncio.wait_for(bot.process.wait(), timeout=15)


def assert_stopped_cleanly(bot: BotProcess, signal_name: str) -> None:
    log = bot.log_path.read_text(errors="replace")
    assert "Traceback" not in log and " ERROR " not in log, log[-3000:]
    assert log.count(f"stopped cleanly on {signal_name}") == 1


@pytest.mark.parametrize("signal_number", [signal.SIGTERM, signal.SIGINT])
async def test_a_stop_signal_ends_the_bot_cleanly(
    emulator: Emulator, tmp_path: Path, signal_number: int
) -> None:
    players = [emulator.add_actor(name) for name in ("alice", "bob")]
    async with glory_bot(emulator, tmp_path) as bot:
        table = await open_and_start(emulator, players, "kami")
        await play_until_version(table, 4, random.Random("stop"))
        assert await stop_with(bot, signal_number) == 0
        assert_stopped_cleanly(bot, signal.Signals(signal_number).name)
        assert emulator.gateway.stats.identifies == 1


def table_move(table: Table) -> int:
    return shown_version(table.current_message())


async def test_sigterm_in_a_burst_keeps_every_answered_move_and_delivers_the_rest_later(
    emulator: Emulator, tmp_path: Path
) -> None:
    rng = random.Random("sigterm-burst")
    async with glory_bot(emulator, tmp_path) as bot:
        tables = []
        for number in range(4):
            channel = emulator.channel if number == 0 else await emulator.add_channel(f"t{number}")
            players = [emulator.add_actor(f"p{number}{seat}") for seat in range(2)]
            tables.append(await open_and_start(emulator, players, "kami", channel=channel))
        for table in tables:
            await play_until_version(table, 3, rng)
        # Discord is slow: edits take 8 s, so the tables' updates of the next moves are still
        # undelivered when the bot stops; and answers take 1 s, so the last clicks are still
        # being answered when it is told to stop.
        emulator.faults.delay("PATCH", CHANNEL_MESSAGE, 8.0)
        for table in tables:
            await play_until_version(table, table.version() + 1, rng)
        emulator.faults.delay("POST", INTERACTION_CALLBACK, 1.0)
        answered_before = len(emulator.calls("POST", "/callback"))
        clicks = []
        for table in tables:
            mover = next(p for p in table.players if live_hand(p) is not None)
            clicks.append(asyncio.create_task(act_randomly(mover, rng)))
        await emulator.wait_for(
            lambda: len(emulator.calls("POST", "/callback")) >= answered_before + len(tables),
            timeout=5,
            what="the bot answering the clicks",
        )
        assert await stop_with(bot, signal.SIGTERM) == 0
        answered = await asyncio.gather(*clicks, return_exceptions=True)
        assert all(not isinstance(a, BaseException) for a in answered), answered
        assert_stopped_cleanly(bot, "SIGTERM")
        emulator.faults.clear()

        # Every version a player was shown is stored.
        stored = stored_games(tmp_path / "glory.db")
        everyone = [player for table in tables for player in table.players]
        for game_id, versions in versions_rendered(everyone).items():
            assert max(versions) <= stored[game_id][1]

        await bot.start()
        await bot.wait_ready(emulator)
        await emulator.wait_for(
            lambda: "left by the last run" in bot.log_path.read_text(errors="replace"),
            timeout=10,
            what="the restarted bot resuming the outbox",
        )
        # Nobody clicks: what the stop left undelivered is shown after the restart.
        for table in tables:
            game_id = int(table.hand_custom_id.split(":")[-1])
            version = stored[game_id][1]
            await emulator.wait_for(
                lambda table=table, version=version: table_move(table) == version,
                timeout=15,
                what=f"game {game_id}'s table at version {version}",
            )
        for table in tables:
            await play_until_version(table, table.version() + 2, rng)
