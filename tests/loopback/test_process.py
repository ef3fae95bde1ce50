"""The emulator against a bot in its own OS process, including ``kill -9`` and restart.

The reference bot stands in for ``python -m bot`` here; the same harness runs the real bot.
"""

from __future__ import annotations

import sys
from pathlib import Path

from bot.loopback import Emulator
from bot.loopback.bot_process import bot_process

REFERENCE_BOT = (sys.executable, "-m", "bot.loopback.reference_bot")


async def test_bot_process_plays_and_survives_kill_9(emulator: Emulator, tmp_path: Path) -> None:
    alice, bob, carol = (emulator.add_actor(n) for n in ("alice", "bob", "carol"))
    log = tmp_path / "bot.log"
    async with bot_process(emulator, log, argv=REFERENCE_BOT) as bot:
        await emulator.wait_for(lambda: emulator.commands.get(None), what="command sync")
        table = await (await alice.slash("table create", seats=3)).settled()
        await (await alice.click(table, label="Join")).response()
        assert table.content == "Table: 1/3 seated"

        await bot.kill()
        lost = await bob.click(table, label="Join")  # Discord would show "interaction failed"
        await bot.start()
        await bot.wait_ready(emulator)
        assert emulator.gateway.stats.identifies == 2
        assert not lost.acknowledged  # a new session does not get the dead session's events

        retry = await (await bob.click(table, label="Join")).response()  # the old button
        assert retry.response_message_id == table.id
        await (await carol.click(table, label="Join")).response()
        assert table.content == "Table: 3/3 seated"
        assert [m.content for m in carol.dms] == ["You took seat 3 of 3."]
    assert not bot.running
