"""German messages of Call to Glory (names as in the German rulebook: Kaiser, Gesandter …)."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "call_to_glory.name": "Call to Glory",
    "call_to_glory.option.rounds": "Runden",
    "call_to_glory.option.imperial_tasks": "Kaiserliche Aufträge",
    "call_to_glory.option.ninja": "Die Macht der Ninja",
    "call_to_glory.decision.draw": "eine Karte ziehen",
    "call_to_glory.decision.draw_second": "eine zweite Karte von einer anderen Stelle ziehen",
    "call_to_glory.decision.lay_or_discard": "einen Satz auslegen oder eine Karte abwerfen",
    "call_to_glory.decision.ninja_or_end": "einen Ninja einsetzen oder den Zug beenden",
    "call_to_glory.decision.choose_pile": "den Ablagestapel für die entfernten Karten wählen",
    "call_to_glory.decision.reveal_task": "einen Kaiserlichen Auftrag aufdecken",
    "call_to_glory.card.6": "Kaiser (6)",
    "call_to_glory.card.7": "Kaiserin (7)",
    "call_to_glory.card.8": "Daimyo (8)",
    "call_to_glory.card.9": "Shogun (9)",
    "call_to_glory.card.12": "Samurai (12)",
    "call_to_glory.card.14": "Ninja (14)",
    "call_to_glory.card.16": "Gesandter (16)",
    "call_to_glory.card.18": "Mönch (18)",
    "call_to_glory.card.20": "Bauer (20)",
    "call_to_glory.source.draw1": "Zugstapel 1",
    "call_to_glory.source.draw2": "Zugstapel 2",
    "call_to_glory.source.discard1": "Ablagestapel 1",
    "call_to_glory.source.discard2": "Ablagestapel 2",
    "call_to_glory.none": "keine",
    "call_to_glory.menu.draw": "Ziehen",
    "call_to_glory.menu.source": "Von {arg}",
    "call_to_glory.menu.lay": "Satz auslegen",
    "call_to_glory.menu.discard": "Karte abwerfen",
    "call_to_glory.menu.card": "{arg}",
    "call_to_glory.menu.count": {"one": "{count} Karte", "other": "{count} Karten"},
    "call_to_glory.menu.pile": "Ablagestapel {arg}",
    "call_to_glory.menu.ninja": "Ninja einsetzen",
    "call_to_glory.menu.seat": "Gegen {arg}",
    "call_to_glory.menu.end_turn": "Zug beenden",
    "call_to_glory.menu.task": "Auftrag {arg} aufdecken",
    "call_to_glory.view.round": "Runde {round} von {total}",
    "call_to_glory.view.draw_piles": "Zugstapel: {first} und {second}",
    "call_to_glory.view.discard_pile": {
        "one": "Ablagestapel {number}: {count} Karte, oben {top}",
        "other": "Ablagestapel {number}: {count} Karten, oben {top}",
    },
    "call_to_glory.view.display_entry": "{count}× {card}",
    "call_to_glory.view.player": {
        "one": (
            "**{name}**: {count} Karte auf der Hand · Auslage: {display} · {points} in dieser Runde"
        ),
        "other": (
            "**{name}**: {count} Karten auf der Hand · Auslage: {display} · {points} in dieser "
            "Runde"
        ),
    },
    "call_to_glory.view.ninjas": "Ninja-Figuren: {supply} im Vorrat; im Besitz: {held}",
    "call_to_glory.view.task_revealed": "{name} hat Auftrag {deck} aufgedeckt: {card}",
    "call_to_glory.view.pending": {
        "one": "{name} muss einen Ablagestapel für {count}× {card} wählen.",
        "other": "{name} muss einen Ablagestapel für {count}× {card} wählen.",
    },
    "call_to_glory.view.hand": "**Deine Hand:** {cards}",
    "call_to_glory.view.task": "{deck}: {card} (+{bonus})",
    "call_to_glory.view.task_short": "{deck}: {card}",
    "call_to_glory.event.tasks_received": "Deine Kaiserlichen Aufträge: {tasks}.",
    "call_to_glory.view.my_tasks": "**Deine Kaiserlichen Aufträge:** {tasks}",
    "call_to_glory.event.round_started": (
        "Runde {round} von {rounds_total} beginnt; {start_player} fängt an."
    ),
    "call_to_glory.event.card_drawn": "{seat} nimmt von {source}: {value}.",
    "call_to_glory.event.card_drawn_hidden": "{seat} zieht von {source}.",
    "call_to_glory.event.card_drawn_secret": "Du ziehst von {source}: {value}.",
    "call_to_glory.event.hand_dealt": "Deine Startkarten: {values}.",
    "call_to_glory.event.card_discarded": "{seat} wirft auf Ablagestapel {pile} ab: {value}.",
    "call_to_glory.event.set_laid": {
        "one": "{seat} legt {count}× {value} aus.",
        "other": "{seat} legt {count}× {value} aus.",
    },
    "call_to_glory.event.set_laid_beating": (
        "{seat} legt {count}× {value} aus und schlägt den Satz von {beaten_seat}."
    ),
    "call_to_glory.event.set_discarded": {
        "one": "{count}× {value} von {seat} kommt auf Ablagestapel {pile}.",
        "other": "{count}× {value} von {seat} kommen auf Ablagestapel {pile}.",
    },
    "call_to_glory.event.ninja_gained": "{seat} erhält eine Ninja-Figur.",
    "call_to_glory.event.ninja_used": "{seat} schickt einen Ninja gegen {value} von {target}.",
    "call_to_glory.event.round_ended": "Runde {round} endet.",
    "call_to_glory.event.task_revealed": (
        "{seat} deckt Auftrag {deck} auf: {value} (+{bonus} je Karte): {awards}."
    ),
    "call_to_glory.event.round_scored": (
        "Wertung der Runde {round}. Diese Runde: {itemised}. Gesamt: {totals}."
    ),
    "call_to_glory.event.game_over": "Das Spiel ist vorbei.",
    "call_to_glory.view.cards": "**Karten auf der Hand:** {cards}",
    "call_to_glory.view.tasks_held": "**Kaiserliche Aufträge:** {tasks}",
    "call_to_glory.option.rounds.4": "volles Spiel, 4 Runden (3 mit Kaiserlichen Aufträgen)",
    "call_to_glory.option.rounds.1": "kurzes Spiel, 1 Runde",
    "call_to_glory.award": {
        "one": "{name} +{points} ({count} Karte)",
        "other": "{name} +{points} ({count} Karten)",
    },
    "call_to_glory.no_award": "niemand bekommt Punkte",
    "call_to_glory.round_entry": "{name} {base} + {bonus} aus Aufträgen = {count}",
}
