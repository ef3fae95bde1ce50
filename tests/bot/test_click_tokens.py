"""``bot/outbox/click_tokens.py``: a replaced DM goes through the last click on it only while
that click's token is young enough, and only clicks that updated a DM count."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

import discord

from bot.outbox.click_tokens import MARGIN, TOKEN_LIFETIME, ClickTokens, _Click


def click(message_id: int, *, guild_id: int | None = None, ephemeral: bool = False) -> Any:
    return SimpleNamespace(
        message=SimpleNamespace(id=message_id, flags=discord.MessageFlags(ephemeral=ephemeral)),
        guild_id=guild_id,
        type=discord.InteractionType.component,
        application_id=1,
        token="token",
        _session=None,
        created_at=datetime.now(UTC),
    )


def test_only_a_click_in_a_dm_on_a_message_everyone_keeps_is_noted() -> None:
    tokens = ClickTokens()
    tokens.note(click(1))
    tokens.note(click(2, guild_id=5))  # a table or a lobby
    tokens.note(click(3, ephemeral=True))  # an ephemeral hand (channel routes cannot)
    assert set(tokens._clicks) == {1}


async def test_a_token_near_the_end_of_its_life_is_not_used() -> None:
    """Discord answers an expired token with a 401, which counts towards its limit of invalid
    requests: such a DM is left to the channel route (``False``), without a request."""
    tokens = ClickTokens()
    old = datetime.now(UTC) - (TOKEN_LIFETIME - MARGIN) - timedelta(seconds=1)
    tokens._clicks[7] = _Click(1, "token", None, old)
    http = SimpleNamespace(proxy=None, proxy_auth=None)
    assert await tokens.delete(7, http) is False  # type: ignore[arg-type]
    assert await tokens.delete(8, http) is False  # type: ignore[arg-type]  # never clicked
    assert tokens.used == 0
    assert 7 not in tokens._clicks


def test_only_the_newest_clicked_dms_are_remembered() -> None:
    tokens = ClickTokens(kept=2)
    for message_id in (1, 2, 3):
        tokens.note(click(message_id))
    assert list(tokens._clicks) == [2, 3]
