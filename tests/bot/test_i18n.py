"""The message catalog: every key the code uses exists, plurals, fallback, translator."""

from __future__ import annotations

import re
from pathlib import Path

import discord
import pytest
from discord import app_commands

from bot.i18n import LOCALES, catalog, has, placeholders, supported_locale, t
from bot.i18n.commands import CatalogTranslator, text
from bot.i18n.plural import plural_category
from bot.storage.models import GameStatus

BOT = Path(__file__).resolve().parents[2] / "bot"
LITERAL_KEY = re.compile(
    r"""\b(?:t|reply|text|has|announce)\(\s*(?:[a-z_.]+,\s*)?"([a-z0-9_.]+)"\s*[,)]"""
)


def test_every_literal_key_in_the_code_exists() -> None:
    found = set()
    for path in BOT.rglob("*.py"):
        if "i18n" in path.parts:
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
