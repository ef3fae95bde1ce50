"""A drawing surface that remembers what was drawn where.

Why a layer over Pillow: tests (and anyone debugging a layout) need to know which seat areas
and which cards a picture holds without reading pixels. Every card, card back and seat area is
drawn through ``Canvas`` and leaves a ``Mark`` with its tag and box; plain decoration goes to
Pillow directly through the same ``draw``.
"""

from __future__ import annotations

import functools
import io
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw

from bot.pictures.fonts import drawable, font
from bot.pictures.palette import RGB, Theme, mix, readable_on

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class Mark:
    """One recorded drawing: ``kind`` is ``card``, ``back``, ``area``, ``text`` or ``shield``;
    ``tag`` says what it stands for (a card's token, a seat number …)."""

    kind: str
    tag: Any
    box: Box
    emphasis: str = ""
    """``legal``, ``dim``, ``last`` (the last move) or ``turn`` (the seat on turn)."""
    count: int = 1
    """How many equal cards a grouped card stands for."""


@dataclass(frozen=True)
class Face:
    """What a card face shows: a big ``label`` (its number), a ``name`` below, its ``colour``
    and an optional ``shape`` with a ``letter`` (colour given a second, non-colour cue)."""

    label: str
    name: str
    colour: RGB
    shape: str | None = None
    letter: str = ""


TILE_MARGIN = 6
"""Room around a card tile for its emphasis frame and its count badge."""


