"""An ending that brings everyone back: the game-over message, the last DMs, and Rematch."""

from __future__ import annotations

import random
from typing import Any

from bot.i18n import t
from bot.outbox.delivery import nonce
from bot.storage.models import GameStatus
from bot.storage.rematch import unconfirmed
from tests.bot.driver import (
    Player,
    lobby_id,
    lobby_message,
    message_text,
    new_table,
    open_lobby,
    play_to_end,
    quick_game,
    start,
)
from tests.bot.test_mentions import allowed_mentions, new_messages

COMPONENTS_V2 = 1 << 15


def layout_text(message: Any) -> str:
    """Every text display of a Components V2 message, in order."""
    found: list[str] = []

    def walk(items: Any) -> None:
        for item in items:
            if getattr(item, "content", None) and not hasattr(item, "custom_id"):
                found.append(item.content)
            walk(getattr(item, "children", None) or getattr(item, "components", None) or [])

    walk(message.components)
    return "\n".join(found)


def layout_buttons(message: Any) -> dict[str, str]:
    """Label → custom_id of every button in a V2 message."""
    found: dict[str, str] = {}

    def walk(items: Any) -> None:
        for item in items:
            if getattr(item, "custom_id", None) and getattr(item, "label", None):
                found[item.label] = item.custom_id
            walk(getattr(item, "children", None) or getattr(item, "components", None) or [])

    walk(message.components)
    return found


def game_over_messages(table) -> list[Any]:  # type: ignore[no-untyped-def]
    return [
        m
        for m in table.channel.history()
        if any(c.startswith("glory:over:") for c in layout_buttons(m).values())
    ]


async def finished_game(env, players: int = 2):  # type: ignore[no-untyped-def]
    table = await quick_game(env, players=players)
    await play_to_end(table, random.Random(players))
    await table.bot.outbox.idle()
    return table


async def test_a_finished_game_posts_one_new_message_that_pings_the_players_alone(
    simcord_env,
) -> None:
    table = await finished_game(simcord_env)
    [over] = game_over_messages(table)
    assert over.flags.value & COMPONENTS_V2
    assert over.id != table.channel.history()[0].id  # a new message, not the table
    text = layout_text(over)
    loaded = await table.loaded()
    assert t("flow.over.title.finished", "en", game="Kami", id=table.game_id) in text
    for player in table.players:
        assert f"<@{player.user.id}>" in text
    assert "**1.**" in text and "rating" in text  # places and rating changes
    assert set(layout_buttons(over)) == {"Rematch", "Replay", "Scores"}
    posts = [r for r in new_messages(simcord_env) if "glory:over:" in str(r.json)]
    assert len(posts) == 1
    mentions = allowed_mentions(posts[0])
    assert mentions["parse"] == []
    assert {str(u) for u in mentions["users"]} == {str(p.user.id) for p in table.players}
    # Each player's last DM says how it ended and where they finished.
    for player in table.players:
        last = player.user.dm_channel.last_message
        assert "The game is over" in message_text(last)
        assert "You finished in place" in message_text(last)
    assert loaded.status is GameStatus.FINISHED


async def test_names_that_look_like_mentions_ping_nobody(simcord_env) -> None:
    table = new_table(simcord_env, 2)
    stranger = simcord_env.create_user("stranger")
    user = simcord_env.create_user("mallory", global_name=f"<@{stranger.id}> @everyone")
    table.players[1] = Player(table.guild.add_member(user), user)
    await open_lobby(table, "kami", {"target": 5})
    await start(table)
    await table.players[0].member.slash(table.channel, "cancel")
    await table.bot.outbox.idle()
    [over] = game_over_messages(table)
    text = layout_text(over)
    assert "cancelled" in text
    assert f"<@{stranger.id}>" not in text and "@everyone" not in text.replace("@\u200b", "")
    posts = [r for r in new_messages(simcord_env) if "glory:over:" in str(r.json)]
    mentions = allowed_mentions(posts[0])
    assert mentions["parse"] == []  # no @everyone, no roles
    assert {str(u) for u in mentions["users"]} == {str(p.user.id) for p in table.players}


