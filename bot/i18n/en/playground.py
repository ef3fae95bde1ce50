"""English texts of the playground (``glory playground``): its command line and its page.

The page's texts (``playground.page.*``) keep their ``{placeholders}`` for the page to fill.
"""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "playground.cli.description": (
        "Play Glory in the browser without Discord: the real bot runs against a local Discord "
        "emulator, and a page shows the server's channel and every player's DMs."
    ),
    "playground.cli.port": "the page's port on 127.0.0.1 (default: {port})",
    "playground.cli.players": "the players to start with, separated by commas",
    "playground.cli.language": "the players' Discord language, e.g. de or ru-RU",
    "playground.cli.pictures": "whether the bot draws the table and hand pictures",
    "playground.cli.no_rate_limits": "do not hold the bot to Discord's rate limits",
    "playground.cli.workdir": (
        "keep the bot's database and log in this directory (default: a temporary one, "
        "removed at the end)"
    ),
    "playground.cli.starting": "Starting the bot against the local Discord emulator…",
    "playground.cli.ready": ("Glory playground: {url}\nThe bot's log: {log}\nCtrl+C stops it."),
    "playground.cli.port_busy": "Port {port} is in use: choose another one with --port.",
    "playground.cli.bot_failed": "The bot did not start; the end of its log ({log}):",
    "playground.cli.stopped": "The playground has stopped.",
    "playground.refused.name": "A player's name needs 1 to 32 characters.",
    "playground.refused.name_taken": "There is already a player called {name}.",
    "playground.refused.player": "There is no such player.",
    "playground.refused.channel": "There is no such channel.",
    "playground.refused.message": "That message is gone.",
    "playground.refused.command": "The bot has no such command here.",
    "playground.refused.option": "The option {name} does not fit this command.",
    "playground.refused.fill": (
        "There is no lobby with a free seat here, or you are not its host."
    ),
    "playground.refused.origin": "The playground answers only its own page, {page}.",
    "playground.refused.request": "The page sent something the playground does not understand.",
    "playground.refused.action": "Discord would not let you do that: {reason}",
    "playground.page.title": "Glory playground",
    "playground.page.acting_as": "You are",
    "playground.page.channels": "Text channels",
    "playground.page.dms": "Direct messages",
    "playground.page.add_player": "Add player",
    "playground.page.player_name": "Name",
    "playground.page.add_channel": "Add channel",
    "playground.page.channel_name": "channel-name",
    "playground.page.phone": "Phone width",
    "playground.page.fill": "Fill with AI",
    "playground.page.ai_players": "AI players",
    "playground.page.send": "Send",
    "playground.page.command": "Choose a command",
    "playground.page.message_in": "Message #{channel}",
    "playground.page.dm_with": "{name}'s DMs with {bot}",
    "playground.page.only_you": "Only you can see this",
    "playground.page.thinking": "{bot} is thinking…",
    "playground.page.used": "{user} used {command}",
    "playground.page.edited": "(edited)",
    "playground.page.app_tag": "APP",
    "playground.page.failed_command": "The application did not respond",
    "playground.page.failed_component": "This interaction failed",
    "playground.page.select": "Make a selection",
    "playground.page.today": "Today at {time}",
    "playground.page.reconnecting": "Reconnecting to the playground…",
    "playground.page.bot_stopped": "The bot process has stopped: its log says why.",
    "playground.page.refused": "Refused by Discord's rules: {count}",
    "playground.page.rate_limited": "Answered 429: {count}",
    "playground.page.failed": "Interactions that failed: {count}",
    "playground.page.unhandled": "Routes the emulator lacks: {count}",
    "playground.page.empty": "Nothing here yet. Choose {cmd_play} in the command box below.",
    "playground.page.required": "required",
    "playground.page.not_emulated": "Not available in the playground",
    "playground.page.new_messages": "new",
}
