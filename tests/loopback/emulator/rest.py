"""The REST API under ``/api/v10``: the routes discord.py calls for a slash-and-button bot.

Every request passes through one middleware that records it, applies injected faults
(status or delay) and adds generous rate-limit headers. Without those headers discord.py
treats each bucket as limit 1 and serialises concurrent calls, which would distort latency.
"""

from __future__ import annotations

import asyncio
import time
import zlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .http_util import error_answer, json_answer, no_content, read_body
from .interactions import (
    CALLBACK_DEFERRED_MESSAGE,
    CALLBACK_DEFERRED_UPDATE,
    CALLBACK_MESSAGE,
    CALLBACK_UPDATE_MESSAGE,
    InteractionRecord,
)
from .model import MESSAGE_FLAG_EPHEMERAL, MESSAGE_FLAG_LOADING, Message
from .payloads import (
    application_payload,
    channel_payload,
    guild_payload,
    member_payload,
    message_payload,
    user_payload,
)

if TYPE_CHECKING:
    from .server import Emulator

API_PREFIX = "/api/v10"

BODY = web.RequestKey("body", object)
"""The parsed request body, read once by the middleware (multipart streams can't be re-read)."""

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
UNKNOWN_WEBHOOK = 10015
UNKNOWN_USER = 10013
UNKNOWN_INTERACTION = 10062
NOT_OWN_MESSAGE = 50005
CANNOT_DM_USER = 50007
THREAD_ARCHIVED = 50083
ALREADY_ACKNOWLEDGED = 40060


@dataclass
class RestCall:
    """One recorded request and the status the emulator answered."""

    method: str
    path: str
    query: dict[str, str]
    body: Any
    status: int = 0
    started: float = 0.0
    finished: float = 0.0
    injected: bool = False


