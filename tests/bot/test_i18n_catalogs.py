"""The German and Russian catalogs against the English reference.

Every English key must exist in ``de`` and ``ru`` with the same placeholders, and no other keys;
plural messages must carry every CLDR category their locale needs, and every form must format.
Keys used as slash-command metadata (found by scanning ``bot/exts`` for ``text(...)`` calls) must
satisfy Discord's limits in every locale. The catalogs are imported directly, not through
``bot.i18n.LOCALES``, so the test holds before the locales are switched on.
"""

from __future__ import annotations

import ast
import re
import string
import unicodedata
from pathlib import Path

import pytest

import bot.i18n.de
import bot.i18n.en
import bot.i18n.ru
from bot.i18n import placeholders
from bot.i18n.plural import plural_category

EN = bot.i18n.en.MESSAGES
CATALOGS = {"de": bot.i18n.de.MESSAGES, "ru": bot.i18n.ru.MESSAGES}
ALL = {"en": EN, **CATALOGS}
PLURAL_FORMS = {
    "en": {"one", "other"},
    "de": {"one", "other"},
    "ru": {"one", "few", "many", "other"},
}
SAMPLE_COUNTS = (0, 1, 2, 3, 4, 5, 11, 12, 14, 15, 21, 22, 25, 101, 111)
EXTS = Path(__file__).resolve().parents[2] / "bot" / "exts"

# Discord: names 1-32 characters, lower case, letters (any script), digits, "-" and "_".
NAME_RULE = re.compile(r"^[-_\w]{1,32}$")
NAME_FUNCS = {"command", "group", "Command", "Group", "context_menu", "ContextMenu"}


def forms(message: str | dict[str, str]) -> list[str]:
    return list(message.values()) if isinstance(message, dict) else [message]


def sample(message: str | dict[str, str], count: object = 3) -> dict[str, object]:
    return {field: (count if field == "count" else f"<{field}>") for field in placeholders(message)}


def render(locale: str, message: str | dict[str, str], count: object) -> str:
    """What ``bot.i18n.t`` does, without depending on ``LOCALES``."""
    text = message
    if isinstance(message, dict):
        text = message.get(plural_category(locale, count)) or message["other"]
    assert isinstance(text, str)
    return string.Formatter().vformat(text, (), sample(message, count))


# ---------------------------------------------------------------- keys and placeholders


@pytest.mark.parametrize("locale", sorted(CATALOGS))
def test_every_english_key_is_translated(locale):
    missing = sorted(EN.keys() - CATALOGS[locale].keys())
    assert not missing, f"{locale} lacks {missing}"


@pytest.mark.parametrize("locale", sorted(CATALOGS))
def test_no_keys_beyond_english(locale):
    extra = sorted(CATALOGS[locale].keys() - EN.keys())
    assert not extra, f"{locale} has keys English no longer has: {extra}"


@pytest.mark.parametrize("locale", sorted(CATALOGS))
def test_placeholders_match_english(locale):
    wrong = {
        key: (sorted(placeholders(EN[key])), sorted(placeholders(message)))
        for key, message in CATALOGS[locale].items()
        if key in EN and placeholders(message) != placeholders(EN[key])
    }
    assert not wrong, f"{locale} placeholders differ (en, {locale}): {wrong}"


@pytest.mark.parametrize("locale", sorted(CATALOGS))
def test_each_form_of_a_plural_message_has_the_same_placeholders(locale):
    wrong = []
    for key, message in CATALOGS[locale].items():
        if isinstance(message, dict):
            sets = {frozenset(placeholders(form)) for form in message.values()}
            if len(sets) > 1:
                wrong.append(key)
    assert not wrong, f"{locale}: plural forms use different placeholders: {wrong}"


# ---------------------------------------------------------------- plural messages


@pytest.mark.parametrize("locale", sorted(ALL))
def test_plural_messages_carry_the_locale_categories(locale):
    wrong = {}
    for key, message in ALL[locale].items():
        if isinstance(message, dict) and set(message) != PLURAL_FORMS[locale]:
            wrong[key] = sorted(message)
    assert not wrong, f"{locale}: need exactly {sorted(PLURAL_FORMS[locale])}: {wrong}"


@pytest.mark.parametrize("locale", sorted(CATALOGS))
def test_english_plurals_stay_plural(locale):
    """A count English words as a plural must be a plural in every locale.

    The reverse is allowed: a locale may split a message with ``{count}`` into plural forms
    where English gets by with one (``t`` selects forms by ``count`` in any locale).
    """
    wrong = [
        key
        for key, message in EN.items()
        if isinstance(message, dict) and not isinstance(CATALOGS[locale].get(key), dict)
    ]
    extra = [
        key
        for key, message in CATALOGS[locale].items()
        if isinstance(message, dict)
        and not isinstance(EN.get(key), dict)
        and "count" not in placeholders(EN.get(key, ""))
    ]
    assert not wrong, f"{locale}: not a plural dict: {wrong}"
    assert not extra, f"{locale}: plural dict without a {{count}} in English: {extra}"


