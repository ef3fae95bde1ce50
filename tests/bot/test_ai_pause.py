"""An AI seat's readable pause and its search run together (issue 31): the search is asked for
the moment the turn passes to the seat, and the move is stored when the pause is over, never
sooner, so a search hides inside the pause instead of adding to it. Through SimCord, on its
virtual time."""

from __future__ import annotations

import random

import pytest

from tests.bot.conftest import make_bot
from tests.bot.driver import new_table, start
from tests.bot.test_ai_players import human_move, open_with_ai

PAUSE = 30.0
"""Virtual seconds: far beyond SimCord's settling of a click, so only ``advance_time`` ends it."""


@pytest.fixture
def simcord_bot(database_url):
    return make_bot(database_url, ai_pause_seconds=PAUSE)


async def test_an_ai_seat_searches_during_its_pause_and_moves_only_when_it_is_over(
    simcord_env,
) -> None:
    env = simcord_env
    table = new_table(env, 1)
    await open_with_ai(table, "kami", [0])  # an easy AI player
    asked: list[tuple[int, int]] = []
    decide = env.bot.autoplay.pool.decide

    async def watched(request, **options):
        asked.append((request["seat"], (await table.loaded()).row.version))
        return await decide(request, **options)

    env.bot.autoplay.pool.decide = watched
    await start(table)
    rng = random.Random(5)
    for _ in range(50):
        if (await table.loaded()).state.to_move == 1:
            break
        await env.advance_time(PAUSE + 1)  # any AI move pending is made
        if (await table.loaded()).state.to_move == 0:
            await human_move(table, 0, rng)
    loaded = await table.loaded()
    assert loaded.state.to_move == 1, "the AI player is on turn"
    version = loaded.row.version
    assert (1, version) in asked, "its search was asked at once"
    await env.advance_time(PAUSE - 2)
    assert (await table.loaded()).row.version == version, "not before the pause"
    await env.advance_time(3)
    assert (await table.loaded()).row.version > version, "moved when it was over"
