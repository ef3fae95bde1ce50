"""Every bad input gets a short ephemeral explanation and changes nothing."""

from __future__ import annotations

import asyncio
import logging
import random

import pytest

from bot.storage.models import GameStatus
from tests.bot.driver import (
    answered_privately,
    current_table,
    live_dm_hand,
    lobby_message,
    menu_custom_id,
    message_text,
    new_table,
    open_lobby,
    play_one_move,
    quick_game,
    reply_text,
    seat_on_turn,
    snapshot,
    use_first_control,
)
from tests.bot.forge import forged_click, simultaneous


async def own_hand(table, seat: int):  # type: ignore[no-untyped-def]
    """A private message of ``seat``'s own (an ephemeral hand) and the actor who can click it:
    where a modified client would plant a forged control."""
    player = table.players[seat]
    hand = await player.member.click(current_table(table), label="My hand")
    assert hand.ephemeral
    return player.member, hand.response.message


async def test_wrong_player_pressing_someones_control(simcord_env) -> None:
    table = await quick_game(simcord_env)
    seat = seat_on_turn(table)
    loaded = await table.loaded()
    custom_id = menu_custom_id(loaded, seat, loaded.state.legal_actions()[0])
    intruder, message = await own_hand(table, 1 - seat)
    before = await snapshot(table)
    result = await forged_click(simcord_env, intruder, message, custom_id)
    assert result.ephemeral
    assert "belongs to another player" in reply_text(result)
    assert await snapshot(table) == before


async def test_a_move_control_on_the_public_table_is_refused_and_shows_no_hand(
    simcord_env,
) -> None:
    table = await quick_game(simcord_env)
    seat = seat_on_turn(table)
    loaded = await table.loaded()
    custom_id = menu_custom_id(loaded, seat, loaded.state.legal_actions()[0])
    public = current_table(table)
    shown = message_text(public)
    before = await snapshot(table)
    result = await forged_click(simcord_env, table.players[seat].member, public, custom_id)
    assert answered_privately(result)
    assert "Moves are made in your own hand" in reply_text(result)
    assert "Your hand" not in reply_text(result)
    assert await snapshot(table) == before
    assert message_text(current_table(table)) == shown, "the public table is untouched"


async def test_a_player_who_is_not_on_turn_cannot_move(simcord_env) -> None:
    table = await quick_game(simcord_env)
    seat = seat_on_turn(table)
    other = 1 - seat
    loaded = await table.loaded()
    before = await snapshot(table)
    custom_id = f"glory:m:{loaded.id}:{loaded.row.version}:{other}:0"
    actor, message = await own_hand(table, other)
    result = await forged_click(simcord_env, actor, message, custom_id)
    assert result.ephemeral and "not your turn" in reply_text(result)
    assert await snapshot(table) == before


async def test_a_stale_control_is_refused_and_the_current_hand_shown(simcord_env) -> None:
    table = await quick_game(simcord_env)
    seat = seat_on_turn(table)
    player = table.players[seat]
    old = await player.member.click(current_table(table), label="My hand")
    await play_one_move(table, random.Random(3))
    before = await snapshot(table)
    result = await use_first_control(player.member, old.response)
    assert result.ephemeral
    assert "out of date" in reply_text(result) and "Your hand" in reply_text(result)
    assert await snapshot(table) == before


async def test_double_click_applies_the_move_once(simcord_env, monkeypatch) -> None:
    table = await quick_game(simcord_env)
    commit_move = table.bot.store.commit_move

    async def slow_commit(*args, **kwargs):
        for _ in range(3):  # turns of the loop: the second click comes in during the commit
            await asyncio.sleep(0)
        return await commit_move(*args, **kwargs)

    monkeypatch.setattr(table.bot.store, "commit_move", slow_commit)
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
    # The second click found the game busy, so it was deferred at once; then, as it came from
    # the player's hand DM, that DM itself was brought up to date, with a word on why.
    assert second.deferred and not second.followups
    now = next(m for m in user.dm_channel.history(viewer=user) if m.id == dm.id)
    assert "out of date" in message_text(now)
    assert f"move {version + 1}" in now.embeds[0].footer.text


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
    refused = [r for r in results if answered_privately(r) and "out of date" in reply_text(r)]
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
        (f"glory:s:{loaded.id}:{loaded.row.version}:{seat}:", "77"),
        # A select of complete moves sends a whole path below its level: one that leads
        # nowhere is refused as illegal, like a single index out of range.
        (f"glory:s:{loaded.id}:{loaded.row.version}:{seat}:", "0.77"),
        (f"glory:s:{loaded.id}:{loaded.row.version}:{seat}:0", "0.0.0.0"),
    ):
        result = await forged_click(simcord_env, user, dm, custom_id, value)
        assert result.ephemeral and "not allowed" in reply_text(result)
    assert await snapshot(table) == before


DAMAGED = "not made by Glory, or it is damaged"


