"""Change notices between processes that share a PostgreSQL database (LISTEN/NOTIFY).

Why: the store keeps running games and users in memory and follows its own writes. Another
process's writes it would see only when a compare-and-swap fails, and meanwhile it would
show an old hand, an old table, an old language. So every write of a game or a user, in
shared mode, sends ``NOTIFY glory_changes`` in its own transaction (PostgreSQL delivers it at
commit, never for a rollback), and every store listens on a connection of its own and drops
what another process changed.

A notice can be missed: the listening connection breaks, the server restarts. Then the store
forgets everything it keeps and reads through to the database until it listens again (and
forgets once more after ``LISTEN`` took effect, for what changed in between). A notice also
arrives a moment after the commit; the readers that must not act on that moment's old state
(a click naming a newer version, a courier delivering a newer entry, a move's
compare-and-swap) check the version themselves (see docs/architecture.md, "Several processes").
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterable
from typing import Any

import asyncpg
from sqlalchemy import text
from sqlalchemy.engine import URL

CHANNEL = "glory_changes"
GAME = "g"
USER = "u"

NOTIFY = text(f"SELECT pg_notify('{CHANNEL}', p) FROM unnest(CAST(:payloads AS text[])) AS p")
"""One notice per changed game or user, sent in the writing transaction."""

RECONNECT_BASE_SECONDS = 0.5
RECONNECT_CAP_SECONDS = 30.0
HEALTH_SECONDS = 15.0
"""How often the listening connection is asked whether it is alive (a connection that died
without a word would otherwise mean notices silently missed)."""

log = logging.getLogger(__name__)


def payloads(origin: str, kind: str, ids: Iterable[int]) -> list[str]:
    """The notices for ``ids`` (games or users) changed by the store named ``origin``."""
    return [f"{origin} {kind} {identifier}" for identifier in dict.fromkeys(ids)]


def parse(payload: str) -> tuple[str, str, int] | None:
    """``(origin, kind, id)`` of a notice, or ``None`` if it is not one of ours."""
    parts = payload.split(" ")
    if len(parts) != 3 or parts[1] not in (GAME, USER):
        return None
    try:
        return parts[0], parts[1], int(parts[2])
    except ValueError:
        return None


class ChangeFeed:
    """Listens for other processes' changes and tells the store; says when it may have missed
    some (``on_gap``) and when it listens again (``on_listening``)."""

    def __init__(
        self,
        url: URL,
        origin: str,
        *,
        on_change: Callable[[str, int], None],
        on_gap: Callable[[], None],
        on_listening: Callable[[], None],
    ) -> None:
        self._dsn = url.set(drivername="postgresql").render_as_string(hide_password=False)
        self._origin = origin
        self._on_change = on_change
        self._on_gap = on_gap
        self._on_listening = on_listening
        self._connection: asyncpg.Connection | None = None
        self._task: asyncio.Task[None] | None = None
        self._lost = asyncio.Event()
        self._closed = False
        self.listening = False

    async def start(self) -> None:
        """Listen now if the server answers (else keep trying in the background)."""
        with contextlib.suppress(Exception):
            await self._listen()
        self._task = asyncio.get_running_loop().create_task(self._keep_listening())

    async def _listen(self) -> None:
        connection = await asyncpg.connect(self._dsn)
        try:
            connection.add_termination_listener(self._terminated)
            await connection.add_listener(CHANNEL, self._notified)
        except BaseException:
            await connection.close()
            raise
        self._connection = connection
        self._lost.clear()
        self.listening = True
        # Whatever changed before LISTEN took effect was not announced to this connection.
        self._on_listening()

    async def _keep_listening(self) -> None:
        failures = 0
        while not self._closed:
            if self.listening:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._lost.wait(), HEALTH_SECONDS)
                if self.listening and not self._lost.is_set() and await self._healthy():
                    continue
                self._gap()
            try:
                await self._listen()
                failures = 0
            except asyncio.CancelledError:
                raise
            except Exception as error:  # noqa: BLE001 - any failure: try again later
                failures += 1
                delay = min(RECONNECT_CAP_SECONDS, RECONNECT_BASE_SECONDS * 2 ** (failures - 1))
                log.warning(
                    "cannot listen for other processes' changes (%s); again in %.1f s", error, delay
                )
                await asyncio.sleep(delay)

    async def _healthy(self) -> bool:
        connection = self._connection
        if connection is None or connection.is_closed():
            return False
        try:
            await asyncio.wait_for(connection.fetchval("SELECT 1"), HEALTH_SECONDS)
        except Exception:  # noqa: BLE001 - any failure means notices may be lost
            return False
        return True

    def _gap(self) -> None:
        """The connection is gone: notices may have been missed."""
        was_listening = self.listening
        self.listening = False
        connection, self._connection = self._connection, None
        if connection is not None and not connection.is_closed():
            connection.terminate()
        if was_listening:
            log.warning("lost the change notices of other processes; reading through meanwhile")
        self._on_gap()

    def _terminated(self, connection: Any) -> None:
        if connection is self._connection:
            self._lost.set()

    def _notified(self, connection: Any, pid: int, channel: str, payload: str) -> None:
        notice = parse(payload)
        if notice is None:
            return
        origin, kind, identifier = notice
        if origin != self._origin:  # a store follows its own writes already
            self._on_change(kind, identifier)

    async def close(self) -> None:
        self._closed = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self.listening = False
        if self._connection is not None:
            with contextlib.suppress(Exception):
                await self._connection.close()
            self._connection = None
