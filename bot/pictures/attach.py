"""Pictures as Discord attachments of the bot's messages.

Kept apart from the drawing (and light to import): ``bot.answers`` and the outbox use these
to send a message with its picture, and they are imported early.
"""

from __future__ import annotations

import io
from typing import Any

import discord

CHART_FILE = "scores.png"
TREND_FILE = "trend.png"


class PictureFile(discord.File):
    """A PNG attachment that can be sent more than once (a retry, a send and then an edit of
    the same content): every upload starts from the first byte."""

    def reset(self, *, seek: int | bool = True) -> None:
        self.fp.seek(0)

    def close(self) -> None:
        """Nothing to close in memory. ``discord.File.close`` would put the buffer's own
        ``close`` back on it as an attribute: a reference cycle (the buffer, its ``__dict__``,
        the bound method) left for the cycle collector with every picture sent."""


def attach(
    content: dict[str, Any], png: bytes | None, filename: str, description: str
) -> dict[str, Any]:
    """``content`` with ``png`` as the embed's image (``attachments``: an edit replaces the
    old picture; ``None``: no picture, and an edit removes the old one)."""
    embed = content.get("embed")
    if png is None:
        content["attachments"] = []
        return content
    if embed is not None:
        embed.set_image(url=f"attachment://{filename}")
    content["attachments"] = [
        PictureFile(io.BytesIO(png), filename, description=description[:1024])
    ]
    return content


def keep_shown(embed: discord.Embed, message: discord.Message | None, filename: str) -> None:
    """An edit that uploads nothing keeps the message's files (Discord keeps what an edit does
    not name), so a sub-menu click need not send the hand's picture again; its new embed must
    still show the picture, or Discord would show the file below it as a loose attachment."""
    if message is not None and any(file.filename == filename for file in message.attachments):
        embed.set_image(url=f"attachment://{filename}")


def for_new_message(content: dict[str, Any]) -> dict[str, Any]:
    """``content`` (written for an edit) as a new message takes it: ``files``, not
    ``attachments``."""
    if "attachments" not in content:
        return content
    shown = dict(content)
    files = shown.pop("attachments")
    if files:
        shown["files"] = files
    return shown


def add_chart(content: dict[str, Any], png: bytes, description: str) -> dict[str, Any]:
    """``content`` (a table with its picture) with the score chart in a second embed."""
    table = content.pop("embed")
    chart = discord.Embed(colour=table.colour)
    chart.set_image(url=f"attachment://{CHART_FILE}")
    content["embeds"] = [table, chart]
    content["attachments"].append(
        PictureFile(io.BytesIO(png), CHART_FILE, description=description[:1024])
    )
    return content
