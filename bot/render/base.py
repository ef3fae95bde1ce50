"""The presenter interface and its catalog-driven defaults.

A presenter phrases one game: menu tokens, decisions, events and the game-specific lines of the
table and hand. Defaults look up ``<game>.<kind>.<word>`` in the catalog, so a game whose tokens
are all in the catalog needs little code. Presenters receive views only (``view(None)`` for
public text), never the state, so they cannot leak what the engine hides.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.i18n import has, t

JSON = dict[str, Any]
AUTOPLAY_EVENT = "autoplay"
"""A bot event put before the engine's events of a move the AI made for a human seat, so the
log says so (``why``: ``clock``, the turn ran out; ``takeover``, and the AI keeps the seat)."""


class Presenter:
    """Generic phrasing; per-game subclasses override the ``*_lines`` hooks and argument names."""

    seat_fields: tuple[str, ...] = (
        "seat",
        "player",
        "by",
        "target",
        "victim",
        "owner",
        "from_seat",
    )
    """Event fields holding a seat number, shown as the player's name."""
    silent_events: frozenset[str] = frozenset()
    """Bookkeeping events the log does not mention (the table shows their effect)."""
    card_fields: tuple[str, ...] = ()
    """Event fields holding one card, shown by ``card`` (``None``, a hidden card, is left out:
    the catalog's hidden variants of an event never print it)."""
    card_list_fields: tuple[str, ...] = ()
    """Event fields holding a list of cards, shown by ``cards``."""
    seat_list_fields: tuple[str, ...] = ("seats", "winners")
    """Event fields holding a list of seats, shown as the players' names."""
    score_list_fields: tuple[str, ...] = ("scores",)
    """Event fields holding one number per seat, shown as "Ann 5, Bob 3"."""

    def __init__(self, game_key: str) -> None:
        self.game_key = game_key

    # ---------------------------------------------------------------- naming

    def key(self, *parts: str) -> str:
        return ".".join((self.game_key, *parts))

    def game_name(self, locale: str) -> str:
        return t(self.key("name"), locale)

    def option_label(self, name: str, locale: str) -> str:
        return t(self.key("option", name), locale)

    def option_value(self, name: str, value: bool | int | str, locale: str) -> str:
        """A choice of an option: booleans are on/off, others may have a catalog name."""
        if isinstance(value, bool):
            return t("common.on" if value else "common.off", locale)
        key = self.key("option", name, str(value))
        return t(key, locale) if has(key) else str(value)

    def decision(self, decision: str | None, locale: str) -> str:
        key = self.key("decision", decision or "none")
        return t(key, locale) if has(key) else t("common.decision", locale)

    # ---------------------------------------------------------------- menus

    def token_label(self, token: str, view: JSON, names: Sequence[str], locale: str) -> str:
        """A menu token (``word`` or ``word:argument``) as a button or option label."""
        word, _, argument = token.partition(":")
        shown = self.argument(word, argument, view, names, locale) if argument else ""
        count = int(argument) if argument.isdigit() else 0
        return t(self.key("menu", word), locale, arg=shown, count=count)

    def argument(
        self, word: str, argument: str, view: JSON, names: Sequence[str], locale: str
    ) -> str:
        """How a token's argument reads (a card name, a player's name …); override per game."""
        if word == "seat" and argument.isdigit() and int(argument) < len(names):
            return names[int(argument)]
        return argument

    # ---------------------------------------------------------------- events

    def event_line(self, event: Mapping[str, Any], names: Sequence[str], locale: str) -> str | None:
        """One log line for ``event``, or ``None`` for bookkeeping events without a message."""
        if event.get("type") in self.silent_events:
            return None
        if event.get("type") == AUTOPLAY_EVENT:  # the bot's own note, the same in every game
            return t(
                f"autoplay.{event.get('why')}", locale, **self.event_params(event, names, locale)
            )
        key = self.key("event", self.event_key(event))
        return t(key, locale, **self.event_params(event, names, locale))

    def event_key(self, event: Mapping[str, Any]) -> str:
        """The catalog key suffix of ``event``; games pick variants (e.g. a hidden draw)."""
        return str(event.get("type"))

    def event_params(
        self, event: Mapping[str, Any], names: Sequence[str], locale: str
    ) -> dict[str, Any]:
        params: dict[str, Any] = {}
        for field, value in event.items():
            if field in self.card_fields and value is not None:
                params[field] = self.card(value, locale)
            elif isinstance(value, list):
                params[field] = self._list_param(field, value, names, locale)
            elif field in self.seat_fields and isinstance(value, int) and 0 <= value < len(names):
                params[field] = names[value]
            else:
                params[field] = value
        params.setdefault("count", 0)
        return params

    def _list_param(self, field: str, value: list, names: Sequence[str], locale: str) -> str:
        if field in self.card_list_fields:
            return self.cards(value, locale)
        if field in self.seat_list_fields:
            return ", ".join(names[seat] for seat in value)
        if field in self.score_list_fields:
            return self.seat_scores(value, names, locale)
        return ", ".join(str(item) for item in value)

    def card(self, card: Any, locale: str) -> str:
        """How one card reads; games name their cards through the catalog."""
        return str(card)

    def cards(self, cards: Sequence[Any], locale: str) -> str:
        return ", ".join(self.card(card, locale) for card in cards) or t(self.key("none"), locale)

    # ---------------------------------------------------------------- views

    def seat_scores(self, values: Sequence[Any], names: Sequence[str], locale: str) -> str:
        """Per-seat numbers as "Ann 5, Bob 3"."""
        return ", ".join(
            t("common.name_value", locale, name=name, value=value)
            for name, value in zip(names, values, strict=False)
        )

    def score_sides(self, view: JSON, names: Sequence[str]) -> list[tuple[str, int]]:
        """Who keeps a score: one ``(label, seat)`` per side, ``seat`` being the column of
        ``view["scores"]`` and ``view["round_scores"]`` that holds the side's points.

        Every player is a side of their own unless a game scores teams.
        """
        return [(name, seat) for seat, name in enumerate(names)]

    def round_entries(
        self, points: Sequence[int], sides: Sequence[tuple[str, int]]
    ) -> list[tuple[str, int]]:
        """The ``(label, points)`` a round's line of ``/scores`` names: every side."""
        return [(label, points[seat]) for label, seat in sides]

    def table_lines(self, view: JSON, names: Sequence[str], locale: str) -> list[str]:
        """Game-specific public lines of the table (``view`` is ``view(None)``)."""
        return []

    def hand_lines(self, view: JSON, names: Sequence[str], locale: str) -> list[str]:
        """Game-specific lines only the seat of ``view`` may see (their hand …)."""
        return []
