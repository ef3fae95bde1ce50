"""The ⏮ ◀ ▶ ⏭ buttons of every paged message: /scores, /rules, /history, /standings, /replay.

Why one place: each of those messages steps through its pages the same way (first, one back,
one on, last; a button that would lead nowhere is greyed out) and only the button's class and
custom_id differ.
"""

from __future__ import annotations

from collections.abc import Callable

from discord import ui

from bot.messages.controls import SentControls

PAGE_BUTTONS: tuple[tuple[str, str], ...] = (
    ("first", "⏮"),
    ("previous", "◀"),
    ("next", "▶"),
    ("last", "⏭"),
)
"""The buttons' names (as their custom_ids carry them) and emoji, in the order shown."""


def step_buttons(
    current: int,
    last: int,
    make: Callable[[int, str, str, bool], ui.Item],
    *,
    first: int = 1,
    names: tuple[tuple[str, str], ...] = PAGE_BUTTONS,
    controls: SentControls | None = None,
) -> SentControls:
    """The four buttons for page ``current`` of ``first``..``last``, each made by
    ``make(target, name, emoji, disabled)`` (disabled: it leads to the page shown), added to
    ``controls`` (a new set if none)."""
    controls = controls if controls is not None else SentControls()
    targets = (first, current - 1, current + 1, last)
    for (name, emoji), target in zip(names, targets, strict=True):
        target = min(max(target, first), last)
        controls.add_item(make(target, name, emoji, target == current))
    return controls
