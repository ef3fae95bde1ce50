"""Reading ``/play``'s optional ``options`` text ("rounds=1 ninja=on") against a game's options.

Why text: the games declare different options, and one ``/play`` command serves them all; the
lobby's menus remain the comfortable way, this is the quick one. Values are checked by the
engine's own ``Option.parse``, so the bot adds no rule.

Names and values are accepted as the engine spells them (``imperial_tasks=on``, always) and as
the lobby's menus show them in the given languages (``Kaiserliche Aufträge=an``,
``Сила Ниндзя=вкл``), in any letter case, with ``_`` for a space, ``е`` for ``ё``, and without a
trailing parenthesis or full stop ("printed (8 cards each)" → ``printed``). Labels of several
words need no quotes: the text is matched against the known names, longest first. Pairs are
separated by spaces, commas or semicolons.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from discord.utils import escape_markdown

from bot.i18n import DEFAULT_LOCALE
from bot.render.base import Presenter
from games import Game, Option

TRUE = ("on", "yes", "true", "1")
FALSE = ("off", "no", "false", "0")
SEPARATORS = frozenset(" ,;")
ECHO_LIMIT = 40
"""At most this many characters of the user's own text are quoted back in an error."""


class OptionsTextError(ValueError):
    """Text ``/play`` cannot read; ``key`` and ``params`` phrase why (for the catalog)."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


def normalise(text: str) -> str:
    """The form names are compared in: case-folded, ``ё`` → ``е``, ``_`` → space, one space."""
    return " ".join(text.casefold().replace("ё", "е").replace("_", " ").split())


def aliases(label: str) -> set[str]:
    """``label`` and its short forms, normalised (without "(…)" at the end or a final ".")."""
    full = normalise(label)
    short = re.sub(r"\s*\([^()]*\)$", "", full)
    return {form for text in (full, short) for form in (text, text.rstrip(".")) if form}


@dataclass
class Vocabulary:
    """Every accepted spelling of a game's option names and of each option's values."""

    names: dict[str, Option] = field(default_factory=dict)
    values: dict[str, dict[str, bool | int | str]] = field(default_factory=dict)


def vocabulary(game: Game, presenter: Presenter, locales: Iterable[str]) -> Vocabulary:
    """The spellings of ``game``'s options in English, the engine's and ``locales``'.

    A spelling that two options (or two values) share would be ambiguous, so it is left out;
    ``tests/bot/test_lobby.py`` checks that no shipped label is lost that way.
    """
    languages = sorted({DEFAULT_LOCALE, *locales})
    vocab = Vocabulary()
    clashes: set[str] = set()
    for option in game.options:
        labels = [option.name, *(presenter.option_label(option.name, lang) for lang in languages)]
        for alias in {form for label in labels for form in aliases(label)}:
            if vocab.names.setdefault(alias, option) is not option:
                clashes.add(alias)
        values: dict[str, bool | int | str] = {}
        value_clashes: set[str] = set()
        for choice in option.choices:
            labels = [str(choice)]
            labels += [presenter.option_value(option.name, choice, lang) for lang in languages]
            if isinstance(choice, bool):
                labels += TRUE if choice else FALSE
            for alias in {form for label in labels for form in aliases(label)}:
                if values.setdefault(alias, choice) != choice:
                    value_clashes.add(alias)
        vocab.values[option.name] = {k: v for k, v in values.items() if k not in value_clashes}
    vocab.names = {k: v for k, v in vocab.names.items() if k not in clashes}
    return vocab


def parse_options(
    game: Game,
    text: str | None,
    presenter: Presenter,
    locale: str = DEFAULT_LOCALE,
    *,
    also: Iterable[str] = (),
) -> dict[str, Any]:
    """The options ``text`` sets, by engine name; ``OptionsTextError`` explains a bad one.

    Accepts English, ``locale`` (the writer's language, which errors are phrased in) and the
    languages in ``also`` (the server's, which the lobby's menus show).
    """
    reader = _Reader(game, normalise(text or ""), presenter, locale, also)
    chosen: dict[str, Any] = {}
    while reader.skip_separators():
        option = reader.name()
        chosen[option.name] = option.parse(reader.value(option))
    return chosen


class _Reader:
    """A cursor over the normalised text that reads ``name=value`` pairs."""

    def __init__(
        self, game: Game, text: str, presenter: Presenter, locale: str, also: Iterable[str]
    ) -> None:
        self.game, self.text, self.presenter, self.locale = game, text, presenter, locale
        self.vocab = vocabulary(game, presenter, [locale, *also])
        self.names = sorted(self.vocab.names, key=len, reverse=True)
        self.pos = 0

    def skip_separators(self) -> bool:
        """Move past separators; whether any text is left."""
        while self.pos < len(self.text) and self.text[self.pos] in SEPARATORS:
            self.pos += 1
        return self.pos < len(self.text)

    def _ends_word(self, end: int) -> bool:
        return end == len(self.text) or self.text[end] in SEPARATORS

    def name(self) -> Option:
        """The option named at the cursor, which must be followed by ``=``."""
        bare = None
        for alias in self.names:
            if not self.text.startswith(alias, self.pos):
                continue
            end = self.pos + len(alias)
            after = len(self.text[end:]) - len(self.text[end:].lstrip())
            if self.text[end + after : end + after + 1] == "=":
                self.pos = end + after + 1
                return self.vocab.names[alias]
            if bare is None and self._ends_word(end):
                bare = self.vocab.names[alias]
        if bare is not None:
            raise self._error("options.text.missing_value", bare)
        equals = self.text.find("=", self.pos)
        unknown = self.text[self.pos : equals if equals >= 0 else None].strip()
        raise OptionsTextError(
            "options.text.unknown_name",
            game=self.presenter.game_name(self.locale),
            name=_echo(unknown),
            choices=", ".join(
                self.presenter.option_label(option.name, self.locale)
                for option in self.game.options
            ),
        )

    def value(self, option: Option) -> bool | int | str:
        """The value of ``option`` at the cursor (a known spelling ending at a separator)."""
        while self.pos < len(self.text) and self.text[self.pos] == " ":
            self.pos += 1
        values = self.vocab.values[option.name]
        for alias in sorted(values, key=len, reverse=True):
            end = self.pos + len(alias)
            if self.text.startswith(alias, self.pos) and self._ends_word(end):
                self.pos = end
                return values[alias]
        end = self.pos
        while not self._ends_word(end):
            end += 1
        raw = self.text[self.pos : end]
        if not raw:
            raise self._error("options.text.missing_value", option)
        raise self._error("options.text.unknown_value", option, value=_echo(raw))

    def _error(self, key: str, option: Option, **params: Any) -> OptionsTextError:
        return OptionsTextError(
            key,
            option=self.presenter.option_label(option.name, self.locale),
            choices=", ".join(
                self.presenter.option_value(option.name, choice, self.locale)
                for choice in option.choices
            ),
            **params,
        )


def _echo(text: str) -> str:
    """The user's own words, safe to quote back: short and without Markdown."""
    short = text if len(text) <= ECHO_LIMIT else text[: ECHO_LIMIT - 1] + "…"
    return escape_markdown(short)
