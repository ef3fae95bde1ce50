"""Pictures as Discord attachments of the bot's messages.

Kept apart from the drawing (and light to import): ``bot.interactions.answers`` and the outbox use
these to send a message with its picture, and they are imported early.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

import discord

TABLE_FILE, HAND_FILE, CHART_FILE = "table.png", "hand.png", "scores.png"
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


def picture_files(
    pictures: Sequence[tuple[str, str]], pngs: Mapping[str, bytes]
) -> list[PictureFile]:
    """The attachments of a V2 message's pictures: each ``(filename, description)`` of
    ``pictures`` (``render.layout.Picture``) whose PNG is in ``pngs``, alt text included."""
    files = []
    for picture in pictures:
        filename, description = picture
        png = pngs.get(filename)
        if png is not None:
            files.append(PictureFile(io.BytesIO(png), filename, description=description[:1024]))
    return files


SHOWN = "glory.shown"
"""``Interaction.extras`` key under which ``bot.interactions.click_router`` keeps the clicked
message's raw components and embeds (the interaction's own message is built without them)."""


def shown_pictures(interaction: discord.Interaction) -> set[str]:
    """The file names of the pictures the clicked message shows (an edit that uploads nothing
    keeps them, and the new layout shows them again by ``attachment://`` name).

    Read from the references in its galleries and embed images: Discord's message lists no
    attachment that an embed or a component shows."""
    raw = interaction.extras.get(SHOWN)
    if raw is None:  # discord.py's own route: the message is whole
        message = interaction.message
        if message is None:
            return set()
        components = [component.to_dict() for component in message.components]
        embeds = [embed.to_dict() for embed in message.embeds]
    else:
        components, embeds = raw
    urls = [str(((embed or {}).get("image") or {}).get("url") or "") for embed in embeds or ()]
    stack = list(components or ())
    while stack:
        component = stack.pop()
        stack.extend(component.get("components") or ())
        urls += [
            str((item.get("media") or {}).get("url") or "") for item in component.get("items") or ()
        ]
    return {url.split("?", 1)[0].rsplit("/", 1)[-1] for url in urls if url}


def for_new_message(content: dict[str, Any]) -> dict[str, Any]:
    """``content`` (written for an edit) as a new message takes it: ``files``, not
    ``attachments``, and no cleared content or embed (a V2 message has neither)."""
    if "attachments" not in content and "content" not in content:
        return content
    shown = dict(content)
    files = shown.pop("attachments", None)
    if files:
        shown["files"] = files
    if shown.get("content", "") is None:
        del shown["content"]
    if "embed" in shown and shown["embed"] is None:
        del shown["embed"]
    return shown
