"""A small discord.py bot that exercises every interaction style Glory's bot will use.

It stands in for the real bot until that exists, and doubles as the "no work" floor for
latency measurements. Run in-process as ``ReferenceBot()`` or as a process:
``python -m bot.loopback.reference_bot`` (reads the same env vars as ``python -m bot``:
DISCORD_API_BASE, DISCORD_GATEWAY_URL, DISCORD_TOKEN).

Features, one per interaction path:
- ``/ping``: immediate reply (callback 4).
- ``/table create seats:<int>``: a message with a DynamicItem "Join" button and a select.
- "Join" click: DMs the player, then updates the table (callback 7); if DMs are closed
  (403/50007) it answers with an ephemeral follow-up instead.
- select: defer (callback 6) + ephemeral follow-up.
- ``/secret``: ephemeral reply. ``/slow``: thinking defer (5) + edit of @original.
- ``/announce text:<str>``: channel post, then edit of that post.
- ``/dawdle seconds:<float>``: answers only after ``seconds``; past the interaction deadline
  Discord answers 404 / 10062, which it catches and keeps in ``refused_answers``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import sys
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from .client_overrides import discord_py_pointed_at

JOIN_TEMPLATE = r"ref:join:(?P<seats>\d+):(?P<joined>\d+)"


def table_view(seats: int, joined: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(JoinButton(seats, joined))
    view.add_item(ColourSelect())
    return view


class JoinButton(discord.ui.DynamicItem[discord.ui.Button], template=JOIN_TEMPLATE):
    """State lives in the custom_id, so clicks work on old messages and after a restart."""

    def __init__(self, seats: int, joined: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Join",
                style=discord.ButtonStyle.primary,
                custom_id=f"ref:join:{seats}:{joined}",
                disabled=joined >= seats,
            )
        )
        self.seats = seats
        self.joined = joined

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> JoinButton:
        return cls(int(match["seats"]), int(match["joined"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        joined = self.joined + 1
        try:
            await interaction.user.send(f"You took seat {joined} of {self.seats}.")
        except discord.Forbidden as error:
            if error.code != 50007:
                raise
            await interaction.response.send_message(
                "I cannot DM you; please open your DMs.", ephemeral=True
            )
            return
        await interaction.response.edit_message(
            content=f"Table: {joined}/{self.seats} seated", view=table_view(self.seats, joined)
        )


class ColourSelect(discord.ui.Select[discord.ui.View]):
    def __init__(self) -> None:
        super().__init__(
            custom_id="ref:colour",
            placeholder="Pick a colour",
            options=[discord.SelectOption(label=c, value=c) for c in ("red", "green", "blue")],
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await interaction.followup.send(f"You picked {self.values[0]}.", ephemeral=True)


class ReferenceBot(commands.Bot):
    def __init__(self, **options: Any) -> None:
        """``options`` override discord.py client settings, e.g. ``heartbeat_timeout``."""
        options.setdefault("guild_ready_timeout", 0.05)
        super().__init__(
            command_prefix=commands.when_mentioned, intents=discord.Intents.default(), **options
        )
        self.resumes = 0
        self.interactions_handled = 0
        self.refused_answers: list[int] = []
        """Error codes of answers Discord refused (``/dawdle`` past the deadline: 10062)."""

    async def setup_hook(self) -> None:
        self.add_dynamic_items(JoinButton)
        persistent_select = discord.ui.View(timeout=None)
        persistent_select.add_item(ColourSelect())
        self.add_view(persistent_select)  # answers the select on any table, even after restart
        self.tree.add_command(table_group)
        for command in (ping, secret, slow, announce, dawdle):
            self.tree.add_command(command)
        await self.tree.sync()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py sleeps 5 s before a re-IDENTIFY; the emulator has no identify limit."""

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.interactions_handled += 1

    async def on_resumed(self) -> None:
        self.resumes += 1


table_group = app_commands.Group(name="table", description="Tables")


@table_group.command(name="create", description="Open a table")
async def table_create(interaction: discord.Interaction, seats: int) -> None:
    await interaction.response.send_message(f"Table: 0/{seats} seated", view=table_view(seats, 0))


@app_commands.command(description="Answer at once")
async def ping(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("pong")


@app_commands.command(description="An ephemeral answer")
async def secret(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("only you can see this", ephemeral=True)


@app_commands.command(description="Defer, then edit the original response")
async def slow(interaction: discord.Interaction) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    await asyncio.sleep(0.01)
    await interaction.edit_original_response(content="done thinking")


@app_commands.command(description="Post to the channel and edit the post")
async def announce(interaction: discord.Interaction, text: str) -> None:
    await interaction.response.send_message("posting", ephemeral=True)
    assert interaction.channel is not None
    message = await interaction.channel.send(text)
    await message.edit(content=f"{text} (edited)")


@app_commands.command(description="Answer after a pause")
async def dawdle(interaction: discord.Interaction, seconds: float) -> None:
    await asyncio.sleep(seconds)
    try:
        await interaction.response.send_message(f"answered after {seconds} s")
    except discord.NotFound as error:  # 10062: the interaction is gone (too late)
        assert isinstance(interaction.client, ReferenceBot)
        interaction.client.refused_answers.append(error.code)


def main() -> int:
    logging.basicConfig(level=os.environ.get("LOG_LEVEL", "WARNING"))
    api_base = os.environ["DISCORD_API_BASE"]
    gateway_url = os.environ["DISCORD_GATEWAY_URL"]
    with discord_py_pointed_at(api_base, gateway_url):
        ReferenceBot().run(os.environ["DISCORD_TOKEN"], log_handler=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
