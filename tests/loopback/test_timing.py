"""Wire-level checks (raw HTTP, no discord.py) of Discord's rules on time: the interaction
deadline and token lifetime, per-route and global rate limits, random and slow faults, and the
control routes for them. Windows and deadlines are short so nothing sleeps for long."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import aiohttp
import pytest

from bot.loopback import Emulator, InteractionRecord, RateLimits, RouteLimit
from bot.loopback.faults import (
    CHANNEL_MESSAGES,
    INTERACTION_CALLBACK,
    OPEN_DM,
)
from bot.loopback.ratelimits import major_parameter

from .conftest import AUTH, post_json, sync_ping

PONG = {"type": 4, "data": {"content": "pong"}}


def callback_path(record: InteractionRecord) -> str:
    return f"interactions/{record.id}/{record.token}/callback"


async def post(
    http: aiohttp.ClientSession, path: str, body: Any, **params: str
) -> tuple[int, dict[str, Any], dict[str, str]]:
    async with http.post(path, json=body, params=params) as response:
        return response.status, await response.json(), dict(response.headers)


# -- the interaction deadline and the token's lifetime ------------------------------------------


async def test_a_callback_after_the_deadline_gets_10062_and_the_interaction_stays_unanswered(
    http: aiohttp.ClientSession, emulator: Emulator
) -> None:
    emulator.interaction_deadline = 0.2
    await sync_ping(http, emulator)
    alice = emulator.add_actor("alice")
    prompt, late = await alice.slash("ping"), await alice.slash("ping")
    assert (await post_json(http, callback_path(prompt), PONG))[0] == 200
    await asyncio.sleep(0.25)

    status, body = await post_json(http, callback_path(late), PONG)

    assert (status, body["code"], body["message"]) == (404, 10062, "Unknown interaction")
    assert late.rejected_callbacks == [10062]
    assert not late.acknowledged and late.response_message is None
    assert [m.content for m in emulator.messages_in(emulator.channel)] == ["pong"]
    latencies = emulator.answer_latencies()
    assert latencies[prompt.id] is not None and latencies[prompt.id] < 0.2
    assert latencies[late.id] is not None and latencies[late.id] > 0.2
    [reported] = emulator.late_interactions()
    assert reported.record is late and reported.answered
    assert reported.waited == late.latency


async def test_the_default_deadline_is_three_seconds_from_the_first_dispatch(
    http: aiohttp.ClientSession, emulator: Emulator
) -> None:
    """Discord's 3 s, checked without sleeping: the records' dispatch times are moved back."""
    assert emulator.interaction_deadline == 3.0
    await sync_ping(http, emulator)
    alice = emulator.add_actor("alice")
    in_time, too_late = await alice.slash("ping"), await alice.slash("ping")
    assert in_time.dispatched_at is not None and too_late.dispatched_at is not None
    in_time.dispatched_at -= 2.9
    too_late.dispatched_at -= 3.05

    assert (await post_json(http, callback_path(in_time), PONG))[0] == 200
    status, body = await post_json(http, callback_path(too_late), PONG)
    assert (status, body["code"]) == (404, 10062)
    assert [item.record for item in emulator.late_interactions()] == [too_late]


async def test_a_redelivered_interaction_keeps_its_first_dispatch_time(
    http: aiohttp.ClientSession, emulator: Emulator
) -> None:
    """A replayed or redelivered INTERACTION_CREATE does not restart Discord's clock."""
    emulator.interaction_deadline = 0.2
    await sync_ping(http, emulator)
    record = await emulator.add_actor("alice").slash("ping")
    await asyncio.sleep(0.25)
    await emulator.redeliver(record)
    status, body = await post_json(http, callback_path(record), PONG)
    assert (status, body["code"]) == (404, 10062)
    assert record.deliveries == 2


