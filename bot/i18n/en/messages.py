"""English texts of the table and hand messages (Components V2): score labels, whose turn it
is in a DM, what a player missed since their last move."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "table.this_round": "**This round:** {scores}",
    "table.total": "**Total:** {scores}",
    "table.side_points": {"one": "{name} {count} point", "other": "{name} {count} points"},
    "hand.waiting_since": (
        "After move {move}, **{name}** is deciding: {decision}. "
        "A new message comes when it is your turn."
    ),
    "hand.story": "Since your last move",
    "hand.story_latest": "Latest moves",
    "over.scores.final": "Final scores (total)",
    "over.scores.stopped": "Scores when the game stopped (total)",
}
