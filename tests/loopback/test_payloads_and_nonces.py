"""Wire-level checks (raw HTTP, no discord.py) of Discord's payload limits on every route that
creates or edits a message, and of ``enforce_nonce`` dedupe of channel posts."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
import pytest

from bot.loopback import Emulator, InteractionRecord

from .conftest import post_json, sync_ping

TOO_LONG = "x" * 2001
BUTTON = {"type": 2, "style": 1, "label": "Go", "custom_id": "go"}


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


async def send(
    http: aiohttp.ClientSession, method: str, path: str, body: Any, **params: str
) -> tuple[int, Any]:
    async with http.request(method, path, json=body, params=params) as response:
        payload = await response.json() if response.status != 204 else None
        return response.status, payload


def callback_path(record: InteractionRecord) -> str:
    return f"interactions/{record.id}/{record.token}/callback"


# -- payload limits ------------------------------------------------------------------------------


async def test_an_oversized_channel_post_is_refused_with_50035_and_nothing_is_created(
    http: aiohttp.ClientSession, emulator: Emulator
) -> None:
    path = f"channels/{emulator.channel.id}/messages"
    status, body = await send(http, "POST", path, {"content": TOO_LONG})
    assert (status, body["code"], body["message"]) == (400, 50035, "Invalid Form Body")
    assert "content: 2001 characters, at most 2000" in json.dumps(body["errors"])
    assert emulator.messages_in(emulator.channel) == []
    [refused] = emulator.refused_payloads
    assert (refused.method, refused.path, refused.code) == ("POST", f"/{path}", 50035)
    assert refused.problems == ["content: 2001 characters, at most 2000"]

    status, body = await send(http, "POST", path, {"content": ""})
    assert (status, body["code"]) == (400, 50006)  # Discord: "Cannot send an empty message"
    status, _ = await send(http, "POST", path, {"content": "x" * 2000})
    assert status == 200


@pytest.mark.breaks_contract  # oversized on purpose: Discord refuses it
async def test_a_refused_edit_leaves_the_message_as_it_was(
    http: aiohttp.ClientSession, emulator: Emulator
) -> None:
    path = f"channels/{emulator.channel.id}/messages"
    _, created = await send(http, "POST", path, {"content": "table", "components": [row(BUTTON)]})
    edit = f"{path}/{created['id']}"
    oversized_embed = {"embeds": [{"title": "t", "description": "d" * 4097}]}
    status, body = await send(http, "PATCH", edit, oversized_embed)
    assert (status, body["code"]) == (400, 50035)
    status, body = await send(http, "PATCH", edit, {"components": [row(BUTTON, BUTTON)]})
    assert (status, body["code"]) == (400, 50035)  # custom_id used twice
    status, body = await send(http, "PATCH", edit, {"content": "", "components": []})
    assert (status, body["code"]) == (400, 50006)  # would leave the message empty
    [message] = emulator.messages_in(emulator.channel)
    assert (message.content, message.embeds, message.history) == ("table", [], [])
    assert [r.code for r in emulator.refused_payloads] == [50035, 50035, 50006]
    status, _ = await send(http, "PATCH", edit, {"content": "", "embeds": [{"title": "ok"}]})
    assert status == 200


async def test_a_refused_callback_leaves_the_interaction_unacknowledged(
    http: aiohttp.ClientSession, emulator: Emulator
) -> None:
    await sync_ping(http, emulator)
    record = await emulator.add_actor("alice").slash("ping")
    duplicated = {"type": 4, "data": {"content": "hi", "components": [row(BUTTON, BUTTON)]}}
    status, body = await post_json(http, callback_path(record), duplicated)
    assert (status, body["code"]) == (400, 50035)
    assert "'go' is used twice" in json.dumps(body["errors"])
    assert not record.acknowledged and record.rejected_callbacks == [50035]
    assert emulator.messages_in(emulator.channel) == []
    status, body = await post_json(http, callback_path(record), {"type": 4, "data": {}})
    assert (status, body["code"]) == (400, 50006)

    status, _ = await post_json(http, callback_path(record), {"type": 4, "data": {"content": "ok"}})
    assert status == 200 and record.acknowledged
    assert record.rejected_callbacks == [50035, 50006]


async def test_a_refused_update_callback_leaves_the_clicked_message_as_it_was(
    http: aiohttp.ClientSession, emulator: Emulator
) -> None:
    _, created = await send(
        http,
        "POST",
        f"channels/{emulator.channel.id}/messages",
        {"content": "table", "components": [row(BUTTON)]},
    )
    table = emulator.world.messages[int(created["id"])]
    click = await emulator.add_actor("alice").click(table, label="Go")
    six_rows = [row({**BUTTON, "custom_id": f"b{n}"}) for n in range(6)]
    status, body = await post_json(
        http, callback_path(click), {"type": 7, "data": {"components": six_rows}}
    )
    assert (status, body["code"]) == (400, 50035)
    assert not click.acknowledged and table.history == []
    status, body = await post_json(
        http, callback_path(click), {"type": 7, "data": {"content": "", "components": []}}
    )
    assert (status, body["code"]) == (400, 50006)  # the update would empty the message
    status, _ = await post_json(http, callback_path(click), {"type": 7, "data": {"content": "ok"}})
    assert status == 200 and table.content == "ok"


@pytest.mark.breaks_contract  # oversized on purpose: Discord refuses it
async def test_follow_ups_and_original_edits_are_checked_too(
    http: aiohttp.ClientSession, emulator: Emulator
) -> None:
    await sync_ping(http, emulator)
    record = await emulator.add_actor("alice").slash("ping")
    await post_json(http, callback_path(record), {"type": 5, "data": {"flags": 64}})
    hook = f"webhooks/{emulator.bot_user.id}/{record.token}"

    status, body = await send(http, "POST", hook, {"content": TOO_LONG}, wait="1")
    assert (status, body["code"]) == (400, 50035)
    placeholder = record.response_message
    assert placeholder is not None and placeholder.loading  # the placeholder was not used
    status, body = await send(
        http, "PATCH", f"{hook}/messages/@original", {"embeds": [{"title": "t" * 257}]}
    )
    assert (status, body["code"]) == (400, 50035)
    assert record.original_edits == 0 and placeholder.loading
    assert record.rejected_followups == [50035, 50035]
    assert [(r.method, r.path.endswith("@original")) for r in emulator.refused_payloads] == [
        ("POST", False),
        ("PATCH", True),
    ]
    status, _ = await send(http, "PATCH", f"{hook}/messages/@original", {"content": "done"})
    assert status == 200 and placeholder.content == "done"


async def test_a_multipart_upload_is_checked_through_its_payload_json(
    http: aiohttp.ClientSession, emulator: Emulator
) -> None:
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps({"content": TOO_LONG, "attachments": [{"id": 0}]}))
    form.add_field("files[0]", b"PNG", filename="board.png", content_type="image/png")
    async with http.post(f"channels/{emulator.channel.id}/messages", data=form) as response:
        assert (response.status, (await response.json())["code"]) == (400, 50035)
    assert emulator.messages_in(emulator.channel) == []


async def test_validation_can_be_turned_off(
    http: aiohttp.ClientSession, emulator: Emulator
) -> None:
    emulator.validate_payloads = False
    status, _ = await send(
        http, "POST", f"channels/{emulator.channel.id}/messages", {"content": TOO_LONG}
    )
    assert status == 200 and len(emulator.refused_payloads) == 0


# -- message nonces ------------------------------------------------------------------------------


async def post_with_nonce(
    http: aiohttp.ClientSession, channel_id: int, nonce: str, *, enforce: bool = True
) -> tuple[int, Any]:
    body = {"content": f"nonce {nonce}", "nonce": nonce, "enforce_nonce": enforce}
    return await send(http, "POST", f"channels/{channel_id}/messages", body)


async def test_the_same_nonce_in_the_same_channel_returns_the_first_message(
    http: aiohttp.ClientSession, emulator: Emulator
) -> None:
    _, first = await post_with_nonce(http, emulator.channel.id, "1234")
    status, again = await post_with_nonce(http, emulator.channel.id, "1234")
    assert status == 200 and again["id"] == first["id"]
    assert (first["nonce"], again["nonce"]) == ("1234", "1234")
    assert len(emulator.messages_in(emulator.channel)) == 1
    assert emulator.nonces.absorbed == 1
    together = await asyncio.gather(
        *(post_with_nonce(http, emulator.channel.id, "5678") for _ in range(5))
    )
    assert len({answer["id"] for _, answer in together}) == 1  # concurrent retries: one message
    assert len(emulator.messages_in(emulator.channel)) == 2
    assert emulator.nonces.absorbed == 5


async def test_a_nonce_is_not_enforced_after_the_window_or_without_enforce_nonce(
    http: aiohttp.ClientSession, emulator: Emulator
) -> None:
    emulator.nonces.window = 0.2
    _, first = await post_with_nonce(http, emulator.channel.id, "77")
    await asyncio.sleep(0.25)
    _, later = await post_with_nonce(http, emulator.channel.id, "77")
    assert later["id"] != first["id"]
    _, loose = await post_with_nonce(http, emulator.channel.id, "88", enforce=False)
    _, loose_again = await post_with_nonce(http, emulator.channel.id, "88", enforce=False)
    assert loose["id"] != loose_again["id"] and loose_again["nonce"] == "88"
    assert len(emulator.messages_in(emulator.channel)) == 4
    assert emulator.nonces.absorbed == 0


async def test_a_nonce_is_per_channel_and_per_author(
    http: aiohttp.ClientSession, emulator: Emulator
) -> None:
    other = await emulator.add_channel("other")
    alice = emulator.add_actor("alice")
    _, here = await post_with_nonce(http, emulator.channel.id, "42")
    _, there = await post_with_nonce(http, other.id, "42")
    _, in_dm = await post_with_nonce(http, alice.dm_channel.id, "42")
    assert len({here["id"], there["id"], in_dm["id"]}) == 3

    by_alice = await alice.send("mine", nonce="99")
    _, by_bot = await post_with_nonce(http, emulator.channel.id, "99")
    assert int(by_bot["id"]) != by_alice.id and by_bot["author"]["id"] == str(emulator.bot_user.id)
    assert (await alice.send("mine again", nonce="99")) is by_alice
    assert emulator.nonces.absorbed == 1
    authors = [m.author_id for m in emulator.messages_in(emulator.channel)]
    assert authors == [emulator.bot_user.id, alice.user.id, emulator.bot_user.id]


async def test_a_retry_for_a_deleted_message_gets_10008_and_creates_nothing(
    http: aiohttp.ClientSession, emulator: Emulator
) -> None:
    _, first = await post_with_nonce(http, emulator.channel.id, "gone")
    path = f"channels/{emulator.channel.id}/messages/{first['id']}"
    status, _ = await send(http, "DELETE", path, None)
    assert status == 204
    status, body = await post_with_nonce(http, emulator.channel.id, "gone")
    assert (status, body["code"]) == (404, 10008)
    assert emulator.messages_in(emulator.channel) == []


@pytest.mark.breaks_contract  # oversized on purpose: Discord refuses it
async def test_a_nonce_longer_than_25_characters_is_refused(
    http: aiohttp.ClientSession, emulator: Emulator
) -> None:
    status, body = await post_with_nonce(http, emulator.channel.id, "n" * 26)
    assert (status, body["code"]) == (400, 50035)
    status, _ = await post_with_nonce(http, emulator.channel.id, "n" * 25)
    assert status == 200
