"""Deutsche Texte der Bilder (Tisch, Hand, Punkteverlauf) und ihrer Einstellungen."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "pictures.hand_size": {
        "one": "{count} Karte auf der Hand",
        "other": "{count} Karten auf der Hand",
    },
    "pictures.draw_piles": "Zugstapel",
    "pictures.discard_pile": "Ablagestapel {number}",
    "pictures.round_points": {
        "one": "{count} Punkt in dieser Runde",
        "other": "{count} Punkte in dieser Runde",
    },
    "pictures.display": "Auslage",
    "pictures.known": "Bekannt auf der Hand",
    "pictures.ninjas": {"one": "{count} Ninja", "other": "{count} Ninjas"},
    "pictures.tasks": "Aufträge",
    "pictures.your_hand": "Deine Hand",
    "pictures.playable": "Umrahmt: was du jetzt spielen kannst",
    "pictures.your_turn": "Du bist am Zug",
    "pictures.waiting": "Warte auf deinen Zug",
    "pictures.empty_hand": "Keine Karten auf der Hand",
    "pictures.defense": "Verteidigung",
    "pictures.attack": "Angriff",
    "pictures.stacks": "Söldner",
    "pictures.team": "Team {number}",
    "pictures.board": "Tableau {number}",
    "pictures.shields_left": {"one": "noch {count} Schild", "other": "noch {count} Schilde"},
    "pictures.chart.title": "Punkte nach jeder Runde",
    "pictures.chart.title_final": "Endstand",
    "pictures.chart.round": "Runde",
    "pictures.chart.start": "Start",
    "pictures.chart.end": "Ende",
    "pictures.trend.title": "Wertung nach jeder Partie",
    "pictures.trend.games": "Partien",
    "pictures.alt.trend": "Wertung von {name} nach jeder der letzten Partien",
    "pictures.alt.table": "Der Tisch von {game}, Zug {move}",
    "pictures.alt.hand": "Die Hand von {name} in {game}",
    "pictures.alt.chart": "Punkte nach jeder Runde von {game}",
    "pictures.alt.chart_final": "Endstand von {game}",
    "pictures.colour_letter.red": "R",
    "pictures.colour_letter.blue": "B",
    "pictures.colour_letter.green": "Gr",
    "pictures.colour_letter.yellow": "Ge",
    "pictures.colour_letter.purple": "L",
    "pictures.colour_letter.orange": "O",
    "pictures.colour_letter.black": "S",
    "cli.setting.PICTURES": "on (Standard) oder off: off zeigt in keinem Server Bilder",
    "cli.setting.PICTURE_WORKERS": (
        "Arbeitsprozesse, die die Bilder zeichnen"
        " (je einer für Tische und Hände; 0: ein Thread)"
    ),
    "cli.setting.TABLE_UPDATES_PER_SECOND": (
        "wie viele Tische der Bot höchstens pro Sekunde aktualisiert, alle Spiele zusammen"
        " (unter hoher Last zeigt ein Tisch dann mehrere Züge auf einmal)"
    ),
    "cmd.settings.images.name": "bilder",
    "cmd.settings.images.description": "Ob Spieltische und Hände hier mit Bildern kommen",
    "cmd.settings.images.shown": "An: Bilder zum Text; aus: nur Text",
    "cmd.settings.images.shown.name": "anzeigen",
    "settings.images.on": "Erledigt: Tische, Hände und Punkteverläufe kommen hier mit Bildern.",
    "settings.images.off": "Erledigt: Die Spiele dieses Servers zeigen nur Text, ohne Bilder.",
    "cmd.pictures.name": "bilder",
    "cmd.pictures.description": "Ob deine Hand mit einem Bild kommt (nur für dich)",
    "cmd.pictures.hand": "An: deine Hand auch als Bild; aus: nur Text",
    "cmd.pictures.hand.name": "hand",
    "pictures.hand.on": "Erledigt: Deine Hände kommen mit Bild (wo der Server Bilder zeigt).",
    "pictures.hand.off": "Erledigt: Deine Hände sind nur Text.",
}
