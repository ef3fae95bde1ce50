"""English messages shared by all games: commands, lobby, table, hand, errors, standings."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    # ------------------------------------------------------------------ command line
    "cli.description": "Run the Glory Discord bot.",
    "cli.sync": "the same as the command sync (its old spelling)",
    "cli.version": "show Glory's version and exit",
    "cli.env_file": "read the settings from this file (default: .env in the current directory)",
    "cli.settings": (
        "settings: environment variables, or NAME=value lines in the .env file (the environment "
        "wins)"
    ),
    "cli.default": "default: {value}",
    "cli.setting.DISCORD_TOKEN": "the bot token from the Discord developer portal (required)",
    "cli.setting.DATABASE_URL": (
        "where games are stored: a SQLite file (one bot process), or PostgreSQL as "
        "postgresql+asyncpg://user:password@host/database (one or several processes)"
    ),
    "cli.setting.DEV_GUILD_ID": (
        "register the slash commands in this one server only (for development)"
    ),
    "cli.setting.LOG_LEVEL": "DEBUG, INFO, WARNING, ERROR or CRITICAL",
    "cli.setting.LOBBY_MINUTES": "minutes before a lobby nobody started closes",
    "cli.setting.AI_WORKERS": "worker processes for the AI players' searches and for hints",
    "cli.setting.AI_PAUSE_SECONDS": "seconds an AI player seems to think before its move appears",
    "cli.setting.AI_MAX_MS": "the time limit of one AI search, in milliseconds",
    "cli.setting.MISSED_TURNS_FOR_TAKEOVER": (
        "turns in a row a player may let run out before the AI keeps their seat"
    ),
    "cli.setting.HEALTH_FILE": (
        "a file the bot touches every 20 seconds while connected to Discord, for a health check "
        "(python -m bot.health); off: none"
    ),
    "cli.setting.SHARD_COUNT": (
        "split the gateway connection into this many shards (a number, or auto for Discord's "
        "recommendation); unset: one connection without shards"
    ),
    "cli.setting.SHARD_IDS": (
        "the shards this process runs, e.g. 0,1 or 0-3 (unset: all of SHARD_COUNT); a process "
        "that runs only some of them needs PostgreSQL"
    ),
    "cli.setting.DISCORD_API_BASE": (
        "REST base URL of a Discord-compatible server instead of discord.com (set both or neither)"
    ),
    "cli.setting.DISCORD_GATEWAY_URL": "gateway URL of that server",
    "cli.no_token": (
        "DISCORD_TOKEN is not set.\n"
        "1. Create an application at https://discord.com/developers/applications\n"
        "2. Open Bot, press Reset Token and copy the token.\n"
        "3. Put it into a file named .env in the directory you start Glory from "
        "(see .env.example):\n"
        "       DISCORD_TOKEN=your-token\n"
        "4. Start it with `glory` (or `make run`): it registers its slash commands by itself and "
        "logs the link that invites it to a server."
    ),
    "cli.bad_switch": (
        "{name} must be on or off, not “{value}”. Fix it in .env (or leave it empty for the "
        "default) and start again."
    ),
    "cli.bad_whole_number": (
        "{name} must be a whole number, not “{value}”. Fix it in .env (or leave it empty for the "
        "default) and start again."
    ),
    "cli.bad_decimal": (
        "{name} must be a number such as 1.5, not “{value}”. Fix it in .env (or leave it empty "
        "for the default) and start again."
    ),
    "cli.too_small": (
        "{name} must be at least {minimum}, not {value}. Fix it in .env and start again."
    ),
    "cli.bad_log_level": (
        "LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, not “{value}”. Fix it in .env "
        "and start again."
    ),
    "cli.bad_database": (
        "DATABASE_URL “{url}” is not a database Glory can use. Glory stores its games in SQLite "
        "(sqlite+aiosqlite:///./data/glory.db) or PostgreSQL\n"
        "(postgresql+asyncpg://user:password@host/database): set DATABASE_URL to one of them in "
        ".env and start again."
    ),
    "cli.sqlite_file": (
        "DATABASE_URL “{url}” names no SQLite file, and a database in memory would lose every "
        "game.\nName a file, e.g. sqlite+aiosqlite:///./data/glory.db, and start again."
    ),
    "cli.endpoints_pair": (
        "DISCORD_API_BASE and DISCORD_GATEWAY_URL go together: set both (for a "
        "Discord-compatible server) or neither (for discord.com)."
    ),
    "cli.bad_shard_count": (
        "SHARD_COUNT must be a whole number of shards or auto, not “{value}”. Fix it in .env (or "
        "leave it empty for one connection without shards) and start again."
    ),
    "cli.shard_ids_need_count": (
        "SHARD_IDS picks this process's shards out of SHARD_COUNT, so it needs SHARD_COUNT as a "
        "number (auto cannot be divided between processes). Set SHARD_COUNT, or leave SHARD_IDS "
        "empty to run every shard here, and start again."
    ),
    "cli.bad_shard_ids": (
        "SHARD_IDS must list shard numbers or ranges such as 0,2 or 0-3, not “{value}”. Fix it "
        "in .env and start again."
    ),
    "cli.shard_out_of_range": (
        "SHARD_IDS names shard {shard}, but with SHARD_COUNT={count} the shards are numbered "
        "from 0 to {count} − 1. Fix SHARD_IDS or SHARD_COUNT in .env and start again."
    ),
    "cli.shards_need_postgres": (
        "This process runs shards {shards}, so other processes run the rest, but DATABASE_URL "
        "“{url}” is SQLite, the embedded database of one process running every shard.\n"
        "Processes that share the shards share PostgreSQL: set DATABASE_URL to "
        "postgresql+asyncpg://user:password@host/database, or leave SHARD_IDS empty to run "
        "every shard in this one process, and start again."
    ),
    "cli.sharding_required": (
        "Discord requires sharding for a bot in this many servers (at most 2,500 per shard; "
        "shards now: {count}). Set SHARD_COUNT=auto, or a number of shards, and start again."
    ),
    "cli.invalid_shard": (
        "Discord refused the shard settings (shards: {count}). Check SHARD_COUNT and SHARD_IDS "
        "and start again."
    ),
    "cli.discord_unreachable": (
        "Could not reach Discord at {url}: {reason}.\n"
        "Check this machine's internet connection (and DISCORD_API_BASE, if set) and start "
        "again; LOG_LEVEL=DEBUG shows the details."
    ),
    "cli.database_unreachable": (
        "Could not open the database {url}: {reason}.\n"
        "Check DATABASE_URL and that the database server runs and accepts connections from this "
        "machine; the bot tries again when started again."
    ),
    "cli.bad_token": "Discord rejected DISCORD_TOKEN. Copy a fresh token into .env and try again.",
    "cli.intents": "Discord refused the requested gateway intents; Glory needs no privileged ones.",
    # ------------------------------------------------------------------ commands
    "cmd.play.name": "play",
    "cmd.play.description": "Open a lobby for a card game in this channel",
    "cmd.play.game": "Which game to play",
    "cmd.play.options": "Optional, e.g. rounds=1 ninja=on (the lobby's menus can set them too)",
    "cmd.hand.name": "hand",
    "cmd.hand.description": "Show your hand and your controls (only you see it)",
    "cmd.table.name": "table",
    "cmd.table.description": "Post this channel's game table again at the bottom",
    "cmd.scores.name": "scores",
    "cmd.scores.description": "Scores of this channel's game, by round and in total",
    "cmd.leave.name": "leave",
    "cmd.leave.description": (
        "Leave the game: the AI plays your seat on (a loss for you unless you come back)"
    ),
    "cmd.cancel.name": "cancel",
    "cmd.cancel.description": "Cancel this channel's game without a result (host or managers)",
    "cmd.standings.name": "standings",
    "cmd.standings.description": "This server's leaderboard",
    "cmd.standings.game": "Only this game (all games if left out)",
    "cmd.rules.name": "rules",
    "cmd.rules.description": "A short summary of a game's rules",
    "cmd.rules.game": "Which game",
    "cmd.sync.name": "sync",
    "cmd.sync.description": "Upload the slash commands (bot owner only)",
    # ------------------------------------------------------------------ shared words
    "common.on": "on",
    "common.off": "off",
    "common.decision": "a decision",
    "common.game_id": "Game #{id}",
    "common.number_list": "{numbers}",
    "common.name_value": "{name} {value}",
    "common.cards": {"one": "{count} card", "other": "{count} cards"},
    "common.points": {"one": "{count} point", "other": "{count} points"},
    "button.join": "Join",
    "button.leave": "Leave",
    "button.start": "Start",
    "button.cancel": "Cancel",
    "button.my_hand": "My hand",
    "button.back": "Back",
    "menu.placeholder": "Choose…",
    "menu.breadcrumb": "Chosen so far: {path}",
    "menu.separator": " › ",
    # ------------------------------------------------------------------ /play and lobby
    "play.guild_only": "Games are played in a server's text channel or thread.",
    "play.unknown_game": "I do not know that game.",
    "play.busy": (
        "This channel already has a game (or a lobby). Finish it, or ask the host to "
        "{cmd_cancel} it, or start a game in another channel or thread."
    ),
    "lobby.title": "{game}: lobby",
    "lobby.host": "Host: {name}",
    "lobby.player_counts": "Players: {counts}",
    "lobby.option": "{option}: **{value}**",
    "lobby.option_choice": "{option}: {value}",
    "lobby.seats": {"one": "{count} player has joined:", "other": "{count} players have joined:"},
    "lobby.seat": "{number}. {name}",
    "lobby.expires": "The host starts the game; this lobby closes {when} otherwise.",
    "lobby.closed.active": "The game has started.",
    "lobby.closed.finished": "This game is over.",
    "lobby.closed.cancelled": "This lobby was cancelled.",
    "lobby.closed.abandoned": "This game was abandoned.",
    "lobby.closed.expired": "Nobody started this lobby in time, so it has closed.",
    "lobby.expired_notice": {
        "one": "The {game} lobby expired: nobody started it within {count} minute.",
        "other": "The {game} lobby expired: nobody started it within {count} minutes.",
    },
    "lobby.already_joined": "You are already in this lobby.",
    "lobby.not_joined": "You are not in this lobby.",
    "lobby.full": "This lobby is full.",
    "lobby.host_cannot_leave": "The host cannot leave; use {button_cancel} to close the lobby.",
    "lobby.only_host_starts": "Only the host can start the game.",
    "lobby.only_host_options": "Only the host can change the options.",
    "lobby.changed": "The lobby changed in the meantime; nothing was done. Please try again.",
    "options.invalid.player_count": {
        "one": "This game needs {counts} players; {count} player has joined.",
        "other": "This game needs {counts} players; {count} players have joined.",
    },
    "options.invalid.unknown_option": (
        "That option does not exist for this game; see the lobby's menus for its options."
    ),
    "options.invalid.bad_value": "That value is not allowed for this option.",
    "options.invalid.conflict": "These options do not work together; nothing was changed.",
    "options.text.unknown_name": "{game} has no option “{name}”. Its options: {choices}.",
    "options.text.unknown_value": "“{value}” is not a choice for {option}. Choices: {choices}.",
    "options.text.missing_value": "{option} needs a value after “=”. Choices: {choices}.",
    "cancel.not_allowed": "Only the host or someone with Manage Server can cancel this game.",
    # ------------------------------------------------------------------ table
    "table.title": "{game}",
    "table.turn": "**{name}** is deciding: {decision}.",
    "table.winners": {
        "one": "The game is over. Winner: **{names}**.",
        "other": "The game is over. Winners: **{names}**.",
    },
    "table.ended.cancelled": "This game was cancelled; no result was recorded.",
    "table.ended.abandoned": "No player was left at the table; the game was recorded as abandoned.",
    "table.ended.expired": "This game expired.",
    "table.scores": "Scores",
    "table.score": {"one": "{name}: {count} point", "other": "{name}: {count} points"},
    "table.log": "Recent moves",
    "table.log_line": "• {line}",
    "table.footer": "Game #{id} · move {move}",
    "table.moved": "The table moved down: {link}",
    "table.reposted": "Here is the table again, at the bottom of the channel.",
    "dm.closed": {
        "one": "{mentions}: I cannot send you direct messages. Press **{button}** on the table "
        "to see your hand and play.",
        "other": "{mentions}: I cannot send you direct messages. Press **{button}** on the table "
        "to see your hands and play.",
    },
    # ------------------------------------------------------------------ hand and moves
    "hand.title": "{game}: {name}'s hand",
    "hand.your_turn": "**Your turn:** {decision}.",
    "hand.waiting": "Waiting for **{name}**: {decision}.",
    "hand.waiting_quiet": (
        "Not your turn. The table in the channel shows the game; I will message you when you "
        "have to decide."
    ),
    "hand.private_log": "Only you saw:",
    "hand.not_a_player": "You are not playing in this game.",
    "move.not_your_control": "That control belongs to another player.",
    "move.not_your_turn": "It is not your turn to decide.",
    "move.illegal": "That move is not allowed now; nothing changed.",
    "move.stale": "That control was out of date (the game has moved on); here is the current one.",
    "move.stale_short": (
        "Someone else's move came first; nothing was applied. Press {button_my_hand} again."
    ),
    "move.applied_display_failed": (
        "Your move was applied, but I could not update every message. {cmd_hand} and "
        "{cmd_table} show the current game."
    ),
    "move.not_applied": "Something went wrong; your move was NOT applied. Please try again.",
    "move.private_only": (
        "Moves are made in your own hand (your DM, or {button_my_hand}); nothing was changed."
    ),
    "game.ended.lobby": "This game has not started yet.",
    "game.ended.finished": "This game is over.",
    "game.ended.cancelled": "This game was cancelled.",
    "game.ended.abandoned": "This game was abandoned.",
    "game.ended.expired": "This lobby expired.",
    "game.none_here": "There is no game in this channel. Start one with {cmd_play}.",
    "game.not_started": "The game has not started yet.",
    "game.already_ended": "This game has already ended.",
    "game.cancelled_by": "{name} cancelled the game; no result is recorded.",
    "game.abandoned_by": "{name} conceded; the game ends and is recorded as abandoned.",
    "leave.use_lobby_button": "The game has not started: use the lobby's {button_leave} button.",
    "error.game_gone": "This game no longer exists.",
    "error.unknown_control": "I do not know this control.",
    "error.damaged_control": (
        "This control was not made by Glory, or it is damaged; nothing was changed. "
        "Use the buttons in your hand, or {cmd_hand}."
    ),
    "error.stopping": "Glory is restarting; nothing was changed. Please try again in a minute.",
    "error.unexpected": "Something went wrong; nothing was changed. Please try again.",
    # ------------------------------------------------------------------ scores, standings
    "scores.title": "{game}: scores (game #{id})",
    "scores.by_round": "By round",
    "scores.total": "Total",
    "scores.no_rounds": "No round has finished yet.",
    "scores.round": "Round {number}: {scores}",
    "scores.entry": "{name} {count}",
    "scores.page": "Page {page} of {pages}",
    "scores.bad_page": "That page number is not valid; nothing was changed.",
    "standings.title": "Standings: {scope}",
    "standings.all_games": "all games",
    "standings.gap": "…",
    "standings.empty": "No finished games in this server yet.",
    "standings.wins": {"one": "{count} won", "other": "{count} won"},
    "sync.owner_only": "Only the bot's owner can sync commands.",
    "sync.done": {"one": "Synced {count} command.", "other": "Synced {count} commands."},
}