async def test_the_deadline_is_measured_on_arrival_before_an_injected_delay(
    http: aiohttp.ClientSession, emulator: Emulator
) -> None:
    """A callback that reached Discord in time is accepted even if Discord is slow to answer."""
    emulator.interaction_deadline = 0.2
    emulator.faults.delay("POST", INTERACTION_CALLBACK, 0.3, times=1)
    await sync_ping(http, emulator)
    record = await emulator.add_actor("alice").slash("ping")
    started = time.perf_counter()
    status, _ = await post_json(http, callback_path(record), PONG)
    assert status == 200
    assert time.perf_counter() - started >= 0.3
    assert record.acknowledged and record.latency is not None and record.latency < 0.2
    [call] = emulator.calls("POST", "/callback")
    assert (call.injected, call.fault) == (True, "delay")


async def test_an_interaction_never_answered_is_reported_once_its_deadline_passed(
    http: aiohttp.ClientSession, emulator: Emulator
) -> None:
    emulator.interaction_deadline = 0.2
    await sync_ping(http, emulator)
    alice = emulator.add_actor("alice")
    ignored = await alice.slash("ping")
    await asyncio.sleep(0.25)
    fresh = await alice.slash("ping")  # still inside its deadline: not late (yet)

    [reported] = emulator.late_interactions()
    assert reported.record is ignored and reported.waited is None and not reported.answered
    assert emulator.answer_latencies() == {ignored.id: None, fresh.id: None}
    assert emulator.late_interactions(deadline=10.0) == []


async def test_follow_ups_and_original_edits_after_the_token_lifetime_get_10015(
    http: aiohttp.ClientSession, emulator: Emulator
) -> None:
    emulator.interaction_token_lifetime = 0.3
    await sync_ping(http, emulator)
    record = await emulator.add_actor("alice").slash("ping")
    assert (await post_json(http, callback_path(record), PONG))[0] == 200
    app = emulator.bot_user.id
    followup = f"webhooks/{app}/{record.token}"
    status, _, _ = await post(http, followup, {"content": "in time"}, wait="1")
    assert status == 200
    await asyncio.sleep(0.35)

    status, body, _ = await post(http, followup, {"content": "too late"}, wait="1")
    assert (status, body["code"]) == (404, 10015)
    async with http.patch(f"{followup}/messages/@original", json={"content": "x"}) as response:
        assert (response.status, (await response.json())["code"]) == (404, 10015)
    async with http.get(f"{followup}/messages/@original") as response:
        assert (response.status, (await response.json())["code"]) == (404, 10015)
    assert record.rejected_followups == [10015, 10015, 10015]
    assert [m.content for m in emulator.messages_in(emulator.channel)] == ["pong", "in time"]


# -- rate limits ---------------------------------------------------------------------------------


def posts_per_channel(limit: int, per: float) -> RateLimits:
    return RateLimits([RouteLimit("POST", CHANNEL_MESSAGES, limit, per, "post in a channel")])


async def test_a_limited_route_sends_accurate_headers_then_429_and_resets_after_its_window(
    http: aiohttp.ClientSession, emulator: Emulator
) -> None:
    emulator.rate_limits = posts_per_channel(2, 0.4)
    path = f"channels/{emulator.channel.id}/messages"

    first = await post(http, path, {"content": "1"})
    second = await post(http, path, {"content": "2"})
    refused = await post(http, path, {"content": "3"})

    for status, _, headers in (first, second):
        assert status == 200
        assert headers["X-RateLimit-Limit"] == "2"
        reset_after = float(headers["X-RateLimit-Reset-After"])
        assert 0 < reset_after <= 0.4
        assert abs(float(headers["X-RateLimit-Reset"]) - (time.time() + reset_after)) < 0.2
    assert [first[2]["X-RateLimit-Remaining"], second[2]["X-RateLimit-Remaining"]] == ["1", "0"]
    assert first[2]["X-RateLimit-Bucket"] == second[2]["X-RateLimit-Bucket"]

    status, body, headers = refused
    assert status == 429
    assert headers["Content-Type"] == "application/json"
    assert set(body) == {"message", "retry_after", "global", "code"}
    assert body["global"] is False and body["code"] == 0
    assert 0 < body["retry_after"] <= 0.4
    assert headers["Via"] and headers["Retry-After"] == "1"
    assert headers["X-RateLimit-Scope"] == "user"
    assert "X-RateLimit-Global" not in headers
    assert (headers["X-RateLimit-Remaining"], headers["X-RateLimit-Limit"]) == ("0", "2")
    assert headers["X-RateLimit-Bucket"] == first[2]["X-RateLimit-Bucket"]
    assert [m.content for m in emulator.messages_in(emulator.channel)] == ["1", "2"]
    assert emulator.rate_limits.served_429s == 1
    assert emulator.rate_limits.served_by_route == {"post in a channel": 1}
    assert [c.rate_limited for c in emulator.calls("POST")] == [False, False, True]

    await asyncio.sleep(body["retry_after"] + 0.02)
    status, _, headers = await post(http, path, {"content": "4"})
    assert (status, headers["X-RateLimit-Remaining"]) == (200, "1")


