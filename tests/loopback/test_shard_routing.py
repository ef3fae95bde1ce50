"""The emulator's sharding on the wire, without discord.py: sessions per shard and routing.

Discord's rules (docs/loopback.md, "Shards"): an IDENTIFY with ``shard: [id, count]`` opens that
shard's session; a guild's events go to shard ``(guild_id >> 22) % count`` only; everything
without a guild (DMs and clicks in DMs) goes to shard 0; ``GET /gateway/bot`` recommends a
count; an impossible shard is closed with 4010, a shard with too many guilds with 4011.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from bot.loopback import Emulator
from bot.loopback.gateway import CLOSE_INVALID_SHARD, CLOSE_SHARDING_REQUIRED, shard_of
from bot.loopback.model import SnowflakeFactory

from .conftest import AUTH, BOT_TOKEN, sync_ping


class RawShard:
    """One gateway connection identified as a shard; keeps every DISPATCH it receives."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.socket = socket
        self.events: list[dict[str, Any]] = []
        self.closed_with: int | None = None
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for message in self.socket:
            if message.type == aiohttp.WSMsgType.TEXT:
                frame = json.loads(message.data)
                if frame.get("op") == 0:
                    self.events.append(frame)
        self.closed_with = self.socket.close_code

    def named(self, event: str) -> list[dict[str, Any]]:
        return [frame["d"] for frame in self.events if frame["t"] == event]

    async def close(self) -> None:
        await self.socket.close()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reader


@contextlib.asynccontextmanager
async def raw_shards(
    emulator: Emulator, *shards: list[int] | None
) -> AsyncIterator[list[RawShard]]:
    """Connect and IDENTIFY once per entry of ``shards`` (``None``: without ``shard``)."""
    async with aiohttp.ClientSession() as http:
        connections = []
        try:
            for shard in shards:
                socket = await http.ws_connect(emulator.gateway_url)
                hello = await socket.receive_json()
                assert hello["op"] == 10
                identify: dict[str, Any] = {"token": BOT_TOKEN, "intents": 1, "properties": {}}
                if shard is not None:
                    identify["shard"] = shard
                await socket.send_json({"op": 2, "d": identify})
                connections.append(RawShard(socket))
            yield connections
        finally:
            for connection in connections:
                await connection.close()


def test_a_guild_can_be_placed_on_any_shard() -> None:
    snowflakes = SnowflakeFactory()
    for count in (1, 2, 3, 16):
        for shard in range(count):
            ids = [snowflakes.next_on_shard(shard, count) for _ in range(5)]
            assert {shard_of(guild_id, count) for guild_id in ids} == {shard}
            assert len(set(ids)) == 5
    with pytest.raises(ValueError):
        snowflakes.next_on_shard(2, 2)


async def test_each_shard_gets_its_own_guilds_and_dms_go_to_shard_zero(
    emulator: Emulator, http: aiohttp.ClientSession
) -> None:
    emulator.shard_count = 2
    await sync_ping(http, emulator)
    east = await emulator.add_guild("east", shard=1)
    default_shard = emulator.shard_of(emulator.guild)
    alice = emulator.add_actor("alice", guilds=(east,))
    async with raw_shards(emulator, [0, 2], [1, 2]) as (zero, one):
        await emulator.wait_for(lambda: emulator.gateway.connected_shards() == [0, 1])
        await emulator.wait_for(lambda: zero.named("READY") and one.named("READY"))

        def created(connection: RawShard) -> set[int]:
            return {int(g["id"]) for g in connection.named("GUILD_CREATE")}

        for connection, shard in ((zero, 0), (one, 1)):
            ready = connection.named("READY")[0]
            assert ready["shard"] == [shard, 2]
            listed = {int(g["id"]) for g in ready["guilds"]}
            await emulator.wait_for(lambda c=connection, g=listed: created(c) == g)
            assert {shard_of(guild_id, 2) for guild_id in listed} <= {shard}
        assert east.id in created(one) and east.id not in created(zero)
        assert (emulator.guild.id in created(zero)) == (default_shard == 0)

        in_east = await alice.slash("ping", channel=emulator.channel_of(east))
        in_dm = await alice.slash("ping", channel=alice.dm_channel)
        in_default = await alice.slash("ping")

        def delivered(connection: RawShard) -> set[int]:
            return {int(i["id"]) for i in connection.named("INTERACTION_CREATE")}

        await emulator.wait_for(lambda: len(delivered(zero) | delivered(one)) == 3)
        default_to = zero if default_shard == 0 else one
        assert in_east.id in delivered(one) and in_east.id not in delivered(zero)
        assert in_dm.id in delivered(zero) and in_dm.id not in delivered(one)
        assert in_default.id in delivered(default_to)
        assert delivered(zero).isdisjoint(delivered(one))
        assert emulator.gateway.stats.identifies_by_shard == {0: 1, 1: 1}


