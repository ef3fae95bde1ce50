"""The lobby: one game per channel, joining, options, starting, cancelling and expiry."""

from __future__ import annotations

import discord
import pytest

from bot.flows.options import OptionsTextError, parse_options
from bot.i18n import LOCALES, t
from bot.render import presenter_for
from bot.storage.models import GameStatus
from games import REGISTRY
from tests.bot.conftest import make_bot
from tests.bot.driver import (
    answered_privately,
    lobby_message,
    message_text,
    new_table,
    open_lobby,
    reply_text,
    set_option,
    snapshot,
    start,
    table_version,
)
from tests.bot.forge import simultaneous


async def test_one_game_per_channel(simcord_env) -> None:
    table = new_table(simcord_env, 2)
    await open_lobby(table, "kami")
    again = await table.players[1].member.slash(table.channel, "play", game="clans_and_glory")
    assert again.ephemeral and "already has a game" in again.response.content
    assert len([m for m in table.channel.history() if m.embeds]) == 1


async def test_joining_and_leaving(simcord_env) -> None:
    table = new_table(simcord_env, 2)
    await open_lobby(table, "kami")
    host, second = (p.member for p in table.players)
    outsider = table.guild.add_member(simcord_env.create_user("outsider"))
    assert "player1" in message_text(lobby_message(table))
    result = await second.click(lobby_message(table), label="Join")
    assert result.ephemeral and "already in this lobby" in result.response.content
    result = await outsider.click(lobby_message(table), label="Leave")
    assert result.ephemeral and "not in this lobby" in result.response.content
    result = await host.click(lobby_message(table), label="Leave")
    assert result.ephemeral and "host cannot leave" in result.response.content
    await second.click(lobby_message(table), label="Leave")
    assert [s.user_id for s in (await table.loaded()).seats] == [host.id]
    assert "player1" not in message_text(lobby_message(table))


async def test_a_full_lobby_refuses_more_players(simcord_env) -> None:
    table = new_table(simcord_env, 5)  # five members, but the game seats four
    table.players, spare = table.players[:4], table.players[4]
    await open_lobby(table, "clans_and_glory")
    table.players.append(spare)
    extra = table.players[4].member
    seats = len((await table.loaded()).seats)
    assert seats == 4
    result = await extra.click(lobby_message(table), label="Join")
    assert result.ephemeral and "full" in result.response.content


async def test_only_the_host_starts_and_only_with_enough_players(simcord_env) -> None:
    table = new_table(simcord_env, 2)
    await open_lobby(table, "kami")
    await table.players[1].member.click(lobby_message(table), label="Leave")
    before = await snapshot(table)
    result = await table.players[0].member.click(lobby_message(table), label="Start")
    assert result.ephemeral and "needs 2, 3, 4 players; 1 player has joined" in (
        result.response.content
    )
    await table.players[1].member.click(lobby_message(table), label="Join")
    result = await table.players[1].member.click(lobby_message(table), label="Start")
    assert result.ephemeral and "Only the host" in result.response.content
    assert (await snapshot(table))[1] == before[1] == GameStatus.LOBBY
    await start(table)


@pytest.mark.parametrize("key", list(REGISTRY))
async def test_every_option_value_can_be_set_and_reaches_the_engine(simcord_env, key) -> None:
    game = REGISTRY[key]
    table = new_table(simcord_env, max(game.player_counts))
    await open_lobby(table, key)
    host = table.players[0].member
    for index, option in enumerate(game.options):
        for choice, value in enumerate(option.choices):
            result = await set_option(table, host, index, choice)
            loaded = await table.loaded()
            if result.ephemeral:  # a combination the engine refuses, explained to the host
                assert "do not work together" in result.response.content
                assert loaded.row.options[option.name] != value
            else:
                assert loaded.row.options[option.name] == value
                label = message_text(lobby_message(table))
                assert label.count("\n") > len(game.options)
    await start(table)
    loaded = await table.loaded()
    assert loaded.state.to_json()["options"] == game.resolve_options(
        len(loaded.seats), loaded.row.options
    ) or loaded.state.view(None).get("options") == game.resolve_options(
        len(loaded.seats), loaded.row.options
    )


