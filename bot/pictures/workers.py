"""Where pictures are drawn: worker processes (or threads, for tests), one lane per kind.

Why processes: Pillow holds the interpreter lock for much of a drawing (text, pasting,
palette mapping), so a picture drawn in a thread of the bot still stalled its event loop;
at 100 moves/s the clicks' p99 went from 5 ms to 345 ms in ``benchmarks/bot_load.py``. Why
lanes: a click's answer waits for the player's hand, which must not queue behind the tables
the couriers draw, so hands and tables have a worker each.

Why a socket per worker read by the event loop, not ``ProcessPoolExecutor``: the executor
feeds its processes from two threads of the bot (a queue feeder and a manager) and wakes its
manager through a pipe on every submission; at 300 clicks/s a profile of the bot
(``py-spy``) found 15 % of its busy time in that machinery, competing with the event loop for
the interpreter lock. Here one task per worker writes a request to the worker's socket and
awaits the answer as an asyncio stream: no thread, no blocking read or write, one request in
flight per worker and the rest queued in the bot.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import pickle
import socket
import struct
import traceback
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from bot.worker_processes import settle_worker

log = logging.getLogger(__name__)

NICENESS = {"tables": 10, "hands": 0}
"""A table's picture may wait (the courier shows the game as it is once it is drawn, so
tables drawn late are drawn less often); a hand answers a click. On a small host the table
worker yields the CPU to the bot and to the hands (``benchmarks/bot_load.py``)."""


class DrawingFailed(Exception):
    """A worker could not draw a picture (the worker's traceback is the message)."""


def _start_worker(niceness: int, bot_pid: int) -> None:
    """Load the drawing code and its font before the first picture; then as every worker."""
    from bot.pictures import draw  # noqa: F401
    from bot.pictures.fonts import font

    font(14)
    settle_worker(niceness, bot_pid)


HEADER = struct.Struct("!I")
"""A message between the bot and a worker: its length, then a pickle."""


def _frame(message: Any) -> bytes:
    body = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(body)) + body


def _receive(connection: socket.socket) -> Any:
    """The next message (blocking), or ``None`` once the bot has closed its end."""
    header = _read_exactly(connection, HEADER.size)
    if header is None:
        return None
    body = _read_exactly(connection, HEADER.unpack(header)[0])
    return None if body is None else pickle.loads(body)


