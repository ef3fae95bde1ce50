"""The record of the last command registration (``bot/storage/command_syncs.py``) and the
counts of the health view (``bot/storage/bot_status.py``), on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio

from bot.storage import command_syncs
from bot.storage.bot_status import status_counts
from bot.storage.repository import Store
from tests.store.conftest import join, new_lobby, start
from tests.store.postgres import fresh_database


async def test_a_record_is_kept_per_scope_and_replaced(store) -> None:
    async with command_syncs.exclusive(store.engine) as records:
        assert await records.get("global") is None
        await records.put("global", 11, "a" * 64, 17)
        await records.put("guild:5", 11, "b" * 64, 17)
    async with command_syncs.exclusive(store.engine) as records:
        await records.put("global", 12, "c" * 64, 18)
    async with command_syncs.exclusive(store.engine) as records:
        latest, guild = await records.get("global"), await records.get("guild:5")
    assert latest is not None and (latest.application_id, latest.commands) == (12, 18)
    assert latest.fingerprint == "c" * 64
    assert guild is not None and guild.fingerprint == "b" * 64


async def test_processes_sharing_postgresql_register_one_at_a_time() -> None:
    """Two stores on one PostgreSQL database check the record at once; the advisory lock lets
    one read, "send" and write while the other waits, which then finds the record current:
    one registration, not two."""
    async with fresh_database() as url:
        stores = [await Store.open(url), await Store.open(url)]
        sent: list[int] = []
        inside = 0
        most_inside = 0

        async def check(number: int) -> None:
            nonlocal inside, most_inside
            async with command_syncs.exclusive(stores[number].engine) as records:
                inside += 1
                most_inside = max(most_inside, inside)
                record = await records.get("global")
                if record is None or record.fingerprint != "f" * 64:
                    await asyncio.sleep(0.3)  # the request to Discord
                    sent.append(number)
                    await records.put("global", 1, "f" * 64, 17)
                inside -= 1

        try:
            await asyncio.gather(check(0), check(1))
        finally:
            for store in stores:
                await store.close()
    assert len(sent) == 1 and most_inside == 1


async def test_the_health_counts_come_from_the_database(store) -> None:
    empty = await status_counts(store.engine)
    assert (empty.active_games, empty.lobbies, empty.outbox_entries) == (0, 0, 0)
    assert empty.oldest_entry_seconds is None
    lobby = await new_lobby(store, channel_id=1)
    playing = await new_lobby(store, channel_id=2)
    await join(store, playing.id, 2)
    entry = await start(store, playing.id)
    counts = await status_counts(store.engine)
    assert (counts.active_games, counts.lobbies) == (1, 1)
    assert counts.outbox_entries >= 1 and counts.oldest_entry_seconds is not None
    assert counts.oldest_entry_seconds < 60
    assert lobby.id != entry.game_id