async def test_conflicting_options_are_explained_and_not_stored(simcord_env) -> None:
    table = new_table(simcord_env, 2)
    await open_lobby(table, "call_to_glory", {"rounds": 1})
    options = [o.name for o in REGISTRY["call_to_glory"].options]
    before = (await table.loaded()).row.options
    result = await set_option(table, table.players[0].member, options.index("imperial_tasks"), 1)
    assert result.ephemeral and "do not work together" in result.response.content
    assert (await table.loaded()).row.options == before


async def test_only_the_host_changes_options(simcord_env) -> None:
    table = new_table(simcord_env, 2)
    await open_lobby(table, "kami")
    before = (await table.loaded()).row.options
    result = await set_option(table, table.players[1].member, 0, 1)
    assert result.ephemeral and "Only the host" in result.response.content
    assert (await table.loaded()).row.options == before


async def test_cancel_by_host_or_server_manager_only(simcord_env) -> None:
    table = new_table(simcord_env, 3)
    await open_lobby(table, "kami")
    result = await table.players[1].member.click(lobby_message(table), label="Cancel")
    assert result.ephemeral and "Only the host" in result.response.content
    role = table.guild.create_role("mods", permissions=discord.Permissions(manage_guild=True))
    manager = table.guild.add_member(simcord_env.create_user("manager"), roles=[role])
    await manager.click(lobby_message(table), label="Cancel")
    assert (await table.loaded()).status is GameStatus.CANCELLED
    assert "cancelled" in message_text(lobby_message_any(table))


def lobby_message_any(table) -> discord.Message:
    """The lobby message even after its buttons are gone."""
    return next(m for m in table.channel.history() if m.embeds and "lobby" in m.embeds[0].title)


async def test_an_unstarted_lobby_expires_and_says_so(simcord_env) -> None:
    table = new_table(simcord_env, 2)
    await open_lobby(table, "kami")
    await simcord_env.advance_time(29 * 60)
    assert (await table.loaded()).status is GameStatus.LOBBY
    await simcord_env.advance_time(2 * 60)
    assert (await table.loaded()).status is GameStatus.EXPIRED
    assert "expired" in table.channel.last_message.content
    assert "closed" in message_text(lobby_message_any(table))
    result = await table.players[0].member.slash(table.channel, "play", game="kami")
    assert not result.ephemeral  # the channel is free again


async def test_lobby_expiry_survives_a_restart(simcord_env, database_url) -> None:
    table = new_table(simcord_env, 2)
    await open_lobby(table, "kami")
    await simcord_env.restart_bot(make_bot(database_url))
    await simcord_env.advance_time(31 * 60)
    assert (await table.loaded()).status is GameStatus.EXPIRED


@pytest.mark.logs_errors
async def test_a_lobby_that_cannot_be_posted_frees_the_channel(simcord_env) -> None:
    table = new_table(simcord_env, 2)
    simcord_env.inject_error("POST", "/interactions/*/callback", status=403, code=50001)
    result = await table.players[0].member.slash(table.channel, "play", game="kami")
    assert not result.acknowledged or result.ephemeral
    assert await table.bot.store.open_game_in_channel(table.channel.id) is None
    result = await table.players[0].member.slash(table.channel, "play", game="kami")
    assert not result.ephemeral


async def test_play_accepts_options_as_text(simcord_env) -> None:
    table = new_table(simcord_env, 2)
    host = table.players[0].member
    result = await host.slash(
        table.channel, "play", game="call_to_glory", options="rounds=1 ninja=on"
    )
    assert not result.ephemeral
    loaded = await table.bot.store.open_game_in_channel(table.channel.id)
    assert loaded.options == {"rounds": 1, "imperial_tasks": False, "ninja": True}


ROUND_CHOICES = "full game, 4 rounds (3 with Imperial Tasks), short game, 1 round."


