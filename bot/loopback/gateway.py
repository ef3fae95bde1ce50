"""The websocket gateway: HELLO, IDENTIFY/READY, heartbeats, dispatch, RESUME with replay.

One session per shard, as on Discord: an IDENTIFY with ``shard: [id, count]`` opens the session
of shard ``id`` (an IDENTIFY without ``shard`` is shard ``[0, 1]``); several processes may each
hold some shards. Every event goes to one shard: a guild's to ``(guild_id >> 22) % count``,
everything without a guild (DMs, clicks in DMs) to shard 0. Every DISPATCH gets its session's
next sequence number and is kept in a bounded replay buffer, so a client that RESUMEs after a
drop receives exactly the frames it missed. Gateway faults act on the live sockets from here
(every shard's, or one shard's).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections import Counter, deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson
from aiohttp import WSMsgType, web

from .payloads import guild_payload, member_payload, user_payload

if TYPE_CHECKING:
    from .server import Emulator

log = logging.getLogger(__name__)

OP_DISPATCH = 0
OP_HEARTBEAT = 1
OP_IDENTIFY = 2
OP_RESUME = 6
OP_RECONNECT = 7
OP_REQUEST_GUILD_MEMBERS = 8
OP_INVALID_SESSION = 9
OP_HELLO = 10
OP_HEARTBEAT_ACK = 11

INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12

CLOSE_AUTHENTICATION_FAILED = 4004
CLOSE_INVALID_SHARD = 4010
CLOSE_SHARDING_REQUIRED = 4011

GUILD_EVENTS = frozenset({"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"})
"""Events whose guild is their own ``id`` rather than a ``guild_id`` field."""


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard Discord sends a guild's events to; events without a guild go to shard 0."""
    if guild_id is None:
        return 0
    return (guild_id >> 22) % shard_count


def event_guild(event: str, data: dict[str, Any]) -> int | None:
    """The guild an event belongs to, if any (what routes it to a shard)."""
    value = data.get("id") if event in GUILD_EVENTS else data.get("guild_id")
    return None if value is None else int(value)


@dataclass
class GatewaySession:
    """A logical bot session; it outlives individual sockets until invalidated."""

    session_id: str
    intents: int
    replay_limit: int
    shard_id: int = 0
    shard_count: int = 1
    seq: int = 0
    socket: web.WebSocketResponse | None = None
    buffer: deque[tuple[int, str]] = field(default_factory=deque)

    def __post_init__(self) -> None:
        self.buffer = deque(maxlen=self.replay_limit)


@dataclass
class GatewayStats:
    connections: int = 0
    identifies: int = 0
    resumes: int = 0
    replayed_frames: int = 0
    heartbeats: int = 0
    invalid_sessions_sent: int = 0
    identifies_by_shard: Counter[int] = field(default_factory=Counter)
    dispatched_by_shard: Counter[int] = field(default_factory=Counter)


