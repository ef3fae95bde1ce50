"""English messages of the AI players: levels, the lobby's seats menu, the table's notes."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "ai.level.easy": "easy",
    "ai.level.medium": "medium",
    "ai.level.strong": "strong",
    "ai.level.rules": "rule-based",
    "lobby.seat_ai": "{number}. {name} (AI, {level})",
    "lobby.add_ai": "Add an AI player ({level})",
    "lobby.remove_ai": "Remove {name}",
    "lobby.only_host_seats": "Only the host can add AI players or set the turn time.",
    "lobby.seat_choice_gone": "That choice is no longer in the lobby; nothing was done.",
    "autoplay.clock": "⏰ {seat} ran out of time; the AI played for them.",
    "autoplay.takeover": (
        "⏰ {seat} ran out of time again; the AI plays for them until they take the seat back."
    ),
    "cmd.standings.with_ai": "Also list the AI levels, which anchor the ratings",
    "standings.with_ai": "{scope}, with the AI levels",
}
