"""Wire-level checks of the emulator without discord.py: the fidelity traps and error codes."""

from __future__ import annotations

import json
from typing import Any

import aiohttp

from bot.loopback import Emulator

from .conftest import BOT_TOKEN, post_json, sync_ping


async def test_json_content_type_is_exact_and_rate_limit_headers_are_complete(
    http: aiohttp.ClientSession, emulator: Emulator
) -> None:
    async with http.get("users/@me") as response:
        assert response.status == 200
        assert response.headers["Content-Type"] == "application/json"
        for header in ("Limit", "Remaining", "Reset-After", "Bucket"):
            assert f"X-RateLimit-{header}" in response.headers
        assert (await response.json())["id"] == str(emulator.bot_user.id)


async def test_wrong_token_and_unknown_route(
    http: aiohttp.ClientSession, emulator: Emulator
) -> None:
    async with http.get("users/@me", headers={"Authorization": "Bot wrong"}) as response:
        assert response.status == 401
    async with http.get("stickers/1") as response:
        assert response.status == 404
    assert emulator.unhandled == ["GET /api/v10/stickers/1"]


async def test_callback_semantics(http: aiohttp.ClientSession, emulator: Emulator) -> None:
    await sync_ping(http, emulator)
    alice = emulator.add_actor("alice")
    first, second = await alice.slash("ping"), await alice.slash("ping")
    app = emulator.bot_user.id

    status, body = await post_json(http, f"webhooks/{app}/{second.token}", {"content": "x"})
    assert (status, body["code"]) == (404, 10015)  # follow-up before any callback
    status, body = await post_json(http, f"interactions/{first.id}/bad-token/callback", {})
    assert (status, body["code"]) == (404, 10062)

    reply = {"type": 4, "data": {"content": "hi", "flags": 64}}
    status, body = await post_json(http, f"interactions/{first.id}/{first.token}/callback", reply)
    assert status == 200
    assert body["interaction"]["response_message_ephemeral"] is True
    assert body["resource"]["message"]["content"] == "hi"
    assert body["interaction"]["response_message_id"] == str(first.response_message_id)
    status, body = await post_json(http, f"interactions/{first.id}/{first.token}/callback", reply)
    assert (status, body["code"]) == (400, 40060)
    assert first.rejected_callbacks == [40060]


async def test_a_callback_that_does_not_ask_for_its_message_is_answered_204(
    http: aiohttp.ClientSession, emulator: Emulator
) -> None:
    """Discord returns the response's message only with ``with_response``; otherwise 204."""
    await sync_ping(http, emulator)
    record = await emulator.add_actor("alice").slash("ping")
    path = f"interactions/{record.id}/{record.token}/callback"
    async with http.post(path, json={"type": 4, "data": {"content": "hi"}}) as response:
        assert response.status == 204
        assert await response.read() == b""
    assert record.acknowledged
    assert record.response_message is not None and record.response_message.content == "hi"


async def test_interaction_messages_in_an_archived_thread_refuse_edits_and_deletes_with_50083(
    http: aiohttp.ClientSession, emulator: Emulator
) -> None:
    """The webhook routes follow the thread rule too: an interaction's public answer in an
    archived thread can be neither edited nor deleted (400 / 50083); an ephemeral one is not
    the thread's message and stays editable; a channel post revives the thread."""
    await sync_ping(http, emulator)
    alice = emulator.add_actor("alice")
    thread = await emulator.add_thread("quiet", owner=alice.user)
    public = await alice.slash("ping", channel=thread)
    private = await alice.slash("ping", channel=thread)
    app = emulator.bot_user.id
    for record, flags in ((public, 0), (private, 64)):
        answer = {"type": 4, "data": {"content": "hi", "flags": flags}}
        path = f"interactions/{record.id}/{record.token}/callback"
        assert (await post_json(http, path, answer))[0] == 200
    await emulator.archive_thread(thread)

    original = f"webhooks/{app}/{public.token}/messages/@original"
    async with http.patch(original, json={"content": "edited"}) as response:
        assert (response.status, (await response.json())["code"]) == (400, 50083)
    async with http.delete(original) as response:
        assert (response.status, (await response.json())["code"]) == (400, 50083)
    assert public.response_message is not None and public.response_message.content == "hi"
    ephemeral = f"webhooks/{app}/{private.token}/messages/@original"
    async with http.patch(ephemeral, json={"content": "edited"}) as response:
        assert response.status == 200

    async with http.post(f"channels/{thread.id}/messages", json={"content": "up"}) as response:
        assert response.status == 200
    assert not thread.archived
    async with http.patch(original, json={"content": "edited"}) as response:
        assert response.status == 200
    assert public.response_message.content == "edited"


async def test_multipart_upload_records_attachment(
    http: aiohttp.ClientSession, emulator: Emulator
) -> None:
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps({"content": "board", "attachments": [{"id": 0}]}))
    form.add_field("files[0]", b"PNGDATA", filename="board.png", content_type="image/png")
    async with http.post(f"channels/{emulator.channel.id}/messages", data=form) as response:
        assert response.status == 200
        payload = await response.json()
    assert payload["attachments"][0]["filename"] == "board.png"
    assert emulator.messages_in(emulator.channel)[0].attachments[0]["size"] == 7


async def receive(socket: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
    return json.loads((await socket.receive(timeout=5)).data)


async def test_gateway_identify_ready_resume_and_errors(emulator: Emulator) -> None:
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(emulator.gateway_url) as socket:
            assert (await receive(socket))["op"] == 10
            await socket.send_json({"op": 2, "d": {"token": "wrong", "intents": 0}})
            closing = await socket.receive(timeout=5)
            assert closing.type == aiohttp.WSMsgType.CLOSE and closing.data == 4004

        async with session.ws_connect(emulator.gateway_url) as socket:
            await receive(socket)
            await socket.send_json(
                {"op": 6, "d": {"token": BOT_TOKEN, "session_id": "x", "seq": 1}}
            )
            assert await receive(socket) == {"op": 9, "d": False}

        async with session.ws_connect(emulator.gateway_url) as socket:
            await receive(socket)
            await socket.send_json({"op": 2, "d": {"token": BOT_TOKEN, "intents": 513}})
            ready = await receive(socket)
            assert (ready["t"], ready["s"]) == ("READY", 1)
            assert ready["d"]["resume_gateway_url"] == emulator.gateway_url
            guild = await receive(socket)
            assert (guild["t"], guild["d"]["id"]) == ("GUILD_CREATE", str(emulator.guild.id))
            session_id = ready["d"]["session_id"]

        await emulator.wait_for(lambda: not emulator.gateway.connected, what="disconnect")
        await emulator.gateway.dispatch("TYPING_START", {"channel_id": "1"})
        async with session.ws_connect(emulator.gateway_url) as socket:
            await receive(socket)
            resume = {"token": BOT_TOKEN, "session_id": session_id, "seq": 1}
            await socket.send_json({"op": 6, "d": resume})
            replayed = [await receive(socket) for _ in range(3)]
            assert [(f["t"], f["s"]) for f in replayed] == [
                ("GUILD_CREATE", 2),
                ("TYPING_START", 3),
                ("RESUMED", 3),
            ]
