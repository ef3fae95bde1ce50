"""A complete game of each game, played in headless Chromium through the playground's page
against the real bot process: ``/play`` from the command box, "Fill with AI" or a second
person joining, Start, then the players' hands clicked until the table says who won.

Each game runs in its own channel and its own browser tab, the three at once (the bot serves
them together, as it would three servers' games). Call to Glory and Clans and Glory seat one
AI player; Kami is played by two people at the page, switching between them in the page's
player tabs. Discord's rate limits stay on, with their windows at a tenth (the same limits,
over sooner), so the page never shows what Discord would refuse and the test stays short.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from bot.i18n import t
from bot.playground.browser import (
    DESKTOP,
    GAMES,
    PLAYERS,
    GameSetup,
    PagePlayer,
    chromium,
    play_game,
)
from bot.playground.session import Playground, PlaygroundOptions
from bot.playground.web import PageServer

from .conftest import browser_or_skip

SETUPS = GAMES
OPTIONS = PlaygroundOptions(
    players=PLAYERS,
    rate_limit_scale=0.1,
    bot_settings={"AI_WORKERS": "1", "AI_PAUSE_SECONDS": "0"},
)
GAME_OVER = t("table.winners", "en", count=1, names="{names}").split("{names}")[0].strip("*")
""""The game is over. Winner: " as the table shows it (its markdown drawn, not shown)."""


async def test_a_whole_game_of_each_game_is_played_through_the_page(tmp_path: Path) -> None:
    executable = browser_or_skip()
    shots = tmp_path / "shots"
    shots.mkdir()
    playground = Playground(OPTIONS)
    async with playground.running(), PageServer(playground, 0) as server:
        async with chromium(executable) as browser:

            async def play(setup: GameSetup) -> tuple[int, str, list[str]]:
                page = await browser.new_page(viewport=DESKTOP)
                player = PagePlayer(page, server.url)
                await player.open()
                steps = await play_game(player, setup, shots=shots)
                ending = page.locator("#channel-messages article.message").filter(
                    has_text=GAME_OVER
                )
                await ending.last.wait_for()
                return steps, await ending.last.inner_text(), player.errors

            played = await asyncio.gather(*(play(setup) for setup in SETUPS))
        emulator = playground.emulator
        assert list(emulator.refused_payloads) == []  # nothing Discord would refuse
        assert emulator.unhandled == []
        assert playground.failures == []  # every click answered within Discord's 3 s
        assert emulator.late_interactions() == []
        with sqlite3.connect(playground.database_path) as database:
            games = database.execute("SELECT game_key, status FROM games ORDER BY id").fetchall()
    for setup, (steps, ending, errors) in zip(SETUPS, played, strict=True):
        assert steps > 0, setup.game
        assert errors == [], (setup.game, errors)  # no JavaScript error on the page
        winner = ending.split(GAME_OVER, 1)[1].split(".")[0]
        assert winner, ending  # the end screen names the winner
    assert sorted(games) == sorted((setup.game, "finished") for setup in SETUPS)
    for setup in SETUPS:
        for moment in ("lobby", "table", "hand"):
            picture = shots / f"{setup.game}_{moment}.png"
            assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", picture
