"""Three languages end to end: private text per reader, public text per server setting.

SimCord sends ``en-US`` in every interaction; the ``client_locales`` fixture gives each user
their own client language and the guild its ``preferred_locale``, as Discord does.
"""

from __future__ import annotations

import random
import re

import discord
import pytest

from bot.i18n import t
from bot.render import presenter_for
from bot.render.common import log_lines, safe_names
from bot.render.messages import table_layout
from bot.storage.models import GameStatus
from games import REGISTRY
from tests.bot.driver import (
    Table,
    as_embed,
    catalog_pattern,
    components,
    current_table,
    footer_pattern,
    layout_texts,
    lobby_message,
    message_text,
    new_table,
    open_lobby,
    play_one_move,
    play_to_end,
    seat_on_turn,
    start,
    texts,
)

CYRILLIC = re.compile("[\u0400-\u04ff]")
KAMI_QUICK = {"target": 5}


def add_manager(table: Table, name: str = "manager") -> discord.Member:
    role = table.guild.create_role("managers", permissions=discord.Permissions(manage_guild=True))
    return table.guild.add_member(table.env.create_user(name), roles=[role])


def hand_title(table: Table, seat: int, locale: str) -> str:
    game = presenter_for("kami").game_name(locale)
    return t("hand.title", locale, game=game, name=table.players[seat].user.name)


def dm_embeds(table: Table, seat: int) -> list[discord.Embed]:
    player = table.players[seat]
    messages = player.user.dm_channel.history(viewer=player.user)
    return [as_embed(message) for message in messages if message.embeds or texts(message)]


def assert_dms_in(table: Table, seat: int, locale: str) -> None:
    embeds = dm_embeds(table, seat)
    assert embeds, f"seat {seat} got no DM"
    for embed in embeds:
        assert embed.title == hand_title(table, seat, locale)
        assert footer_pattern(locale).search(embed.footer.text or "")


def public_text(table: Table) -> str:
    return "\n".join(message_text(message) for message in table.channel.history())


async def test_each_player_reads_their_language_and_the_table_the_servers(
    simcord_env, client_locales
) -> None:
    """A Russian host and a German guest on a server set to German with /settings language."""
    table = new_table(simcord_env, 2)
    russian, german = table.players
    client_locales[russian.user.id] = "ru"
    client_locales[german.user.id] = "de"
    manager = add_manager(table)
    answer = await manager.slash(table.channel, "settings language", language="de")
    assert answer.ephemeral and "Deutsch" in answer.response.content  # the manager's English

    table.locale = "de"
    await open_lobby(table, "kami", KAMI_QUICK)
    lobby = lobby_message(table).embeds[0]
    assert lobby.title == t("lobby.title", "de", game=presenter_for("kami").game_name("de"))
    labels = {getattr(c, "label", None) for c in components(lobby_message(table))}
    assert t("button.join", "de") in labels and t("button.join", "ru") not in labels
    await start(table)
    assert (await table.loaded()).row.locale == "de"

    # The first DMs were sent during the Russian host's Start click; the guest's is German.
    assert_dms_in(table, 0, "ru")
    assert_dms_in(table, 1, "de")
    for seat, locale in ((0, "ru"), (1, "de")):
        hand = await table.players[seat].member.slash(table.channel, "hand")
        assert hand.ephemeral and as_embed(hand.response).title == hand_title(table, seat, locale)
    my_hand = await russian.member.click(
        current_table(table), custom_id=f"glory:hand:{table.game_id}"
    )
    assert as_embed(my_hand.response).title == hand_title(table, 0, "ru")

    loaded = await play_to_end(table, random.Random(6))
    assert loaded.status is GameStatus.FINISHED
    assert_dms_in(table, 0, "ru")
    assert_dms_in(table, 1, "de")
    shown = current_table(table)
    recent = await table.bot.publisher.recent_events(loaded)
    log = log_lines(presenter_for("kami"), recent, safe_names(loaded.names), "de")
    expected = table_layout(loaded, presenter_for("kami"), log, "de")
    assert texts(shown) == layout_texts(expected)
    winners = [loaded.names[seat] for seat in loaded.state.winners]
    result = t("table.winners", "de", count=len(winners), names=", ".join(winners))
    assert result in as_embed(shown).description
    public = public_text(table)
    assert not CYRILLIC.search(public), "the Russian player's language reached the channel"
    assert t("button.my_hand", "en") not in public
    remembered = await table.bot.store.remembered_locales(
        [russian.user.id, german.user.id, manager.id]
    )
    assert remembered == {russian.user.id: "ru", german.user.id: "de", manager.id: "en"}


async def test_a_dm_without_an_interaction_uses_the_language_seen_last(
    simcord_env, client_locales
) -> None:
    """A player who joined with an English client switches to Russian while waiting: the DM that
    announces their turn (sent during the other player's click) follows the switch, not the
    language stored on their seat at joining."""
    table = new_table(simcord_env, 2)
    await open_lobby(table, "kami", KAMI_QUICK)
    await start(table)
    waiting = 1 if seat_on_turn(table) == 0 else 0
    client_locales[table.players[waiting].user.id] = "ru"
    await table.players[waiting].member.slash(table.channel, "scores")  # any interaction
    rng = random.Random(2)
    for _ in range(20):  # the other player moves until the turn passes
        await play_one_move(table, rng)
        if seat_on_turn(table) == waiting:
            break
    assert seat_on_turn(table) == waiting
    newest = dm_embeds(table, waiting)[-1]
    assert newest.title == hand_title(table, waiting, "ru")
    assert catalog_pattern("hand.your_turn", "ru").match(newest.description)


