"""The emulator: one aiohttp server on 127.0.0.1 serving REST and the gateway.

Use it in-process (``async with Emulator() as emu``) or as its own process
(``python -m bot.loopback --port 0``). It owns the world model, the fault
plan, the record of every request and interaction, and the gateway session.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import time
from collections import deque
from collections.abc import Callable
from types import TracebackType
from typing import Any, ClassVar

from aiohttp import web

from .actors import Actor
from .control import ControlApi
from .faults import FaultPlan
from .gateway import INTENT_DIRECT_MESSAGES, INTENT_GUILD_MESSAGES, Gateway
from .interactions import InteractionRecord, LateInteraction
from .model import Channel, Guild, Message, SnowflakeFactory, User, World
from .nonces import DEFAULT_WINDOW_SECONDS, NonceRegistry
from .notify import ChangeNotifier
from .openapi import Contract, SpecMissing
from .payloads import channel_payload, guild_payload, message_payload, thread_payload
from .ratelimits import RateLimits
from .rest import ContractViolation, RefusedPayload, RestApi, RestCall
from .rest_front import RestFront
from .uploads import DEFAULT_MAX_BYTES, UploadStore

log = logging.getLogger(__name__)

LOOPBACK = "127.0.0.1"
LISTEN_BACKLOG = 4096  # aiohttp's default of 128 overflows under bursts (1 s SYN stalls)
INTERACTION_DEADLINE_SECONDS = 3.0
INTERACTION_TOKEN_LIFETIME_SECONDS = 15 * 60.0


class Emulator:
    """A loopback Discord for one bot, one guild by default, and any number of users."""

    observers: ClassVar[list[Callable[[Emulator], None]]] = []
    """Called with every new emulator (the test suite watches their contract checks)."""

    def __init__(
        self,
        *,
        bot_name: str = "Glory",
        guild_name: str = "Loopback Guild",
        channel_name: str = "general",
        token: str | None = None,
        heartbeat_interval_ms: int = 41_250,
        record_limit: int = 100_000,
        echo_messages: bool = True,
        validate_payloads: bool = True,
        interaction_deadline: float | None = INTERACTION_DEADLINE_SECONDS,
        interaction_token_lifetime: float | None = INTERACTION_TOKEN_LIFETIME_SECONDS,
        rate_limits: RateLimits | None = None,
        nonce_window: float = DEFAULT_WINDOW_SECONDS,
        shard_count: int = 1,
        max_guilds_per_shard: int | None = None,
        upload_bytes: int = DEFAULT_MAX_BYTES,
        contract: Contract | bool = True,
        check_answers: bool = False,
        rest_thread: bool = False,
    ) -> None:
        """``token=None`` accepts any token; a string makes other tokens fail like Discord.

        ``record_limit`` bounds the request, frame and interaction logs so long benchmarks
        keep flat memory; ``echo_messages`` sends MESSAGE_CREATE/UPDATE for the bot's own messages
        as Discord does when the bot has the message intents.

        Discord's rules on time and size (each can be changed later through the attribute of
        the same name; docs/loopback.md has the details):

        - ``validate_payloads``: every message the bot creates or edits is checked with
          ``bot/loopback/discord_limits.py``; a refused one gets 400 / 50035 (or 50006 when empty),
          changes nothing and is recorded in ``refused_payloads``.
        - ``interaction_deadline``: a callback arriving later than this many seconds after the
          interaction was dispatched gets 404 / 10062 (None: no deadline).
        - ``interaction_token_lifetime``: follow-ups and ``@original`` calls after this many
          seconds get 404 / 10015 (None: tokens never expire).
        - ``rate_limits``: a ``RateLimits`` policy (e.g. ``RateLimits.discord_like()``); None
          answers every request as unlimited.
        - ``nonce_window``: seconds during which a message created with ``enforce_nonce`` is
          returned again for the same (channel, author, nonce) instead of a new one.

        Discord's contract (``openapi.py``, "Discord's contract" in docs/loopback.md):

        - ``contract``: every request is checked against Discord's OpenAPI description (found by
          ``openapi.find_spec``; pass a ``Contract`` to use another, False for none). A request
          that breaks it gets Discord's 400 / 50035 (404 for a route Discord lacks), changes
          nothing and is recorded in ``contract_violations``. If the description cannot be
          found the emulator runs without it, says so in the log, and ``contract_missing``
          says where it looked (the test suite refuses to run then).
        - ``check_answers``: the emulator's own JSON answers are checked against the
          description's response schemas too (the tests turn this on); mismatches go to
          ``answer_problems``.

        Sharding (see "Shards" in docs/loopback.md): ``shard_count`` is what ``GET /gateway/bot``
        recommends and what ``add_guild(shard=)`` places guilds by; events are routed by the count
        the bot identified with. ``max_guilds_per_shard``: an IDENTIFY whose shard would hold more
        guilds is closed with 4011 (sharding required), as Discord does from 2,500.

        ``rest_thread``: REST requests are received on a thread of their own and counted
        against the rate limits when they arrive (``rest_front.py``), not when this emulator's
        event loop gets to them: for a harness whose own work can make that loop late (the
        soak's players), as Discord's clock does not wait for it. ``api_base`` then names that
        door; the gateway stays here.

        ``upload_bytes``: the uploaded files' bytes are kept (``uploads``, the newest first, at
        most this many bytes in all; 0 keeps none) and served at their attachment ``url``.
        """
        self.shard_count = shard_count
        self.max_guilds_per_shard = max_guilds_per_shard
        self.snowflakes = SnowflakeFactory()
        self.world = World(self.snowflakes)
        self.faults = FaultPlan()
        self.notifier = ChangeNotifier()
        self.token = token
        self.echo_messages = echo_messages
        self.record_limit = record_limit
        self.validate_payloads = validate_payloads
        self.interaction_deadline = interaction_deadline
        self.interaction_token_lifetime = interaction_token_lifetime
        self.rate_limits = rate_limits if rate_limits is not None else RateLimits()
        self.nonces = NonceRegistry(nonce_window)
        self.uploads = UploadStore(upload_bytes)
        self.refused_payloads: deque[RefusedPayload] = deque(maxlen=record_limit)
        self.contract_missing: str | None = None
        self.contract: Contract | None = self._load_contract(contract)
        self.check_answers = check_answers
        self.contract_violations: deque[ContractViolation] = deque(maxlen=record_limit)
        self.answer_problems: deque[ContractViolation] = deque(maxlen=record_limit)
        self.contract_checks = 0
        """Requests checked against the contract so far, and the time it took in all
        (``contract_seconds``): the contract's cost per request."""
        self.contract_seconds = 0.0
        self.bot_user: User = self.world.add_user(bot_name, bot=True)
        self.guild: Guild = self.world.add_guild(guild_name)
        self.world.add_member(self.guild, self.bot_user)
        self.channel: Channel = self.world.add_text_channel(self.guild, channel_name)
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self.interactions_by_token: dict[str, InteractionRecord] = {}
        self.rest_calls: deque[RestCall] = deque(maxlen=record_limit)
        self.unhandled: list[str] = []
        self.gateway = Gateway(
            self, heartbeat_interval_ms=heartbeat_interval_ms, record_limit=record_limit
        )
        self._rest = RestApi(self)
        self._runner: web.AppRunner | None = None
        self.port: int | None = None
        self.rest_thread = rest_thread
        self._front: RestFront | None = None
        for observer in list(self.observers):
            observer(self)

    def _load_contract(self, contract: Contract | bool) -> Contract | None:
        if isinstance(contract, Contract):
            return contract
        if not contract:
            return None
        try:
            return Contract.load()
        except SpecMissing as missing:
            self.contract_missing = str(missing)
            log.warning("%s", missing)
            return None

    # -- lifecycle ----------------------------------------------------------------------------

    def build_app(self) -> web.Application:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        self._rest.install(app)
        ControlApi(self).install(app)
        self.uploads.install(app)
        app.router.add_get("/", self.gateway.handle)
        return app

    async def start(self, port: int = 0) -> Emulator:
        """Listen on 127.0.0.1 (``port=0`` picks a free port; read it from ``.port``)."""
        self._runner = web.AppRunner(self.build_app(), access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, LOOPBACK, port, backlog=LISTEN_BACKLOG)
        await site.start()
        self.port = self._runner.addresses[0][1]
        if self.rest_thread:
            front = web.Application(client_max_size=64 * 1024 * 1024)
            self._rest.install(front)
            self.uploads.install(front)  # the attachments' urls name the door they came in by
            self._front = RestFront(front, asyncio.get_running_loop())
            await self._front.start(LOOPBACK, LISTEN_BACKLOG)
        return self

    async def stop(self) -> None:
        if self._front is not None:
            front, self._front = self._front, None
            await front.stop()
        if self._runner is not None:
            await self.gateway.close_all()
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Emulator:
        return await self.start()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.stop()

    @property
    def api_base(self) -> str:
        port = self._front.port if self._front is not None else self.port
        return f"http://{LOOPBACK}:{port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://{LOOPBACK}:{self.port}/"

    def bot_environment(self, database_url: str | None = None) -> dict[str, str]:
        """Environment for ``python -m bot`` pointed at this emulator (the bot's contract)."""
        env = {
            **os.environ,
            "DISCORD_API_BASE": self.api_base,
            "DISCORD_GATEWAY_URL": self.gateway_url,
            "DISCORD_TOKEN": self.token or "loopback-token",
        }
        if database_url is not None:
            env["DATABASE_URL"] = database_url
        return env

    # -- world helpers used by REST and by actors ---------------------------------------------

    def add_user(self, name: str, *, bot: bool = False) -> User:
        """A guild member the tests can act as."""
        user = self.world.add_user(name, bot=bot)
        self.world.add_member(self.guild, user)
        return user

    async def add_guild(
        self, name: str, *, shard: int | None = None, channel_name: str = "general"
    ) -> Guild:
        """Another guild with the bot in it and one text channel (``channel_of``); with
        ``shard``, its id is chosen so that its events go to that shard of ``shard_count``.
        A connected bot whose shard serves it gets GUILD_CREATE, as when it is invited."""
        count = self.gateway.shard_count
        guild_id = None if shard is None else self.snowflakes.next_on_shard(shard, count)
        guild = self.world.add_guild(name, guild_id=guild_id)
        self.world.add_member(guild, self.bot_user)
        self.world.add_text_channel(guild, channel_name)
        if self.gateway.serves(guild.id):
            payload = guild_payload(guild, self.world, bot=self.bot_user)
            await self.gateway.dispatch("GUILD_CREATE", payload)
        self.notifier.changed()
        return guild

    def channel_of(self, guild: Guild) -> Channel:
        """The guild's first text channel (#general of ``add_guild``)."""
        return self.world.channels[guild.channel_ids[0]]

    def shard_of(self, guild: Guild | int | None) -> int:
        """The shard the guild's events go to (``None``, a DM: shard 0)."""
        guild_id = guild.id if isinstance(guild, Guild) else guild
        return self.gateway.shard_of(guild_id)

    def add_member(self, guild: Guild, user: User) -> None:
        """``user`` joins ``guild`` too (the bot has no member intent: no event)."""
        self.world.add_member(guild, user)

    async def add_channel(self, name: str, *, guild: Guild | None = None) -> Channel:
        """A new text channel in ``guild`` (default: the default guild); a connected bot
        whose shard serves the guild learns of it via CHANNEL_CREATE."""
        guild = guild or self.guild
        channel = self.world.add_text_channel(guild, name)
        if self.gateway.serves(guild.id):
            await self.gateway.dispatch("CHANNEL_CREATE", channel_payload(channel, self.world))
        return channel

    async def add_thread(self, name: str, *, owner: User, parent: Channel | None = None) -> Channel:
        """A public thread (type 11) under ``parent`` (default #general), started by ``owner``.

        A connected bot learns of it via THREAD_CREATE with ``newly_created``; a bot that
        connects later finds it in GUILD_CREATE's ``threads``. It is a channel of its own:
        post, edit and interact in it with the usual routes and ``channel=`` arguments.
        """
        thread = self.world.add_public_thread(parent or self.channel, name, owner)
        if self.gateway.serves(thread.guild_id):
            payload = {**thread_payload(thread, self.world), "newly_created": True}
            await self.gateway.dispatch("THREAD_CREATE", payload)
        self.notifier.changed()
        return thread

    async def archive_thread(self, thread: Channel, *, locked: bool = False) -> None:
        """Archive ``thread`` (and lock it if ``locked``), as a moderator or the auto-archive
        timer would; a connected bot gets THREAD_UPDATE.

        From then on edits and deletes of its messages answer 400 / 50083 ("Thread is
        archived"); the bot's next message unarchives it (see ``unarchive_thread``) unless it is
        locked, in which case the message is refused with 50083 as well.
        """
        if not thread.is_thread:
            raise ValueError(f"only threads can be archived, not {thread!r}")
        thread.archived, thread.locked = True, locked
        await self._thread_changed(thread)

    async def unarchive_thread(self, thread: Channel) -> None:
        """Make ``thread`` active again (also unlocks it); a connected bot gets THREAD_UPDATE.

        The REST API calls this when the bot posts into an archived, unlocked thread.
        """
        thread.archived = thread.locked = False
        await self._thread_changed(thread)

    async def _thread_changed(self, thread: Channel) -> None:
        thread.archive_changed_at = time.time()
        if self.gateway.serves(thread.guild_id):
            await self.gateway.dispatch("THREAD_UPDATE", thread_payload(thread, self.world))
        self.notifier.changed()

    def add_actor(
        self, name: str, *, locale: str = "en-US", guilds: tuple[Guild, ...] = ()
    ) -> Actor:
        """A new member of the default guild (and of ``guilds``) and the handle to act as them."""
        user = self.add_user(name)
        for guild in guilds:
            self.world.add_member(guild, user)
        return Actor(self, user, locale=locale)

    def close_dms(self, user: User) -> None:
        """Sending to this user's DM channel will fail with 403 / 50007 from now on."""
        user.dms_open = False

    def open_dms(self, user: User) -> None:
        user.dms_open = True

    def new_interaction_token(self) -> str:
        return "lb_" + secrets.token_urlsafe(24)

    async def post_message_as_bot(
        self,
        channel: Channel,
        body: dict[str, Any],
        *,
        interaction_id: int | None = None,
        webhook_id: int | None = None,
        viewer_id: int | None = None,
    ) -> Message:
        message = self.world.create_message(
            channel,
            self.bot_user,
            body,
            interaction_id=interaction_id,
            webhook_id=webhook_id,
            viewer_id=viewer_id,
        )
        await self._echo("MESSAGE_CREATE", message)
        self.notifier.changed()
        return message

    async def create_channel_message(
        self, author: User, channel: Channel, body: dict[str, Any]
    ) -> tuple[Message, bool]:
        """A message by ``author`` in ``channel`` (``POST /channels/{id}/messages``), honouring
        ``enforce_nonce``: returns ``(message, duplicate)``, where a duplicate is the message
        this author already created with the same nonce in this channel within
        ``nonce_window`` (nothing new is created or dispatched; it may be deleted by now).

        The lookup and the creation run without an ``await`` in between, so two concurrent
        requests with one nonce still make one message.
        """
        nonce = body.get("nonce")
        enforced = nonce is not None and bool(body.get("enforce_nonce"))
        if enforced:
            existing = self.nonces.find(channel.id, author.id, nonce)
            if existing is not None:
                self.nonces.absorbed += 1
                self.notifier.changed()
                return self.world.messages[existing], True
        message = self.world.create_message(channel, author, body)
        if enforced:
            self.nonces.remember(channel.id, author.id, nonce, message.id)
        await self._echo("MESSAGE_CREATE", message)
        self.notifier.changed()
        return message, False

    async def edit_message_as_bot(self, message: Message, body: dict[str, Any]) -> Message:
        if "attachments" in body:
            attached = self.world.attachments(
                message.channel_id, body["attachments"], message.attachments
            )
            body = {**body, "attachments": attached}
        message.apply(body)
        await self._echo("MESSAGE_UPDATE", message)
        self.notifier.changed()
        return message

    async def delete_message(self, message: Message) -> None:
        message.deleted = True
        channel = self.world.channels[message.channel_id]
        if not message.ephemeral and self._echo_wanted(channel):
            payload: dict[str, Any] = {"id": str(message.id), "channel_id": str(channel.id)}
            if channel.guild_id is not None:
                payload["guild_id"] = str(channel.guild_id)
            await self.gateway.dispatch("MESSAGE_DELETE", payload)
        self.notifier.changed()

    def _echo_wanted(self, channel: Channel) -> bool:
        intent = INTENT_DIRECT_MESSAGES if channel.is_dm else INTENT_GUILD_MESSAGES
        return self.echo_messages and self.gateway.wants(intent)

    async def _echo(self, event: str, message: Message) -> None:
        channel = self.world.channels[message.channel_id]
        if message.ephemeral or not self._echo_wanted(channel):
            return
        payload = message_payload(
            message, self.world, with_nonce=event == "MESSAGE_CREATE", gateway=True
        )
        await self.gateway.dispatch(event, payload)

    # -- queries for tests ----------------------------------------------------------------------

    def messages_in(self, channel: Channel) -> list[Message]:
        return self.world.messages_in(channel)

    def ephemerals_for(self, user: User) -> list[Message]:
        """Ephemeral answers the bot showed ``user``, oldest first."""
        return self.world.ephemerals_for(user)

    def dms_of(self, user: User) -> list[Message]:
        """The messages the bot has sent to ``user`` in DMs, oldest first."""
        channel = self.world.existing_dm_channel(user)
        return [] if channel is None else self.world.messages_in(channel)

    def answer_latencies(self) -> dict[int, float | None]:
        """Every interaction's wait for its answer: interaction id → seconds from dispatch to
        the first callback reaching the emulator (late ones included), None if none came."""
        return {record.id: record.latency for record in self.interactions.values()}

    def late_interactions(self, deadline: float | None = None) -> list[LateInteraction]:
        """Interactions whose first callback came after ``deadline`` (default: the emulator's
        ``interaction_deadline``, or Discord's 3 s when that is off), and those never answered
        although the deadline has passed (``waited is None``), oldest first."""
        if deadline is None:
            deadline = self.interaction_deadline or INTERACTION_DEADLINE_SECONDS
        now = time.perf_counter()
        late = []
        for record in self.interactions.values():
            waited = record.latency
            if waited is not None and waited > deadline:
                late.append(LateInteraction(record, waited))
            elif waited is None and record.dispatched_at is not None and record.age(now) > deadline:
                late.append(LateInteraction(record, None))
        return late

    def calls(self, method: str | None = None, path_contains: str = "") -> list[RestCall]:
        return [
            c
            for c in self.rest_calls
            if (method is None or c.method == method) and path_contains in c.path
        ]

    async def wait_for(
        self, predicate: Any, *, timeout: float = 5.0, what: str = "condition"
    ) -> Any:
        """Await until ``predicate()`` is truthy; returns its value (fails after ``timeout``)."""
        return await self.notifier.wait_for(predicate, timeout=timeout, what=what)

    def register_interaction(self, record: InteractionRecord) -> None:
        """Remember the interaction; beyond ``record_limit`` the oldest is forgotten (its token
        then answers 10062/10015, as an expired one would)."""
        self.interactions[record.id] = record
        self.interactions_by_token[record.token] = record
        if len(self.interactions) > self.record_limit:
            oldest = self.interactions.pop(next(iter(self.interactions)))
            self.interactions_by_token.pop(oldest.token, None)

    async def dispatch_interaction(
        self, record: InteractionRecord, payload: dict[str, Any]
    ) -> None:
        self.register_interaction(record)
        record.payload = payload
        if record.dispatched_at is None:
            record.dispatched_at = time.perf_counter()
        record.deliveries += 1
        await self.gateway.dispatch("INTERACTION_CREATE", payload)

    async def redeliver(self, record: InteractionRecord) -> None:
        """Fault: send the same INTERACTION_CREATE again (same id and token), as an
        at-least-once delivery would. A second callback is answered 400/40060; a well-behaved
        bot must not apply the action twice."""
        record.deliveries += 1
        await self.gateway.dispatch("INTERACTION_CREATE", record.payload)