@pytest.mark.parametrize(
    ("text", "explanation"),
    [
        ("speed=9", "Call to Glory has no option “speed”. Its options: Rounds, Imperial Tasks, "),
        (
            "rounds=7",
            "“7” is not a choice for Rounds. Choices: " + ROUND_CHOICES,
        ),
        ("ninja=perhaps", "“perhaps” is not a choice for Ninja. Choices: off, on."),
        (
            "rounds",
            "Rounds needs a value after “=”. Choices: " + ROUND_CHOICES,
        ),
        (
            "rounds=",
            "Rounds needs a value after “=”. Choices: " + ROUND_CHOICES,
        ),
        ("rounds=1 imperial_tasks=on", "do not work together"),
    ],
)
async def test_play_refuses_invalid_options_naming_the_word_and_the_choices(
    simcord_env, text, explanation
) -> None:
    table = new_table(simcord_env, 1)
    result = await table.players[0].member.slash(
        table.channel, "play", game="call_to_glory", options=text
    )
    assert result.ephemeral and explanation in result.response.content
    assert await table.bot.store.open_game_in_channel(table.channel.id) is None


@pytest.mark.parametrize(
    ("locale", "game", "text", "expected"),
    [
        ("de", "call_to_glory", "Runden=1 Die Macht der Ninja=AN", {"rounds": 1, "ninja": True}),
        ("de", "call_to_glory", "rounds=1 ninja=on", {"rounds": 1, "ninja": True}),
        (
            "de",
            "clans_and_glory",
            "startkarten=Zufälliger Platz, Nachbarn über Tableau-Grenzen=aus",
            {"start_seats": "random", "cross_board_adjacency": False},
        ),
        ("ru", "call_to_glory", "раунды=1; СИЛА_НИНДЗЯ=вкл", {"rounds": 1, "ninja": True}),
        (
            "ru",
            "kami",
            "Конец игры=Повелитель Цель по очкам=10 Деморализация=выкл. ending=kami",
            {"ending": "kami", "target": 10, "demoralized": "off"},
        ),
        (
            "ru",
            "clans_and_glory",
            "стартовые карты=север и юг по очереди щит в последний ход=выкл",
            {"start_seats": "alternating", "final_turn_shield_allowed": False},
        ),
    ],
)
async def test_play_options_accept_the_readers_language_and_english(
    simcord_env, client_locales, locale, game, text, expected
) -> None:
    """Names and values as the lobby's menus show them, in any case; English always works."""
    table = new_table(simcord_env, 1)
    client_locales[table.players[0].user.id] = locale
    result = await table.players[0].member.slash(table.channel, "play", game=game, options=text)
    assert not result.ephemeral, result.response.content
    row = await table.bot.store.open_game_in_channel(table.channel.id)
    defaults = {option.name: option.default for option in REGISTRY[game].options}
    assert row.options == {**defaults, **expected}


@pytest.mark.parametrize(
    ("locale", "text", "key", "params"),
    [
        (
            "de",
            "Tempo=9",
            "options.text.unknown_name",
            {"name": "tempo", "choices": "Runden, Kaiserliche Aufträge, Die Macht der Ninja"},
        ),
        (
            "de",
            "Die Macht der Ninja=vielleicht",
            "options.text.unknown_value",
            {"option": "Die Macht der Ninja", "value": "vielleicht", "choices": "aus, an"},
        ),
        (
            "ru",
            "раунды=7",
            "options.text.unknown_value",
            {
                "option": "Раунды",
                "value": "7",
                "choices": "полная игра, 4 раунда (3 с Поручениями Императора), "
                "короткая игра, 1 раунд",
            },
        ),
        (
            "ru",
            "Поручения Императора",
            "options.text.missing_value",
            {"option": "Поручения Императора", "choices": "выкл., вкл."},
        ),
    ],
)
async def test_play_options_errors_are_specific_and_in_the_readers_language(
    simcord_env, client_locales, locale, text, key, params
) -> None:
    table = new_table(simcord_env, 1)
    client_locales[table.players[0].user.id] = locale
    result = await table.players[0].member.slash(
        table.channel, "play", game="call_to_glory", options=text
    )
    game = t("call_to_glory.name", locale)
    assert result.ephemeral
    assert result.response.content == t(key, locale, game=game, **params)
    assert await table.bot.store.open_game_in_channel(table.channel.id) is None