def _read_exactly(connection: socket.socket, size: int) -> bytes | None:
    chunks, missing = [], size
    while missing:
        chunk = connection.recv(min(missing, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        missing -= len(chunk)
    return b"".join(chunks)


def serve(connection: socket.socket, niceness: int, bot_pid: int) -> None:
    """A worker process: draw each ``(draw, scene)`` it receives and send back
    ``(True, png)`` or ``(False, traceback)``, until the bot closes its end (or dies)."""
    _start_worker(niceness, bot_pid)
    with connection:
        while (request := _receive(connection)) is not None:
            draw, scene = request
            try:
                answer: tuple[bool, Any] = (True, draw(scene))
            except Exception:  # noqa: BLE001 - sent to the bot, which logs it
                answer = (False, traceback.format_exc())
            connection.sendall(_frame(answer))


@dataclass
class _Request:
    draw: Callable[[Any], bytes]
    scene: Any
    future: asyncio.Future[bytes]
    tries: int = 0


class _Worker:
    """One drawing process, fed by one task of the bot through a socket pair.

    A request handed to an idle worker is written to its socket at once, not by the feeding
    task's next turn: the event loop may have a millisecond of other work queued first (a
    move's commit on SQLite, say), and the worker can be drawing meanwhile."""

    def __init__(self, lane: str) -> None:
        self.lane = lane
        self.waiting: deque[_Request] = deque()
        self._arrived = asyncio.Event()
        self.drawing: _Request | None = None
        self.process: Any = None
        self._writer: asyncio.StreamWriter | None = None
        self._task = asyncio.get_running_loop().create_task(self._feed())

    @property
    def load(self) -> int:
        return len(self.waiting) + (self.drawing is not None)

    def submit(self, request: _Request, *, urgent: bool = False) -> None:
        if urgent:
            self.waiting.appendleft(request)
        else:
            self.waiting.append(request)
        if self.drawing is None:
            self._send_next()
        self._arrived.set()

    def _send_next(self) -> None:
        """Write the next request nobody gave up on to an idle, connected worker."""
        if self._writer is None:
            return
        while self.waiting and self.drawing is None:
            request = self.waiting.popleft()
            if request.future.done():  # nobody waits for it any more
                continue
            try:
                frame = _frame((request.draw, request.scene))
            except Exception as error:  # noqa: BLE001 - handed to whoever waits for it
                request.future.set_exception(DrawingFailed(f"not sent to a worker: {error!r}"))
                continue
            self.drawing = request
            self._writer.write(frame)

    def _start(self) -> socket.socket:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["bot.pictures.draw"])
        ours, theirs = socket.socketpair()
        self.process = context.Process(
            target=serve,
            args=(theirs, NICENESS.get(self.lane, 0), os.getpid()),
            daemon=True,
        )
        self.process.start()
        theirs.close()
        return ours

    async def _feed(self) -> None:
        """Start the process, then hand it the requests one at a time; a process that dies
        is replaced, and the picture it was drawing is asked of the new one (once: a picture
        that kills its worker twice fails)."""
        while True:
            reader, writer = await asyncio.open_connection(sock=self._start())
            try:
                self._writer = writer
                await self._draw_all(reader)
            except (asyncio.IncompleteReadError, ConnectionError):
                log.warning("a picture worker (%s) died; starting a new one", self.lane)
                request, self.drawing = self.drawing, None
                if request is not None and not request.future.done():
                    request.tries += 1
                    if request.tries > 1:
                        request.future.set_exception(DrawingFailed("the worker died twice"))
                    else:
                        self.waiting.appendleft(request)
            finally:
                self._writer = None
                writer.close()

    async def _draw_all(self, reader: asyncio.StreamReader) -> None:
        while True:
            self._send_next()
            if self.drawing is None:
                self._arrived.clear()
                await self._arrived.wait()
                continue
            request = self.drawing
            header = await reader.readexactly(HEADER.size)
            ok, payload = pickle.loads(await reader.readexactly(HEADER.unpack(header)[0]))
            self.drawing = None
            if not request.future.done():
                if ok:
                    request.future.set_result(payload)
                else:
                    request.future.set_exception(DrawingFailed(payload))

    def close(self) -> None:
        self._task.cancel()  # its socket closes: the worker reads the end and exits
        if self.process is not None and self.process.is_alive():
            self.process.terminate()
        if self.drawing is not None:
            self.drawing.future.cancel()
        for request in self.waiting:
            request.future.cancel()
        self.waiting.clear()


class PictureWorkers:
    """``processes`` worker processes per lane (0: one thread per lane)."""

    def __init__(self, processes: int) -> None:
        self.processes = processes
        self._workers: dict[str, list[_Worker]] = {}
        self._threads: dict[str, ThreadPoolExecutor] = {}

    def _lane(self, lane: str) -> list[_Worker]:
        workers = self._workers.get(lane)
        if workers is None:
            workers = self._workers[lane] = [_Worker(lane) for _ in range(self.processes)]
        return workers

    def start(self, lanes: Sequence[str]) -> None:
        """Start the lanes' worker processes now, at start-up (see ``SearchPool.start``)."""
        if self.processes > 0:
            for lane in lanes:
                self._lane(lane)

    def submit(
        self, lane: str, draw: Callable[[Any], bytes], scene: Any, *, urgent: bool = False
    ) -> asyncio.Future[bytes]:
        """``draw(scene)`` in the lane's least busy worker, begun now if that worker is idle;
        ``urgent`` (a click's answer waits for it): before the pictures waiting there (a
        courier's can wait a moment)."""
        loop = asyncio.get_running_loop()
        if self.processes <= 0:
            executor = self._threads.get(lane)
            if executor is None:
                executor = ThreadPoolExecutor(1, thread_name_prefix=f"pictures-{lane}")
                self._threads[lane] = executor
            return loop.run_in_executor(executor, draw, scene)
        future: asyncio.Future[bytes] = loop.create_future()
        worker = min(self._lane(lane), key=lambda worker: worker.load)
        worker.submit(_Request(draw, scene, future), urgent=urgent)
        return future

    async def run(
        self, lane: str, draw: Callable[[Any], bytes], scene: Any, *, urgent: bool = False
    ) -> bytes:
        """``draw(scene)``'s picture (see ``submit``)."""
        return await self.submit(lane, draw, scene, urgent=urgent)

    def close(self) -> None:
        for workers in self._workers.values():
            for worker in workers:
                worker.close()
        self._workers.clear()
        for executor in self._threads.values():
            executor.shutdown(wait=False, cancel_futures=True)
        self._threads.clear()
