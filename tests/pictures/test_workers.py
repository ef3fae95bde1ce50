"""The picture workers: real processes fed through pipes the event loop watches."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import threading
import time
from pathlib import Path

import pytest

from bot.pictures.workers import DrawingFailed, PictureWorkers, _frame, draw_until_closed


def echo(scene: bytes) -> bytes:
    return b"drawn:" + scene


def slowly(scene: float) -> bytes:
    time.sleep(scene)
    return str(os.getpid()).encode()


def mark_then_echo(scene: tuple[str, bytes]) -> bytes:
    Path(scene[0]).write_text("started")
    return echo(scene[1])


def broken(scene: str) -> bytes:
    raise ValueError(scene)


DRAWING = threading.Event()
BOT_GONE = threading.Event()


def drawn_after_the_bot_is_gone(scene: bytes) -> bytes:
    DRAWING.set()
    BOT_GONE.wait(5)
    return scene


@pytest.fixture
async def workers():
    """One worker process per lane, closed after the test."""
    workers = PictureWorkers(1)
    yield workers
    workers.close()


async def test_pictures_of_any_size_are_drawn_in_a_worker_process_in_the_order_asked(
    workers: PictureWorkers,
) -> None:
    answers = await asyncio.gather(*(workers.run("hands", echo, b"%d" % i) for i in range(20)))
    assert answers == [b"drawn:%d" % i for i in range(20)]
    big = os.urandom(300_000)  # larger than a socket's buffer, both ways
    assert await workers.run("hands", echo, big) == b"drawn:" + big
    pid = int(await workers.run("hands", slowly, 0.0))
    assert pid != os.getpid()


async def test_an_idle_worker_starts_drawing_before_the_event_loop_turns_again(
    tmp_path, workers: PictureWorkers
) -> None:
    """A move's answer hands its picture over and then commits; the worker must be drawing
    during the commit, not wait for the loop's next turn (the commit may hold the loop)."""
    await workers.run("hands", echo, b"warm")  # the worker is up and idle
    marker = tmp_path / "started"
    drawing = workers.submit("hands", mark_then_echo, (str(marker), b"x"))
    deadline = time.monotonic() + 10
    while not marker.exists() and time.monotonic() < deadline:
        time.sleep(0.01)  # holds the event loop, as a commit on SQLite does
    assert marker.exists()
    assert await drawing == b"drawn:x"


async def test_a_busy_worker_draws_its_next_pictures_while_the_event_loop_is_held(
    tmp_path, workers: PictureWorkers
) -> None:
    """Under load the bot's loop answers a worker late; the pictures queued behind the one
    being drawn must already be with the worker, or it idles until the loop comes round
    (the hands fell 30–50 pictures behind at 300 clicks/s)."""
    await workers.run("hands", echo, b"warm")
    markers = [tmp_path / f"started {n}" for n in range(2)]
    busy = workers.submit("hands", slowly, 0.2)
    queued = [workers.submit("hands", mark_then_echo, (str(m), b"q")) for m in markers]
    deadline = time.monotonic() + 10
    while not all(m.exists() for m in markers) and time.monotonic() < deadline:
        time.sleep(0.01)  # the loop is held: nothing reads the worker's first answer
    assert all(m.exists() for m in markers)
    assert await asyncio.gather(*queued) == [b"drawn:q"] * len(markers)
    assert int(await busy) != os.getpid()


async def test_a_worker_killed_with_pictures_in_hand_is_replaced_and_every_picture_arrives(
    workers: PictureWorkers,
) -> None:
    first = int(await workers.run("hands", slowly, 0.0))
    drawing = asyncio.ensure_future(workers.run("hands", slowly, 1.0))
    handed = [asyncio.ensure_future(workers.run("hands", echo, b"%d" % n)) for n in range(6)]
    await asyncio.sleep(0.3)  # the first worker is inside ``slowly``, holding more
    os.kill(first, signal.SIGKILL)
    assert int(await asyncio.wait_for(drawing, timeout=30)) != first
    answers = await asyncio.wait_for(asyncio.gather(*handed), timeout=30)
    assert answers == [b"drawn:%d" % n for n in range(6)]