@dataclass
class Canvas:
    width: int
    height: int
    theme: Theme
    marks: list[Mark] = field(default_factory=list)
    transparent: bool = False
    """A card tile: drawn once on a transparent ground, then pasted wherever the card is."""

    def __post_init__(self) -> None:
        if self.transparent:
            self.image = Image.new("RGBA", (self.width, self.height), (0, 0, 0, 0))
        else:
            self.image = Image.new("RGB", (self.width, self.height), self.theme.background)
        self.draw = ImageDraw.Draw(self.image)

    # ---------------------------------------------------------------- recorded drawings

    def area(self, box: Box, tag: Any, *, turn: bool = False, title: str = "") -> None:
        """A seat's (or a board's) panel; the seat on turn gets the accent border."""
        theme = self.theme
        fill = theme.panel_turn if turn else theme.panel
        outline = theme.accent if turn else theme.line
        self.draw.rounded_rectangle(
            box, radius=8, fill=fill, outline=outline, width=3 if turn else 1
        )
        self.marks.append(Mark("area", tag, box, "turn" if turn else ""))
        if title:
            self.text((box[0] + 10, box[1] + 6), title, size=16, bold=True)

    def card(
        self,
        box: Box,
        face: Face,
        tag: Any,
        *,
        emphasis: str = "",
        count: int = 0,
    ) -> None:
        """A face-up card; ``emphasis`` ``legal`` outlines it, ``dim`` greys it, ``last``
        marks the last move; ``count`` > 1 adds a "×n" badge (a group of equal cards).

        Cards repeat from picture to picture, so each look of a card is drawn once (a tile)
        and pasted."""
        x0, y0, x1, y1 = box
        tile = _card_tile(face, x1 - x0, y1 - y0, emphasis, count, self.theme)
        self.image.paste(tile, (x0 - TILE_MARGIN, y0 - TILE_MARGIN), tile)
        self.marks.append(Mark("card", tag, box, emphasis, max(1, count)))

    def _card_face(self, box: Box, face: Face, emphasis: str, count: int) -> None:
        theme = self.theme
        x0, y0, x1, y1 = box
        width, height = x1 - x0, y1 - y0
        dim = emphasis == "dim"
        paper = mix(theme.card, theme.dim, 0.55) if dim else theme.card
        band = mix(face.colour, theme.dim, 0.6) if dim else face.colour
        draw = self.draw
        if emphasis in ("legal", "last"):
            draw.rounded_rectangle(
                (x0 - 4, y0 - 4, x1 + 4, y1 + 4), radius=9, outline=theme.accent, width=3
            )
        draw.rounded_rectangle(box, radius=6, fill=paper, outline=band, width=2)
        band_height = max(12, height * 2 // 5)
        draw.rounded_rectangle((x0 + 3, y0 + 3, x1 - 3, y0 + band_height), radius=4, fill=band)
        on_band = readable_on(band)
        label_size = max(11, min(band_height - 4, width // 2))
        if face.shape:
            symbol = min(band_height - 9, width // 3)
            self.shape(face.shape, (x0 + 6, y0 + 3 + (band_height - symbol) // 2), symbol, on_band)
            label_size = min(label_size, band_height - 6)
            self.centred(
                x0 + 8 + symbol + (width - 10 - symbol) // 2,
                y0 + 3 + band_height // 2,
                face.label,
                label_size,
                on_band,
            )
        else:
            self.centred((x0 + x1) // 2, y0 + 3 + band_height // 2, face.label, label_size, on_band)
        text_colour = theme.muted if dim else theme.card_text
        if face.letter:
            self.centred(
                (x0 + x1) // 2,
                y0 + band_height + (height - band_height) // 3,
                face.letter,
                max(10, width // 3),
                text_colour,
                bold=True,
            )
            name_y = y1 - max(8, (height - band_height) // 4)
        else:
            name_y = y0 + band_height + (height - band_height) // 2
        if face.name:
            self.fitted(
                (x0 + x1) // 2,
                name_y,
                face.name,
                width - 6,
                max(9, min(14, width // 5)),
                text_colour,
            )
        if count > 1:
            badge = f"×{count}"
            size = 13
            text_width = int(font(size, True).getlength(badge))
            bx1, by1 = x1 + 2, y1 + 2
            draw.rounded_rectangle(
                (bx1 - text_width - 8, by1 - 18, bx1, by1), radius=6, fill=theme.text
            )
            self.centred(
                bx1 - (text_width + 8) // 2, by1 - 9, badge, size, theme.background, bold=True
            )

    def back(self, box: Box, tag: Any = None, *, emphasis: str = "", count: int = 0) -> None:
        """A face-down card: nothing of its face, only the pattern of every back."""
        x0, y0, x1, y1 = box
        tile = _back_tile(x1 - x0, y1 - y0, emphasis, count, self.theme)
        self.image.paste(tile, (x0 - TILE_MARGIN, y0 - TILE_MARGIN), tile)
        self.marks.append(Mark("back", tag, box, emphasis))

    def _back_face(self, box: Box, emphasis: str, count: int) -> None:
        theme = self.theme
        x0, y0, x1, y1 = box
        if emphasis == "last":
            self.draw.rounded_rectangle(
                (x0 - 4, y0 - 4, x1 + 4, y1 + 4), radius=9, outline=theme.accent, width=3
            )
        self.draw.rounded_rectangle(
            box, radius=6, fill=theme.back, outline=theme.back_mark, width=2
        )
        cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
        r = max(4, min(x1 - x0, y1 - y0) // 4)
        self.draw.regular_polygon((cx, cy, r), 4, fill=theme.back_mark)
        if count:
            self.centred(cx, cy, str(count), max(11, r), theme.text, bold=True)

    def slot(self, box: Box, label: str, tag: Any, *, emphasis: str = "") -> None:
        """An empty place for a card."""
        theme = self.theme
        outline = theme.accent if emphasis else theme.line
        self.draw.rounded_rectangle(box, radius=6, outline=outline, width=1)
        self.centred((box[0] + box[2]) // 2, (box[1] + box[3]) // 2, label, 11, theme.muted)
        self.marks.append(Mark("slot", tag, box, emphasis))

    def badge(
        self, centre: tuple[int, int], radius: int, colour: RGB, label: str, tag: Any = None
    ) -> None:
        """A round player badge with the seat's number (colour plus number, never colour alone)."""
        cx, cy = centre
        self.draw.ellipse(
            (cx - radius, cy - radius, cx + radius, cy + radius),
            fill=colour,
            outline=self.theme.background,
            width=1,
        )
        self.centred(cx, cy, label, max(9, radius + 2), readable_on(colour), bold=True)
        if tag is not None:
            self.marks.append(
                Mark("shield", tag, (cx - radius, cy - radius, cx + radius, cy + radius))
            )

    # ---------------------------------------------------------------- text and shapes

    def text(
        self,
        at: tuple[int, int],
        text: str,
        *,
        size: int = 14,
        colour: RGB | None = None,
        bold: bool = False,
        max_width: int | None = None,
    ) -> int:
        """Left-aligned text at ``at`` (top left); returns its width. Clipped with "…" to
        ``max_width``."""
        face = font(size, bold)
        shown = drawable(text)
        if max_width is not None:
            shown = clip_to(shown, face, max_width)
        self._paste_text(at[0], at[1], shown, size, bold, colour or self.theme.text, centred=False)
        return _length(shown, size, bold)

    def centred(
        self, x: int, y: int, text: str, size: int, colour: RGB, *, bold: bool = False
    ) -> None:
        self._paste_text(x, y, drawable(text), size, bold, colour, centred=True)

    def _paste_text(
        self, x: int, y: int, text: str, size: int, bold: bool, colour: RGB, *, centred: bool
    ) -> None:
        """Text through a mask rendered once per (text, size, weight): the same names and
        labels come back in every picture, and rendering glyphs is most of a picture's time.
        ``centred``: ``(x, y)`` is the middle of the text (Pillow's ``mm`` anchor), else its
        top left (``la``)."""
        if not text:
            return
        mask, left, top = _text_mask(text, size, bold)
        if centred:
            ascent, descent = font(size, bold).getmetrics()
            x -= _length(text, size, bold) // 2
            y -= (ascent + descent) // 2
        self.image.paste(colour, (x + left, y + top), mask)

    def fitted(self, x: int, y: int, text: str, width: int, size: int, colour: RGB) -> None:
        """Centred text, smaller or clipped until it fits ``width``."""
        shown, size = _fitted(drawable(text), width, size)
        self._paste_text(x, y, shown, size, False, colour, centred=True)

    def shape(self, kind: str, at: tuple[int, int], size: int, colour: RGB) -> None:
        """A small symbol (``circle``, ``square``, ``triangle``, ``diamond``, ``star``,
        ``hexagon``, ``cross``) with its top left at ``at``."""
        x, y = at
        size = max(6, size)
        r = size / 2
        cx, cy = x + r, y + r
        draw = self.draw
        if kind == "circle":
            draw.ellipse((x, y, x + size, y + size), fill=colour)
        elif kind == "square":
            draw.rectangle((x + 1, y + 1, x + size - 1, y + size - 1), fill=colour)
        elif kind == "triangle":
            draw.regular_polygon((cx, cy + 1, r + 1), 3, fill=colour)
        elif kind == "diamond":
            draw.regular_polygon((cx, cy, r), 4, fill=colour)
        elif kind == "hexagon":
            draw.regular_polygon((cx, cy, r), 6, fill=colour)
        elif kind == "star":
            points = [
                (
                    cx + (r if i % 2 == 0 else r * 0.45) * math.sin(math.pi * i / 5),
                    cy - (r if i % 2 == 0 else r * 0.45) * math.cos(math.pi * i / 5),
                )
                for i in range(10)
            ]
            draw.polygon(points, fill=colour)
        else:  # cross
            w = max(2, size // 4)
            draw.line((x, y, x + size, y + size), fill=colour, width=w)
            draw.line((x, y + size, x + size, y), fill=colour, width=w)

    # ---------------------------------------------------------------- output

    def png(self) -> bytes:
        """The picture as PNG in the theme's fixed palette of 256 colours.

        Measured (``benchmarks/pictures.py``): an RGB PNG of a table took 25 ms to encode,
        choosing a palette per picture 12 ms; mapping to a palette chosen once per theme takes
        under a millisecond and the paletted PNG encodes in about two.
        """
        paletted = self.image.quantize(palette=theme_palette(self.theme), dither=Image.Dither.NONE)
        out = io.BytesIO()
        paletted.save(out, format="PNG", compress_level=3)
        return out.getvalue()

    def marked(self, kind: str) -> list[Mark]:
        return [mark for mark in self.marks if mark.kind == kind]


def clip_to(text: str, face: Any, width: int) -> str:
    """``text`` cut with "…" to fit ``width`` pixels in ``face``."""
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


def row_of_boxes(x: int, y: int, count: int, width: int, height: int, gap: int) -> Sequence[Box]:
    """``count`` card boxes side by side from ``(x, y)``."""
    return [
        (x + i * (width + gap), y, x + i * (width + gap) + width, y + height) for i in range(count)
    ]


@functools.lru_cache(maxsize=8192)
def _length(text: str, size: int, bold: bool) -> int:
    return int(font(size, bold).getlength(text))


@functools.lru_cache(maxsize=8192)
def _text_mask(text: str, size: int, bold: bool) -> tuple[Image.Image, int, int]:
    """The antialiased mask of ``text`` and its offset from the top left of the line."""
    face = font(size, bold)
    left, top, right, bottom = face.getbbox(text)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=face, fill=255)
    return mask, left, top


@functools.lru_cache(maxsize=4096)
def _fitted(text: str, width: int, size: int) -> tuple[str, int]:
    while size > 8 and _length(text, size, False) > width:
        size -= 1
    return clip_to(text, font(size), width), size


@functools.lru_cache(maxsize=2048)
def _card_tile(
    face: Face, width: int, height: int, emphasis: str, count: int, theme: Theme
) -> Image.Image:
    tile = Canvas(width + 2 * TILE_MARGIN, height + 2 * TILE_MARGIN, theme, transparent=True)
    box = (TILE_MARGIN, TILE_MARGIN, TILE_MARGIN + width, TILE_MARGIN + height)
    tile._card_face(box, face, emphasis, count)
    return tile.image


@functools.lru_cache(maxsize=256)
def _back_tile(width: int, height: int, emphasis: str, count: int, theme: Theme) -> Image.Image:
    tile = Canvas(width + 2 * TILE_MARGIN, height + 2 * TILE_MARGIN, theme, transparent=True)
    box = (TILE_MARGIN, TILE_MARGIN, TILE_MARGIN + width, TILE_MARGIN + height)
    tile._back_face(box, emphasis, count)
    return tile.image


@functools.lru_cache(maxsize=8)
def theme_palette(theme: Theme) -> Image.Image:
    """A palette image of 256 colours for ``theme``: its own colours, the card and player
    colours, and the steps between each text colour and each ground it is drawn on (the
    antialiased edges of glyphs and shapes)."""
    from bot.pictures.palette import OKABE_ITO, PLAYER_COLOURS

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
        (150, 150, 150),
        (140, 96, 60),
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
    colours += [colours[0]] * (256 - len(colours))
    palette = Image.new("P", (1, 1))
    palette.putpalette([channel for colour in colours for channel in colour])
    return palette
