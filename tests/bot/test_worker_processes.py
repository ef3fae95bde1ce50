"""A bot killed with kill -9 leaves no worker process behind (AI searches, pictures).

The bot's worker processes are forked by multiprocessing's fork server. A process standing
in for the bot starts both kinds of workers, reports their pids and the fork server's, and
is killed with SIGKILL; every one of those processes must then end by itself.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from bot.pictures.workers import NICENESS, PictureWorkers
from bot.process.worker_processes import running

REPO = Path(__file__).resolve().parents[2]

STAND_IN = textwrap.dedent(
    """
    import asyncio, json, multiprocessing.forkserver as forkserver, sys
    from bot.ai.pool import SearchPool
    from bot.pictures.workers import PictureWorkers

    async def main():
        search = SearchPool(1)
        search.start()
        pictures = PictureWorkers(1)
        pictures.start(["tables", "hands"])
        await asyncio.get_running_loop().run_in_executor(search._pool(), int)
        for workers in pictures._workers.values():
            for worker in workers:
                await pictures.run(worker.lane, bytes, 0)
        pids = [p.pid for p in search._pool()._processes.values()]
        pids += [w.process.pid for ws in pictures._workers.values() for w in ws]
        pids.append(forkserver._forkserver._forkserver_pid)
        print(json.dumps(pids), flush=True)
        await asyncio.sleep(600)

    asyncio.run(main())
    """
)


def test_the_workers_and_their_fork_server_end_when_the_bot_is_killed() -> None:
    stand_in = subprocess.Popen(
        [sys.executable, "-c", STAND_IN], cwd=REPO, stdout=subprocess.PIPE, text=True
    )
    try:
        assert stand_in.stdout is not None
        pids = json.loads(stand_in.stdout.readline())
        assert len(pids) == 4 and all(running(pid) for pid in pids)
    finally:
        os.kill(stand_in.pid, signal.SIGKILL)
        stand_in.wait(timeout=10)
    deadline = time.monotonic() + 20
    while any(running(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert [pid for pid in pids if running(pid)] == [], "processes left behind by the bot"


def test_a_zombie_does_not_count_as_running() -> None:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    deadline = time.monotonic() + 10
    while running(child.pid) and time.monotonic() < deadline:
        time.sleep(0.05)  # exited, not yet reaped: a zombie
    assert not running(child.pid)
    child.wait()
    assert running(os.getpid())


async def test_the_picture_workers_are_batch_jobs_below_the_bot_and_tables_lowest() -> None:
    """A worker handed a picture must not take the CPU from the bot in the middle of a click
    (lower priority, SCHED_BATCH); a table may wait longer than a hand, which answers one."""
    pictures = PictureWorkers(1)
    try:
        pictures.start(["tables", "hands"])
        for lane in ("tables", "hands"):
            await pictures.run(lane, bytes, 0)  # the worker has settled
        table_pid = pictures._workers["tables"][0].process.pid
        hand_pid = pictures._workers["hands"][0].process.pid
        own = os.getpriority(os.PRIO_PROCESS, 0)
        for pid in (table_pid, hand_pid):
            assert os.sched_getscheduler(pid) == os.SCHED_BATCH
        assert os.getpriority(os.PRIO_PROCESS, table_pid) >= own + NICENESS["tables"]
        assert os.getpriority(os.PRIO_PROCESS, hand_pid) >= own + NICENESS["hands"]
        assert NICENESS["tables"] > NICENESS["hands"] > 0
    finally:
        pictures.close()
