"""Buttons a seat's hand carries besides its move menu: asking for a hint, taking the seat
back from the AI, letting the bot make forced moves. Kept apart from the move menu
(``controls.menu_view``), which shows only what the engine offers; these are the bot's own
services around a seat.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.flows.forced_moves import forced_seat
from bot.flows.session import LoadedGame
from bot.i18n import t
from bot.interactions.components import AutoPassButton, HintButton, TakeBackButton

SEAT_BUTTONS_ROW = 2
"""Below the move menu (row 0) and Back (row 1)."""


def seat_buttons(loaded: LoadedGame, seat: int, locale: str) -> list[discord.ui.Item[Any]]:
    """The extra buttons of ``seat``'s hand in ``locale`` (row ``SEAT_BUTTONS_ROW``)."""
    return [
        *take_back_buttons(loaded, seat, locale),
        *hint_buttons(loaded, seat, locale),
        *auto_pass_buttons(loaded, seat, locale),
    ]


def seat_button_components(
    loaded: LoadedGame, seat: int, locale: str
) -> tuple[tuple[int | None, dict[str, Any]], ...]:
    """``seat_buttons`` as Discord's JSON with their rows, made once per state (a hand's
    answer is written as JSON, ``controls.menu_controls``); the key names all they depend on."""
    row = loaded.seats[seat]
    key = ("seat_buttons", seat, locale, loaded.row.version, row.takeover, row.ai_level)
    return loaded.derived(
        key,
        lambda: tuple(
            (item.row, item.to_component_dict())  # type: ignore[attr-defined]
            for item in seat_buttons(loaded, seat, locale)
        ),
    )


def take_back_buttons(loaded: LoadedGame, seat: int, locale: str) -> list[discord.ui.Item[Any]]:
    """The "Take my seat back" button, while the AI plays the seat for its absent player."""
    row = loaded.seats[seat]
    if not row.takeover or row.ai_level is not None:
        return []
    label = t("button.take_back", locale)
    return [TakeBackButton(loaded.id, seat, label, row=SEAT_BUTTONS_ROW)]


def hint_buttons(loaded: LoadedGame, seat: int, locale: str) -> list[discord.ui.Item[Any]]:
    """The Hint button, while the seat's player is on turn (``bot/flows/hints.py``).

    It is shown whether or not the server allows hints (that is a database read, and hands are
    built without one); pressed where hints are off, it says so."""
    row = loaded.seats[seat]
    state = loaded.state
    if state is None or state.to_move != seat or row.ai_level is not None or row.takeover:
        return []
    label = t("button.hint", locale)
    return [HintButton(loaded.id, loaded.row.version, seat, label, row=SEAT_BUTTONS_ROW)]


def auto_pass_buttons(loaded: LoadedGame, seat: int, locale: str) -> list[discord.ui.Item[Any]]:
    """ "Pass for me when I have no choice", on a hand whose only move is one move (a pass):
    where a player meets the choice (``/autopass`` turns it off; ``bot/flows/forced_moves.py``)."""
    if forced_seat(loaded) != seat:
        return []
    label = t("flow.button.autopass", locale)
    return [AutoPassButton(loaded.id, True, label, row=SEAT_BUTTONS_ROW)]
