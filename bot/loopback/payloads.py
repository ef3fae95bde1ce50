"""Wire payloads built from the model, complete enough for discord.py 2.7.1's parsers.

A DISPATCH that lacks a key discord.py reads unconditionally kills ``Client.start()``
without a reconnect, so every builder here emits all the keys the parsers index directly.
"""

from __future__ import annotations

import datetime
from typing import Any

from .model import Channel, Guild, Message, User, World

ALL_PERMISSIONS = str((1 << 53) - 1)
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
THREAD_AUTO_ARCHIVE_MINUTES = 1440
THREAD_MEMBER_COUNT_CAP = 50  # Discord stops counting a thread's members at 50


def iso_time(epoch_seconds: float) -> str:
    return datetime.datetime.fromtimestamp(epoch_seconds, datetime.UTC).isoformat()


def user_payload(user: User) -> dict[str, Any]:
    return {
        "id": str(user.id),
        "username": user.name,
        "global_name": user.name,
        "discriminator": "0",
        "avatar": None,
        "bot": user.bot,
        "public_flags": 0,
    }


def member_payload(user: User, *, joined_at: float = 0.0) -> dict[str, Any]:
    return {
        "user": user_payload(user),
        "roles": [],
        "flags": 0,
        "joined_at": iso_time(joined_at or 1_700_000_000.0),
        "nick": None,
        "deaf": False,
        "mute": False,
        "permissions": ALL_PERMISSIONS,
    }


def channel_payload(channel: Channel, world: World) -> dict[str, Any]:
    if channel.is_dm:
        recipient = world.users[channel.recipient_id] if channel.recipient_id else None
        return {
            "id": str(channel.id),
            "type": channel.type,
            "last_message_id": None,
            "recipients": [user_payload(recipient)] if recipient else [],
        }
    if channel.is_thread:
        return thread_payload(channel, world)
    return {
        "id": str(channel.id),
        "type": channel.type,
        "name": channel.name,
        "position": channel.position,
        "guild_id": str(channel.guild_id),
        "permission_overwrites": [],
        "nsfw": False,
        "parent_id": None,
        "topic": None,
        "last_message_id": None,
        "rate_limit_per_user": 0,
    }


def thread_payload(thread: Channel, world: World) -> dict[str, Any]:
    """A public thread as Discord sends it in GUILD_CREATE ``threads``, THREAD_CREATE,
    ``GET /channels/{id}`` and an interaction's ``channel``.

    discord.py's ``Thread._from_data`` indexes ``parent_id``, ``owner_id``, ``name``,
    ``message_count``, ``member_count`` and ``thread_metadata`` (with ``archived``,
    ``auto_archive_duration``, ``archive_timestamp``) directly, so all of them are sent.
    Counts follow Discord: ephemeral answers are not channel messages, ``message_count``
    leaves out deleted ones, ``total_message_sent`` does not. ``archive_timestamp`` is when
    the archived state last changed (the creation time until then).
    """
    sent = [m for m in world.messages_in(thread, include_deleted=True) if not m.ephemeral]
    created = iso_time(thread.created_at)
    archive_changed = iso_time(thread.archive_changed_at or thread.created_at)
    return {
        "id": str(thread.id),
        "type": thread.type,
        "guild_id": str(thread.guild_id),
        "parent_id": str(thread.parent_id),
        "owner_id": str(thread.owner_id),
        "name": thread.name,
        "last_message_id": str(sent[-1].id) if sent else None,
        "message_count": sum(1 for m in sent if not m.deleted),
        "total_message_sent": len(sent),
        "member_count": min(len(thread.member_ids), THREAD_MEMBER_COUNT_CAP),
        "rate_limit_per_user": 0,
        "flags": 0,
        "thread_metadata": {
            "archived": thread.archived,
            "auto_archive_duration": THREAD_AUTO_ARCHIVE_MINUTES,
            "archive_timestamp": archive_changed,
            "locked": thread.locked,
            "create_timestamp": created,
        },
    }


