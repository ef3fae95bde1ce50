"""Fault injection against a real discord.py client: gateway loss and REST errors."""

from __future__ import annotations

import time

from bot.loopback import Emulator
from bot.loopback.faults import CHANNEL_MESSAGES, INTERACTION_CALLBACK

from .conftest import RunningBot, running_reference_bot


async def test_drop_resumes_and_replays_missed_interactions(
    emulator: Emulator, reference_bot: RunningBot
) -> None:
    alice = emulator.add_actor("alice")
    await emulator.gateway.drop(code=4000)
    missed = await alice.slash("ping")  # dispatched while the bot is disconnected
    await missed.response()
    stats = emulator.gateway.stats
    assert (stats.identifies, stats.resumes) == (1, 1)
    assert stats.replayed_frames >= 1
    assert reference_bot.bot.resumes == 1
    assert missed.response_message is not None and missed.response_message.content == "pong"


async def test_abrupt_tcp_loss_resumes(emulator: Emulator, reference_bot: RunningBot) -> None:
    emulator.gateway.abort_transport()
    alice = emulator.add_actor("alice")
    await (await alice.slash("ping")).response()
    assert emulator.gateway.stats.resumes == 1


async def test_reconnect_request_resumes(emulator: Emulator, reference_bot: RunningBot) -> None:
    await emulator.gateway.send_reconnect()
    await emulator.wait_for(lambda: emulator.gateway.stats.resumes == 1, what="RESUME")
    alice = emulator.add_actor("alice")
    await (await alice.slash("ping")).response()
    assert emulator.gateway.stats.identifies == 1


async def test_resumable_invalid_session_resumes(
    emulator: Emulator, reference_bot: RunningBot
) -> None:
    await emulator.gateway.invalidate_session(resumable=True)
    await emulator.wait_for(lambda: emulator.gateway.stats.resumes == 1, what="RESUME")
    assert emulator.gateway.stats.identifies == 1


async def test_invalidated_session_reidentifies_and_keeps_clicks(
    emulator: Emulator, reference_bot: RunningBot
) -> None:
    alice = emulator.add_actor("alice")
    table = await (await alice.slash("table create", seats=2)).settled()
    await emulator.gateway.invalidate_session(resumable=False)
    click = await alice.click(table, label="Join")  # queued until the new session is READY
    await click.response()
    assert emulator.gateway.stats.identifies == 2
    assert emulator.gateway.stats.resumes == 0
    assert table.content == "Table: 1/2 seated"
    assert len(alice.dms) == 1


async def test_zombie_connection_is_detected_and_resumed(emulator: Emulator) -> None:
    emulator.gateway.heartbeat_interval_ms = 100
    async with running_reference_bot(emulator, heartbeat_timeout=0.5):
        emulator.gateway.ack_heartbeats = False
        await emulator.wait_for(
            lambda: emulator.gateway.stats.resumes >= 1, timeout=5, what="zombie RESUME"
        )
        emulator.gateway.ack_heartbeats = True
        alice = emulator.add_actor("alice")
        await (await alice.slash("ping")).response()


async def test_429_on_callback_is_retried(emulator: Emulator, reference_bot: RunningBot) -> None:
    limit = emulator.faults.rate_limit("POST", INTERACTION_CALLBACK, retry_after=0.05)
    alice = emulator.add_actor("alice")
    record = await (await alice.slash("ping")).response()
    assert limit.hits == 1
    assert [c.status for c in emulator.calls("POST", "/callback")] == [429, 200]
    assert record.response_message is not None and record.response_message.content == "pong"


async def test_global_429_on_dm_send_is_retried(
    emulator: Emulator, reference_bot: RunningBot
) -> None:
    alice = emulator.add_actor("alice")
    table = await (await alice.slash("table create", seats=2)).settled()
    emulator.faults.rate_limit("POST", CHANNEL_MESSAGES, retry_after=0.05, is_global=True)
    await (await alice.click(table, label="Join")).response()
    statuses = [c.status for c in emulator.calls("POST", f"/channels/{alice.dm_channel.id}")]
    assert statuses == [429, 200]
    assert table.content == "Table: 1/2 seated"


async def test_500_on_dm_send_is_retried(emulator: Emulator, reference_bot: RunningBot) -> None:
    alice = emulator.add_actor("alice")
    table = await (await alice.slash("table create", seats=2)).settled()
    emulator.faults.fail("POST", CHANNEL_MESSAGES, 500, times=1)
    click = await alice.click(table, label="Join")
    await click.response(timeout=5)  # discord.py sleeps 1 s before retrying a 500
    statuses = [c.status for c in emulator.calls("POST", f"/channels/{alice.dm_channel.id}")]
    assert statuses == [500, 200]
    assert [m.content for m in alice.dms] == ["You took seat 1 of 2."]


async def test_delay_is_applied(emulator: Emulator, reference_bot: RunningBot) -> None:
    emulator.faults.delay("POST", INTERACTION_CALLBACK, 0.2, times=1)
    alice = emulator.add_actor("alice")
    started = time.perf_counter()
    record = await (await alice.slash("ping")).response()
    await emulator.wait_for(lambda: record.response_message, what="the delayed message")
    assert time.perf_counter() - started >= 0.2


async def test_redelivered_interaction_cannot_be_answered_twice(
    emulator: Emulator, reference_bot: RunningBot
) -> None:
    alice = emulator.add_actor("alice")
    record = await (await alice.slash("ping")).response()
    await emulator.redeliver(record)
    await emulator.wait_for(lambda: record.rejected_callbacks, what="the second callback")
    assert record.rejected_callbacks == [40060]
    assert record.deliveries == 2
    assert [m.content for m in emulator.messages_in(emulator.channel)] == ["pong"]
    # The reference bot does not guard against duplicates: its handler logs the 40060.
    assert any("40060" in str(r.exc_info) for r in reference_bot.errors.records)
    reference_bot.errors.records.clear()
