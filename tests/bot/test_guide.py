"""Teaching the games inside Discord: the paged ``/rules`` guide, the lobby selects' option
descriptions, option conflicts that say which options and why, and localized option names."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.i18n import LOCALES, catalog, t
from bot.loopback.discord_limits import message_problems
from bot.messages import guide
from bot.messages.option_help import option_about, value_about, value_token
from games import REGISTRY
from tests.bot.driver import components, lobby_message, new_table, open_lobby, set_option
from tests.bot.forge import forged_click

PAGE = re.compile(r"^(?:Page|Seite|Страница) (\d+) (?:of|von|из) (\d+)")
REPOSITORY = "https://example.org/glory"


@pytest.fixture(autouse=True)
def no_repository(monkeypatch) -> None:
    """Tests decide whether the package names a repository (the installed one may or not)."""
    monkeypatch.setattr(guide, "repository_url", lambda: None)


def wire(response: Any) -> dict[str, Any]:
    return {
        "content": response.content,
        "embeds": [embed.to_dict() for embed in response.embeds],
        "components": response.components,
    }


def controls(response: Any) -> list[dict[str, Any]]:
    return [c for row in response.components for c in row["components"]]


def page_buttons(response: Any) -> dict[str, dict[str, Any]]:
    """⏮ ◀ ▶ ⏭ by their name (``first``, ``previous``, ``next``, ``last``)."""
    return {c["custom_id"].rsplit(":", 1)[1]: c for c in controls(response) if c.get("custom_id")}


def page_of(response: Any) -> tuple[int, int]:
    match = PAGE.match(response.embeds[0].footer.text or "")
    assert match, response.embeds[0].footer.text
    return int(match[1]), int(match[2])


async def open_guide(simcord_env: Any, game: str, locale: str | None = None, locales=None):
    channel = simcord_env.create_guild().create_text_channel("rules")
    reader = simcord_env.guild.add_member(simcord_env.create_user("reader"))
    if locale is not None:
        locales[reader.id] = locale
    result = await reader.slash(channel, "rules", game=game)
    assert result.ephemeral
    return reader, result.response


async def press(reader: Any, response: Any, button: str) -> Any:
    result = await reader.click(response, custom_id=page_buttons(response)[button]["custom_id"])
    assert result.response is not None and result.response.id == response.id, "edited in place"
    return result.response


# ---------------------------------------------------------------- the pages


def test_every_game_has_a_guide_with_goal_options_and_an_example() -> None:
    assert set(guide.PAGES) == set(REGISTRY)
    for pages in guide.PAGES.values():
        assert pages[0] == "goal" and "options" in pages and pages[-1] == "example"
        assert len(set(pages)) == len(pages)


@pytest.mark.parametrize("key", sorted(REGISTRY))
async def test_the_guide_turns_page_by_page_and_back(simcord_env, key: str) -> None:
    reader, shown = await open_guide(simcord_env, key)
    count = guide.page_count(key)
    assert page_of(shown) == (1, count)
    assert list(page_buttons(shown)) == ["first", "previous", "next", "last"]
    disabled = [c.get("disabled", False) for c in page_buttons(shown).values()]
    assert disabled == [True, True, False, False]
    seen = [shown.embeds[0].description]
    for number in range(2, count + 1):
        shown = await press(reader, shown, "next")
        assert page_of(shown) == (number, count)
        name = guide.PAGES[key][number - 1]
        assert shown.embeds[0].title == guide.page_title(key, name, "en")
        assert shown.embeds[0].description == guide.page_text(key, name, "en")
        assert message_problems(wire(shown)) == []
        seen.append(shown.embeds[0].description)
    assert [c.get("disabled", False) for c in page_buttons(shown).values()] == [
        False,
        False,
        True,
        True,
    ]
    assert len(set(seen)) == count
    assert page_of(await press(reader, shown, "first")) == (1, count)
    assert page_of(await press(reader, shown, "last")) == (count, count)
    assert page_of(await press(reader, shown, "previous")) == (count - 1, count)


@pytest.mark.parametrize(("locale", "client"), [("de", "de"), ("ru", "ru")])
async def test_pages_turn_in_the_readers_language(simcord_env, client_locales, locale, client):
    reader, shown = await open_guide(simcord_env, "kami", client, client_locales)
    shown = await press(reader, shown, "next")
    assert shown.embeds[0].description == t("guide.kami.round", locale)
    assert shown.embeds[0].title == guide.page_title("kami", "round", locale)
    assert page_of(shown) == (2, guide.page_count("kami"))


def all_pages(key: str, locale: str) -> str:
    return "\n".join(
        guide.page_text(key, page, locale) for page in guide.PAGES[key] if page != "options"
    )


@pytest.mark.parametrize("locale", LOCALES)
def test_what_players_missed_is_in_the_guide(locale: str) -> None:
    """Kami's Empress rule, Demoralized and the Duel's mercenaries; Call to Glory's scoring and
    round end; every option with each of its values."""
    kami = all_pages("kami", locale)
    words = {
        "en": ("Empress", "Demoralized", "mercenar", "Soldier or a Spear", "face up"),
        "de": ("Kaiserin", "Demoralisiert", "Söldner", "Soldat und Speerträgerin", "offen"),
        "ru": ("Императрица", "Деморализация", "наёмник", "Солдата и Копейщицы", "открыто"),
    }[locale]
    for word in words:
        assert word in kami, word
    assert t("guide.kami.empress.title", locale) and t("guide.kami.duel.title", locale)
    call = all_pages("call_to_glory", locale)
    for number in ("6", "5", "4", "20 + 18 = 38"):  # types that end a round, a scored display
        assert number in t("guide.call_to_glory.scoring", locale)
    assert t("guide.call_to_glory.variants", locale) in call
    for key, game in REGISTRY.items():
        options = guide.page_text(key, "options", locale)
        assert f"`{t(f'guide.{key}.options.example', locale)}`" in options
        for option in game.options:
            assert option_about(key, option.name, locale) in options
            for value in option.choices:
                assert value_about(key, option.name, value, locale) in options


def test_the_kami_options_page_explains_lord_clamp_and_marks_defaults() -> None:
    text = guide.page_text("kami", "options", "en")
    assert (
        "**Lord clamp**: With the Lord ending: whether a total may fall below 0 (only with "
        "small targets)."
    ) in text
    assert "• on (default): A total that would fall below 0 stays at 0." in text
    assert "• off: A total may fall below 0 (14 against a target of 5: -4)." in text
    assert "**3-player deal** (only with 3 players): " in text
    assert "**Demoralized (5 Soldiers)** (only with 4 players): " in text
    assert guide.page_text("kami", "options", "ru").count("(только для 4 игроков)") == 1
    assert guide.page_text("kami", "options", "de").count("(nur mit 3 Spielern)") == 1


@pytest.mark.parametrize("locale", LOCALES)
def test_option_explanations_fit_a_select_description(locale: str) -> None:
    messages = catalog(locale)
    for key, game in REGISTRY.items():
        for option in game.options:
            lines = [messages[f"guide.{key}.option.{option.name}"]]
            lines += [
                messages[f"guide.{key}.option.{option.name}.{value_token(value)}"]
                for value in option.choices
            ]
            for line in lines:
                assert isinstance(line, str) and 1 <= len(line) <= 100, (locale, line)
                assert "\n" not in line


# ---------------------------------------------------------------- the full rules


async def test_the_footer_names_the_rules_file_when_no_repository_is_known(simcord_env) -> None:
    _, shown = await open_guide(simcord_env, "kami")
    assert shown.embeds[0].footer.text == (
        "Page 1 of 8 · the full rules: docs/rules/play/kami.md in the bot's source code"
    )
    assert all(c.get("style") != discord.ButtonStyle.link.value for c in controls(shown))


async def test_a_known_repository_links_the_rules_on_every_page(simcord_env, monkeypatch):
    monkeypatch.setattr(guide, "repository_url", lambda: REPOSITORY)
    reader, shown = await open_guide(simcord_env, "clans_and_glory")
    url = f"{REPOSITORY}/blob/HEAD/docs/rules/play/clans_and_glory.md"
    for page in (1, 2):
        links = [c for c in controls(shown) if c.get("style") == discord.ButtonStyle.link.value]
        assert [(c["label"], c["url"]) for c in links] == [("Full rules", url)]
        assert shown.embeds[0].url == url
        assert shown.embeds[0].footer.text == f"Page {page} of 5"
        shown = await press(reader, shown, "next")


def test_the_repository_comes_from_the_project_urls(monkeypatch, tmp_path) -> None:
    class Metadata:
        def __init__(self, urls: list[str]) -> None:
            self.urls = urls

        def get_all(self, name: str) -> list[str]:
            assert name == "Project-URL"
            return self.urls

    monkeypatch.undo()  # the real function, not the fixture's stand-in
    checkout = tmp_path / "pyproject.toml"
    monkeypatch.setattr(guide, "PYPROJECT", checkout)
    installed = [
        (["Homepage, https://glory.example", "Repository, https://git.example/glory/"], True),
        (["Homepage, https://glory.example"], False),
        (["Source, http://insecure.example/glory"], False),
    ]
    for urls, found in installed:
        guide.repository_url.cache_clear()
        monkeypatch.setattr(guide.importlib.metadata, "metadata", lambda _, u=urls: Metadata(u))
        assert guide.repository_url() == ("https://git.example/glory" if found else None)
    # A source checkout's pyproject.toml wins over an editable install's older metadata.
    checkout.write_text(
        '[project.urls]\nHomepage = "https://h.example"\nSource = "https://s.example/g"\n'
    )
    guide.repository_url.cache_clear()
    assert guide.repository_url() == "https://s.example/g"
    assert guide.rules_url("kami") == "https://s.example/g/blob/HEAD/docs/rules/play/kami.md"
    guide.repository_url.cache_clear()


# ---------------------------------------------------------------- forged page buttons


@pytest.mark.parametrize(
    "custom_id",
    [
        "glory:guide:chess:2:next",
        "glory:guide:kami:x:next",
        "glory:guide:kami:0:next",
        "glory:guide:kami:²:next",
        "glory:guide:kami:-1:next",
        "glory:guide:kami:99999999999999999999:next",
        "glory:guide:kami:2",
        "glory:guide:kami:2:sideways",
        "glory:guide:kami:2:next:more",
        "glory:guide:",
    ],
)
async def test_a_forged_page_button_is_answered_as_damaged(simcord_env, custom_id: str) -> None:
    reader, shown = await open_guide(simcord_env, "kami")
    before = wire(shown)
    result = await forged_click(simcord_env, reader, shown.message, custom_id)
    assert result.ephemeral and result.response.id != shown.id
    assert result.response.content == t("error.damaged_control", "en")
    after = simcord_env.backend.get_message(shown.message.channel.id, shown.id)
    assert (after.embeds, after.components) == (before["embeds"], before["components"])


async def test_a_page_past_the_end_shows_the_last_page(simcord_env) -> None:
    reader, shown = await open_guide(simcord_env, "kami")
    result = await forged_click(simcord_env, reader, shown.message, "glory:guide:kami:999:next")
    assert result.response.id == shown.id and page_of(result.response) == (8, 8)


# ---------------------------------------------------------------- lobby selects


@pytest.mark.parametrize("key", sorted(REGISTRY))
async def test_every_option_value_in_the_lobby_carries_its_explanation(simcord_env, key) -> None:
    game = REGISTRY[key]
    table = new_table(simcord_env, 2)
    await open_lobby(table, key)
    described: dict[str, str] = {}
    for index, option in enumerate(game.options):
        if index:  # the picker shows one option's values at a time when there are many
            pick = f"glory:optpick:{table.game_id}"
            if any(getattr(c, "custom_id", None) == pick for c in components(lobby_message(table))):
                await table.players[0].member.select(
                    lobby_message(table), [str(index)], custom_id=pick
                )
        for control in components(lobby_message(table)):
            for entry in getattr(control, "options", []):
                if entry.description is not None:
                    described[entry.label] = entry.description
        for value in option.choices:
            about = value_about(key, option.name, value, "en")
            assert about in described.values(), (option.name, value)
    if len(game.options) > 3:  # the picker explains each option
        assert option_about(key, "lord_clamp", "en") in described.values()


# ---------------------------------------------------------------- option conflicts

CONFLICT = {
    "en": (
        "Rounds (short game, 1 round) and Imperial Tasks (on) do not work together: Imperial "
        "Tasks are revealed over three rounds, so they need the full game, not the one-round "
        "game. Nothing was changed."
    ),
    "de": (
        "Runden (kurzes Spiel, 1 Runde) und Kaiserliche Aufträge (an) passen nicht zusammen: "
        "Kaiserliche Aufträge werden über drei Runden aufgedeckt; sie brauchen das ganze Spiel, "
        "nicht das Spiel mit einer Runde. Es wurde nichts geändert."
    ),
    "ru": (
        "Раунды (короткая игра, 1 раунд) и Поручения Императора (вкл.) несовместимы: "
        "Поручения Императора открываются три раунда подряд, поэтому им нужна полная игра, а не "
        "игра в один раунд. Ничего не изменено."
    ),
}


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_conflict_in_the_lobby_names_both_options_and_the_reason(
    simcord_env, client_locales, locale
) -> None:
    table = new_table(simcord_env, 2)
    await open_lobby(table, "call_to_glory", {"rounds": 1})
    client_locales[table.players[0].member.id] = locale
    options = [o.name for o in REGISTRY["call_to_glory"].options]
    before = (await table.loaded()).row.options
    result = await set_option(table, table.players[0].member, options.index("imperial_tasks"), 1)
    assert result.ephemeral and result.response.content == CONFLICT[locale]
    assert (await table.loaded()).row.options == before


@pytest.mark.parametrize("locale", LOCALES)
async def test_play_names_the_conflicting_options_in_the_writers_language(
    simcord_env, client_locales, locale
) -> None:
    table = new_table(simcord_env, 1)
    client_locales[table.players[0].member.id] = locale
    result = await table.players[0].member.slash(
        table.channel, "play", game="call_to_glory", options="imperial_tasks=on rounds=1"
    )
    assert result.ephemeral and result.response.content == CONFLICT[locale]
    assert await table.bot.store.open_game_in_channel(table.channel.id) is None


# ---------------------------------------------------------------- option names


def synced_options(command: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every option of a synced command (subcommands and their options), with its path."""
    found = []
    pending = [(command["name"], option) for option in command.get("options") or []]
    while pending:
        path, option = pending.pop()
        here = f"{path} {option['name']}"
        found.append((here, option))
        pending += [(here, inner) for inner in option.get("options") or []]
    return found


