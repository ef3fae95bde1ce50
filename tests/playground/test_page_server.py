"""The playground's page server: it answers only its own page, sends the emulator's world as
Discord's JSON and every change once, and acts only as a Discord client could (no bot here:
the emulator alone, so an interaction is never answered)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
import pytest

from bot.i18n import t

from .conftest import Served

PLAY = {
    "name": "play",
    "description": "Open a lobby",
    "type": 1,
    "options": [
        {
            "type": 3,
            "name": "game",
            "description": "which",
            "required": True,
            "choices": [{"name": "Kami", "value": "kami"}],
        },
        {"type": 4, "name": "seats", "description": "how many"},
        {"type": 5, "name": "open", "description": "open to all"},
        {"type": 6, "name": "rival", "description": "who"},
    ],
}
BUTTONS = [{"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "go"}]}]


async def next_event(
    response: aiohttp.ClientResponse, wanted: str, passing: tuple[str, ...] = ("world",)
) -> Any:
    """The data of the next event named ``wanted``; events named in ``passing`` are passed
    over, any other before it fails the test (each change comes once)."""
    for _ in range(10):
        ((name, data),) = await read_events(response, 1)
        if name == wanted:
            return data
        assert name in passing, f"{name} {data} came before {wanted}"
    raise AssertionError(f"no {wanted} event")


def sync(served: Served, *commands: dict[str, Any]) -> None:
    """What ``tree.sync`` leaves in the emulator (with the ids Discord adds)."""
    emulator = served.playground.emulator
    emulator.commands[None] = [
        {**command, "id": str(emulator.snowflakes.next()), "application_id": "1"}
        for command in commands
    ]
    emulator.notifier.changed()


async def read_events(response: aiohttp.ClientResponse, count: int) -> list[tuple[str, Any]]:
    """The next ``count`` server-sent events (keep-alive comments skipped)."""
    events: list[tuple[str, Any]] = []
    name = None
    while len(events) < count:
        line = (await asyncio.wait_for(response.content.readline(), 5)).decode().rstrip("\n")
        if line.startswith("event: "):
            name = line[len("event: ") :]
        elif line.startswith("data: "):
            events.append((str(name), json.loads(line[len("data: ") :])))
    return events


async def test_the_page_is_served_on_loopback_only(served: Served) -> None:
    runner = served.server._runner
    assert runner is not None
    assert {address[0] for address in runner.addresses} == {"127.0.0.1"}
    async with aiohttp.ClientSession() as browser, browser.get(served.url) as response:
        assert response.status == 200  # typed into the address bar: no Origin, no Fetch site
        assert "playground.js" in await response.text()


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://evil.example"},
        {"Origin": "http://127.0.0.1:1"},  # another port is another origin
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
    ],
)
async def test_a_request_from_another_origin_is_refused(
    served: Served, headers: dict[str, str]
) -> None:
    async with aiohttp.ClientSession() as browser:
        async with browser.get(served.url + "api/state", headers=headers) as response:
            assert response.status == 403
        async with browser.post(
            served.url + "api/players", json={"name": "mallory"}, headers=headers
        ) as response:
            assert response.status == 403
    assert [a.user.name for a in served.playground.actors.values()] == ["alice", "bob"]


async def test_a_request_naming_another_host_is_refused(served: Served) -> None:
    """DNS rebinding: a page on evil.example resolved to 127.0.0.1 is same-origin to itself."""
    async with aiohttp.ClientSession() as browser:
        headers = {"Host": f"evil.example:{served.server.port}"}
        async with browser.get(served.url + "api/state", headers=headers) as response:
            assert response.status == 403


async def test_a_plain_form_post_is_refused(served: Served) -> None:
    """A form on another site can post text/plain without asking first; only JSON is taken."""
    async with served.client() as page, page.post("api/players", data="name=mallory") as r:
        assert r.status == 403
    assert len(served.playground.actors) == 2


async def test_the_state_holds_players_channels_and_the_synced_commands(served: Served) -> None:
    sync(served, PLAY)
    async with served.client() as page, page.get("api/state") as response:
        state = await response.json()
    assert [(p["name"], p["locale"]) for p in state["players"]] == [
        ("alice", "en-US"),
        ("bob", "en-US"),
    ]
    kinds = sorted((c["type"], c["name"]) for c in state["channels"])
    assert kinds == [(0, "general"), (1, ""), (1, "")]  # #general and the two players' DMs
    assert [c["name"] for c in state["commands"]] == ["play"]
    assert state["bot"]["bot"] is True and state["messages"] == []
    assert [level["value"] for level in state["ai_levels"]] == ["easy", "medium", "strong", "rules"]


async def test_page_texts_come_from_the_catalog_in_the_browsers_language(served: Served) -> None:
    async with served.client() as page:
        async with page.get("api/state", headers={"Accept-Language": "de-DE,en;q=0.5"}) as r:
            german = await r.json()
        async with page.get("api/state?lang=ru") as response:
            russian = await response.json()
    assert german["locale"] == "de" and german["texts"]["fill"] == t("playground.page.fill", "de")
    assert "/spielen" in german["texts"]["empty"]  # {cmd_play}, filled from the same catalog
    assert russian["texts"]["used"] == "{user} использует {command}"  # kept for the page


async def test_a_slash_command_is_typed_by_the_commands_definition(served: Served) -> None:
    sync(served, PLAY)
    playground = served.playground
    alice, bob = playground.actors.values()
    body = {
        "kind": "slash",
        "user_id": str(alice.user.id),
        "channel_id": str(playground.emulator.channel.id),
        "command": "play",
        "options": {"game": "kami", "seats": "3", "open": "true", "rival": str(bob.user.id)},
    }
    async with served.client() as page, page.post("api/act", json=body) as response:
        answer = await response.json()
    assert response.status == 200 and answer["acknowledged"] is False  # nobody answers here
    (record,) = playground.emulator.interactions.values()
    assert record.user_id == alice.user.id
    options = {o["name"]: o["value"] for o in record.data["options"]}
    assert options == {"game": "kami", "seats": 3, "open": True, "rival": str(bob.user.id)}
    assert str(bob.user.id) in record.data["resolved"]["users"]


@pytest.mark.parametrize(
    ("body", "key"),
    [
        ({"kind": "slash", "user_id": "1", "command": "play"}, "playground.refused.player"),
        ({"kind": "slash", "command": "nope"}, "playground.refused.command"),
        (
            {"kind": "slash", "command": "play", "options": {"colour": "red"}},
            "playground.refused.option",
        ),
        (
            {"kind": "slash", "command": "play", "options": {"seats": "many"}},
            "playground.refused.option",
        ),
        ({"kind": "dance"}, "playground.refused.request"),
        ({"kind": "click", "message_id": "12", "custom_id": "go"}, "playground.refused.message"),
    ],
)
async def test_a_bad_request_gets_a_clear_refusal_and_changes_nothing(
    served: Served, body: dict[str, Any], key: str
) -> None:
    sync(served, PLAY)
    playground = served.playground
    alice = next(iter(playground.actors.values()))
    body = {"user_id": str(alice.user.id), "channel_id": str(playground.emulator.channel.id)} | body
    async with served.client() as page, page.post("api/act", json=body) as response:
        answer = await response.json()
    assert response.status == 400
    prefix = t(key, "en", name="{name}", reason="{reason}").split("{")[0]
    assert answer["error"].startswith(prefix)
    assert playground.emulator.interactions == {}


async def test_malformed_json_is_refused(served: Served) -> None:
    async with served.client() as page:
        headers = {"Content-Type": "application/json"}
        async with page.post("api/act", data="{not json", headers=headers) as response:
            assert response.status == 400
            assert (await response.json())["error"] == t("playground.refused.request", "en")


async def test_nobody_can_click_in_another_players_dms(served: Served) -> None:
    playground = served.playground
    alice, bob = playground.actors.values()
    emulator = playground.emulator
    message = await emulator.post_message_as_bot(
        emulator.world.dm_channel(bob.user), {"content": "your hand", "components": BUTTONS}
    )
    body = {
        "kind": "click",
        "user_id": str(alice.user.id),
        "message_id": str(message.id),
        "custom_id": "go",
    }
    async with served.client() as page, page.post("api/act", json=body) as response:
        answer = await response.json()
    assert response.status == 400 and "another user's DM" in answer["error"]
    assert emulator.interactions == {}


async def test_fill_with_ai_without_a_lobby_is_refused(served: Served) -> None:
    playground = served.playground
    alice = next(iter(playground.actors.values()))
    body = {
        "user_id": str(alice.user.id),
        "channel_id": str(playground.emulator.channel.id),
        "count": 1,
        "level": "easy",
    }
    async with served.client() as page, page.post("api/fill", json=body) as response:
        assert response.status == 400
        assert (await response.json())["error"] == t("playground.refused.fill", "en")
    for bad in ({"count": 9}, {"level": "godlike"}, {"count": "x"}):
        async with served.client() as page, page.post("api/fill", json=body | bad) as response:
            assert response.status == 400


async def test_players_and_channels_added_from_the_page(served: Served) -> None:
    async with served.client() as page:
        async with page.post("api/players", json={"name": "Ösel", "locale": "de"}) as response:
            assert response.status == 200
        async with page.post("api/players", json={"name": "Ösel"}) as response:
            assert response.status == 400  # the name is taken
        async with page.post("api/players", json={"name": " "}) as response:
            assert response.status == 400
        async with page.post("api/channels", json={"name": "Kami Night"}) as response:
            assert response.status == 200
    actors = served.playground.actors.values()
    assert [(a.user.name, a.locale) for a in actors][-1] == ("Ösel", "de")
    emulator = served.playground.emulator
    names = [emulator.world.channels[cid].name for cid in emulator.guild.channel_ids]
    assert names == ["general", "kami-night"]


async def test_the_event_stream_sends_a_snapshot_then_each_change_once(served: Served) -> None:
    emulator = served.playground.emulator
    async with served.client() as page, page.get("api/events") as stream:
        assert stream.headers["Content-Type"] == "text/event-stream"
        ((name, snapshot),) = await read_events(stream, 1)
        assert name == "snapshot" and snapshot["messages"] == []
        message = await emulator.post_message_as_bot(emulator.channel, {"content": "**hi**"})
        created = await next_event(stream, "message")
        assert created["content"] == "**hi**" and created["page"]["revision"] == 0
        await emulator.edit_message_as_bot(message, {"content": "hello"})
        edited = await next_event(stream, "message")
        assert (edited["id"], edited["content"], edited["page"]["revision"]) == (
            str(message.id),
            "hello",
            1,
        )
        await emulator.delete_message(message)
        assert await next_event(stream, "delete") == {"id": str(message.id)}


async def test_an_unanswered_click_is_reported_as_failed_to_its_player(served: Served) -> None:
    playground = served.playground
    alice = next(iter(playground.actors.values()))
    emulator = playground.emulator
    message = await emulator.post_message_as_bot(
        emulator.channel, {"content": "table", "components": BUTTONS}
    )
    async with served.client() as page, page.get("api/events") as stream:
        await read_events(stream, 1)  # the snapshot
        body = {
            "kind": "click",
            "user_id": str(alice.user.id),
            "message_id": str(message.id),
            "custom_id": "go",
        }
        async with page.post("api/act", json=body) as response:
            assert (await response.json())["acknowledged"] is False
        # The table may come again after the snapshot: a snapshot can be ahead of the feed.
        failed = await next_event(stream, "failed", passing=("world", "message"))
        world = await next_event(stream, "world")
    assert failed == {
        "user_id": str(alice.user.id),
        "channel_id": str(emulator.channel.id),
        "command": False,
    }
    assert world["problems"]["failed"] == 1 and playground.failures[0].user_id == alice.user.id


async def test_attachments_are_served_from_the_emulators_store(served: Served) -> None:
    emulator = served.playground.emulator
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps({"content": "", "attachments": [{"id": 0}]}))
    form.add_field("files[0]", b"\x89PNG picture", filename="hand.png", content_type="image/png")
    async with (
        aiohttp.ClientSession(headers={"Authorization": "Bot x"}) as bot,
        bot.post(f"{emulator.api_base}/channels/{emulator.channel.id}/messages", data=form) as r,
    ):
        assert r.status == 200
    async with served.client() as page:
        async with page.get("api/state") as response:
            (message,) = (await response.json())["messages"]
        (attachment,) = message["attachments"]
        assert attachment["url"].startswith("/attachments/")
        async with page.get(attachment["url"].lstrip("/")) as response:
            assert response.status == 200 and await response.read() == b"\x89PNG picture"
        async with page.get("attachments/999/hand.png") as response:
            assert response.status == 404
