"""Deutsche Texte der Tipps: ``/tipp``, der Tipp-Knopf, ``/einstellungen tipps``, die Gründe der
Spiele (``hint.<spiel>.<token>``) und die Tipp-Spalte von ``/punkte``."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "cmd.hint.name": "tipp",
    "cmd.hint.description": (
        "Nur für dich: der Zug, den die starke KI jetzt machen würde, und warum"
    ),
    "cmd.settings.hints.name": "tipps",
    "cmd.settings.hints.description": "Ob Spieler hier um Tipps bitten dürfen",
    "cmd.settings.hints.allowed": "An: Spieler dürfen um Tipps bitten; aus: nicht",
    "button.hint": "Tipp",
    "hint.move": "💡 **Tipp:** {move}",
    "hint.forced": "Es ist dein einziger möglicher Zug.",
    "hint.close_call": "Zwei Züge sind etwa gleich gut; dieser lag knapp vorn.",
    "hint.close_call_with": (
        "Zwei Züge sind etwa gleich gut; dieser lag knapp vor diesem: {move}."
    ),
    "hint.wins_game": "Mit diesem Zug gewinnst du die Partie.",
    "hint.wait": "Dein Tipp wird noch berechnet; er kommt gleich.",
    "hint.busy": (
        "Gerade werden viele Tipps berechnet; bitte frag in ein paar Sekunden noch einmal."
    ),
    "hint.later": (
        "Die KI ist gerade mit den Zügen der Computerspieler beschäftigt, daher kam dein Tipp"
        " nicht rechtzeitig; er wurde nicht gezählt. Bitte frag gleich noch einmal."
    ),
    "hint.used": {
        "one": "Du hast in diesem Spiel {count} Tipp genutzt.",
        "other": "Du hast in diesem Spiel {count} Tipps genutzt.",
    },
    "hint.not_your_turn": "Tipps gibt es für den Spieler am Zug, und du bist nicht am Zug.",
    "hint.disabled": "Tipps sind auf diesem Server ausgeschaltet.",
    "hint.stale": (
        "Dieser {button_hint}-Knopf ist veraltet (das Spiel ist weitergegangen). Nimm den in "
        "deiner aktuellen Hand oder {cmd_hint}."
    ),
    "hint.moved_on": (
        "Das Spiel ist weitergegangen, während der Tipp berechnet wurde; nichts wurde gezählt."
    ),
    "settings.hints.on": (
        "Erledigt: Spieler auf diesem Server dürfen um Tipps bitten ({cmd_hint} und der "
        "Knopf {button_hint})."
    ),
    "settings.hints.off": "Erledigt: Tipps sind auf diesem Server ausgeschaltet.",
    "scores.hints": "Genutzte Tipps",
    "scores.hint_entry": {"one": "{name}: {count} Tipp", "other": "{name}: {count} Tipps"},
    "hint.points": {"one": "{count} Punkt", "other": "{count} Punkte"},
    "hint.cards": {"one": "{count} Karte", "other": "{count} Karten"},
    "hint.types": {"one": "{count} Typ", "other": "{count} Typen"},
    "hint.shields": {"one": "{count} Schild", "other": "{count} Schilde"},
    # Call to Glory
    "hint.call_to_glory.ends_round": (
        "Mit {card} zeigt deine Auslage {types}: genug, um die Runde zu beenden."
    ),
    "hint.call_to_glory.beats_set": "Das schlägt den Satz {count}× {card} von {player}.",
    "hint.call_to_glory.replaces_own_set": (
        "Ein größerer Satz {card} ({count}×) ersetzt den in deiner Auslage."
    ),
    "hint.call_to_glory.new_type": "Niemand zeigt bisher {card}: ein neuer Typ, {points} wert.",
    "hint.call_to_glory.cannot_beat": (
        "Den Satz {count}× {card} von {player} erreichst du nicht; diese Karte kann weg."
    ),
    "hint.call_to_glory.least_needed": "{card} ist die Karte, die du am wenigsten brauchst.",
    "hint.call_to_glory.completes_set": (
        "Damit hältst du {count}× {card}: ein Satz, den du auslegen kannst."
    ),
    "hint.call_to_glory.takes_card": "Du nimmst {card} vom Ablagestapel.",
    "hint.call_to_glory.draws_blind": "Verdeckt ziehen vom Nachziehstapel {pile}.",
    "hint.call_to_glory.ninja_removes": (
        "Der Ninja entfernt einmal {card} aus der Auslage von {player}; dort bleiben {cards}."
    ),
    "hint.call_to_glory.covers_card": (
        "Die entfernten Karten begraben {card} oben auf diesem Stapel."
    ),
    "hint.call_to_glory.task_bonus": "Diese Aufgabe ({card}) bringt {player} {points}.",
    "hint.call_to_glory.task_no_bonus": (
        "Diese Aufgabe ({card}) bringt niemandem etwas: keine Auslage zeigt sie."
    ),
    # Kami
    "hint.kami.wins_round": (
        "Der Angriff mit {card} leert deine Hand und gewinnt die Runde: {points}."
    ),
    "hint.kami.wins_round.doubled": (
        "Der Angriff mit {card} leert deine Hand und gewinnt die Runde: {points}, verdoppelt, "
        "weil die Karte zu deiner verdeckten passt."
    ),
    "hint.kami.counters": "{card} kontert den Angriff von {attack}.",
    "hint.kami.hides_card": (
        "{card} kommt verdeckt in deine Verteidigungslinie, vor den anderen verborgen."
    ),
    "hint.kami.attacks_with": "Greif mit {card} an.",
    "hint.kami.empress_attack": "Greif mit deiner Kaiserin an, der stärksten Karte.",
    "hint.kami.keeps_empress": (
        "Deine einzige Kaiserin könnte den Angriff von {attack} kontern, aber wenn du passt, "
        "bleibt sie dir für später."
    ),
    "hint.kami.holds_back": (
        "Du könntest den Angriff von {attack} kontern, aber deine Karten zu halten ist besser."
    ),
    "hint.kami.cannot_counter": "Nichts in deiner Hand kontert den Angriff von {attack}.",
    # Clans and Glory
    "hint.clans_and_glory.new_lowest": (
        "Deine Karte wird der niedrigste Wert auf Tableau {board}: {value}."
    ),
    "hint.clans_and_glory.matches": "{card} passt zu den verwandten Karten auf {positions}.",
    "hint.clans_and_glory.nothing_fits": (
        "Offen passt nichts, also kommt {card} verdeckt auf Tableau {board}."
    ),
    "hint.clans_and_glory.claims_value": (
        "Endete das Spiel jetzt, nähme dieser Schild die {value}er auf Tableau {board}: {cards}, "
        "{points}."
    ),
    "hint.clans_and_glory.claims_nothing_yet": (
        "Endete das Spiel jetzt, nähme ein Schild auf Tableau {board} noch nichts."
    ),
    "hint.clans_and_glory.saves_shield": "Heb deinen Schild für später auf: noch {shields}.",
}
