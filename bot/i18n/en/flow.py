"""Messages of the play flow (issue 29): the collapsed move menu, forced moves, the end of a
game and its rematch, a seat handed to the AI."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "flow.menu.placeholder_at": "{path}: choose…",
    "flow.leave.handed_over": (
        "{name} left the game; the AI plays their seat from now on and the game goes on. {name} "
        "can take it back with {button_take_back} in their hand."
    ),
    "flow.leave.last_player": (
        "{name} left, and no player is left at the table: the game ends and is recorded as "
        "abandoned."
    ),
    "flow.leave.already": (
        "You have left this game already: the AI plays your seat. To play again, use "
        "{button_take_back} in your hand."
    ),
}
