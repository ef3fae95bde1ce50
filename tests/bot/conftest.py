"""SimCord fixtures: the real bot against a simulated Discord and a SQLite file in tmp_path."""

from __future__ import annotations

import copy
import logging
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
import simcord.env
import simcord.http.router
import simcord.interactions
from simcord.backend.errors import BackendError
from simcord.types import HttpLogEntry

from bot.app import GloryBot
from bot.loopback.discord_limits import (
    callback_problems,
    commands_problems,
    message_extras,
    message_problems,
    refusal,
)
from bot.loopback.openapi import Contract
from bot.loopback.openapi import refusal as contract_refusal
from bot.outbox.pace import TablePace
from bot.process.config import Settings


def make_bot(database_url: str, *, pictures: bool = False, **settings: Any) -> GloryBot:
    """A bot like ``make run`` builds, on the given database (``settings``: others).

    Differences: delivered outbox entries are forgotten right after the moment's deliveries
    instead of half a second later, and a game's table is shown after every move instead of at
    most once a second (SimCord waits out, in real time, every timer due before its settling
    deadline, so the production delays would add to every click; ``test_outbox`` tests the
    pace), and a table does not wait while its player goes on with their turn
    (``TABLE_TURN_HOLD_SECONDS`` 0: these tests look at the table after each move, and SimCord
    settles before a hold of seconds ends; ``test_turn_hold`` tests the hold); AI
    searches and pictures run in threads of the test's process (no worker processes per
    test) and AI players move without a readable pause, unless ``settings`` say otherwise.
    Pictures are off unless ``pictures`` (``tests/bot/test_pictures_messages.py`` and
    ``tests/pictures/`` test them; drawing every move in the test process tripled the time of
    a complete game).
    """
    chosen = {
        "ai_workers": 0,
        "picture_workers": 0,
        "ai_pause_seconds": 0.0,
        "pictures": pictures,
        "table_turn_hold_seconds": 0.0,
        **settings,
    }
    bot = GloryBot(Settings(token="test", database_url=database_url, sync_commands=True, **chosen))
    bot.outbox.delete_after = 0
    bot.outbox.pace = TablePace(0)
    return closed_after_the_test(bot)


def closed_after_the_test(bot: GloryBot) -> GloryBot:
    """``bot``, whose database connections ``closed_database_connections`` closes once the
    test is over (``make_bot`` does this for every bot it makes)."""
    _made_bots.append(bot)
    return bot


_made_bots: list[GloryBot] = []
"""The bots of ``closed_after_the_test``, until the test that made them is over."""


@pytest.fixture(autouse=True)
async def closed_database_connections() -> AsyncIterator[None]:
    """Close the database connections of every bot the test made (``closed_after_the_test``)
    once it is over.

    SimCord's shutdown cancels a bot's tasks but does not close the bot. Its connections then
    stayed open until the garbage collector found them, maybe during a later test, and
    aiosqlite stopped each one's thread through whatever event loop was current then: at times
    one already closed, which pytest reported as "Event loop is closed" in an aiosqlite thread
    under an unrelated test. (Autouse: set up first, so torn down after ``simcord_env``.)
    """
    made_before = len(_made_bots)
    yield
    while len(_made_bots) > made_before:
        store = getattr(_made_bots.pop(), "store", None)
        if store is not None:
            await store.close_connections()


@pytest.fixture
def database_url(tmp_path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path}/glory.db"


@pytest.fixture
def simcord_bot(database_url):
    return make_bot(database_url)


def pytest_configure(config) -> None:
    config.addinivalue_line("markers", "logs_errors: the test provokes errors the bot logs")


@pytest.fixture(autouse=True)
def no_logged_errors(request, caplog):
    """The bot logs every swallowed exception; a test fails if one happened unexpectedly."""
    yield
    if request.node.get_closest_marker("logs_errors"):
        return
    errors = [
        record
        for record in caplog.get_records("call")
        if record.levelno >= logging.ERROR and record.name.startswith("bot")
    ]
    assert not errors, [record.getMessage() for record in errors]


@pytest.fixture
def client_locales(monkeypatch) -> dict[int, str]:
    """Per-user client languages for SimCord, which sends ``en-US`` in every interaction.

    Real Discord sends the user's client language as ``locale`` and the server's language as
    ``guild_locale``; this patches SimCord's interaction payload to do the same: ``locale`` from
    the returned mapping (user id → Discord locale, ``en-US`` if absent) and ``guild_locale``
    from the simulated guild's ``preferred_locale``.
    """
    languages: dict[int, str] = {}
    original = simcord.interactions.base_payload

    def with_languages(backend, **kwargs):  # type: ignore[no-untyped-def]
        record, payload = original(backend, **kwargs)
        payload["locale"] = languages.get(kwargs["user_id"], "en-US")
        if kwargs["guild_id"] is not None:
            payload["guild_locale"] = backend.get_guild(kwargs["guild_id"]).preferred_locale
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", with_languages)
    return languages


