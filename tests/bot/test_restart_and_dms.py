"""Restart-proof controls and players whose DMs are closed."""

from __future__ import annotations

import random

import discord
from sqlmodel import select

from bot.flows.moves import move_publication, private_parts
from bot.pictures.attach import for_new_message
from bot.storage.models import GameStatus, UserRow
from bot.storage.repository import MoveRecord
from tests.bot.conftest import make_bot
from tests.bot.driver import (
    Table,
    as_sent,
    commit_behind_discords_back,
    components,
    current_table,
    footer_text,
    live_dm_hand,
    menu_custom_id,
    message_text,
    new_table,
    open_lobby,
    play_one_move,
    play_to_end,
    quick_game,
    seat_on_turn,
    start,
    table_version,
)
from tests.bot.forge import forged_click


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
    first = components(old_dm)[0]
    if hasattr(first, "options"):
        result = await table.players[seat].user.select(
            old_dm, [first.options[0].value], custom_id=first.custom_id
        )
    else:
        result = await table.players[seat].user.click(old_dm, custom_id=first.custom_id)
    assert result.acknowledged and not result.ephemeral
    # the table's My hand button from before the restart still answers
    hand = await table.players[0].member.click(old_table, label="My hand")
    assert hand.ephemeral and "Your hand" in message_text(hand.response.message)
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


async def test_a_turn_whose_dm_a_crash_prevented_is_sent_at_start_up(
    simcord_env, database_url
) -> None:
    table = await quick_game(simcord_env, players=3)
    rng = random.Random(11)
    await play_one_move(table, rng)
    next_seat = await commit_behind_discords_back(table, rng)
    version = (await table.loaded()).row.version
    assert table_version(table) < version, "the table must be behind, as after a crash"
    stale = live_dm_hand(table, next_seat)
    assert stale is None or f":{version}:" not in components(stale)[0].custom_id
    assert await table.bot.store.pending_publications(), "the moves' publications are stored"

    await simcord_env.restart_bot(make_bot(database_url))
    await table.bot.outbox.idle()

    dm = live_dm_hand(table, next_seat)
    assert dm is not None, "the player on turn gets their DM after the restart"
    assert components(dm)[0].custom_id.split(":")[3] == str(version)
    assert table_version(table) == version
    assert seat_on_turn(table) == next_seat
    assert await table.bot.store.pending_publications() == [], "delivered and forgotten"
    # a second restart does not ping again: nothing is left to deliver
    user = table.players[next_seat].user
    sent = len(user.dm_channel.history(viewer=user))
    await simcord_env.restart_bot(make_bot(database_url))
    await table.bot.outbox.idle()
    assert len(user.dm_channel.history(viewer=user)) == sent
    await play_one_move(table, rng)


async def test_a_player_who_moves_again_gets_live_controls_though_the_clicks_answer_was_lost(
    simcord_env, database_url
) -> None:
    """A move that leaves its player on turn with the same hand (common in Kami) still makes
    their controls stale; if the process dies before the click is answered, the outbox must
    bring their DM to the new version, or they can never move again."""
    table = await quick_game(simcord_env)
    rng = random.Random(3)
    while True:
        loaded = await table.loaded()
        seat = loaded.state.to_move
        before = private_parts(loaded.view, len(loaded.seats))
        for action in loaded.state.legal_actions():
            state = loaded.mutable_state()
            events = state.apply(action)
            after = private_parts(state.view, len(loaded.seats))
            if state.to_move == seat and after[seat] == before[seat]:
                break
        else:
            await play_one_move(table, rng)
            continue
        break
    publication = move_publication(state, len(loaded.seats), before, seat)
    version = loaded.row.version + 1
    assert seat in publication.body["hands"], "the seat on turn's controls are republished"
    await table.bot.store.commit_move(
        loaded.id,
        expected_version=loaded.row.version,
        state=state.to_json(),
        move=MoveRecord(seat=seat, action=action.to_json(), events=events),
        publication=publication,
    )
    assert components(live_dm_hand(table, seat))[0].custom_id.split(":")[3] != str(version)

    await simcord_env.restart_bot(make_bot(database_url))
    await table.bot.outbox.idle()
    dm = live_dm_hand(table, seat)
    assert components(dm)[0].custom_id.split(":")[3] == str(version)
    await play_one_move(table, rng)
    assert (await table.loaded()).row.version == version + 1


async def test_at_the_end_a_player_keeps_only_the_final_hand_of_that_game(simcord_env) -> None:
    """A hand DM the bot cannot know of (Discord made it for a process that died) is deleted
    when the game ends; DMs of other games stay."""
    table = await quick_game(simcord_env)
    user = table.players[1].user
    dm = table.bot.get_partial_messageable(user.dm_channel.id, type=discord.ChannelType.private)
    footer = "Game #{} · move 2"
    left_behind = await dm.send(embed=discord.Embed().set_footer(text=footer.format(table.game_id)))
    other_game = await dm.send(embed=discord.Embed().set_footer(text=footer.format(999)))
    loaded = await play_to_end(table, random.Random(4))
    assert loaded.status is GameStatus.FINISHED
    await table.bot.outbox.idle()
    left = {m.id for m in user.dm_channel.history(viewer=user)}
    assert left_behind.id not in left
    assert other_game.id in left
    this_game = [
        m for m in user.dm_channel.history(viewer=user) if f"#{table.game_id} ·" in footer_text(m)
    ]
    assert [m.id for m in this_game] == [loaded.seats[1].hand_message_id]


