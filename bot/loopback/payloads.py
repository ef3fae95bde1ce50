"""Wire payloads built from the model, complete enough for discord.py 2.7.1's parsers.

A DISPATCH that lacks a key discord.py reads unconditionally kills ``Client.start()``
without a reconnect, so every builder here emits all the keys the parsers index directly.
"""

from __future__ import annotations

import datetime
from typing import Any

from .model import Channel, Guild, Message, User, World, without_nulls

ALL_PERMISSIONS = str((1 << 53) - 1)
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
THREAD_AUTO_ARCHIVE_MINUTES = 1440
THREAD_MEMBER_COUNT_CAP = 50  # Discord stops counting a thread's members at 50


def iso_time(epoch_seconds: float) -> str:
    return datetime.datetime.fromtimestamp(epoch_seconds, datetime.UTC).isoformat()


def user_payload(user: User) -> dict[str, Any]:
    """A user as Discord's ``UserResponse`` has it (every required field)."""
    return {
        "id": str(user.id),
        "username": user.name,
        "global_name": user.name,
        "discriminator": "0",
        "avatar": None,
        "bot": user.bot,
        "public_flags": 0,
        "flags": 0,
        "primary_guild": None,
    }


def own_user_payload(user: User) -> dict[str, Any]:
    """``GET /users/@me``: the bot itself, with the fields only its owner sees."""
    return {**user_payload(user), "mfa_enabled": False, "locale": "en-US", "verified": True}


def member_payload(
    user: User, *, joined_at: float = 0.0, with_permissions: bool = True
) -> dict[str, Any]:
    """A guild member; ``with_permissions``: as in an interaction (the REST route's
    ``GuildMemberResponse`` has no ``permissions``)."""
    payload: dict[str, Any] = {
        "user": user_payload(user),
        "roles": [],
        "flags": 0,
        "joined_at": iso_time(joined_at or 1_700_000_000.0),
        "nick": None,
        "avatar": None,
        "banner": None,
        "communication_disabled_until": None,
        "pending": False,
        "premium_since": None,
        "deaf": False,
        "mute": False,
    }
    if with_permissions:
        payload["permissions"] = ALL_PERMISSIONS
    return payload


def channel_payload(channel: Channel, world: World) -> dict[str, Any]:
    if channel.is_dm:
        recipient = world.users[channel.recipient_id] if channel.recipient_id else None
        return {
            "id": str(channel.id),
            "type": channel.type,
            "flags": 0,
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
        "flags": 0,
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


def message_payload(
    message: Message, world: World, *, with_nonce: bool = False, gateway: bool = False
) -> dict[str, Any]:
    """A Message object; ``with_nonce`` for the create answer and MESSAGE_CREATE, the only
    places Discord echoes the nonce; ``gateway``: as a MESSAGE_CREATE or MESSAGE_UPDATE
    event, which also names the guild (the REST answer's ``MessageResponse`` does not)."""
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
    if gateway and channel.guild_id is not None:
        payload["guild_id"] = str(channel.guild_id)
    if message.webhook_id is not None:
        payload["webhook_id"] = str(message.webhook_id)
    if with_nonce and message.nonce is not None:
        payload["nonce"] = message.nonce
    return payload


def command_payload(
    command: dict[str, Any], *, command_id: int, application: User, guild_id: int | None
) -> dict[str, Any]:
    """A command as Discord answers a sync (``ApplicationCommandResponse``): what was sent,
    without the keys sent as null (Discord leaves them out), plus Discord's own fields."""
    entry = without_nulls(command)
    entry.update(
        {
            "id": str(command_id),
            "application_id": str(application.id),
            "version": str(command_id),
            "type": command.get("type") or 1,
            "description": command.get("description") or "",
            "default_member_permissions": command.get("default_member_permissions"),
            "integration_types": command.get("integration_types") or [0],
        }
    )
    if entry["default_member_permissions"] is not None:
        entry["default_member_permissions"] = str(entry["default_member_permissions"])
    if guild_id is not None:
        entry["guild_id"] = str(guild_id)
    return entry


def role_everyone(guild: Guild) -> dict[str, Any]:
    return {
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "icon": None,
        "unicode_emoji": None,
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


def rest_guild_payload(guild: Guild, bot: User) -> dict[str, Any]:
    """``GET /guilds/{id}`` (``GuildWithCountsResponse``): the guild's settings, without the
    members, channels and threads that only GUILD_CREATE carries."""
    return {
        "id": str(guild.id),
        "name": guild.name,
        "icon": None,
        "description": None,
        "home_header": None,
        "splash": None,
        "discovery_splash": None,
        "features": [],
        "banner": None,
        "owner_id": str(bot.id),
        "application_id": None,
        "region": "deprecated",
        "afk_channel_id": None,
        "afk_timeout": 300,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "widget_enabled": False,
        "widget_channel_id": None,
        "verification_level": 0,
        "roles": [role_everyone(guild)],
        "default_message_notifications": 0,
        "mfa_level": 0,
        "explicit_content_filter": 0,
        "max_presences": None,
        "max_members": 500_000,
        "max_stage_video_channel_users": 50,
        "max_video_channel_users": 25,
        "vanity_url_code": None,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": "en-US",
        "rules_channel_id": None,
        "safety_alerts_channel_id": None,
        "public_updates_channel_id": None,
        "premium_progress_bar_enabled": False,
        "nsfw": False,
        "nsfw_level": 0,
        "emojis": [],
        "stickers": [],
        "incidents_data": None,
    }


def application_payload(bot: User, *, guild_count: int = 1) -> dict[str, Any]:
    """``GET /oauth2/applications/@me`` (``PrivateApplicationResponse``): the bot's own
    application, as its owner sees it; no interactions endpoint (discord.py would warn)."""
    return {
        "id": str(bot.id),
        "name": bot.name,
        "description": "",
        "icon": None,
        "type": None,
        "bot": user_payload(bot),
        "bot_public": True,
        "bot_require_code_grant": False,
        "owner": user_payload(bot),
        "verify_key": "0" * 64,
        "flags": 0,
        "flags_new": "0",
        "redirect_uris": [],
        "interactions_endpoint_url": None,
        "role_connections_verification_url": None,
        "approximate_guild_count": guild_count,
        "approximate_user_install_count": 0,
        "approximate_user_authorization_count": 0,
        "explicit_content_filter": 0,
        "team": None,
        "eligible_oauth2_scopes": ["bot", "applications.commands"],
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
        payload["message"] = message_payload(message, world, gateway=True)
    return payload