def message_payload(message: Message, world: World, *, with_nonce: bool = False) -> dict[str, Any]:
    """A Message object; ``with_nonce`` for the create answer and MESSAGE_CREATE, the only
    places Discord echoes the nonce."""
    author = world.users[message.author_id]
    channel = world.channels[message.channel_id]
    payload: dict[str, Any] = {
        "id": str(message.id),
        "type": 0 if message.interaction_id is None else 20,
        "channel_id": str(message.channel_id),
        "author": user_payload(author),
        "content": message.content,
        "timestamp": iso_time(message.created_at),
        "edited_timestamp": iso_time(message.edited_at) if message.edited_at else None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": message.attachments,
        "embeds": message.embeds,
        "components": message.components,
        "pinned": False,
        "flags": message.flags,
    }
    if channel.guild_id is not None:
        payload["guild_id"] = str(channel.guild_id)
    if message.webhook_id is not None:
        payload["webhook_id"] = str(message.webhook_id)
    if with_nonce and message.nonce is not None:
        payload["nonce"] = message.nonce
    return payload


def role_everyone(guild: Guild) -> dict[str, Any]:
    return {
        "id": str(guild.id),
        "name": "@everyone",
        "permissions": ALL_PERMISSIONS,
        "position": 0,
        "color": 0,
        "hoist": False,
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }


def guild_payload(guild: Guild, world: World, *, bot: User) -> dict[str, Any]:
    """GUILD_CREATE: like real Discord without presences, only the bot's own member is sent;
    ``threads`` lists the active (not archived) threads only."""
    return {
        "id": str(guild.id),
        "name": guild.name,
        "unavailable": False,
        "owner_id": str(bot.id),
        "member_count": len(guild.member_ids),
        "large": False,
        "features": [],
        "roles": [role_everyone(guild)],
        "emojis": [],
        "stickers": [],
        "channels": [channel_payload(world.channels[cid], world) for cid in guild.channel_ids],
        "threads": [
            thread_payload(world.channels[tid], world)
            for tid in guild.thread_ids
            if not world.channels[tid].archived
        ],
        "members": [member_payload(bot)],
        "voice_states": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "preferred_locale": "en-US",
        "premium_tier": 0,
        "system_channel_flags": 0,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "afk_timeout": 300,
        "icon": None,
        "banner": None,
        "splash": None,
        "discovery_splash": None,
        "description": None,
        "joined_at": iso_time(1_700_000_000.0),
    }


def application_payload(bot: User) -> dict[str, Any]:
    return {
        "id": str(bot.id),
        "name": bot.name,
        "description": "",
        "icon": None,
        "bot_public": True,
        "bot_require_code_grant": False,
        "owner": user_payload(bot),
        "verify_key": "0" * 64,
        "flags": 0,
        "interactions_endpoint_url": None,
        "team": None,
    }


def interaction_payload(
    *,
    interaction_id: int,
    token: str,
    interaction_type: int,
    data: dict[str, Any],
    user: User,
    channel: Channel,
    world: World,
    application: User,
    locale: str = "en-US",
    message: Message | None = None,
) -> dict[str, Any]:
    """INTERACTION_CREATE as Discord sends it; ``attachment_size_limit`` is mandatory."""
    payload: dict[str, Any] = {
        "id": str(interaction_id),
        "application_id": str(application.id),
        "type": interaction_type,
        "token": token,
        "version": 1,
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        "data": data,
        "channel": channel_payload(channel, world),
        "channel_id": str(channel.id),
        "locale": locale,
        "app_permissions": ALL_PERMISSIONS,
        "entitlements": [],
    }
    if channel.guild_id is not None:
        payload.update(
            {
                "guild_id": str(channel.guild_id),
                "guild": {"id": str(channel.guild_id), "locale": "en-US", "features": []},
                "guild_locale": "en-US",
                "member": member_payload(user),
                "context": 0,
                "authorizing_integration_owners": {"0": str(channel.guild_id)},
            }
        )
    else:
        payload.update(
            {
                "user": user_payload(user),
                "context": 1,
                "authorizing_integration_owners": {"0": str(application.id)},
            }
        )
    if message is not None:
        payload["message"] = message_payload(message, world)
    return payload
