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
the interpreter lock. Here the bot writes a request to the worker's socket at once and the
event loop reads the answers when the socket has some (``_Channel``): no thread, no blocking
read or write, up to ``IN_FLIGHT`` requests with each worker and the rest queued in the bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import multiprocessing
import os
import pickle
import select
import socket
import struct
import traceback
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from bot.process.worker_processes import settle_worker

log = logging.getLogger(__name__)

NICENESS = {"tables": 10, "hands": 5}
"""Both workers yield the CPU to the bot (and are batch jobs, ``settle_worker``), the tables'
more: a table's picture may wait (the courier shows the game as it is once it is drawn), a
hand answers a click. Handing a picture to a worker of the bot's own priority woke it at once
on the bot's core, which then waited for the drawing in the middle of a click; at niceness 5
the clicks' p99 at 300 a second was 21–25 ms in four runs against 23–39 ms at 0, paired
(``benchmarks/bot_load.py``; a move's new hand is handed over before its commit, so it is
still drawn while the move is stored)."""


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
    """A worker process: draw each ``(number, urgent, draw, scene)`` it receives and send back
    ``(number, True, png)`` or ``(number, False, traceback)``, until the bot closes its end
    (or dies). Of the requests it holds, urgent ones are drawn first (the newest first, as
    the bot orders its own queue), then the others in the order received."""
    _start_worker(niceness, bot_pid)
    with connection:
        draw_until_closed(connection)


def draw_until_closed(connection: socket.socket) -> None:
    """The worker's loop (``serve``). A bot killed outright (SIGKILL) leaves its end reset, not
    closed: the worker ends just as quietly then. An error here would print its traceback into
    the bot's log, which the bot's next start shares."""
    with contextlib.suppress(ConnectionError):
        _draw_requests(connection)


def _draw_requests(connection: socket.socket) -> None:
    held: deque[tuple[int, bool, Callable[[Any], bytes], Any]] = deque()
    while True:
        while not held or _readable(connection):
            request = _receive(connection)
            if request is None:
                return
            if request[1]:
                held.appendleft(request)
            else:
                held.append(request)
        number, _, draw, scene = held.popleft()
        try:
            answer: tuple[int, bool, Any] = (number, True, draw(scene))
        except Exception:  # noqa: BLE001 - sent to the bot, which logs it
            answer = (number, False, traceback.format_exc())
        connection.sendall(_frame(answer))


def _readable(connection: socket.socket) -> bool:
    return bool(select.select([connection], [], [], 0)[0])


@dataclass
class _Request:
    draw: Callable[[Any], bytes]
    scene: Any
    future: asyncio.Future[bytes]
    urgent: bool = False
    tries: int = 0
    number: int = 0
    """Names the request to its worker (the answers come back in the order drawn)."""


IN_FLIGHT = 4
"""Requests written to a worker before its answers come back. With one at a time the worker
sat idle from each answer until the bot's event loop had read it and written the next
request: at 300 clicks/s that round trip took longer than drawing a hand, the hands' lane
fell behind by 30–50 pictures, and a move's answer waited up to half a second for its hand
(``benchmarks/bot_load.py``). The worker draws the urgent ones it holds first, so an urgent
picture waits for at most the one being drawn; the rest stay in the bot, where a picture
nobody waits for any more is dropped before it is drawn."""


READ_SIZE = 1 << 18
"""Bytes asked of a worker's socket at a time (a table picture is about 20 KB)."""


class _Channel:
    """The bot's end of a worker's socket, without a stream: requests are written at once
    (what the socket cannot take yet goes when it drains), and the answers are read whenever
    the socket has some, by the event loop's reader callback or by ``read_answers`` called
    directly. A click that needs its picture now reads it then, instead of waiting for the
    loop to come round to the socket: at 300 clicks/s a profile found four in five of the
    moves' new hands drawn and sent back, but not yet read, when the answer asked for them,
    and the answer waited 1.9 ms (p50) and 14.6 ms (p99) for the loop to read them."""

    def __init__(self, connection: socket.socket, answered: Callable[[Any], None]) -> None:
        connection.setblocking(False)
        self._connection = connection
        self._answered = answered
        self._unsent = bytearray()
        self._received = bytearray()
        self._loop = asyncio.get_running_loop()
        self.lost: asyncio.Future[None] = self._loop.create_future()
        """Fails with ``ConnectionError`` once the worker is gone."""
        self._loop.add_reader(connection.fileno(), self.read_answers)

    def write(self, frame: bytes) -> None:
        if not self._unsent:
            try:
                sent = self._connection.send(frame)
            except BlockingIOError:
                sent = 0
            except OSError as error:
                self._lose(error)
                return
            if sent == len(frame):
                return
            self._loop.add_writer(self._connection.fileno(), self._write_unsent)
            frame = frame[sent:]
        self._unsent += frame

    def _write_unsent(self) -> None:
        try:
            sent = self._connection.send(self._unsent)
        except BlockingIOError:
            return
        except OSError as error:
            self._lose(error)
            return
        del self._unsent[:sent]
        if not self._unsent:
            self._loop.remove_writer(self._connection.fileno())

    def read_answers(self) -> None:
        """Hand every answer the worker has sent so far to ``answered``, without waiting."""
        while not self.lost.done():
            try:
                chunk = self._connection.recv(READ_SIZE)
            except BlockingIOError:
                break
            except OSError as error:
                self._lose(error)
                return
            if not chunk:
                self._lose(ConnectionResetError("the worker closed its end"))
                return
            self._received += chunk
            if len(chunk) < READ_SIZE:
                break
        while len(self._received) >= HEADER.size:
            end = HEADER.size + HEADER.unpack_from(self._received)[0]
            if len(self._received) < end:
                break
            answer = pickle.loads(self._received[HEADER.size : end])
            del self._received[:end]
            self._answered(answer)

    def _lose(self, error: OSError) -> None:
        if not self.lost.done():
            lost = error if isinstance(error, ConnectionError) else ConnectionError(error)
            self.lost.set_exception(lost)

    def close(self) -> None:
        self._loop.remove_reader(self._connection.fileno())
        self._loop.remove_writer(self._connection.fileno())
        self._connection.close()
        if not self.lost.done():
            self.lost.cancel()


