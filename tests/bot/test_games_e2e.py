"""Complete games of every game through SimCord: /play, lobby clicks, DMs, menus, the table.

The cases cover every player count and every option value (see ``combos.py``); players pick
random legal menu paths by clicking. After the game the table shows the result, the results are
stored for the standings, and no public message ever carried private text.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from sqlmodel import select

from bot.render import presenter_for
from bot.render.common import log_lines, safe_names
from bot.render.messages import table_layout
from bot.storage.models import GameStatus, ResultRow
from games import REGISTRY
from tests.bot.combos import e2e_cases
from tests.bot.driver import (
    layout_texts,
    message_text,
    new_table,
    open_lobby,
    play_to_end,
    start,
    table_message,
    texts,
)


def public_texts(table) -> list[str]:
    """Everything anyone (not only a player) can read in the channel."""
    return [message_text(m) for m in table.channel.history()]


async def assert_no_private_text(table) -> None:
    loaded = await table.loaded()
    presenter = presenter_for(loaded.row.game_key)
    public = "\n".join(public_texts(table))
    assert "Your hand" not in public and "Only you saw" not in public
    for seat in range(len(loaded.seats)):
        hand_line = presenter.hand_lines(loaded.state.view(seat), safe_names(loaded.names), "en")[0]
        assert hand_line not in public


async def assert_table_is_public_view(table) -> None:
    """The table message is exactly what view(None) and public events produce."""
    loaded = await table.loaded()
    recent = await table.bot.publisher.recent_events(loaded)
    presenter, locale = presenter_for(loaded.row.game_key), loaded.row.locale
    log = log_lines(presenter, recent, safe_names(loaded.names), locale)
    expected = table_layout(loaded, presenter, log, locale)
    assert texts(await table_message(table)) == layout_texts(expected)


def cases() -> list[Any]:
    return [
        pytest.param(key, players, options, id=f"{key}-{players}-{options}")
        for key, players, options in e2e_cases()
    ]


@pytest.mark.parametrize(("key", "players", "options"), cases())
async def test_complete_game(simcord_env, key: str, players: int, options: dict[str, Any]) -> None:
    table = new_table(simcord_env, players)
    await open_lobby(table, key, options)
    loaded = await table.loaded()
    expected = REGISTRY[key].resolve_options(players, options)
    assert loaded.row.options == expected
    await start(table)
    rng = random.Random(f"{key}{players}{sorted(options.items())}")
    for _ in range(3):  # check the table and privacy early in the game too
        await play_one_and_check(table, rng)
    loaded = await play_to_end(table, rng)
    assert loaded.status is GameStatus.FINISHED and loaded.state.is_over
    final = message_text(await table_message(table))
    assert "The game is over" in final
    for seat in loaded.state.winners:
        assert loaded.names[seat] in final
    await assert_table_is_public_view(table)
    await assert_no_private_text(table)
    async with table.bot.store.session() as session:
        results = (await session.exec(select(ResultRow))).all()
    assert sorted(r.seat for r in results) == list(range(players))
    assert {r.seat for r in results if r.won} == set(loaded.state.winners)
    assert all(r.outcome == "finished" for r in results)


async def play_one_and_check(table, rng) -> None:
    from tests.bot.driver import play_one_move

    if (await table.loaded()).status is GameStatus.ACTIVE:
        await play_one_move(table, rng)
        await assert_table_is_public_view(table)
        await assert_no_private_text(table)