async def test_buckets_are_per_channel_so_each_dm_has_its_own_but_dm_opens_share_one(
    http: aiohttp.ClientSession, emulator: Emulator
) -> None:
    emulator.rate_limits = RateLimits.discord_like(global_limit=False)  # 5 per 5 s
    other = await emulator.add_channel("other")
    alice, bob = emulator.add_actor("alice"), emulator.add_actor("bob")
    for channel in (emulator.channel, other, alice.dm_channel, bob.dm_channel):
        for number in range(5):
            status, _, _ = await post(http, f"channels/{channel.id}/messages", {"content": "x"})
            assert status == 200, f"post {number + 1} in {channel}"
    for channel in (emulator.channel, alice.dm_channel):
        status, _, _ = await post(http, f"channels/{channel.id}/messages", {"content": "x"})
        assert status == 429

    users = [emulator.add_user(f"u{n}") for n in range(6)]
    statuses = [
        (await post(http, "users/@me/channels", {"recipient_id": str(u.id)}))[0] for u in users
    ]
    assert statuses == [200] * 5 + [429]  # six different users, one shared bucket
    assert emulator.rate_limits.served_by_route == {"post in a channel": 2, "open a DM": 1}


async def test_edits_and_deletes_have_their_own_per_channel_buckets(
    http: aiohttp.ClientSession, emulator: Emulator
) -> None:
    emulator.rate_limits = RateLimits(
        [
            RouteLimit("PATCH", r"^/channels/\d+/messages/\d+$", 2, 5.0, "edit"),
            RouteLimit("DELETE", r"^/channels/\d+/messages/\d+$", 1, 5.0, "delete"),
        ]
    )
    path = f"channels/{emulator.channel.id}/messages"
    ids = [(await post(http, path, {"content": str(n)}))[1]["id"] for n in range(3)]
    statuses = []
    for message_id in ids:
        async with http.patch(f"{path}/{message_id}", json={"content": "e"}) as response:
            statuses.append(response.status)
    for message_id in ids[:2]:
        async with http.delete(f"{path}/{message_id}") as response:
            statuses.append(response.status)
    assert statuses == [200, 200, 429, 204, 429]


def test_major_parameters_split_routes_like_discord() -> None:
    assert major_parameter("/channels/42/messages") == "channels:42"
    assert major_parameter("/channels/42/messages/7") == "channels:42"
    assert major_parameter("/guilds/9/members/3") == "guilds:9"
    assert major_parameter("/webhooks/1/tok/messages/@original") == "webhooks:1:tok"
    assert major_parameter("/interactions/5/tok/callback") == "interactions:5:tok"
    assert major_parameter("/users/@me/channels") == ""


