"""The emulator's REST door on a thread of its own: requests are received, and counted against
Discord's rate limits, when they arrive, not when the emulator's busy event loop gets to them.

Why: Discord receives a request when the bot sends it, give or take a steady network delay.
The emulator shares its event loop with whatever drives it (the soak's hundreds of simulated
players); while that loop is late, requests wait unread in the socket and were then counted
as if they had all arrived at once when it read them, so a bot that kept within the global
limit as it sent got global 429s it would never get from Discord (the 300-game soak of
2026-11-28: 35 of them, in clumps, while its loop was up to 4 s late). Here a thread with an
event loop of its own reads each request (and its body) and stamps its arrival; the emulator's
middleware then runs on the emulator's loop as before, counting the request against the
limits at that stamp (``rest.ARRIVED``, ``rest.ARRIVED_MONOTONIC``) and answering it from the
world, which only that loop touches. The limits are Discord's as before: only the moment of
arrival is honest now.

The thread holds no world state; the handling itself waits for the emulator's loop as before.

The moment of arrival is the kernel's: the thread's own stamp is when the machine ran it, and a
soak process the machine did not run for a moment (two cores, a load average of 4) stamped the
requests that waited in its sockets meanwhile together, as if they had arrived at once. Its
sockets are read with ``recvmsg`` and ``SO_TIMESTAMPNS``, which gives each read the time the
kernel received its bytes (on the loopback, when the bot's kernel sent them); a request
arrives when the first bytes of it did (``arrival``). Where the kernel gives no time (another
system), the thread's stamp stands, as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
import sys
import threading
import time
from asyncio import selector_events
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from .rest import ARRIVED, ARRIVED_MONOTONIC, DOOR_READ

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class RestFront:
    """An aiohttp server on its own thread that stamps each request and has the emulator's
    loop handle it (``app``: the REST routes, installed as on the emulator's own app)."""

    def __init__(self, app: web.Application, emulator_loop: asyncio.AbstractEventLoop) -> None:
        app.middlewares.insert(0, self._stamp)
        self._app = app
        self._emulator_loop = emulator_loop
        self._loop = _stamping_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, name="loopback-rest", daemon=True
        )
        self._runner: web.AppRunner | None = None
        self.port: int | None = None

    async def start(self, host: str, backlog: int) -> int:
        """Listen on ``host`` (a free port, returned)."""
        self._thread.start()
        await asyncio.wrap_future(
            asyncio.run_coroutine_threadsafe(self._listen(host, backlog), self._loop)
        )
        assert self.port is not None
        return self.port

    async def _listen(self, host: str, backlog: int) -> None:
        self._runner = web.AppRunner(self._app, access_log=None, handle_signals=False)
        await self._runner.setup()
        listening = socket.create_server((host, 0), backlog=backlog)
        kernel_stamps(listening)  # on before the first connection; accepted ones inherit it
        site = web.SockSite(self._runner, listening, backlog=backlog)
        await site.start()
        self.port = listening.getsockname()[1]

    async def stop(self) -> None:
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await asyncio.wrap_future(
                asyncio.run_coroutine_threadsafe(runner.cleanup(), self._loop)
            )
        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._loop.stop)
            await asyncio.to_thread(self._thread.join, 5.0)
        if not self._thread.is_alive():
            self._loop.close()

    @web.middleware
    async def _stamp(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """On the thread: stamp the arrival (the kernel's, ``arrival``), read the body (kept
        by aiohttp for the handler), then let the emulator's loop do the rest."""
        read, read_monotonic = time.perf_counter(), time.monotonic()
        transport = request.transport
        try:
            received = arrival(transport)
            request[DOOR_READ] = read
            request[ARRIVED_MONOTONIC] = read_monotonic if received is None else received
            request[ARRIVED] = read if received is None else read - (read_monotonic - received)
            await request.read()
        finally:
            if isinstance(transport, _StampingTransport):
                transport.received = None  # the next bytes are the next request's
        done = asyncio.run_coroutine_threadsafe(handler(request), self._emulator_loop)
        return await asyncio.wrap_future(done)


LINUX_SO_TIMESTAMPNS = 35
_TIMESPEC = struct.Struct("@qq")
_ANCILLARY = socket.CMSG_SPACE(_TIMESPEC.size) if hasattr(socket, "CMSG_SPACE") else 0
SO_TIMESTAMPNS: int | None = getattr(
    socket, "SO_TIMESTAMPNS", LINUX_SO_TIMESTAMPNS if sys.platform == "linux" else None
)
"""Python names it on few builds; Linux's is 35 (``asm-generic/socket.h``, the architectures
Glory runs on)."""
SCM_TIMESTAMPNS: int | None = getattr(socket, "SCM_TIMESTAMPNS", SO_TIMESTAMPNS)


def arrival(transport: Any) -> float | None:
    """When the kernel received the first bytes of the request now being read on
    ``transport`` (``time.monotonic()``), or None where it does not say."""
    return transport.received if isinstance(transport, _StampingTransport) else None


def kernel_stamps(sock: socket.socket) -> bool:
    """Ask the kernel to stamp what ``sock`` receives; whether it will."""
    if SO_TIMESTAMPNS is None or not _ANCILLARY:
        return False
    try:
        sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    except OSError:
        return False
    return True


def received_at(ancillary: list[tuple[int, int, bytes]]) -> float | None:
    """The kernel's receive time in ``recvmsg``'s ancillary data, on ``time.monotonic()``'s
    clock (the kernel stamps ``CLOCK_REALTIME``), or None."""
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == SCM_TIMESTAMPNS and len(data) >= 16:
            seconds, nanoseconds = _TIMESPEC.unpack_from(data)
            ago = time.time() - (seconds + nanoseconds / 1e9)
            return time.monotonic() - max(0.0, ago)
    return None


class _StampingTransport(selector_events._SelectorSocketTransport):  # type: ignore[name-defined,misc]
    """asyncio's socket transport, reading with ``recvmsg`` to keep the kernel's receive time
    of the first bytes read since the last request took it (``received``)."""

    def __init__(self, loop: Any, sock: socket.socket, *args: Any, **kwargs: Any) -> None:
        self.received: float | None = None
        self._stamped = kernel_stamps(sock)
        super().__init__(loop, sock, *args, **kwargs)

    def _read_ready__data_received(self) -> None:
        if not self._stamped:
            super()._read_ready__data_received()
            return
        if self._conn_lost:
            return
        try:
            data, ancillary, _flags, _address = self._sock.recvmsg(self.max_size, _ANCILLARY)
        except (BlockingIOError, InterruptedError):
            return
        except (SystemExit, KeyboardInterrupt):
            raise
        except BaseException as exc:  # noqa: BLE001 - as asyncio's own transport does
            self._fatal_error(exc, "Fatal read error on socket transport")
            return
        if not data:
            self._read_ready__on_eof()
            return
        if self.received is None:
            self.received = received_at(ancillary)
        try:
            self._protocol.data_received(data)
        except (SystemExit, KeyboardInterrupt):
            raise
        except BaseException as exc:  # noqa: BLE001 - as asyncio's own transport does
            self._fatal_error(exc, "Fatal error: protocol.data_received() call failed.")


class _StampingLoop(asyncio.SelectorEventLoop):  # type: ignore[misc,valid-type]
    """An event loop whose TCP connections keep the kernel's receive times."""

    def _make_socket_transport(  # type: ignore[override]
        self,
        sock: socket.socket,
        protocol: Any,
        waiter: Any = None,
        *,
        extra: Any = None,
        server: Any = None,
    ) -> Any:
        return _StampingTransport(self, sock, protocol, waiter, extra, server)


def _stamping_loop() -> asyncio.AbstractEventLoop:
    """The door's loop: one that stamps with the kernel's times where asyncio's insides are
    as this knows them, a plain one otherwise."""
    with contextlib.suppress(AttributeError, TypeError):
        if SO_TIMESTAMPNS is not None and hasattr(selector_events, "_SelectorSocketTransport"):
            return _StampingLoop()
    return asyncio.new_event_loop()