async def test_malformed_menu_paths_and_select_values_are_answered_and_change_nothing(
    simcord_env,
) -> None:
    table = await quick_game(simcord_env)
    seat = seat_on_turn(table)
    loaded = await table.loaded()
    base = f"{loaded.id}:{loaded.row.version}:{seat}"
    user, dm = table.players[seat].user, live_dm_hand(table, seat)
    before = await snapshot(table)
    forged = [
        (f"glory:m:{base}:.", None),
        (f"glory:m:{base}:0..1", None),
        (f"glory:m:{base}:0.", None),
        (f"glory:m:{base}:-1", None),
        (f"glory:m:{base}:٣", None),  # an Arabic-Indic digit: str.isdigit() says yes
        (f"glory:m:{loaded.id}:{loaded.row.version}:{seat}", None),  # no path field
        (f"glory:m:{'9' * 30}:1:0:0", None),  # a game id beyond 64 bits
        (f"glory:m:{base}:{'.'.join(['0'] * 50)}", None),
        (f"glory:s:{base}:", "²"),  # passes isdigit(), fails int()
        (f"glory:s:{base}:", "not-a-number"),
        (f"glory:s:{base}:", "9" * 5000),  # int() of this many digits raises
        (f"glory:s:{base}:", ""),
        (f"glory:s:{base}:", "0..1"),  # a complete move's path, malformed
        (f"glory:s:{base}:", "0."),
        (f"glory:s:{base}:", "."),
        (f"glory:s:{base}:", "0.-1"),
        (f"glory:s:{base}:0.0", ".".join(["0"] * 19)),  # deeper than any menu, in all
        ("glory:zzz:1", None),  # a prefix no control of ours has
        ("something-else", None),  # not ours at all
    ]
    for custom_id, value in forged:
        result = await forged_click(simcord_env, user, dm, custom_id, value)
        assert answered_privately(result), custom_id
        assert DAMAGED in reply_text(result), (custom_id, value, reply_text(result))
    assert await snapshot(table) == before


async def test_malformed_lobby_controls_are_answered_and_change_nothing(simcord_env) -> None:
    table = new_table(simcord_env, 2)
    await open_lobby(table, "kami")
    lobby = lobby_message(table)
    host = table.players[0].member
    shown = message_text(lobby)
    for custom_id, value in (
        (f"glory:opt:{table.game_id}:0", "x"),
        (f"glory:opt:{table.game_id}:0", "²"),
        (f"glory:opt:{table.game_id}:x", "0"),
        (f"glory:optpick:{table.game_id}", "-1"),
        (f"glory:lobby:join:{'9' * 25}", None),
        (f"glory:lobby::{table.game_id}", None),
        ("glory:hand:abc", None),
    ):
        result = await forged_click(simcord_env, host, lobby, custom_id, value)
        assert answered_privately(result), custom_id
        assert DAMAGED in reply_text(result), (custom_id, value, reply_text(result))
    assert message_text(lobby_message(table)) == shown
    loaded = await table.loaded()
    assert loaded.status is GameStatus.LOBBY and len(loaded.seats) == 2


async def test_old_buttons_of_a_cancelled_game(simcord_env) -> None:
    table = await quick_game(simcord_env)
    seat = seat_on_turn(table)
    player = table.players[seat]
    hand = await player.member.click(current_table(table), label="My hand")
    result = await table.players[0].member.slash(table.channel, "cancel")
    assert not result.ephemeral and "cancelled the game" in result.response.content
    before = await snapshot(table)
    assert before[1] == GameStatus.CANCELLED
    result = await use_first_control(player.member, hand.response)
    assert result.ephemeral and "was cancelled" in reply_text(result)
    result = await forged_click(
        simcord_env, player.member, current_table(table), f"glory:hand:{table.game_id}"
    )
    assert result.ephemeral and "was cancelled" in reply_text(result)
    assert await snapshot(table) == before


async def test_controls_of_a_game_that_no_longer_exists(simcord_env) -> None:
    table = await quick_game(simcord_env)
    member, hand = await own_hand(table, 0)
    for message, custom_id in (
        (hand, "glory:m:999:1:0:0"),
        (current_table(table), "glory:lobby:join:999"),
        (current_table(table), "glory:hand:999"),
    ):
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


async def test_a_discord_failure_after_the_commit_keeps_the_move(simcord_env, caplog) -> None:
    table = await quick_game(simcord_env)
    seat = seat_on_turn(table)
    loaded = await table.loaded()
    custom_id = menu_custom_id(loaded, seat, loaded.state.legal_actions()[0])
    simcord_env.inject_error(
        "PATCH", f"/channels/{table.channel.id}/messages/*", status=403, code=50001
    )
    version = loaded.row.version
    with caplog.at_level(logging.WARNING):
        result = await forged_click(
            simcord_env, table.players[seat].user, live_dm_hand(table, seat), custom_id
        )
        await table.bot.outbox.idle()
    assert result.acknowledged
    assert (await table.loaded()).row.version == version + 1
    assert f"game {table.game_id}: Discord refused the table update (403 50001)" in caplog.text
    assert await table.bot.store.pending_publications() == [], "no retry can cure a 403"