async def test_the_global_limit_counts_bot_routes_but_not_callbacks_or_webhooks(
    http: aiohttp.ClientSession, emulator: Emulator
) -> None:
    await sync_ping(http, emulator)  # before the limit
    emulator.rate_limits = RateLimits(global_limit=3, global_window=5.0)
    statuses = []
    for _ in range(4):
        async with http.get("users/@me") as response:
            statuses.append(response.status)
            if response.status == 429:
                body, headers = await response.json(), response.headers
    assert statuses == [200, 200, 200, 429]
    assert body["global"] is True and 0 < body["retry_after"] <= 5.0
    assert headers["X-RateLimit-Global"] == "true"
    assert headers["X-RateLimit-Scope"] == "global"
    assert headers["Via"]

    record = await emulator.add_actor("alice").slash("ping")
    assert (await post_json(http, callback_path(record), PONG))[0] == 200
    followup = f"webhooks/{emulator.bot_user.id}/{record.token}"
    assert (await post(http, followup, {"content": "more"}, wait="1"))[0] == 200
    assert emulator.rate_limits.served_by_route == {"global": 1}


async def test_without_a_policy_every_answer_is_unlimited(
    http: aiohttp.ClientSession, emulator: Emulator
) -> None:
    """Plenty remaining, and a reset as near as a real bucket's: discord.py refuses to send on
    a bucket whose reset is further away than ``max_ratelimit_timeout`` (30 s at least)."""
    path = f"channels/{emulator.channel.id}/messages"
    for _ in range(8):
        status, _, headers = await post(http, path, {"content": "x"})
        assert (status, headers["X-RateLimit-Remaining"]) == (200, "9999")
        assert float(headers["X-RateLimit-Reset-After"]) < 30
        assert float(headers["X-RateLimit-Reset"]) < time.time() + 30
    assert not emulator.rate_limits.enabled and emulator.rate_limits.served_429s == 0


def test_the_discord_like_preset_has_the_documented_figures() -> None:
    preset = RateLimits.discord_like()
    figures = {r.name: (r.method, r.limit, r.per) for r in preset.routes}
    assert figures == {
        "post in a channel": ("POST", 5, 5.0),
        "edit in a channel": ("PATCH", 5, 5.0),
        "delete in a channel": ("DELETE", 5, 5.0),
        "open a DM": ("POST", 5, 5.0),
        "interaction follow-up": ("POST", 5, 2.0),
        "interaction message edit": ("PATCH", 5, 2.0),
        "interaction message delete": ("DELETE", 5, 2.0),
    }
    assert (preset.global_limit, preset.global_window) == (50, 1.0)
    scaled = RateLimits.discord_like(time_scale=0.1)
    assert [r.per for r in scaled.routes][:2] == pytest.approx([0.5, 0.5])
    assert preset.route_for("POST", "/users/@me/channels") is not None
    assert preset.route_for("POST", "/interactions/1/t/callback") is None


# -- random and slow faults ----------------------------------------------------------------------


async def statuses_under_random_faults(emulator: Emulator, seed: int) -> list[int]:
    plan = emulator.faults.randomly(
        seed=seed,
        rate_limited=0.3,
        server_error=0.2,
        slow=0.2,
        slow_seconds=0.05,
        retry_after=(0.01, 0.02),
        methods=["GET"],
        path_pattern=r"^/users/@me$",
    )
    statuses = []
    async with aiohttp.ClientSession(base_url=emulator.api_base + "/", headers=AUTH) as http:
        for _ in range(30):
            async with http.get("users/@me") as response:
                statuses.append(response.status)
                if response.status == 429:
                    body = await response.json()
                    assert response.headers["Via"] and 0.01 <= body["retry_after"] <= 0.02
        status, _, _ = await post(
            http, f"channels/{emulator.channel.id}/messages", {"content": "x"}
        )
        assert status == 200  # POST is not in the plan's methods
    assert plan.seen == 30
    assert statuses.count(429) == plan.counts["rate_limited"]
    assert statuses.count(500) == plan.counts["server_error"]
    return statuses


