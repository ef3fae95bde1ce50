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
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable

from aiohttp import web

from .rest import ARRIVED, ARRIVED_MONOTONIC

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class RestFront:
    """An aiohttp server on its own thread that stamps each request and has the emulator's
    loop handle it (``app``: the REST routes, installed as on the emulator's own app)."""

    def __init__(self, app: web.Application, emulator_loop: asyncio.AbstractEventLoop) -> None:
        app.middlewares.insert(0, self._stamp)
        self._app = app
        self._emulator_loop = emulator_loop
        self._loop = asyncio.new_event_loop()
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
        site = web.TCPSite(self._runner, host, 0, backlog=backlog)
        await site.start()
        self.port = self._runner.addresses[0][1]

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
        """On the thread: stamp the arrival, read the body (kept by aiohttp for the handler),
        then let the emulator's loop do the rest."""
        request[ARRIVED] = time.perf_counter()
        request[ARRIVED_MONOTONIC] = time.monotonic()
        await request.read()
        done = asyncio.run_coroutine_threadsafe(handler(request), self._emulator_loop)
        return await asyncio.wrap_future(done)
