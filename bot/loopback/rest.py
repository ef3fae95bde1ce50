"""The REST API under ``/api/v10``: the routes discord.py calls for a slash-and-button bot.

Every request passes through one middleware that notes its arrival time, records it, applies
injected faults (status or delay), applies the rate-limit policy (``ratelimits.py``) and adds
rate-limit headers. With the policy off the headers say "unlimited": without any, discord.py
treats each bucket as limit 1 and serialises concurrent calls, which would distort latency.

The handlers hold Discord's rules on size and time: every message the bot creates or edits
is checked against ``bot/loopback/discord_limits.py`` (400 / 50035 or 50006, nothing changed), a
callback later than ``Emulator.interaction_deadline`` gets 404 / 10062, follow-ups and
``@original`` calls after ``interaction_token_lifetime`` get 404 / 10015, and channel posts
with ``enforce_nonce`` are deduplicated (``nonces.py``).
"""

from __future__ import annotations

import asyncio
import time
import zlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import orjson
from aiohttp import web

from .discord_limits import (
    callback_problems,
    commands_problems,
    message_extras,
    message_problems,
    refusal,
)
from .http_util import error_answer, json_answer, no_content, read_body
from .interactions import (
    CALLBACK_DEFERRED_MESSAGE,
    CALLBACK_DEFERRED_UPDATE,
    CALLBACK_MESSAGE,
    CALLBACK_UPDATE_MESSAGE,
    InteractionRecord,
)
from .model import MESSAGE_FLAG_EPHEMERAL, MESSAGE_FLAG_LOADING, Message
from .openapi import UNKNOWN_ROUTE, Problem
from .openapi import refusal as contract_refusal
from .payloads import (
    ATTACHMENT_SIZE_LIMIT,
    application_payload,
    channel_payload,
    command_payload,
    member_payload,
    message_payload,
    own_user_payload,
    rest_guild_payload,
    user_payload,
)

if TYPE_CHECKING:
    from .server import Emulator

API_PREFIX = "/api/v10"

BODY = web.RequestKey("body", object)
"""The parsed request body, read once by the middleware (multipart streams can't be re-read)."""
CONTRACT = web.RequestKey("contract", list)
"""How the request's body breaks Discord's API description (``openapi.py``): the handlers that
take a body refuse it together with the limits they check, after the checks Discord makes
first (an unknown interaction, webhook or channel)."""
ARRIVED = web.RequestKey("arrived", float)
"""``time.perf_counter()`` when the request reached the emulator, before any injected delay."""
ARRIVED_MONOTONIC = web.RequestKey("arrived_monotonic", float)
"""``time.monotonic()`` at the same moment: the rate limits count the request then. Set by the
REST door on its own thread (``rest_front.py``) when there is one, at the kernel's receive time;
otherwise both are stamped when the emulator's loop reads the request."""
DOOR_READ = web.RequestKey("door_read", float)
"""``time.perf_counter()`` when the REST door's thread read the request (``rest_front.py``):
later than its arrival while the machine did not run that thread."""

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
UNKNOWN_WEBHOOK = 10015
UNKNOWN_USER = 10013
UNKNOWN_INTERACTION = 10062
NOT_OWN_MESSAGE = 50005
MISSING_PERMISSIONS = 50013
CANNOT_DM_USER = 50007
THREAD_ARCHIVED = 50083
ALREADY_ACKNOWLEDGED = 40060
ENTITY_TOO_LARGE = 40005


@dataclass
class RestCall:
    """One recorded request and the status the emulator answered.

    ``injected``: a fault rule answered or delayed it (``fault`` names which: ``fail``,
    ``rate_limit``, ``delay``, ``random rate_limited``, ``random server_error``,
    ``random slow``, ...). ``rate_limited``: the rate-limit policy answered it 429.
    ``started`` is its arrival (``time.perf_counter()``), ``finished`` when it was answered.
    """

    method: str
    path: str
    query: dict[str, str]
    body: Any
    status: int = 0
    started: float = 0.0
    finished: float = 0.0
    handled: float = 0.0
    """When the emulator's loop began handling it (later than ``started`` while that loop was
    late, with the REST door on its own thread: ``rest_front.py``)."""
    read: float = 0.0
    """When the REST door's thread read it (``rest_front.py``; its arrival ``started`` is the
    kernel's receive time, earlier while the machine did not run the thread); 0 without it."""
    injected: bool = False
    fault: str | None = None
    rate_limited: bool = False


