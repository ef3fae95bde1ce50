"""An unmodified discord.py client against the emulator's Discord rules on time and limits:
it honours a route's 429 and a ``Remaining: 0`` wait, a late answer raises ``NotFound`` 10062,
an oversized payload raises ``HTTPException`` 50035 and changes nothing, a repeated nonce gives
one message, and random 429s are retried until every message is sent exactly once."""

from __future__ import annotations

import time

import aiohttp
import discord
import pytest

from bot.loopback import Emulator, RateLimits, RouteLimit
from bot.loopback.faults import CHANNEL_MESSAGES

from .conftest import RunningBot, running_reference_bot


def general(running: RunningBot, emulator: Emulator) -> discord.TextChannel:
    channel = running.bot.get_channel(emulator.channel.id)
    assert isinstance(channel, discord.TextChannel)
    return channel


async def test_discord_py_waits_out_a_route_429_and_then_sends(
    emulator: Emulator, reference_bot: RunningBot, http: aiohttp.ClientSession
) -> None:
    """The bucket is used up by someone discord.py does not know about (another process on the
    same token, or this one before a restart), so its first post meets a 429."""
    emulator.rate_limits = RateLimits([RouteLimit("POST", CHANNEL_MESSAGES, 2, 0.5)])
    for text in ("first", "second"):
        async with http.post(f"channels/{emulator.channel.id}/messages", json={"content": text}):
            pass
    started = time.perf_counter()

    sent = await general(reference_bot, emulator).send("third")

    assert time.perf_counter() - started >= 0.3  # slept the body's retry_after
    posts = emulator.calls("POST", f"/channels/{emulator.channel.id}/messages")
    assert [c.status for c in posts] == [200, 200, 429, 200]
    assert emulator.rate_limits.served_429s == 1
    assert [m.content for m in emulator.messages_in(emulator.channel)] == [
        "first",
        "second",
        "third",
    ]
    assert sent.id == emulator.messages_in(emulator.channel)[-1].id
    reference_bot.assert_healthy()


async def test_a_bot_with_max_ratelimit_timeout_can_post_repeatedly_without_a_policy(
    emulator: Emulator,
) -> None:
    """Regression: the "unlimited" answer used to say ``Reset-After: 60``, and discord.py
    raises ``RateLimited`` before sending on a bucket whose reset is further away than
    ``max_ratelimit_timeout``, so the second post of a bot that set it (30 s) failed."""
    async with running_reference_bot(emulator, max_ratelimit_timeout=30.0) as running:
        channel = general(running, emulator)
        for number in range(3):
            await channel.send(f"post {number}")
    assert len(emulator.messages_in(emulator.channel)) == 3


async def test_discord_py_waits_for_the_reset_when_remaining_is_zero(
    emulator: Emulator, reference_bot: RunningBot
) -> None:
    """With accurate headers discord.py never meets the 429: after the answer that says
    ``Remaining: 0`` it sleeps ``Reset-After`` before the next post in that channel."""
    window = 0.5
    emulator.rate_limits = RateLimits([RouteLimit("POST", CHANNEL_MESSAGES, 2, window)])
    channel = general(reference_bot, emulator)
    for number in range(3):
        await channel.send(f"post {number}")
    posts = emulator.calls("POST", f"/channels/{emulator.channel.id}/messages")
    assert [c.status for c in posts] == [200, 200, 200]
    assert emulator.rate_limits.served_429s == 0
    assert posts[2].started - posts[0].started >= window - 0.02


async def test_a_late_answer_raises_not_found_10062_in_the_bot(
    emulator: Emulator, reference_bot: RunningBot
) -> None:
    emulator.interaction_deadline = 0.2
    alice = emulator.add_actor("alice")
    prompt = await alice.slash("dawdle", seconds=0.0)
    late = await alice.slash("dawdle", seconds=0.4)
    await prompt.response()
    await emulator.wait_for(lambda: reference_bot.bot.refused_answers, what="the refused answer")

    assert reference_bot.bot.refused_answers == [10062]
    assert late.rejected_callbacks == [10062] and not late.acknowledged
    assert [item.record for item in emulator.late_interactions()] == [late]
    assert [m.content for m in emulator.messages_in(emulator.channel)] == ["answered after 0.0 s"]


@pytest.mark.breaks_contract  # oversized on purpose: Discord refuses it
async def test_an_oversized_embed_raises_50035_and_changes_nothing(
    emulator: Emulator, reference_bot: RunningBot
) -> None:
    channel = general(reference_bot, emulator)
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send(embed=discord.Embed(description="d" * 4097))
    assert (refused.value.status, refused.value.code) == (400, 50035)
    assert "embeds[0].description: 4097 characters" in refused.value.text
    assert emulator.messages_in(emulator.channel) == []

    message = await channel.send("table")
    with pytest.raises(discord.HTTPException) as refused:
        await message.edit(embed=discord.Embed(title="t" * 257))
    assert refused.value.code == 50035
    [stored] = emulator.messages_in(emulator.channel)
    assert (stored.content, stored.embeds, stored.history) == ("table", [], [])
    assert [r.code for r in emulator.refused_payloads] == [50035, 50035]


async def test_sending_twice_with_one_nonce_gives_one_message(
    emulator: Emulator, reference_bot: RunningBot
) -> None:
    channel = general(reference_bot, emulator)
    first = await channel.send("move 7", nonce=4242)
    again = await channel.send("move 7", nonce=4242)
    assert again.id == first.id and first.nonce == "4242"
    assert [m.content for m in emulator.messages_in(emulator.channel)] == ["move 7"]
    assert emulator.nonces.absorbed == 1
    other = await channel.send("move 7")  # discord.py picks a fresh random nonce
    assert other.id != first.id


async def test_random_429s_are_retried_and_every_message_is_sent_once(
    emulator: Emulator, reference_bot: RunningBot
) -> None:
    plan = emulator.faults.randomly(
        seed=3,
        rate_limited=0.5,
        retry_after=(0.01, 0.03),
        methods=["POST"],
        path_pattern=CHANNEL_MESSAGES,
    )
    channel = general(reference_bot, emulator)
    for number in range(8):
        await channel.send(f"post {number}")
    assert [m.content for m in emulator.messages_in(emulator.channel)] == [
        f"post {n}" for n in range(8)
    ]
    posts = emulator.calls("POST", "/messages")
    assert plan.counts["rate_limited"] > 0
    assert len(posts) == 8 + plan.counts["rate_limited"]
    assert sum(c.injected for c in posts) == plan.counts["rate_limited"]
    reference_bot.assert_healthy()
