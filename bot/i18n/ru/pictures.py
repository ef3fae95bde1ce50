"""Русские тексты картинок (стол, рука, график очков) и их настроек."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "pictures.hand_size": {
        "one": "{count} карта в руке",
        "few": "{count} карты в руке",
        "many": "{count} карт в руке",
        "other": "{count} карты в руке",
    },
    "pictures.draw_pile": "Колода {number}",
    "pictures.discard_pile": "Сброс {number}",
    "pictures.display": "Выложено",
    "pictures.known": "Известно в руке",
    "pictures.ninjas": {
        "one": "{count} ниндзя",
        "few": "{count} ниндзя",
        "many": "{count} ниндзя",
        "other": "{count} ниндзя",
    },
    "pictures.tasks": "Задания",
    "pictures.your_hand": "Твоя рука",
    "pictures.playable": "В рамке: чем можно сыграть сейчас",
    "pictures.your_turn": "Твой ход",
    "pictures.waiting": "Ждём твоего хода",
    "pictures.empty_hand": "В руке нет карт",
    "pictures.defense": "Защита",
    "pictures.attack": "Атака",
    "pictures.stacks": "Наёмники",
    "pictures.set_aside": {
        "one": "{count} карта отложена",
        "few": "{count} карты отложены",
        "many": "{count} карт отложено",
        "other": "{count} карты отложено",
    },
    "pictures.team": "Команда {number}",
    "pictures.board": "Поле {number}",
    "pictures.shields_left": {
        "one": "остался {count} щит",
        "few": "осталось {count} щита",
        "many": "осталось {count} щитов",
        "other": "осталось {count} щита",
    },
    "pictures.fire": "Костёр",
    "pictures.chart.title": "Очки после каждого раунда",
    "pictures.chart.round": "Раунд",
    "pictures.chart.start": "Начало",
    "pictures.trend.title": "Рейтинг после каждой партии",
    "pictures.trend.games": "Партии",
    "pictures.alt.trend": "Рейтинг игрока {name} после каждой из последних партий",
    "pictures.alt.table": "Стол игры {game}, ход {move}",
    "pictures.alt.hand": "Рука игрока {name} в игре {game}",
    "pictures.alt.chart": "Очки после каждого раунда игры {game}",
    "pictures.colour_letter.red": "К",
    "pictures.colour_letter.blue": "С",
    "pictures.colour_letter.green": "З",
    "pictures.colour_letter.yellow": "Ж",
    "pictures.colour_letter.purple": "Ф",
    "pictures.colour_letter.orange": "О",
    "pictures.colour_letter.black": "Ч",
    "cli.setting.PICTURES": "on (по умолчанию) или off: off — без картинок на всех серверах",
    "cli.setting.PICTURE_WORKERS": (
        "рабочие процессы, рисующие картинки"
        " (по одному для столов и для рук; 0: поток)"
    ),
    "cli.setting.TABLE_UPDATES_PER_SECOND": (
        "сколько столов бот обновляет в секунду самое большее, все игры вместе"
        " (при большой нагрузке стол тогда показывает сразу несколько ходов)"
    ),
    "cmd.settings.images.name": "картинки",
    "cmd.settings.images.description": "Показывать ли столы и руки игр здесь картинками",
    "cmd.settings.images.shown": "Вкл: картинки вместе с текстом; выкл: только текст",
    "cmd.settings.images.shown.name": "показывать",
    "settings.images.on": "Готово: столы, руки и графики очков на этом сервере идут с картинками.",
    "settings.images.off": "Готово: игры этого сервера показывают только текст, без картинок.",
    "cmd.pictures.name": "картинки",
    "cmd.pictures.description": "Показывать ли твою руку картинкой (только для тебя)",
    "cmd.pictures.hand": "Вкл: рука ещё и картинкой; выкл: только текст",
    "cmd.pictures.hand.name": "рука",
    "pictures.hand.on": "Готово: твоя рука идёт с картинкой (где сервер показывает картинки).",
    "pictures.hand.off": "Готово: твоя рука — только текст.",
}
