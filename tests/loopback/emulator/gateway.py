"""The websocket gateway: HELLO, IDENTIFY/READY, heartbeats, dispatch, RESUME with replay.

One bot session at a time (a single, unsharded bot). Every DISPATCH gets a sequence
number and is kept in a bounded replay buffer, so a client that RESUMEs after a drop
receives exactly the frames it missed. Gateway faults act on the live socket from here.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

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


@dataclass
class GatewaySession:
    """A logical bot session; it outlives individual sockets until invalidated."""

    session_id: str
    intents: int
    replay_limit: int
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


class Gateway:
    """Serves the gateway websocket and dispatches events to the bot's current session."""

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
        self.session: GatewaySession | None = None
        self.stats = GatewayStats()
        self.ack_heartbeats = True
        """Set False to simulate a zombie connection: the client times out and RESUMEs."""
        self.frames_sent: deque[dict[str, Any]] = deque(maxlen=record_limit)
        self.frames_received: deque[dict[str, Any]] = deque(maxlen=record_limit)
        self._pending: list[tuple[str, dict[str, Any]]] = []
        self._sockets: set[web.WebSocketResponse] = set()
        self._transports: dict[web.WebSocketResponse, asyncio.BaseTransport] = {}

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
            if self.session is not None and self.session.socket is socket:
                self.session.socket = None
            self._emulator.notifier.changed()
        return socket

    async def close_all(self) -> None:
        for socket in list(self._sockets):
            await socket.close(code=1001)

    @property
    def connected(self) -> bool:
        """True while a session has a live socket that has completed IDENTIFY or RESUME."""
        return self.session is not None and self.session.socket is not None

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
        await self._detach_current_socket(except_for=socket)
        self.stats.identifies += 1
        self.session = GatewaySession(
            session_id=secrets.token_hex(16),
            intents=int(data.get("intents") or 0),
            replay_limit=self.replay_limit,
            socket=socket,
        )
        emulator = self._emulator
        bot = emulator.bot_user
        ready = {
            "v": 10,
            "user": {**user_payload(bot), "verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": str(gid), "unavailable": True} for gid in emulator.world.guilds],
            "session_id": self.session.session_id,
            "resume_gateway_url": emulator.gateway_url,
            "application": {"id": str(bot.id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "_trace": ["loopback"],
        }
        shard = data.get("shard")
        if shard is not None:
            ready["shard"] = shard
        await self.dispatch("READY", ready)
        for guild in emulator.world.guilds.values():
            await self.dispatch("GUILD_CREATE", guild_payload(guild, emulator.world, bot=bot))
        pending, self._pending = self._pending, []
        for event, payload in pending:
            await self.dispatch(event, payload)

    async def _resume(self, socket: web.WebSocketResponse, data: dict[str, Any]) -> None:
        session = self.session
        last_seq = int(data.get("seq") or 0)
        oldest_kept = session.buffer[0][0] if session and session.buffer else None
        replay_gap = oldest_kept is not None and oldest_kept > last_seq + 1
        if session is None or data.get("session_id") != session.session_id or replay_gap:
            self.stats.invalid_sessions_sent += 1
            await self._send(socket, {"op": OP_INVALID_SESSION, "d": False})
            return
        await self._detach_current_socket(except_for=socket)
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

    async def _detach_current_socket(self, *, except_for: web.WebSocketResponse) -> None:
        """A session has one socket; a new IDENTIFY or RESUME closes the previous one."""
        if self.session is not None and self.session.socket not in (None, except_for):
            old = self.session.socket
            self.session.socket = None
            await old.close(code=4009)

    # -- outbound ----------------------------------------------------------------------------

    async def _send(self, socket: web.WebSocketResponse, frame: dict[str, Any]) -> None:
        self.frames_sent.append(frame)
        with contextlib.suppress(ConnectionError):
            await socket.send_str(json.dumps(frame))

    def wants(self, intent: int) -> bool:
        return self.session is not None and bool(self.session.intents & intent)

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a DISPATCH to the bot's session, buffering it for RESUME replay.

        Events dispatched while no session exists (before the first IDENTIFY, or after an
        invalidation) are queued and delivered after the next READY, so a test's click is
        never silently lost; they are counted in ``stats`` via the frame log.
        """
        session = self.session
        if session is None:
            if len(self._pending) >= self.replay_limit:
                del self._pending[0]
            self._pending.append((event, data))
            return
        session.seq += 1
        frame = {"op": OP_DISPATCH, "t": event, "s": session.seq, "d": data}
        text = json.dumps(frame)
        session.buffer.append((session.seq, text))
        self.frames_sent.append(frame)
        if session.socket is not None:
            with contextlib.suppress(ConnectionError):
                await session.socket.send_str(text)

    # -- faults --------------------------------------------------------------------------------

    async def drop(self, code: int = 4000) -> None:
        """Close the bot's socket with a resumable code; the client reconnects and RESUMEs."""
        if self.session is not None and self.session.socket is not None:
            socket, self.session.socket = self.session.socket, None
            await socket.close(code=code, message=b"dropped by emulator")

    def abort_transport(self) -> None:
        """Cut the TCP connection without a close frame (a network failure)."""
        if self.session is not None and self.session.socket is not None:
            socket, self.session.socket = self.session.socket, None
            transport = self._transports.get(socket)
            if transport is not None:
                transport.abort()

    async def send_reconnect(self) -> None:
        """Op 7: Discord asks the client to reconnect and RESUME."""
        if self.session is not None and self.session.socket is not None:
            await self._send(self.session.socket, {"op": OP_RECONNECT, "d": None})

    async def invalidate_session(self, *, resumable: bool = False) -> None:
        """Op 9. With ``resumable=False`` the session is forgotten and the bot must IDENTIFY."""
        session = self.session
        if session is None:
            return
        socket = session.socket
        if not resumable:
            self.session = None
        self.stats.invalid_sessions_sent += 1
        if socket is not None:
            await self._send(socket, {"op": OP_INVALID_SESSION, "d": resumable})

    async def wait_connected(self, *, timeout: float = 5.0) -> None:
        await self._emulator.notifier.wait_for(
            lambda: self.connected, timeout=timeout, what="the bot's gateway session"
        )
