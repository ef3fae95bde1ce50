"""A drawing surface that remembers what was drawn where.

Why a layer over Pillow: tests (and anyone debugging a layout) need to know which seat areas
and which cards a picture holds without reading pixels. Every card, card back and seat area is
drawn through ``Canvas`` and leaves a ``Mark`` with its tag and box; plain decoration goes to
Pillow directly through the same ``draw``.

Tables and hands are drawn straight in the theme's palette (``paletted``): the PNG needs the
palette anyway, and mapping each pixel of an RGB picture to it took a tenth of a table's time.
The paletted picture must be exactly what that mapping made of the RGB picture (the goldens,
and what players saw, are that; ``tests/pictures/test_palette.py`` draws every game both ways):

- Pillow's shapes are not antialiased: drawn with the index its colour maps to, a shape covers
  the same pixels with the index the mapping would have given them.
- A text is antialiased against what lies under it, in the layouts always one colour drawn by
  this canvas: the canvas notes the colour each index was drawn for (``_grounds``), reads the
  index back under the text and pastes the text's sprite for that ink and ground (``sprites``).
  On a ground of several or unknown colours the text is blended over the picture and mapped
  again: close, not always exact.
- Card tiles are drawn in the palette too, on a transparent canvas whose coverage is their
  mask; a tile that cannot be drawn so exactly (``_Inexact``) is drawn in RGBA and mapped.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw

from bot.pictures.fonts import drawable, font, length
from bot.pictures.palette import RGB, Theme, mix, palette_of, readable_on
from bot.pictures.png import paletted_png
from bot.pictures.sprites import (
    COVERED,
    Glyphs,
    Sprite,
    glyphs_of,
    mapped,
    rgba_sprite,
    rounded_sprite,
    sprite_of,
    text_sprite,
)

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
    paletted: bool = False
    """Drawn in the theme's palette (tables and hands, see the module's docstring). Its
    ``draw`` then takes palette indices: draw through the canvas's methods, which map colours.
    Otherwise RGB, mapped to the palette when it is written (the score charts)."""

    def __post_init__(self) -> None:
        size = (self.width, self.height)
        self._grounds: dict[int, RGB | None] = {}
        """The colour each palette index was drawn for on this canvas (``None``: several),
        so that a text knows the colour under it."""
        self._cover: Image.Image | None = None
        """A paletted tile's coverage (its alpha): 255 where something is drawn, else 0."""
        if self.paletted:
            self._palette = palette_of(self.theme)
            if self.transparent:
                self.image = Image.new("P", size, 0)
                self._cover = Image.new("L", size, 0)
                self._cover_draw = ImageDraw.Draw(self._cover)
            else:
                self.image = Image.new("P", size, self._ink(self.theme.background))
                self.image.putpalette(self._palette.entries)
            self._core = self.image.im
        elif self.transparent:
            self.image = Image.new("RGBA", size, (0, 0, 0, 0))
        else:
            self.image = Image.new("RGB", size, self.theme.background)
        self.draw = ImageDraw.Draw(self.image)

    # ---------------------------------------------------------------- recorded drawings

    def area(self, box: Box, tag: Any, *, turn: bool = False, title: str = "") -> None:
        """A seat's (or a board's) panel; the seat on turn gets the accent border."""
        theme = self.theme
        fill = theme.panel_turn if turn else theme.panel
        outline = theme.accent if turn else theme.line
        self.rounded(box, 8, fill=fill, outline=outline, width=3 if turn else 1)
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
        if self.paletted:
            sprite = _card_sprite(face, x1 - x0, y1 - y0, emphasis, count, self.theme)
            self._paste(sprite, x0 - TILE_MARGIN, y0 - TILE_MARGIN)
        else:
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
        if emphasis in ("legal", "last"):
            self.rounded((x0 - 4, y0 - 4, x1 + 4, y1 + 4), 9, outline=theme.accent, width=3)
        self.rounded(box, 6, fill=paper, outline=band, width=2)
        band_height = max(12, height * 2 // 5)
        self.rounded((x0 + 3, y0 + 3, x1 - 3, y0 + band_height), 4, fill=band)
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
            text_width = length(badge, size, True)
            bx1, by1 = x1 + 2, y1 + 2
            self.rounded((bx1 - text_width - 8, by1 - 18, bx1, by1), 6, fill=theme.text)
            self.centred(
                bx1 - (text_width + 8) // 2, by1 - 9, badge, size, theme.background, bold=True
            )

    def back(self, box: Box, tag: Any = None, *, emphasis: str = "", count: int = 0) -> None:
        """A face-down card: nothing of its face, only the pattern of every back."""
        x0, y0, x1, y1 = box
        if self.paletted:
            sprite = _back_sprite(x1 - x0, y1 - y0, emphasis, count, self.theme)
            self._paste(sprite, x0 - TILE_MARGIN, y0 - TILE_MARGIN)
        else:
            tile = _back_tile(x1 - x0, y1 - y0, emphasis, count, self.theme)
            self.image.paste(tile, (x0 - TILE_MARGIN, y0 - TILE_MARGIN), tile)
        self.marks.append(Mark("back", tag, box, emphasis))

    def _back_face(self, box: Box, emphasis: str, count: int) -> None:
        theme = self.theme
        x0, y0, x1, y1 = box
        if emphasis == "last":
            self.rounded((x0 - 4, y0 - 4, x1 + 4, y1 + 4), 9, outline=theme.accent, width=3)
        self.rounded(box, 6, fill=theme.back, outline=theme.back_mark, width=2)
        cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
        r = max(4, min(x1 - x0, y1 - y0) // 4)
        self._paint(
            lambda draw, ink: draw.regular_polygon((cx, cy, r), 4, fill=ink), theme.back_mark
        )
        if count:
            self.centred(cx, cy, str(count), max(11, r), theme.text, bold=True)

    def slot(self, box: Box, label: str, tag: Any, *, emphasis: str = "") -> None:
        """An empty place for a card."""
        theme = self.theme
        outline = theme.accent if emphasis else theme.line
        self.rounded(box, 6, outline=outline, width=1)
        self.centred((box[0] + box[2]) // 2, (box[1] + box[3]) // 2, label, 11, theme.muted)
        self.marks.append(Mark("slot", tag, box, emphasis))

    def badge(
        self, centre: tuple[int, int], radius: int, colour: RGB, label: str, tag: Any = None
    ) -> None:
        """A round player badge with the seat's number (colour plus number, never colour alone)."""
        cx, cy = centre
        box = (cx - radius, cy - radius, cx + radius, cy + radius)
        self._paint(
            lambda draw, fill, outline: draw.ellipse(box, fill=fill, outline=outline, width=1),
            colour,
            self.theme.background,
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
        shown = drawable(text)
        if max_width is not None:
            shown = _clipped(shown, size, bold, max_width)
        self._paste_text(at[0], at[1], shown, size, bold, colour or self.theme.text, centred=False)
        return length(shown, size, bold)

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
        top left (``la``). On a paletted canvas the text is a sprite per ink and ground."""
        if not text:
            return
        glyphs = glyphs_of(text, size, bold)
        if centred:
            x -= glyphs.length // 2
            y -= glyphs.middle
        x += glyphs.left
        y += glyphs.top
        if not self.paletted:
            self.image.paste(colour, (x, y), glyphs.mask)
            return
        ground = self._ground(x, y, glyphs)
        if ground is not None:
            self._paste(text_sprite(text, size, bold, colour, ground, self.theme), x, y)
        elif self._cover is not None:
            raise _Inexact(text)
        else:
            self._blend(x, y, colour, glyphs.mask)

    def fitted(self, x: int, y: int, text: str, width: int, size: int, colour: RGB) -> None:
        """Centred text, smaller or clipped until it fits ``width``."""
        shown, size = _fitted(drawable(text), width, size)
        self._paste_text(x, y, shown, size, False, colour, centred=True)

    def shape(self, kind: str, at: tuple[int, int], size: int, colour: RGB) -> None:
        """A small symbol (``circle``, ``square``, ``triangle``, ``diamond``, ``star``,
        ``hexagon``, ``cross``) with its top left at ``at``."""
        self._paint(lambda draw, ink: _symbol(draw, kind, at, size, ink), colour)

    def rounded(
        self,
        box: Box,
        radius: int,
        *,
        fill: RGB | None = None,
        outline: RGB | None = None,
        width: int = 1,
    ) -> None:
        """A rounded rectangle (Pillow's), in colours, on any canvas.

        On a paletted canvas it is drawn once per size and look and pasted: Pillow draws one
        from four pie slices, four arcs and five rectangles, 45–60 µs, and a table has about
        ten (its panels, slots and frames)."""
        if not self.paletted:
            self.draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)
            return
        x0, y0, x1, y1 = box
        sprite = rounded_sprite(
            x1 - x0, y1 - y0, radius, self._ink(fill), self._ink(outline), width
        )
        self._paste(sprite, x0, y0)

    def line(self, xy: Sequence[tuple[int, int]], colour: RGB, width: int = 1) -> None:
        self._paint(lambda draw, ink: draw.line(xy, fill=ink, width=width), colour)

    # ---------------------------------------------------------------- the palette

    def _ink(self, colour: RGB | None) -> Any:
        """What Pillow draws ``colour`` with on this canvas: the colour itself, or on a
        paletted canvas the index the palette mapping gives it (noted as that index's
        colour on this canvas)."""
        if colour is None or not self.paletted:
            return colour
        index = self._palette.index(colour)
        if self._grounds.setdefault(index, colour) != colour:
            self._grounds[index] = None
        return index

    def _paint(self, paint: Callable[..., None], *colours: RGB) -> None:
        """``paint(draw, *inks)`` in ``colours``; on a paletted tile also into its coverage,
        all in 255 (Pillow then skips an outline, which lies within the fill's pixels)."""
        paint(self.draw, *(self._ink(colour) for colour in colours))
        if self._cover is not None:
            paint(self._cover_draw, *(255 for _ in colours))

    def _paste(self, sprite: Sprite, x: int, y: int) -> None:
        if sprite.blend is not None:
            self._blend(x, y, sprite.blend, sprite.blend.getchannel("A"))
            return
        paste = self._core.paste
        for left, top, right, bottom, source, mask in sprite.pieces:
            box = (x + left, y + top, x + right, y + bottom)
            if mask is None:
                paste(source, box)
            else:
                paste(source, box, mask)
        if self._cover is not None:
            cover = self._cover.im.paste
            for left, top, right, bottom, _, mask in sprite.pieces:
                box = (x + left, y + top, x + right, y + bottom)
                if mask is None:
                    cover(255, box)
                else:
                    cover(255, box, mask)

    def _ground(self, x: int, y: int, glyphs: Glyphs) -> RGB | None:
        """The one colour under the pixels ``glyphs`` cover at ``(x, y)``, if it is known."""
        width, height = glyphs.mask.size
        if x < 0 or y < 0 or x + width > self.width or y + height > self.height:
            return None
        box = (x, y, x + width, y + height)
        region = self._core.crop(box)
        low, high = region.getextrema()
        if low == high:
            index = low
        else:
            index = region.getpixel(glyphs.anchor)
            if region.histogram((0, 0), glyphs.cover)[index] != glyphs.covered:
                return None
        if self._cover is not None:
            cover = self._cover.im.crop(box)
            if cover.getextrema()[0] == 0 and cover.histogram((0, 0), glyphs.cover)[0]:
                return None  # partly on the tile's transparent ground
        return self._grounds.get(index)

    def _blend(self, x: int, y: int, source: RGB | Image.Image, mask: Image.Image) -> None:
        """``source`` through ``mask`` over the picture's own colours at ``(x, y)``, mapped to
        the palette again: for what no sprite fits (a text on a mixed or unknown ground)."""
        box = (x, y, x + mask.width, y + mask.height)
        region = self.image.crop(box).convert("RGB")
        if isinstance(source, Image.Image):
            region.paste(source.convert("RGB"), (0, 0), mask)
        else:
            region.paste(source, (0, 0), mask)
        self._core.paste(mapped(region, self.theme), box, mask.im.point(COVERED, "L"))

    # ---------------------------------------------------------------- output

    def png(self) -> bytes:
        """The picture as PNG in the theme's fixed palette.

        Measured (``benchmarks/pictures.py``): an RGB PNG of a table took 25 ms to encode,
        choosing a palette per picture 12 ms; a palette chosen once per theme, drawn in
        directly and written by ``png.paletted_png``, leaves about 0.4 ms for the PNG.
        """
        palette = palette_of(self.theme)
        if self.paletted:
            return paletted_png(self.image, palette.entries)
        rgb = self.image.convert("RGB") if self.image.mode != "RGB" else self.image
        return paletted_png(
            rgb.quantize(palette=palette.image, dither=Image.Dither.NONE), palette.entries
        )

    def marked(self, kind: str) -> list[Mark]:
        return [mark for mark in self.marks if mark.kind == kind]


class _Inexact(Exception):
    """A paletted tile cannot be drawn exactly (a text on a ground of several colours or on
    its transparent margin): it is drawn in RGBA and mapped to the palette instead."""


def _symbol(draw: ImageDraw.ImageDraw, kind: str, at: tuple[int, int], size: int, ink: Any) -> None:
    x, y = at
    size = max(6, size)
    r = size / 2
    cx, cy = x + r, y + r
    if kind == "circle":
        draw.ellipse((x, y, x + size, y + size), fill=ink)
    elif kind == "square":
        draw.rectangle((x + 1, y + 1, x + size - 1, y + size - 1), fill=ink)
    elif kind == "triangle":
        draw.regular_polygon((cx, cy + 1, r + 1), 3, fill=ink)
    elif kind == "diamond":
        draw.regular_polygon((cx, cy, r), 4, fill=ink)
    elif kind == "hexagon":
        draw.regular_polygon((cx, cy, r), 6, fill=ink)
    elif kind == "star":
        points = [
            (
                cx + (r if i % 2 == 0 else r * 0.45) * math.sin(math.pi * i / 5),
                cy - (r if i % 2 == 0 else r * 0.45) * math.cos(math.pi * i / 5),
            )
            for i in range(10)
        ]
        draw.polygon(points, fill=ink)
    else:  # cross
        w = max(2, size // 4)
        draw.line((x, y, x + size, y + size), fill=ink, width=w)
        draw.line((x, y + size, x + size, y), fill=ink, width=w)


def clip_to(text: str, face: Any, width: int) -> str:
    """``text`` cut with "…" to fit ``width`` pixels in ``face``."""
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


@functools.lru_cache(maxsize=8192)
def _clipped(text: str, size: int, bold: bool, width: int) -> str:
    """``clip_to`` once per text and width: names are clipped again in every picture."""
    return clip_to(text, font(size, bold), width)


@functools.lru_cache(maxsize=4096)
def _fitted(text: str, width: int, size: int) -> tuple[str, int]:
    while size > 8 and length(text, size, False) > width:
        size -= 1
    return _clipped(text, size, False, width), size


def _card_tile(
    face: Face, width: int, height: int, emphasis: str, count: int, theme: Theme
) -> Image.Image:
    tile = Canvas(width + 2 * TILE_MARGIN, height + 2 * TILE_MARGIN, theme, transparent=True)
    box = (TILE_MARGIN, TILE_MARGIN, TILE_MARGIN + width, TILE_MARGIN + height)
    tile._card_face(box, face, emphasis, count)
    return tile.image


def _back_tile(width: int, height: int, emphasis: str, count: int, theme: Theme) -> Image.Image:
    tile = Canvas(width + 2 * TILE_MARGIN, height + 2 * TILE_MARGIN, theme, transparent=True)
    box = (TILE_MARGIN, TILE_MARGIN, TILE_MARGIN + width, TILE_MARGIN + height)
    tile._back_face(box, emphasis, count)
    return tile.image


@functools.lru_cache(maxsize=2048)
def _card_sprite(
    face: Face, width: int, height: int, emphasis: str, count: int, theme: Theme
) -> Sprite:
    return _tile_sprite(
        lambda tile, box: tile._card_face(box, face, emphasis, count), width, height, theme
    )


@functools.lru_cache(maxsize=256)
def _back_sprite(width: int, height: int, emphasis: str, count: int, theme: Theme) -> Sprite:
    return _tile_sprite(
        lambda tile, box: tile._back_face(box, emphasis, count), width, height, theme
    )


def _tile_sprite(
    draw: Callable[[Canvas, Box], None], width: int, height: int, theme: Theme
) -> Sprite:
    """A card's or back's tile drawn in the palette, its coverage as its mask; in RGBA and
    mapped to the palette if that cannot be exact (``_Inexact``)."""
    size = (width + 2 * TILE_MARGIN, height + 2 * TILE_MARGIN)
    box = (TILE_MARGIN, TILE_MARGIN, TILE_MARGIN + width, TILE_MARGIN + height)
    tile = Canvas(*size, theme, transparent=True, paletted=True)
    try:
        draw(tile, box)
    except _Inexact:
        rgba = Canvas(*size, theme, transparent=True)
        draw(rgba, box)
        return rgba_sprite(rgba.image, theme)
    assert tile._cover is not None
    return sprite_of(tile._core, tile._cover)
