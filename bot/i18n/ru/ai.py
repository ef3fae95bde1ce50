"""Русские тексты ИИ-игроков: уровни, меню мест в лобби, пометки на столе."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "ai.level.easy": "лёгкий",
    "ai.level.medium": "средний",
    "ai.level.strong": "сильный",
    "ai.level.rules": "по правилам",
    "lobby.seat_ai": "{number}. {name} (ИИ, {level})",
    "lobby.add_ai": "Добавить ИИ-игрока ({level})",
    "lobby.remove_ai": "Убрать: {name}",
    "lobby.only_host_seats": (
        "Только хозяин лобби может добавлять ИИ-игроков и задавать время хода."
    ),
    "lobby.seat_choice_gone": "Этого варианта в лобби уже нет; ничего не изменено.",
    "autoplay.clock": "⏰ У игрока {seat} вышло время; за него сходил ИИ.",
    "autoplay.takeover": (
        "⏰ У игрока {seat} снова вышло время; ИИ играет за него, пока он не вернёт себе место."
    ),
    "cmd.standings.with_ai": "Показать и уровни ИИ — опорные точки рейтинга",
    "standings.with_ai": "{scope}, с уровнями ИИ",
}
