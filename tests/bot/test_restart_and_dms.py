"""Restart-proof controls and players whose DMs are closed."""

from __future__ import annotations

import random

from sqlmodel import select

from bot.storage.models import GameStatus, UserRow
from tests.bot.conftest import make_bot
from tests.bot.driver import (
    current_table,
    live_dm_hand,
    new_table,
    open_lobby,
    play_one_move,
    play_to_end,
    quick_game,
    seat_on_turn,
    start,
)


async def test_a_restart_mid_game_keeps_every_old_control_working(
    simcord_env, database_url
) -> None:
    table = await quick_game(simcord_env)
    rng = random.Random(5)
    for _ in range(4):
        await play_one_move(table, rng)
    seat = seat_on_turn(table)
    old_dm = live_dm_hand(table, seat)
    old_table = current_table(table)
    await simcord_env.restart_bot(make_bot(database_url))
    # a DM control sent before the restart still plays
    version = (await table.loaded()).row.version
    first = old_dm.components[0].children[0]
    if hasattr(first, "options"):
        result = await table.players[seat].user.select(
            old_dm, [first.options[0].value], custom_id=first.custom_id
        )
    else:
        result = await table.players[seat].user.click(old_dm, custom_id=first.custom_id)
    assert result.acknowledged and not result.ephemeral
    # the table's My hand button from before the restart still answers
    hand = await table.players[0].member.click(old_table, label="My hand")
    assert hand.ephemeral and "Your hand" in hand.response.message.embeds[0].description
    loaded = await play_to_end(table, rng)
    assert loaded.status is GameStatus.FINISHED
    assert loaded.row.version > version


async def test_closed_dms_fall_back_to_my_hand_and_are_told_once(simcord_env) -> None:
    table = new_table(simcord_env, 3, closed_dms=(1,))
    await open_lobby(table, "clans_and_glory")
    await start(table)
    closed = table.players[1]
    notices = [m for m in table.channel.history() if closed.member.mention in m.content]
    assert len(notices) == 1 and "My hand" in notices[0].content
    assert "Your hand" not in notices[0].content
    async with table.bot.store.session() as session:
        user = (await session.exec(select(UserRow).where(UserRow.user_id == closed.user.id))).one()
    assert user.dms_closed_at is not None
    dm_attempts = len(
        [
            r
            for r in simcord_env.http_requests
            if r.path == f"/channels/{closed.user.dm_channel.id}/messages"
        ]
    )
    loaded = await play_to_end(table, random.Random(8))
    assert loaded.status is GameStatus.FINISHED
    notices = [m for m in table.channel.history() if closed.member.mention in m.content]
    assert len(notices) == 1, "the closed-DM notice is posted once, not every turn"
    later_attempts = len(
        [
            r
            for r in simcord_env.http_requests
            if r.path == f"/channels/{closed.user.dm_channel.id}/messages"
        ]
    )
    assert later_attempts == dm_attempts, "closed DMs are remembered, not retried every turn"
    # the next game in this channel tells them again, once, without trying a DM
    await open_lobby(table, "clans_and_glory")
    await start(table)
    notices = [m for m in table.channel.history() if closed.member.mention in m.content]
    assert len(notices) == 2
    attempts = [
        r
        for r in simcord_env.http_requests
        if r.path == f"/channels/{closed.user.dm_channel.id}/messages"
    ]
    assert len(attempts) == dm_attempts
