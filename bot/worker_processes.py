"""What every worker process of the bot does first (AI searches, pictures)."""

from __future__ import annotations

import os
import threading
import time

ORPHAN_CHECK_SECONDS = 1.0


def settle_worker(niceness: int) -> None:
    """Lower the worker's priority (``niceness`` > 0 yields the CPU to the bot's clicks on a
    small host) and end the worker when the bot is gone: a bot killed with SIGKILL cannot
    shut its pools down, and a worker waiting for requests would otherwise live on (its
    parent, the fork server, ends with the bot, so the worker is handed to another parent)."""
    if niceness:
        os.nice(niceness)
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(ORPHAN_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()
