"""Messages of the turn clock (ru)."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "lobby.turn_time": "Время хода: **{value}**",
    "lobby.turn_time_choice": "Время хода: {value}",
    "clock.off": "нет",
    "clock.seconds.120": "2 минуты",
    "clock.seconds.600": "10 минут",
    "clock.seconds.3600": "1 час",
    "clock.seconds.86400": "24 часа",
    "button.take_back": "Вернуть моё место",
    "clock.reminder": (
        "⏰ Твой ход в **{game}** (<#{channel}>) истекает <t:{deadline}:R>. Если ты не "
        "походишь до этого, ИИ сделает этот ход за тебя."
    ),
    "clock.reminder_notice": (
        "⏰ {player}, твой ход в **{game}** истекает <t:{deadline}:R>. Нажми "
        "{button_my_hand}, чтобы сыграть."
    ),
    "clock.taken_back": "✋ Место снова твоё: ИИ больше не играет за тебя.",
    "clock.not_taken_over": "ИИ не играет за тебя; ничего не изменилось.",
    "clock.take_back_not_yours": (
        "Вернуть место может только игрок на этом месте; ничего не изменилось."
    ),
}