SETTLE_POLL_SECONDS = 0.002


@pytest.fixture(autouse=True)
def quick_settling(monkeypatch) -> None:
    """Poll SimCord's settling every 2 ms instead of 50 ms.

    After each action SimCord waits until the bot is idle. When it finds only a ready callback
    queued (discord.py's done-callback of a finished item task, for one), it sleeps its whole
    poll interval instead of yielding once, which made every click cost ~50 ms of idle time
    whenever the timing lined up. A shorter poll changes nothing else: settling still needs
    the same idle or parked state.
    """
    original = simcord.env.Env._settle_internal

    async def settle(self, *, idle: float = SETTLE_POLL_SECONDS, **kwargs):  # type: ignore[no-untyped-def]
        await original(self, idle=min(idle, SETTLE_POLL_SECONDS), **kwargs)

    monkeypatch.setattr(simcord.env.Env, "_settle_internal", settle)


def payload_problems(method: str, path: str, body: Any) -> list[str]:
    """How the message ``body`` of a request to ``path`` breaks Discord's limits.

    The requests that create or edit a message: channel messages (POST, PATCH), interaction
    callbacks (a new message, 4, or an update of the clicked one, 7), webhook follow-ups
    (POST) and edits of an interaction's messages, ``@original`` included (PATCH). Anything
    else has no message to check.
    """
    parts = path.strip("/").split("/")
    match method, parts:
        case "PUT", ["applications", _, "commands"] | ["applications", _, "guilds", _, "commands"]:
            return commands_problems(body)
    if not isinstance(body, dict):
        return []
    match method, parts:
        case "POST", ["interactions", _, _, "callback"]:
            return callback_problems(body) + message_extras(body.get("data"))
        case "POST", ["channels", _, "messages"] | ["webhooks", _, _]:
            return message_problems(body) + message_extras(body)
        case "PATCH", ["channels", _, "messages", _] | ["webhooks", _, _, "messages", _]:
            return message_problems(body, creating=False) + message_extras(body)
    return []


def _query(params: Any) -> dict[str, str]:
    """SimCord's ``params`` as the query string aiohttp would have sent."""
    shown = {}
    for key, value in (params or {}).items():
        shown[key] = ("true" if value else "false") if isinstance(value, bool) else str(value)
    return shown


@pytest.fixture(autouse=True)
def discord_payload_limits(request, monkeypatch) -> Iterator[None]:
    """SimCord refuses what Discord refuses: 400 with code 50035.

    SimCord checks only some limits itself; this runs every request the bot sends through
    Discord's API description (``bot/loopback/openapi.py``: route, query, JSON body or a
    multipart upload's ``payload_json``) and every message through ``bot/loopback/
    discord_limits.py`` first, so a request that Discord would refuse fails here too
    (discord.py raises ``HTTPException``; the bot logs it, and this fixture fails the test
    unless it is marked ``breaks_contract``). A refused request still appears in
    ``env.http_requests``, like one met by an injected fault.
    """
    original = simcord.http.router.dispatch
    contract = Contract.load()
    broken: list[str] = []

    def checked(backend: Any, method: str, path: str, *, json: Any = None, **kwargs: Any) -> Any:
        problems = payload_problems(method, path, json)
        breaches = contract.request_problems(method, path, _query(kwargs.get("params")), json)
        if problems or breaches:
            params = copy.deepcopy(kwargs.get("params") or {})
            entry = HttpLogEntry(method, path, params, copy.deepcopy(json), kwargs.get("reason"))
            backend.http_requests.append(entry)
            broken.extend(f"{method} {path}: {breach}" for breach in breaches)
            answer = refusal(problems)
            if breaches:  # both, as the emulator answers them (``RestApi._payload_refusal``)
                answer = contract_refusal(breaches)
                answer["errors"].setdefault("_errors", []).extend(
                    {"code": "BASE_TYPE_BAD_LENGTH", "message": problem} for problem in problems
                )
            raise BackendError(400, answer["code"], answer["message"], errors=answer.get("errors"))
        return original(backend, method, path, json=json, **kwargs)

    monkeypatch.setattr(simcord.http.router, "dispatch", checked)
    yield
    if not request.node.get_closest_marker("breaks_contract"):
        assert not broken, "requests broke Discord's API description:\n" + "\n".join(broken[:20])
