"""A replaced hand DM is deleted exactly once, whichever way its deletion goes (the channel,
or the last click's token, ``bot/outbox/click_tokens.py``) and whatever a click on it does
meanwhile (``bot/storage/hand_adoption.py``)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import discord

from bot.pictures.attach import for_new_message
from tests.bot.driver import (
    Table,
    as_sent,
    live_dm_hand,
    menu_custom_id,
    play_to_end,
    quick_game,
    seat_on_turn,
)
from tests.bot.forge import forged_click


def deletions(env: Any) -> Counter[int]:
    """Every message the bot asked Discord to delete, by id, through either route (a DM's
    channel, or the token of a click that updated it): a deletion of a message gone already
    counts too (Discord answers it 404)."""
    asked: Counter[int] = Counter()
    for request in env.http_requests:
        if request.method != "DELETE" or "/messages/" not in request.path:
            continue
        if request.path.endswith("/messages/@original"):
            token = request.path.split("/")[3]
            asked[env.backend.interaction_by_token(token).source_message_id] += 1
        else:
            asked[int(request.path.rsplit("/", 1)[1])] += 1
    return asked


async def hand_and_copy(table: Table, seat: int) -> tuple[Any, Any]:
    """Seat's hand DM as recorded (once the first DMs are delivered), and a second DM the bot
    made showing the same, which no record names (yet)."""
    await table.bot.outbox.idle()
    user = table.players[seat].user
    hand = live_dm_hand(table, seat)
    assert hand is not None
    dm = table.bot.get_partial_messageable(user.dm_channel.id, type=discord.ChannelType.private)
    return hand, await dm.send(**for_new_message(as_sent(hand)))


async def move_from(env: Any, table: Table, seat: int, message: Any) -> int:
    """The seat's first legal move, clicked in ``message``; the game's version before it."""
    loaded = await table.loaded()
    version = loaded.row.version
    custom_id = menu_custom_id(loaded, seat, loaded.state.legal_actions()[0])
    result = await forged_click(env, table.players[seat].user, message, custom_id)
    assert result.acknowledged
    return version


async def test_a_move_answered_in_a_dm_the_courier_deleted_meanwhile_keeps_the_newer_dm_the_hand(
    simcord_env: Any,
) -> None:
    """The race behind the double deletions of hand DMs under load: the player moves from
    their DM while the courier replaces it. The click's answer updates the old DM just before
    the courier deletes it and forgets it, so the click finds a DM the seat's record does not
    name. It is older than the recorded hand: the newer DM stays the hand (taken for a DM the
    bot forgot, the old one became the hand, the newer one was deleted, and the old one was
    deleted a second time, a 404). Played to the end, no DM is deleted twice."""
    table = await quick_game(simcord_env)
    seat = seat_on_turn(table)
    assert seat is not None
    # The courier's side as it stands when the click's answer comes back: ``newer`` recorded,
    # ``old`` deleted and forgotten (the deletion reached Discord just after the answer).
    old, newer = await hand_and_copy(table, seat)
    version = (await table.loaded()).row.version
    user = table.players[seat].user
    await table.bot.store.set_hand_message(
        table.game_id, seat, user.dm_channel.id, newer.id, version, stale=None
    )
    await move_from(simcord_env, table, seat, old)
    await old.delete()  # the courier's deletion, which the click's answer beat by a moment
    await table.bot.outbox.idle()
    after = await table.loaded()
    assert after.row.version == version + 1  # the move counts
    assert after.seats[seat].hand_message_id == newer.id
    assert after.seats[seat].stale_hand_message_id is None
    await play_to_end(table, random.Random(3))
    await table.bot.outbox.idle()
    deleted = deletions(simcord_env)
    assert deleted[old.id] == 1
    assert [m for m, times in deleted.items() if times > 1] == []


async def test_a_dm_discord_made_for_a_process_that_died_becomes_the_hand_when_clicked(
    simcord_env: Any,
) -> None:
    """The other kind of DM a record does not name: newer than the recorded hand (Discord made
    it, the process died before recording it). A move from it makes it the hand, and the
    recorded one is deleted, once."""
    table = await quick_game(simcord_env)
    seat = seat_on_turn(table)
    assert seat is not None
    recorded, unrecorded = await hand_and_copy(table, seat)
    await move_from(simcord_env, table, seat, unrecorded)
    await table.bot.outbox.idle()
    after = await table.loaded()
    assert after.seats[seat].hand_message_id == unrecorded.id
    assert after.seats[seat].stale_hand_message_id == recorded.id
    await play_to_end(table, random.Random(3))
    await table.bot.outbox.idle()
    deleted = deletions(simcord_env)
    assert deleted[recorded.id] == 1
    assert [m for m, times in deleted.items() if times > 1] == []