@pytest.mark.parametrize(
    ("draw", "scene", "why"),
    [
        (broken, "no such card", "ValueError: no such card"),  # the drawing raised
        (echo, lambda: None, "not sent to a worker"),  # no pickle for a lambda
    ],
)
async def test_a_picture_that_fails_is_reported_and_the_worker_draws_on(
    workers: PictureWorkers, draw, scene, why: str
) -> None:
    with pytest.raises(DrawingFailed, match=why):
        await workers.run("tables", draw, scene)
    assert await workers.run("tables", echo, b"next") == b"drawn:next"


async def test_a_worker_killed_mid_drawing_is_replaced_and_the_picture_still_arrives(
    workers: PictureWorkers,
) -> None:
    first = int(await workers.run("tables", slowly, 0.0))
    drawing = asyncio.ensure_future(workers.run("tables", slowly, 1.0))
    queued = asyncio.ensure_future(workers.run("tables", echo, b"queued"))
    await asyncio.sleep(0.3)  # the first worker is inside ``slowly``
    os.kill(first, signal.SIGKILL)
    second = int(await asyncio.wait_for(drawing, timeout=30))
    assert second != first, "a new worker drew the picture the dead one was drawing"
    assert await asyncio.wait_for(queued, timeout=30) == b"drawn:queued"


async def test_a_closed_lane_ends_its_worker_processes() -> None:
    workers = PictureWorkers(2)
    workers.start(["hands"])
    pids = {int(await workers.run("hands", slowly, 0.2)) for _ in range(2)}
    processes = [worker.process for worker in workers._workers["hands"]]
    workers.close()
    for process in processes:
        process.join(timeout=10)
        assert not process.is_alive()
    assert pids


async def test_threads_draw_when_no_worker_process_is_wanted() -> None:
    workers = PictureWorkers(0)
    try:
        assert int(await workers.run("hands", slowly, 0.0)) == os.getpid()
    finally:
        workers.close()


async def test_a_picture_a_click_waits_for_is_drawn_before_the_couriers_waiting_ones(
    workers: PictureWorkers,
) -> None:
    await workers.run("hands", echo, b"warm")
    finished: list[bytes] = []

    async def draw(scene: bytes, *, urgent: bool = False) -> None:
        finished.append(await workers.run("hands", echo, scene, urgent=urgent))

    busy = asyncio.ensure_future(workers.run("hands", slowly, 0.5))
    await asyncio.sleep(0.1)  # the worker is drawing ``busy``
    waiting = [asyncio.ensure_future(draw(b"courier %d" % i)) for i in range(2)]
    await asyncio.sleep(0)
    clicked = asyncio.ensure_future(draw(b"click", urgent=True))
    await asyncio.gather(busy, clicked, *waiting)
    assert finished == [b"drawn:click", b"drawn:courier 0", b"drawn:courier 1"]


def test_a_worker_whose_bot_dies_while_it_draws_ends_without_an_error() -> None:
    """A killed bot resets its end of the pipe mid-picture; the worker's answer finds no
    reader. It ends quietly, as when the bot closes its end (an error would print a traceback
    into the bot's log). Run in a thread, with the worker's loop, on a socket pair."""
    bot_end, worker_end = socket.socketpair()
    failures: list[BaseException] = []

    def worker() -> None:
        try:
            draw_until_closed(worker_end)
        except BaseException as error:  # noqa: BLE001 - the test reports it
            failures.append(error)

    thread = threading.Thread(target=worker)
    thread.start()
    bot_end.sendall(_frame((1, True, drawn_after_the_bot_is_gone, b"png")))
    assert DRAWING.wait(5)
    bot_end.sendall(_frame((2, False, echo, b"never read")))  # left unread: a reset, not EOF
    bot_end.close()
    BOT_GONE.set()
    thread.join(5)
    assert not thread.is_alive()
    assert failures == []
    worker_end.close()


async def test_a_picture_sent_back_while_the_event_loop_is_held_is_read_without_waiting_for_it(
    workers: PictureWorkers,
) -> None:
    """A move's answer asks for its hand right after the commit, which may have held the loop
    while the worker sent the picture back: ``read_answers`` takes it then and there."""
    await workers.run("hands", echo, b"warm")
    drawing = workers.submit("hands", echo, b"hand")
    deadline = time.monotonic() + 10
    while not drawing.done() and time.monotonic() < deadline:
        time.sleep(0.01)  # holds the event loop: only a direct read can take the answer
        workers.read_answers("hands")
    assert drawing.done() and drawing.result() == b"drawn:hand"
