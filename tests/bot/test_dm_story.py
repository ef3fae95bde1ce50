"""The hand DM tells the story: a player who reads only their DMs learns whose turn it is and
what the others did since their own last move (issue 29, part 4). What the story may show is
proved for every game by ``test_rendering.py`` (no other seat's private line reaches a hand);
here a real game through SimCord."""

from __future__ import annotations

import random

from bot.i18n import t
from bot.render import presenter_for
from bot.render.common import log_lines, safe_names
from tests.bot.driver import (
    answer_of,
    live_dm_hand,
    message_text,
    play_one_move,
    quick_game,
)
from tests.bot.forge import forged_click


async def test_the_turn_dm_lists_the_others_moves_since_the_players_last_move(
    simcord_env,
) -> None:
    table = await quick_game(simcord_env, players=3)
    rng = random.Random(3)
    first = (await table.loaded()).state.to_move
    while (await table.loaded()).state.to_move == first:  # a Kami seat may decide twice
        await play_one_move(table, rng)
    since = (await table.loaded()).row.version  # the version of first's last move
    while (await table.loaded()).state.to_move != first:
        await play_one_move(table, rng)
    await table.bot.outbox.idle()
    loaded = await table.loaded()
    moves = await table.bot.store.recent_moves(loaded.id, 12)
    missed = [move.events for move in moves if move.version > since]
    assert missed and all(move.seat != first for move in moves if move.version > since)
    presenter = presenter_for("kami")
    expected = log_lines(presenter, missed, safe_names(loaded.names), "en")
    dm = live_dm_hand(table, first)
    assert dm is not None
    text = message_text(dm)
    assert t("hand.story", "en") in text
    for line in expected:
        assert line in text, line


async def test_not_your_turn_names_whose_turn_it_is(simcord_env) -> None:
    """A waiting player who clicks a control of their own seat (a Discord client replaying an
    old message, say) learns whose turn it is, not only that it is not theirs."""
    table = await quick_game(simcord_env, players=2)
    loaded = await table.loaded()
    on_turn = loaded.state.to_move
    other = 1 - on_turn
    player = table.players[other].user
    dm = player.dm_channel.history(viewer=player)[-1]
    custom_id = f"glory:m:{loaded.id}:{loaded.row.version}:{other}:0"
    result = await forged_click(table.env, player, dm, custom_id)
    decision = presenter_for("kami").decision(loaded.state.decision, "en")
    name = safe_names(loaded.names)[on_turn]
    expected = t("move.not_your_turn", "en", name=name, decision=decision)
    assert message_text(answer_of(result).message).strip() == expected