@pytest.mark.parametrize("locale", sorted(ALL))
def test_every_message_formats(locale):
    """Every form formats with sample values; counts pick every category of the locale."""
    for key, message in ALL[locale].items():
        counts = (*SAMPLE_COUNTS, 1.5) if isinstance(message, dict) else (3,)
        for count in counts:
            try:
                render(locale, message, count)
            except (KeyError, IndexError, ValueError) as error:
                pytest.fail(f"{locale} {key} (count={count}): {error!r}")
        if isinstance(message, dict):
            for form in message.values():
                string.Formatter().vformat(form, (), sample(message))
            used = {plural_category(locale, n) for n in (*SAMPLE_COUNTS, 1.5)}
            assert used <= set(message), f"{locale} {key}: no form for {used - set(message)}"


def test_russian_plural_categories_pick_the_right_noun():
    """Spot check that ``one``/``few``/``many`` forms are not swapped."""
    score = CATALOGS["ru"]["table.score"]
    assert render("ru", score, 1) == "<name>: 1 очко"
    assert render("ru", score, 3) == "<name>: 3 очка"
    assert render("ru", score, 5) == "<name>: 5 очков"
    assert render("ru", score, 11) == "<name>: 11 очков"
    assert render("ru", score, 21) == "<name>: 21 очко"
    assert render("ru", score, 24) == "<name>: 24 очка"


# ---------------------------------------------------------------- formatting kept as in English


def markup(text: str) -> tuple[int, int, int, list[str]]:
    """Bold markers, code spans, line breaks and emoji/symbol characters of a text."""
    symbols = sorted(c for c in text if unicodedata.category(c) == "So")
    return text.count("**"), text.count("`"), text.count("\n"), symbols


@pytest.mark.parametrize("locale", sorted(CATALOGS))
def test_markdown_and_emoji_as_in_english(locale):
    wrong = []
    for key, message in CATALOGS[locale].items():
        if key not in EN:
            continue
        reference = markup(forms(EN[key])[-1])
        wrong += [key for form in forms(message) if markup(form) != reference]
    assert not wrong, f"{locale}: Markdown, line breaks or emoji differ from English: {wrong}"


# ---------------------------------------------------------------- slash-command metadata


def _func_name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _is_text_call(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and _func_name(node) == "text" and len(node.args) == 1


def _is_top_level(call: ast.Call) -> bool:
    """``app_commands.command(...)``/``app_commands.Group(...)``, not ``group.command(...)``."""
    func = call.func
    return isinstance(func, ast.Name) or (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name)
        and func.value.id == "app_commands"
    )


def _keys(argument: ast.expr) -> list[str]:
    """The English keys a ``text(...)`` argument can name (f-strings match by pattern)."""
    if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
        return [argument.value]
    if isinstance(argument, ast.JoinedStr):
        pattern = "".join(
            re.escape(part.value) if isinstance(part, ast.Constant) else r"[^.]+"
            for part in argument.values
        )
        return sorted(key for key in EN if re.fullmatch(pattern, key))
    return []


def command_keys() -> dict[str, set[str]]:
    """Catalog keys used as command ``name``, ``description`` or choice name in ``bot/exts``."""
    found: dict[str, set[str]] = {
        "name": set(),
        "top": set(),
        "description": set(),
        "choice": set(),
    }
    for path in sorted(EXTS.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for call in (node for node in ast.walk(tree) if isinstance(node, ast.Call)):
            outer = _func_name(call)
            for keyword in call.keywords:
                if not _is_text_call(keyword.value):
                    continue
                keys = _keys(keyword.value.args[0])
                if outer == "rename" or (keyword.arg == "name" and outer in NAME_FUNCS):
                    found["name"].update(keys)
                    if outer != "rename" and _is_top_level(call):
                        found["top"].update(keys)
                elif keyword.arg == "name" and outer == "Choice":
                    found["choice"].update(keys)
                else:  # description=…, describe(param=…) and anything else: 100 characters
                    found["description"].update(keys)
    return found


COMMAND_KEYS = command_keys()


def test_command_keys_are_found():
    """Guard the scan itself: it must find the commands, their options and the game choices."""
    assert {"cmd.play.name", "cmd.rules.name"} <= COMMAND_KEYS["top"] <= COMMAND_KEYS["name"]
    assert {"cmd.play.description", "cmd.play.game"} <= COMMAND_KEYS["description"]
    assert "kami.name" in COMMAND_KEYS["choice"]
    for keys in COMMAND_KEYS.values():
        assert keys <= EN.keys(), f"unknown keys: {keys - EN.keys()}"


@pytest.mark.parametrize("locale", sorted(ALL))
def test_command_names_follow_discord_rules(locale):
    names = {key: ALL[locale].get(key) for key in sorted(COMMAND_KEYS["name"])}
    for key, name in names.items():
        assert isinstance(name, str), f"{locale} {key}: must be a plain string"
        assert NAME_RULE.fullmatch(name), f"{locale} {key}: {name!r} is not a valid name"
        assert name == name.lower(), f"{locale} {key}: {name!r} must be lower case"
    top = [names[key] for key in sorted(COMMAND_KEYS["top"])]
    assert len(set(top)) == len(top), f"{locale}: two commands share a name: {top}"


@pytest.mark.parametrize("locale", sorted(ALL))
@pytest.mark.parametrize("kind", ["description", "choice"])
def test_command_descriptions_and_choices_fit(locale, kind):
    for key in sorted(COMMAND_KEYS[kind]):
        text = ALL[locale].get(key)
        assert isinstance(text, str), f"{locale} {key}: must be a plain string"
        assert 1 <= len(text) <= 100, f"{locale} {key}: {len(text)} characters (max 100)"
