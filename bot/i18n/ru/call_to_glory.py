"""Russian messages of Call to Glory («Зов Славы»; names as in the Russian rulebook).

Events use the present tense, so a sentence never needs the player's grammatical gender. The
``source.*`` fragments are in the genitive case because they only ever follow "из" ("from").
"""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "call_to_glory.name": "Зов Славы",
    "call_to_glory.option.rounds": "Раунды",
    "call_to_glory.option.imperial_tasks": "Поручения Императора",
    "call_to_glory.option.ninja": "Сила Ниндзя",
    "call_to_glory.decision.draw": "взять карту",
    "call_to_glory.decision.draw_second": "взять вторую карту из другого места",
    "call_to_glory.decision.lay_or_discard": "выложить набор или сбросить карту",
    "call_to_glory.decision.ninja_or_end": "использовать Ниндзя или закончить ход",
    "call_to_glory.decision.choose_pile": "выбрать колоду сброса для убранных карт",
    "call_to_glory.decision.reveal_task": "открыть Поручение Императора",
    "call_to_glory.card.6": "Император (6)",
    "call_to_glory.card.7": "Императрица (7)",
    "call_to_glory.card.8": "Даймё (8)",
    "call_to_glory.card.9": "Сёгун (9)",
    "call_to_glory.card.12": "Самурай (12)",
    "call_to_glory.card.14": "Ниндзя (14)",
    "call_to_glory.card.16": "Посол (16)",
    "call_to_glory.card.18": "Монах (18)",
    "call_to_glory.card.20": "Фермер (20)",
    "call_to_glory.source.draw1": "колоды добора 1",
    "call_to_glory.source.draw2": "колоды добора 2",
    "call_to_glory.source.discard1": "колоды сброса 1",
    "call_to_glory.source.discard2": "колоды сброса 2",
    "call_to_glory.none": "нет",
    "call_to_glory.menu.draw": "Взять карту",
    "call_to_glory.menu.source": "Из {arg}",
    "call_to_glory.menu.lay": "Выложить набор",
    "call_to_glory.menu.discard": "Сбросить карту",
    "call_to_glory.menu.card": "{arg}",
    "call_to_glory.menu.count": {
        "one": "{count} карта",
        "few": "{count} карты",
        "many": "{count} карт",
        "other": "{count} карты",
    },
    "call_to_glory.menu.pile": "Колода сброса {arg}",
    "call_to_glory.menu.ninja": "Использовать Ниндзя",
    "call_to_glory.menu.seat": "Цель: {arg}",
    "call_to_glory.menu.end_turn": "Закончить ход",
    "call_to_glory.menu.task": "Открыть поручение {arg}",
    "call_to_glory.view.round": "Раунд {round} из {total}",
    "call_to_glory.view.draw_piles": "Колоды добора: {first} и {second}",
    "call_to_glory.view.discard_pile": {
        "one": "Колода сброса {number}: {count} карта, сверху {top}",
        "few": "Колода сброса {number}: {count} карты, сверху {top}",
        "many": "Колода сброса {number}: {count} карт, сверху {top}",
        "other": "Колода сброса {number}: {count} карты, сверху {top}",
    },
    "call_to_glory.view.display_entry": "{count}× {card}",
    "call_to_glory.view.player": {
        "one": "**{name}**: {count} карта в руке · на столе: {display} · в этом раунде {points}",
        "few": "**{name}**: {count} карты в руке · на столе: {display} · в этом раунде {points}",
        "many": "**{name}**: {count} карт в руке · на столе: {display} · в этом раунде {points}",
        "other": "**{name}**: {count} карты в руке · на столе: {display} · в этом раунде {points}",
    },
    "call_to_glory.view.ninjas": "Фигурки Ниндзя: в запасе {supply}; у игроков: {held}",
    "call_to_glory.view.task_revealed": "{name}: открыто поручение {deck} — {card}",
    "call_to_glory.view.pending": {
        "one": "{name}: нужно выбрать колоду сброса для {count}× {card}.",
        "few": "{name}: нужно выбрать колоду сброса для {count}× {card}.",
        "many": "{name}: нужно выбрать колоду сброса для {count}× {card}.",
        "other": "{name}: нужно выбрать колоду сброса для {count}× {card}.",
    },
    "call_to_glory.view.hand": "**Твоя рука:** {cards}",
    "call_to_glory.view.task": "{deck}: {card} (+{bonus})",
    "call_to_glory.view.task_short": "{deck}: {card}",
    "call_to_glory.event.tasks_received": "Твои Поручения Императора: {tasks}.",
    "call_to_glory.view.my_tasks": "**Твои Поручения Императора:** {tasks}",
    "call_to_glory.event.round_started": (
        "Раунд {round} из {rounds_total} начинается; первый ход — {start_player}."
    ),
    "call_to_glory.event.card_drawn": "{seat} берёт из {source}: {value}.",
    "call_to_glory.event.card_drawn_hidden": "{seat} берёт карту из {source}.",
    "call_to_glory.event.card_drawn_secret": "Ты берёшь из {source}: {value}.",
    "call_to_glory.event.hand_dealt": "Тебе сдали: {values}.",
    "call_to_glory.event.card_discarded": "{seat} сбрасывает в колоду сброса {pile}: {value}.",
    "call_to_glory.event.set_laid": {
        "one": "{seat} выкладывает {count}× {value}.",
        "few": "{seat} выкладывает {count}× {value}.",
        "many": "{seat} выкладывает {count}× {value}.",
        "other": "{seat} выкладывает {count}× {value}.",
    },
    "call_to_glory.event.set_laid_beating": (
        "{seat} выкладывает {count}× {value} и бьёт набор игрока {beaten_seat}."
    ),
    "call_to_glory.event.set_discarded": {
        "one": "{count}× {value} игрока {seat} уходит в колоду сброса {pile}.",
        "few": "{count}× {value} игрока {seat} уходят в колоду сброса {pile}.",
        "many": "{count}× {value} игрока {seat} уходят в колоду сброса {pile}.",
        "other": "{count}× {value} игрока {seat} уходят в колоду сброса {pile}.",
    },
    "call_to_glory.event.ninja_gained": "{seat} получает фигурку Ниндзя.",
    "call_to_glory.event.ninja_used": (
        "{seat} посылает Ниндзя против карты {value} игрока {target}."
    ),
    "call_to_glory.event.round_ended": "Раунд {round} окончен.",
    "call_to_glory.event.task_revealed": (
        "{seat} открывает поручение {deck}: {value} (+{bonus} за карту): {awards}."
    ),
    "call_to_glory.event.round_scored": (
        "Подсчёт раунда {round}. В этом раунде: {itemised}. Всего: {totals}."
    ),
    "call_to_glory.event.game_over": "Игра окончена.",
    "call_to_glory.view.cards": "**Карты на руке:** {cards}",
    "call_to_glory.view.tasks_held": "**Поручения Императора:** {tasks}",
    "call_to_glory.option.rounds.4": "полная игра, 4 раунда (3 с Поручениями Императора)",
    "call_to_glory.option.rounds.1": "короткая игра, 1 раунд",
    "call_to_glory.award": {
        "one": "{name} +{points} ({count} карта)",
        "few": "{name} +{points} ({count} карты)",
        "many": "{name} +{points} ({count} карт)",
        "other": "{name} +{points} ({count} карты)",
    },
    "call_to_glory.no_award": "очков никто не получает",
    "call_to_glory.round_entry": "{name} {base} + {bonus} за поручения = {count}",
}
