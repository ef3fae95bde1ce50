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
        )
