"""A change notifier so tests can await "the state becomes X" with a hard timeout."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class WaitTimeout(AssertionError):
    """The awaited condition did not become true in time (an assertion failure in a test)."""


class ChangeNotifier:
    """Wakes every waiter whenever the emulator's state changes; waiters re-check a predicate.

    One shared event (swapped on each change) is cheaper than a condition per record and
    cannot miss a wake-up: a waiter re-evaluates its predicate before each wait. Waiters also
    re-check every ``POLL_SECONDS`` so predicates on state outside the emulator (a bot's
    ``is_ready()``, a subprocess) work too.
    """

    POLL_SECONDS = 0.02

    def __init__(self) -> None:
        self._event = asyncio.Event()
        self.listeners: list[Callable[[], None]] = []
        """Called on every change (the playground's page feed); each must be quick."""

    def changed(self) -> None:
        event, self._event = self._event, asyncio.Event()
        event.set()
        for listener in self.listeners:
            listener()

    async def wait_for(
        self, predicate: Callable[[], T | None], *, timeout: float, what: str = "condition"
    ) -> T:
        """Return the first truthy value of ``predicate()``; raise WaitTimeout after ``timeout``."""
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise WaitTimeout(f"timed out after {timeout:.1f}s waiting for {what}")
            try:
                await asyncio.wait_for(self._event.wait(), min(remaining, self.POLL_SECONDS))
            except TimeoutError:
                continue
