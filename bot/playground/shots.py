"""``python -m bot.playground.shots [DIR]`` (``make playground-shots``): the playground's pictures
in docs/pictures/playground, taken anew.

Plays ``browser.GAMES`` through the page in headless Chromium, as the browser test does, and
keeps a picture of the lobby, of the table and of a hand of each game, as a phone shows them.
Development only (Playwright and a Chromium; emoji need Debian's fonts-noto-color-emoji).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from .browser import DESKTOP, GAMES, PLAYERS, PagePlayer, chromium, play_game
from .session import Playground, PlaygroundOptions
from .web import PageServer

DEFAULT_DIRECTORY = Path("docs/pictures/playground")


async def take(directory: Path) -> list[Path]:
    """Play every game and write its three pictures into ``directory``; the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    options = PlaygroundOptions(
        players=PLAYERS,
        rate_limit_scale=0.1,
        bot_settings={"AI_WORKERS": "1", "AI_PAUSE_SECONDS": "0"},
    )
    playground = Playground(options)
    async with playground.running(), PageServer(playground, 0) as server, chromium() as browser:
        for setup in GAMES:  # one at a time: the pictures do not depend on the machine's load
            page = await browser.new_page(viewport=DESKTOP)
            player = PagePlayer(page, server.url)
            await player.open()
            await play_game(player, setup, shots=directory)
            await page.close()
    return sorted(directory.glob("*.png"))


def main(argv: list[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    directory = Path(arguments[0]) if arguments else DEFAULT_DIRECTORY
    for path in asyncio.run(take(directory)):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
