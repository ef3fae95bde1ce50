"""English messages of Call to Glory: name, rules summary, options, decisions, menus, events."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "call_to_glory.name": "Call to Glory",
    "call_to_glory.rules": (
        "**Goal:** collect sets of the nine character types in your display and score the most "
        "points over the rounds.\n"
        "**Your turn:** draw two cards from two different places (either draw pile or the top of "
        "either discard pile). Then either lay a set of equal cards into your display, or "
        "discard one card onto a discard pile.\n"
        "**Sets:** a set needs at least two equal cards (three of the 12, 14 and 16 with three or "
        "four players). Laying more cards of a type than another player shows beats their set: "
        "it leaves their display and they choose the discard pile it goes on.\n"
        "**Round end:** when a display shows enough different types, when all types are out, or "
        "when a draw pile runs dry. Displays score; the best total after the last round wins.\n"
        "**Options:** one or four rounds; *Imperial Tasks* give secret bonus cards revealed "
        "between rounds; *Ninja* lets laying Ninjas earn miniatures that remove rival cards."
    ),
    "call_to_glory.option.rounds": "Rounds",
    "call_to_glory.option.imperial_tasks": "Imperial Tasks",
    "call_to_glory.option.ninja": "Ninja",
    "call_to_glory.decision.draw": "draw a card",
    "call_to_glory.decision.draw_second": "draw a second card from another place",
    "call_to_glory.decision.lay_or_discard": "lay a set or discard a card",
    "call_to_glory.decision.ninja_or_end": "use a ninja or end the turn",
    "call_to_glory.decision.choose_pile": "choose the discard pile for the removed cards",
    "call_to_glory.decision.reveal_task": "reveal an Imperial Task",
    "call_to_glory.card.6": "Emperor (6)",
    "call_to_glory.card.7": "Empress (7)",
    "call_to_glory.card.8": "Daimyo (8)",
    "call_to_glory.card.9": "Shogun (9)",
    "call_to_glory.card.12": "Samurai (12)",
    "call_to_glory.card.14": "Ninja (14)",
    "call_to_glory.card.16": "Envoy (16)",
    "call_to_glory.card.18": "Monk (18)",
    "call_to_glory.card.20": "Farmer (20)",
    "call_to_glory.source.draw1": "draw pile 1",
    "call_to_glory.source.draw2": "draw pile 2",
    "call_to_glory.source.discard1": "discard pile 1",
    "call_to_glory.source.discard2": "discard pile 2",
    "call_to_glory.none": "none",
    "call_to_glory.menu.draw": "Draw",
    "call_to_glory.menu.source": "From {arg}",
    "call_to_glory.menu.lay": "Lay a set",
    "call_to_glory.menu.discard": "Discard a card",
    "call_to_glory.menu.card": "{arg}",
    "call_to_glory.menu.count": {"one": "{count} card", "other": "{count} cards"},
    "call_to_glory.menu.pile": "Discard pile {arg}",
    "call_to_glory.menu.ninja": "Use a ninja",
    "call_to_glory.menu.seat": "Against {arg}",
    "call_to_glory.menu.end_turn": "End the turn",
    "call_to_glory.menu.task": "Reveal task {arg}",
    "call_to_glory.view.round": "Round {round} of {total}",
    "call_to_glory.view.draw_piles": "Draw piles: {first} and {second}",
    "call_to_glory.view.discard_pile": {
        "one": "Discard pile {number}: {count} card, top {top}",
        "other": "Discard pile {number}: {count} cards, top {top}",
    },
    "call_to_glory.view.display_entry": "{count}× {card}",
    "call_to_glory.view.player": {
        "one": "**{name}**: {count} card in hand · display {display} · {points}",
        "other": "**{name}**: {count} cards in hand · display {display} · {points}",
    },
    "call_to_glory.view.ninjas": "Ninja miniatures: {supply} in the supply; held: {held}",
    "call_to_glory.view.task_revealed": "{name} revealed task {deck}: {card}",
    "call_to_glory.view.pending": {
        "one": "{name} must choose a discard pile for {count}× {card}.",
        "other": "{name} must choose a discard pile for {count}× {card}.",
    },
    "call_to_glory.view.hand": "**Your hand:** {cards}",
    "call_to_glory.view.task": "{deck}: {card} (+{bonus})",
    "call_to_glory.view.task_short": "{deck}: {card}",
    "call_to_glory.event.tasks_received": "Your Imperial Tasks: {tasks}.",
    "call_to_glory.view.my_tasks": "**Your Imperial Tasks:** {tasks}",
    "call_to_glory.event.round_started": (
        "Round {round} of {rounds_total} begins; {start_player} starts."
    ),
    "call_to_glory.event.card_drawn": "{seat} took {value} from {source}.",
    "call_to_glory.event.card_drawn_hidden": "{seat} drew from {source}.",
    "call_to_glory.event.card_drawn_secret": "You drew {value} from {source}.",
    "call_to_glory.event.hand_dealt": "You were dealt: {values}.",
    "call_to_glory.event.card_discarded": "{seat} discarded {value} onto discard pile {pile}.",
    "call_to_glory.event.set_laid": {
        "one": "{seat} laid {count}× {value}.",
        "other": "{seat} laid {count}× {value}.",
    },
    "call_to_glory.event.set_laid_beating": "{seat} laid {count}× {value}, beating {beaten_seat}.",
    "call_to_glory.event.set_discarded": "{seat}'s {count}× {value} went onto discard pile {pile}.",
    "call_to_glory.event.ninja_gained": "{seat} gained a ninja miniature.",
    "call_to_glory.event.ninja_used": "{seat} sent a ninja against {target}'s {value}.",
    "call_to_glory.event.round_ended": "Round {round} ends.",
    "call_to_glory.event.task_revealed": "{seat} revealed task {deck}: {value} (+{bonus}).",
    "call_to_glory.event.round_scored": "Round {round} scores: {scores}.",
    "call_to_glory.event.game_over": "The game is over.",
}