class Gateway:
    """Serves the gateway websocket and dispatches each event to its shard's session."""

    def __init__(
        self,
        emulator: Emulator,
        *,
        heartbeat_interval_ms: int = 41_250,
        replay_limit: int = 10_000,
        record_limit: int = 10_000,
    ) -> None:
        self._emulator = emulator
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.replay_limit = replay_limit
        self.sessions: dict[int, GatewaySession] = {}
        """The live session of each shard (by shard id)."""
        self.stats = GatewayStats()
        self.ack_heartbeats = True
        """Set False to simulate a zombie connection: the client times out and RESUMEs."""
        self.frames_sent: deque[dict[str, Any]] = deque(maxlen=record_limit)
        self.frames_received: deque[dict[str, Any]] = deque(maxlen=record_limit)
        self._pending: list[tuple[str, dict[str, Any]]] = []
        self._sockets: set[web.WebSocketResponse] = set()
        self._transports: dict[web.WebSocketResponse, asyncio.BaseTransport] = {}
        self._identified_count: int | None = None

    # -- shards --------------------------------------------------------------------------------

    @property
    def shard_count(self) -> int:
        """How many shards events are split over: the count the bot identified with (the
        emulator's recommended ``shard_count`` before any IDENTIFY)."""
        if self._identified_count is not None:
            return self._identified_count
        return self._emulator.shard_count

    @property
    def session(self) -> GatewaySession | None:
        """Shard 0's session: the only one of an unsharded bot."""
        return self.sessions.get(0)

    def shard_of(self, guild_id: int | None) -> int:
        return shard_of(guild_id, self.shard_count)

    def serves(self, guild_id: int | None) -> bool:
        """The shard of this guild (of DMs: shard 0) has a session to send its events to."""
        return self.shard_of(guild_id) in self.sessions

    def connected_shards(self) -> list[int]:
        """The shards whose session has a live socket, in order."""
        return sorted(sid for sid, session in self.sessions.items() if session.socket is not None)

    def is_connected(self, shard: int = 0) -> bool:
        session = self.sessions.get(shard)
        return session is not None and session.socket is not None

    def _selected(self, shard: int | None) -> list[GatewaySession]:
        """Every session (``shard=None``) or that shard's, if it has one."""
        if shard is None:
            return list(self.sessions.values())
        session = self.sessions.get(shard)
        return [] if session is None else [session]

    # -- connection lifecycle -------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await socket.prepare(request)
        self._sockets.add(socket)
        if request.transport is not None:
            self._transports[socket] = request.transport
        self.stats.connections += 1
        self._emulator.notifier.changed()
        try:
            await self._send(
                socket,
                {
                    "op": OP_HELLO,
                    "d": {"heartbeat_interval": self.heartbeat_interval_ms, "_trace": ["loopback"]},
                },
            )
            async for message in socket:
                if message.type != WSMsgType.TEXT:
                    continue
                await self._on_frame(socket, json.loads(message.data))
        except ConnectionError:
            log.debug("gateway socket reset", exc_info=True)
        finally:
            self._sockets.discard(socket)
            self._transports.pop(socket, None)
            for session in self.sessions.values():
                if session.socket is socket:
                    session.socket = None
            self._emulator.notifier.changed()
        return socket

    async def close_all(self) -> None:
        for socket in list(self._sockets):
            await socket.close(code=1001)

    @property
    def connected(self) -> bool:
        """True while there is a session and every session has a live socket that has
        completed IDENTIFY or RESUME (one bot: its connection is up)."""
        return bool(self.sessions) and all(s.socket is not None for s in self.sessions.values())

    # -- inbound frames ----------------------------------------------------------------------

    async def _on_frame(self, socket: web.WebSocketResponse, frame: dict[str, Any]) -> None:
        self.frames_received.append(frame)
        op = frame.get("op")
        data = frame.get("d")
        if op == OP_HEARTBEAT:
            self.stats.heartbeats += 1
            if self.ack_heartbeats:
                await self._send(socket, {"op": OP_HEARTBEAT_ACK})
        elif op == OP_IDENTIFY:
            await self._identify(socket, data)
        elif op == OP_RESUME:
            await self._resume(socket, data)
        elif op == OP_REQUEST_GUILD_MEMBERS:
            await self._send_member_chunk(data)
        self._emulator.notifier.changed()

    async def _identify(self, socket: web.WebSocketResponse, data: dict[str, Any]) -> None:
        expected = self._emulator.token
        if not data.get("token") or (expected is not None and data["token"] != expected):
            await socket.close(code=CLOSE_AUTHENTICATION_FAILED, message=b"Authentication failed.")
            return
        shard = data.get("shard")
        shard_id, shard_count = (0, 1) if shard is None else (int(shard[0]), int(shard[1]))
        if shard_count < 1 or not 0 <= shard_id < shard_count:
            await socket.close(code=CLOSE_INVALID_SHARD, message=b"Invalid shard.")
            return
        emulator = self._emulator
        guilds = [
            guild
            for guild in emulator.world.guilds.values()
            if shard_of(guild.id, shard_count) == shard_id
        ]
        limit = emulator.max_guilds_per_shard
        if limit is not None and len(guilds) > limit:
            await socket.close(code=CLOSE_SHARDING_REQUIRED, message=b"Sharding required.")
            return
        previous = self.sessions.get(shard_id)
        if previous is not None and previous.socket not in (None, socket):
            old, previous.socket = previous.socket, None
            await old.close(code=4009)
        self.stats.identifies += 1
        self.stats.identifies_by_shard[shard_id] += 1
        self._identified_count = shard_count
        session = GatewaySession(
            session_id=secrets.token_hex(16),
            intents=int(data.get("intents") or 0),
            replay_limit=self.replay_limit,
            shard_id=shard_id,
            shard_count=shard_count,
            socket=socket,
        )
        self.sessions[shard_id] = session
        bot = emulator.bot_user
        ready = {
            "v": 10,
            "user": {**user_payload(bot), "verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": str(guild.id), "unavailable": True} for guild in guilds],
            "session_id": session.session_id,
            "resume_gateway_url": emulator.gateway_url,
            "application": {"id": str(bot.id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "_trace": ["loopback"],
        }
        if shard is not None:
            ready["shard"] = [shard_id, shard_count]
        await self._send_to(session, "READY", ready)
        for guild in guilds:
            await self._send_to(
                session, "GUILD_CREATE", guild_payload(guild, emulator.world, bot=bot)
            )
        waiting, self._pending = self._pending, []
        for event, payload in waiting:
            await self.dispatch(event, payload)

    async def _resume(self, socket: web.WebSocketResponse, data: dict[str, Any]) -> None:
        session = next(
            (s for s in self.sessions.values() if s.session_id == data.get("session_id")), None
        )
        last_seq = int(data.get("seq") or 0)
        oldest_kept = session.buffer[0][0] if session and session.buffer else None
        replay_gap = oldest_kept is not None and oldest_kept > last_seq + 1
        if session is None or replay_gap:
            self.stats.invalid_sessions_sent += 1
            await self._send(socket, {"op": OP_INVALID_SESSION, "d": False})
            return
        if session.socket not in (None, socket):
            old, session.socket = session.socket, None
            await old.close(code=4009)
        session.socket = socket
        self.stats.resumes += 1
        for seq, text in list(session.buffer):
            if seq > last_seq:
                self.stats.replayed_frames += 1
                await socket.send_str(text)
        await self._send(socket, {"op": OP_DISPATCH, "t": "RESUMED", "s": session.seq, "d": {}})

    async def _send_member_chunk(self, data: dict[str, Any]) -> None:
        world = self._emulator.world
        guild = world.guilds.get(int(data["guild_id"]))
        members = [] if guild is None else [world.users[uid] for uid in guild.member_ids]
        chunk = {
            "guild_id": data["guild_id"],
            "members": [member_payload(user) for user in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        await self.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    # -- outbound ----------------------------------------------------------------------------

    async def _send(self, socket: web.WebSocketResponse, frame: dict[str, Any]) -> None:
        self.frames_sent.append(frame)
        with contextlib.suppress(ConnectionError):
            await socket.send_str(json.dumps(frame))

    def wants(self, intent: int) -> bool:
        """Some session asked for ``intent`` (all shards of one bot identify alike)."""
        return any(session.intents & intent for session in self.sessions.values())

    async def dispatch(self, event: str, data: dict[str, Any], *, shard: int | None = None) -> None:
        """Send a DISPATCH to the session of the event's shard (``shard``, or the one its guild
        routes to: ``(guild_id >> 22) % shard_count``, shard 0 without a guild), buffering it
        for RESUME replay.

        Events for a shard that has no session (before its first IDENTIFY, or after an
        invalidation) are queued and delivered after a READY of that shard, so a test's click
        is never silently lost.
        """
        target = self.shard_of(event_guild(event, data)) if shard is None else shard
        session = self.sessions.get(target)
        if session is None:
            if len(self._pending) >= self.replay_limit:
                del self._pending[0]
            self._pending.append((event, data))
            return
        await self._send_to(session, event, data)

    async def _send_to(self, session: GatewaySession, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        frame = {"op": OP_DISPATCH, "t": event, "s": session.seq, "d": data}
        text = orjson.dumps(frame).decode()
        session.buffer.append((session.seq, text))
        self.frames_sent.append({**frame, "shard": session.shard_id})
        self.stats.dispatched_by_shard[session.shard_id] += 1
        if session.socket is not None:
            with contextlib.suppress(ConnectionError):
                await session.socket.send_str(text)

    # -- faults (every shard's session, or one shard's with ``shard=``) -----------------------

    async def drop(self, code: int = 4000, *, shard: int | None = None) -> None:
        """Close the bot's socket with a resumable code; the client reconnects and RESUMEs."""
        for session in self._selected(shard):
            if session.socket is not None:
                socket, session.socket = session.socket, None
                await socket.close(code=code, message=b"dropped by emulator")

    def abort_transport(self, *, shard: int | None = None) -> None:
        """Cut the TCP connection without a close frame (a network failure)."""
        for session in self._selected(shard):
            if session.socket is not None:
                socket, session.socket = session.socket, None
                transport = self._transports.get(socket)
                if transport is not None:
                    transport.abort()

    async def send_reconnect(self, *, shard: int | None = None) -> None:
        """Op 7: Discord asks the client to reconnect and RESUME."""
        for session in self._selected(shard):
            if session.socket is not None:
                await self._send(session.socket, {"op": OP_RECONNECT, "d": None})

    async def invalidate_session(
        self, *, resumable: bool = False, shard: int | None = None
    ) -> None:
        """Op 9. With ``resumable=False`` the session is forgotten and the bot must IDENTIFY."""
        for session in self._selected(shard):
            if not resumable:
                del self.sessions[session.shard_id]
            self.stats.invalid_sessions_sent += 1
            if session.socket is not None:
                await self._send(session.socket, {"op": OP_INVALID_SESSION, "d": resumable})

    async def wait_connected(
        self, *, timeout: float = 5.0, shards: Iterable[int] | None = None
    ) -> None:
        """Until the bot's connection is up (``shards``: until each of these shards' is)."""
        wanted = None if shards is None else list(shards)

        def up() -> bool:
            if wanted is None:
                return self.connected
            return all(self.is_connected(shard) for shard in wanted)

        await self._emulator.notifier.wait_for(
            up, timeout=timeout, what=f"the bot's gateway session (shards {wanted or 'all'})"
        )
