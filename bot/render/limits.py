"""Discord's message limits, and fitting text into them without losing what players need.

Why here: Discord refuses a message that breaks one of its limits with 400 / 50035, and the
player sees nothing at all. Every builder in ``bot/render`` sizes its text with these helpers:
lines are kept whole (a cut never lands inside a word of the last line shown), a log keeps its
newest lines, and what is cut is marked with an ellipsis. The test harness checks every payload
against the same limits (``bot/loopback/discord_limits.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

CONTENT = 2000
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
EMBED_TOTAL = 6000
ELLIPSIS = "…"


def clip(text: str, limit: int) -> str:
    """``text`` if it fits in ``limit`` characters, else its start and an ellipsis."""
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + ELLIPSIS


def first_lines(lines: Sequence[str], limit: int) -> str:
    """As many whole lines from the top as fit in ``limit``; an ellipsis line marks a cut.

    For text read from the top (a table, a hand): what comes first matters most.
    """
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    kept: list[str] = []
    used = len(ELLIPSIS)
    for line in lines:
        if used + len(line) + 1 > limit:
            break
        kept.append(line)
        used += len(line) + 1
    if not kept:  # a single line longer than the limit
        return clip(lines[0], limit) if lines else ""
    return "\n".join([*kept, ELLIPSIS])


def last_lines(lines: Sequence[str], limit: int) -> str:
    """The newest (last) lines that fit in ``limit``, whole; older lines go first.

    For a log: players need what just happened. When not even the newest line fits, it is
    shown clipped rather than left out.
    """
    kept: list[str] = []
    used = 0
    for line in reversed(lines):
        extra = len(line) + (1 if kept else 0)
        if used + extra > limit:
            break
        kept.append(line)
        used += extra
    if not kept and lines and limit > 0:
        return clip(lines[-1], limit)
    return "\n".join(reversed(kept))


def room_left(embed: discord.Embed) -> int:
    """How many more characters ``embed`` may hold before Discord's 6,000 in all."""
    return max(EMBED_TOTAL - len(embed), 0)
