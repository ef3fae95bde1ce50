"""Settings read from the environment (and ``.env``), in one place.

Why a frozen dataclass: the bot, the tests and the emulator all build settings explicitly, so
nothing reads ``os.environ`` behind their back.

Every setting is checked here, before anything connects: a value the bot cannot use raises
``SettingError``, which names the catalog message that says what is wrong and how to fix it
(``python -m bot`` prints it, without a traceback). ``SETTINGS`` lists them all for
``glory --help``.
"""

from __future__ import annotations

import math
import os
import re
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///./data/glory.db"
DEFAULT_LOBBY_MINUTES = 30
DEFAULT_AI_WORKERS = 1
DEFAULT_PICTURE_WORKERS = 1
DEFAULT_AI_PAUSE_SECONDS = 1.5
DEFAULT_AI_MAX_MS = 450
DEFAULT_MISSED_TURNS = 3
DEFAULT_LOG_LEVEL = "INFO"
DEFAULT_TABLE_UPDATES_PER_SECOND = 20.0
DEFAULT_TABLE_TURN_HOLD_SECONDS = 10.0
"""How long a table may wait at most while its player goes on with their turn
(``bot/outbox/turn_hold.py``)."""
DEFAULT_GLOBAL_REQUESTS_PER_SECOND = 50.0
"""Discord's global limit for a bot token (docs ``topics/rate-limits``); Discord raises it
for large bots on request, and then this setting follows it."""
DEFAULT_HEALTH_FILE = os.path.join(tempfile.gettempdir(), "glory-alive")
"""Where the bot shows it is connected unless ``HEALTH_FILE`` names another file: the
container's health check (``python -m bot.health``) reads the same default, so an empty
``HEALTH_FILE=`` from an env file (compose's ``env_file:``, ``docker run --env-file``) means
this file and not "none"."""
NO_HEALTH_FILE = "off"
"""``HEALTH_FILE=off``: touch no file."""

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
SUPPORTED_DATABASES = ("sqlite", "postgresql", "postgres")
"""SQLAlchemy backend names Glory runs on (``postgres`` is what some hosts hand out)."""
AUTO_SHARDS = "auto"
"""``SHARD_COUNT=auto``: as many shards as Discord recommends, all in this process."""

SETTINGS: tuple[tuple[str, object], ...] = (
    ("DISCORD_TOKEN", None),
    ("DATABASE_URL", DEFAULT_DATABASE_URL),
    ("DEV_GUILD_ID", None),
    ("LOG_LEVEL", DEFAULT_LOG_LEVEL),
    ("LOBBY_MINUTES", DEFAULT_LOBBY_MINUTES),
    ("AI_WORKERS", DEFAULT_AI_WORKERS),
    ("PICTURES", "on"),
    ("PICTURE_WORKERS", DEFAULT_PICTURE_WORKERS),
    ("TABLE_UPDATES_PER_SECOND", DEFAULT_TABLE_UPDATES_PER_SECOND),
    ("TABLE_TURN_HOLD_SECONDS", DEFAULT_TABLE_TURN_HOLD_SECONDS),
    ("GLOBAL_REQUESTS_PER_SECOND", DEFAULT_GLOBAL_REQUESTS_PER_SECOND),
    ("AI_PAUSE_SECONDS", DEFAULT_AI_PAUSE_SECONDS),
    ("AI_MAX_MS", DEFAULT_AI_MAX_MS),
    ("MISSED_TURNS_FOR_TAKEOVER", DEFAULT_MISSED_TURNS),
    ("HEALTH_FILE", DEFAULT_HEALTH_FILE),
    ("SHARD_COUNT", None),
    ("SHARD_IDS", None),
    ("DISCORD_API_BASE", None),
    ("DISCORD_GATEWAY_URL", None),
)
"""Every environment variable ``Settings.from_env`` reads, with its default (``None``: none);
its meaning is the catalog's ``cli.setting.NAME``."""


class SettingError(ValueError):
    """A setting the bot cannot use; ``key`` and ``values`` are the catalog message for it."""

    def __init__(self, key: str, **values: Any) -> None:
        super().__init__(key, values)
        self.key = key
        self.values = values


def redact_url(url: str) -> str:
    """``url`` without its password, fit for a log or a message."""
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        return re.sub(r"(://[^:/@]*:)[^@/]*@", r"\1***@", url)
    return url if parsed.password is None else parsed.render_as_string(hide_password=True)


def _text(env: Mapping[str, str], name: str) -> str:
    return (env.get(name) or "").strip()


def _whole(env: Mapping[str, str], name: str, default: int, minimum: int) -> int:
    text = _text(env, name)
    if not text:
        return default
    try:
        value = int(text)
    except ValueError:
        raise SettingError("cli.bad_whole_number", name=name, value=text) from None
    if value < minimum:
        raise SettingError("cli.too_small", name=name, value=text, minimum=minimum)
    return value


def _switch(env: Mapping[str, str], name: str, default: bool) -> bool:
    text = _text(env, name).lower()
    if not text:
        return default
    if text not in ("on", "off"):
        raise SettingError("cli.bad_switch", name=name, value=text)
    return text == "on"


