"""Русские тексты подсказок: ``/подсказка``, кнопка «Подсказка», ``/настройки подсказки``,
причины, которые дают игры (``hint.<игра>.<token>``), и подсказки в ``/очки``."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "cmd.hint.name": "подсказка",
    "cmd.hint.description": "Только тебе: ход, который сильный ИИ сделал бы сейчас, и почему",
    "cmd.settings.hints.name": "подсказки",
    "cmd.settings.hints.description": "Можно ли игрокам здесь просить подсказки",
    "cmd.settings.hints.allowed": "Вкл.: игроки могут просить подсказки; выкл.: не могут",
    "button.hint": "Подсказка",
    "hint.move": "💡 **Подсказка:** {move}",
    "hint.forced": "Это твой единственный возможный ход.",
    "hint.close_call": "Два хода примерно равны; этот оказался чуть лучше.",
    "hint.close_call_with": ("Два хода примерно равны; этот оказался чуть лучше, чем: {move}."),
    "hint.wins_game": "Этот ход выигрывает партию.",
    "hint.wait": "Ваша подсказка ещё считается; она будет через мгновение.",
    "hint.busy": "Сейчас считается много подсказок; спросите ещё раз через несколько секунд.",
    "hint.later": (
        "ИИ сейчас занят ходами компьютерных игроков, и подсказка не успела посчитаться; она"
        " не засчитана. Спросите ещё раз чуть позже."
    ),
    "hint.used": {
        "one": "В этой игре ты использовал {count} подсказку.",
        "few": "В этой игре ты использовал {count} подсказки.",
        "many": "В этой игре ты использовал {count} подсказок.",
        "other": "В этой игре ты использовал {count} подсказки.",
    },
    "hint.not_your_turn": "Подсказки — для игрока, чей сейчас ход, а сейчас не твой ход.",
    "hint.disabled": "Подсказки на этом сервере выключены.",
    "hint.stale": (
        "Эта кнопка «{button_hint}» устарела (игра ушла вперёд). Возьми кнопку в своей "
        "текущей руке или {cmd_hint}."
    ),
    "hint.moved_on": "Пока считалась подсказка, игра ушла вперёд; ничего не засчитано.",
    "settings.hints.on": (
        "Готово: игроки на этом сервере могут просить подсказки ({cmd_hint} и кнопка "
        "«{button_hint}»)."
    ),
    "settings.hints.off": "Готово: подсказки на этом сервере выключены.",
    "scores.hints": "Подсказки",
    "scores.hint_entry": {
        "one": "{name}: {count} подсказка",
        "few": "{name}: {count} подсказки",
        "many": "{name}: {count} подсказок",
        "other": "{name}: {count} подсказки",
    },
    "hint.points": {
        "one": "{count} очко",
        "few": "{count} очка",
        "many": "{count} очков",
        "other": "{count} очка",
    },
    "hint.cards": {
        "one": "{count} карта",
        "few": "{count} карты",
        "many": "{count} карт",
        "other": "{count} карты",
    },
    "hint.types": {
        "one": "{count} тип",
        "few": "{count} типа",
        "many": "{count} типов",
        "other": "{count} типа",
    },
    "hint.shields": {
        "one": "{count} щит",
        "few": "{count} щита",
        "many": "{count} щитов",
        "other": "{count} щита",
    },
    # Call to Glory
    "hint.call_to_glory.ends_round": (
        "С картой {card} в твоей выкладке будет {types} — достаточно, чтобы закончить раунд."
    ),
    "hint.call_to_glory.beats_set": "Это бьёт набор игрока {player}: {count}× {card}.",
    "hint.call_to_glory.replaces_own_set": (
        "Больший набор ({card}, {count}×) заменит тот, что в твоей выкладке."
    ),
    "hint.call_to_glory.new_type": "Карту {card} ещё никто не выложил: новый тип на {points}.",
    "hint.call_to_glory.cannot_beat": (
        "Набор игрока {player} ({count}× {card}) тебе не перебить, так что эту карту "
        "можно сбросить."
    ),
    "hint.call_to_glory.least_needed": "Карта {card} нужна тебе меньше всего.",
    "hint.call_to_glory.completes_set": (
        "С ней у тебя {count}× {card}: набор, который можно выложить."
    ),
    "hint.call_to_glory.takes_card": "Берёшь карту {card} из стопки сброса.",
    "hint.call_to_glory.draws_blind": "Вслепую из колоды добора {pile}.",
    "hint.call_to_glory.ninja_removes": (
        "Ниндзя убирает одну карту {card} из выкладки игрока {player}; там остаётся: {cards}."
    ),
    "hint.call_to_glory.covers_card": "Убранные карты накроют карту {card} на верху этой стопки.",
    "hint.call_to_glory.task_bonus": "Это задание ({card}) приносит игроку {player}: {points}.",
    "hint.call_to_glory.task_no_bonus": (
        "Это задание ({card}) никому ничего не приносит: такой карты нет ни в одной выкладке."
    ),
    # Kami
    "hint.kami.wins_round": (
        "Атака картой {card} опустошает твою руку и выигрывает раунд: {points}."
    ),
    "hint.kami.wins_round.doubled": (
        "Атака картой {card} опустошает твою руку и выигрывает раунд: {points}, вдвойне, "
        "потому что она совпадает с твоей закрытой картой."
    ),
    "hint.kami.counters": "Карта {card} отбивает атаку: {attack}.",
    "hint.kami.hides_card": (
        "Карта {card} ложится закрытой в твою линию защиты, скрытой от остальных."
    ),
    "hint.kami.attacks_with": "Атакуй картой {card}.",
    "hint.kami.empress_attack": "Атакуй своей Императрицей, самой сильной картой.",
    "hint.kami.keeps_empress": (
        "Твоя единственная Императрица могла бы отбить атаку ({attack}), но пас сохраняет её "
        "на потом."
    ),
    "hint.kami.holds_back": "Ты мог бы отбить атаку ({attack}), но лучше придержать карты.",
    "hint.kami.cannot_counter": "Ничто в твоей руке не отбивает атаку: {attack}.",
    # Clans and Glory
    "hint.clans_and_glory.new_lowest": (
        "Твоя карта станет самым низким значением на планшете {board}: {value}."
    ),
    "hint.clans_and_glory.matches": (
        "Карта {card} подходит к родственным картам на местах {positions}."
    ),
    "hint.clans_and_glory.nothing_fits": (
        "Открытой ничего не подходит, поэтому карта {card} ложится закрытой на планшет {board}."
    ),
    "hint.clans_and_glory.claims_value": (
        "Если бы игра кончилась сейчас, этот щит забрал бы значение {value} на планшете {board}: "
        "{cards}, {points}."
    ),
    "hint.clans_and_glory.claims_nothing_yet": (
        "Если бы игра кончилась сейчас, щит на планшете {board} пока ничего бы не забрал."
    ),
    "hint.clans_and_glory.saves_shield": "Прибереги щит на потом: в запасе {shields}.",
}
