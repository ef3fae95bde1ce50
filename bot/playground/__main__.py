"""``python -m bot.playground``: the same as ``glory playground``."""

import sys

from bot.playground.cli import main

if __name__ == "__main__":
    sys.exit(main())
