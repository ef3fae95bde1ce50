"""Discord's own contract (``bot/loopback/openapi.py``): requests checked against Discord's
OpenAPI description, the emulator's answers shaped like Discord's, the description found (or
its absence said loudly)."""

from __future__ import annotations

import json
from pathlib import Path

import aiohttp
import pytest

from bot.loopback import Emulator
from bot.loopback.openapi import (
    ALLOWED_EXTRA_PROPERTIES,
    INTEGER_SNOWFLAKES,
    SPEC_SETTING,
    Contract,
    SpecMissing,
    find_spec,
    spec_candidates,
)

from .conftest import post_json, sync_ping

BUTTON = {"type": 2, "style": 1, "label": "Go", "custom_id": "go"}
V2_FLAG = 1 << 15


@pytest.fixture(scope="module")
def contract() -> Contract:
    return Contract.load()


def test_the_description_is_found_beside_a_checkout_and_above_a_worktree(tmp_path: Path) -> None:
    """``../shared`` of a clone (CI: a fresh clone with shared/ beside it; /work/main), and any
    folder further up (a worktree in /work/wt/<name> finds /work/shared)."""
    clone = tmp_path / "ci" / "glory"
    worktree = tmp_path / "wt" / "contract"
    for root in (clone, worktree):
        root.mkdir(parents=True)
    spec = tmp_path / "ci" / "shared" / "discord_api_spec" / "openapi.json"
    spec.parent.mkdir(parents=True)
    spec.write_text("{}")
    assert find_spec(clone) == spec
    assert spec_candidates(clone)[0] == spec  # ../shared first (no setting)
    beside = tmp_path / "shared" / "discord_api_spec" / "openapi.json"
    beside.parent.mkdir(parents=True)
    beside.write_text("{}")
    assert find_spec(worktree) == beside


def test_a_missing_description_names_every_place_looked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SPEC_SETTING, str(tmp_path / "nowhere.json"))
    root = tmp_path / "lonely" / "glory"
    root.mkdir(parents=True)
    with pytest.raises(SpecMissing) as missing:
        find_spec(root)
    text = str(missing.value)
    assert str(tmp_path / "nowhere.json") in text
    assert str(tmp_path / "lonely" / "shared" / "discord_api_spec" / "openapi.json") in text
    assert SPEC_SETTING in text


