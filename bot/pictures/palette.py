"""Colours of the pictures, chosen to stay apart for colour-blind readers.

The card and player colours come from Okabe and Ito's palette, which stays distinguishable
under the common colour-vision deficiencies. Colour is never the only cue: every card also
carries its number or name, Clans and Glory's colours a shape and a letter, and players a
number badge.
"""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]

OKABE_ITO: tuple[RGB, ...] = (
    (230, 159, 0),  # orange
    (86, 180, 233),  # sky blue
    (0, 158, 115),  # bluish green
    (240, 228, 66),  # yellow
    (0, 114, 178),  # blue
    (213, 94, 0),  # vermillion
    (204, 121, 167),  # reddish purple
)


@dataclass(frozen=True)
class Theme:
    """The colours of one look; the name is part of every cached picture's key."""

    key: str
    background: RGB
    panel: RGB
    panel_turn: RGB
    line: RGB
    text: RGB
    muted: RGB
    accent: RGB
    """The turn and the last move: a colour every reader sees against the background."""
    card: RGB
    card_text: RGB
    back: RGB
    back_mark: RGB
    dim: RGB

    def __hash__(self) -> int:
        """By key alone: a theme is part of the key of every cached card and text, and
        hashing its thirteen colours (0.56 µs, 0.17 by key) was the largest part of a card's
        cache lookup."""
        return hash(self.key)


DARK = Theme(
    key="dark",
    background=(30, 31, 34),
    panel=(43, 45, 49),
    panel_turn=(56, 52, 36),
    line=(78, 80, 88),
    text=(242, 243, 245),
    muted=(164, 168, 176),
    accent=(255, 204, 0),
    card=(250, 247, 240),
    card_text=(20, 20, 24),
    back=(92, 38, 52),
    back_mark=(171, 120, 78),
    dim=(70, 72, 78),
)
THEMES = {DARK.key: DARK}
DEFAULT_THEME = DARK.key

PLAYER_COLOURS: tuple[RGB, ...] = (
    OKABE_ITO[1],
    OKABE_ITO[0],
    OKABE_ITO[2],
    OKABE_ITO[6],
)
"""A player's badge colour by seat (the badge also shows the seat's number)."""


def readable_on(colour: RGB) -> RGB:
    """Black or white, whichever reads better on ``colour``."""
    r, g, b = colour
    return (20, 20, 24) if 0.299 * r + 0.587 * g + 0.114 * b > 140 else (250, 250, 250)


def mix(colour: RGB, other: RGB, share: float) -> RGB:
    """``colour`` moved ``share`` of the way towards ``other``."""
    return tuple(round(a + (b - a) * share) for a, b in zip(colour, other, strict=True))  # type: ignore[return-value]
