"""What a game option means, and why two options refuse each other, in the reader's language.

Why one place: the lobby's option selects describe each value in one line, the ``/rules`` guide
lists every option with the same lines, and a refused combination names its options and reason;
all three read the catalog's ``guide.<game>.option.*`` and ``options.conflict.*`` entries, so a
fix in one explanation shows everywhere. The engines only give data (``InvalidOptions`` carries
``conflicting`` and ``reason``); the words are the catalog's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n import t
from bot.render import presenter_for
from games import Game, InvalidOptions, Option


def value_token(value: bool | int | str) -> str:
    """How a value appears in a catalog key: ``on``/``off`` for switches, else as written."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def option_about(game_key: str, option: str, locale: str) -> str:
    """One line: what ``option`` of ``game_key`` changes."""
    return t(f"guide.{game_key}.option.{option}", locale)


def value_about(game_key: str, option: str, value: bool | int | str, locale: str) -> str:
    """One line: what ``option`` set to ``value`` means."""
    return t(f"guide.{game_key}.option.{option}.{value_token(value)}", locale)


def option_lines(game: Game, locale: str) -> list[str]:
    """The guide's list: each option with its explanation, then each value with its own."""
    presenter = presenter_for(game.key)
    lines: list[str] = []
    for option in game.options:
        lines.append(_option_line(game.key, option, locale))
        for value in option.choices:
            key = "guide.value_default" if value == option.default else "guide.value"
            shown = presenter.option_value(option.name, value, locale)
            about = value_about(game.key, option.name, value, locale)
            lines.append(t(key, locale, value=shown, about=about))
    return lines


def _option_line(game_key: str, option: Option, locale: str) -> str:
    label = presenter_for(game_key).option_label(option.name, locale)
    about = option_about(game_key, option.name, locale)
    if option.players is None or len(option.players) != 1:
        # Every option limited to some player counts names one count; should one ever name
        # several, its explanation has to say which.
        return t("guide.option", locale, option=label, about=about)
    return t("guide.option_for", locale, option=label, about=about, count=option.players[0])


def invalid_options_params(
    game: Game, error: InvalidOptions, options: Mapping[str, Any], locale: str
) -> tuple[str, dict[str, Any]]:
    """The catalog key and the parameters that explain ``error`` for ``options``.

    A conflict that names its options and reason reads "Rounds (1) and Imperial Tasks (on) do
    not work together: …", with the names and values as the lobby shows them; any other error
    keeps its generic key (``options.invalid.<code>``).
    """
    reason_key = f"options.conflict.{game.key}.{error.reason}"
    if error.code != "conflict" or not error.conflicting or error.reason is None:
        return f"options.invalid.{error.code}", {}
    presenter = presenter_for(game.key)
    named = []
    for name in error.conflicting:
        value = options.get(name, game.option(name).default)
        named.append(
            t(
                "options.conflict.option",
                locale,
                option=presenter.option_label(name, locale),
                value=presenter.option_value(name, value, locale),
            )
        )
    listed = named[0]
    for later in named[1:]:
        listed = t("options.conflict.and", locale, first=listed, second=later)
    return "options.conflict", {"options": listed, "reason": t(reason_key, locale)}
