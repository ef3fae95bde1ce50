"""Short ephemeral answers, and the guard that turns unexpected errors into one of them.

Why a guard: a crash inside a click must never leave the user with "This interaction failed"
nor hide the cause; it is logged with the game id and the user learns that nothing was applied.
Both answer through the interaction's ``Answer`` (``bot/interactions/answers.py``), which keeps the
3-second deadline.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import discord

from bot.i18n import t
from bot.interactions.answers import Answer
from bot.messages.languages import user_locale

log = logging.getLogger(__name__)


async def reply(interaction: discord.Interaction, key: str, /, **params: Any) -> None:
    """Answer ``interaction`` ephemerally with catalog message ``key``."""
    await Answer.of(interaction).send(t(key, user_locale(interaction), **params))


@asynccontextmanager
async def guarded(
    interaction: discord.Interaction, game_id: int | None, key: str = "error.unexpected"
) -> AsyncIterator[None]:
    """Log any unexpected exception with the game id and tell the user ``key``."""
    try:
        yield
    except Exception:
        log.exception("game %s: unexpected error handling an interaction", game_id)
        await reply(interaction, key)
