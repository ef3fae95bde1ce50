"""Messages of the turn clock (en)."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "lobby.turn_time": "Turn time: **{value}**",
    "lobby.turn_time_choice": "Turn time: {value}",
    "clock.off": "off",
    "clock.seconds.120": "2 minutes",
    "clock.seconds.600": "10 minutes",
    "clock.seconds.3600": "1 hour",
    "clock.seconds.86400": "24 hours",
    "button.take_back": "Take my seat back",
    "clock.reminder": (
        "⏰ Your turn in **{game}** (<#{channel}>) runs out <t:{deadline}:R>. If you have not "
        "moved by then, the AI plays this turn for you."
    ),
    "clock.reminder_notice": (
        "⏰ {player}, your turn in **{game}** runs out <t:{deadline}:R>. Press "
        "{button_my_hand} to play."
    ),
    "clock.taken_back": "✋ Your seat is yours again: the AI no longer plays for you.",
    "clock.not_taken_over": "The AI is not playing your seat; nothing was changed.",
    "clock.take_back_not_yours": (
        "Only the player of that seat can take it back; nothing was changed."
    ),
}
