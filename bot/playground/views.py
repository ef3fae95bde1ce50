"""What the page is sent: the emulator's world as Discord's own JSON, plus what a client knows.

A message goes to the page exactly as Discord's API returns it (``message_payload``), so the
page renders whatever the bot sends, not today's layouts. Beside it, under ``"page"``, the few
things a Discord client shows that the message object alone does not: who may see an ephemeral
message, which command a reply answers ("alice used /play"), and how often it was edited.
Attachment URLs point at the page's own server (``/attachments/...``), which serves the bytes
the emulator kept.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from bot.loopback.interactions import APPLICATION_COMMAND
from bot.loopback.model import Channel, Message, User, World
from bot.loopback.payloads import message_payload
from bot.loopback.server import Emulator
from bot.loopback.uploads import UploadStore

ATTACHMENTS_PATH = "/attachments"


def attachment_url(url: str, filename: str) -> str:
    """The page's address for an attachment the emulator kept ("" when it kept none)."""
    key = UploadStore.key_of(url)
    return "" if key is None else f"{ATTACHMENTS_PATH}/{key}/{quote(filename)}"


def message_view(message: Message, emulator: Emulator) -> dict[str, Any]:
    """The message as the API shows it, with page-side attachment URLs and client facts."""
    payload = message_payload(message, emulator.world)
    payload["attachments"] = [
        {**file, "url": attachment_url(str(file.get("url") or ""), str(file.get("filename")))}
        for file in message.attachments
    ]
    page: dict[str, Any] = {
        "revision": len(message.history),
        "viewer_id": None if message.viewer_id is None else str(message.viewer_id),
    }
    record = emulator.interactions.get(message.interaction_id or 0)
    if record is not None and record.type == APPLICATION_COMMAND:
        page["command"] = {"user_id": str(record.user_id), "name": command_line(record.data)}
    payload["page"] = page
    return payload


def command_line(data: dict[str, Any]) -> str:
    """``play`` or ``settings language``: the command and its subcommands, as Discord shows
    them above the answer."""
    names = [str(data.get("name", ""))]
    options = data.get("options") or []
    while options and options[0].get("type") in (1, 2):
        names.append(str(options[0]["name"]))
        options = options[0].get("options") or []
    return " ".join(names)


def user_view(user: User, locale: str | None = None) -> dict[str, Any]:
    view: dict[str, Any] = {"id": str(user.id), "name": user.name, "bot": user.bot}
    if locale is not None:
        view["locale"] = locale
    return view


def channel_view(channel: Channel, world: World) -> dict[str, Any]:
    """A text channel or thread of the guild, or a player's DM (with its ``recipient_id``)."""
    view: dict[str, Any] = {"id": str(channel.id), "type": channel.type, "name": channel.name}
    if channel.recipient_id is not None:
        view["recipient_id"] = str(channel.recipient_id)
    if channel.parent_id is not None:
        view["parent_id"] = str(channel.parent_id)
    return view


def visible_messages(world: World) -> list[Message]:
    """Every message not deleted, oldest first (the page filters by channel and viewer)."""
    return [message for message in world.messages.values() if not message.deleted]
