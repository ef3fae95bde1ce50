"""AI players in the real bot process: searches in worker processes, moves through the normal
path, and a kill -9 in the middle of a search is answered by the restarted bot deciding again."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from pathlib import Path

from bot.loopback import Emulator
from bot.loopback.bot_process import glory_bot
from bot.loopback.ui_players import (
    Table,
    act_randomly,
    has_hand_button,
    highest_version,
    open_and_start,
    play_to_end,
    wait_for_movers,
)
from games import REGISTRY

from .test_glory_bot import assert_clean_log

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


SHORT_GAMES = {"call_to_glory": "rounds=1", "kami": "target=5", "clans_and_glory": None}


def statuses(database: Path) -> dict[int, str]:
    with sqlite3.connect(database) as connection:
        return dict(connection.execute("SELECT id, status FROM games").fetchall())


async def test_every_game_and_player_count_finishes_with_one_human_among_ai_players(
    emulator: Emulator, tmp_path: Path
) -> None:
    """Nine tables at once in the real process: each game with 2, 3 and 4 seats, one human
    and the rest easy AI players, all played to the end."""
    rng = random.Random("ai tables")
    database = tmp_path / "glory.db"
    async with glory_bot(emulator, tmp_path, AI_SETTINGS) as bot:
        tables = []
        for game, options in SHORT_GAMES.items():
            for players in (2, 3, 4):
                human = emulator.add_actor(f"{game}{players}")
                channel = await emulator.add_channel(f"{game}-{players}")
                ai = ("easy",) * (players - 1)
                tables.append(
                    await open_and_start(
                        emulator, [human], game, channel=channel, options=options, ai=ai
                    )
                )
        await asyncio.gather(*(play_to_end(table, random.Random(rng.random())) for table in tables))
        assert sorted(statuses(database).values()) == ["finished"] * len(tables)
        for table in tables:
            assert not table.running  # every table shows its result
        with sqlite3.connect(database) as connection:
            ai_dms = connection.execute(
                "SELECT count(*) FROM seats WHERE ai_level IS NOT NULL AND hand_message_id"
                " IS NOT NULL"
            ).fetchone()[0]
        assert ai_dms == 0
        await assert_clean_log(bot, emulator)
