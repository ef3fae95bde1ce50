"""German messages of ratings (``/standings``, ``/profile``), ``/history`` and ``/replay``."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    # ------------------------------------------------------------------ commands
    "cmd.profile.name": "profil",
    "cmd.profile.description": "Wertungen, letzte Spiele und Verlauf eines Spielers",
    "cmd.profile.user": "Wessen Profil (ohne Angabe deins)",
    "cmd.profile.user.name": "spieler",
    "cmd.history.name": "verlauf",
    "cmd.history.description": "Die beendeten Spiele dieses Servers, neueste zuerst",
    "cmd.history.game": "Nur dieses Spiel (ohne Angabe alle Spiele)",
    "cmd.history.game.name": "spiel",
    "cmd.history.user": "Nur die Spiele, in denen dieser Spieler saß",
    "cmd.history.user.name": "spieler",
    "cmd.replay.name": "wiederholung",
    "cmd.replay.description": "Ein beendetes Spiel dieses Servers Zug für Zug nachspielen",
    "cmd.replay.game": "Die Nummer des Spiels, wie sie im Verlauf steht",
    "cmd.replay.game.name": "spiel",
    "cmd.settings.replays.name": "wiederholungen",
    "cmd.settings.replays.description": "Ob Wiederholungen beendeter Spiele alle Hände zeigen",
    "cmd.settings.replays.hands": "Alle Hände in Wiederholungen zeigen (und den Export erlauben)",
    "cmd.settings.replays.hands.name": "hände",
    "settings.replays.on": (
        "Erledigt: Wiederholungen beendeter Spiele zeigen die Hände aller Spieler und lassen "
        "sich exportieren."
    ),
    "settings.replays.off": (
        "Erledigt: Wiederholungen zeigen nur den offenen Tisch, und Spiele lassen sich nicht "
        "exportieren (mit dem Seed des Exports ließe sich jede Hand neu austeilen)."
    ),
    # ------------------------------------------------------------------ ratings
    "ratings.line": {
        "one": "{rank}. {user}: **{rating}**, {count} Spiel, {wins}",
        "other": "{rank}. {user}: **{rating}**, {count} Spiele, {wins}",
    },
    "ratings.ai_player": "🤖 KI ({level})",
    "ratings.footer": (
        "Wertung: μ − 3σ, eine vorsichtige Schätzung des Könnens, die mit jedem Spiel wächst"
    ),
    "ratings.page": "Seite {page} von {pages}",
    "ratings.empty": "Auf diesem Server gibt es noch keine gewerteten Spiele.",
    "profile.title": "{name}: Wertungen auf diesem Server",
    "profile.game": {
        "one": (
            "**{rating}** (μ {mu}, σ {sigma}), Platz {rank} von {players}; {count} Spiel, {wins}"
        ),
        "other": (
            "**{rating}** (μ {mu}, σ {sigma}), Platz {rank} von {players}; {count} Spiele, {wins}"
        ),
    },
    "profile.trend": {
        "one": "Verlauf über {count} Spiel: {chart}",
        "other": "Verlauf über die letzten {count} Spiele: {chart}",
    },
    "profile.recent": "Letzte Spiele",
    "profile.no_ratings": "Auf diesem Server gibt es noch keine gewerteten Spiele.",
    # ------------------------------------------------------------------ python -m bot.ratings
    "ratings.cli.description": "Alle Wertungen aus den gespeicherten Ergebnissen neu berechnen.",
    "ratings.cli.command": "recompute: die Wertungen in einer Transaktion neu berechnen",
    "ratings.cli.check": "neu berechnen, mit den gespeicherten vergleichen und nichts ändern",
    "ratings.cli.url": "die Datenbank (Standard: DATABASE_URL aus der Umgebung oder .env)",
    "ratings.cli.rebuilt": {
        "one": "{count} Spiel neu gewertet.",
        "other": "{count} Spiele neu gewertet.",
    },
    "ratings.cli.checked": {
        "one": "{count} Spiel zum Vergleich neu gewertet (nichts gespeichert).",
        "other": "{count} Spiele zum Vergleich neu gewertet (nichts gespeichert).",
    },
    "ratings.cli.same": "Die gespeicherten Wertungen entsprachen genau den Ergebnissen.",
    "ratings.cli.different": "Die gespeicherten Wertungen wichen von den Ergebnissen ab.",
    # ------------------------------------------------------------------ history
    "history.title": "Beendete Spiele: {scope}",
    "history.of_player": "{scope}, mit {name}",
    "history.line": "**#{id}** {game}, {date}: {players}. {result}; {length}",
    "history.won_by": {"one": "Sieger: {names}", "other": "Sieger: {names}"},
    "history.abandoned": "Abgebrochen",
    "history.moves": {"one": "{count} Zug", "other": "{count} Züge"},
    "history.minutes": {
        "one": "{moves} in {count} Minute",
        "other": "{moves} in {count} Minuten",
    },
    "history.empty": "Keine beendeten Spiele.",
    "history.footer": "Noch einmal ansehen: {cmd_replay} mit der Nummer",
    # ------------------------------------------------------------------ replays
    "replay.title": "Wiederholung: {game}, Spiel #{id}",
    "replay.footer": "Zug {move} von {moves}, Runde {round}",
    "replay.setup": "Das Austeilen",
    "replay.hand_of": "Hand: {name}",
    "replay.log": "Dieser Zug",
    "replay.button.previous_round": "Runde zurück",
    "replay.button.next_round": "Nächste Runde",
    "replay.button.export": "Export (JSON)",
    "replay.not_here": "Auf diesem Server wurde kein Spiel mit dieser Nummer gespielt.",
    "replay.running": (
        "Dieses Spiel läuft noch; seine Wiederholung gibt es, sobald es beendet ist."
    ),
    "replay.never_started": "Dieses Spiel hat nie begonnen, es gibt nichts nachzuspielen.",
    "replay.unknown_game": "Dieses Spiel kann der Bot nicht mehr nachspielen.",
    "replay.rules_changed": (
        "Spiel #{id} wurde nach älteren Regeln gespielt: ab Zug {move} lässt es sich nicht "
        "mehr so nachspielen, wie es gespielt wurde, deshalb zeigt der Bot seine Stellungen "
        "nicht. Der Export enthält das Spiel weiterhin so, wie es gespeichert ist."
    ),
    "replay.export_ready": "Spiel #{id} als JSON: Seed, Optionen, Spieler und alle Züge.",
    "replay.export_hidden": (
        "Auf diesem Server bleiben die Hände in Wiederholungen verdeckt, und ein Export würde "
        "sie verraten (sein Seed teilt jede Hand neu aus). Verwalter können das mit "
        "{cmd_settings} ändern."
    ),
    "replay.footer_no_rounds": "Zug {move} von {moves}",
}
