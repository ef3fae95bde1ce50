"""Russian messages of Clans and Glory (our own terms: планшет, место, щит, костёр).

Colours are feminine adjectives (an implied "карта": «Красная 5»), so sentences put a card after a
colon and keep it in the nominative case. Events use the present tense (no gender needed).
"""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "clans_and_glory.name": "Кланы и Слава",
    "clans_and_glory.option.final_turn_shield_allowed": "Щит в последний ход",
    "clans_and_glory.option.start_seats": "Стартовые карты",
    "clans_and_glory.option.start_seats.north_middle": "среднее место на севере",
    "clans_and_glory.option.start_seats.alternating": "север и юг по очереди",
    "clans_and_glory.option.start_seats.random": "случайное место",
    "clans_and_glory.option.cross_board_adjacency": "Соседство через края планшетов",
    "clans_and_glory.decision.place": "положить карту открыто на свободное место",
    "clans_and_glory.decision.place_face_down": (
        "положить карту закрытой (открыто ничего не подходит)"
    ),
    "clans_and_glory.decision.shield": "поставить щит на этот планшет или нет",
    "clans_and_glory.colour.red": "Красная",
    "clans_and_glory.colour.blue": "Синяя",
    "clans_and_glory.colour.green": "Зелёная",
    "clans_and_glory.colour.yellow": "Жёлтая",
    "clans_and_glory.colour.purple": "Фиолетовая",
    "clans_and_glory.colour.orange": "Оранжевая",
    "clans_and_glory.colour.black": "Чёрная",
    "clans_and_glory.card": "{colour} {value}",
    "clans_and_glory.face_down": "закрытая карта",
    "clans_and_glory.none": "нет",
    "clans_and_glory.claim": {
        "one": "{name} забирает карты достоинством {value} ({count} очко)",
        "few": "{name} забирает карты достоинством {value} ({count} очка)",
        "many": "{name} забирает карты достоинством {value} ({count} очков)",
        "other": "{name} забирает карты достоинством {value} ({count} очка)",
    },
    "clans_and_glory.menu.place": "Положить карту",
    "clans_and_glory.menu.place_face_down": "Положить карту закрытой",
    "clans_and_glory.position.n": "С{column}",
    "clans_and_glory.position.s": "Ю{column}",
    "clans_and_glory.position.hl": "З",
    "clans_and_glory.position.hr": "В",
    "clans_and_glory.menu.card": "{arg}",
    "clans_and_glory.menu.board": "Планшет {arg}",
    "clans_and_glory.menu.position": "Место {arg}",
    "clans_and_glory.menu.shield": "Поставить щит",
    "clans_and_glory.menu.no_shield": "Без щита",
    "clans_and_glory.view.progress": {
        "one": "Выложена {count} карта; последний ход — {last}.",
        "few": "Выложены {count} карты; последний ход — {last}.",
        "many": "Выложено {count} карт; последний ход — {last}.",
        "other": "Выложено {count} карты; последний ход — {last}.",
    },
    "clans_and_glory.view.shields_left": "Осталось щитов: {shields}",
    "clans_and_glory.view.hand_sizes": "Карт в руке: {sizes}",
    "clans_and_glory.view.shield_board": "Щит можно поставить на планшет {board}.",
    "clans_and_glory.view.board": "**Планшет {board}** · щиты: {stack}",
    "clans_and_glory.view.row.north": "Север: {cells}",
    "clans_and_glory.view.row.south": "Юг: {cells}",
    "clans_and_glory.view.row.head": "У костра: {cells}",
    "clans_and_glory.view.empty": "{position} –",
    "clans_and_glory.view.cell": "{position} {card}",
    "clans_and_glory.view.your_face_down": "{card} (закрытая)",
    "clans_and_glory.view.hand": "**Твоя рука:** {cards}",
    "clans_and_glory.event.game_started": "Стартовые карты выложены; начинает {start_player}.",
    "clans_and_glory.event.card_placed": (
        "{seat} кладёт на место {position} (планшет {board}): {card}."
    ),
    "clans_and_glory.event.card_placed_face_down": (
        "{seat} кладёт закрытую карту на место {position} (планшет {board})."
    ),
    "clans_and_glory.event.face_down_card": "Твоя закрытая карта на месте {position}: {card}.",
    "clans_and_glory.event.shield_placed": "{seat} ставит щит на планшет {board}.",
    "clans_and_glory.event.shield_declined": "{seat} не ставит щит.",
    "clans_and_glory.event.game_ended": "Все карты выложены; идёт подсчёт по планшетам.",
    "clans_and_glory.event.board_scored": "Планшет {board}: {claims}.",
    "clans_and_glory.event.result": {
        "one": "Итоговые очки: {points}. Победитель: {winners}.",
        "few": "Итоговые очки: {points}. Победители: {winners}.",
        "many": "Итоговые очки: {points}. Победители: {winners}.",
        "other": "Итоговые очки: {points}. Победители: {winners}.",
    },
    "clans_and_glory.view.cards": "**Карты на руке:** {cards}",
    "clans_and_glory.claim_nothing": "{name}: щиту ничего не досталось (достоинств не осталось)",
}
