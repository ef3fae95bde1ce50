"""Group commit: the writes that arrive while a transaction runs share the next one.

Why: a transaction has a fixed cost (round trips to PostgreSQL or to aiosqlite's thread, and
on SQLite one writer at a time), so under load a transaction per move turns that cost into a
queue. Batching keeps the number of transactions down however many clicks arrived together. Each
caller still returns only after *its* write is committed, with its own result (the id of the
outbox entry a move wrote, say), or raises what made it fail.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Generic, TypeVar

T = TypeVar("T")

Outcome = Any
"""What happened to one write: an exception instance if it failed (raised to its caller),
anything else is its result once committed."""


class GroupCommit(Generic[T]):
    """Queues writes; one task at a time runs everything queued as a single batch."""

    def __init__(self, run: Callable[[Sequence[T]], Awaitable[Sequence[Outcome]]]) -> None:
        self._run = run
        self._pending: list[tuple[T, asyncio.Future[Any]]] = []
        self._flusher: asyncio.Task[None] | None = None
        self.batches = 0
        """How many transactions ran (for tests and benchmarks)."""

    async def submit(self, write: T) -> Any:
        """Return ``write``'s result once it is committed; raise its error if it was not."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending.append((write, future))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush())
        return await future

    @property
    def idle(self) -> bool:
        """Nothing queued and no transaction running: a write now would overtake nothing."""
        return not self._pending and (self._flusher is None or self._flusher.done())

    async def drain(self) -> None:
        """Wait until every write submitted so far is committed or failed (for shutdown)."""
        while self._flusher is not None and not self._flusher.done():
            await asyncio.shield(self._flusher)

    async def _flush(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            self.batches += 1
            try:
                outcomes: Sequence[Outcome] = await self._run([write for write, _ in batch])
            except asyncio.CancelledError:
                for _, future in batch:
                    future.cancel()
                raise
            except Exception as error:  # noqa: BLE001 - handed to every waiting caller
                outcomes = [error] * len(batch)
            for (_, future), outcome in zip(batch, outcomes, strict=True):
                if future.done():  # its caller was cancelled; the write still happened
                    continue
                if isinstance(outcome, BaseException):
                    future.set_exception(outcome)
                else:
                    future.set_result(outcome)
