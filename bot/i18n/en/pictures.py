"""English texts of the pictures (table, hand, score chart) and of their settings."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "pictures.hand_size": {"one": "{count} card in hand", "other": "{count} cards in hand"},
    "pictures.draw_piles": "Draw piles",
    "pictures.discard_pile": "Discard pile {number}",
    "pictures.round_points": {
        "one": "{count} point this round",
        "other": "{count} points this round",
    },
    "pictures.display": "Display",
    "pictures.known": "Known in hand",
    "pictures.ninjas": {"one": "{count} ninja", "other": "{count} ninjas"},
    "pictures.tasks": "Tasks",
    "pictures.your_hand": "Your hand",
    "pictures.playable": "Framed: what you can play now",
    "pictures.your_turn": "Your turn",
    "pictures.waiting": "Waiting for your turn",
    "pictures.empty_hand": "No cards in hand",
    "pictures.defense": "Defense",
    "pictures.attack": "Attack",
    "pictures.stacks": "Mercenaries",
    "pictures.team": "Team {number}",
    "pictures.board": "Board {number}",
    "pictures.shields_left": {"one": "{count} shield left", "other": "{count} shields left"},
    "pictures.chart.title": "Points after each round",
    "pictures.chart.title_final": "Final points",
    "pictures.chart.round": "Round",
    "pictures.chart.start": "Start",
    "pictures.chart.end": "End",
    "pictures.trend.title": "Rating after each game",
    "pictures.trend.games": "Games",
    "pictures.alt.trend": "{name}'s rating after each of their recent games",
    "pictures.alt.table": "The table of {game}, move {move}",
    "pictures.alt.hand": "The hand of {name} in {game}",
    "pictures.alt.chart": "Points after each round of {game}",
    "pictures.alt.chart_final": "Final points of {game}",
    # A letter per Clans and Glory colour, unique within the language (shape and letter let
    # players tell colours apart without seeing them).
    "pictures.colour_letter.red": "R",
    "pictures.colour_letter.blue": "B",
    "pictures.colour_letter.green": "G",
    "pictures.colour_letter.yellow": "Y",
    "pictures.colour_letter.purple": "P",
    "pictures.colour_letter.orange": "O",
    "pictures.colour_letter.black": "K",
    "cli.setting.PICTURES": "on (default) or off: off shows no pictures in any server",
    "cli.setting.PICTURE_WORKERS": (
        "worker processes drawing the pictures (one for tables, one for hands each; 0: a thread)"
    ),
    "cli.setting.TABLE_UPDATES_PER_SECOND": (
        "how many tables the bot updates per second at most, all games together (under heavy"
        " load each table then shows several moves at once)"
    ),
    "cmd.settings.images.name": "images",
    "cmd.settings.images.description": "Whether game tables and hands here come with pictures",
    "cmd.settings.images.shown": "On: pictures with the text; off: text only",
    "cmd.settings.images.shown.name": "shown",
    "settings.images.on": "Done: tables, hands and score charts in this server come with pictures.",
    "settings.images.off": "Done: this server's games show text only, without pictures.",
    "cmd.pictures.name": "pictures",
    "cmd.pictures.description": "Whether your hand comes with a picture (only for you)",
    "cmd.pictures.hand": "On: your hand as a picture too; off: text only",
    "cmd.pictures.hand.name": "hand",
    "pictures.hand.on": "Done: your hands come with a picture (where the server shows pictures).",
    "pictures.hand.off": "Done: your hands are text only.",
}
