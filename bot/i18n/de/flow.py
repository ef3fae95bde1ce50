"""Messages of the play flow (issue 29): the collapsed move menu, forced moves, the end of a
game and its rematch, a seat handed to the AI."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "flow.menu.placeholder_at": "{path}: auswählen …",
    "flow.leave.handed_over": (
        "{name} hat das Spiel verlassen; ab jetzt spielt die KI diesen Platz und das Spiel geht "
        "weiter. Mit {button_take_back} in der eigenen Hand lässt er sich zurücknehmen."
    ),
    "flow.leave.last_player": (
        "{name} hat das Spiel verlassen, und niemand sitzt mehr am Tisch: Das Spiel endet und wird "
        "als aufgegeben gespeichert."
    ),
    "flow.leave.already": (
        "Du hast dieses Spiel schon verlassen: Die KI spielt deinen Platz. Um weiterzuspielen, "
        "nutze {button_take_back} in deiner Hand."
    ),
}
