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
}