async def test_changing_the_language_redraws_open_games_and_default_follows_discord(
    simcord_env, client_locales
) -> None:
    table = new_table(simcord_env, 2)
    simcord_env.backend.get_guild(table.guild.id).preferred_locale = "ru"
    await open_lobby(table, "kami", KAMI_QUICK)
    table.locale = "ru"  # no setting yet: the server's Discord language
    assert lobby_message(table).embeds[0].title.startswith(presenter_for("kami").game_name("ru"))
    await start(table)
    manager = add_manager(table)
    answer = await manager.slash(table.channel, "settings language", language="de")
    assert t("settings.games_updated", "en", count=1) in answer.response.content
    table.locale = "de"
    assert (await table.loaded()).row.locale == "de"
    assert as_embed(current_table(table)).title == t("table.title", "de", game="Kami")
    lobby_id = (await table.loaded()).row.lobby_message_id
    lobby = next(m for m in table.channel.history() if m.id == lobby_id)
    assert lobby.embeds[0].title == t("lobby.title", "de", game="Kami")
    await play_one_move(table, random.Random(3))  # the driver reads the German table

    answer = await manager.slash(table.channel, "settings language", language="default")
    assert "Русский" in answer.response.content
    table.locale = "ru"
    assert (await table.loaded()).row.locale == "ru"
    assert as_embed(current_table(table)).title == t("table.title", "ru", game="Ками")
    assert await table.bot.store.guild_language(table.guild.id) is None
    standings = await table.players[0].member.slash(table.channel, "standings")
    scope = t("standings.all_games", "ru")
    assert standings.response.message.embeds[0].title == t("standings.title", "ru", scope=scope)


async def test_only_managers_see_the_settings_command(simcord_env) -> None:
    table = new_table(simcord_env, 1)
    manager = add_manager(table)
    assert "settings language" in manager.available_commands(table.channel)
    assert "settings language" not in table.players[0].member.available_commands(table.channel)


@pytest.mark.parametrize("locale", ["en", "de", "ru"])
async def test_rules_in_the_readers_language(simcord_env, client_locales, locale) -> None:
    channel = simcord_env.create_guild().create_text_channel("rules")
    reader = simcord_env.guild.add_member(simcord_env.create_user("reader"))
    client_locales[reader.id] = {"en": "en-GB", "de": "de", "ru": "ru"}[locale]
    for key in REGISTRY:
        result = await reader.slash(channel, "rules", game=key)
        embed = result.response.message.embeds[0]
        assert result.ephemeral
        page = t(f"guide.{key}.goal.title", locale)
        assert embed.title == t("guide.title", locale, game=t(f"{key}.name", locale), page=page)
        assert embed.description == t(f"guide.{key}.goal", locale)
        assert bool(CYRILLIC.search(embed.description)) == (locale == "ru")
        if locale != "en":
            assert embed.description != t(f"guide.{key}.goal", "en")


async def test_commands_are_uploaded_with_german_and_russian_names(simcord_env) -> None:
    play = simcord_env.backend.find_command("play", None)
    assert play["name_localizations"]["de"] == t("cmd.play.name", "de")
    assert play["name_localizations"]["ru"] == t("cmd.play.name", "ru")
    assert play["description_localizations"]["de"] == t("cmd.play.description", "de")
    settings = simcord_env.backend.find_command("settings", None)
    assert settings["name_localizations"] == {
        locale: t("cmd.settings.name", locale) for locale in ("de", "ru")
    }
    language = settings["options"][0]
    assert language["name_localizations"]["de"] == t("cmd.settings.language.name", "de")
    choices = {c["value"]: c for c in language["options"][0]["choices"]}
    assert choices["default"]["name_localizations"]["ru"] == t("language.default", "ru")


async def test_settings_refuses_a_member_without_manage_server_even_when_granted_the_command(
    simcord_env, client_locales
) -> None:
    """``default_permissions`` only hides /settings: a server owner can grant the command to
    anyone under Integrations (a per-member command permission), and then the bot's own check
    must refuse, in the member's language, and store nothing."""
    table = new_table(simcord_env, 2)
    member = table.players[0].member
    client_locales[member.id] = "de"
    command = simcord_env.backend.find_command("settings", None)
    table.guild.set_command_permissions(int(command["id"]), {member: True})
    assert "settings language" in member.available_commands(table.channel)
    bits = simcord_env.backend.compute_permissions(table.guild.id, member.id, table.channel.id)
    assert not discord.Permissions(bits).manage_guild
    await open_lobby(table, "kami", KAMI_QUICK)

    answer = await member.slash(table.channel, "settings language", language="ru")
    assert answer.ephemeral and answer.response.content == t("settings.manage_only", "de")
    assert await table.bot.store.guild_language(table.guild.id) is None
    assert (await table.loaded()).row.locale == "en"
    assert lobby_message(table).embeds[0].title == t("lobby.title", "en", game="Kami")


async def test_the_closed_dm_notice_addresses_several_players_in_the_plural(
    simcord_env, client_locales
) -> None:
    table = new_table(simcord_env, 3, closed_dms=(1, 2))
    manager = add_manager(table)
    await manager.slash(table.channel, "settings language", language="de")
    table.locale = "de"
    await open_lobby(table, "clans_and_glory")
    await start(table)
    closed = [table.players[seat].user.id for seat in (1, 2)]
    notices = [m.content for m in table.channel.history() if f"<@{closed[0]}>" in m.content]
    mentions = ", ".join(f"<@{user}>" for user in closed)
    button = t("button.my_hand", "de")
    assert notices == [t("dm.closed", "de", count=2, mentions=mentions, button=button)]
    assert "euch" in notices[0] and " dir " not in notices[0]
