"""Settings read from the environment (and ``.env``), in one place.

Why a frozen dataclass: the bot, the tests and the emulator all build settings explicitly, so
nothing reads ``os.environ`` behind their back.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///./data/glory.db"
DEFAULT_LOBBY_MINUTES = 30
DEFAULT_AI_WORKERS = 1
DEFAULT_AI_PAUSE_SECONDS = 1.5
DEFAULT_AI_MAX_MS = 450
DEFAULT_MISSED_TURNS = 3


def _number(env: Mapping[str, str], name: str, default: float) -> float:
    text = (env.get(name) or "").strip()
    return float(text) if text else default


@dataclass(frozen=True)
class Settings:
    token: str = ""
    database_url: str = DEFAULT_DATABASE_URL
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    api_base: str | None = None
    gateway_url: str | None = None
    lobby_minutes: int = DEFAULT_LOBBY_MINUTES
    sync_commands: bool = False
    ai_workers: int = DEFAULT_AI_WORKERS
    """Worker processes for AI searches and hints (0: a thread of this process, for tests)."""
    ai_pause_seconds: float = DEFAULT_AI_PAUSE_SECONDS
    """How long an AI player seems to think before its move appears (a readable pace)."""
    ai_max_ms: int = DEFAULT_AI_MAX_MS
    """A search's own deadline in milliseconds (the strong level normally needs less)."""
    missed_turns_for_takeover: int = DEFAULT_MISSED_TURNS
    """After this many turns in a row that ran out of time, the AI plays the seat until the
    player takes it back."""

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, *, sync: bool = False) -> Settings:
        env = os.environ if env is None else env
        guild = (env.get("DEV_GUILD_ID") or "").strip()
        minutes = (env.get("LOBBY_MINUTES") or "").strip()
        return cls(
            token=(env.get("DISCORD_TOKEN") or "").strip(),
            database_url=(env.get("DATABASE_URL") or "").strip() or DEFAULT_DATABASE_URL,
            dev_guild_id=int(guild) if guild else None,
            log_level=(env.get("LOG_LEVEL") or "INFO").strip().upper(),
            api_base=(env.get("DISCORD_API_BASE") or "").strip() or None,
            gateway_url=(env.get("DISCORD_GATEWAY_URL") or "").strip() or None,
            lobby_minutes=int(minutes) if minutes else DEFAULT_LOBBY_MINUTES,
            sync_commands=sync,
            ai_workers=int(_number(env, "AI_WORKERS", DEFAULT_AI_WORKERS)),
            ai_pause_seconds=_number(env, "AI_PAUSE_SECONDS", DEFAULT_AI_PAUSE_SECONDS),
            ai_max_ms=int(_number(env, "AI_MAX_MS", DEFAULT_AI_MAX_MS)),
            missed_turns_for_takeover=int(
                _number(env, "MISSED_TURNS_FOR_TAKEOVER", DEFAULT_MISSED_TURNS)
            ),
        )
