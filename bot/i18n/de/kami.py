"""German messages of Kami (names as in the German rulebook: Speerträgerin, Volltreffer …)."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "kami.name": "Kami",
    "kami.option.ending": "Spielende",
    "kami.option.ending.soldier": "Soldat",
    "kami.option.ending.lord": "Gebieter",
    "kami.option.ending.kami": "Kami",
    "kami.option.target": "Zielpunktzahl",
    "kami.option.three_player_deal": "Austeilen zu dritt",
    "kami.option.three_player_deal.printed": "laut Regel (je 8 Karten)",
    "kami.option.three_player_deal.publisher": "Verlagsvariante (je 10 Karten)",
    "kami.option.lord_clamp": "Gebieter: nicht unter 0",
    "kami.option.demoralized": "Demoralisiert (5 Soldaten)",
    "kami.option.demoralized.ask_everyone": "alle Spieler fragen",
    "kami.option.demoralized.ask_eligible": "nur Spieler mit 5 Soldaten fragen",
    "kami.option.demoralized.off": "aus",
    "kami.decision.demoralized_reveal": "fünf Soldaten zeigen (Demoralisiert) oder verdeckt halten",
    "kami.decision.demoralized_consent": "neu austeilen lassen oder weiterspielen",
    "kami.decision.lead_defense": "eine Karte verdeckt in die Verteidigungslinie legen",
    "kami.decision.lead_attack": "mit einer Karte angreifen",
    "kami.decision.respond": "passen oder den Angriff kontern",
    "kami.decision.counter_attack": "nach dem Kontern angreifen",
    "kami.card.soldier": "Soldat (1)",
    "kami.card.spear": "Speerträgerin (2)",
    "kami.card.horseman": "Reiter (2)",
    "kami.card.silver_dragon": "Silberdrache (3)",
    "kami.card.gold_dragon": "Golddrache (3)",
    "kami.card.tower": "Turm (4)",
    "kami.card.madman": "Wahnsinniger (4)",
    "kami.card.empress": "Kaiserin (5)",
    "kami.face_down": "verdeckte Karte",
    "kami.none": "keine",
    "kami.stack": "Stapel {number} ({card})",
    "kami.menu.pass": "Passen",
    "kami.menu.counter": "Kontern",
    "kami.menu.lead": "Eröffnen",
    "kami.menu.attack": "Angreifen",
    "kami.menu.card": "{arg}",
    "kami.menu.mercenary": "Söldner: {arg}",
    "kami.menu.reveal_soldiers": "Meine Soldaten zeigen",
    "kami.menu.keep_hidden": "Verdeckt halten",
    "kami.menu.redeal": "Neu austeilen",
    "kami.menu.play_on": "Weiterspielen",
    "kami.view.mode.teams": "Zwei gegen zwei",
    "kami.view.mode.free_for_all": "Jeder für sich",
    "kami.view.mode.duel": "Duell",
    "kami.view.round": "Runde {round} · Spielende: {ending} · Ziel {target}",
    "kami.view.teams": "Teams: {first} gegen {second}",
    "kami.view.current_attack": {
        "one": "Angriff von {name}: {card} (bisher hat {count} Spieler gepasst).",
        "other": "Angriff von {name}: {card} (bisher haben {count} Spieler gepasst).",
    },
    "kami.view.player": {
        "one": "**{name}**: {count} Karte auf der Hand · Verteidigung: {defense} · "
        "Angriff: {attack}",
        "other": "**{name}**: {count} Karten auf der Hand · Verteidigung: {defense} · "
        "Angriff: {attack}",
    },
    "kami.view.stack": "{number}: {card} ({count})",
    "kami.view.mercenaries": "Söldner: {stacks}",
    "kami.view.set_aside": {
        "one": "{count} Karte bleibt in dieser Runde ungenutzt.",
        "other": "{count} Karten bleiben in dieser Runde ungenutzt.",
    },
    "kami.view.soldiers_revealed": {
        "one": "{name} hat {count} Soldaten gezeigt.",
        "other": "{name} hat {count} Soldaten gezeigt.",
    },
    "kami.view.last_round": {
        "one": "Vorige Runde: {count} Punkt für {names} mit der Karte {card}.",
        "other": "Vorige Runde: {count} Punkte für {names} mit der Karte {card}.",
    },
    "kami.view.hand": "**Deine Hand:** {cards}",
    "kami.view.seen_leftover": "Du kennst die ungenutzte Karte {card}.",
    "kami.event.start_player_draw": "{start_player} zieht die höchste Karte und beginnt.",
    "kami.event.deal": "Runde {round}: Die Karten sind ausgeteilt; {start_player} beginnt.",
    "kami.event.hand": "Deine Karten: {cards}.",
    "kami.event.leftover_seen": "Du siehst eine ungenutzte Karte: {card}.",
    "kami.event.soldiers_revealed": {
        "one": "{seat} zeigt {count} Soldaten (Demoralisiert).",
        "other": "{seat} zeigt {count} Soldaten (Demoralisiert).",
    },
    "kami.event.redeal": "{seat} verlangt, neu auszuteilen.",
    "kami.event.play_on": "{seat} spielt weiter.",
    "kami.event.lead": "{seat} eröffnet und legt in die Verteidigungslinie: {card}.",
    "kami.event.lead_hidden": "{seat} eröffnet mit einer verdeckten Karte.",
    "kami.event.lead_mercenary": "{seat} eröffnet mit einem Söldner: {card}.",
    "kami.event.hidden_defense": "Deine verdeckte Verteidigungskarte: {card}.",
    "kami.event.counter": "{seat} kontert: {card}.",
    "kami.event.counter_mercenary": "{seat} kontert mit einem Söldner: {card}.",
    "kami.event.mercenary_revealed": "Ein Söldnerstapel zeigt jetzt: {card}.",
    "kami.event.attack": "{seat} greift an: {card}.",
    "kami.event.attack_mercenary": "{seat} greift mit einem Söldner an: {card}.",
    "kami.event.pass": "{seat} passt.",
    "kami.event.lone_attack": "{seat} greift ohne Verteidigungskarte an: {card}.",
    "kami.event.round_end": {
        "one": (
            "Runde {round} endet: {count} Punkt für {seats} mit der Karte {card} (gesamt {total})."
        ),
        "other": (
            "Runde {round} endet: {count} Punkte für {seats} mit der Karte {card} (gesamt {total})."
        ),
    },
    "kami.event.game_over": "Das Spiel ist vorbei. Punkte: {scores}.",
    "kami.view.cards": "**Karten auf der Hand:** {cards}",
    "kami.view.seen_leftover_of": "Kennt die ungenutzte Karte {card}.",
    "kami.event.round_end_doubled": {
        "one": (
            "Runde {round} endet mit einem Volltreffer: {card} über derselben verdeckten "
            "Verteidigungskarte zählt doppelt, {count} Punkt für {seats} (gesamt {total})."
        ),
        "other": (
            "Runde {round} endet mit einem Volltreffer: {card} über derselben verdeckten "
            "Verteidigungskarte zählt doppelt, {count} Punkte für {seats} (gesamt {total})."
        ),
    },
    "kami.view.last_round_doubled": {
        "one": (
            "Vorige Runde: {count} Punkt für {names} mit der Karte {card}, verdoppelt durch einen "
            "Volltreffer."
        ),
        "other": (
            "Vorige Runde: {count} Punkte für {names} mit der Karte {card}, verdoppelt durch einen "
            "Volltreffer."
        ),
    },
}
