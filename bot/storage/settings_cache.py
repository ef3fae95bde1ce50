"""Yes/no settings of servers, read from the store once and then kept.

Why: a table's picture depends on its server's setting (``/settings images``), a replay on
another (``/settings replays``), and a click's answer must not wait for the database to learn
them again. With one process every change goes through this process, which records it at once
(``remember``, ``forget``), so what is kept is never read again. With several processes
another one may change a setting (servers have no change notices, unlike games and users,
which the store keeps itself): a value older than ``trusted_for`` is read again, but in the
background, and the message being built uses the value known until then (one message late at
most). A read waited for at 300 clicks/s, through the database's thread behind a busy event
loop, took 20–80 ms (``benchmarks/bot_load.py``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

from bot.storage.cache import LruCache

log = logging.getLogger(__name__)

K = TypeVar("K", bound=Hashable)

TRUSTED_SECONDS = 30.0
"""How long a value read or recorded here is used before it is read again."""


class SettingsCache(Generic[K]):
    """One setting per key (a server), as ``read(key)`` gives it."""

    def __init__(
        self,
        read: Callable[[K], Awaitable[bool]],
        *,
        changes_elsewhere: Callable[[], bool] = lambda: True,
        trusted_for: float = TRUSTED_SECONDS,
        size: int = 10_000,
    ) -> None:
        """``changes_elsewhere``: whether other processes may change the settings (then a
        value older than ``trusted_for`` is read again)."""
        self._read = read
        self._changes_elsewhere = changes_elsewhere
        self.trusted_for = trusted_for
        self._known: LruCache[K, tuple[float, bool]] = LruCache(size)
        self._reading: dict[K, asyncio.Future[bool]] = {}

    def known(self, key: K) -> bool | None:
        """The value in memory however old (an old one is read again meanwhile), or
        ``None`` if it was never read."""
        entry = self._known.get(key)
        if entry is None:
            return None
        old = time.monotonic() - entry[0] >= self.trusted_for
        if old and key not in self._reading and self._changes_elsewhere():
            self._start_reading(key).add_done_callback(_log_failure)
        return entry[1]

    async def get(self, key: K) -> bool:
        """The value, read first if it was never read (concurrent callers share one read)."""
        known = self.known(key)
        if known is not None:
            return known
        reading = self._reading.get(key) or self._start_reading(key)
        return await asyncio.shield(reading)

    def remember(self, key: K, value: bool) -> None:
        """A value this process has just stored (a read under way began before it: what it
        brings is not kept)."""
        self._reading.pop(key, None)
        self._known.put(key, (time.monotonic(), value))

    def forget(self, key: K) -> None:
        self._reading.pop(key, None)
        self._known.pop(key)

    def _start_reading(self, key: K) -> asyncio.Future[bool]:
        reading = asyncio.ensure_future(self._read_and_keep(key))
        self._reading[key] = reading

        def finished(done: asyncio.Future[bool]) -> None:
            if self._reading.get(key) is done:
                del self._reading[key]

        reading.add_done_callback(finished)
        return reading

    async def _read_and_keep(self, key: K) -> bool:
        try:
            value = await self._read(key)
        except Exception:
            entry = self._known.get(key)
            if entry is not None and self._still_reading(key):
                # keep the old value for another while, not one read a use
                self._known.put(key, (time.monotonic(), entry[1]))
            raise
        if self._still_reading(key):
            self._known.put(key, (time.monotonic(), value))
        return value

    def _still_reading(self, key: K) -> bool:
        """Whether the running read is still the one for ``key`` (``remember`` and ``forget``
        drop a read that began before them)."""
        return self._reading.get(key) is asyncio.current_task()


def _log_failure(refresh: asyncio.Future[bool]) -> None:
    """A read again in the background failed: the old value stays in use meanwhile."""
    if not refresh.cancelled() and (error := refresh.exception()) is not None:
        log.warning("a setting could not be read again: %r", error)
