"""Deutsche Texte zum Betreiben des Bots: neue Sätze der Kommandozeile (``glory sync``,
Startfehler, die kein Neustart behebt), die Zustandsprüfung des Containers, ``/about`` und
``/health`` (``bot/process/about.py``)."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    # ------------------------------------------------------------------ command line
    "cli.commands": (
        "run (Standard): den Bot starten; sync: die Slash-Befehle jetzt registrieren, egal was "
        "sich geändert hat, und beenden (ohne Verbindung zum Gateway)"
        "; playground: im Browser spielen, ohne Discord (glory playground --help)"
    ),
    "cli.env_file_missing": (
        "Die mit --env-file angegebene Einstellungsdatei {path} gibt es nicht. Prüfe den Pfad "
        "und starte neu."
    ),
    "cli.sqlite_unusable": (
        "Die SQLite-Datei {path} lässt sich nicht öffnen: {reason}.\n"
        "Mach ihr Verzeichnis für den Benutzer beschreibbar, unter dem der Bot läuft (oder "
        "richte DATABASE_URL auf eine andere Datei), und starte neu."
    ),
    "cli.database_refused": (
        "Die Datenbank {url} hat die Anmeldung abgelehnt: {reason}.\n"
        "Prüfe Benutzer und Passwort in DATABASE_URL und starte neu. Mit compose behält die "
        "Datenbank das POSTGRES_PASSWORD ihres allerersten Starts: Trag dieses wieder in .env "
        "ein (docs/troubleshooting.md)."
    ),
    "cli.database_missing": (
        "Die Datenbank {url} gibt es nicht: {reason}.\n"
        "Leg sie an (createdb oder CREATE DATABASE) oder korrigiere ihren Namen in "
        "DATABASE_URL, und starte neu."
    ),
    "cli.database_not_allowed": (
        "Die Datenbank {url} hat den Bot angemeldet, lässt ihn aber seine Tabellen nicht "
        "anlegen: {reason}.\n"
        "Gib diesem Benutzer das Recht, dort Tabellen anzulegen (oder nimm den Eigentümer der "
        "Datenbank), und starte neu."
    ),
    "cli.synced_global": {
        "one": "{count} Slash-Befehl für alle Server registriert.",
        "other": "{count} Slash-Befehle für alle Server registriert.",
    },
    "cli.synced_guild": {
        "one": "{count} Slash-Befehl auf dem Server {guild} registriert.",
        "other": "{count} Slash-Befehle auf dem Server {guild} registriert.",
    },
    "cli.sync_failed": (
        "Discord hat die Slash-Befehle nicht angenommen: {reason}.\n"
        "Versuch es später noch einmal; LOG_LEVEL=DEBUG zeigt die Einzelheiten."
    ),
    "sync.failed": (
        "Discord hat die Befehle nicht angenommen ({reason}). Versuch es später noch einmal."
    ),
    # ------------------------------------------------------------------ health check
    "health.missing": (
        "nicht gesund: {path} gibt es nicht (der Bot ist noch nicht mit Discord verbunden, oder "
        "Bot und Prüfung sehen verschiedene Werte von HEALTH_FILE)"
    ),
    "health.stale": {
        "one": (
            "nicht gesund: {path} wurde zuletzt vor {count} Sekunde berührt; der Bot hat die "
            "Verbindung zu Discord verloren"
        ),
        "other": (
            "nicht gesund: {path} wurde zuletzt vor {count} Sekunden berührt; der Bot hat die "
            "Verbindung zu Discord verloren"
        ),
    },
    "health.fresh": {
        "one": "gesund: {path} vor {count} Sekunde berührt",
        "other": "gesund: {path} vor {count} Sekunden berührt",
    },
    "health.off": "HEALTH_FILE=off: Es gibt keine Zustandsdatei zu prüfen",
    # ------------------------------------------------------------------ /about
    "cmd.about.name": "info",
    "cmd.about.description": "Was Glory ist, was es spielt und wie man es einlädt",
    "about.title": "**Glory** {version}",
    "about.plays": "Ein Discord-Bot, mit dem ein Server gemeinsam Kartenspiele spielt:",
    "about.game": "• **{game}**, {players} Spieler",
    "about.start": (
        "Starte ein Spiel in einem Kanal mit /{play}; /{rules} erklärt ein Spiel auf wenigen "
        "Seiten."
    ),
    "about.invite": "Glory auf einen anderen Server einladen: <{url}>",
    "about.guide": "Die Anleitung für Spieler und Betreiber: <{url}>",
    "about.health_hint": "Du verwaltest diesen Server: /{health} zeigt, wie es dem Bot geht.",
    # ------------------------------------------------------------------ /health
    "cmd.health.name": "zustand",
    "cmd.health.description": "Wie es dem Bot geht: Laufzeit, Spiele, Datenbank, Latenz",
    "health.manage_only": (
        "Den Zustand des Bots sehen nur Mitglieder, die diesen Server verwalten dürfen."
    ),
    "health.title": "**Glory {version}**: Zustand",
    "health.since": "Läuft seit: {since}",
    "health.servers": "Server: {count}",
    "health.servers_shared": "Server (Shards dieses Prozesses): {count}",
    "health.games": "Laufende Spiele: {count}",
    "health.lobbies": "Offene Lobbys: {count}",
    "health.database": "Datenbank: {database}",
    "health.database_shared": (
        "Datenbank: {database}, geteilt mit den Prozessen der anderen Shards"
    ),
    "health.shard": "Shard: {shard} von {count} (dieser Prozess betreibt {shards})",
    "health.no_shards": "Shards: keine (eine Gateway-Verbindung)",
    "health.latency": "Gateway-Latenz: {ms} ms",
    "health.latency_unknown": "Gateway-Latenz: noch nicht gemessen",
    "health.outbox": {
        "one": "Postausgang: {count} Änderung wartet auf Anzeige, die älteste seit {seconds} s",
        "other": (
            "Postausgang: {count} Änderungen warten auf Anzeige, die älteste seit {seconds} s"
        ),
    },
    "health.outbox_empty": "Postausgang: nichts wartet (jeder Zug ist zu sehen)",
    "health.commands_global": "Slash-Befehle: {count}, für alle Server registriert",
    "health.commands_guild": (
        "Slash-Befehle: {count}, nur auf dem Server {guild} registriert (DEV_GUILD_ID)"
    ),
    "health.commands_failed": (
        "Slash-Befehle: Die letzte Registrierung ist gescheitert ({reason}); der Betreiber kann "
        "glory sync ausführen"
    ),
    "health.commands_unchecked": "Slash-Befehle: bei diesem Start nicht geprüft",
}
