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

The listening connection is also the one the store keeps open for its whole life, so it holds
the store's liveness lock (``liveness``): while it is open, the store's claims are its own;
when the process dies, the server ends the session and they are free at once. A re-opened
connection takes the lock again (waiting, in the background, for a previous connection of the
same store that the server has not yet seen closed).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Callable, Iterable
from typing import Any

import asyncpg
from sqlalchemy import text
from sqlalchemy.engine import URL

from bot.storage import liveness

CHANNEL = "glory_changes"
GAME = "g"
USER = "u"

NOTIFY = text(f"SELECT pg_notify('{CHANNEL}', p) FROM unnest(CAST(:payloads AS text[])) AS p")
"""One notice per changed game or user, sent in the writing transaction."""

RECONNECT_BASE_SECONDS = 0.5
RECONNECT_CAP_SECONDS = 30.0
WATCH_SECONDS = 30.0
"""How often the feed looks whether its connection is still open."""
SILENCE_SECONDS = 30
"""After this long without an answer from the server, the operating system closes the
listening connection (TCP keepalive and user timeout), and notices that may have been missed
are treated as a gap."""

log = logging.getLogger(__name__)


def _keep_alive(connection: asyncpg.Connection) -> None:
    """Make the operating system close the connection when the server goes silent (best
    effort: the options exist on Linux)."""
    transport = getattr(connection, "_transport", None)
    sock = transport.get_extra_info("socket") if transport is not None else None
    if sock is None:
        return
    options = [(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)]
    for name, value in (
        ("TCP_KEEPIDLE", SILENCE_SECONDS // 3),
        ("TCP_KEEPINTVL", SILENCE_SECONDS // 6),
        ("TCP_KEEPCNT", 2),
        ("TCP_USER_TIMEOUT", SILENCE_SECONDS * 1000),
    ):
        if hasattr(socket, name):
            options.append((socket.IPPROTO_TCP, getattr(socket, name), value))
    for level, option, value in options:
        with contextlib.suppress(OSError):
            sock.setsockopt(level, option, value)


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
    some (``on_gap``) and when it listens again (``on_listening``). Holds the store's liveness
    lock on the same connection (``alive``)."""

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
        self._watcher: asyncio.Task[None] | None = None
        self._relisten: asyncio.Task[None] | None = None
        self._waiting: asyncio.Task[None] | None = None
        self._closed = False
        self.listening = False
        self.alive = False
        """Whether this connection holds the store's liveness lock (its claims are its own)."""

    async def start(self) -> None:
        """Listen now if the server answers (else keep trying in the background)."""
        try:
            await self._listen()
        except Exception as error:  # noqa: BLE001 - tried again in the background
            log.warning("cannot listen for other processes' changes yet (%s)", error)
            self._listen_again()
        self._watcher = asyncio.get_running_loop().create_task(self._watch())

    async def _listen(self) -> None:
        connection = await asyncpg.connect(self._dsn)
        _keep_alive(connection)
        try:
            connection.add_termination_listener(self._terminated)
            await connection.add_listener(CHANNEL, self._notified)
            alive = await liveness.take(connection, self._origin)
        except BaseException:
            await connection.close()
            raise
        self._connection = connection
        self.listening = True
        self.alive = alive
        if not alive:
            self._waiting = asyncio.get_running_loop().create_task(self._wait_alive(connection))
        # Whatever changed before LISTEN took effect was not announced to this connection.
        self._on_listening()

    async def _watch(self) -> None:
        """Look now and then whether the connection is still open (one that broke without
        the driver saying so). A connection that breaks is normally reported by the driver
        (``_terminated``: the gap is made at once); one whose server or network went silent
        is closed by the operating system through the keepalive set in ``_listen``. No
        timeouts on the event loop's clock: SimCord's virtual time (the bot's tests) runs it
        at will, and it takes a sleep longer than its settling time for an idle task."""
        while not self._closed:
            await asyncio.sleep(WATCH_SECONDS)
            connection = self._connection
            if self.listening and (connection is None or connection.is_closed()):
                self._gap()

    async def _wait_alive(self, connection: asyncpg.Connection) -> None:
        """The store's previous connection still holds the lock (the server has not seen it
        closed yet; until it does, the store counts as running anyway): take it when freed."""
        log.info("waiting for the previous session of this process to let its liveness lock go")
        try:
            await liveness.wait(connection, self._origin)
        except Exception:  # noqa: BLE001 - the connection ended: the next one takes the lock
            return
        if connection is self._connection:
            self.alive = True

    def _listen_again(self) -> None:
        if not self._closed and (self._relisten is None or self._relisten.done()):
            self._relisten = asyncio.get_running_loop().create_task(self._keep_trying())

    async def _keep_trying(self) -> None:
        failures = 0
        while not self._closed and not self.listening:
            try:
                await self._listen()
                return
            except asyncio.CancelledError:
                raise
            except Exception as error:  # noqa: BLE001 - any failure: try again later
                failures += 1
                delay = min(RECONNECT_CAP_SECONDS, RECONNECT_BASE_SECONDS * 2 ** (failures - 1))
                log.warning(
                    "cannot listen for other processes' changes (%s); again in %.1f s",
                    error,
                    delay,
                )
                await asyncio.sleep(delay)

    def _gap(self) -> None:
        """The connection is gone: notices may have been missed."""
        was_listening = self.listening
        self.listening = False
        self.alive = False
        connection, self._connection = self._connection, None
        if connection is not None and not connection.is_closed():
            connection.terminate()
        if was_listening:
            log.warning("lost the change notices of other processes; reading through meanwhile")
        self._on_gap()
        self._listen_again()

    def _terminated(self, connection: Any) -> None:
        if connection is self._connection:
            self._gap()

    def _notified(self, connection: Any, pid: int, channel: str, payload: str) -> None:
        notice = parse(payload)
        if notice is None:
            return
        origin, kind, identifier = notice
        if origin != self._origin:  # a store follows its own writes already
            self._on_change(kind, identifier)

    async def close(self) -> None:
        self._closed = True
        for task in (self._watcher, self._relisten, self._waiting):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self.listening = False
        self.alive = False
        if self._connection is not None:
            with contextlib.suppress(Exception):
                await self._connection.close()
            self._connection = None
