"""``python -m bot`` with the AI's timing log (``bot/ai/timing.py``) written to a file.

    python benchmarks/traced_bot.py TIMING_FILE [bot arguments …]

The timing lines are logged at DEBUG, which the bot's own ``LOG_LEVEL=DEBUG`` would turn on
for discord.py's every request as well (a cost a latency benchmark must not pay); this opens
only the ``bot.ai.timing`` logger, into a file of its own, one JSON object per line.
"""

from __future__ import annotations

import logging
import runpy
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    target = Path(sys.argv[1])
    timing = logging.getLogger("bot.ai.timing")
    handler = logging.FileHandler(target, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(message)s"))
    timing.addHandler(handler)
    timing.setLevel(logging.DEBUG)
    timing.propagate = False
    sys.argv = [str(REPO_ROOT / "bot" / "__main__.py"), *sys.argv[2:]]
    runpy.run_module("bot", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
