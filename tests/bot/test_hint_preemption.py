"""An AI seat's move is never held behind one player's hint (issue 31), through SimCord with
a real AI worker process: the hint's search is stopped for the move, and searched again,
at its full budget, once the move is stored; the player still gets their hint."""

from __future__ import annotations

import random

import pytest

from bot.ai.pool import Preempted
from tests.bot.conftest import make_bot
from tests.bot.driver import commit_behind_discords_back, new_table, quick_game, seat_on_turn, start
from tests.bot.search_stand_ins import held
from tests.bot.test_ai_players import open_with_ai, settle_until_human_turn
from tests.bot.test_hints import hinted_move, hints_used, legal_move_words


@pytest.fixture
def simcord_bot(database_url):
    """The bot with one AI worker process (not a thread: a thread's search cannot be stopped)."""
    return make_bot(database_url, ai_workers=1)


@pytest.mark.simcord(settle_timeout=45.0)  # a worker process starts slowly on a busy machine
async def test_an_ai_seats_move_is_not_held_behind_a_hint_and_the_hint_is_still_answered(
    simcord_env,
) -> None:
    bot = simcord_env.bot
    bot.autoplay.pool.function = held
    hinted = await quick_game(simcord_env)  # two people
    other = new_table(simcord_env, 1)  # one person and an easy AI player
    await open_with_ai(other, "kami", [0])
    await start(other)
    assert await settle_until_human_turn(other, 1) == 0
    # The person at the other table moves; the AI player is to move next (told below).
    ai_seat = await commit_behind_discords_back(other, random.Random(7))
    before = (await other.loaded()).row.version
    events: list[str] = []
    decide = bot.autoplay.pool.decide

    async def watched(request, **options):
        kind = "hint" if options.get("preemptible") else "move"
        events.append(f"{kind} searched")
        if kind == "hint" and events.count("hint searched") == 1:
            # The hint's search would hold the only worker for a minute; meanwhile the other
            # table's AI player comes on turn.
            request = {**request, "hold": 60}
            bot.autoplay.turn_changed(other.game_id)
        try:
            answer = await decide(request, **options)
        except Preempted:
            events.append(f"{kind} stopped")
            raise
        events.append(f"{kind} answered")
        return answer

    bot.autoplay.pool.decide = watched
    seat = seat_on_turn(hinted)
    legal = await legal_move_words(hinted, seat)
    # (Held to its end, the search would outlast SimCord's settling: the click would fail.)
    result = await hinted.players[seat].member.slash(hinted.channel, "hint")
    # The hint stopped for the move, and searched again only after it (the AI player may
    # have moved more than once: it may be on turn again after its own move).
    assert events[:4] == ["hint searched", "hint stopped", "move searched", "move answered"]
    assert events[-2:] == ["hint searched", "hint answered"]
    assert events.count("hint stopped") == 1 and "move stopped" not in events
    moved = await other.loaded()
    assert moved.row.version > before
    last = await bot.store.recent_moves(other.game_id, 1)
    assert last[0].seat == ai_seat
    assert hinted_move(result.response.content) in legal
    assert await hints_used(hinted) == [1 if s == seat else 0 for s in range(2)]
