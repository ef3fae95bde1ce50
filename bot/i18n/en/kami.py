"""English messages of Kami: name, rules summary, options, decisions, menus, events."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "kami.name": "Kami",
    "kami.rules": (
        "**Goal:** be first to empty your hand; the last card you play scores.\n"
        "**Leading:** the start player puts one card face-down into their defense line, then "
        "attacks with one card face-up.\n"
        "**Responding:** going clockwise, each player either passes or counters with a card of "
        "the attacked type (the Empress counters anything but Soldier and Spear), then attacks "
        "in turn. If everyone passes, the attacker leads again.\n"
        "**Scoring:** the round ends when a hand is empty; the value of the last attack scores "
        "(doubled if it matches the face-down defense). Reach the target score to win.\n"
        "**Modes:** 4 players play in teams of partners opposite each other; 3 play alone; 2 play "
        "a Duel with mercenary stacks in the middle.\n"
        "**Options:** how a game ends, the target score, the 3-player deal and the lord clamp."
    ),
    "kami.option.ending": "Game end",
    "kami.option.ending.soldier": "Soldier",
    "kami.option.ending.lord": "Lord",
    "kami.option.ending.kami": "Kami",
    "kami.option.target": "Target score",
    "kami.option.three_player_deal": "3-player deal",
    "kami.option.three_player_deal.printed": "printed (8 cards each)",
    "kami.option.three_player_deal.publisher": "publisher (10 cards each)",
    "kami.option.lord_clamp": "Lord clamp",
    "kami.option.demoralized": "Demoralized (5 Soldiers)",
    "kami.option.demoralized.ask_everyone": "ask every player",
    "kami.option.demoralized.ask_eligible": "ask only players with 5 Soldiers",
    "kami.option.demoralized.off": "off",
    "kami.decision.demoralized_reveal": "reveal five Soldiers (Demoralized) or keep them hidden",
    "kami.decision.demoralized_consent": "call a redeal or play on",
    "kami.decision.lead_defense": "lead a card face-down into the defense line",
    "kami.decision.lead_attack": "attack with a card",
    "kami.decision.respond": "pass or counter the attack",
    "kami.decision.counter_attack": "attack after countering",
    "kami.card.soldier": "Soldier (1)",
    "kami.card.spear": "Spear (2)",
    "kami.card.horseman": "Horseman (2)",
    "kami.card.silver_dragon": "Silver Dragon (3)",
    "kami.card.gold_dragon": "Gold Dragon (3)",
    "kami.card.tower": "Tower (4)",
    "kami.card.madman": "Madman (4)",
    "kami.card.empress": "Empress (5)",
    "kami.face_down": "a face-down card",
    "kami.none": "none",
    "kami.stack": "stack {number} ({card})",
    "kami.menu.pass": "Pass",
    "kami.menu.counter": "Counter",
    "kami.menu.lead": "Lead",
    "kami.menu.attack": "Attack",
    "kami.menu.card": "{arg}",
    "kami.menu.mercenary": "Mercenary: {arg}",
    "kami.menu.reveal_soldiers": "Reveal my Soldiers",
    "kami.menu.keep_hidden": "Keep them hidden",
    "kami.menu.redeal": "Redeal",
    "kami.menu.play_on": "Play on",
    "kami.view.mode.teams": "Teams of two",
    "kami.view.mode.free_for_all": "Every player alone",
    "kami.view.mode.duel": "Duel",
    "kami.view.round": "Round {round} · game end: {ending} · target {target}",
    "kami.view.teams": "Teams: {first} against {second}",
    "kami.view.current_attack": {
        "one": "{name} attacks with {card} ({count} pass so far).",
        "other": "{name} attacks with {card} ({count} passes so far).",
    },
    "kami.view.player": {
        "one": "**{name}**: {count} card in hand · defense {defense} · attack {attack}",
        "other": "**{name}**: {count} cards in hand · defense {defense} · attack {attack}",
    },
    "kami.view.stack": "{number}: {card} ({count})",
    "kami.view.mercenaries": "Mercenaries: {stacks}",
    "kami.view.set_aside": {
        "one": "{count} card lies unused this round.",
        "other": "{count} cards lie unused this round.",
    },
    "kami.view.soldiers_revealed": {
        "one": "{name} revealed {count} Soldier.",
        "other": "{name} revealed {count} Soldiers.",
    },
    "kami.view.last_round": {
        "one": "Last round: {names} scored {count} point with {card}.",
        "other": "Last round: {names} scored {count} points with {card}.",
    },
    "kami.view.hand": "**Your hand:** {cards}",
    "kami.view.seen_leftover": "You looked at the unused card {card}.",
    "kami.event.start_player_draw": "{start_player} drew the highest card and starts.",
    "kami.event.deal": "Round {round}: cards are dealt; {start_player} starts.",
    "kami.event.hand": "Your cards: {cards}.",
    "kami.event.leftover_seen": "You looked at an unused card: {card}.",
    "kami.event.soldiers_revealed": {
        "one": "{seat} revealed {count} Soldier (Demoralized).",
        "other": "{seat} revealed {count} Soldiers (Demoralized).",
    },
    "kami.event.redeal": "{seat} called a redeal.",
    "kami.event.play_on": "{seat} chose to play on.",
    "kami.event.lead": "{seat} led {card} into the defense line.",
    "kami.event.lead_hidden": "{seat} led a card face-down.",
    "kami.event.lead_mercenary": "{seat} led the mercenary {card}.",
    "kami.event.hidden_defense": "You led {card} face-down.",
    "kami.event.counter": "{seat} countered with {card}.",
    "kami.event.counter_mercenary": "{seat} countered with the mercenary {card}.",
    "kami.event.mercenary_revealed": "A mercenary stack uncovered {card}.",
    "kami.event.attack": "{seat} attacked with {card}.",
    "kami.event.attack_mercenary": "{seat} attacked with the mercenary {card}.",
    "kami.event.pass": "{seat} passed.",
    "kami.event.lone_attack": "{seat}'s {card} stands alone.",
    "kami.event.round_end": {
        "one": "Round {round} ends: {seats} score {count} point with {card}.",
        "other": "Round {round} ends: {seats} score {count} points with {card}.",
    },
    "kami.event.game_over": "The game is over. Scores: {scores}.",
}
