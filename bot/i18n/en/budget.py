"""English texts of Discord's global request budget (its settings: the limit, the
table's hold)."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "cli.setting.GLOBAL_REQUESTS_PER_SECOND": (
        "how many requests a second the bot token may make to Discord in all, every process "
        "together (Discord allows 50 unless it raised the bot's limit)"
    ),
    "cli.setting.TABLE_TURN_HOLD_SECONDS": (
        "how many seconds at most a table waits while its player goes on with their turn "
        "(it is shown when the turn passes; 0: every move at once)"
    ),
}
