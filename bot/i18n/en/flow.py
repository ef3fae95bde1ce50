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
    "flow.over.title.finished": "🏁 {game} #{id} is over",
    "flow.over.title.abandoned": "🏳️ {game} #{id} was abandoned",
    "flow.over.title.cancelled": "✖️ {game} #{id} was cancelled",
    "flow.over.greeting": "Good game, {players}!",
    "flow.over.why.everyone_left": (
        "No player was left at the table, so the game ended here and is not rated."
    ),
    "flow.over.why.cancelled": "It was cancelled; no result was recorded.",
    "flow.over.note.left": " · left the game",
    "flow.over.note.rating": " · rating {delta}",
    "flow.over.note.not_rated": " · not rated (the AI played the seat)",
    "flow.over.place": {
        "one": "**{place}.** {name} · {count} point{note}",
        "other": "**{place}.** {name} · {count} points{note}",
    },
    "flow.over.score": {
        "one": "{name} · {count} point{note}",
        "other": "{name} · {count} points{note}",
    },
    "flow.button.rematch": "Rematch",
    "flow.button.replay": "Replay",
    "flow.button.scores": "Scores",
    "flow.over.dm.cancelled": "✖️ This game was cancelled; no result was recorded.",
    "flow.over.dm.abandoned": "🏳️ This game was abandoned: no player was left at the table.",
    "flow.over.dm.left": "🏁 The game is over. You had left it, so it counts as a loss.",
    "flow.over.dm.won_by": {
        "one": "🏁 The game is over: {names} won.",
        "other": "🏁 The game is over: {names} won.",
    },
    "flow.over.dm.place": {
        "one": "You finished in place {place} of {places} with {count} point.",
        "other": "You finished in place {place} of {places} with {count} points.",
    },
    "flow.rematch.confirmed": (
        "You are in the rematch (game #{game}). The host starts it when everyone is ready."
    ),
    "flow.rematch.joined": "You took a free seat in the rematch (game #{game}).",
    "flow.rematch.already": "You are in the rematch already (game #{game}).",
    "flow.rematch.full": (
        "No seat of the rematch is free: the others are kept for the players of the last game."
    ),
    "flow.rematch.not_over": "This game has not ended yet.",
    "flow.rematch.channel_busy": (
        "This channel has another game open; a rematch can start once it has ended."
    ),
    "flow.rematch.started": "The rematch has started already, or its lobby has closed.",
    "cmd.autopass.name": "autopass",
    "cmd.autopass.description": "Let the bot make a move that is your only choice, such as a pass",
    "cmd.autopass.mode": (
        "On: forced moves are made for you after a natural pause; off: you click them"
    ),
    "cmd.autopass.mode.name": "mode",
    "flow.button.autopass": "Pass for me when I have no choice",
    "flow.autopass.on": (
        "Done: when your only move is a pass (or another forced move), the bot makes it for you "
        "after a pause like yours, and that turn does not ping you. Turn it off with "
        "{cmd_autopass}."
    ),
    "flow.autopass.off": "Done: you make every move yourself, forced ones too (one button).",
}