class RestApi:
    """Route handlers bound to one emulator's world."""

    def __init__(self, emulator: Emulator) -> None:
        self._emu = emulator

    def install(self, app: web.Application) -> None:
        app.middlewares.append(self._middleware)
        p = API_PREFIX
        routes = [
            ("GET", "/users/@me", self.get_me),
            ("GET", "/oauth2/applications/@me", self.get_application),
            ("GET", "/gateway", self.get_gateway),
            ("GET", "/gateway/bot", self.get_gateway),
            ("GET", "/applications/{app}/commands", self.get_commands),
            ("PUT", "/applications/{app}/commands", self.put_commands),
            ("GET", "/applications/{app}/guilds/{guild}/commands", self.get_commands),
            ("PUT", "/applications/{app}/guilds/{guild}/commands", self.put_commands),
            ("POST", "/interactions/{interaction}/{token}/callback", self.post_callback),
            ("POST", "/webhooks/{app}/{token}", self.post_followup),
            ("GET", "/webhooks/{app}/{token}/messages/{message}", self.get_webhook_message),
            ("PATCH", "/webhooks/{app}/{token}/messages/{message}", self.patch_webhook_message),
            ("DELETE", "/webhooks/{app}/{token}/messages/{message}", self.delete_webhook_message),
            ("POST", "/users/@me/channels", self.open_dm),
            ("GET", "/users/{user}", self.get_user),
            ("GET", "/channels/{channel}", self.get_channel),
            ("GET", "/channels/{channel}/messages", self.get_channel_messages),
            ("POST", "/channels/{channel}/messages", self.post_message),
            ("GET", "/channels/{channel}/messages/{message}", self.get_message),
            ("PATCH", "/channels/{channel}/messages/{message}", self.patch_message),
            ("DELETE", "/channels/{channel}/messages/{message}", self.delete_message),
            ("POST", "/channels/{channel}/typing", self.typing),
            ("GET", "/guilds/{guild}", self.get_guild),
            ("GET", "/guilds/{guild}/members/{user}", self.get_member),
        ]
        for method, path, handler in routes:
            app.router.add_route(method, p + path, handler)
        app.router.add_route("*", p + "/{tail:.*}", self.unhandled)

    # -- middleware: record, inject faults, rate-limit headers ------------------------------

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if not request.path.startswith(API_PREFIX):
            return await handler(request)
        emu = self._emu
        path = request.path[len(API_PREFIX) :]
        request[BODY] = await read_body(request)
        call = RestCall(request.method, path, dict(request.query), request[BODY])
        call.started = time.perf_counter()
        emu.rest_calls.append(call)
        fault = emu.faults.take(request.method, path)
        if fault is not None and fault.delay:
            await asyncio.sleep(fault.delay)
        if fault is not None and fault.status is not None:
            response: web.StreamResponse = json_answer(
                fault.body, status=fault.status, headers=fault.headers
            )
            call.injected = True
        else:
            response = await handler(request)
            route = request.match_info.route.resource
            template = route.canonical if route is not None else path
            bucket = format(zlib.crc32(f"{request.method} {template}".encode()), "08x")
            response.headers.update(
                {
                    "X-RateLimit-Limit": "10000",
                    "X-RateLimit-Remaining": "9999",
                    "X-RateLimit-Reset-After": "60.0",
                    "X-RateLimit-Bucket": bucket,
                }
            )
        call.status = response.status
        call.finished = time.perf_counter()
        emu.notifier.changed()
        return response

    async def unhandled(self, request: web.Request) -> web.Response:
        self._emu.unhandled.append(f"{request.method} {request.path}")
        return error_answer(404, 0, f"loopback emulator has no route for {request.path}")

    # -- identity -------------------------------------------------------------------------------

    async def get_me(self, request: web.Request) -> web.Response:
        token = request.headers.get("Authorization", "")
        expected = self._emu.token
        if expected is not None and token != f"Bot {expected}":
            return error_answer(401, 0, "401: Unauthorized")
        return json_answer({**user_payload(self._emu.bot_user), "verified": True, "flags": 0})

    async def get_application(self, request: web.Request) -> web.Response:
        return json_answer(application_payload(self._emu.bot_user))

    async def get_gateway(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return json_answer(
            {"url": self._emu.gateway_url, "shards": 1, "session_start_limit": limit}
        )

    # -- application commands -------------------------------------------------------------------

    def _command_scope(self, request: web.Request) -> int | None:
        guild = request.match_info.get("guild")
        return int(guild) if guild else None

    async def get_commands(self, request: web.Request) -> web.Response:
        return json_answer(self._emu.commands.get(self._command_scope(request), []))

    async def put_commands(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        app_id = str(self._emu.bot_user.id)
        stored = []
        for command in request[BODY] or []:
            entry = {
                **command,
                "id": str(self._emu.snowflakes.next()),
                "application_id": app_id,
                "version": "1",
                "type": command.get("type", 1),
            }
            entry.setdefault("description", "")
            if scope is not None:
                entry["guild_id"] = str(scope)
            stored.append(entry)
        self._emu.commands[scope] = stored
        return json_answer(stored)

    # -- archived threads -----------------------------------------------------------------------

    def _refused_in_archived_thread(self, message: Message) -> web.Response | None:
        """400 / 50083 for changing a message of an archived thread (ephemerals aside: they
        are not the thread's messages)."""
        channel = self._emu.world.channels[message.channel_id]
        if channel.archived and not message.ephemeral:
            return error_answer(400, THREAD_ARCHIVED, "Thread is archived")
        return None

    # -- interactions ---------------------------------------------------------------------------

    def _interaction_by_token(self, token: str) -> InteractionRecord | None:
        return self._emu.interactions_by_token.get(token)

    async def post_callback(self, request: web.Request) -> web.Response:
        emu = self._emu
        record = emu.interactions.get(int(request.match_info["interaction"]))
        if record is None or record.token != request.match_info["token"]:
            return error_answer(404, UNKNOWN_INTERACTION, "Unknown interaction")
        if record.acknowledged:
            record.rejected_callbacks.append(ALREADY_ACKNOWLEDGED)
            return error_answer(
                400, ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged."
            )
        body = request[BODY] or {}
        callback_type = int(body.get("type", 0))
        data = body.get("data") or {}
        record.mark_acknowledged(callback_type, data)
        message: Message | None = None
        if callback_type == CALLBACK_MESSAGE:
            message = await emu.post_message_as_bot(
                emu.world.channels[record.channel_id],
                data,
                interaction_id=record.id,
                viewer_id=record.user_id,
            )
        elif callback_type == CALLBACK_DEFERRED_MESSAGE:
            message = emu.world.create_message(
                emu.world.channels[record.channel_id],
                emu.bot_user,
                {"flags": data.get("flags")},
                extra_flags=MESSAGE_FLAG_LOADING,
                interaction_id=record.id,
                viewer_id=record.user_id,
            )
        elif callback_type == CALLBACK_UPDATE_MESSAGE and record.source_message_id is not None:
            message = await emu.edit_message_as_bot(
                emu.world.messages[record.source_message_id], data
            )
        if message is not None:
            record.response_message_id = message.id
        elif callback_type == CALLBACK_DEFERRED_UPDATE:
            record.response_message_id = record.source_message_id
        interaction: dict[str, Any] = {"id": str(record.id), "type": record.type}
        answer: dict[str, Any] = {"interaction": interaction}
        if message is not None:
            interaction.update(
                {
                    "response_message_id": str(message.id),
                    "response_message_loading": message.loading,
                    "response_message_ephemeral": message.ephemeral,
                }
            )
            answer["resource"] = {
                "type": callback_type,
                "message": message_payload(message, emu.world),
            }
        record.wake_waiters()
        return json_answer(answer)

    async def post_followup(self, request: web.Request) -> web.Response:
        emu = self._emu
        record = self._interaction_by_token(request.match_info["token"])
        if record is None or not record.acknowledged:
            return error_answer(404, UNKNOWN_WEBHOOK, "Unknown Webhook")
        body = request[BODY] or {}
        placeholder = record.response_message
        if (
            record.callback_type == CALLBACK_DEFERRED_MESSAGE
            and placeholder is not None
            and placeholder.loading
            and not record.followup_message_ids
        ):
            # Discord turns the first follow-up after a "thinking" defer into that message.
            message = await emu.edit_message_as_bot(placeholder, body)
        else:
            message = await emu.post_message_as_bot(
                emu.world.channels[record.channel_id],
                body,
                interaction_id=record.id,
                webhook_id=emu.bot_user.id,
                viewer_id=record.user_id,
            )
        record.followup_message_ids.append(message.id)
        if request.query.get("wait") in ("1", "true", "True"):
            return json_answer(message_payload(message, emu.world))
        return no_content()

    def _webhook_message(self, request: web.Request) -> tuple[InteractionRecord, Message] | None:
        record = self._interaction_by_token(request.match_info["token"])
        if record is None:
            return None
        wanted = request.match_info["message"]
        if wanted == "@original":
            message_id = record.response_message_id
        else:
            message_id = int(wanted)
            if message_id not in record.followup_message_ids and message_id != (
                record.response_message_id
            ):
                return None
        message = self._emu.world.messages.get(message_id) if message_id else None
        if message is None or message.deleted:
            return None
        return record, message

    async def get_webhook_message(self, request: web.Request) -> web.Response:
        found = self._webhook_message(request)
        if found is None:
            return error_answer(404, UNKNOWN_MESSAGE, "Unknown Message")
        return json_answer(message_payload(found[1], self._emu.world))

    async def patch_webhook_message(self, request: web.Request) -> web.Response:
        found = self._webhook_message(request)
        if found is None:
            return error_answer(404, UNKNOWN_MESSAGE, "Unknown Message")
        record, message = found
        refused = self._refused_in_archived_thread(message)
        if refused is not None:
            return refused
        if request.match_info["message"] == "@original":
            record.original_edits += 1
        edited = await self._emu.edit_message_as_bot(message, request[BODY] or {})
        return json_answer(message_payload(edited, self._emu.world))

    async def delete_webhook_message(self, request: web.Request) -> web.Response:
        found = self._webhook_message(request)
        if found is None:
            return error_answer(404, UNKNOWN_MESSAGE, "Unknown Message")
        refused = self._refused_in_archived_thread(found[1])
        if refused is not None:
            return refused
        await self._emu.delete_message(found[1])
        return no_content()

    # -- users, DMs, channels, messages ---------------------------------------------------------

    async def open_dm(self, request: web.Request) -> web.Response:
        world = self._emu.world
        body = request[BODY] or {}
        user = world.users.get(int(body.get("recipient_id", 0)))
        if user is None:
            return error_answer(400, 50035, "Invalid Form Body: unknown recipient")
        channel = world.dm_channel(user)
        return json_answer(channel_payload(channel, world))

    async def get_user(self, request: web.Request) -> web.Response:
        user = self._emu.world.users.get(int(request.match_info["user"]))
        if user is None:
            return error_answer(404, UNKNOWN_USER, "Unknown User")
        return json_answer(user_payload(user))

    async def get_channel(self, request: web.Request) -> web.Response:
        channel = self._emu.world.channels.get(int(request.match_info["channel"]))
        if channel is None:
            return error_answer(404, UNKNOWN_CHANNEL, "Unknown Channel")
        return json_answer(channel_payload(channel, self._emu.world))

    async def get_channel_messages(self, request: web.Request) -> web.Response:
        world = self._emu.world
        channel = world.channels.get(int(request.match_info["channel"]))
        if channel is None:
            return error_answer(404, UNKNOWN_CHANNEL, "Unknown Channel")
        limit = max(1, min(100, int(request.query.get("limit", 50))))
        visible = [m for m in world.messages_in(channel) if not m.ephemeral]
        newest_first = list(reversed(visible))[:limit]
        return json_answer([message_payload(m, world) for m in newest_first])

    async def post_message(self, request: web.Request) -> web.Response:
        emu = self._emu
        channel = emu.world.channels.get(int(request.match_info["channel"]))
        if channel is None:
            return error_answer(404, UNKNOWN_CHANNEL, "Unknown Channel")
        if channel.is_dm:
            recipient = emu.world.users[channel.recipient_id or 0]
            if recipient.bot or not recipient.dms_open:
                return error_answer(403, CANNOT_DM_USER, "Cannot send messages to this user")
        if channel.archived:
            if channel.locked:  # only thread managers may unarchive it; the bot is none here
                return error_answer(400, THREAD_ARCHIVED, "Thread is archived")
            await emu.unarchive_thread(channel)  # posting into an archived thread revives it
        body = dict(request[BODY] or {})
        body["flags"] = int(body.get("flags") or 0) & ~MESSAGE_FLAG_EPHEMERAL
        message = await emu.post_message_as_bot(channel, body)
        return json_answer(message_payload(message, emu.world))

    def _channel_message(self, request: web.Request) -> Message | None:
        message = self._emu.world.messages.get(int(request.match_info["message"]))
        if (
            message is None
            or message.deleted
            or message.ephemeral
            or message.channel_id != int(request.match_info["channel"])
        ):
            return None
        return message

    async def get_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        if message is None:
            return error_answer(404, UNKNOWN_MESSAGE, "Unknown Message")
        return json_answer(message_payload(message, self._emu.world))

    async def patch_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        if message is None:
            return error_answer(404, UNKNOWN_MESSAGE, "Unknown Message")
        if message.author_id != self._emu.bot_user.id:
            return error_answer(
                403, NOT_OWN_MESSAGE, "Cannot edit a message authored by another user"
            )
        refused = self._refused_in_archived_thread(message)
        if refused is not None:
            return refused
        edited = await self._emu.edit_message_as_bot(message, request[BODY] or {})
        return json_answer(message_payload(edited, self._emu.world))

    async def delete_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        if message is None:
            return error_answer(404, UNKNOWN_MESSAGE, "Unknown Message")
        refused = self._refused_in_archived_thread(message)
        if refused is not None:
            return refused
        await self._emu.delete_message(message)
        return no_content()

    async def typing(self, request: web.Request) -> web.Response:
        return no_content()

    # -- guilds ---------------------------------------------------------------------------------

    async def get_guild(self, request: web.Request) -> web.Response:
        guild = self._emu.world.guilds.get(int(request.match_info["guild"]))
        if guild is None:
            return error_answer(404, 10004, "Unknown Guild")
        return json_answer(guild_payload(guild, self._emu.world, bot=self._emu.bot_user))

    async def get_member(self, request: web.Request) -> web.Response:
        world = self._emu.world
        guild = world.guilds.get(int(request.match_info["guild"]))
        user_id = int(request.match_info["user"])
        if guild is None or user_id not in guild.member_ids:
            return error_answer(404, 10007, "Unknown Member")
        return json_answer(member_payload(world.users[user_id]))
