"""English messages of the hints: ``/hint``, the Hint button, ``/settings hints``, the reasons
the engines give (``hint.<game>.<token>``, see docs/ai.md) and the hints column of ``/scores``."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "cmd.hint.name": "hint",
    "cmd.hint.description": "Privately: the move the strong AI would make now, and why",
    "cmd.settings.hints.name": "hints",
    "cmd.settings.hints.description": "Whether players here may ask for hints",
    "cmd.settings.hints.allowed": "On: players may ask for hints; off: they may not",
    "button.hint": "Hint",
    # The answer: the move as the move menu names it, then why, then how many hints so far.
    "hint.move": "💡 **Hint:** {move}",
    "hint.forced": "It is your only possible move.",
    "hint.close_call": "Two moves are about equally good; this one came out just ahead.",
    "hint.close_call_with": (
        "Two moves are about equally good; this one came out just ahead of: {move}."
    ),
    "hint.wins_game": "This move wins the game.",
    "hint.wait": "Your hint is still being worked out; it comes in a moment.",
    "hint.busy": "Many hints are being worked out right now; please ask again in a few seconds.",
    "hint.later": (
        "The AI is busy with the computer players' moves right now, so your hint could not be"
        " worked out in time; it was not counted. Please ask again in a little while."
    ),
    "hint.used": {
        "one": "You have used {count} hint in this game.",
        "other": "You have used {count} hints in this game.",
    },
    "hint.not_your_turn": "Hints are for the player on turn, and it is not your turn.",
    "hint.disabled": "Hints are turned off on this server.",
    "hint.stale": (
        "That {button_hint} button is out of date (the game has moved on). Use the one in your "
        "current hand, or {cmd_hint}."
    ),
    "hint.moved_on": "The game moved on while the hint was being worked out; nothing was counted.",
    "settings.hints.on": (
        "Done: players in this server may ask for hints ({cmd_hint} and the {button_hint} button)."
    ),
    "settings.hints.off": "Done: hints are turned off in this server.",
    "scores.hints": "Hints used",
    "scores.hint_entry": {"one": "{name}: {count} hint", "other": "{name}: {count} hints"},
    # Counted things inside the reasons.
    "hint.points": {"one": "{count} point", "other": "{count} points"},
    "hint.cards": {"one": "{count} card", "other": "{count} cards"},
    "hint.types": {"one": "{count} type", "other": "{count} types"},
    "hint.shields": {"one": "{count} shield", "other": "{count} shields"},
    # Call to Glory
    "hint.call_to_glory.ends_round": (
        "With {card} your display shows {types}: enough to end the round."
    ),
    "hint.call_to_glory.beats_set": "It beats {player}'s set of {count}× {card}.",
    "hint.call_to_glory.replaces_own_set": (
        "A larger set of {card} ({count}×) replaces the one in your display."
    ),
    "hint.call_to_glory.new_type": "Nobody shows {card} yet: a new type worth {points}.",
    "hint.call_to_glory.cannot_beat": (
        "{player}'s set of {count}× {card} is out of your reach, so this card can go."
    ),
    "hint.call_to_glory.least_needed": "{card} is the card you need least.",
    "hint.call_to_glory.completes_set": "With it you hold {count}× {card}: a set you can lay.",
    "hint.call_to_glory.takes_card": "It takes {card} from the discard pile.",
    "hint.call_to_glory.draws_blind": "A blind draw from draw pile {pile}.",
    "hint.call_to_glory.ninja_removes": (
        "The ninja removes one {card} from {player}'s display, leaving {cards} there."
    ),
    "hint.call_to_glory.covers_card": "The removed cards bury {card} on top of that pile.",
    "hint.call_to_glory.task_bonus": "This task ({card}) pays {player} {points}.",
    "hint.call_to_glory.task_no_bonus": "This task ({card}) pays nobody: no display shows it.",
    # Kami
    "hint.kami.wins_round": "Attacking with {card} empties your hand and wins the round: {points}.",
    "hint.kami.wins_round.doubled": (
        "Attacking with {card} empties your hand and wins the round: {points}, doubled because "
        "it matches your face-down card."
    ),
    "hint.kami.counters": "{card} counters the attack of {attack}.",
    "hint.kami.hides_card": "{card} goes face down into your defense line, hidden from the others.",
    "hint.kami.attacks_with": "Attack with {card}.",
    "hint.kami.empress_attack": "Attack with your Empress, the strongest card.",
    "hint.kami.keeps_empress": (
        "Your only Empress could counter the attack of {attack}, but passing keeps her for later."
    ),
    "hint.kami.holds_back": (
        "You could counter the attack of {attack}, but holding your cards back is better."
    ),
    "hint.kami.cannot_counter": "Nothing in your hand counters the attack of {attack}.",
    # Clans and Glory
    "hint.clans_and_glory.new_lowest": (
        "Your card becomes the lowest value on board {board}: {value}."
    ),
    "hint.clans_and_glory.matches": "{card} matches the related cards at {positions}.",
    "hint.clans_and_glory.nothing_fits": (
        "Nothing fits face up, so {card} goes face down on board {board}."
    ),
    "hint.clans_and_glory.claims_value": (
        "If the game ended now, this shield would take the {value}s on board {board}: {cards}, "
        "{points}."
    ),
    "hint.clans_and_glory.claims_nothing_yet": (
        "If the game ended now, a shield on board {board} would take nothing yet."
    ),
    "hint.clans_and_glory.saves_shield": "Keep your shield for later: {shields} left.",
}