async def test_a_move_from_the_dm_a_newer_one_replaced_keeps_the_newer_one_as_the_hand(
    simcord_env,
) -> None:
    """The DM a newer one replaced waits for deletion; a click on it may still play (after an
    in-place refresh its controls are current). It is not taken for a DM the bot forgot: the
    newer DM stays the hand and is brought up to date, the old one is deleted."""
    table = await quick_game(simcord_env)
    seat = seat_on_turn(table)
    user = table.players[seat].user
    old = live_dm_hand(table, seat)
    dm = table.bot.get_partial_messageable(user.dm_channel.id, type=discord.ChannelType.private)
    newer = await dm.send(**for_new_message(as_sent(old)))
    version = (await table.loaded()).row.version
    await table.bot.store.set_hand_message(
        table.game_id, seat, user.dm_channel.id, newer.id, version, stale=old.id
    )
    loaded = await table.loaded()
    custom_id = menu_custom_id(loaded, seat, loaded.state.legal_actions()[0])
    result = await forged_click(simcord_env, user, old, custom_id)
    assert result.acknowledged
    await table.bot.outbox.idle()
    loaded = await table.loaded()
    assert loaded.row.version == version + 1
    assert loaded.seats[seat].hand_message_id == newer.id
    left = {m.id: m for m in user.dm_channel.history(viewer=user)}
    assert old.id not in left
    assert footer_text(left[newer.id]).endswith(f"move {version}")


def _dms_of_game(player, game_id: int) -> list[discord.Message]:  # type: ignore[no-untyped-def]
    """The DMs ``player`` has from the bot about game ``game_id`` (their footer names it)."""
    return [
        m
        for m in player.user.dm_channel.history(viewer=player.user)
        if f"#{game_id} ·" in footer_text(m)
    ]


def _dm_opens(env, since: int = 0) -> int:  # type: ignore[no-untyped-def]
    """How many DM channels the bot opened (``POST /users/@me/channels``) since request
    number ``since``."""
    return sum(
        1
        for r in env.http_requests[since:]
        if r.method == "POST" and r.path == "/users/@me/channels"
    )


async def test_a_returning_players_dm_after_a_restart_opens_no_dm_channel(
    simcord_env, database_url
) -> None:
    """Opening a DM is one rate-limit bucket for the whole bot and discord.py forgets the DM
    channels when the process stops: the store remembers them, so a player's DM in a later
    game, after a restart, is sent straight to their channel."""
    table = await quick_game(simcord_env)
    await table.bot.outbox.idle()
    assert _dm_opens(simcord_env) == 2, "each new player's DM channel is opened once"
    for player in table.players:
        assert await table.bot.store.dm_channel(player.user.id) == player.user.dm_channel.id
    await simcord_env.restart_bot(make_bot(database_url))
    for player in table.players:
        assert table.bot.get_user(player.user.id) is None or (
            table.bot.get_user(player.user.id).dm_channel is None
        ), "the new process's discord.py knows no DM channel: only the store does"
    since = len(simcord_env.http_requests)
    # The same players start a game in another channel of the server.
    again = Table(simcord_env, table.guild, table.guild.create_text_channel("more"), table.players)
    await open_lobby(again, "kami", {"target": 5})
    await start(again)
    await again.bot.outbox.idle()
    assert _dm_opens(simcord_env, since) == 0
    for player in again.players:
        assert len(_dms_of_game(player, again.game_id)) == 1, "the DM came all the same"


async def test_a_stored_dm_channel_discord_does_not_know_is_forgotten_and_opened_again(
    simcord_env,
) -> None:
    table = new_table(simcord_env, 2)
    user = table.players[1].user
    unknown = 1_234_567_890_123_456_789
    await table.bot.store.remember_dm_channel(user.id, unknown)
    await open_lobby(table, "kami", {"target": 5})
    await start(table)
    await table.bot.outbox.idle()
    tried = [r for r in simcord_env.http_requests if r.path == f"/channels/{unknown}/messages"]
    assert len(tried) == 1, "the stored channel is tried first, once"
    assert len(_dms_of_game(table.players[1], table.game_id)) == 1, "the DM came all the same"
    assert await table.bot.store.dm_channel(user.id) == user.dm_channel.id
    assert (await table.loaded()).seats[1].hand_channel_id == user.dm_channel.id
    await play_one_move(table, random.Random(2))
    await play_one_move(table, random.Random(3))
    tried = [r for r in simcord_env.http_requests if r.path == f"/channels/{unknown}/messages"]
    assert len(tried) == 1, "and never again"
