"""Russian messages of Kami (our own consistent card names: Солдат, Копейщица, Всадник …).

Events use the present tense, so a sentence never needs the player's grammatical gender; card
names follow a colon or a noun ("карта …") so they can stay in the nominative case.
"""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "kami.name": "Ками",
    "kami.option.ending": "Конец игры",
    "kami.option.ending.soldier": "Солдат",
    "kami.option.ending.lord": "Повелитель",
    "kami.option.ending.kami": "Ками",
    "kami.option.target": "Цель по очкам",
    "kami.option.three_player_deal": "Раздача на троих",
    "kami.option.three_player_deal.printed": "по правилам (по 8 карт)",
    "kami.option.three_player_deal.publisher": "от издателя (по 10 карт)",
    "kami.option.lord_clamp": "Повелитель: не ниже 0",
    "kami.option.demoralized": "Деморализация (5 Солдат)",
    "kami.option.demoralized.ask_everyone": "спрашивать всех игроков",
    "kami.option.demoralized.ask_eligible": "спрашивать только игроков с 5 Солдатами",
    "kami.option.demoralized.off": "выкл.",
    "kami.decision.demoralized_reveal": "открыть пять Солдат (Деморализация) или не показывать их",
    "kami.decision.demoralized_consent": "потребовать пересдачу или играть дальше",
    "kami.decision.lead_defense": "положить закрытую карту в линию защиты",
    "kami.decision.lead_attack": "атаковать картой",
    "kami.decision.respond": "спасовать или отбить атаку",
    "kami.decision.counter_attack": "атаковать в ответ",
    "kami.card.soldier": "Солдат (1)",
    "kami.card.spear": "Копейщица (2)",
    "kami.card.horseman": "Всадник (2)",
    "kami.card.silver_dragon": "Серебряный дракон (3)",
    "kami.card.gold_dragon": "Золотой дракон (3)",
    "kami.card.tower": "Башня (4)",
    "kami.card.madman": "Безумец (4)",
    "kami.card.empress": "Императрица (5)",
    "kami.face_down": "закрытая карта",
    "kami.none": "нет",
    "kami.stack": "стопка {number} ({card})",
    "kami.menu.pass": "Пас",
    "kami.menu.counter": "Отбить",
    "kami.menu.lead": "Зайти",
    "kami.menu.attack": "Атаковать",
    "kami.menu.card": "{arg}",
    "kami.menu.mercenary": "Наёмник: {arg}",
    "kami.menu.reveal_soldiers": "Открыть моих Солдат",
    "kami.menu.keep_hidden": "Не показывать",
    "kami.menu.redeal": "Пересдача",
    "kami.menu.play_on": "Играть дальше",
    "kami.view.mode.teams": "Команды по двое",
    "kami.view.mode.free_for_all": "Каждый сам за себя",
    "kami.view.mode.duel": "Дуэль",
    "kami.view.round": "Раунд {round} · конец игры: {ending} · цель {target}",
    "kami.view.teams": "Играют команды: {first} и {second}",
    "kami.view.current_attack": {
        "one": "Атакует {name}: {card} (уже спасовал {count} игрок).",
        "few": "Атакует {name}: {card} (уже спасовали {count} игрока).",
        "many": "Атакует {name}: {card} (уже спасовали {count} игроков).",
        "other": "Атакует {name}: {card} (уже спасовали {count} игрока).",
    },
    "kami.view.player": {
        "one": "**{name}**: {count} карта в руке · защита: {defense} · атака: {attack}",
        "few": "**{name}**: {count} карты в руке · защита: {defense} · атака: {attack}",
        "many": "**{name}**: {count} карт в руке · защита: {defense} · атака: {attack}",
        "other": "**{name}**: {count} карты в руке · защита: {defense} · атака: {attack}",
    },
    "kami.view.stack": "{number}: {card} ({count})",
    "kami.view.mercenaries": "Наёмники: {stacks}",
    "kami.view.set_aside": {
        "one": "{count} карта не используется в этом раунде.",
        "few": "{count} карты не используются в этом раунде.",
        "many": "{count} карт не используются в этом раунде.",
        "other": "{count} карты не используются в этом раунде.",
    },
    "kami.view.soldiers_revealed": {
        "one": "У игрока {name} открыт {count} Солдат.",
        "few": "У игрока {name} открыты {count} Солдата.",
        "many": "У игрока {name} открыто {count} Солдат.",
        "other": "У игрока {name} открыто {count} Солдата.",
    },
    "kami.view.last_round": {
        "one": "Прошлый раунд: {names} — {count} очко за карту {card}.",
        "few": "Прошлый раунд: {names} — {count} очка за карту {card}.",
        "many": "Прошлый раунд: {names} — {count} очков за карту {card}.",
        "other": "Прошлый раунд: {names} — {count} очка за карту {card}.",
    },
    "kami.view.hand": "**Твоя рука:** {cards}",
    "kami.view.seen_leftover": "Тебе известна неиспользуемая карта: {card}.",
    "kami.event.start_player_draw": "{start_player} тянет старшую карту и начинает.",
    "kami.event.deal": "Раунд {round}: карты розданы, начинает {start_player}.",
    "kami.event.hand": "Твои карты: {cards}.",
    "kami.event.leftover_seen": "Тебе показана неиспользуемая карта: {card}.",
    "kami.event.soldiers_revealed": {
        "one": "Деморализация: у игрока {seat} открыт {count} Солдат.",
        "few": "Деморализация: у игрока {seat} открыты {count} Солдата.",
        "many": "Деморализация: у игрока {seat} открыто {count} Солдат.",
        "other": "Деморализация: у игрока {seat} открыто {count} Солдата.",
    },
    "kami.event.redeal": "{seat} требует пересдачу.",
    "kami.event.play_on": "{seat} играет дальше.",
    "kami.event.lead": "{seat} заходит и кладёт в линию защиты: {card}.",
    "kami.event.lead_hidden": "{seat} заходит закрытой картой.",
    "kami.event.lead_mercenary": "{seat} заходит наёмником: {card}.",
    "kami.event.hidden_defense": "Твоя закрытая карта защиты: {card}.",
    "kami.event.counter": "{seat} отбивает: {card}.",
    "kami.event.counter_mercenary": "{seat} отбивает наёмником: {card}.",
    "kami.event.mercenary_revealed": "В стопке наёмников открылась карта {card}.",
    "kami.event.attack": "{seat} атакует: {card}.",
    "kami.event.attack_mercenary": "{seat} атакует наёмником: {card}.",
    "kami.event.pass": "{seat} пасует.",
    "kami.event.lone_attack": "{seat} атакует без карты защиты: {card}.",
    "kami.event.round_end": {
        "one": (
            "Раунд {round} окончен. Очки: {count} за карту {card}, получает: {seats} (всего "
            "{total})."
        ),
        "few": (
            "Раунд {round} окончен. Очки: {count} за карту {card}, получает: {seats} (всего "
            "{total})."
        ),
        "many": (
            "Раунд {round} окончен. Очки: {count} за карту {card}, получает: {seats} (всего "
            "{total})."
        ),
        "other": (
            "Раунд {round} окончен. Очки: {count} за карту {card}, получает: {seats} (всего "
            "{total})."
        ),
    },
    "kami.event.game_over": "Игра окончена. Очки: {scores}.",
    "kami.view.cards": "**Карты на руке:** {cards}",
    "kami.view.seen_leftover_of": "Знает неиспользуемую карту: {card}.",
    "kami.event.round_end_doubled": {
        "one": (
            "Раунд {round} окончен точным ударом: {card} над такой же закрытой картой защиты даёт "
            "двойные очки. Очки: {count}, получает: {seats} (всего {total})."
        ),
        "few": (
            "Раунд {round} окончен точным ударом: {card} над такой же закрытой картой защиты даёт "
            "двойные очки. Очки: {count}, получает: {seats} (всего {total})."
        ),
        "many": (
            "Раунд {round} окончен точным ударом: {card} над такой же закрытой картой защиты даёт "
            "двойные очки. Очки: {count}, получает: {seats} (всего {total})."
        ),
        "other": (
            "Раунд {round} окончен точным ударом: {card} над такой же закрытой картой защиты даёт "
            "двойные очки. Очки: {count}, получает: {seats} (всего {total})."
        ),
    },
    "kami.view.last_round_doubled": {
        "one": "Прошлый раунд: {names} — {count} очко за карту {card}, удвоено точным ударом.",
        "few": "Прошлый раунд: {names} — {count} очка за карту {card}, удвоено точным ударом.",
        "many": "Прошлый раунд: {names} — {count} очков за карту {card}, удвоено точным ударом.",
        "other": "Прошлый раунд: {names} — {count} очка за карту {card}, удвоено точным ударом.",
    },
}
