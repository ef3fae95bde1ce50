"""Every bad input gets a short ephemeral explanation and changes nothing."""

from __future__ import annotations

import logging
import random

import pytest

from bot.storage.models import GameStatus
from tests.bot.driver import (
    current_table,
    live_dm_hand,
    menu_custom_id,
    play_one_move,
    quick_game,
    reply_text,
    seat_on_turn,
    snapshot,
)
from tests.bot.forge import forged_click, simultaneous


async def test_wrong_player_pressing_someones_control(simcord_env) -> None:
    table = await quick_game(simcord_env)
    seat = seat_on_turn(table)
    loaded = await table.loaded()
    custom_id = menu_custom_id(loaded, seat, loaded.state.legal_actions()[0])
    before = await snapshot(table)
    intruder = table.players[1 - seat].member
    result = await forged_click(simcord_env, intruder, current_table(table), custom_id)
    assert result.ephemeral
    assert "belongs to another player" in reply_text(result)
    assert await snapshot(table) == before


async def test_a_player_who_is_not_on_turn_cannot_move(simcord_env) -> None:
    table = await quick_game(simcord_env)
    seat = seat_on_turn(table)
    other = 1 - seat
    loaded = await table.loaded()
    before = await snapshot(table)
    custom_id = f"glory:m:{loaded.id}:{loaded.row.version}:{other}:0"
    result = await forged_click(
        simcord_env, table.players[other].member, current_table(table), custom_id
    )
    assert result.ephemeral and "not your turn" in reply_text(result)
    assert await snapshot(table) == before


async def test_a_stale_control_is_refused_and_the_current_hand_shown(simcord_env) -> None:
    table = await quick_game(simcord_env)
    seat = seat_on_turn(table)
    player = table.players[seat]
    old = await player.member.click(current_table(table), label="My hand")
    await play_one_move(table, random.Random(3))
    before = await snapshot(table)
    control = old.response.message.components[0].children[0]
    result = await player.member.click(old.response, custom_id=control.custom_id)
    assert result.ephemeral
    assert "out of date" in reply_text(result) and "Your hand" in reply_text(result)
    assert await snapshot(table) == before


async def test_double_click_applies_the_move_once(simcord_env) -> None:
    table = await quick_game(simcord_env)
    seat = seat_on_turn(table)
    loaded = await table.loaded()
    custom_id = menu_custom_id(loaded, seat, loaded.state.legal_actions()[0])
    dm = live_dm_hand(table, seat)
    user = table.players[seat].user
    version, _, _, moves = await snapshot(table)
    first, second = await simultaneous(
        simcord_env, [(user, dm, custom_id, None), (user, dm, custom_id, None)]
    )
    assert first.acknowledged and second.acknowledged
    after_version, _, _, after_moves = await snapshot(table)
    assert (after_version, after_moves) == (version + 1, moves + 1)
    assert second.ephemeral and "out of date" in reply_text(second)


async def test_clicks_at_once_from_the_dm_and_the_channel(simcord_env) -> None:
    table = await quick_game(simcord_env)
    seat = seat_on_turn(table)
    player = table.players[seat]
    loaded = await table.loaded()
    actions = loaded.state.legal_actions()
    in_dm = menu_custom_id(loaded, seat, actions[0])
    in_channel = menu_custom_id(loaded, seat, actions[-1])
    ephemeral = await player.member.click(current_table(table), label="My hand")
    version, _, _, moves = await snapshot(table)
    results = await simultaneous(
        simcord_env,
        [
            (player.user, live_dm_hand(table, seat), in_dm, None),
            (player.member, ephemeral.response.message, in_channel, None),
        ],
    )
    assert all(r.acknowledged for r in results)
    after_version, _, _, after_moves = await snapshot(table)
    assert (after_version, after_moves) == (version + 1, moves + 1)
    refused = [r for r in results if r.ephemeral and "out of date" in reply_text(r)]
    assert len(refused) == 1


