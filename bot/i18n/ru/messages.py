"""Русские тексты сообщений стола и руки (Components V2): подписи очков, чей ход в личном
сообщении, что произошло после твоего последнего хода."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "table.this_round": "**В этом раунде:** {scores}",
    "table.total": "**Всего:** {scores}",
    "table.side_points": {
        "one": "{name} — {count} очко",
        "few": "{name} — {count} очка",
        "many": "{name} — {count} очков",
        "other": "{name} — {count} очка",
    },
    "hand.waiting_since": (
        "После хода {move} ходит **{name}**: {decision}. "
        "Когда наступит твой ход, придёт новое сообщение."
    ),
    "hand.story": "После твоего последнего хода",
    "hand.story_latest": "Последние ходы",
    "over.scores.final": "Итоговый счёт (всего)",
    "over.scores.stopped": "Счёт на момент остановки игры (всего)",
}
