"""PNG files written straight from a paletted picture.

Why not Pillow's PNG encoder: encoding was the largest single cost of a picture (about 1.7 ms
of a table's 6.7 ms at zlib level 3, ``benchmarks/pictures.py``). A picture only needs the four
chunks written here, and the scanlines of a paletted image need no filter, so the work left is
one copy and the deflate. Intel's ISA-L (``isal``) deflates those scanlines about six times
faster than zlib at the same size; without it the standard ``zlib`` does the same job slower.
"""

from __future__ import annotations

import struct
import zlib

from PIL import Image

try:
    from isal.isal_zlib import compressobj

    LEVEL = 1
    """ISA-L's levels 1 and 2 gave the same size and time on tables; 3 took four times as long
    for the same size."""
except ImportError:  # pragma: no cover - isal is a dependency; its wheels may be missing
    from zlib import compressobj

    LEVEL = 3
    """zlib's level 1 took 3 % less time for files 8 % larger."""

SIGNATURE = b"\x89PNG\r\n\x1a\n"
_IEND = b"\x00\x00\x00\x00IEND\xaeB`\x82"
STRIP = 128 * 1024
"""Bytes of scanlines deflated at a time."""


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(data, zlib.crc32(kind))
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def paletted_png(image: Image.Image, palette: bytes) -> bytes:
    """``image`` (mode ``P``) as a PNG whose palette is ``palette`` (RGB triples; every index
    the image uses must be in it).

    The scanlines of a strip of rows come from pasting the image one pixel to the right into
    an image one pixel wider whose first column is index 0: its bytes are then each row behind
    a filter-type byte 0, with no Python loop over rows. Strips, not the whole picture at
    once: a table's scanlines at once are three more blocks of over half a megabyte, freed
    together after each picture, and the C library gave that memory back to the system every
    time, so a table paid about 270 page faults to get it again (0.45 ms of its CPU)."""
    if image.mode != "P":
        raise ValueError(f"a paletted image is needed, not {image.mode}")
    image.load()
    width, height = image.size
    per_strip = max(1, STRIP // (width + 1))
    rows = Image.new("P", (width + 1, min(per_strip, height)), 0)
    deflate = compressobj(LEVEL)
    data = []
    for top in range(0, height, per_strip):
        if top + per_strip > height:
            rows = Image.new("P", (width + 1, height - top), 0)
        # The whole image, pasted from above: Pillow clips it to the strip's rows.
        rows.im.paste(image.im, (1, -top, width + 1, height - top))
        data.append(deflate.compress(rows.tobytes()))
    data.append(deflate.flush())
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join(
        (
            SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", palette),
            _chunk(b"IDAT", b"".join(data)),
            _IEND,
        )
    )
