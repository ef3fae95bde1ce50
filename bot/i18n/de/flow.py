"""Messages of the play flow (issue 29): the collapsed move menu, forced moves, the end of a
game and its rematch, a seat handed to the AI."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "flow.menu.placeholder_at": "{path}: auswählen …",
    "flow.leave.handed_over": (
        "{name} hat das Spiel verlassen; ab jetzt spielt die KI diesen Platz und das Spiel geht "
        "weiter. Mit {button_take_back} in der eigenen Hand lässt er sich zurücknehmen."
    ),
    "flow.leave.last_player": (
        "{name} hat das Spiel verlassen, und niemand sitzt mehr am Tisch: Das Spiel endet und wird "
        "als aufgegeben gespeichert."
    ),
    "flow.leave.already": (
        "Du hast dieses Spiel schon verlassen: Die KI spielt deinen Platz. Um weiterzuspielen, "
        "nutze {button_take_back} in deiner Hand."
    ),
    "flow.over.title.finished": "🏁 {game} #{id} ist zu Ende",
    "flow.over.title.abandoned": "🏳️ {game} #{id} wurde aufgegeben",
    "flow.over.title.cancelled": "✖️ {game} #{id} wurde abgebrochen",
    "flow.over.greeting": "Gut gespielt, {players}!",
    "flow.over.why.everyone_left": (
        "Niemand saß mehr am Tisch; darum endet das Spiel hier und wird nicht gewertet."
    ),
    "flow.over.why.cancelled": "Es wurde abgebrochen; es wurde kein Ergebnis gespeichert.",
    "flow.over.note.left": " · hat das Spiel verlassen",
    "flow.over.note.rating": " · Wertung {delta}",
    "flow.over.note.not_rated": " · nicht gewertet (die KI spielte den Platz)",
    "flow.over.place": {
        "one": "**{place}.** {name} · {count} Punkt{note}",
        "other": "**{place}.** {name} · {count} Punkte{note}",
    },
    "flow.over.score": {
        "one": "{name} · {count} Punkt{note}",
        "other": "{name} · {count} Punkte{note}",
    },
    "flow.button.rematch": "Revanche",
    "flow.button.replay": "Wiederholung",
    "flow.button.scores": "Punkte",
    "flow.over.dm.cancelled": (
        "✖️ Dieses Spiel wurde abgebrochen; es wurde kein Ergebnis gespeichert."
    ),
    "flow.over.dm.abandoned": "🏳️ Dieses Spiel wurde aufgegeben: Niemand saß mehr am Tisch.",
    "flow.over.dm.left": (
        "🏁 Das Spiel ist zu Ende. Du hattest es verlassen; es zählt als Niederlage."
    ),
    "flow.over.dm.won_by": {
        "one": "🏁 Das Spiel ist zu Ende: {names} hat gewonnen.",
        "other": "🏁 Das Spiel ist zu Ende: {names} haben gewonnen.",
    },
    "flow.over.dm.place": {
        "one": "Du bist auf Platz {place} von {places} mit {count} Punkt.",
        "other": "Du bist auf Platz {place} von {places} mit {count} Punkten.",
    },
    "flow.rematch.confirmed": (
        "Du bist bei der Revanche dabei (Spiel #{game}). Der Host startet sie, sobald alle bereit "
        "sind."
    ),
    "flow.rematch.joined": "Du hast einen freien Platz in der Revanche (Spiel #{game}).",
    "flow.rematch.already": "Du bist schon bei der Revanche dabei (Spiel #{game}).",
    "flow.rematch.full": (
        "Kein Platz der Revanche ist frei: Die übrigen sind für die Spieler der letzten Partie "
        "reserviert."
    ),
    "flow.rematch.not_over": "Dieses Spiel ist noch nicht zu Ende.",
    "flow.rematch.channel_busy": (
        "In diesem Kanal läuft schon ein anderes Spiel; eine Revanche geht erst, wenn es zu Ende "
        "ist."
    ),
    "flow.rematch.started": "Die Revanche hat schon begonnen, oder ihre Lobby ist geschlossen.",
    "cmd.autopass.name": "autopass",
    "cmd.autopass.description": (
        "Der Bot macht deinen Zug, wenn du keine Wahl hast, etwa ein Passen"
    ),
    "cmd.autopass.mode": (
        "An: erzwungene Züge werden nach einer natürlichen Pause für dich gemacht; aus: du klickst"
    ),
    "cmd.autopass.mode.name": "modus",
    "flow.button.autopass": "Für mich passen, wenn ich keine Wahl habe",
    "flow.autopass.on": (
        "Erledigt: Ist Passen (oder ein anderer erzwungener Zug) dein einziger Zug, macht der Bot "
        "ihn nach einer Pause wie deinen für dich, und dieser Zug pingt dich nicht an. Ausschalten "
        "mit {cmd_autopass}."
    ),
    "flow.autopass.off": "Erledigt: Du machst jeden Zug selbst, auch erzwungene (ein Knopf).",
}
