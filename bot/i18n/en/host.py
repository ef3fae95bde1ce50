"""English messages for hosting the bot: the command line's new sentences (``glory sync``,
start failures a restart cannot cure), the container's health check, ``/about`` and
``/health`` (``bot/process/about.py``)."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    # ------------------------------------------------------------------ command line
    "cli.commands": (
        "run (the default): start the bot; sync: register the slash commands now, whatever "
        "changed, and exit (without connecting to the gateway)"
        "; playground: play in the browser without Discord (glory playground --help)"
    ),
    "cli.env_file_missing": (
        "The settings file {path} named by --env-file does not exist. Check the path and start "
        "again."
    ),
    "cli.sqlite_unusable": (
        "Could not open the SQLite file {path}: {reason}.\n"
        "Make its directory writable for the user the bot runs as (or point DATABASE_URL at "
        "another file) and start again."
    ),
    "cli.database_refused": (
        "The database {url} refused the login: {reason}.\n"
        "Check the user and password in DATABASE_URL and start again. With compose, the "
        "database keeps the POSTGRES_PASSWORD of its very first start: put that one back into "
        ".env (docs/troubleshooting.md)."
    ),
    "cli.database_missing": (
        "The database {url} does not exist: {reason}.\n"
        "Create it (createdb, or CREATE DATABASE) or correct its name in DATABASE_URL, and "
        "start again."
    ),
    "cli.database_not_allowed": (
        "The database {url} let the bot in but not create its tables: {reason}.\n"
        "Give that user the right to create tables there (or use the database's owner) and "
        "start again."
    ),
    "cli.synced_global": {
        "one": "Registered {count} slash command for every server.",
        "other": "Registered {count} slash commands for every server.",
    },
    "cli.synced_guild": {
        "one": "Registered {count} slash command in the server {guild}.",
        "other": "Registered {count} slash commands in the server {guild}.",
    },
    "cli.sync_failed": (
        "Discord did not take the slash commands: {reason}.\n"
        "Try again later; LOG_LEVEL=DEBUG shows the details."
    ),
    "sync.failed": "Discord did not take the commands ({reason}). Try again later.",
    # ------------------------------------------------------------------ health check
    "health.missing": (
        "unhealthy: {path} does not exist (the bot has not connected to Discord yet, or the "
        "bot and this check see different HEALTH_FILE values)"
    ),
    "health.stale": {
        "one": "unhealthy: {path} was last touched {count} second ago; the bot has lost Discord",
        "other": (
            "unhealthy: {path} was last touched {count} seconds ago; the bot has lost Discord"
        ),
    },
    "health.fresh": {
        "one": "healthy: {path} touched {count} second ago",
        "other": "healthy: {path} touched {count} seconds ago",
    },
    "health.off": "HEALTH_FILE=off: there is no health file to check",
    # ------------------------------------------------------------------ /about
    "cmd.about.name": "about",
    "cmd.about.description": "What Glory is, what it plays and how to invite it",
    "about.title": "**Glory** {version}",
    "about.plays": "A Discord bot that lets a server play card games together:",
    "about.game": "• **{game}**, {players} players",
    "about.start": (
        "Start a game in a channel with /{play}; /{rules} explains a game in a few pages."
    ),
    "about.invite": "Invite Glory to another server: <{url}>",
    "about.guide": "The guide for players and hosts: <{url}>",
    "about.health_hint": "You manage this server: /{health} shows how the bot is doing.",
    # ------------------------------------------------------------------ /health
    "cmd.health.name": "health",
    "cmd.health.description": "How the bot is doing: uptime, games, database, latency",
    "health.manage_only": "Only members who can manage this server can see the bot's health.",
    "health.title": "**Glory {version}**: health",
    "health.since": "Running since: {since}",
    "health.servers": "Servers: {count}",
    "health.servers_shared": "Servers (this process's shards): {count}",
    "health.games": "Games in play: {count}",
    "health.lobbies": "Open lobbies: {count}",
    "health.database": "Database: {database}",
    "health.database_shared": "Database: {database}, shared with the other shards' processes",
    "health.shard": "Shard: {shard} of {count} (this process runs {shards})",
    "health.no_shards": "Shards: none (one gateway connection)",
    "health.latency": "Gateway latency: {ms} ms",
    "health.latency_unknown": "Gateway latency: not measured yet",
    "health.outbox": {
        "one": "Outbox: {count} change waiting to be shown, the oldest for {seconds} s",
        "other": "Outbox: {count} changes waiting to be shown, the oldest for {seconds} s",
    },
    "health.outbox_empty": "Outbox: nothing waiting (every move is shown)",
    "health.commands_global": "Slash commands: {count}, registered for every server",
    "health.commands_guild": (
        "Slash commands: {count}, registered only in the server {guild} (DEV_GUILD_ID)"
    ),
    "health.commands_failed": (
        "Slash commands: the last registration failed ({reason}); the host can run glory sync"
    ),
    "health.commands_unchecked": "Slash commands: not checked at this start",
}
