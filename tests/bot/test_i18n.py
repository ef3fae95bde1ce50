"""The message catalog: every key the code uses exists, plurals, fallback, translator."""

from __future__ import annotations

import re
from pathlib import Path

import discord
import pytest
from discord import app_commands

from bot.i18n import LOCALES, _lookup, catalog, has, placeholders, reference, supported_locale, t
from bot.i18n.commands import CatalogTranslator, text
from bot.i18n.plural import plural_category
from bot.ratings.board import decimal, rating_line
from bot.ratings.queries import BoardEntry
from bot.storage.models import GameStatus

BOT = Path(__file__).resolve().parents[2] / "bot"
LITERAL_KEY = re.compile(
    r"""\b(?:t|reply|text|has|announce)\(\s*(?:[a-z_.]+,\s*)?"([a-z0-9_.]+)"\s*[,)]"""
)


def test_every_literal_key_in_the_code_exists() -> None:
    found = set()
    for path in BOT.rglob("*.py"):
        if "i18n" in path.parts or "loopback" in path.parts:  # the emulator is not the bot's UI
            continue
        found |= set(LITERAL_KEY.findall(path.read_text()))
    assert len(found) > 40
    missing = sorted(key for key in found if not has(key))
    assert not missing


@pytest.mark.parametrize(
    "family",
    [
        [f"lobby.closed.{s.value}" for s in GameStatus if s is not GameStatus.LOBBY],
        [f"game.ended.{s.value}" for s in GameStatus if s is not GameStatus.ACTIVE],
        [f"table.ended.{s}" for s in ("cancelled", "abandoned", "expired")],
        [
            f"options.invalid.{c}"
            for c in ("player_count", "unknown_option", "bad_value", "conflict")
        ],
        [f"button.{a}" for a in ("join", "leave", "start", "cancel", "my_hand", "back")],
        [f"language.{code}" for code in (*LOCALES, "default")],
        ["settings.language.saved", "settings.language.default_saved"],
    ],
)
def test_keys_built_at_run_time_exist(family: list[str]) -> None:
    assert all(has(key) for key in family), [k for k in family if not has(k)]


def test_locales_share_keys_and_placeholders() -> None:
    english = catalog("en")
    for locale in LOCALES:
        messages = catalog(locale)
        assert set(messages) == set(english), locale
        for key, message in messages.items():
            assert placeholders(message) == placeholders(english[key]), (locale, key)
            if isinstance(message, dict):
                assert "other" in message


def test_plural_categories() -> None:
    assert [plural_category("en", n) for n in (0, 1, 2)] == ["other", "one", "other"]
    assert [plural_category("ru", n) for n in (1, 2, 5, 11, 21, 22, 25, 112, 102)] == [
        "one",
        "few",
        "many",
        "many",
        "one",
        "few",
        "many",
        "many",
        "few",
    ]
    assert plural_category("de", 1) == "one"
    assert t("table.score", "en", name="A", count=1) == "A: 1 point"
    assert t("table.score", "en", name="A", count=3) == "A: 3 points"


def test_our_locales_are_used_and_others_fall_back_to_english() -> None:
    assert LOCALES == ("en", "de", "ru")
    assert t("button.join", discord.Locale.german) == catalog("de")["button.join"] != "Join"
    assert t("button.join", "ru") == catalog("ru")["button.join"] != "Join"
    assert t("button.join", discord.Locale.french) == "Join"
    assert [supported_locale(x) for x in ("de", "ru", "en-GB", "fr", None)] == [
        "de",
        "ru",
        "en",
        "en",
        "en",
    ]
    assert supported_locale(discord.Locale.russian) == "ru"
    with pytest.raises(KeyError):
        t("no.such.key")


async def test_the_translator_uploads_german_and_russian_and_leaves_english_alone() -> None:
    translator = CatalogTranslator()
    string = text("cmd.play.description")
    assert isinstance(string, app_commands.locale_str)
    assert string.message == t("cmd.play.description")
    context = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.command_description, None
    )
    assert await translator.translate(string, discord.Locale.american_english, context) is None
    assert await translator.translate(string, discord.Locale.french, context) is None
    for locale in (discord.Locale.german, discord.Locale.russian):
        translated = await translator.translate(string, locale, context)
        assert translated == catalog(locale.value)["cmd.play.description"]
        assert translated != string.message


# ---------------------------------------------------------------- command and button names

REFERENCE = re.compile(r"^(cmd|button)_")


def _forms(message: str | dict[str, str]) -> list[str]:
    return list(message.values()) if isinstance(message, dict) else [message]


