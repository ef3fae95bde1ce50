"""What a paletted canvas draws again and again, drawn once in palette indices: sprites.

Texts, card tiles and rounded rectangles come back in every picture and cost far more to draw
than to paste (rendering glyphs was most of a picture's time). Each is drawn once, cached as a
``Sprite`` and pasted. A text is rendered once (``Glyphs``) and made a sprite per ink and
ground, each pixel the index of Pillow's own blend at its coverage: what mapping the RGB
picture made of it.
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from bot.pictures.fonts import font, length
from bot.pictures.palette import RGB, Theme, palette_of

COVERED = [0] + [255] * 255
"""A mask's table: every pixel it covers at all, fully."""
_RUN = re.compile(rb"[^\x00]+")

Piece = tuple[int, int, int, int, Any, Any]


@dataclass(frozen=True, eq=False)
class Sprite:
    """Something drawn once in the palette, to be pasted where it is drawn again.

    Kept as rectangles (``left, top, right, bottom, source, mask``, Pillow's core objects):
    the rows it covers wholly are copied (or filled, when of one index) without a mask, the
    others go through their mask of 0 and 255. A masked paste looks at every pixel; a seat's
    panel pasted through one mask took as long as drawing it."""

    pieces: tuple[Piece, ...]
    blend: Image.Image | None = None
    """A tile with half-transparent pixels: blended over the picture instead (none so far)."""


BAND = 4
"""Rows alike in what they cover, at least this many, are pasted without a mask."""


def mapped(rgb: Image.Image, theme: Theme) -> Any:
    """``rgb`` mapped to the palette (``Image.quantize`` without its copies of the palette)."""
    return rgb.im.convert("P", 0, palette_of(theme).image.im)


def sprite_of(image: Any, mask: Image.Image) -> Sprite:
    """``image`` (a paletted core image) where ``mask`` (0 or 255) covers it, in pieces."""
    width = mask.width
    cover = mask.im
    data = mask.tobytes()
    pieces: list[Piece] = []

    def masked(top: int, bottom: int) -> None:
        box = cover.crop((0, top, width, bottom)).getbbox()
        if box:
            area = (box[0], top, box[2], bottom)
            pieces.append((*area, image.crop(area), cover.crop(area)))

    y = 0
    masked_from = None
    rows = (data[start : start + width] for start in range(0, len(data), width))
    for row, alike in itertools.groupby(rows):
        end = y + sum(1 for _ in alike)
        if end - y >= BAND or not row.strip(b"\x00"):
            if masked_from is not None:
                masked(masked_from, y)
                masked_from = None
            for run in _RUN.finditer(row):
                area = (run.start(), y, run.end(), end)
                part = image.crop(area)
                low, high = part.getextrema()
                pieces.append((*area, low if low == high else part, None))
        elif masked_from is None:
            masked_from = y
        y = end
    if masked_from is not None:
        masked(masked_from, y)
    return Sprite(tuple(pieces))


def rgba_sprite(tile: Image.Image, theme: Theme) -> Sprite:
    """An RGBA tile; pasted through its alpha when that is 0 or 255 (no antialiased primitive
    in a tile, and its texts lie on its opaque parts), else blended over the picture."""
    alpha = tile.getchannel("A")
    if alpha.tobytes().translate(None, b"\x00\xff"):
        return Sprite((), blend=tile)
    return sprite_of(mapped(tile.convert("RGB"), theme), alpha)


@functools.lru_cache(maxsize=256)
def rounded_sprite(
    width: int, height: int, radius: int, fill: int | None, outline: int | None, line: int
) -> Sprite:
    """Pillow's rounded rectangle (palette indices), and a mask drawn the same way."""
    size = (width + 1, height + 1)
    image = Image.new("P", size, 0)
    ImageDraw.Draw(image).rounded_rectangle(
        (0, 0, width, height), radius=radius, fill=fill, outline=outline, width=line
    )
    mask = Image.new("L", size, 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (0, 0, width, height),
        radius=radius,
        fill=None if fill is None else 255,
        outline=None if outline is None else 255,
        width=line,
    )
    return sprite_of(image.im, mask)


class Glyphs:
    """A text rendered once: its antialiased ``mask``, where it sits, and what the paletted
    canvas needs to find the ground under it."""

    def __init__(self, text: str, size: int, bold: bool) -> None:
        face = font(size, bold)
        # What ImageDraw.text renders, without its measuring the text first (a quarter of it).
        rendered, (left, top) = face.getmask2(text, "L")
        width, height = rendered.size
        self.mask = Image.new("L", (max(1, width), max(1, height)), 0)
        if width and height:
            self.mask.im.paste(rendered, (0, 0, width, height))
        self.left, self.top = left, top
        """Offset of the mask from the top left of the line."""
        self.length = length(text, size, bold)
        ascent, descent = face.getmetrics()
        self.middle = (ascent + descent) // 2
        """Half the line's height (the centred texts' vertical anchor)."""
        self.cover = self.mask.im.point(COVERED, "L")
        """Where the mask covers at all: 255 there, else 0 (a core image)."""

    @functools.cached_property
    def covered(self) -> int:
        """How many pixels the mask covers at all."""
        return self.mask.width * self.mask.height - self.mask.histogram()[0]

    @functools.cached_property
    def anchor(self) -> tuple[int, int]:
        """One covered pixel (the first of the top row the mask covers)."""
        box = self.mask.getbbox()
        if not box:
            return (0, 0)
        row = self.mask.crop((0, box[1], self.mask.width, box[1] + 1)).tobytes()
        return next(x for x, value in enumerate(row) if value), box[1]


@functools.lru_cache(maxsize=8192)
def glyphs_of(text: str, size: int, bold: bool) -> Glyphs:
    return Glyphs(text, size, bold)


@functools.lru_cache(maxsize=8192)
def text_sprite(text: str, size: int, bold: bool, ink: RGB, ground: RGB, theme: Theme) -> Sprite:
    """``text`` in ``ink`` antialiased on ``ground``, as the RGB canvas would blend it: each
    pixel's index is that of the blend at its coverage."""
    glyphs = glyphs_of(text, size, bold)
    width, height = glyphs.mask.size
    indices = glyphs.mask.im.point(_blends(ink, ground, theme), "L").convert("P", 0)
    return Sprite(((0, 0, width, height, indices, glyphs.cover),))


@functools.lru_cache(maxsize=256)
def _blends(ink: RGB, ground: RGB, theme: Theme) -> list[int]:
    """The palette index of ``ink`` on ``ground`` at each coverage from 0 to 255, blended by
    Pillow itself (a text is pasted through its mask just so). A table instead of mapping
    each text to the palette: that mapping prepares a lookup of half a megabyte every time,
    which made it cost more for a short text than for a whole picture."""
    ramp = Image.new("L", (256, 1))
    ramp.putdata(range(256))
    blended = Image.new("RGB", (256, 1), ground)
    blended.paste(ink, (0, 0), ramp)
    data = blended.tobytes()
    return palette_of(theme).indices(zip(data[0::3], data[1::3], data[2::3], strict=True))