async def test_events_for_a_shard_without_a_session_wait_for_its_ready(
    emulator: Emulator, http: aiohttp.ClientSession
) -> None:
    """Shard 0 connected, shard 1 not yet: a click in shard 1's guild is not sent to shard
    0; it is delivered once shard 1 identifies."""
    emulator.shard_count = 2
    await sync_ping(http, emulator)
    east = await emulator.add_guild("east", shard=1)
    alice = emulator.add_actor("alice", guilds=(east,))
    async with raw_shards(emulator, [0, 2]) as (zero,):
        await emulator.wait_for(lambda: zero.named("READY"))
        early = await alice.slash("ping", channel=emulator.channel_of(east))
        await asyncio.sleep(0.1)
        assert not zero.named("INTERACTION_CREATE")
        async with raw_shards(emulator, [1, 2]) as (one,):
            await emulator.wait_for(lambda: one.named("INTERACTION_CREATE"))
            assert int(one.named("INTERACTION_CREATE")[0]["id"]) == early.id
            kinds = [frame["t"] for frame in one.events]
            assert kinds.index("READY") < kinds.index("INTERACTION_CREATE")
        assert not zero.named("INTERACTION_CREATE")


async def test_gateway_bot_recommends_the_shard_count(
    emulator: Emulator, http: aiohttp.ClientSession
) -> None:
    emulator.shard_count = 3
    async with http.get("gateway/bot") as response:
        body = await response.json()
    assert body["shards"] == 3 and body["url"] == emulator.gateway_url
    assert body["session_start_limit"]["max_concurrency"] >= 1


async def test_an_impossible_shard_is_closed_with_4010(emulator: Emulator) -> None:
    async with raw_shards(emulator, [2, 2]) as (bad,):
        await emulator.wait_for(lambda: bad.socket.closed, timeout=5)
        await asyncio.sleep(0)
    assert bad.socket.close_code == CLOSE_INVALID_SHARD
    assert emulator.gateway.sessions == {}


async def test_a_shard_with_too_many_guilds_is_closed_with_4011(emulator: Emulator) -> None:
    emulator.max_guilds_per_shard = 1
    await emulator.add_guild("second")
    async with raw_shards(emulator, None) as (unsharded,):
        await emulator.wait_for(lambda: unsharded.socket.closed, timeout=5)
    assert unsharded.socket.close_code == CLOSE_SHARDING_REQUIRED
    emulator.shard_count = 2
    await emulator.add_guild("third", shard=1)
    # Two shards, but the default guild and "second" land wherever their ids put them: the
    # limit is per shard, so count what each shard would hold.
    per_shard = [0, 0]
    for guild_id in emulator.world.guilds:
        per_shard[shard_of(guild_id, 2)] += 1
    async with raw_shards(emulator, [0, 2], [1, 2]) as connections:
        for shard, connection in enumerate(connections):
            if per_shard[shard] > 1:
                await emulator.wait_for(lambda c=connection: c.socket.closed)
                assert connection.socket.close_code == CLOSE_SHARDING_REQUIRED
            else:
                await emulator.wait_for(lambda s=shard: emulator.gateway.is_connected(s))


async def test_the_control_api_places_guilds_and_faults_act_on_one_shard(
    emulator: Emulator,
) -> None:
    emulator.shard_count = 2
    control = f"http://127.0.0.1:{emulator.port}/_loopback"
    async with aiohttp.ClientSession(headers=AUTH) as http:
        placed = []
        for shard in (0, 1, 1):
            async with http.post(f"{control}/guilds", json={"shard": shard}) as response:
                body = await response.json()
            assert body["shard"] == shard == shard_of(int(body["guild_id"]), 2)
            assert emulator.world.channels[int(body["channel_id"])].guild_id == int(
                body["guild_id"]
            )
            placed.append(int(body["guild_id"]))
        async with http.post(f"{control}/guilds", json={"shard": 2}) as response:
            assert response.status == 400
        async with http.post(
            f"{control}/users", json={"name": "bob", "guild_ids": [str(placed[1])]}
        ) as response:
            bob = int((await response.json())["user_id"])
        assert bob in emulator.world.guilds[placed[1]].member_ids
        async with raw_shards(emulator, [0, 2], [1, 2]) as (zero, _one):
            await emulator.wait_for(lambda: emulator.gateway.connected_shards() == [0, 1])
            async with http.post(f"{control}/gateway/drop", json={"shard": 1}) as response:
                assert response.status == 200
            await emulator.wait_for(lambda: emulator.gateway.connected_shards() == [0])
            async with http.get(f"{control}/state") as response:
                state = await response.json()
            assert state["shard_count"] == 2
            assert state["shards"]["0"]["connected"] and not state["shards"]["1"]["connected"]
            assert not zero.socket.closed
