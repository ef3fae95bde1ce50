"""Deutsche Texte der Tisch- und Handnachrichten (Components V2): Punktangaben, wer in einer DM
am Zug ist, was seit dem eigenen letzten Zug geschah."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "table.this_round": "**Diese Runde:** {scores}",
    "table.total": "**Gesamt:** {scores}",
    "table.side_points": {"one": "{name} {count} Punkt", "other": "{name} {count} Punkte"},
    "hand.waiting_since": (
        "Nach Zug {move} ist **{name}** am Zug: {decision}. "
        "Sobald du dran bist, bekommst du eine neue Nachricht."
    ),
    "hand.story": "Seit deinem letzten Zug",
    "hand.story_latest": "Letzte Züge",
    "over.scores.final": "Endstand (gesamt)",
    "over.scores.stopped": "Punkte beim Abbruch (gesamt)",
}
