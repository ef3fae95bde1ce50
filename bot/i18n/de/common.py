"""German messages shared by all games: commands, lobby, table, hand, errors, standings.

Informal "du" as usual in games ("ihr" for several people). Messages that name a slash command
or a button use the reference placeholders ``{cmd_…}``/``{button_…}``, which ``t`` fills with the
German names (``/spielen``, the one Discord shows to a German client, and ``button.*``).
"""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    # ------------------------------------------------------------------ command line
    "cli.description": "Startet den Glory-Discord-Bot.",
    "cli.sync": "dasselbe wie der Befehl sync (seine alte Schreibweise)",
    "cli.version": "Glorys Version zeigen und beenden",
    "cli.env_file": (
        "die Einstellungen aus dieser Datei lesen (Standard: .env im aktuellen Verzeichnis)"
    ),
    "cli.settings": (
        "Einstellungen: Umgebungsvariablen oder Zeilen NAME=Wert in der Datei .env (die Umgebung "
        "hat Vorrang)"
    ),
    "cli.default": "Standard: {value}",
    "cli.setting.DISCORD_TOKEN": "das Bot-Token aus dem Discord-Entwicklerportal (erforderlich)",
    "cli.setting.DATABASE_URL": (
        "wo die Spiele gespeichert werden: eine SQLite-Datei (ein Bot-Prozess) oder PostgreSQL "
        "als postgresql+asyncpg://benutzer:passwort@host/datenbank (ein oder mehrere Prozesse)"
    ),
    "cli.setting.DEV_GUILD_ID": (
        "die Slash-Befehle nur auf diesem einen Server registrieren (für die Entwicklung)"
    ),
    "cli.setting.LOG_LEVEL": "DEBUG, INFO, WARNING, ERROR oder CRITICAL",
    "cli.setting.LOBBY_MINUTES": "Minuten, bis eine nicht gestartete Lobby schließt",
    "cli.setting.AI_WORKERS": "Arbeitsprozesse für die Suchen der KI-Spieler und für Tipps",
    "cli.setting.AI_PAUSE_SECONDS": (
        "Sekunden, die ein KI-Spieler scheinbar nachdenkt, bevor sein Zug erscheint"
    ),
    "cli.setting.AI_MAX_MS": "Zeitgrenze einer KI-Suche in Millisekunden",
    "cli.setting.MISSED_TURNS_FOR_TAKEOVER": (
        "Züge in Folge, die ein Spieler verstreichen lassen darf, bevor die KI seinen Platz behält"
    ),
    "cli.setting.HEALTH_FILE": (
        "eine Datei, die der Bot alle 20 Sekunden berührt, solange er mit Discord verbunden ist "
        "(für eine Zustandsprüfung: python -m bot.health); off: keine"
    ),
    "cli.setting.SHARD_COUNT": (
        "teilt die Gateway-Verbindung in so viele Shards (eine Zahl, oder auto für Discords "
        "Empfehlung); leer: eine Verbindung ohne Shards"
    ),
    "cli.setting.SHARD_IDS": (
        "die Shards, die dieser Prozess betreibt, z. B. 0,1 oder 0-3 (leer: alle von "
        "SHARD_COUNT); ein Prozess, der nur einige betreibt, braucht PostgreSQL"
    ),
    "cli.setting.DISCORD_API_BASE": (
        "REST-Basis-URL eines Discord-kompatiblen Servers statt discord.com (beide oder keine "
        "setzen)"
    ),
    "cli.setting.DISCORD_GATEWAY_URL": "Gateway-URL dieses Servers",
    "cli.no_token": (
        "DISCORD_TOKEN ist nicht gesetzt.\n"
        "1. Lege unter https://discord.com/developers/applications eine Anwendung an.\n"
        "2. Öffne „Bot“, drücke „Reset Token“ und kopiere das Token.\n"
        "3. Trage es in eine Datei namens .env in dem Verzeichnis ein, aus dem du Glory startest "
        "(siehe .env.example):\n"
        "       DISCORD_TOKEN=dein-token\n"
        "4. Starte ihn mit `glory` (oder `make run`): Er registriert seine Slash-Befehle selbst "
        "und schreibt den Link ins Log, mit dem du ihn auf einen Server einlädst."
    ),
    "cli.bad_switch": (
        "{name} muss on oder off sein, nicht „{value}“. Korrigiere es in .env (oder lass es "
        "leer für den Standard) und starte neu."
    ),
    "cli.bad_whole_number": (
        "{name} muss eine ganze Zahl sein, nicht „{value}“. Korrigiere es in .env (oder lass es "
        "leer für den Standard) und starte neu."
    ),
    "cli.bad_decimal": (
        "{name} muss eine Zahl wie 1.5 sein, nicht „{value}“. Korrigiere es in .env (oder lass "
        "es leer für den Standard) und starte neu."
    ),
    "cli.too_small": (
        "{name} muss mindestens {minimum} sein, nicht {value}. Korrigiere es in .env und starte "
        "neu."
    ),
    "cli.bad_log_level": (
        "LOG_LEVEL muss DEBUG, INFO, WARNING, ERROR oder CRITICAL sein, nicht „{value}“. "
        "Korrigiere es in .env und starte neu."
    ),
    "cli.bad_database": (
        "DATABASE_URL „{url}“ ist keine Datenbank, die Glory nutzen kann. Glory speichert seine "
        "Spiele in SQLite (sqlite+aiosqlite:///./data/glory.db) oder PostgreSQL\n"
        "(postgresql+asyncpg://benutzer:passwort@host/datenbank): setze DATABASE_URL in .env "
        "auf eine davon und starte neu."
    ),
    "cli.sqlite_file": (
        "DATABASE_URL „{url}“ nennt keine SQLite-Datei, und eine Datenbank im Speicher verlöre "
        "jedes Spiel.\nNenne eine Datei, z. B. sqlite+aiosqlite:///./data/glory.db, und starte "
        "neu."
    ),
    "cli.endpoints_pair": (
        "DISCORD_API_BASE und DISCORD_GATEWAY_URL gehören zusammen: setze beide (für einen "
        "Discord-kompatiblen Server) oder keine (für discord.com)."
    ),
    "cli.bad_shard_count": (
        "SHARD_COUNT muss eine ganze Zahl von Shards oder auto sein, nicht „{value}“. Korrigiere "
        "es in .env (oder lass es leer für eine Verbindung ohne Shards) und starte neu."
    ),
    "cli.shard_ids_need_count": (
        "SHARD_IDS wählt die Shards dieses Prozesses aus SHARD_COUNT, braucht also SHARD_COUNT "
        "als Zahl (auto lässt sich nicht auf Prozesse aufteilen). Setze SHARD_COUNT, oder lass "
        "SHARD_IDS leer, um alle Shards hier zu betreiben, und starte neu."
    ),
    "cli.bad_shard_ids": (
        "SHARD_IDS muss Shard-Nummern oder Bereiche wie 0,2 oder 0-3 aufzählen, nicht "
        "„{value}“. Korrigiere es in .env und starte neu."
    ),
    "cli.shard_out_of_range": (
        "SHARD_IDS nennt Shard {shard}, aber bei SHARD_COUNT={count} sind die Shards von 0 bis "
        "{count} − 1 nummeriert. Korrigiere SHARD_IDS oder SHARD_COUNT in .env und starte neu."
    ),
    "cli.shards_need_postgres": (
        "Dieser Prozess betreibt die Shards {shards}, andere Prozesse also den Rest, aber "
        "DATABASE_URL „{url}“ ist SQLite, die eingebettete Datenbank eines einzigen Prozesses "
        "mit allen Shards.\n"
        "Prozesse, die sich die Shards teilen, teilen sich PostgreSQL: setze DATABASE_URL auf "
        "postgresql+asyncpg://benutzer:passwort@host/datenbank, oder lass SHARD_IDS leer, um "
        "alle Shards in diesem einen Prozess zu betreiben, und starte neu."
    ),
    "cli.sharding_required": (
        "Discord verlangt Sharding für einen Bot auf so vielen Servern (höchstens 2.500 je "
        "Shard; Shards jetzt: {count}). Setze SHARD_COUNT=auto oder eine Anzahl Shards und "
        "starte neu."
    ),
    "cli.invalid_shard": (
        "Discord hat die Shard-Einstellungen abgelehnt (Shards: {count}). Prüfe SHARD_COUNT und "
        "SHARD_IDS und starte neu."
    ),
    "cli.discord_unreachable": (
        "Discord ist unter {url} nicht erreichbar: {reason}.\n"
        "Prüfe die Internetverbindung dieses Rechners (und DISCORD_API_BASE, falls gesetzt) und "
        "starte neu; LOG_LEVEL=DEBUG zeigt die Einzelheiten."
    ),
    "cli.database_unreachable": (
        "Die Datenbank {url} lässt sich nicht öffnen: {reason}.\n"
        "Prüfe DATABASE_URL und ob der Datenbankserver läuft und Verbindungen von diesem "
        "Rechner annimmt; beim nächsten Start versucht der Bot es erneut."
    ),
    "cli.bad_token": (
        "Discord hat DISCORD_TOKEN abgelehnt. Kopiere ein neues Token in .env und versuche es "
        "noch einmal."
    ),
    "cli.intents": (
        "Discord hat die angeforderten Gateway-Intents verweigert; Glory braucht keine "
        "privilegierten."
    ),
    # ------------------------------------------------------------------ commands
    "cmd.play.name": "spielen",
    "cmd.play.description": "Öffnet in diesem Kanal eine Lobby für ein Kartenspiel",
    "cmd.play.game": "Welches Spiel gespielt werden soll",
    "cmd.play.options": (
        "Optional, z. B. Runden=1 Kaiserliche Aufträge=an (geht auch über die Menüs der Lobby)"
    ),
    "cmd.hand.name": "hand",
    "cmd.hand.description": "Zeigt deine Hand und deine Steuerung (nur für dich sichtbar)",
    "cmd.table.name": "tisch",
    "cmd.table.description": "Postet den Spieltisch dieses Kanals noch einmal ganz unten",
    "cmd.scores.name": "punkte",
    "cmd.scores.description": "Punkte des Spiels in diesem Kanal, pro Runde und insgesamt",
    "cmd.leave.name": "aufgeben",
    "cmd.leave.description": (
        "Das Spiel verlassen: Die KI spielt deinen Platz weiter (für dich eine Niederlage)"
    ),
    "cmd.cancel.name": "abbrechen",
    "cmd.cancel.description": (
        "Bricht das Spiel dieses Kanals ohne Ergebnis ab (Host oder Serververwaltung)"
    ),
    "cmd.standings.name": "rangliste",
    "cmd.standings.description": "Die Rangliste dieses Servers",
    "cmd.standings.game": "Nur dieses Spiel (ohne Angabe alle Spiele)",
    "cmd.rules.name": "regeln",
    "cmd.rules.description": "Eine kurze Zusammenfassung der Regeln eines Spiels",
    "cmd.rules.game": "Welches Spiel",
    "cmd.sync.name": "sync",
    "cmd.sync.description": "Lädt die Slash-Befehle hoch (nur für den Besitzer des Bots)",
    # ------------------------------------------------------------------ shared words
    "common.on": "an",
    "common.off": "aus",
    "common.decision": "eine Entscheidung treffen",
    "common.game_id": "Spiel #{id}",
    "common.number_list": "{numbers}",
    "common.name_value": "{name} {value}",
    "common.cards": {"one": "{count} Karte", "other": "{count} Karten"},
    "common.points": {"one": "{count} Punkt", "other": "{count} Punkte"},
    "button.join": "Beitreten",
    "button.leave": "Verlassen",
    "button.start": "Starten",
    "button.cancel": "Abbrechen",
    "button.my_hand": "Meine Hand",
    "button.back": "Zurück",
    "menu.placeholder": "Auswählen …",
    "menu.breadcrumb": "Bisher gewählt: {path}",
    "menu.separator": " › ",
    # ------------------------------------------------------------------ /play and lobby
    "play.guild_only": "Gespielt wird im Textkanal oder Thread eines Servers.",
    "play.unknown_game": "Dieses Spiel kenne ich nicht.",
    "play.busy": (
        "In diesem Kanal gibt es schon ein Spiel (oder eine Lobby). Spiel es zu Ende, bitte den "
        "Host, es mit {cmd_cancel} abzubrechen, oder starte ein Spiel in einem anderen Kanal "
        "oder Thread."
    ),
    "lobby.title": "{game}: Lobby",
    "lobby.host": "Host: {name}",
    "lobby.player_counts": "Spielerzahl: {counts}",
    "lobby.option": "{option}: **{value}**",
    "lobby.option_choice": "{option}: {value}",
    "lobby.seats": {
        "one": "{count} Spieler ist beigetreten:",
        "other": "{count} Spieler sind beigetreten:",
    },
    "lobby.seat": "{number}. {name}",
    "lobby.expires": "Der Host startet das Spiel; sonst schließt diese Lobby {when}.",
    "lobby.closed.active": "Das Spiel hat begonnen.",
    "lobby.closed.finished": "Dieses Spiel ist vorbei.",
    "lobby.closed.cancelled": "Diese Lobby wurde abgebrochen.",
    "lobby.closed.abandoned": "Dieses Spiel wurde aufgegeben.",
    "lobby.closed.expired": (
        "Niemand hat diese Lobby rechtzeitig gestartet, deshalb wurde sie geschlossen."
    ),
    "lobby.expired_notice": {
        "one": "Die Lobby für {game} ist abgelaufen: Niemand hat sie innerhalb von {count} "
        "Minute gestartet.",
        "other": "Die Lobby für {game} ist abgelaufen: Niemand hat sie innerhalb von {count} "
        "Minuten gestartet.",
    },
    "lobby.already_joined": "Du bist schon in dieser Lobby.",
    "lobby.not_joined": "Du bist nicht in dieser Lobby.",
    "lobby.full": "Diese Lobby ist voll.",
    "lobby.host_cannot_leave": (
        "Der Host kann die Lobby nicht verlassen; schließe sie mit „{button_cancel}“."
    ),
    "lobby.only_host_starts": "Nur der Host kann das Spiel starten.",
    "lobby.only_host_options": "Nur der Host kann die Optionen ändern.",
    "lobby.changed": (
        "Die Lobby hat sich inzwischen geändert; es ist nichts passiert. Bitte versuche es noch "
        "einmal."
    ),
    "options.invalid.player_count": {
        "one": "Dieses Spiel braucht {counts} Spieler; {count} Spieler ist beigetreten.",
        "other": "Dieses Spiel braucht {counts} Spieler; {count} Spieler sind beigetreten.",
    },
    "options.invalid.unknown_option": (
        "Diese Option gibt es für dieses Spiel nicht; die Optionen findest du in den Menüs der "
        "Lobby."
    ),
    "options.invalid.bad_value": "Dieser Wert ist für diese Option nicht erlaubt.",
    "options.invalid.conflict": "Diese Optionen passen nicht zusammen; es wurde nichts geändert.",
    "options.text.unknown_name": "{game} hat keine Option „{name}“. Die Optionen: {choices}.",
    "options.text.unknown_value": "„{value}“ ist für {option} nicht wählbar. Möglich: {choices}.",
    "options.text.missing_value": "{option} braucht einen Wert nach „=“. Möglich: {choices}.",
    "cancel.not_allowed": (
        "Nur der Host oder jemand mit der Berechtigung „Server verwalten“ kann dieses Spiel "
        "abbrechen."
    ),
    # ------------------------------------------------------------------ table
    "table.title": "{game}",
    "table.turn": "**{name}** ist am Zug: {decision}.",
    "table.winners": {
        "one": "Das Spiel ist vorbei. Gewonnen hat **{names}**.",
        "other": "Das Spiel ist vorbei. Gewonnen haben **{names}**.",
    },
    "table.ended.cancelled": "Dieses Spiel wurde abgebrochen; es wurde kein Ergebnis gespeichert.",
    "table.ended.abandoned": (
        "Niemand saß mehr am Tisch; das Spiel wurde als aufgegeben gespeichert."
    ),
    "table.ended.expired": "Dieses Spiel ist abgelaufen.",
    "table.scores": "Punkte",
    "table.score": {"one": "{name}: {count} Punkt", "other": "{name}: {count} Punkte"},
    "table.log": "Letzte Züge",
    "table.log_line": "• {line}",
    "table.footer": "Spiel #{id} · Zug {move}",
    "table.moved": "Der Tisch ist nach unten gewandert: {link}",
    "table.reposted": "Hier ist der Tisch noch einmal, ganz unten im Kanal.",
    "dm.closed": {
        "one": "{mentions}: Ich kann dir keine Direktnachrichten schicken. Drücke am Tisch auf "
        "**{button}**, um deine Hand zu sehen und zu spielen.",
        "other": "{mentions}: Ich kann euch keine Direktnachrichten schicken. Drückt am Tisch auf "
        "**{button}**, um eure Hände zu sehen und zu spielen.",
    },
    # ------------------------------------------------------------------ hand and moves
    "hand.title": "{game}: Hand von {name}",
    "hand.your_turn": "**Du bist am Zug:** {decision}.",
    "hand.waiting": "Warten auf **{name}**: {decision}.",
    "hand.waiting_quiet": (
        "Du bist nicht am Zug. Der Tisch im Kanal zeigt das Spiel; ich schreibe dir, sobald du "
        "entscheiden musst."
    ),
    "hand.private_log": "Nur für dich sichtbar:",
    "hand.not_a_player": "Du spielst in diesem Spiel nicht mit.",
    "move.not_your_control": "Diese Steuerung gehört einem anderen Spieler.",
    "move.private_only": (
        "Züge machst du in deiner eigenen Hand (deine DM oder {button_my_hand}); es hat sich "
        "nichts geändert."
    ),
    "move.not_your_turn": "Du bist gerade nicht am Zug.",
    "move.illegal": "Dieser Zug ist jetzt nicht erlaubt; es hat sich nichts geändert.",
    "move.stale": (
        "Diese Steuerung war veraltet (das Spiel ist weitergegangen); hier ist die aktuelle."
    ),
    "move.stale_short": (
        "Ein anderer Zug kam zuerst; es wurde nichts ausgeführt. Drücke noch einmal auf "
        "„{button_my_hand}“."
    ),
    "move.applied_display_failed": (
        "Dein Zug wurde ausgeführt, aber ich konnte nicht alle Nachrichten aktualisieren. "
        "{cmd_hand} und {cmd_table} zeigen das aktuelle Spiel."
    ),
    "move.not_applied": (
        "Etwas ist schiefgelaufen; dein Zug wurde NICHT ausgeführt. Bitte versuche es noch einmal."
    ),
    "game.ended.lobby": "Dieses Spiel hat noch nicht begonnen.",
    "game.ended.finished": "Dieses Spiel ist vorbei.",
    "game.ended.cancelled": "Dieses Spiel wurde abgebrochen.",
    "game.ended.abandoned": "Dieses Spiel wurde aufgegeben.",
    "game.ended.expired": "Diese Lobby ist abgelaufen.",
    "game.none_here": "In diesem Kanal läuft kein Spiel. Starte eins mit {cmd_play}.",
    "game.not_started": "Das Spiel hat noch nicht begonnen.",
    "game.already_ended": "Dieses Spiel ist bereits beendet.",
    "game.cancelled_by": "{name} hat das Spiel abgebrochen; es wird kein Ergebnis gespeichert.",
    "game.abandoned_by": (
        "{name} hat aufgegeben; das Spiel endet und wird als aufgegeben gespeichert."
    ),
    "leave.use_lobby_button": (
        "Das Spiel hat noch nicht begonnen: Nutze in der Lobby den Button „{button_leave}“."
    ),
    "error.game_gone": "Dieses Spiel gibt es nicht mehr.",
    "error.unknown_control": "Diese Steuerung kenne ich nicht.",
    "error.damaged_control": (
        "Diese Steuerung stammt nicht von Glory oder ist beschädigt; es hat sich nichts "
        "geändert. Nutze die Knöpfe deiner Hand oder {cmd_hand}."
    ),
    "error.stopping": (
        "Glory startet gerade neu; es hat sich nichts geändert. Versuch es in einer Minute noch "
        "einmal."
    ),
    "error.unexpected": (
        "Etwas ist schiefgelaufen; es wurde nichts geändert. Bitte versuche es noch einmal."
    ),
    # ------------------------------------------------------------------ scores, standings
    "scores.title": "{game}: Punkte (Spiel #{id})",
    "scores.by_round": "Nach Runden",
    "scores.total": "Gesamt",
    "scores.no_rounds": "Es ist noch keine Runde beendet.",
    "scores.round": "Runde {number}: {scores}",
    "scores.entry": "{name} {count}",
    "scores.page": "Seite {page} von {pages}",
    "scores.bad_page": "Diese Seitenzahl ist ungültig; nichts wurde geändert.",
    "standings.title": "Rangliste: {scope}",
    "standings.all_games": "alle Spiele",
    "standings.gap": "…",
    "standings.empty": "Auf diesem Server gibt es noch keine beendeten Spiele.",
    "standings.wins": {"one": "{count} gewonnen", "other": "{count} gewonnen"},
    "sync.owner_only": "Nur der Besitzer des Bots kann Befehle synchronisieren.",
    "sync.done": {
        "one": "{count} Befehl synchronisiert.",
        "other": "{count} Befehle synchronisiert.",
    },
}
