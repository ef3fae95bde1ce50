"""A small HTTP control API (``/_loopback/...``) for driving a standalone emulator process.

When the emulator runs as its own process (``python -m bot.loopback``), a test
or benchmark in another process acts as users and injects faults through these routes.
Every route answers JSON; waits are bounded by the ``timeout`` the caller passes (max 60 s).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from .actors import ActionRefused, Actor
from .http_util import json_answer
from .interactions import InteractionRecord
from .model import Guild
from .notify import WaitTimeout
from .payloads import message_payload
from .ratelimits import RateLimits, RouteLimit

if TYPE_CHECKING:
    from .server import Emulator

PREFIX = "/_loopback"
MAX_WAIT_SECONDS = 60.0


class ControlApi:
    def __init__(self, emulator: Emulator) -> None:
        self._emu = emulator

    def install(self, app: web.Application) -> None:
        routes = [
            ("GET", "/state", self.state),
            ("POST", "/users", self.add_user),
            ("POST", "/guilds", self.add_guild),
            ("POST", "/guilds/{guild}/members", self.add_member),
            ("POST", "/users/{user}/dms", self.set_dms),
            ("POST", "/act/{action}", self.act),
            ("GET", "/interactions/{interaction}", self.interaction),
            ("GET", "/channels/{channel}/messages", self.channel_messages),
            ("GET", "/faults", self.list_faults),
            ("POST", "/faults", self.add_fault),
            ("DELETE", "/faults", self.clear_faults),
            ("POST", "/gateway/{fault}", self.gateway_fault),
            ("GET", "/rate_limits", self.get_rate_limits),
            ("PUT", "/rate_limits", self.put_rate_limits),
            ("POST", "/rate_limits/reset", self.reset_rate_limits),
            ("GET", "/settings", self.get_settings),
            ("PUT", "/settings", self.put_settings),
            ("GET", "/refused_payloads", self.refused_payloads),
            ("GET", "/answer_latencies", self.answer_latencies),
            ("GET", "/late_interactions", self.late_interactions),
        ]
        for method, path, handler in routes:
            app.router.add_route(method, PREFIX + path, handler)

    def _actor(self, user_id: Any) -> Actor:
        user = self._emu.world.users.get(int(user_id))
        if user is None:
            raise web.HTTPNotFound(text=f"unknown user {user_id}")
        return Actor(self._emu, user)

    async def state(self, request: web.Request) -> web.Response:
        emu = self._emu
        stats = emu.gateway.stats
        return json_answer(
            {
                "api_base": emu.api_base,
                "gateway_url": emu.gateway_url,
                "guild_id": str(emu.guild.id),
                "channel_id": str(emu.channel.id),
                "bot_user_id": str(emu.bot_user.id),
                "connected": emu.gateway.connected,
                "shard_count": emu.gateway.shard_count,
                "shards": {
                    str(shard): {
                        "connected": session.socket is not None,
                        "identifies": stats.identifies_by_shard[shard],
                        "dispatched": stats.dispatched_by_shard[shard],
                    }
                    for shard, session in sorted(emu.gateway.sessions.items())
                },
                "identifies": stats.identifies,
                "resumes": stats.resumes,
                "commands": [c["name"] for c in emu.commands.get(None, [])],
                "unhandled": emu.unhandled,
                "served_429s": emu.rate_limits.served_429s,
                "refused_payloads": len(emu.refused_payloads),
                "duplicates_absorbed": emu.nonces.absorbed,
            }
        )

    async def add_user(self, request: web.Request) -> web.Response:
        """{name, guild_ids?}: a member of the default guild (and of those guilds)."""
        body = await request.json()
        user = self._emu.add_user(body["name"])
        for guild_id in body.get("guild_ids") or []:
            self._emu.add_member(self._guild(guild_id), user)
        dm = self._emu.world.dm_channel(user)
        return json_answer({"user_id": str(user.id), "dm_channel_id": str(dm.id)})

    def _guild(self, guild_id: Any) -> Guild:
        guild = self._emu.world.guilds.get(int(guild_id))
        if guild is None:
            raise web.HTTPNotFound(text=f"unknown guild {guild_id}")
        return guild

    async def add_guild(self, request: web.Request) -> web.Response:
        """{name?, shard?}: a new guild with the bot and a #general channel; with ``shard``
        its events go to that shard. Answers {guild_id, channel_id, shard}."""
        body = await request.json() if request.can_read_body else {}
        shard = body.get("shard")
        count = self._emu.gateway.shard_count
        if shard is not None and not 0 <= int(shard) < count:
            raise web.HTTPBadRequest(text=f"shard {shard} is not one of {count} shards")
        guild = await self._emu.add_guild(
            body.get("name") or "Loopback Guild", shard=None if shard is None else int(shard)
        )
        return json_answer(
            {
                "guild_id": str(guild.id),
                "channel_id": str(self._emu.channel_of(guild).id),
                "shard": self._emu.shard_of(guild),
            }
        )

    async def add_member(self, request: web.Request) -> web.Response:
        """{user_id}: that user joins the guild."""
        guild = self._guild(request.match_info["guild"])
        user = self._actor((await request.json())["user_id"]).user
        self._emu.add_member(guild, user)
        return json_answer({"guild_id": str(guild.id), "user_id": str(user.id)})

    async def set_dms(self, request: web.Request) -> web.Response:
        actor = self._actor(request.match_info["user"])
        actor.user.dms_open = bool((await request.json())["open"])
        return json_answer({"open": actor.user.dms_open})

    async def act(self, request: web.Request) -> web.Response:
        """``slash`` {user_id, command, options, channel_id?}; ``click`` {user_id, message_id,
        label?, custom_id?}; ``select`` {user_id, message_id, values, custom_id?}."""
        body = await request.json()
        actor = self._actor(body["user_id"])
        world = self._emu.world
        action = request.match_info["action"]
        try:
            if action == "slash":
                channel = world.channels[int(body.get("channel_id") or self._emu.channel.id)]
                record = await actor.slash(
                    body["command"], channel=channel, **(body.get("options") or {})
                )
            elif action in ("click", "select"):
                message = world.messages[int(body["message_id"])]
                if action == "click":
                    record = await actor.click(
                        message, label=body.get("label"), custom_id=body.get("custom_id")
                    )
                else:
                    record = await actor.select(
                        message, body["values"], custom_id=body.get("custom_id")
                    )
            else:
                raise web.HTTPNotFound(text=f"unknown action {action}")
        except (ActionRefused, KeyError) as error:
            return json_answer({"refused": str(error)}, status=409)
        return json_answer({"interaction_id": str(record.id)})

    async def interaction(self, request: web.Request) -> web.Response:
        """The bot's answer; ``?wait=settled|acknowledged&timeout=5`` waits for it first."""
        record = self._emu.interactions.get(int(request.match_info["interaction"]))
        if record is None:
            raise web.HTTPNotFound(text="unknown interaction")
        timeout = min(float(request.query.get("timeout", 5)), MAX_WAIT_SECONDS)
        try:
            if request.query.get("wait") == "acknowledged":
                await record.response(timeout=timeout)
            elif request.query.get("wait") == "settled":
                await record.settled(timeout=timeout)
        except WaitTimeout as error:
            return json_answer({"timeout": str(error), **self._summary(record)}, status=408)
        return json_answer(self._summary(record))

    def _summary(self, record: InteractionRecord) -> dict[str, Any]:
        world = self._emu.world
        response = record.response_message
        return {
            "id": str(record.id),
            "acknowledged": record.acknowledged,
            "callback_type": record.callback_type,
            "ephemeral": record.ephemeral,
            "latency": record.latency,
            "rejected_followups": record.rejected_followups,
            "response_message": message_payload(response, world) if response else None,
            "followups": [message_payload(m, world) for m in record.followups],
            "rejected_callbacks": record.rejected_callbacks,
        }

    async def channel_messages(self, request: web.Request) -> web.Response:
        world = self._emu.world
        channel = world.channels.get(int(request.match_info["channel"]))
        if channel is None:
            raise web.HTTPNotFound(text="unknown channel")
        return json_answer([message_payload(m, world) for m in world.messages_in(channel)])

    async def add_fault(self, request: web.Request) -> web.Response:
        """{kind: fail|rate_limit|delay, method, path_pattern, ...keyword arguments}, or
        {kind: random, seed, rate_limited?, server_error?, slow?, slow_seconds?,
        retry_after?: [low, high], methods?: [...], path_pattern?, server_status?}."""
        body = dict(await request.json())
        kind = body.pop("kind")
        plan = self._emu.faults
        if kind == "random":
            if "retry_after" in body:
                body["retry_after"] = tuple(body["retry_after"])
            try:
                plan.randomly(**body)
            except (TypeError, ValueError) as error:
                raise web.HTTPBadRequest(text=str(error)) from None
            return json_answer(self._faults_summary())
        makers = {"fail": plan.fail, "rate_limit": plan.rate_limit, "delay": plan.delay}
        if kind not in makers:
            raise web.HTTPBadRequest(text=f"unknown fault kind {kind}")
        makers[kind](body.pop("method"), body.pop("path_pattern"), **body)
        return json_answer(self._faults_summary())

    def _faults_summary(self) -> dict[str, Any]:
        plan = self._emu.faults
        return {
            "faults": len(plan.rules),
            "rules": [
                {
                    "kind": r.kind,
                    "method": r.method,
                    "path_pattern": r.path_pattern,
                    "status": r.status,
                    "delay": r.delay,
                    "times": r.times,
                    "hits": r.hits,
                }
                for r in plan.rules
            ],
            "random": [p.describe() for p in plan.random_plans],
        }

    async def list_faults(self, request: web.Request) -> web.Response:
        return json_answer(self._faults_summary())

    async def clear_faults(self, request: web.Request) -> web.Response:
        self._emu.faults.clear()
        return json_answer(self._faults_summary())

    async def get_rate_limits(self, request: web.Request) -> web.Response:
        return json_answer(self._emu.rate_limits.describe())

    async def put_rate_limits(self, request: web.Request) -> web.Response:
        """Replace the policy: {preset: none|discord_like, time_scale?, global_limit?,
        global_window?, routes?: [{method, path_pattern, limit, per, name?}]}; ``routes``
        are added in front of the preset's (a route with the same method and pattern
        replaces the preset's), ``global_limit: null`` turns the global limit off."""
        body = await request.json()
        preset = body.get("preset", "none")
        try:
            if preset == "discord_like":
                policy = RateLimits.discord_like(time_scale=float(body.get("time_scale", 1.0)))
            elif preset == "none":
                policy = RateLimits()
            else:
                raise ValueError(f"unknown rate-limit preset {preset!r}")
            if "global_limit" in body:
                policy.global_limit = body["global_limit"]
            if "global_window" in body:
                policy.global_window = float(body["global_window"])
            for route in body.get("routes") or []:
                limit = RouteLimit(**route)
                policy.limit(
                    limit.method,
                    limit.path_pattern,
                    limit.limit,
                    limit.per,
                    name=route.get("name", ""),
                )
        except (TypeError, ValueError) as error:
            raise web.HTTPBadRequest(text=str(error)) from None
        self._emu.rate_limits = policy
        return json_answer(policy.describe())

    async def reset_rate_limits(self, request: web.Request) -> web.Response:
        """Forget every bucket's usage (the 429 counters stay)."""
        self._emu.rate_limits.reset()
        return json_answer(self._emu.rate_limits.describe())

    def _settings(self) -> dict[str, Any]:
        emu = self._emu
        return {
            "validate_payloads": emu.validate_payloads,
            "interaction_deadline": emu.interaction_deadline,
            "interaction_token_lifetime": emu.interaction_token_lifetime,
            "nonce_window": emu.nonces.window,
        }

    async def get_settings(self, request: web.Request) -> web.Response:
        return json_answer(self._settings())

    async def put_settings(self, request: web.Request) -> web.Response:
        """Any of {validate_payloads, interaction_deadline, interaction_token_lifetime,
        nonce_window}; null turns a deadline or lifetime off."""
        body = await request.json()
        emu = self._emu
        unknown = set(body) - set(self._settings())
        if unknown:
            raise web.HTTPBadRequest(text=f"unknown settings {sorted(unknown)}")
        if "validate_payloads" in body:
            emu.validate_payloads = bool(body["validate_payloads"])
        for name in ("interaction_deadline", "interaction_token_lifetime"):
            if name in body:
                setattr(emu, name, None if body[name] is None else float(body[name]))
        if "nonce_window" in body:
            emu.nonces.window = float(body["nonce_window"])
        return json_answer(self._settings())

    async def refused_payloads(self, request: web.Request) -> web.Response:
        return json_answer(
            [
                {"method": r.method, "path": r.path, "problems": r.problems, "code": r.code}
                for r in self._emu.refused_payloads
            ]
        )

    async def answer_latencies(self, request: web.Request) -> web.Response:
        """{interaction id: seconds to its first callback, or null if none came}."""
        latencies = self._emu.answer_latencies()
        return json_answer({str(i): wait for i, wait in latencies.items()})

    async def late_interactions(self, request: web.Request) -> web.Response:
        """``?deadline=3``: [{id, waited (null: never answered), answered, rejected_callbacks}]."""
        deadline = request.query.get("deadline")
        late = self._emu.late_interactions(None if deadline is None else float(deadline))
        return json_answer(
            [
                {
                    "id": str(item.record.id),
                    "waited": item.waited,
                    "answered": item.answered,
                    "rejected_callbacks": item.record.rejected_callbacks,
                }
                for item in late
            ]
        )

    async def gateway_fault(self, request: web.Request) -> web.Response:
        """``drop`` {code?}, ``abort``, ``reconnect``, ``invalidate`` {resumable?}; each with
        ``shard`` to act on that shard's session only (default: every session)."""
        gateway = self._emu.gateway
        body = await request.json() if request.can_read_body else {}
        fault = request.match_info["fault"]
        shard = None if body.get("shard") is None else int(body["shard"])
        if fault == "drop":
            await gateway.drop(code=int(body.get("code", 4000)), shard=shard)
        elif fault == "abort":
            gateway.abort_transport(shard=shard)
        elif fault == "reconnect":
            await gateway.send_reconnect(shard=shard)
        elif fault == "invalidate":
            await gateway.invalidate_session(
                resumable=bool(body.get("resumable", False)), shard=shard
            )
        else:
            raise web.HTTPNotFound(text=f"unknown gateway fault {fault}")
        return json_answer({"done": fault})