@pytest.mark.parametrize("locale", LOCALES)
def test_texts_name_commands_only_through_reference_placeholders(locale: str) -> None:
    """No text spells out "/play" or a quoted button label: a rename would leave it stale."""
    messages = catalog(locale)
    names = {
        key: messages[key] for key in messages if key.startswith("cmd.") and key.endswith(".name")
    }
    labels = [messages[key] for key in messages if key.startswith("button.")]
    alternatives = "|".join(map(re.escape, names.values()))
    slash = re.compile(rf"(?<![\w/])/({alternatives})(?![\w])")
    quoted = [
        shape.format(label)
        for label in labels
        for shape in ("„{}“", "«{}»", "**{}**", "“{}”", "ress {}", "se {} ", "{} button")
    ]
    wrong = []
    for key, message in messages.items():
        if key in names or key.startswith("button."):
            continue
        for form in _forms(message):
            if slash.search(form) or any(text in form for text in quoted):
                wrong.append(key)
    assert not wrong, f"{locale}: use {{cmd_…}} / {{button_…}} in {wrong}"


@pytest.mark.parametrize("locale", LOCALES)
def test_reference_placeholders_are_filled_from_the_same_catalog(locale: str) -> None:
    messages = catalog(locale)
    play, cancel = messages["cmd.play.name"], messages["cmd.cancel.name"]
    assert t("game.none_here", locale).count(f"/{play}") == 1
    assert f"/{cancel}" in t("play.busy", locale)
    shown = t("move.applied_display_failed", locale)
    assert f"/{messages['cmd.hand.name']}" in shown and f"/{messages['cmd.table.name']}" in shown
    assert messages["button.my_hand"] in t("move.stale_short", locale)
    assert messages["button.leave"] in t("leave.use_lobby_button", locale)
    assert messages["button.cancel"] in t("lobby.host_cannot_leave", locale)
    used = {
        field
        for message in messages.values()
        for field in placeholders(message)
        if REFERENCE.match(field)
    }
    assert len(used) >= 7
    for field in used:  # every reference names a real command or button
        assert reference(field, locale), field
    for key, message in messages.items():
        if placeholders(message) & used and not placeholders(message) - used - {"count"}:
            for count in (1, 2, 5):
                assert "{" not in t(key, locale, count=count), key


def test_a_renamed_command_reads_right_in_every_text_naming_it(monkeypatch) -> None:
    _lookup.cache_clear()
    monkeypatch.setitem(catalog("de"), "cmd.play.name", "neues-spiel")
    try:
        assert t("game.none_here", "de").endswith("/neues-spiel.")
        assert "/neues-spiel" not in t("game.none_here", "ru")
    finally:
        monkeypatch.undo()
        _lookup.cache_clear()
    assert t("game.none_here", "de").endswith(f"/{catalog('de')['cmd.play.name']}.")


def test_an_unknown_reference_fails_loudly() -> None:
    with pytest.raises(KeyError):
        reference("cmd_no_such_command", "en")
    assert reference("count", "en") is None


# ---------------------------------------------------------------- counted phrases


@pytest.mark.parametrize(
    ("locale", "count", "you"),
    [("de", 1, "dir"), ("de", 2, "euch"), ("ru", 1, "тебе"), ("ru", 2, "вам"), ("ru", 5, "вам")],
)
def test_the_closed_dm_notice_says_you_in_the_singular_or_plural(locale, count, you) -> None:
    text = t("dm.closed", locale, count=count, mentions="<@1>", button="B")
    assert f" {you} " in text and text.startswith("<@1>: ") and "**B**" in text


@pytest.mark.parametrize(
    ("locale", "played", "wins", "phrases"),
    [
        ("en", 1, 1, ["1 game", "1 won"]),
        ("en", 3, 0, ["3 games", "0 won"]),
        ("de", 1, 1, ["1 Spiel", "1 gewonnen"]),
        ("de", 2, 2, ["2 Spiele", "2 gewonnen"]),
        ("ru", 21, 1, ["21 игра", "1 победа"]),
        ("ru", 3, 2, ["3 игры", "2 победы"]),
        ("ru", 11, 5, ["11 игр", "5 побед"]),
    ],
)
def test_standings_count_games_and_wins_as_plural_phrases(locale, played, wins, phrases) -> None:
    entry = BoardEntry(user_id=7, ai_level="", mu=30.0, sigma=3.0, games=played, wins=wins)
    line = rating_line(2, entry, locale)
    assert line.startswith("2. <@7>: ")
    for phrase in phrases:
        assert re.search(rf"(?<!\d){re.escape(phrase)}(?!\w)", line), (phrase, line)
    assert ":" not in line.split(": ", 1)[1], "no 'Games: 5' labels after the name"
    for word in {word for phrase in phrases for word in phrase.split()[1:]}:
        assert line.count(f" {word}") == 1, (word, line)


def test_an_english_standings_line_reads_as_a_sentence() -> None:
    entry = BoardEntry(user_id=7, ai_level="", mu=27.5, sigma=2.0, games=4, wins=1)
    assert rating_line(1, entry, "en") == "1. <@7>: **21.5**, 4 games, 1 won"


def test_ratings_use_the_readers_decimal_sign_and_a_real_minus() -> None:
    assert (decimal(21.46, "en"), decimal(21.46, "de"), decimal(-3.04, "ru")) == (
        "21.5",
        "21,5",
        "−3,0",
    )
    assert decimal(-0.01, "en") == "0.0"
