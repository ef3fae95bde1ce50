"""Point an in-process discord.py client at an emulator (the same two overrides the bot applies).

Both attributes are process-global, so only one emulator can be targeted at a time within
one process; the context manager restores the previous values on exit.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import discord.gateway
import discord.http
import yarl


@contextlib.contextmanager
def discord_py_pointed_at(api_base: str, gateway_url: str) -> Iterator[None]:
    previous = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    try:
        yield
    finally:
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = previous
