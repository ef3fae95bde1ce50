"""The layout of the game-over message: a Components V2 message, one container.

Kept apart from its content (``bot/game_over.py``): the house style of V2 messages (the
container's colour, pictures, the order of the parts) belongs to the messages' layout and may
change alone. The message pings exactly the users the content names (``allowed_mentions``
limited to them: a display name such as "@everyone" or "<@123>" pings nobody).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.controls import PrebuiltControls
from bot.game_over import GameOver

TEXT_DISPLAY = 10
SEPARATOR = 14
CONTAINER = 17
ACTION_ROW = 1
ACCENT = 0xC2A83E
"""The container's colour (a gold for an ending; the look of V2 messages may change it)."""


class LayoutControls(PrebuiltControls):
    """A Components V2 layout already in Discord's JSON (discord.py flags the message V2)."""

    def has_components_v2(self) -> bool:
        return True


def _text(content: str) -> dict[str, Any]:
    return {"type": TEXT_DISPLAY, "content": content}


def game_over_layout(over: GameOver) -> list[dict[str, Any]]:
    """The message's one container: title and greeting, why it ended, the places, the rounds,
    and the buttons."""
    parts = [_text(f"## {over.title}\n{over.greeting}")]
    if over.reason:
        parts.append(_text(over.reason))
    parts.append({"type": SEPARATOR})
    parts.append(_text("\n".join(over.places)))
    if over.rounds:
        parts.append(_text(f"**{over.rounds_title}**\n" + "\n".join(over.rounds)))
    parts.append({"type": ACTION_ROW, "components": list(over.buttons)})
    return [{"type": CONTAINER, "accent_color": ACCENT, "components": parts}]


def game_over_message(over: GameOver) -> dict[str, Any]:
    """What ``channel.send`` takes: the layout, and pings for the human players alone."""
    return {
        "view": LayoutControls(game_over_layout(over)),
        "allowed_mentions": discord.AllowedMentions(
            everyone=False,
            roles=False,
            replied_user=False,
            users=[discord.Object(user) for user in over.mentions],
        ),
    }
