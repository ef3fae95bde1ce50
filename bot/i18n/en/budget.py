"""English texts of Discord's global request budget (its setting)."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "cli.setting.GLOBAL_REQUESTS_PER_SECOND": (
        "how many requests a second the bot token may make to Discord in all, every process "
        "together (Discord allows 50 unless it raised the bot's limit)"
    ),
}
