"""Messages of the play flow (issue 29): the collapsed move menu, forced moves, the end of a
game and its rematch, a seat handed to the AI."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "flow.menu.placeholder_at": "{path}: выбери…",
    "flow.leave.handed_over": (
        "{name} выходит из игры; теперь за это место играет ИИ, и игра продолжается. Вернуть место "
        "можно кнопкой «{button_take_back}» в своей руке."
    ),
    "flow.leave.last_player": (
        "{name} выходит из игры, и за столом больше нет игроков: игра заканчивается и записывается "
        "как прерванная."
    ),
    "flow.leave.already": (
        "Ты уже вышел из этой игры: за тебя играет ИИ. Чтобы вернуться, нажми «{button_take_back}» "
        "в своей руке."
    ),
    "flow.over.title.finished": "🏁 {game} #{id}: игра окончена",
    "flow.over.title.abandoned": "🏳️ {game} #{id}: игра прервана",
    "flow.over.title.cancelled": "✖️ {game} #{id}: игра отменена",
    "flow.over.greeting": "Хорошая игра, {players}!",
    "flow.over.why.everyone_left": (
        "За столом не осталось игроков, поэтому игра закончилась здесь и не идёт в рейтинг."
    ),
    "flow.over.why.cancelled": "Игру отменили; результат не записан.",
    "flow.over.note.left": " · вышел из игры",
    "flow.over.note.rating": " · рейтинг {delta}",
    "flow.over.note.not_rated": " · без рейтинга (за место играл ИИ)",
    "flow.over.place": {
        "one": "**{place}.** {name} · {count} очко{note}",
        "few": "**{place}.** {name} · {count} очка{note}",
        "many": "**{place}.** {name} · {count} очков{note}",
        "other": "**{place}.** {name} · {count} очка{note}",
    },
    "flow.over.score": {
        "one": "{name} · {count} очко{note}",
        "few": "{name} · {count} очка{note}",
        "many": "{name} · {count} очков{note}",
        "other": "{name} · {count} очка{note}",
    },
    "flow.button.rematch": "Реванш",
    "flow.button.replay": "Повтор",
    "flow.button.scores": "Очки",
    "flow.over.dm.cancelled": "✖️ Эта игра отменена; результат не записан.",
    "flow.over.dm.abandoned": "🏳️ Эта игра прервана: за столом не осталось игроков.",
    "flow.over.dm.left": "🏁 Игра окончена. Ты из неё вышел, поэтому она засчитана как поражение.",
    "flow.over.dm.won_by": {
        "one": "🏁 Игра окончена. Победа: {names}.",
        "few": "🏁 Игра окончена. Победа: {names}.",
        "many": "🏁 Игра окончена. Победа: {names}.",
        "other": "🏁 Игра окончена. Победа: {names}.",
    },
    "flow.over.dm.place": {
        "one": "Твоё место: {place} из {places}, {count} очко.",
        "few": "Твоё место: {place} из {places}, {count} очка.",
        "many": "Твоё место: {place} из {places}, {count} очков.",
        "other": "Твоё место: {place} из {places}, {count} очка.",
    },
    "flow.rematch.confirmed": (
        "Ты в реванше (игра #{game}). Хост начнёт его, когда все будут готовы."
    ),
    "flow.rematch.joined": "Ты занял свободное место в реванше (игра #{game}).",
    "flow.rematch.already": "Ты уже в реванше (игра #{game}).",
    "flow.rematch.full": (
        "Свободных мест в реванше нет: остальные оставлены за игроками прошлой партии."
    ),
    "flow.rematch.not_over": "Эта игра ещё не закончилась.",
    "flow.rematch.channel_busy": (
        "В этом канале уже открыта другая игра; реванш можно начать, когда она закончится."
    ),
    "flow.rematch.started": "Реванш уже начался или его лобби закрыто.",
    "cmd.autopass.name": "автопас",
    "cmd.autopass.description": "Бот сделает ход за тебя, когда выбора нет (например, пас)",
    "cmd.autopass.mode": (
        "Вкл: вынужденные ходы делаются за тебя после естественной паузы; выкл: нажимаешь сам"
    ),
    "cmd.autopass.mode.name": "режим",
    "flow.button.autopass": "Пасовать за меня, когда нет выбора",
    "flow.autopass.on": (
        "Готово: если твой единственный ход — пас (или другой вынужденный ход), бот сделает его за "
        "тебя после паузы, как у тебя, и этот ход не будет тебя упоминать. Выключить: "
        "{cmd_autopass}."
    ),
    "flow.autopass.off": "Готово: все ходы ты делаешь сам, и вынужденные тоже (одна кнопка).",
}
