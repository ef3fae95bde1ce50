"""What every worker process of the bot does first (AI searches, pictures)."""

from __future__ import annotations

import contextlib
import os
import threading
import time

ORPHAN_CHECK_SECONDS = 1.0


def settle_worker(niceness: int, bot_pid: int) -> None:
    """Lower the worker's priority (``niceness`` > 0 yields the CPU to the bot's clicks on a
    small host) and end the worker when the bot (process ``bot_pid``) is gone.

    A worker with a lower priority is also a batch job for the scheduler (``SCHED_BATCH``,
    Linux): when the bot hands it a picture or a search, the kernel no longer switches to it at
    once, in the middle of the click the bot is answering. A profile of the bot at 300 clicks/s
    (``py-spy``) showed that switch as 7 % of the bot's samples spent in the socket write that
    hands a worker its picture, and 2 % with every worker a batch job. The hands' worker was
    left out at first (a click's answer waits for its picture, which came later); since the
    pictures take a third of their CPU and a move's hand is handed over before its commit, it
    is one too (``bot/pictures/workers.py``, ``NICENESS``).

    Why the bot's pid and not the worker's parent: workers are forked by multiprocessing's
    fork server, and every worker keeps a copy of the pipe by which the fork server learns
    that the bot is gone. After a kill -9 of the bot the fork server therefore never learnt
    it and lived on, and so did its workers, which waited for their parent to change: each
    crash of the bot left a fork server and its workers behind (seen as dozens of them after
    the tests' kill -9 cases). A worker that watches the bot itself ends, and once the last
    one has, the fork server sees the pipe closed and ends too."""
    if niceness:
        if hasattr(os, "SCHED_BATCH"):
            with contextlib.suppress(OSError):  # a sandbox may refuse it; niceness still holds
                os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))
        os.nice(niceness)

    def watch() -> None:
        while running(bot_pid):
            time.sleep(ORPHAN_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def running(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, killed but not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:  # no /proc (not Linux): whether a signal could reach it
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True