@dataclass(frozen=True)
class ContractViolation:
    """A request (or, with ``check_answers``, an answer of the emulator) that breaks Discord's
    API description (``openapi.py``)."""

    method: str
    path: str
    problems: list[Problem]

    def __str__(self) -> str:
        return f"{self.method} {self.path}: " + "; ".join(map(str, self.problems))


@dataclass(frozen=True)
class RefusedPayload:
    """A message create or edit refused for breaking Discord's limits (answered 400)."""

    method: str
    path: str
    problems: list[str]
    code: int


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
        handled = time.perf_counter()
        arrived = request.get(ARRIVED, handled)
        request[ARRIVED] = arrived
        arrived_monotonic = request.get(ARRIVED_MONOTONIC)
        emu = self._emu
        path = request.path[len(API_PREFIX) :]
        sent, request[BODY] = await read_body(request, emu.uploads)
        call = RestCall(
            request.method,
            path,
            dict(request.query),
            request[BODY],
            started=arrived,
            handled=handled,
            read=request.get(DOOR_READ, 0.0),
        )
        emu.rest_calls.append(call)
        fault = emu.faults.take(request.method, path)
        if fault is not None:
            call.injected, call.fault = True, fault.kind
        if fault is not None and fault.status is not None:
            if fault.delay:
                await asyncio.sleep(fault.delay)
            response: web.StreamResponse = json_answer(
                fault.body, status=fault.status, headers=fault.headers
            )
        else:
            # counted on arrival (at the REST door's stamp when it has one: ``rest_front``)
            admission = emu.rate_limits.admit(request.method, path, now=arrived_monotonic)
            if fault is not None and fault.delay:
                await asyncio.sleep(fault.delay)
            if admission.refusal is not None:
                body, headers = admission.refusal_answer()
                response = json_answer(body, status=429, headers=headers)
                call.rate_limited = True
            elif _oversized_upload(request[BODY]):
                response = error_answer(413, ENTITY_TOO_LARGE, "Request entity too large")
            elif (refused := self._breaks_contract(request, path, sent)) is not None:
                response = refused
            else:
                response = await handler(request)
                headers = admission.headers()
                if admission.route is None:
                    route = request.match_info.route.resource
                    template = route.canonical if route is not None else path
                    key = f"{request.method} {template}".encode()
                    headers["X-RateLimit-Bucket"] = format(zlib.crc32(key), "08x")
                response.headers.update(headers)
        call.status = response.status
        call.finished = time.perf_counter()
        if emu.check_answers and emu.contract is not None:
            self._check_answer(request.method, path, response)
        emu.notifier.changed()
        return response

    # -- Discord's contract (openapi.py) -------------------------------------------------------

    def _breaks_contract(self, request: web.Request, path: str, sent: Any) -> web.Response | None:
        """Discord's answer to a request whose route, path or query its API description
        refuses (404 for a route Discord lacks, else 400 / 50035), recorded in
        ``contract_violations``; problems of the body are left in ``request[CONTRACT]`` for its
        handler (``_payload_refusal``). ``None``: go on (also without a contract)."""
        emu = self._emu
        contract = emu.contract
        request[CONTRACT] = []
        if contract is None:
            return None
        began, compiling = time.perf_counter(), contract.compile_seconds
        problems = contract.request_problems(
            request.method, path, request.query, sent, has_body=request.body_exists
        )
        emu.contract_checks += 1  # (a schema's one-time compilation is not the check's cost)
        compiled = contract.compile_seconds - compiling
        emu.contract_seconds += time.perf_counter() - began - compiled
        if not problems:
            return None
        early = [p for p in problems if not p.where or str(p.where[0]).startswith("<")]
        handler = request.match_info.handler
        if not early and getattr(handler, "__name__", "") in CHECKS_ITS_BODY:
            request[CONTRACT] = problems
            return None
        emu.contract_violations.append(ContractViolation(request.method, path, problems))
        if problems[0].code == UNKNOWN_ROUTE:
            return error_answer(404, 0, "404: Not Found")
        return json_answer(contract_refusal(problems), status=400)

    def _check_answer(self, method: str, path: str, response: web.StreamResponse) -> None:
        """Run a JSON answer through the description's schema for it (tests: ``check_answers``)."""
        if not isinstance(response, web.Response) or response.content_type != "application/json":
            return
        raw = response.body
        if not isinstance(raw, bytes) or not raw:
            return
        assert self._emu.contract is not None
        problems = self._emu.contract.response_problems(
            method, path, response.status, orjson.loads(raw)
        )
        if problems:
            self._emu.answer_problems.append(ContractViolation(method, path, problems))

    async def unhandled(self, request: web.Request) -> web.Response:
        self._emu.unhandled.append(f"{request.method} {request.path}")
        return error_answer(404, 0, f"loopback emulator has no route for {request.path}")

    # -- identity -------------------------------------------------------------------------------

    async def get_me(self, request: web.Request) -> web.Response:
        token = request.headers.get("Authorization", "")
        expected = self._emu.token
        if expected is not None and token != f"Bot {expected}":
            return error_answer(401, 0, "401: Unauthorized")
        return json_answer(own_user_payload(self._emu.bot_user))

    async def get_application(self, request: web.Request) -> web.Response:
        guilds = len(self._emu.world.guilds)
        return json_answer(application_payload(self._emu.bot_user, guild_count=guilds))

    async def get_gateway(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return json_answer(
            {
                "url": self._emu.gateway_url,
                "shards": self._emu.shard_count,
                "session_start_limit": limit,
            }
        )

    # -- application commands -------------------------------------------------------------------

    def _command_scope(self, request: web.Request) -> int | None:
        guild = request.match_info.get("guild")
        return int(guild) if guild else None

    async def get_commands(self, request: web.Request) -> web.Response:
        return json_answer(self._emu.commands.get(self._command_scope(request), []))

    async def put_commands(self, request: web.Request) -> web.Response:
        """Bulk overwrite: the commands Discord's contract and limits accept (400 / 50035
        otherwise, nothing changed), answered as Discord stores them."""
        scope = self._command_scope(request)
        commands = request[BODY] or []
        limits = commands_problems(commands) if self._emu.validate_payloads else []
        refused = self._payload_refusal(request, limits)
        if refused is not None:
            return refused
        stored = [
            command_payload(
                command,
                command_id=self._emu.snowflakes.next(),
                application=self._emu.bot_user,
                guild_id=scope,
            )
            for command in commands
        ]
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

    # -- payload limits -------------------------------------------------------------------------

    def _payload_refusal(self, request: web.Request, problems: list[str]) -> web.Response | None:
        """400 with Discord's body for a payload that breaks the limits (``problems``) or
        Discord's API description (``request[CONTRACT]``), recorded; ``None`` if neither."""
        broken: list[Problem] = request.get(CONTRACT) or []
        if not problems and not broken:
            return None
        path = request.path[len(API_PREFIX) :]
        if broken:
            self._emu.contract_violations.append(ContractViolation(request.method, path, broken))
            answer = contract_refusal(broken)
            listed = answer["errors"].setdefault("_errors", [])
            listed += [{"code": "BASE_TYPE_BAD_LENGTH", "message": p} for p in problems]
        else:
            answer = refusal(problems)
        recorded = list(problems) + [str(problem) for problem in broken]
        self._emu.refused_payloads.append(
            RefusedPayload(request.method, path, recorded, answer["code"])
        )
        return json_answer(answer, status=400)

    def _message_problems(
        self, body: dict[str, Any], *, editing: Message | None = None
    ) -> list[str]:
        if not self._emu.validate_payloads:
            return []
        if editing is None:
            return message_problems(body) + message_extras(body)
        return message_problems(body, creating=False, current=_as_body(editing)) + (
            message_extras(body)
        )

    # -- interactions ---------------------------------------------------------------------------

    def _past_deadline(self, record: InteractionRecord, arrived: float) -> bool:
        """A callback this late finds no interaction (3 s, or the token's 15 min at most)."""
        limits = (self._emu.interaction_deadline, self._emu.interaction_token_lifetime)
        live = [limit for limit in limits if limit is not None]
        return bool(live) and record.age(arrived) > min(live)

    def _token_expired(self, record: InteractionRecord, arrived: float) -> bool:
        lifetime = self._emu.interaction_token_lifetime
        return lifetime is not None and record.age(arrived) > lifetime

    def _interaction_by_token(self, token: str) -> InteractionRecord | None:
        return self._emu.interactions_by_token.get(token)

    async def post_callback(self, request: web.Request) -> web.Response:
        emu = self._emu
        arrived = request[ARRIVED]
        record = emu.interactions.get(int(request.match_info["interaction"]))
        if record is None or record.token != request.match_info["token"]:
            return error_answer(404, UNKNOWN_INTERACTION, "Unknown interaction")
        record.note_callback(arrived)
        if record.acknowledged:
            record.rejected_callbacks.append(ALREADY_ACKNOWLEDGED)
            return error_answer(
                400, ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged."
            )
        if self._past_deadline(record, arrived):
            record.rejected_callbacks.append(UNKNOWN_INTERACTION)
            emu.notifier.changed()
            return error_answer(404, UNKNOWN_INTERACTION, "Unknown interaction")
        body = request[BODY] or {}
        callback_type = int(body.get("type", 0))
        data = body.get("data") or {}
        problems: list[str] = []
        if emu.validate_payloads:
            source = (
                emu.world.messages.get(record.source_message_id)
                if record.source_message_id is not None
                else None
            )
            current = _as_body(source) if source is not None else None
            problems = callback_problems(body, current=current) + message_extras(data)
        refused = self._payload_refusal(request, problems)
        if refused is not None:
            record.rejected_callbacks.append(orjson.loads(refused.body)["code"])
            return refused
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
            # A "thinking" acknowledgement takes only EPHEMERAL: IS_COMPONENTS_V2 and the rest
            # are ignored, and the follow-up or edit that replaces it sets them (Discord's
            # interaction response docs; discord-api-docs #7515, #7910).
            message = emu.world.create_message(
                emu.world.channels[record.channel_id],
                emu.bot_user,
                {"flags": int(data.get("flags") or 0) & MESSAGE_FLAG_EPHEMERAL},
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
        if request.query.get("with_response", "").lower() not in ("1", "true"):
            record.wake_waiters()
            return no_content()  # Discord sends the response's message only when asked
        interaction: dict[str, Any] = {"id": str(record.id), "type": record.type}
        answer: dict[str, Any] = {"interaction": interaction}
        if message is not None:
            # Discord's answer names the message a callback made (or will make: type 5's
            # "thinking" placeholder) but shows only a message that is there to show: types 4
            # and 7 (``InteractionCallbackResponse``: no resource for a deferral).
            interaction.update(
                {
                    "response_message_id": str(message.id),
                    "response_message_loading": message.loading,
                    "response_message_ephemeral": message.ephemeral,
                }
            )
            if callback_type != CALLBACK_DEFERRED_MESSAGE:
                answer["resource"] = {
                    "type": callback_type,
                    "message": message_payload(message, emu.world),
                }
        record.wake_waiters()
        return json_answer(answer)

    def _webhook_record(
        self, request: web.Request
    ) -> tuple[InteractionRecord | None, web.Response | None]:
        """The interaction behind a webhook route, or the 404 / 10015 Discord gives for a
        token it does not know, one not yet acknowledged, or one past its lifetime."""
        record = self._interaction_by_token(request.match_info["token"])
        if record is None:
            return None, error_answer(404, UNKNOWN_WEBHOOK, "Unknown Webhook")
        if not record.acknowledged or self._token_expired(record, request[ARRIVED]):
            record.rejected_followups.append(UNKNOWN_WEBHOOK)
            return None, error_answer(404, UNKNOWN_WEBHOOK, "Unknown Webhook")
        return record, None

    def _followup_refusal(
        self, request: web.Request, record: InteractionRecord, problems: list[str]
    ) -> web.Response | None:
        refused = self._payload_refusal(request, problems)
        if refused is not None:
            record.rejected_followups.append(orjson.loads(refused.body)["code"])
        return refused

    async def post_followup(self, request: web.Request) -> web.Response:
        emu = self._emu
        record, refused = self._webhook_record(request)
        if record is None:
            assert refused is not None
            return refused
        body = request[BODY] or {}
        refused = self._followup_refusal(request, record, self._message_problems(body))
        if refused is not None:
            return refused
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

    def _webhook_message(
        self, request: web.Request
    ) -> tuple[InteractionRecord, Message] | web.Response:
        """The interaction and the message a ``/webhooks/{app}/{token}/messages/{id}`` route
        names, or the error answer (10015 for the token, 10008 for the message)."""
        record, refused = self._webhook_record(request)
        if record is None:
            assert refused is not None
            return refused
        wanted = request.match_info["message"]
        unknown = error_answer(404, UNKNOWN_MESSAGE, "Unknown Message")
        if wanted == "@original":
            message_id = record.response_message_id
        else:
            message_id = int(wanted)
            if message_id not in record.followup_message_ids and message_id != (
                record.response_message_id
            ):
                return unknown
        message = self._emu.world.messages.get(message_id) if message_id else None
        if message is None or message.deleted:
            return unknown
        return record, message

    async def get_webhook_message(self, request: web.Request) -> web.Response:
        found = self._webhook_message(request)
        if isinstance(found, web.Response):
            return found
        return json_answer(message_payload(found[1], self._emu.world))

    async def patch_webhook_message(self, request: web.Request) -> web.Response:
        found = self._webhook_message(request)
        if isinstance(found, web.Response):
            return found
        record, message = found
        refused = self._refused_in_archived_thread(message)
        if refused is not None:
            return refused
        body = request[BODY] or {}
        problems = self._message_problems(body, editing=message)
        refused = self._followup_refusal(request, record, problems)
        if refused is not None:
            return refused
        if request.match_info["message"] == "@original":
            record.original_edits += 1
        edited = await self._emu.edit_message_as_bot(message, body)
        return json_answer(message_payload(edited, self._emu.world))

    async def delete_webhook_message(self, request: web.Request) -> web.Response:
        found = self._webhook_message(request)
        if isinstance(found, web.Response):
            return found
        refused = self._refused_in_archived_thread(found[1])
        if refused is not None:
            return refused
        await self._emu.delete_message(found[1])
        return no_content()

    # -- users, DMs, channels, messages ---------------------------------------------------------

    async def open_dm(self, request: web.Request) -> web.Response:
        world = self._emu.world
        refused = self._payload_refusal(request, [])
        if refused is not None:
            return refused
        body = request[BODY] or {}
        user = world.users.get(int(body.get("recipient_id") or 0))
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
        if channel.archived and channel.locked:
            # only thread managers may unarchive a locked thread; the bot is none here
            return error_answer(400, THREAD_ARCHIVED, "Thread is archived")
        body = dict(request[BODY] or {})
        refused = self._payload_refusal(request, self._message_problems(body))
        if refused is not None:
            return refused
        refused = self._refused_upload(channel, body)
        if refused is not None:
            return refused
        if channel.archived:
            await emu.unarchive_thread(channel)  # posting into an archived thread revives it
        body["flags"] = int(body.get("flags") or 0) & ~MESSAGE_FLAG_EPHEMERAL
        message, duplicate = await emu.create_channel_message(emu.bot_user, channel, body)
        if duplicate and message.deleted:
            # Discord does not create the message again: the nonce's message is gone.
            return error_answer(404, UNKNOWN_MESSAGE, "Unknown Message")
        return json_answer(message_payload(message, emu.world, with_nonce=True))

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
        body = request[BODY] or {}
        refused = self._payload_refusal(request, self._message_problems(body, editing=message))
        if refused is not None:
            return refused
        refused = self._refused_upload(self._emu.world.channels[message.channel_id], body)
        if refused is not None:
            return refused
        edited = await self._emu.edit_message_as_bot(message, body)
        return json_answer(message_payload(edited, self._emu.world))

    def _refused_upload(self, channel: Any, body: dict[str, Any]) -> web.Response | None:
        """Discord's 403 / 50013 for a file uploaded (a new message's, or one an edit adds)
        in a guild channel where the bot lacks Attach Files (a thread: in its parent)."""
        uploads = [a for a in body.get("attachments") or [] if "size" in a]
        if not uploads or channel.guild_id is None:
            return None
        parent = self._emu.world.channels.get(channel.parent_id or 0)
        if channel.bot_may_attach and (parent is None or parent.bot_may_attach):
            return None
        return error_answer(403, MISSING_PERMISSIONS, "Missing Permissions")

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
        return json_answer(rest_guild_payload(guild, self._emu.bot_user))

    async def get_member(self, request: web.Request) -> web.Response:
        world = self._emu.world
        guild = world.guilds.get(int(request.match_info["guild"]))
        user_id = int(request.match_info["user"])
        if guild is None or user_id not in guild.member_ids:
            return error_answer(404, 10007, "Unknown Member")
        return json_answer(member_payload(world.users[user_id], with_permissions=False))


CHECKS_ITS_BODY = frozenset(
    {
        RestApi.put_commands.__name__,
        RestApi.post_callback.__name__,
        RestApi.post_followup.__name__,
        RestApi.patch_webhook_message.__name__,
        RestApi.open_dm.__name__,
        RestApi.post_message.__name__,
        RestApi.patch_message.__name__,
    }
)
"""The handlers that refuse a body against the description themselves (``_payload_refusal``),
after the checks Discord makes before it reads a body."""


def _as_body(message: Message) -> dict[str, Any]:
    """A message's current state in the shape of a message body (for edit validation)."""
    return {
        "content": message.content,
        "embeds": message.embeds,
        "components": message.components,
        "attachments": message.attachments,
        "flags": message.flags,
    }


def _oversized_upload(body: object) -> bool:
    """A file over Discord's attachment limit (``ATTACHMENT_SIZE_LIMIT``, as advertised in
    every interaction), which Discord refuses with 413 / 40005."""
    if not isinstance(body, dict):
        return False
    return any(
        isinstance(file, dict) and int(file.get("size") or 0) > ATTACHMENT_SIZE_LIMIT
        for file in body.get("attachments") or []
    )
