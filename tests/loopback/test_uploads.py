"""The emulator keeps the bytes of the files the bot uploads (bounded), and serves them at the
attachment's URL, as Discord's CDN does; the playground's page shows the pictures from there."""

from __future__ import annotations

import json

import aiohttp

from bot.loopback import Emulator
from bot.loopback.model import ATTACHMENT_BASE
from bot.loopback.uploads import UploadStore

PNG = b"\x89PNG\r\n\x1a\n" + b"picture" * 100


async def post_with_file(
    http: aiohttp.ClientSession, emulator: Emulator, data: bytes, filename: str
) -> dict:
    form = aiohttp.FormData()
    payload = {"embeds": [{"image": {"url": f"attachment://{filename}"}}]}
    form.add_field("payload_json", json.dumps({**payload, "attachments": [{"id": 0}]}))
    form.add_field("files[0]", data, filename=filename, content_type="image/png")
    async with http.post(f"channels/{emulator.channel.id}/messages", data=form) as response:
        assert response.status == 200
        return await response.json()


def test_the_store_drops_the_oldest_uploads_to_stay_within_its_bytes() -> None:
    store = UploadStore(max_bytes=250)
    first = store.keep("a.png", b"a" * 100)
    second = store.keep("b.png", b"b" * 100)
    third = store.keep("c.png", b"c" * 100)
    assert first is not None and second is not None and third is not None
    assert store.get(first.key) is None  # dropped: 300 bytes would not fit
    assert store.get(second.key) == second and store.get(third.key) == third
    assert store.total_bytes == 200 and store.dropped == 1 and len(store) == 2


def test_a_file_larger_than_the_whole_store_is_not_kept() -> None:
    store = UploadStore(max_bytes=10)
    assert store.keep("big.png", b"x" * 11) is None
    assert store.total_bytes == 0 and len(store) == 0


def test_the_key_is_read_back_only_from_urls_the_store_made() -> None:
    store = UploadStore()
    upload = store.keep("table one.png", b"x")
    assert upload is not None
    url = store.url("127.0.0.1:1234", upload)
    assert url.endswith("/table%20one.png")
    assert store.key_of(url) == upload.key
    assert store.key_of("https://cdn.example/attachments/1/2/x.png") is None
    assert store.key_of("") is None


async def test_an_uploaded_picture_is_served_at_its_attachment_url(
    emulator: Emulator, http: aiohttp.ClientSession
) -> None:
    answer = await post_with_file(http, emulator, PNG, "table.png")
    (attachment,) = answer["attachments"]
    assert attachment["filename"] == "table.png" and attachment["size"] == len(PNG)
    assert attachment["url"].startswith(f"http://127.0.0.1:{emulator.port}/_loopback/attachments/")
    (stored,) = emulator.messages_in(emulator.channel)
    assert stored.attachments[0]["url"] == attachment["url"]
    async with aiohttp.ClientSession() as plain, plain.get(attachment["url"]) as response:
        assert response.status == 200
        assert response.content_type == "image/png"
        assert await response.read() == PNG
    assert emulator.uploads.total_bytes == len(PNG)


async def test_a_dropped_upload_answers_404_and_a_zero_store_keeps_nothing(
    http: aiohttp.ClientSession, emulator: Emulator
) -> None:
    emulator.uploads.max_bytes = len(PNG)
    first = (await post_with_file(http, emulator, PNG, "one.png"))["attachments"][0]["url"]
    await post_with_file(http, emulator, PNG, "two.png")
    async with aiohttp.ClientSession() as plain, plain.get(first) as response:
        assert response.status == 404
    emulator.uploads.max_bytes = 0
    answer = await post_with_file(http, emulator, PNG, "three.png")
    assert answer["attachments"][0]["url"].startswith(ATTACHMENT_BASE)  # named, not served


async def test_an_emulator_built_without_an_upload_store_budget_still_records_the_files() -> None:
    async with Emulator(upload_bytes=0, token="t") as emulator:
        headers = {"Authorization": "Bot t"}
        async with aiohttp.ClientSession(
            base_url=emulator.api_base + "/", headers=headers
        ) as http:
            answer = await post_with_file(http, emulator, PNG, "hand.png")
    assert answer["attachments"][0]["filename"] == "hand.png"
    assert answer["attachments"][0]["url"].startswith(ATTACHMENT_BASE)
    assert len(emulator.uploads) == 0
