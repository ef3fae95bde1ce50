"""Servers' settings kept in memory: read once, never waited for again, and with other
processes read again in the background."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.storage.settings_cache import SettingsCache


class Stored:
    """A stand-in for the store: a value per key, each read counted, reads that can be held."""

    def __init__(self) -> None:
        self.values: dict[int, bool] = {}
        self.reads = 0
        self.gate = asyncio.Event()
        self.gate.set()
        self.failing = False

    async def read(self, key: int) -> bool:
        self.reads += 1
        await self.gate.wait()
        if self.failing:
            raise ConnectionError("the database is gone")
        return self.values.get(key, True)


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_a_setting_is_read_once_and_then_served_from_memory() -> None:
    stored = Stored()
    stored.values[1] = False
    cache = SettingsCache(stored.read)
    assert cache.known(1) is None
    assert await cache.get(1) is False
    assert await cache.get(1) is False
    assert cache.known(1) is False
    assert stored.reads == 1


async def test_callers_asking_together_for_an_unknown_setting_share_one_read() -> None:
    stored = Stored()
    stored.gate.clear()
    cache = SettingsCache(stored.read)
    waiting = [asyncio.ensure_future(cache.get(7)) for _ in range(5)]
    await settle()
    stored.gate.set()
    assert await asyncio.gather(*waiting) == [True] * 5
    assert stored.reads == 1


async def test_an_old_setting_is_used_at_once_while_it_is_read_again() -> None:
    stored = Stored()
    cache = SettingsCache(stored.read, trusted_for=0.0)
    assert await cache.get(3) is True
    stored.values[3] = False  # another process turned it off
    stored.gate.clear()  # and the database is slow
    assert await asyncio.wait_for(cache.get(3), timeout=1) is True  # nobody waits
    assert cache.known(3) is True  # one read again is under way, not one per use
    assert stored.reads == 2
    stored.gate.set()
    await settle()
    assert cache.known(3) is False


async def test_a_setting_that_cannot_be_read_again_keeps_its_value_and_says_so(caplog) -> None:
    stored = Stored()
    cache = SettingsCache(stored.read, trusted_for=0.0)
    assert await cache.get(4) is True
    stored.failing = True
    with caplog.at_level(logging.WARNING, logger="bot.storage.settings_cache"):
        assert cache.known(4) is True
        await settle()
    assert "could not be read again" in caplog.text
    assert cache.known(4) is True


async def test_an_unknown_setting_that_cannot_be_read_fails_its_caller() -> None:
    stored = Stored()
    stored.failing = True
    cache = SettingsCache(stored.read)
    with pytest.raises(ConnectionError):
        await cache.get(5)
    stored.failing = False
    assert await cache.get(5) is True  # the next use tries again


async def test_with_no_other_process_a_setting_kept_is_never_read_again() -> None:
    stored = Stored()
    cache = SettingsCache(stored.read, changes_elsewhere=lambda: False, trusted_for=0.0)
    assert await cache.get(8) is True
    stored.values[8] = False  # only this process writes: it would have said so (remember)
    assert cache.known(8) is True
    await settle()
    assert stored.reads == 1


async def test_a_change_made_here_is_used_at_once_and_a_forgotten_one_is_read_again() -> None:
    stored = Stored()
    cache = SettingsCache(stored.read)
    cache.remember(6, False)
    assert await cache.get(6) is False
    assert stored.reads == 0
    cache.forget(6)
    assert await cache.get(6) is True
    assert stored.reads == 1


async def test_a_read_that_began_before_a_change_does_not_undo_it() -> None:
    stored = Stored()
    stored.gate.clear()
    cache = SettingsCache(stored.read)
    first_use = asyncio.ensure_future(cache.get(9))
    await settle()  # the read has begun and sees the old value (shown)
    cache.remember(9, False)  # /settings turns it off meanwhile
    stored.gate.set()
    assert await first_use is True  # that one message still went out with the old value
    await settle()
    assert cache.known(9) is False
    assert await cache.get(9) is False
    assert stored.reads == 1
