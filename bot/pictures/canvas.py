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
from bot.pictures.phone import LINE, SMALL, VALUE
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
class Written:
    """One text drawn: what it should say (``text``), what it shows (``shown``: shorter, with
    "…", when it was clipped), its font size in pixels and where. Tests hold every text to the
    phone's smallest legible size (``bot/pictures/phone.py``) and every card name to being
    shown whole."""

    text: str
    shown: str
    size: int
    bold: bool
    box: Box
    role: str = ""
    """``name``: a card's name (on the lines of ``shown``, joined by spaces); ``player``: a
    player's name (may be clipped, a Discord name can be long); else a label."""

    @property
    def clipped(self) -> bool:
        return self.shown != self.text


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
"""Room around a card tile for its emphasis frame."""
CARD_BAND = 32
"""The height of the coloured band with a card's value."""
NAME_PADDING = 4
"""Room between a card's name and its edges."""
SYMBOL = 18
"""A colour's shape on a card's band."""
LETTER = 24
"""A colour's letter on a card (bold)."""


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
        self.writings: list[Written] = []
        """Every text drawn, card texts included (``Written``)."""
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

    def area(self, box: Box, tag: Any, *, turn: bool = False, fill: RGB | None = None) -> None:
        """A seat's (or a board's) panel; the seat on turn gets the accent border."""
        theme = self.theme
        ground = fill or (theme.panel_turn if turn else theme.panel)
        outline = theme.accent if turn else theme.line
        self.rounded(box, 8, fill=ground, outline=outline, width=3 if turn else 1)
        self.marks.append(Mark("area", tag, box, "turn" if turn else ""))

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
        marks the last move; ``count`` > 1 writes "×n" on it (a group of equal cards), beside
        its value, where it covers nothing.

        A face with a name or a letter is a card: its value on a band of its colour, the name
        (on up to two lines) or the letter below. A face without either is a chip: its value
        on its colour, for small places where the value says which card it is.

        Cards repeat from picture to picture, so each look of a card is drawn once (a tile)
        and pasted."""
        x0, y0, x1, y1 = box
        left, top = x0 - TILE_MARGIN, y0 - TILE_MARGIN
        if self.paletted:
            tile = _card_sprite(face, x1 - x0, y1 - y0, emphasis, count, self.theme)
            self._paste(tile.sprite, left, top)
        else:
            tile = _card_tile(face, x1 - x0, y1 - y0, emphasis, count, self.theme)
            self.image.paste(tile.image, (left, top), tile.image)
        self._wrote(tile.writings, left, top)
        self.marks.append(Mark("card", tag, box, emphasis, max(1, count)))

    def _wrote(self, writings: tuple[Written, ...], x: int, y: int) -> None:
        """A tile's texts, where the tile was pasted."""
        for w in writings:
            a, b, c, d = w.box
            self.writings.append(
                Written(w.text, w.shown, w.size, w.bold, (a + x, b + y, c + x, d + y), w.role)
            )

    def _card_face(self, box: Box, face: Face, emphasis: str, count: int) -> None:
        theme = self.theme
        x0, y0, x1, y1 = box
        width = x1 - x0
        dim = emphasis == "dim"
        paper = mix(theme.card, theme.dim, 0.55) if dim else theme.card
        band = mix(face.colour, theme.dim, 0.6) if dim else face.colour
        on_band = readable_on(band)
        if emphasis in ("legal", "last"):
            self.rounded((x0 - 4, y0 - 4, x1 + 4, y1 + 4), 9, outline=theme.accent, width=3)
        if not (face.name or face.letter):
            self.rounded(box, 6, fill=band, outline=band)
            self._value_and_count(box, face, count, on_band)
            return
        self.rounded(box, 6, fill=paper, outline=band, width=2)
        band_bottom = y0 + 3 + CARD_BAND
        self.rounded((x0 + 3, y0 + 3, x1 - 3, band_bottom), 4, fill=band)
        self._value_and_count((x0 + 3, y0 + 3, x1 - 3, band_bottom), face, count, on_band)
        text_colour = theme.muted if dim else theme.card_text
        middle = (band_bottom + y1) // 2
        if face.letter:
            self.centred((x0 + x1) // 2, middle, face.letter, LETTER, text_colour, bold=True)
        if face.name:
            lines = wrapped(drawable(face.name), SMALL, False, width - 2 * NAME_PADDING)
            top = middle - len(lines) * LINE // 2
            for number, line in enumerate(lines):
                self._paste_text(
                    (x0 + x1) // 2,
                    top + number * LINE + LINE // 2,
                    line,
                    SMALL,
                    False,
                    text_colour,
                    anchor="mm",
                )
            widest = max(length(line, SMALL, False) for line in lines)
            centre = (x0 + x1) // 2
            self.writings.append(
                Written(
                    face.name,
                    " ".join(lines),
                    SMALL,
                    False,
                    (
                        centre - widest // 2,
                        top,
                        centre + (widest + 1) // 2,
                        top + len(lines) * LINE,
                    ),
                    "name",
                )
            )

    def _value_and_count(self, box: Box, face: Face, count: int, ink: RGB) -> None:
        """The value (after the shape, if any) and "×n", centred as one group in ``box``."""
        x0, y0, x1, y1 = box
        middle = (y0 + y1) // 2
        symbol = min(SYMBOL, y1 - y0 - 8) if face.shape else 0
        times = f"×{count}" if count > 1 else ""
        extra = (symbol + 4 if symbol else 0) + (length(times, SMALL, True) + 5 if times else 0)
        size = VALUE
        if y1 - y0 < VALUE + 4 or length(face.label, VALUE, True) + extra > x1 - x0 - 8:
            size = SMALL  # a small chip
        parts = length(face.label, size, True) + extra
        x = (x0 + x1 - parts) // 2
        if symbol:
            self.shape(face.shape or "", (x, middle - symbol // 2), symbol, ink)
            x += symbol + 4
        self._paste_text(x, middle, face.label, size, True, ink, anchor="lm")
        self._recorded(face.label, face.label, size, True, x, middle, "lm")
        if times:
            x += length(face.label, size, True) + 5
            self._paste_text(x, middle, times, SMALL, True, ink, anchor="lm")
            self._recorded(times, times, SMALL, True, x, middle, "lm")

    def back(self, box: Box, tag: Any = None, *, emphasis: str = "", count: int = 0) -> None:
        """A face-down card: nothing of its face, only the pattern of every back (and how
        many cards lie there, for a pile)."""
        x0, y0, x1, y1 = box
        left, top = x0 - TILE_MARGIN, y0 - TILE_MARGIN
        if self.paletted:
            tile = _back_sprite(x1 - x0, y1 - y0, emphasis, count, self.theme)
            self._paste(tile.sprite, left, top)
        else:
            tile = _back_tile(x1 - x0, y1 - y0, emphasis, count, self.theme)
            self.image.paste(tile.image, (left, top), tile.image)
        self._wrote(tile.writings, left, top)
        self.marks.append(Mark("back", tag, box, emphasis))

    def _back_face(self, box: Box, emphasis: str, count: int) -> None:
        theme = self.theme
        x0, y0, x1, y1 = box
        if emphasis == "last":
            self.rounded((x0 - 4, y0 - 4, x1 + 4, y1 + 4), 9, outline=theme.accent, width=3)
        self.rounded(box, 6, fill=theme.back, outline=theme.back_mark, width=2)
        cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
        if count:
            label = str(count)
            half = (length(label, SMALL, True) + 10) // 2
            self.rounded((cx - half, cy - 13, cx + half, cy + 13), 5, fill=theme.back_mark)
            ink = readable_on(theme.back_mark)
            self.centred(cx, cy, label, SMALL, ink, bold=True)
            return
        r = max(4, min(x1 - x0, y1 - y0) // 4)
        self._paint(
            lambda draw, ink: draw.regular_polygon((cx, cy, r), 4, fill=ink), theme.back_mark
        )

    def slot(self, box: Box, label: str, tag: Any, *, emphasis: str = "") -> None:
        """An empty place for a card."""
        theme = self.theme
        outline = theme.accent if emphasis else theme.line
        self.rounded(box, 6, outline=outline, width=1)
        self.centred((box[0] + box[2]) // 2, (box[1] + box[3]) // 2, label, SMALL, theme.muted)
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
        self.centred(cx, cy + 1, label, SMALL, readable_on(colour), bold=True)
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
        size: int = SMALL,
        colour: RGB | None = None,
        bold: bool = False,
        max_width: int | None = None,
        role: str = "",
    ) -> int:
        """Left-aligned text at ``at`` (top left); returns its width. Clipped with "…" to
        ``max_width``."""
        shown = drawable(text)
        if max_width is not None:
            shown = clipped(shown, size, bold, max_width)
        self._paste_text(at[0], at[1], shown, size, bold, colour or self.theme.text)
        self._recorded(drawable(text), shown, size, bold, at[0], at[1], "la", role)
        return length(shown, size, bold)

    def centred(
        self, x: int, y: int, text: str, size: int, colour: RGB, *, bold: bool = False
    ) -> None:
        """Text centred on ``(x, y)``."""
        shown = drawable(text)
        self._paste_text(x, y, shown, size, bold, colour, anchor="mm")
        self._recorded(shown, shown, size, bold, x, y, "mm")

    def lines(
        self,
        at: tuple[int, int],
        text: str,
        width: int,
        *,
        size: int = SMALL,
        colour: RGB | None = None,
        bold: bool = False,
        most: int = 2,
    ) -> int:
        """``text`` wrapped at its spaces into at most ``most`` lines of ``width`` pixels (the
        last one clipped with "…" if it still does not fit); returns how many lines."""
        shown = wrapped(drawable(text), size, bold, width, most)
        x, y = at
        for number, line in enumerate(shown):
            self._paste_text(
                x, y + number * (size + 5), line, size, bold, colour or self.theme.text
            )
            self._recorded(line, line, size, bold, x, y + number * (size + 5), "la")
        if " ".join(shown) != drawable(text):
            self.writings[-1] = Written(
                drawable(text), " ".join(shown), size, bold, self.writings[-1].box
            )
        return len(shown)

    def _recorded(
        self,
        text: str,
        shown: str,
        size: int,
        bold: bool,
        x: int,
        y: int,
        anchor: str,
        role: str = "",
    ) -> None:
        if not shown:
            return
        width = length(shown, size, bold)
        if anchor[0] == "m":
            x -= width // 2
        if anchor[1] == "m":
            y -= size // 2
        self.writings.append(Written(text, shown, size, bold, (x, y, x + width, y + size), role))

    def _paste_text(
        self,
        x: int,
        y: int,
        text: str,
        size: int,
        bold: bool,
        colour: RGB,
        *,
        anchor: str = "la",
    ) -> None:
        """Text through a mask rendered once per (text, size, weight): the same names and
        labels come back in every picture, and rendering glyphs is most of a picture's time.
        ``anchor``: where ``(x, y)`` is, as Pillow names it: ``la`` the top left, ``mm`` the
        middle, ``lm`` the middle of the left edge. On a paletted canvas the text is a sprite
        per ink and ground."""
        if not text:
            return
        glyphs = glyphs_of(text, size, bold)
        if anchor[0] == "m":
            x -= glyphs.length // 2
        if anchor[1] == "m":
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
def clipped(text: str, size: int, bold: bool, width: int) -> str:
    """``clip_to`` once per text and width: names are clipped again in every picture."""
    return clip_to(text, font(size, bold), width)


@functools.lru_cache(maxsize=1024)
def chip_width(label: str, count: int = 0) -> int:
    """How wide a chip (a face without name or letter) must be for its value and "×n"."""
    size = VALUE
    width = length(label, size, True) + 16
    if count > 1:
        width += length(f"×{count}", SMALL, True) + 5
    return width


@functools.lru_cache(maxsize=4096)
def wrapped(text: str, size: int, bold: bool, width: int, most: int = 2) -> tuple[str, ...]:
    """``text`` broken at its spaces into lines of at most ``width`` pixels, at most ``most``
    of them (the last clipped with "…" if the text goes on). A word longer than ``width``
    stays whole on its line (the tests catch a card too narrow for its name)."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and length(f"{lines[-1]} {word}", size, bold) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    if len(lines) > most:
        lines = [*lines[: most - 1], clipped(" ".join(lines[most - 1 :]), size, bold, width)]
    return tuple(lines)


def name_lines(names: Sequence[str]) -> tuple[int, int]:
    """The width of a card that shows each of ``names`` whole, at the smallest legible size,
    broken only at spaces, and how many lines the longest takes."""
    widest = max(length(word, SMALL, False) for name in names for word in name.split(" "))
    width = widest + 2 * NAME_PADDING + 2
    return width, max(len(wrapped(name, SMALL, False, width - 2 * NAME_PADDING)) for name in names)


@dataclass(frozen=True)
class Tile:
    """A card's look drawn once: the sprite (paletted) or image (RGBA) and its texts."""

    sprite: Sprite | None
    image: Image.Image | None
    writings: tuple[Written, ...]


def _card_tile(
    face: Face, width: int, height: int, emphasis: str, count: int, theme: Theme
) -> Tile:
    tile = Canvas(width + 2 * TILE_MARGIN, height + 2 * TILE_MARGIN, theme, transparent=True)
    box = (TILE_MARGIN, TILE_MARGIN, TILE_MARGIN + width, TILE_MARGIN + height)
    tile._card_face(box, face, emphasis, count)
    return Tile(None, tile.image, tuple(tile.writings))


def _back_tile(width: int, height: int, emphasis: str, count: int, theme: Theme) -> Tile:
    tile = Canvas(width + 2 * TILE_MARGIN, height + 2 * TILE_MARGIN, theme, transparent=True)
    box = (TILE_MARGIN, TILE_MARGIN, TILE_MARGIN + width, TILE_MARGIN + height)
    tile._back_face(box, emphasis, count)
    return Tile(None, tile.image, tuple(tile.writings))


@functools.lru_cache(maxsize=2048)
def _card_sprite(
    face: Face, width: int, height: int, emphasis: str, count: int, theme: Theme
) -> Tile:
    return _tile_sprite(
        lambda tile, box: tile._card_face(box, face, emphasis, count), width, height, theme
    )


@functools.lru_cache(maxsize=256)
def _back_sprite(width: int, height: int, emphasis: str, count: int, theme: Theme) -> Tile:
    return _tile_sprite(
        lambda tile, box: tile._back_face(box, emphasis, count), width, height, theme
    )


def _tile_sprite(
    draw: Callable[[Canvas, Box], None], width: int, height: int, theme: Theme
) -> Tile:
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
        return Tile(rgba_sprite(rgba.image, theme), None, tuple(rgba.writings))
    assert tile._cover is not None
    return Tile(sprite_of(tile._core, tile._cover), None, tuple(tile.writings))
