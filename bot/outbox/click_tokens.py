"""A replaced hand DM deleted, and a hand DM edited, through the last click on it, outside
the token's budget.

Why: every turn a player gets a new DM (the ping) and the DM it replaces is deleted. Through
the channel (``DELETE /channels/{dm}/messages/{id}``) that deletion is a request of the bot's
token, of which Discord allows about 50 a second in all (``budget.py``): at human pace it was
one request in four of the bot's. But the replaced DM is nearly always the one the player
clicked to make their last move, and a component interaction's answer that updates its
message (callback type 7 or 6) makes that message the interaction's "original response":
``DELETE /webhooks/{application}/{interaction token}/messages/@original`` deletes it (what
discord.py's ``Interaction.delete_original_response`` does). Interaction webhooks are outside
the global limit, and the token lives 15 minutes after the click.

So the answer of a click that updated a DM notes its token here (``note``), and the courier
deletes a replaced DM with it while it is young enough (``delete``); otherwise (no click on
that DM in this process, a token too old, a restart, Discord refusing the token) it goes
through the channel as before. The same token edits the DM while it is the player's hand (a
waiting player's DM brought up to date after another player's move, or with its picture):
``PATCH .../messages/@original`` (``edit``), again outside the global limit.

A click on the old DM can race with its deletion: its answer updates the DM just before the
courier deletes it and forgets it. Such a click never makes that DM the hand again (a seat's
hand only moves to newer DMs, ``bot/storage/hand_adoption.py``), so no DM is deleted twice.
With several processes, the process that delivers a game uses the tokens of the clicks it
answered itself; a DM clicked in another process goes through the channel.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import discord
from discord.http import handle_message_parameters
from discord.utils import MISSING
from discord.webhook.async_ import async_context

log = logging.getLogger(__name__)

TOKEN_LIFETIME = timedelta(minutes=15)
"""How long Discord honours an interaction's token (for its follow-ups and ``@original``)."""
MARGIN = timedelta(minutes=2)
"""A token this close to its end is not used: a refused token is a 401, which counts towards
Discord's limit of invalid requests, and the request may wait in a queue first."""
EDIT_FIELDS = frozenset({"content", "embed", "embeds", "attachments", "view", "allowed_mentions"})
"""What an edit through a click's token may carry (as a channel edit does)."""
UNKNOWN_WEBHOOK = 10015
"""Discord's answer to a token it no longer honours."""
KEPT = 16384
"""Clicked DMs remembered at most (the oldest are forgotten first)."""


@dataclass(frozen=True, slots=True)
class _Click:
    application_id: int
    token: str
    session: Any
    """discord.py's HTTP session (the one its own ``delete_original_response`` uses)."""
    at: datetime


class ClickTokens:
    """Per DM message, the newest click whose answer updated it."""

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self._clicks: OrderedDict[int, _Click] = OrderedDict()
        self.used = 0
        """DMs deleted through a click's token (tests, benchmarks)."""
        self.edited = 0
        """DM edits made through a click's token (tests, benchmarks)."""

    def note(self, interaction: discord.Interaction) -> None:
        """``interaction``'s answer updated the non-ephemeral DM it was clicked in."""
        message = interaction.message
        if (
            message is None
            or interaction.guild_id is not None
            or interaction.type is not discord.InteractionType.component
            or message.flags.ephemeral
        ):
            return
        self._clicks[message.id] = _Click(
            interaction.application_id,
            interaction.token,
            interaction._session,  # as discord.py's own delete_original_response uses
            interaction.created_at,
        )
        self._clicks.move_to_end(message.id)
        while len(self._clicks) > self.kept:
            self._clicks.popitem(last=False)

    def _young(self, message_id: int) -> _Click | None:
        """The newest click on ``message_id`` whose token Discord still honours, if any."""
        click = self._clicks.get(message_id)
        if click is None or datetime.now(UTC) - click.at > TOKEN_LIFETIME - MARGIN:
            return None
        return click

    async def edit(self, message_id: int, content: dict[str, Any], state: Any) -> bool:
        """Edit the DM through the newest click on it, if it can be (``PATCH
        /webhooks/{application}/{token}/messages/@original``, outside the global limit, as
        ``Interaction.edit_original_response`` does); ``False``: the caller edits it through the
        channel. Raises ``discord.NotFound`` if the DM is gone, as a channel edit would.

        ``state``: discord.py's connection state (allowed mentions, the view store)."""
        click = self._young(message_id)
        if click is None or not EDIT_FIELDS.issuperset(content):
            return False
        view = content.get("view", MISSING)
        if view is not MISSING:
            state.prevent_view_updates_for(message_id)
        http = state.http
        try:
            with handle_message_parameters(
                **content, previous_allowed_mentions=state.allowed_mentions
            ) as params:
                await async_context.get().edit_original_interaction_response(
                    click.application_id,
                    click.token,
                    session=click.session,
                    proxy=http.proxy,
                    proxy_auth=http.proxy_auth,
                    payload=params.payload,
                    multipart=params.multipart,
                    files=params.files,
                )
        except discord.NotFound as error:
            if error.code != UNKNOWN_WEBHOOK:
                raise  # the DM is gone
            self._clicks.pop(message_id, None)  # Discord no longer knows the token
            return False
        except discord.HTTPException as error:
            if error.status == 429 or error.status >= 500:
                raise  # the courier retries (through the token again, while it lives)
            log.info("could not edit DM %s through its click (%s)", message_id, error)
            return False
        if view and not view.is_finished() and view.is_dispatchable():
            state.store_view(view, message_id)
        self.edited += 1
        return True

    async def delete(self, message_id: int, http: discord.http.HTTPClient) -> bool:
        """Delete the DM through the newest click on it, if it can be; ``True`` if it is gone
        (deleted now, or already), ``False`` if the caller must delete it another way."""
        click = self._clicks.pop(message_id, None)
        if click is None:
            return False
        if datetime.now(UTC) - click.at > TOKEN_LIFETIME - MARGIN:
            return False
        adapter = async_context.get()
        try:
            await adapter.delete_original_interaction_response(
                click.application_id,
                click.token,
                session=click.session,
                proxy=http.proxy,
                proxy_auth=http.proxy_auth,
            )
        except discord.NotFound as error:
            # 10008: the message is gone already; 10015: Discord no longer knows the token.
            return error.code == 10008
        except discord.HTTPException as error:
            log.info("could not delete DM %s through its click (%s)", message_id, error)
            return False
        self.used += 1
        return True
