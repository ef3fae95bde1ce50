"""AI players in the real bot process: searches in worker processes, moves through the normal
path, and a kill -9 in the middle of a search is answered by the restarted bot deciding again."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

from games import REGISTRY

from .bot_process import glory_bot
from .emulator import Emulator
from .test_glory_bot import assert_clean_log
from .ui_players import (
    Table,
    act_randomly,
    has_hand_button,
    highest_version,
    play_to_end,
    wait_for_movers,
)

AI_SETTINGS = {"AI_WORKERS": "1", "AI_PAUSE_SECONDS": "0"}


def stored_game(database: Path) -> tuple[int, str, int | None]:
    """Version, status and the seat on turn, read from the SQLite file itself."""
    with sqlite3.connect(database) as connection:
        version, status, game_key, state = connection.execute(
            "SELECT version, status, game_key, state FROM games ORDER BY id DESC LIMIT 1"
        ).fetchone()
    to_move = REGISTRY[game_key].state_from_json(json.loads(state)).to_move if state else None
    return version, status, to_move


def move_versions(database: Path) -> list[int]:
    with sqlite3.connect(database) as connection:
        rows = connection.execute("SELECT version FROM moves ORDER BY version").fetchall()
    return [version for (version,) in rows]


async def test_a_search_cut_short_by_kill_9_is_made_again_after_the_restart(
    emulator: Emulator, tmp_path: Path
) -> None:
    alice = emulator.add_actor("alice")
    rng = random.Random("ai kill 9")
    database = tmp_path / "glory.db"
    async with glory_bot(emulator, tmp_path, AI_SETTINGS) as bot:
        lobby = await (await alice.slash("play", game="call_to_glory", options="rounds=1")).settled(
            timeout=10
        )
        seats = next(
            c["custom_id"]
            for row in lobby.components
            for c in row["components"]
            if c["custom_id"].startswith("glory:seats:")
        )
        await (await alice.select(lobby, ["a2"], custom_id=seats)).response(timeout=10)
        await (await alice.click(lobby, label="Start")).response(timeout=10)
        await emulator.wait_for(lambda: highest_version([alice]) >= 1, timeout=10, what="a hand")
        message = await emulator.wait_for(
            lambda: next(
                (m for m in emulator.messages_in(emulator.channel) if has_hand_button(m)), None
            ),
            timeout=10,
            what="the table",
        )
        table = Table(emulator, [alice], message)

        # Alice plays until her move hands the turn to the strong AI; the bot is killed at
        # once, while the worker searches (no pause is configured before an AI move).
        killed_mid_search = False
        for _ in range(200):
            movers = await wait_for_movers(table)
            assert movers, "the game ended before the AI was caught searching"
            version = stored_game(database)[0]
            await act_randomly(alice, rng)
            after, _, to_move = stored_game(database)
            if after == version + 1 and to_move == 1:
                await bot.kill()
                dead_version, _, dead_to_move = stored_game(database)
                if dead_version == after and dead_to_move == 1:
                    killed_mid_search = True
                    break
                await bot.start()
                await bot.wait_ready(emulator)
        assert killed_mid_search

        await bot.start()
        await bot.wait_ready(emulator)
        # Nobody clicks: the restarted bot searches again and the AI moves.
        await emulator.wait_for(
            lambda: stored_game(database)[0] > dead_version, timeout=20, what="the AI's move"
        )
        await play_to_end(table, rng)
        version, status, _ = stored_game(database)
        assert status == "finished"
        assert move_versions(database) == list(range(1, version + 1))  # no move lost or doubled
        await assert_clean_log(bot, emulator)
