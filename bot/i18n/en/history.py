"""English messages of ratings (``/standings``, ``/profile``), ``/history`` and ``/replay``."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    # ------------------------------------------------------------------ commands
    "cmd.profile.name": "profile",
    "cmd.profile.description": "A player's ratings, recent games and rating trend",
    "cmd.profile.user": "Whose profile (yours if left out)",
    "cmd.profile.user.name": "user",
    "cmd.history.name": "history",
    "cmd.history.description": "This server's ended games, newest first",
    "cmd.history.game": "Only this game (all games if left out)",
    "cmd.history.game.name": "game",
    "cmd.history.user": "Only the games this player sat in",
    "cmd.history.user.name": "user",
    "cmd.replay.name": "replay",
    "cmd.replay.description": "Step through an ended game of this server, move by move",
    "cmd.replay.game": "The game's number, as the history lists it",
    "cmd.replay.game.name": "game",
    "cmd.settings.replays.name": "replays",
    "cmd.settings.replays.description": "Whether replays of ended games show every hand",
    "cmd.settings.replays.hands": "Show every player's hand in replays (and allow the export)",
    "cmd.settings.replays.hands.name": "hands",
    "settings.replays.on": (
        "Done: replays of ended games show every player's hand, and can be exported."
    ),
    "settings.replays.off": (
        "Done: replays show only the public table, and games cannot be exported "
        "(the export's seed would deal every hand again)."
    ),
    # ------------------------------------------------------------------ ratings
    "ratings.line": {
        "one": "{rank}. {user}: **{rating}**, {count} game, {wins}",
        "other": "{rank}. {user}: **{rating}**, {count} games, {wins}",
    },
    "ratings.ai_player": "🤖 AI ({level})",
    "ratings.footer": "Rating: μ − 3σ, a cautious estimate of skill that grows as you play",
    "ratings.page": "Page {page} of {pages}",
    "ratings.empty": "No rated games in this server yet.",
    "profile.title": "{name}: ratings in this server",
    "profile.game": {
        "one": "**{rating}** (μ {mu}, σ {sigma}), place {rank} of {players}; {count} game, {wins}",
        "other": (
            "**{rating}** (μ {mu}, σ {sigma}), place {rank} of {players}; {count} games, {wins}"
        ),
    },
    "profile.trend": {
        "one": "Trend over the last {count} game: {chart}",
        "other": "Trend over the last {count} games: {chart}",
    },
    "profile.recent": "Recent games",
    "profile.no_ratings": "No rated games in this server yet.",
    # ------------------------------------------------------------------ python -m bot.ratings
    "ratings.cli.description": "Rebuild every skill rating from the stored game results.",
    "ratings.cli.command": "recompute: rebuild the ratings in one transaction",
    "ratings.cli.check": "rebuild, compare with the stored ratings and change nothing",
    "ratings.cli.url": "the database (default: DATABASE_URL from the environment or .env)",
    "ratings.cli.rebuilt": {
        "one": "Rated {count} game again.",
        "other": "Rated {count} games again.",
    },
    "ratings.cli.checked": {
        "one": "Rated {count} game again to compare (nothing was saved).",
        "other": "Rated {count} games again to compare (nothing was saved).",
    },
    "ratings.cli.same": "The stored ratings were exactly what the results give.",
    "ratings.cli.different": "The stored ratings differed from what the results give.",
    # ------------------------------------------------------------------ history
    "history.title": "Ended games: {scope}",
    "history.of_player": "{scope}, with {name}",
    "history.line": "**#{id}** {game}, {date}: {players}. {result}; {length}",
    "history.won_by": {"one": "Winner: {names}", "other": "Winners: {names}"},
    "history.abandoned": "Abandoned",
    "history.moves": {"one": "{count} move", "other": "{count} moves"},
    "history.minutes": {"one": "{moves} in {count} minute", "other": "{moves} in {count} minutes"},
    "history.empty": "No ended games to show.",
    "history.footer": "Watch one again: {cmd_replay} and its number",
    # ------------------------------------------------------------------ replays
    "replay.title": "Replay: {game}, game #{id}",
    "replay.footer": "Move {move} of {moves}, round {round}",
    "replay.setup": "The deal",
    "replay.hand_of": "Hand: {name}",
    "replay.log": "This move",
    "replay.button.previous_round": "Round back",
    "replay.button.next_round": "Next round",
    "replay.button.export": "Export (JSON)",
    "replay.not_here": "No game with that number was played in this server.",
    "replay.running": "That game is still running; its replay opens once it has ended.",
    "replay.never_started": "That game never started, so there is nothing to replay.",
    "replay.unknown_game": "That game is not one this bot can replay any more.",
    "replay.rules_changed": (
        "Game #{id} was played under earlier rules: from move {move} on, it no longer "
        "replays as it was played, so its positions are not shown. The export still holds "
        "the game as it was stored."
    ),
    "replay.export_ready": "Game #{id} as JSON: its seed, options, players and every move.",
    "replay.export_hidden": (
        "This server keeps hands hidden in replays, and an export would reveal them (its "
        "seed deals every hand again). Managers can change that with {cmd_settings}."
    ),
    "replay.footer_no_rounds": "Move {move} of {moves}",
}