@pytest.mark.parametrize("key", list(REGISTRY))
@pytest.mark.parametrize("locale", LOCALES)
def test_every_option_name_and_value_the_lobby_shows_can_be_typed(locale, key) -> None:
    """Each label of the lobby's menus, in any case, and the engine's spelling read back to the
    same choice, also when every language is accepted at once (no label is ambiguous)."""
    game, presenter = REGISTRY[key], presenter_for(key)
    for option in game.options:
        label = presenter.option_label(option.name, locale)
        for choice in option.choices:
            value = presenter.option_value(option.name, choice, locale)
            for text in (
                f"{label}={value}",
                f" {label.upper()} = {value.upper()} ,",
                f"{option.name}={str(choice).lower()}",
            ):
                assert parse_options(game, text, presenter, locale) == {option.name: choice}
                assert parse_options(game, text, presenter, "en", also=LOCALES) == {
                    option.name: choice
                }


def test_play_options_read_the_writers_and_the_servers_language_only() -> None:
    game, presenter = REGISTRY["call_to_glory"], presenter_for("call_to_glory")
    german = "Kaiserliche Aufträge=an"
    assert parse_options(game, german, presenter, "ru", also=["de"]) == {"imperial_tasks": True}
    with pytest.raises(OptionsTextError) as refused:
        parse_options(game, german, presenter, "ru")
    assert refused.value.key == "options.text.unknown_name"
    assert refused.value.params["choices"] == "Раунды, Поручения Императора, Сила Ниндзя"


async def test_a_double_click_on_join_seats_the_player_once(simcord_env) -> None:
    table = new_table(simcord_env, 2)
    await open_lobby(table, "kami")
    await table.players[1].member.click(lobby_message(table), label="Leave")
    joiner = table.players[1].member
    custom_id = f"glory:lobby:join:{table.game_id}"
    lobby = lobby_message(table)
    results = await simultaneous(
        simcord_env, [(joiner, lobby, custom_id, None), (joiner, lobby, custom_id, None)]
    )
    assert all(r.acknowledged for r in results)
    loaded = await table.loaded()
    assert [seat.user_id for seat in loaded.seats] == [p.user.id for p in table.players]
    assert any("already in this lobby" in reply_text(r) for r in results)
    assert message_text(lobby_message(table)).count(table.players[1].user.name) == 1


async def test_four_players_joining_at_once_fill_a_four_seat_lobby(simcord_env) -> None:
    table = new_table(simcord_env, 1)
    await open_lobby(table, "kami")  # 2-4 players
    guests = [table.guild.add_member(simcord_env.create_user(f"guest{n}")) for n in range(4)]
    lobby = lobby_message(table)
    custom_id = f"glory:lobby:join:{table.game_id}"
    results = await simultaneous(simcord_env, [(g, lobby, custom_id, None) for g in guests])
    assert all(r.acknowledged for r in results)
    loaded = await table.loaded()
    assert len(loaded.seats) == 4 and len({s.user_id for s in loaded.seats}) == 4
    assert [s.seat for s in loaded.seats] == [0, 1, 2, 3]
    refused = [r for r in results if answered_privately(r)]
    assert len(refused) == 1 and "full" in reply_text(refused[0])
    await start(table)
    assert (await table.loaded()).state.num_players == 4


async def test_leave_and_start_at_once_start_with_exactly_the_stored_seats(simcord_env) -> None:
    table = new_table(simcord_env, 3)
    await open_lobby(table, "kami")
    lobby = lobby_message(table)
    host, _, leaver = (p.member for p in table.players)
    results = await simultaneous(
        simcord_env,
        [
            (leaver, lobby, f"glory:lobby:leave:{table.game_id}", None),
            (host, lobby, f"glory:lobby:start:{table.game_id}", None),
        ],
    )
    assert all(r.acknowledged for r in results)
    loaded = await table.loaded()
    if loaded.status is not GameStatus.ACTIVE:  # Leave came first and Start saw an old lobby
        assert len(loaded.seats) == 2 and "changed" in reply_text(results[1])
        await start(table)
        loaded = await table.loaded()
    assert loaded.state.num_players == len(loaded.seats) in (2, 3)
    await table.bot.outbox.idle()
    assert table_version(table) == 1, "the table is drawn for the stored seats"
    hand = await table.players[0].member.slash(table.channel, "hand")
    assert answered_privately(hand) and "Your hand" in reply_text(hand)
