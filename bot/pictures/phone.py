"""How large the pictures are drawn, and the smallest text they may hold: sized for a phone.

Why: most players read the table on a phone, where Discord shows a message's picture about
400 px wide (CSS pixels). A picture drawn 960 px wide with 7–9 px labels was shrunk there to
labels of 3–4 px. So every picture is laid out for that width: drawn ``WIDTH`` (600) pixels
wide, one and a half times the phone's 400, which keeps the text sharp on the phones' dense
screens, and no text may come out smaller than ``MIN_PHONE_TEXT`` (12 px) once Discord has
scaled it to the phone's width.

Why 12 px: it is the smallest text Discord's own apps show (timestamps and captions), and
the size of the captions that phone platforms give as their smallest legible text (11–12 pt
on iOS, 12 sp on Android). At 600 px drawn that is 18 px (``SMALL``), the size of every label,
every card name and the counts on cards. ``tests/pictures/test_phone.py`` checks every text
the canvas records (``Canvas.writings``) against it.
"""

from __future__ import annotations

import math

PHONE_WIDTH = 400
"""How wide Discord shows a picture on a phone, in CSS pixels (about)."""
MIN_PHONE_TEXT = 12
"""The smallest legible text on the phone, in CSS pixels (a font's size: its em)."""
WIDTH = 600
"""How wide tables and charts are drawn (hands are as wide as their cards need, at most this)."""


def phone_scale(width: int) -> float:
    """How much a picture ``width`` pixels wide is shrunk on a phone (never enlarged: a
    narrower picture is shown at its own size)."""
    return min(1.0, PHONE_WIDTH / width)


def smallest_text(width: int) -> int:
    """The smallest font size (pixels) that stays legible on a phone in a picture ``width``
    pixels wide."""
    return math.ceil(MIN_PHONE_TEXT / phone_scale(width))


SMALL = smallest_text(WIDTH)
"""Labels, facts, card names, counts: the smallest text, 18 px."""
BODY = 20
"""Player names and the status line."""
VALUE = 26
"""A card's value (bold)."""
TITLE = 26
"""The game's name (bold)."""
LINE = SMALL + 4
"""The height of a line of ``SMALL`` text."""
