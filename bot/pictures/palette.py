"""Colours of the pictures, and the palette each theme's pictures are drawn and written in.

The card and player colours come from Okabe and Ito's palette, which stays distinguishable
under the common colour-vision deficiencies. Colour is never the only cue: every card also
carries its number or name, Clans and Glory's colours a shape and a letter, and players a
number badge.

A theme's pictures are written in one palette fixed per theme (``theme_colours``), and tables
and hands are drawn in it directly: a PNG needs a palette, and choosing one per picture took
12 ms of a table. ``Palette`` maps colours to it as Pillow maps a whole picture, so that what
is drawn in its indices is what mapping the RGB picture gave.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass

from PIL import Image

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

SILVER: RGB = (190, 196, 206)
GOLD: RGB = OKABE_ITO[0]
"""Okabe and Ito's orange is a deep gold; their yellow is lemon, too near silver's lightness."""
BROWN: RGB = (140, 96, 60)
GREY: RGB = (150, 150, 150)

KAMI_COLOURS: dict[str, RGB] = {
    "soldier": OKABE_ITO[2],
    "spear": OKABE_ITO[1],
    "horseman": BROWN,
    "silver_dragon": SILVER,
    "gold_dragon": GOLD,
    "tower": OKABE_ITO[4],
    "madman": OKABE_ITO[6],
    "empress": OKABE_ITO[5],
}
"""Kami's card types: the Dragons in silver and gold, and the types of equal value (Spear and
Horseman, the Dragons, Tower and Madman) in colours apart in lightness as well as hue, so they
differ for colour-blind players too (their names differ anyway)."""


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


@functools.lru_cache(maxsize=8)
def theme_colours(theme: Theme) -> list[RGB]:
    """The colours of ``theme``'s palette: its own colours, the card and player colours, and
    the steps between each text colour and each ground it is drawn on (the antialiased edges
    of glyphs and shapes); at most 256."""
    solid = [
        theme.background,
        theme.panel,
        theme.panel_turn,
        theme.line,
        theme.text,
        theme.muted,
        theme.accent,
        theme.card,
        theme.card_text,
        theme.back,
        theme.back_mark,
        theme.dim,
        (250, 250, 250),
        (20, 20, 24),
        (34, 34, 38),
        GREY,
        BROWN,
        SILVER,
        *OKABE_ITO,
        *PLAYER_COLOURS,
    ]
    grounds = [theme.background, theme.panel, theme.panel_turn, theme.card, *OKABE_ITO[:3]]
    inks = [theme.text, theme.muted, theme.accent, theme.card_text, (250, 250, 250), (20, 20, 24)]
    colours: list[RGB] = []
    for colour in solid:
        if colour not in colours:
            colours.append(colour)
    for ink in inks:
        for ground in grounds:
            for share in (0.25, 0.5, 0.75):
                blend = mix(ground, ink, share)
                if blend not in colours and len(colours) < 256:
                    colours.append(blend)
    return colours


@functools.lru_cache(maxsize=8)
def theme_palette(theme: Theme) -> Image.Image:
    """A palette image of 256 colours for ``theme`` (``theme_colours``, padded with the
    first): what pictures are mapped to."""
    colours = theme_colours(theme)
    colours = colours + [colours[0]] * (256 - len(colours))
    palette = Image.new("P", (1, 1))
    palette.putpalette([channel for colour in colours for channel in colour])
    return palette


class Palette:
    """A theme's palette and the mapping of colours to it (Pillow's, without dithering)."""

    def __init__(self, theme: Theme) -> None:
        self.image = theme_palette(theme)
        colours = theme_colours(theme)
        self.entries = bytes(channel for colour in colours for channel in colour)
        """What the PNG's palette holds: the theme's colours without the padding to 256,
        which the mapping never chooses (it takes the first of equal colours)."""
        self._indices: dict[RGB, int] = {}

    def indices(self, colours: Iterable[RGB]) -> list[int]:
        colours = list(colours)
        missing = [colour for colour in dict.fromkeys(colours) if colour not in self._indices]
        if missing:
            strip = Image.new("RGB", (len(missing), 1))
            strip.putdata(missing)
            mapped = strip.quantize(palette=self.image, dither=Image.Dither.NONE).tobytes()
            self._indices.update(zip(missing, mapped, strict=True))
        return [self._indices[colour] for colour in colours]

    def index(self, colour: RGB) -> int:
        index = self._indices.get(colour)
        return self.indices([colour])[0] if index is None else index


@functools.lru_cache(maxsize=8)
def palette_of(theme: Theme) -> Palette:
    """``theme``'s ``Palette``, made once (it remembers the colours it has mapped)."""
    return Palette(theme)