async def test_an_abandoned_game_says_so_the_same_way(simcord_env) -> None:
    table = await quick_game(simcord_env)
    await table.players[1].member.slash(table.channel, "leave")
    await table.players[0].member.slash(table.channel, "leave")
    await table.bot.outbox.idle()
    [over] = game_over_messages(table)
    text = layout_text(over)
    assert t("flow.over.title.abandoned", "en", game="Kami", id=table.game_id) in text
    assert t("flow.over.why.everyone_left", "en") in text
    for player in table.players:
        assert t("flow.over.dm.abandoned", "en") in message_text(
            player.user.dm_channel.last_message
        )


async def test_the_game_over_message_is_sent_with_one_nonce_however_often_it_is_delivered(
    simcord_env,
) -> None:
    """A redelivery (a retry, a restart) sends the same nonce with ``enforce_nonce``: Discord
    returns the message it made instead of posting a second (tests/loopback checks that)."""
    table = await finished_game(simcord_env)
    loaded = (await table.loaded()).snapshot()
    for _ in range(2):
        await table.bot.outbox.delivery.post_game_over(loaded, None)
    posts = [r for r in new_messages(simcord_env) if "glory:over:" in str(r.json)]
    assert len(posts) == 3
    expected = str(nonce(table.game_id, "over"))
    assert all(r.json["nonce"] == expected and r.json["enforce_nonce"] for r in posts)


async def test_rematch_keeps_the_seats_and_each_player_confirms_once(simcord_env) -> None:
    table = await finished_game(simcord_env)
    old = await table.loaded()
    [over] = game_over_messages(table)
    rematch = layout_buttons(over)["Rematch"]
    first = await table.players[1].member.click(over, custom_id=rematch)
    assert first.acknowledged and not first.ephemeral  # the rematch lobby, in the channel
    lobby = await table.bot.store.open_game_in_channel(table.channel.id)
    assert lobby is not None and lobby.rematch_of == table.game_id
    assert lobby.options == old.row.options and lobby.host_id == table.players[1].user.id
    seats = await table.bot.store.seats(lobby.id)
    assert [s.user_id for s in seats] == [s.user_id for s in old.seats]  # the same order
    assert [s.user_id for s in unconfirmed(seats)] == [table.players[0].user.id]
    assert lobby.id in table.bot.lobby._timers  # it expires like any lobby
    # The other player confirms with one click; a second click confirms nothing more.
    for expected in ("You are in the rematch", "already"):
        result = await table.players[0].member.click(over, custom_id=rematch)
        assert result.ephemeral and expected in result.response.content
    assert unconfirmed(await table.bot.store.seats(lobby.id)) == []
    await table.bot.outbox.idle()
    assert "⏳" not in message_text(lobby_message(table))
    # Someone who was not at the table takes a free seat; with none left, they are told why.
    outsiders = [simcord_env.create_user(f"outsider{n}") for n in range(3)]
    answers = []
    for user in outsiders:
        result = await table.guild.add_member(user).click(over, custom_id=rematch)
        answers.append(result.response.content)
    assert "free seat" in answers[0] and "free seat" in answers[1]
    assert "No seat of the rematch is free" in answers[2]
    assert len(await table.bot.store.seats(lobby.id)) == 4


async def test_the_host_starts_a_rematch_without_those_who_did_not_confirm(simcord_env) -> None:
    table = await finished_game(simcord_env, players=3)
    [over] = game_over_messages(table)
    rematch = layout_buttons(over)["Rematch"]
    await table.players[0].member.click(over, custom_id=rematch)
    await table.players[2].member.click(over, custom_id=rematch)
    lobby = await table.bot.store.open_game_in_channel(table.channel.id)
    assert lobby is not None
    table.game_id = lobby.id
    await table.players[0].member.click(lobby_message(table), custom_id=lobby_id(table, "start"))
    started = await table.loaded()
    assert started.status is GameStatus.ACTIVE
    assert [s.user_id for s in started.seats] == [
        table.players[0].user.id,
        table.players[2].user.id,
    ]


async def test_replay_and_scores_answer_privately(simcord_env) -> None:
    table = await finished_game(simcord_env)
    [over] = game_over_messages(table)
    buttons = layout_buttons(over)
    for label in ("Replay", "Scores"):
        result = await table.players[0].member.click(over, custom_id=buttons[label])
        assert result.acknowledged and result.ephemeral, label
