"""German messages of Clans and Glory (terms of the German short rules: Tableau, Schild …)."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "clans_and_glory.name": "Clans and Glory",
    "clans_and_glory.rules": (
        "**Ziel:** Sichere dir mit deinen Schilden die wertvollsten Clanmitglieder.\n"
        "**Der Tisch:** eine Reihe von Tableaus (zwei mehr als Spieler), jedes mit Plätzen im "
        "Norden und Süden; die beiden äußeren Tableaus haben zusätzlich einen Platz am "
        "Lagerfeuer.\n"
        "**Dein Zug:** Lege eine Handkarte offen neben (oder gegenüber) eine Karte gleicher Farbe "
        "oder gleichen Werts. Nur wenn nirgends eine Karte passt, legst du eine verdeckt; sie "
        "belegt den Platz und zählt nie. Danach darfst du einen deiner fünf Schilde auf dieses "
        "Tableau setzen.\n"
        "**Wertung:** Liegen alle Karten, werden die Schilde jedes Tableaus in der Reihenfolge "
        "gelesen, in der sie gesetzt wurden: Der erste erhält alle Karten des niedrigsten Werts, "
        "der nächste den nächsthöheren Wert und so weiter. Kartenwerte sind Punkte; die meisten "
        "Punkte gewinnen (bei Gleichstand mehr Karten).\n"
        "**Optionen:** der letzte Schild des letzten Spielers, wo die Startkarten liegen und ob "
        "Plätze über Tableau-Grenzen hinweg benachbart sind."
    ),
    "clans_and_glory.option.final_turn_shield_allowed": "Schild im letzten Zug",
    "clans_and_glory.option.start_seats": "Startkarten",
    "clans_and_glory.option.start_seats.north_middle": "mittlerer Platz im Norden",
    "clans_and_glory.option.start_seats.alternating": "abwechselnd Norden und Süden",
    "clans_and_glory.option.start_seats.random": "zufälliger Platz",
    "clans_and_glory.option.cross_board_adjacency": "Nachbarn über Tableau-Grenzen",
    "clans_and_glory.decision.place": "eine Karte offen auf einen Platz legen",
    "clans_and_glory.decision.place_face_down": "eine Karte verdeckt legen (offen passt keine)",
    "clans_and_glory.decision.shield": "einen Schild auf dieses Tableau setzen oder nicht",
    "clans_and_glory.colour.red": "Rot",
    "clans_and_glory.colour.blue": "Blau",
    "clans_and_glory.colour.green": "Grün",
    "clans_and_glory.colour.yellow": "Gelb",
    "clans_and_glory.colour.purple": "Lila",
    "clans_and_glory.colour.orange": "Orange",
    "clans_and_glory.colour.black": "Schwarz",
    "clans_and_glory.card": "{colour} {value}",
    "clans_and_glory.face_down": "verdeckte Karte",
    "clans_and_glory.none": "keine",
    "clans_and_glory.claim": {
        "one": "{name} erhält Wert {value} ({count} Punkt)",
        "other": "{name} erhält Wert {value} ({count} Punkte)",
    },
    "clans_and_glory.menu.place": "Karte legen",
    "clans_and_glory.menu.place_face_down": "Karte verdeckt legen",
    "clans_and_glory.position.n": "N{column}",
    "clans_and_glory.position.s": "S{column}",
    "clans_and_glory.position.hl": "W",
    "clans_and_glory.position.hr": "O",
    "clans_and_glory.menu.card": "{arg}",
    "clans_and_glory.menu.board": "Tableau {arg}",
    "clans_and_glory.menu.position": "Platz {arg}",
    "clans_and_glory.menu.shield": "Schild setzen",
    "clans_and_glory.menu.no_shield": "Kein Schild",
    "clans_and_glory.view.progress": {
        "one": "Bisher liegt {count} Karte; den letzten Zug macht {last}.",
        "other": "Bisher liegen {count} Karten; den letzten Zug macht {last}.",
    },
    "clans_and_glory.view.shields_left": "Übrige Schilde: {shields}",
    "clans_and_glory.view.hand_sizes": "Karten auf der Hand: {sizes}",
    "clans_and_glory.view.shield_board": "Ein Schild käme auf Tableau {board}.",
    "clans_and_glory.view.board": "**Tableau {board}** · Schilde: {stack}",
    "clans_and_glory.view.row.north": "Norden: {cells}",
    "clans_and_glory.view.row.south": "Süden: {cells}",
    "clans_and_glory.view.row.head": "Lagerfeuer: {cells}",
    "clans_and_glory.view.empty": "{position} –",
    "clans_and_glory.view.cell": "{position} {card}",
    "clans_and_glory.view.your_face_down": "{card} (verdeckt)",
    "clans_and_glory.view.hand": "**Deine Hand:** {cards}",
    "clans_and_glory.event.game_started": "Die Startkarten liegen aus; {start_player} beginnt.",
    "clans_and_glory.event.card_placed": (
        "{seat} legt {card} auf Platz {position} an Tableau {board}."
    ),
    "clans_and_glory.event.card_placed_face_down": (
        "{seat} legt eine Karte verdeckt auf Platz {position} an Tableau {board}."
    ),
    "clans_and_glory.event.face_down_card": "Deine verdeckte Karte auf Platz {position}: {card}.",
    "clans_and_glory.event.shield_placed": "{seat} setzt einen Schild auf Tableau {board}.",
    "clans_and_glory.event.shield_declined": "{seat} setzt keinen Schild.",
    "clans_and_glory.event.game_ended": "Alle Karten liegen; die Tableaus werden gewertet.",
    "clans_and_glory.event.board_scored": "Tableau {board}: {claims}.",
    "clans_and_glory.event.result": {
        "one": "Endstand: {points}. Gewonnen hat {winners}.",
        "other": "Endstand: {points}. Gewonnen haben {winners}.",
    },
}
