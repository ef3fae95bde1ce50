"""Messages of the turn clock (de)."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "lobby.turn_time": "Zugzeit: **{value}**",
    "lobby.turn_time_choice": "Zugzeit: {value}",
    "clock.off": "aus",
    "clock.seconds.120": "2 Minuten",
    "clock.seconds.600": "10 Minuten",
    "clock.seconds.3600": "1 Stunde",
    "clock.seconds.86400": "24 Stunden",
    "button.take_back": "Meinen Platz zurücknehmen",
    "clock.reminder": (
        "⏰ Dein Zug in **{game}** (<#{channel}>) läuft <t:{deadline}:R> ab. Hast du bis dahin "
        "nicht gezogen, spielt die KI diesen Zug für dich."
    ),
    "clock.reminder_notice": (
        "⏰ {player}, dein Zug in **{game}** läuft <t:{deadline}:R> ab. Drück "
        "{button_my_hand}, um zu spielen."
    ),
    "clock.taken_back": "✋ Dein Platz gehört wieder dir: Die KI spielt nicht mehr für dich.",
    "clock.not_taken_over": "Die KI spielt nicht für dich; es wurde nichts geändert.",
    "clock.take_back_not_yours": (
        "Nur wer auf diesem Platz spielt, kann ihn zurücknehmen; es wurde nichts geändert."
    ),
}
