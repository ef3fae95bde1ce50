"""The bot as the outbox sees it: a Discord client with the store and the flows whose messages
the couriers deliver (a protocol, so the outbox needs no import of ``bot/app.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

import discord

if TYPE_CHECKING:
    from discord.http import HTTPClient
    from discord.state import ConnectionState

    from bot.flows.clock import TurnClock
    from bot.flows.forced_moves import ForcedMoves
    from bot.messages.languages import Languages
    from bot.messages.publisher import Publisher
    from bot.process.config import Settings
    from bot.storage.repository import Store
    from games import Game


class OutboxHost(Protocol):
    store: Store
    registry: Mapping[str, Game]
    settings: Settings
    publisher: Publisher
    languages: Languages
    forced: ForcedMoves
    clock: TurnClock
    http: HTTPClient
    _connection: ConnectionState
    """discord.py's connection state (a hand DM's edit through a click's token stores its view
    there, as a channel edit does: ``click_tokens.py``)."""

    @property
    def user(self) -> discord.ClientUser | None: ...

    def get_partial_messageable(self, id: int, **options: Any) -> discord.PartialMessageable: ...

    def get_user(self, id: int, /) -> discord.User | None: ...

    async def create_dm(self, user: discord.abc.Snowflake) -> discord.DMChannel: ...