def _decimal(env: Mapping[str, str], name: str, default: float, minimum: float) -> float:
    text = _text(env, name)
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        raise SettingError("cli.bad_decimal", name=name, value=text) from None
    if not math.isfinite(value):
        raise SettingError("cli.bad_decimal", name=name, value=text)
    if value < minimum:
        raise SettingError("cli.too_small", name=name, value=text, minimum=minimum)
    return value


def _guild(env: Mapping[str, str]) -> int | None:
    if not _text(env, "DEV_GUILD_ID"):
        return None
    return _whole(env, "DEV_GUILD_ID", 0, 1)


def _log_level(env: Mapping[str, str]) -> str:
    given = _text(env, "LOG_LEVEL")
    level = given.upper() or DEFAULT_LOG_LEVEL
    if level not in LOG_LEVELS:
        raise SettingError("cli.bad_log_level", value=given)
    return level


def _shard_count(env: Mapping[str, str]) -> int | None:
    """``SHARD_COUNT``: a whole number of shards, ``auto`` (0 here) or unset (``None``)."""
    name = "SHARD_COUNT"
    text = _text(env, name)
    if not text:
        return None
    if text.lower() == AUTO_SHARDS:
        return 0
    try:
        count = int(text)
    except ValueError:
        raise SettingError("cli.bad_shard_count", value=text) from None
    if count < 1:
        raise SettingError("cli.too_small", name=name, value=text, minimum=1)
    return count


def _shard_ids(env: Mapping[str, str], count: int | None) -> tuple[int, ...] | None:
    """``SHARD_IDS``: shard numbers and ranges (``0,2`` or ``0-3``), each below ``count``."""
    text = _text(env, "SHARD_IDS")
    if not text:
        return None
    if not count:
        raise SettingError("cli.shard_ids_need_count")
    ids: set[int] = set()
    for part in re.split(r"[\s,]+", text):
        if not part:
            continue
        low, dash, high = part.partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise SettingError("cli.bad_shard_ids", value=text)
        first, last = int(low), int(high) if dash else int(low)
        if first > last:
            raise SettingError("cli.bad_shard_ids", value=text)
        if last >= count:
            raise SettingError("cli.shard_out_of_range", shard=last, count=count)
        ids.update(range(first, last + 1))
    if not ids:
        raise SettingError("cli.bad_shard_ids", value=text)
    return tuple(sorted(ids))


def health_file(env: Mapping[str, str]) -> str | None:
    """``HEALTH_FILE``: empty or unset means ``DEFAULT_HEALTH_FILE``, ``off`` none."""
    text = _text(env, "HEALTH_FILE")
    if text.lower() == NO_HEALTH_FILE:
        return None
    return text or DEFAULT_HEALTH_FILE


def check_database_url(url: str) -> str:
    """``url`` if Glory can store its games there (a SQLite file or PostgreSQL)."""
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        raise SettingError("cli.bad_database", url=redact_url(url)) from None
    backend = parsed.get_backend_name()
    if backend not in SUPPORTED_DATABASES:
        raise SettingError("cli.bad_database", url=redact_url(url))
    database = parsed.database or ""
    if backend == "sqlite" and (
        not database or database == ":memory:" or database.startswith("file:")
    ):
        raise SettingError("cli.sqlite_file", url=redact_url(url))
    return url


