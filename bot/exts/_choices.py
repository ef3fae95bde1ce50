"""The game choice shared by /play, /rules and /standings (names from the catalog)."""

from __future__ import annotations

from discord import app_commands

from bot.i18n.commands import text
from games import REGISTRY

GAME_CHOICES = [app_commands.Choice(name=text(f"{key}.name"), value=key) for key in REGISTRY]
