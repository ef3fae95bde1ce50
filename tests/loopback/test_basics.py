"""The reference bot plays every interaction style through the emulator, in-process."""

from __future__ import annotations

import pytest

from bot.loopback import ActionRefused, Emulator
from bot.loopback.interactions import (
    CALLBACK_DEFERRED_MESSAGE,
    CALLBACK_DEFERRED_UPDATE,
    CALLBACK_MESSAGE,
    CALLBACK_UPDATE_MESSAGE,
)

from .conftest import RunningBot


async def test_login_sync_and_ping(emulator: Emulator, reference_bot: RunningBot) -> None:
    assert emulator.gateway.stats.identifies == 1
    assert {c["name"] for c in emulator.commands[None]} == {
        "table",
        "ping",
        "secret",
        "slow",
        "announce",
        "dawdle",
    }
    alice = emulator.add_actor("alice")
    record = await (await alice.slash("ping")).response()
    assert record.callback_type == CALLBACK_MESSAGE
    assert record.response_message is not None
    assert record.response_message.content == "pong"
    assert not record.ephemeral
    assert 0 < (record.latency or 0) < 1
    assert emulator.messages_in(emulator.channel)[-1].content == "pong"
    assert emulator.unhandled == []


async def test_dynamic_button_dm_and_update(emulator: Emulator, reference_bot: RunningBot) -> None:
    alice, bob = emulator.add_actor("alice"), emulator.add_actor("bob")
    table = await (await alice.slash("table create", seats=2)).settled()
    assert table.content == "Table: 0/2 seated"

    click = await (await alice.click(table, label="Join")).response()
    assert click.callback_type == CALLBACK_UPDATE_MESSAGE
    assert click.response_message_id == table.id
    assert table.content == "Table: 1/2 seated"
    assert [m.content for m in alice.dms] == ["You took seat 1 of 2."]

    await (await bob.click(table, label="Join")).response()
    assert table.content == "Table: 2/2 seated"
    assert [m.content for m in bob.dms] == ["You took seat 2 of 2."]
    assert [rev.content for rev in table.history] == ["Table: 0/2 seated", "Table: 1/2 seated"]
    with pytest.raises(ActionRefused, match="disabled"):
        await bob.click(table, label="Join")


async def test_select_defer_and_ephemeral_followup(
    emulator: Emulator, reference_bot: RunningBot
) -> None:
    alice = emulator.add_actor("alice")
    table = await (await alice.slash("table create", seats=3)).settled()
    choice = await alice.select(table, ["green"])
    answer = await choice.settled()
    assert choice.callback_type == CALLBACK_DEFERRED_UPDATE
    assert answer.content == "You picked green."
    assert answer.ephemeral
    with pytest.raises(ActionRefused, match="not options"):
        await alice.select(table, ["purple"])


async def test_ephemeral_thinking_defer_then_edit_original(
    emulator: Emulator, reference_bot: RunningBot
) -> None:
    alice = emulator.add_actor("alice")
    secret = await (await alice.slash("secret")).settled()
    assert secret.ephemeral and secret.content == "only you can see this"

    slow = await alice.slash("slow")
    final = await slow.settled()
    assert slow.callback_type == CALLBACK_DEFERRED_MESSAGE
    assert slow.original_edits == 1
    assert final.content == "done thinking" and final.ephemeral and not final.loading
    assert final.history[0].content == ""  # the "thinking" placeholder


async def test_channel_post_and_edit(emulator: Emulator, reference_bot: RunningBot) -> None:
    alice = emulator.add_actor("alice")
    await (await alice.slash("announce", text="hello")).settled()
    post = await emulator.wait_for(
        lambda: next(
            (
                m
                for m in emulator.messages_in(emulator.channel)
                if m.content.startswith("hello") and m.edited_at
            ),
            None,
        ),
        what="the edited announcement",
    )
    assert post.content == "hello (edited)"
    assert [rev.content for rev in post.history] == ["hello"]
    assert [c.method for c in emulator.calls(path_contains=f"/channels/{post.channel_id}/")] == [
        "POST",
        "PATCH",
    ]


async def test_closed_dms_answer_50007(emulator: Emulator, reference_bot: RunningBot) -> None:
    alice = emulator.add_actor("alice")
    emulator.close_dms(alice.user)
    table = await (await alice.slash("table create", seats=2)).settled()
    refused = await alice.click(table, label="Join")
    answer = await refused.settled()
    assert answer.ephemeral and "open your DMs" in answer.content
    assert table.content == "Table: 0/2 seated"
    dm_posts = emulator.calls("POST", f"/channels/{alice.dm_channel.id}/messages")
    assert [c.status for c in dm_posts] == [403]
    assert alice.dms == []


async def test_actor_refuses_what_a_client_cannot_do(
    emulator: Emulator, reference_bot: RunningBot
) -> None:
    alice, bob = emulator.add_actor("alice"), emulator.add_actor("bob")
    with pytest.raises(ActionRefused, match="not a synced command"):
        await alice.slash("nonexistent")
    with pytest.raises(ActionRefused, match="required options missing"):
        await alice.slash("table create")
    table = await (await alice.slash("table create", seats=1)).settled()
    await (await alice.click(table, label="Join")).response()
    with pytest.raises(ActionRefused, match="another user's DM"):
        await bob.click(alice.dms[0], label="Join")
    secret = await (await alice.slash("secret")).settled()
    with pytest.raises(ActionRefused, match="ephemeral"):
        await bob.click(secret, label="anything")


async def test_interactions_in_dms(emulator: Emulator, reference_bot: RunningBot) -> None:
    alice = emulator.add_actor("alice")
    record = await (await alice.slash("ping", channel=alice.dm_channel)).response()
    assert record.guild_id is None
    assert record.response_message is not None
    assert record.response_message.channel_id == alice.dm_channel.id
    assert [m.content for m in alice.dms] == ["pong"]