def test_the_setting_names_the_description(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    chosen = tmp_path / "spec"
    chosen.mkdir()
    (chosen / "openapi.json").write_text("{}")
    monkeypatch.setenv(SPEC_SETTING, str(chosen))
    assert find_spec(tmp_path) == chosen / "openapi.json"


def test_an_emulator_without_the_description_says_where_it_looked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def missing() -> Contract:
        raise SpecMissing("looked in: here")

    monkeypatch.setattr(Contract, "load", missing)
    emulator = Emulator()
    assert emulator.contract is None
    assert emulator.contract_missing == "looked in: here"


def test_a_command_option_beyond_discords_integers_is_refused(contract: Contract) -> None:
    """The /replay bug: max_value 2^63-1 makes Discord refuse the whole command sync."""
    option = {"type": 4, "name": "game", "description": "Game", "max_value": 2**63 - 1}
    body = [{"name": "replay", "description": "Replay", "options": [option]}]
    problems = contract.request_problems("PUT", "/applications/1/commands", {}, body)
    assert [p.path for p in problems] == ["[0].options[0].max_value"]
    option["max_value"] = 2**53 - 1
    assert contract.request_problems("PUT", "/applications/1/commands", {}, body) == []


def test_unknown_keys_wrong_types_and_lengths_are_named_by_path(contract: Contract) -> None:
    body = {
        "content": "hi",
        "colour": 3,
        "components": [{"type": 1, "components": [{**BUTTON, "custom_id": "x" * 101}]}],
        "embeds": [{"title": 5}],
    }
    found = {
        p.path: p.code for p in contract.request_problems("POST", "/channels/1/messages", {}, body)
    }
    assert found == {
        "colour": "UNKNOWN_FIELD",
        "components[0].components[0].custom_id": "BASE_TYPE_BAD_LENGTH",
        "embeds[0].title": "BASE_TYPE_BAD_TYPE",
    }


def test_the_path_and_query_are_checked_too(contract: Contract) -> None:
    found = contract.request_problems(
        "POST", "/channels/abc/messages", {"x": "1"}, {"content": "a"}
    )
    assert sorted(p.path for p in found) == ["<path channel_id>", "<query x>"]
    missing = contract.request_problems("GET", "/no/such/route", {}, None)
    assert [p.code for p in missing] == ["UNKNOWN_ROUTE"]


def test_what_discord_py_sends_outside_the_description_is_allowed_by_name(
    contract: Contract,
) -> None:
    edit = {"content": "a", "tts": False, "embeds": [{"title": "t", "flags": 0}]}
    assert contract.request_problems("PATCH", "/channels/1/messages/2", {}, edit) == []
    upload = {"content": "a", "attachments": [{"id": 0, "filename": "t.png"}]}
    assert contract.request_problems("POST", "/channels/1/messages", {}, upload) == []
    assert contract.request_problems("POST", "/users/@me/channels", {}, {"recipient_id": 5}) == []
    callback = {"type": 7, "data": {"content": "a", "tts": False}}
    query = {"with_response": "1"}
    assert contract.request_problems("POST", "/interactions/1/t/callback", query, callback) == []
    assert contract.request_problems("POST", "/webhooks/1/t", {"wait": "1"}, {"content": "a"}) == []
    # a digit boolean is allowed only where discord.py sends one
    assert contract.request_problems("POST", "/webhooks/1/t", {"wait": "yes"}, {"content": "a"})


def test_every_allowance_is_still_outside_the_description(contract: Contract) -> None:
    """An allowance the description has since taken in is dead weight: it must go."""
    spec = json.loads(Path(contract.source or find_spec()).read_text())
    schemas = spec["components"]["schemas"]
    for schema, key in ALLOWED_EXTRA_PROPERTIES:
        assert key not in schemas[schema]["properties"], (schema, key)
    for schema, key in INTEGER_SNOWFLAKES:
        assert "SnowflakeType" in json.dumps(schemas[schema]["properties"][key]), (schema, key)


def test_components_v2_messages_keep_the_contract(contract: Contract) -> None:
    """Layouts change (Components V2 containers, sections, galleries): the description
    accepts them, nothing here knows today's layouts."""
    text = {"type": 10, "content": "Table"}
    thumbnail = {"type": 11, "media": {"url": "attachment://t.png"}}
    gallery = {"type": 12, "items": [{"media": {"url": "attachment://t.png"}, "description": "t"}]}
    section = {"type": 9, "components": [text], "accessory": thumbnail}
    row = {"type": 1, "components": [BUTTON]}
    container = {"type": 17, "components": [text, section, gallery, {"type": 14}, row]}
    body = {"flags": V2_FLAG, "components": [container], "attachments": [{"id": 0}]}
    assert contract.request_problems("POST", "/channels/1/messages", {}, body) == []
    update = {"type": 7, "data": body}
    query = {"with_response": "1"}
    assert contract.request_problems("POST", "/interactions/1/t/callback", query, update) == []
    broken = {**body, "components": [{**container, "components": [{"type": 10}]}]}
    found = contract.request_problems("POST", "/channels/1/messages", {}, broken)
    assert [p.path for p in found] == ["components[0].components[0].content"]


async def test_the_emulator_refuses_a_breach_with_discords_50035_and_changes_nothing(
    emulator: Emulator, http: aiohttp.ClientSession
) -> None:
    path = f"channels/{emulator.channel.id}/messages"
    async with http.post(path, json={"content": "hi", "conent": "typo"}) as response:
        assert response.status == 400
        answer = await response.json()
    assert answer["code"] == 50035
    assert answer["errors"]["conent"]["_errors"][0]["code"] == "UNKNOWN_FIELD"
    assert emulator.messages_in(emulator.channel) == []
    assert [v.path for v in emulator.contract_violations] == [f"/{path}"]
    emulator.contract_violations.clear()  # on purpose: the suite would fail the test


async def test_a_multipart_upload_is_checked_on_its_payload_json(
    emulator: Emulator, http: aiohttp.ClientSession
) -> None:
    form = aiohttp.FormData()
    form.add_field(
        "payload_json", json.dumps({"content": "x", "attachments": [{"id": 0}], "bad": 1})
    )
    form.add_field("files[0]", b"png", filename="t.png", content_type="image/png")
    async with http.post(f"channels/{emulator.channel.id}/messages", data=form) as response:
        assert response.status == 400
        assert "bad" in (await response.json())["errors"]
    assert emulator.messages_in(emulator.channel) == []
    emulator.contract_violations.clear()  # on purpose: the suite would fail the test


async def test_a_channel_check_comes_before_the_body(
    emulator: Emulator, http: aiohttp.ClientSession
) -> None:
    """As on Discord, an unknown channel is named before what is wrong with the body."""
    async with http.post("channels/123/messages", json={"conent": "x"}) as response:
        assert response.status == 404
    assert not emulator.contract_violations


async def test_answers_have_discords_shape(emulator: Emulator, http: aiohttp.ClientSession) -> None:
    """Attachments with their url, components with numeric ids, users with flags, the
    application's required fields, commands as Discord stores them: every answer of this test
    is checked against the response schemas (the suite's guard), and these in particular."""
    contract = emulator.contract
    assert contract is not None
    form = aiohttp.FormData()
    payload = {
        "content": "x",
        "attachments": [{"id": 0}],
        "components": [{"type": 1, "components": [BUTTON]}],
    }
    form.add_field("payload_json", json.dumps(payload))
    form.add_field("files[0]", b"png", filename="t.png", content_type="image/png")
    async with http.post(f"channels/{emulator.channel.id}/messages", data=form) as response:
        message = await response.json()
    assert message["attachments"][0]["url"].endswith("/t.png")
    assert message["attachments"][0]["id"] != "0"
    assert isinstance(message["components"][0]["id"], int)
    assert isinstance(message["components"][0]["components"][0]["id"], int)
    async with http.get("oauth2/applications/@me") as response:
        application = await response.json()
    assert not contract.response_problems("GET", "/oauth2/applications/@me", 200, application)
    await sync_ping(http, emulator)
    (command,) = emulator.commands[None]
    assert command["default_member_permissions"] is None and command["version"]
    assert not emulator.answer_problems


async def test_a_layout_messages_answer_carries_the_members_discord_fills_in(
    emulator: Emulator, http: aiohttp.ClientSession
) -> None:
    """A container sent without ``spoiler`` or a separator without ``spacing`` comes back with
    them, as Discord's answers always carry them (its description marks them required)."""
    contract = emulator.contract
    assert contract is not None
    layout = {
        "type": 17,
        "accent_color": 0x3366FF,
        "components": [{"type": 10, "content": "Game over"}, {"type": 14}],
    }
    payload = {"flags": 1 << 15, "components": [layout]}
    async with http.post(f"channels/{emulator.channel.id}/messages", json=payload) as response:
        message = await response.json()
    container = message["components"][0]
    assert container["spoiler"] is False
    assert container["components"][1]["spacing"] == 1
    assert container["components"][1]["divider"] is True
    path = f"/channels/{emulator.channel.id}/messages"
    assert not contract.response_problems("POST", path, 200, message)


async def test_a_deferred_answer_names_its_message_without_showing_it(
    emulator: Emulator, http: aiohttp.ClientSession
) -> None:
    await sync_ping(http, emulator)
    record = await emulator.add_actor("ana").slash("ping")
    path = f"interactions/{record.id}/{record.token}/callback"
    status, answer = await post_json(http, path, {"type": 5, "data": {"flags": 64}})
    assert status == 200
    assert answer["interaction"]["response_message_loading"] is True
    assert "resource" not in answer
