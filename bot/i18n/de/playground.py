"""Deutsche Texte des Spielplatzes (``glory playground``): Kommandozeile und Seite.

Die Texte der Seite (``playground.page.*``) behalten ihre ``{Platzhalter}``; die Seite füllt sie.
"""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "playground.cli.description": (
        "Glory im Browser spielen, ohne Discord: der echte Bot läuft gegen einen lokalen "
        "Discord-Emulator, und eine Seite zeigt den Kanal des Servers und die DMs jedes Spielers."
    ),
    "playground.cli.port": "der Port der Seite auf 127.0.0.1 (Standard: {port})",
    "playground.cli.players": "die Spieler zu Beginn, durch Kommas getrennt",
    "playground.cli.language": "die Discord-Sprache der Spieler, z. B. de oder ru-RU",
    "playground.cli.pictures": "ob der Bot die Bilder von Tisch und Hand zeichnet",
    "playground.cli.no_rate_limits": "den Bot nicht an Discords Ratenbegrenzungen halten",
    "playground.cli.workdir": (
        "Datenbank und Log des Bots in diesem Verzeichnis behalten (Standard: ein temporäres, "
        "das am Ende gelöscht wird)"
    ),
    "playground.cli.starting": "Der Bot startet gegen den lokalen Discord-Emulator …",
    "playground.cli.ready": (
        "Glory-Spielplatz: {url}\nDas Log des Bots: {log}\nStrg+C beendet ihn."
    ),
    "playground.cli.port_busy": "Port {port} ist belegt: wähle mit --port einen anderen.",
    "playground.cli.bot_failed": "Der Bot ist nicht gestartet; das Ende seines Logs ({log}):",
    "playground.cli.stopped": "Der Spielplatz ist beendet.",
    "playground.refused.name": "Der Name eines Spielers braucht 1 bis 32 Zeichen.",
    "playground.refused.name_taken": "Es gibt schon einen Spieler namens {name}.",
    "playground.refused.player": "Diesen Spieler gibt es nicht.",
    "playground.refused.channel": "Diesen Kanal gibt es nicht.",
    "playground.refused.message": "Diese Nachricht gibt es nicht mehr.",
    "playground.refused.command": "Diesen Befehl hat der Bot hier nicht.",
    "playground.refused.option": "Die Option {name} passt nicht zu diesem Befehl.",
    "playground.refused.fill": (
        "Hier gibt es keine Lobby mit freiem Platz, oder du bist nicht ihr Gastgeber."
    ),
    "playground.refused.origin": "Der Spielplatz antwortet nur seiner eigenen Seite, {page}.",
    "playground.refused.request": (
        "Die Seite hat etwas geschickt, das der Spielplatz nicht versteht."
    ),
    "playground.refused.action": "Das ließe Discord dich nicht tun: {reason}",
    "playground.page.title": "Glory-Spielplatz",
    "playground.page.acting_as": "Du bist",
    "playground.page.channels": "Textkanäle",
    "playground.page.dms": "Direktnachrichten",
    "playground.page.add_player": "Spieler hinzufügen",
    "playground.page.player_name": "Name",
    "playground.page.add_channel": "Kanal hinzufügen",
    "playground.page.channel_name": "kanal-name",
    "playground.page.phone": "Handybreite",
    "playground.page.fill": "Mit KI auffüllen",
    "playground.page.ai_players": "KI-Spieler",
    "playground.page.send": "Senden",
    "playground.page.command": "Befehl wählen",
    "playground.page.message_in": "Nachricht an #{channel}",
    "playground.page.dm_with": "DMs von {name} mit {bot}",
    "playground.page.only_you": "Nur du kannst das sehen",
    "playground.page.thinking": "{bot} denkt nach …",
    "playground.page.used": "{user} hat {command} benutzt",
    "playground.page.edited": "(bearbeitet)",
    "playground.page.app_tag": "APP",
    "playground.page.failed_command": "Die Anwendung hat nicht geantwortet",
    "playground.page.failed_component": "Diese Interaktion ist fehlgeschlagen",
    "playground.page.select": "Triff eine Auswahl",
    "playground.page.today": "Heute um {time}",
    "playground.page.reconnecting": "Verbindung zum Spielplatz wird wiederhergestellt …",
    "playground.page.bot_stopped": "Der Bot-Prozess ist beendet: sein Log sagt, warum.",
    "playground.page.refused": "Nach Discords Regeln abgelehnt: {count}",
    "playground.page.rate_limited": "Mit 429 beantwortet: {count}",
    "playground.page.failed": "Fehlgeschlagene Interaktionen: {count}",
    "playground.page.unhandled": "Routen, die dem Emulator fehlen: {count}",
    "playground.page.empty": "Hier ist noch nichts. Wähle unten im Befehlsfeld {cmd_play}.",
    "playground.page.required": "erforderlich",
    "playground.page.not_emulated": "Im Spielplatz nicht verfügbar",
    "playground.page.new_messages": "neu",
}
