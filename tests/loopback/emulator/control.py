"""A small HTTP control API (``/_loopback/...``) for driving a standalone emulator process.

When the emulator runs as its own process (``python -m tests.loopback.emulator``), a test
or benchmark in another process acts as users and injects faults through these routes.
Every route answers JSON; waits are bounded by the ``timeout`` the caller passes (max 60 s).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from .actors import ActionRefused, Actor
from .http_util import json_answer
from .interactions import InteractionRecord
from .notify import WaitTimeout
from .payloads import message_payload

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
            ("POST", "/users/{user}/dms", self.set_dms),
            ("POST", "/act/{action}", self.act),
            ("GET", "/interactions/{interaction}", self.interaction),
            ("GET", "/channels/{channel}/messages", self.channel_messages),
            ("POST", "/faults", self.add_fault),
            ("POST", "/gateway/{fault}", self.gateway_fault),
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
                "identifies": stats.identifies,
                "resumes": stats.resumes,
                "commands": [c["name"] for c in emu.commands.get(None, [])],
                "unhandled": emu.unhandled,
            }
        )

    async def add_user(self, request: web.Request) -> web.Response:
        body = await request.json()
        user = self._emu.add_user(body["name"])
        dm = self._emu.world.dm_channel(user)
        return json_answer({"user_id": str(user.id), "dm_channel_id": str(dm.id)})

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
        """{kind: fail|rate_limit|delay, method, path_pattern, ...keyword arguments}."""
        body = dict(await request.json())
        kind = body.pop("kind")
        plan = self._emu.faults
        makers = {"fail": plan.fail, "rate_limit": plan.rate_limit, "delay": plan.delay}
        if kind not in makers:
            raise web.HTTPBadRequest(text=f"unknown fault kind {kind}")
        makers[kind](body.pop("method"), body.pop("path_pattern"), **body)
        return json_answer({"faults": len(plan.rules)})

    async def gateway_fault(self, request: web.Request) -> web.Response:
        """``drop`` {code?}, ``abort``, ``reconnect``, ``invalidate`` {resumable?}."""
        gateway = self._emu.gateway
        body = await request.json() if request.can_read_body else {}
        fault = request.match_info["fault"]
        if fault == "drop":
            await gateway.drop(code=int(body.get("code", 4000)))
        elif fault == "abort":
            gateway.abort_transport()
        elif fault == "reconnect":
            await gateway.send_reconnect()
        elif fault == "invalidate":
            await gateway.invalidate_session(resumable=bool(body.get("resumable", False)))
        else:
            raise web.HTTPNotFound(text=f"unknown gateway fault {fault}")
        return json_answer({"done": fault})