async def test_every_synced_option_carries_german_and_russian_names(simcord_env) -> None:
    commands = [c for scope in simcord_env.backend.commands.values() for c in scope.values()]
    options = [item for command in commands for item in synced_options(command)]
    names = {path for path, _ in options}
    for expected in ("play game", "play options", "rules game", "standings with_ai"):
        assert expected in names
    assert "settings language language" in names
    keys = {
        "play game": "cmd.play.game.name",
        "play options": "cmd.play.options.name",
        "rules game": "cmd.rules.game.name",
        "standings game": "cmd.standings.game.name",
        "standings with_ai": "cmd.standings.with_ai.name",
        "settings language language": "cmd.settings.language.language.name",
    }
    for path, option in options:
        localized = option.get("name_localizations") or {}
        assert set(localized) >= {"de", "ru"}, f"/{path} has no German or Russian name"
        for locale in ("de", "ru"):
            assert re.fullmatch(r"[-_\w]{1,32}", localized[locale]), (path, localized)
            assert localized[locale] == localized[locale].lower()
            if path in keys:
                assert localized[locale] == t(keys[path], locale) != t(keys[path], "en")


ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("key", sorted(REGISTRY))
def test_rules_link_a_players_page_with_pictures_that_exist(key: str) -> None:
    """``/rules`` links a page written for players (how to play, with the gallery's pictures),
    not the engine's notes; every picture and page it links is in the repository."""
    page = ROOT / guide.RULES_FILE.format(game=key)
    text = page.read_text(encoding="utf-8")
    assert text.startswith("# How to play ")
    links = re.findall(r"\]\(([^)#]+)\)", text)
    pictures = [link for link in links if link.endswith(".png")]
    assert pictures, "a player's page shows the game"
    for link in links:
        if not link.startswith("http"):
            assert (page.parent / link).resolve().is_file(), link
    assert f"../{key}.md" in links, "it links the engine's notes for every detail"