@dataclass(frozen=True)
class Settings:
    token: str = ""
    database_url: str = DEFAULT_DATABASE_URL
    dev_guild_id: int | None = None
    log_level: str = DEFAULT_LOG_LEVEL
    api_base: str | None = None
    gateway_url: str | None = None
    lobby_minutes: int = DEFAULT_LOBBY_MINUTES
    sync_commands: bool = False
    """Register the slash commands at start-up when they changed
    (``bot/interactions/command_sync.py``); always for ``from_env``, chosen by tests that build
    settings themselves."""
    ai_workers: int = DEFAULT_AI_WORKERS
    """Worker processes for AI searches and hints (0: a thread of this process, for tests)."""
    pictures: bool = True
    """``PICTURES=off``: no pictures anywhere, whatever the servers chose (a host without CPU
    to spare; the loopback tests that are not about pictures)."""
    picture_workers: int = DEFAULT_PICTURE_WORKERS
    """Worker processes that draw each kind of picture (tables, hands; 0: a thread of this
    process, for tests). Pillow holds the interpreter lock for much of a drawing."""
    table_updates_per_second: float = DEFAULT_TABLE_UPDATES_PER_SECOND
    """How many tables this process shows per second at most, all games together (each
    showing is an edit with a new picture; ``bot/outbox/pace.py``)."""
    table_turn_hold_seconds: float = DEFAULT_TABLE_TURN_HOLD_SECONDS
    """How long a table waits at most while the player on turn goes on with their turn (it is
    shown when the turn passes, or the game ends); 0: every move at once
    (``bot/outbox/turn_hold.py``)."""
    global_requests_per_second: float = DEFAULT_GLOBAL_REQUESTS_PER_SECOND
    """Requests a second the bot token may make in all, every process together (Discord's
    global limit; ``bot/outbox/budget.py`` paces them, turn DMs first)."""
    ai_pause_seconds: float = DEFAULT_AI_PAUSE_SECONDS
    """How long an AI player seems to think before its move appears (a readable pace)."""
    ai_max_ms: int = DEFAULT_AI_MAX_MS
    """A search's own deadline in milliseconds (the strong level normally needs less)."""
    missed_turns_for_takeover: int = DEFAULT_MISSED_TURNS
    """After this many turns in a row that ran out of time, the AI plays the seat until the
    player takes it back."""
    health_file: str | None = None
    """A file the bot touches every few seconds while connected to Discord (for a container's
    health check, ``bot/health.py``); ``None``: none (``HEALTH_FILE=off``; ``from_env``'s
    default is ``DEFAULT_HEALTH_FILE``)."""
    shard_count: int | None = None
    """How many shards the bot's gateway is split into (``None``: not sharded, one
    connection; 0: as many as Discord recommends, all run here)."""
    shard_ids: tuple[int, ...] | None = None
    """The shards this process runs (``None``: all of them)."""

    @property
    def sharded(self) -> bool:
        """The gateway is split into shards (``SHARD_COUNT`` is set)."""
        return self.shard_count is not None

    @property
    def runs_every_shard(self) -> bool:
        """This process alone receives every event: other processes cannot share the work."""
        return (
            not self.shard_count
            or self.shard_ids is None
            or (set(self.shard_ids) == set(range(self.shard_count)))
        )

    @property
    def multi_process(self) -> bool:
        """True when other processes run the other shards, so they share the database and the
        store coordinates through it (claims, change notices); a process running every shard
        is alone and keeps the one-process fast path, on PostgreSQL too (shared mode cost one
        process on PostgreSQL about 3x its median click in ``benchmarks/bot_load.py``)."""
        return not self.runs_every_shard

    def shards_text(self) -> str:
        """The shards this process runs, for a log line: ``0,2 of 4``, ``all 4``, ``auto``."""
        if self.shard_count is None:
            return "none"
        if self.shard_count == 0:
            return AUTO_SHARDS
        if self.shard_ids is None:
            return f"all {self.shard_count}"
        return f"{','.join(map(str, self.shard_ids))} of {self.shard_count}"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, *, sync: bool = True) -> Settings:
        """The settings in ``env`` (``os.environ`` by default); ``SettingError`` for a value
        the bot cannot use."""
        env = os.environ if env is None else env
        api_base = _text(env, "DISCORD_API_BASE") or None
        gateway_url = _text(env, "DISCORD_GATEWAY_URL") or None
        if (api_base is None) != (gateway_url is None):
            raise SettingError("cli.endpoints_pair")
        database_url = check_database_url(_text(env, "DATABASE_URL") or DEFAULT_DATABASE_URL)
        shard_count = _shard_count(env)
        shard_ids = _shard_ids(env, shard_count)
        settings = cls(
            token=_text(env, "DISCORD_TOKEN"),
            database_url=database_url,
            dev_guild_id=_guild(env),
            log_level=_log_level(env),
            api_base=api_base,
            gateway_url=gateway_url,
            lobby_minutes=_whole(env, "LOBBY_MINUTES", DEFAULT_LOBBY_MINUTES, 1),
            sync_commands=sync,
            ai_workers=_whole(env, "AI_WORKERS", DEFAULT_AI_WORKERS, 0),
            pictures=_switch(env, "PICTURES", True),
            picture_workers=_whole(env, "PICTURE_WORKERS", DEFAULT_PICTURE_WORKERS, 0),
            table_updates_per_second=_decimal(
                env, "TABLE_UPDATES_PER_SECOND", DEFAULT_TABLE_UPDATES_PER_SECOND, 1
            ),
            table_turn_hold_seconds=_decimal(
                env, "TABLE_TURN_HOLD_SECONDS", DEFAULT_TABLE_TURN_HOLD_SECONDS, 0
            ),
            global_requests_per_second=_decimal(
                env, "GLOBAL_REQUESTS_PER_SECOND", DEFAULT_GLOBAL_REQUESTS_PER_SECOND, 1
            ),
            ai_pause_seconds=_decimal(env, "AI_PAUSE_SECONDS", DEFAULT_AI_PAUSE_SECONDS, 0),
            ai_max_ms=_whole(env, "AI_MAX_MS", DEFAULT_AI_MAX_MS, 1),
            missed_turns_for_takeover=_whole(
                env, "MISSED_TURNS_FOR_TAKEOVER", DEFAULT_MISSED_TURNS, 1
            ),
            health_file=health_file(env),
            shard_count=shard_count,
            shard_ids=shard_ids,
        )
        check_one_process_database(settings)
        return settings


def check_one_process_database(settings: Settings) -> None:
    """SQLite is the embedded, one-process database: a process that runs only some of the
    shards (so others run the rest) needs PostgreSQL, which several processes can share."""
    if settings.runs_every_shard:
        return
    if make_url(settings.database_url).get_backend_name() == "sqlite":
        raise SettingError(
            "cli.shards_need_postgres",
            shards=settings.shards_text(),
            url=redact_url(settings.database_url),
        )
