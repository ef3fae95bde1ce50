"""The typeface every picture uses, shipped inside the package.

Why shipped: German and Russian card and player names must render on any host, and a host's
fonts are unknown (a slim container has none). DejaVu Sans Condensed covers Latin and Cyrillic,
is freely licensed (Bitstream Vera licence with public-domain DejaVu changes, ``fonts/LICENSE``)
and is narrow enough for names on small cards.
"""

from __future__ import annotations

import functools
import math
from pathlib import Path

from PIL import ImageFont

FONT_DIR = Path(__file__).parent / "fonts"
REGULAR = FONT_DIR / "DejaVuSansCondensed.ttf"
BOLD = FONT_DIR / "DejaVuSansCondensed-Bold.ttf"
LICENCE = FONT_DIR / "LICENSE"


@functools.cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The font at ``size`` pixels (loaded once per size and weight: FreeType faces are
    reusable from any thread for measuring and drawing)."""
    return ImageFont.truetype(str(BOLD if bold else REGULAR), size)


@functools.lru_cache(maxsize=4096)
def drawable(text: str) -> str:
    """``text`` without characters beyond the Basic Multilingual Plane (emoji in display
    names), which the font has no glyphs for and would draw as empty boxes. Cached: the same
    names and labels are drawn in every picture."""
    return "".join(char for char in text if ord(char) <= 0xFFFF and char not in "\u200d\ufe0f")


@functools.lru_cache(maxsize=8192)
def length(text: str, size: int, bold: bool) -> int:
    """How many pixels wide ``text`` is at ``size``, rounded up (so that a text measured to
    fit is never clipped); cached: the same texts are measured in every picture."""
    return math.ceil(font(size, bold).getlength(text))
