"""Deutsche Texte der KI-Spieler: Stufen, das Sitzmenü der Lobby, die Hinweise am Tisch."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "ai.level.easy": "leicht",
    "ai.level.medium": "mittel",
    "ai.level.strong": "stark",
    "ai.level.rules": "regelbasiert",
    "lobby.seat_ai": "{number}. {name} (KI, {level})",
    "lobby.add_ai": "KI-Spieler hinzufügen ({level})",
    "lobby.remove_ai": "{name} entfernen",
    "lobby.only_host_seats": (
        "Nur der Gastgeber kann KI-Spieler hinzufügen oder die Zugzeit festlegen."
    ),
    "lobby.seat_choice_gone": (
        "Diese Auswahl gibt es in der Lobby nicht mehr; nichts wurde geändert."
    ),
    "autoplay.clock": "⏰ {seat} hat die Zugzeit überschritten; die KI hat für sie/ihn gezogen.",
    "autoplay.takeover": (
        "⏰ {seat} hat die Zugzeit erneut überschritten; die KI "
        "spielt den Platz, bis er zurückgenommen wird."
    ),
    "cmd.standings.with_ai": "Auch die KI-Stufen zeigen, die Fixpunkte der Wertungen",
    "standings.with_ai": "{scope}, mit den KI-Stufen",
}