async def test_a_seeded_random_plan_injects_the_same_faults_and_records_them(
    emulator: Emulator,
) -> None:
    statuses = await statuses_under_random_faults(emulator, seed=7)
    assert {429, 500, 200} == set(statuses)
    gets = emulator.calls("GET", "/users/@me")
    slow = [c for c in gets if c.fault == "random slow"]
    assert slow and all(c.status == 200 and c.finished - c.started >= 0.05 for c in slow)
    assert all(c.injected for c in gets if c.status != 200)
    assert {c.fault for c in gets if c.status == 429} == {"random rate_limited"}
    assert not any(c.injected for c in emulator.calls("POST"))
    async with Emulator() as again:
        assert await statuses_under_random_faults(again, seed=7) == statuses


async def test_a_delay_can_target_any_route_and_method(
    http: aiohttp.ClientSession, emulator: Emulator
) -> None:
    emulator.faults.delay("*", OPEN_DM, 0.15, times=1)
    user = emulator.add_user("slowpoke")
    started = time.perf_counter()
    status, _, _ = await post(http, "users/@me/channels", {"recipient_id": str(user.id)})
    assert status == 200 and time.perf_counter() - started >= 0.15
    emulator.faults.delay("GET", r"^/guilds/\d+$", 0.1, times=1)
    started = time.perf_counter()
    async with http.get(f"guilds/{emulator.guild.id}") as response:
        assert response.status == 200
    assert time.perf_counter() - started >= 0.1
    assert [c.fault for c in emulator.rest_calls] == ["delay", "delay"]


# -- the control API -----------------------------------------------------------------------------


async def test_the_control_api_sets_rate_limits_random_faults_and_settings(
    http: aiohttp.ClientSession, emulator: Emulator
) -> None:
    control = f"http://127.0.0.1:{emulator.port}/_loopback"
    path = f"channels/{emulator.channel.id}/messages"
    async with aiohttp.ClientSession() as session:

        async def call(method: str, route: str, body: Any = None) -> Any:
            async with session.request(method, control + route, json=body) as response:
                assert response.status == 200, await response.text()
                return await response.json()

        policy = await call(
            "PUT",
            "/rate_limits",
            {
                "preset": "discord_like",
                "time_scale": 10,
                "routes": [
                    {"method": "POST", "path_pattern": CHANNEL_MESSAGES, "limit": 1, "per": 30}
                ],
            },
        )
        assert policy["enabled"] and policy["global_limit"] == 50
        assert [(await post(http, path, {"content": "x"}))[0] for _ in range(2)] == [200, 429]
        assert (await call("GET", "/rate_limits"))["served_429s"] == 1
        await call("POST", "/rate_limits/reset")
        assert (await post(http, path, {"content": "y"}))[0] == 200
        await call("PUT", "/rate_limits", {"preset": "none"})

        faults = await call(
            "POST",
            "/faults",
            {
                "kind": "random",
                "seed": 1,
                "server_error": 1.0,
                "server_status": 503,
                "methods": ["GET"],
                "path_pattern": "^/users/@me$",
            },
        )
        assert faults["random"][0]["server_error"] == 1.0
        async with http.get("users/@me") as response:
            assert response.status == 503
        assert (await call("DELETE", "/faults"))["random"] == []

        await call("PUT", "/settings", {"interaction_deadline": 0.1, "nonce_window": 60})
        assert emulator.interaction_deadline == 0.1 and emulator.nonces.window == 60
        await sync_ping(http, emulator)
        record = await emulator.add_actor("alice").slash("ping")
        await asyncio.sleep(0.15)
        assert (await post_json(http, callback_path(record), PONG))[0] == 404
        [late] = await call("GET", "/late_interactions")
        assert (late["id"], late["answered"], late["rejected_callbacks"]) == (
            str(record.id),
            True,
            [10062],
        )
        assert (await call("GET", "/answer_latencies"))[str(record.id)] > 0.1

        assert (await post(http, path, {"content": "z" * 2001}))[0] == 400
        [refused] = await call("GET", "/refused_payloads")
        assert (refused["method"], refused["code"]) == ("POST", 50035)
        state = await call("GET", "/state")
        assert (state["served_429s"], state["refused_payloads"]) == (0, 1)