async def test_an_illegal_move_is_refused(simcord_env) -> None:
    table = await quick_game(simcord_env)
    seat = seat_on_turn(table)
    loaded = await table.loaded()
    before = await snapshot(table)
    user = table.players[seat].user
    dm = live_dm_hand(table, seat)
    for custom_id, value in (
        (f"glory:m:{loaded.id}:{loaded.row.version}:{seat}:99", None),
        (f"glory:s:{loaded.id}:{loaded.row.version}:{seat}:", "not-a-number"),
        (f"glory:s:{loaded.id}:{loaded.row.version}:{seat}:", "77"),
    ):
        result = await forged_click(simcord_env, user, dm, custom_id, value)
        assert result.ephemeral and "not allowed" in reply_text(result)
    assert await snapshot(table) == before


async def test_old_buttons_of_a_cancelled_game(simcord_env) -> None:
    table = await quick_game(simcord_env)
    seat = seat_on_turn(table)
    player = table.players[seat]
    hand = await player.member.click(current_table(table), label="My hand")
    result = await table.players[0].member.slash(table.channel, "cancel")
    assert not result.ephemeral and "cancelled the game" in result.response.content
    before = await snapshot(table)
    assert before[1] == GameStatus.CANCELLED
    control = hand.response.message.components[0].children[0]
    result = await player.member.click(hand.response, custom_id=control.custom_id)
    assert result.ephemeral and "was cancelled" in reply_text(result)
    result = await forged_click(
        simcord_env, player.member, current_table(table), f"glory:hand:{table.game_id}"
    )
    assert result.ephemeral and "was cancelled" in reply_text(result)
    assert await snapshot(table) == before


async def test_controls_of_a_game_that_no_longer_exists(simcord_env) -> None:
    table = await quick_game(simcord_env)
    member = table.players[0].member
    message = current_table(table)
    for custom_id in ("glory:m:999:1:0:0", "glory:lobby:join:999", "glory:hand:999"):
        result = await forged_click(simcord_env, member, message, custom_id)
        assert result.ephemeral and "no longer exists" in reply_text(result)


@pytest.mark.logs_errors
async def test_an_unexpected_error_is_logged_and_nothing_is_applied(
    simcord_env, monkeypatch, caplog
) -> None:
    table = await quick_game(simcord_env)
    seat = seat_on_turn(table)
    loaded = await table.loaded()
    custom_id = menu_custom_id(loaded, seat, loaded.state.legal_actions()[0])

    def broken_apply(self, action):
        raise RuntimeError("engine exploded")

    monkeypatch.setattr(type(loaded.state), "apply", broken_apply)
    before = await snapshot(table)
    with caplog.at_level(logging.ERROR):
        result = await forged_click(
            simcord_env, table.players[seat].user, live_dm_hand(table, seat), custom_id
        )
    assert result.ephemeral and "NOT applied" in reply_text(result)
    assert f"game {table.game_id}:" in caplog.text and "engine exploded" in caplog.text
    assert await snapshot(table) == before


@pytest.mark.logs_errors
async def test_a_discord_failure_after_the_commit_keeps_the_move(simcord_env, caplog) -> None:
    table = await quick_game(simcord_env)
    seat = seat_on_turn(table)
    loaded = await table.loaded()
    custom_id = menu_custom_id(loaded, seat, loaded.state.legal_actions()[0])
    simcord_env.inject_error(
        "PATCH", f"/channels/{table.channel.id}/messages/*", status=403, code=50001
    )
    version = loaded.row.version
    with caplog.at_level(logging.ERROR):
        result = await forged_click(
            simcord_env, table.players[seat].user, live_dm_hand(table, seat), custom_id
        )
    assert result.acknowledged
    assert (await table.loaded()).row.version == version + 1
    assert f"game {table.game_id}: could not update the table" in caplog.text