class _Worker:
    """One drawing process, fed by the bot through a socket pair (``_Channel``).

    Up to ``IN_FLIGHT`` requests are with the worker at once, which draws urgent ones first;
    the rest wait in the bot, urgent ones first. A request handed to a worker with room is
    written to its socket at once, not by a task's next turn: the event loop may have a
    millisecond of other work queued first (a move's commit on SQLite, say), and the worker
    can be drawing meanwhile."""

    def __init__(self, lane: str) -> None:
        self.lane = lane
        self.waiting: deque[_Request] = deque()
        self.drawing: dict[int, _Request] = {}
        """Written to the worker, by number; answers pending."""
        self._numbers = itertools.count()
        self.process: Any = None
        self._channel: _Channel | None = None
        self._task = asyncio.get_running_loop().create_task(self._feed())

    @property
    def load(self) -> int:
        return len(self.waiting) + len(self.drawing)

    def submit(self, request: _Request) -> None:
        if request.urgent:
            self.waiting.appendleft(request)
        else:
            self.waiting.append(request)
        self._send_next()

    def read_answers(self) -> None:
        if self._channel is not None and self.drawing:
            self._channel.read_answers()

    def _send_next(self) -> None:
        """Write the next requests nobody gave up on to the connected worker, while it has
        room."""
        if self._channel is None:
            return
        while self.waiting and len(self.drawing) < IN_FLIGHT:
            request = self.waiting.popleft()
            if request.future.done():  # nobody waits for it any more
                continue
            request.number = next(self._numbers)
            try:
                frame = _frame((request.number, request.urgent, request.draw, request.scene))
            except Exception as error:  # noqa: BLE001 - handed to whoever waits for it
                request.future.set_exception(DrawingFailed(f"not sent to a worker: {error!r}"))
                continue
            self.drawing[request.number] = request
            self._channel.write(frame)

    def _answered(self, answer: tuple[int, bool, Any]) -> None:
        number, ok, payload = answer
        request = self.drawing.pop(number)
        if not request.future.done():
            if ok:
                request.future.set_result(payload)
            else:
                request.future.set_exception(DrawingFailed(payload))
        self._send_next()

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
        """Start the process and keep it supplied; a process that dies is replaced, and the
        pictures it had been given are asked of the new one (once: a picture that kills its
        worker twice fails)."""
        while True:
            channel = self._channel = _Channel(self._start(), self._answered)
            try:
                self._send_next()
                await channel.lost
            except ConnectionError:
                log.warning("a picture worker (%s) died; starting a new one", self.lane)
                self._retry_unanswered()
            finally:
                self._channel = None
                channel.close()

    def _retry_unanswered(self) -> None:
        """Put the requests a dead worker had back in front of the queue, in their order."""
        unanswered, self.drawing = self.drawing, {}
        for number in sorted(unanswered, reverse=True):
            request = unanswered[number]
            if request.future.done():
                continue
            request.tries += 1
            if request.tries > 1:
                request.future.set_exception(DrawingFailed("the worker died twice"))
            else:
                self.waiting.appendleft(request)

    def close(self) -> None:
        self._task.cancel()  # its socket closes: the worker reads the end and exits
        if self.process is not None and self.process.is_alive():
            self.process.terminate()
        for request in (*self.drawing.values(), *self.waiting):
            request.future.cancel()
        self.drawing.clear()
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
        worker.submit(_Request(draw, scene, future, urgent))
        return future

    def read_answers(self, lane: str) -> None:
        """Take the lane's pictures that are drawn and sent back but not yet read, now: a
        future of theirs is done when this returns (``_Channel``)."""
        for worker in self._workers.get(lane, ()):
            worker.read_answers()

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
