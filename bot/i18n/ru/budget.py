"""Русские тексты о глобальном бюджете запросов к Discord (его настройка)."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "cli.setting.GLOBAL_REQUESTS_PER_SECOND": (
        "сколько запросов в секунду токен бота может отправить в Discord всего, всеми "
        "процессами вместе (Discord разрешает 50, если не повысил лимит бота)"
    ),
}
