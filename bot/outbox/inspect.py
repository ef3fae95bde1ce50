"""What every game's delivery is doing right now, in the log, when the process gets SIGUSR1.

Why: a game whose publications stay in the outbox (a player never pinged, a table that stops
moving) leaves no trace in the log when nothing failed: the courier is waiting somewhere. This
names, per game with work pending, its entries and for each lane the work queued and the chain
of awaits its task is suspended in (``Lane._run`` → ``perform`` → ``show_hand`` → …), and the
state of the global pacer (``budget.py``), so ``kill -USR1 <pid>`` tells where it waits. The
soak's stall diagnosis (``bot/loopback/soak.py``) sends it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.outbox.budget import GlobalBudget
    from bot.outbox.dispatch import Outbox

log = logging.getLogger(__name__)

DUMP_SIGNAL = getattr(signal, "SIGUSR1", None)


def await_chain(task: asyncio.Task[Any]) -> str:
    """``_run:151 > perform:512 > show_hand:260 > <Future pending>``: where a task waits."""
    steps: list[str] = []
    awaited: Any = task.get_coro()
    while awaited is not None and len(steps) < 40:
        if isinstance(awaited, asyncio.Task):
            steps.append("task")
            awaited = awaited.get_coro()
            continue
        frame = getattr(awaited, "cr_frame", None) or getattr(awaited, "gi_frame", None)
        if frame is not None:
            steps.append(f"{frame.f_code.co_name}:{frame.f_lineno}")
            awaited = getattr(awaited, "cr_await", None) or getattr(awaited, "gi_yieldfrom", None)
            continue
        if not hasattr(awaited, "cr_code") and not hasattr(awaited, "gi_code"):
            steps.append(f"<{type(awaited).__name__}{' done' if _done(awaited) else ''}>")
        break
    return " > ".join(steps)


def _done(awaited: Any) -> bool:
    done = getattr(awaited, "done", None)
    return bool(done()) if callable(done) else False


def describe(outbox: Outbox, pacer: GlobalBudget | None = None) -> list[str]:
    """One line per game with work pending and one per lane of it; then the pacer."""
    lines = [f"outbox: {len(outbox.couriers)} courier(s), {outbox.pending_count} entries pending"]
    for game_id, courier in sorted(outbox.couriers.items()):
        pending = {
            entry_id: (p.entry.version, p.entry.kind, sorted(p.lanes))
            for entry_id, p in courier.pending.items()
        }
        lines.append(
            f"game {game_id}: pending {pending} opening={courier.opening.is_set()} "
            f"token={courier.token is not None} given_up={courier.given_up}"
        )
        for key, lane in courier.lanes.items():
            task = lane.task
            state = "no task" if task is None else "done" if task.done() else await_chain(task)
            lines.append(f"game {game_id}: lane {key} items {lane.items} task {state}")
    if pacer is not None:
        lines.append(pacer.describe())
    return lines


def dump_on_signal(outbox: Outbox, pacer: GlobalBudget | None = None) -> None:
    """Log ``describe`` whenever the process gets SIGUSR1 (where signals exist)."""
    if DUMP_SIGNAL is None:
        return

    def dump() -> None:
        for line in describe(outbox, pacer):
            log.info("%s", line)

    # (no signals on Windows or in a loop outside the main thread)
    with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
        asyncio.get_running_loop().add_signal_handler(DUMP_SIGNAL, dump)
