"""Point discord.py at a Discord-compatible server instead of discord.com.

discord.py builds every REST URL (including webhooks and interaction callbacks) from
``Route.BASE`` and opens its first gateway connection at ``DiscordWebSocket.DEFAULT_GATEWAY``;
a plain ``Bot`` never asks ``/gateway/bot``. Setting both is all a self-hosted server or the
loopback emulator needs (see docs/running.md).
"""

from __future__ import annotations

import discord.gateway
import discord.http
import yarl


def use_endpoints(api_base: str | None, gateway_url: str | None) -> None:
    """Redirect REST calls to ``api_base`` and the gateway to ``gateway_url`` when given."""
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
