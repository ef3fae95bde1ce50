"""CLDR plural categories for the locales we ship or plan to ship.

Russian needs ``one``/``few``/``many``; English and German only ``one``/``other``. The rules are
the integer cases of CLDR's ``plurals.xml``; counts in this bot are always integers.
"""

from __future__ import annotations


def plural_category(locale: str, count: object) -> str:
    """The CLDR category of ``count`` in ``locale`` (``other`` for non-integers)."""
    if not isinstance(count, int) or isinstance(count, bool):
        return "other"
    n = abs(count)
    if locale == "ru":
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "many"
    return "one" if n == 1 else "other"
