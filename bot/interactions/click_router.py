"""A click on one of Glory's controls goes straight to its control.

discord.py hands a component interaction to a ``DynamicItem`` in several steps: it builds the
whole clicked message (its embeds, every component), dispatches a task that rebuilds a
``View`` from that message to find the clicked item, asks the item's class to make itself
from the custom_id, schedules the view's item callback, and meanwhile dispatches the
``interaction`` event to every listener (one more task). Our custom_ids already say which
control was used and on what, and a hand message carries a long embed and up to five rows:
in ``benchmarks/bot_load.py`` this work took about a third of the time from the click's
arrival to its answer, which is why the bot's median click stood well above the no-op floor.

So the gateway's INTERACTION_CREATE parser is wrapped: a component interaction whose
custom_id one of our templates matches, on a message that carries that component, becomes a
``discord.Interaction`` built without the clicked message's embeds and components (nothing of
ours reads them: the message's id and flags are kept) and its control runs in one task, in the
order discord.py would use (``from_custom_id``, the selected values, ``interaction_check``,
``callback``); the item its control is made from is built from the custom_id alone
(``clicked_item``). Everything else (slash commands, a custom_id no template matches, a control the
message does not carry) takes discord.py's own path unchanged, where ``GloryBot.on_interaction``
answers what no control handles.

The parser table (``ConnectionState.parsers``) is discord.py's internal API; the lock files pin
discord.py, and tests/bot/test_click_router.py fails if a release changes what this relies on.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import discord
from discord import ui
from discord.components import _component_factory
from discord.ui.view import _component_to_item

from bot.pictures.attach import SHOWN

log = logging.getLogger(__name__)

PREFIX = "glory:"
"""Every custom_id of ours starts so; anything else is left to discord.py at once."""
COMPONENT_INTERACTION = 3
KEPT_MESSAGE_FIELDS = (
    "id",
    "channel_id",
    "type",
    "flags",
    "webhook_id",
    "attachments",
)
"""What discord.py needs to make the clicked message, and what the bot reads of it (its id,
whether it is ephemeral, whether it carries a picture). Not its author: nothing reads it."""

Factory = type[ui.DynamicItem[Any]]


class ClickRouter:
    """Routes the clicks on our controls; ``install`` it on a client's connection."""

    def __init__(self, client: discord.Client) -> None:
        self._client = client
        self._templates: list[tuple[re.Pattern[str], Factory]] = []
        self._running: set[asyncio.Task[None]] = set()
        self.routed = 0
        """Clicks this router ran (the tests check that it, not discord.py, ran them)."""

    def register(self, items: Iterable[Factory]) -> None:
        for item in items:
            pattern = item.__discord_ui_compiled_template__
            if all(pattern is not known for known, _ in self._templates):
                self._templates.append((pattern, item))

    def install(self) -> None:
        """Wrap the connection's INTERACTION_CREATE parser (the gateway and SimCord use it)."""
        state = self._client._connection
        parse_with_discord_py: Callable[[Any], None] = state.parsers["INTERACTION_CREATE"]

        def parse(data: Any) -> None:
            if not self.route(data):
                parse_with_discord_py(data)

        state.parsers["INTERACTION_CREATE"] = parse

    def route(self, data: Any) -> bool:
        """Run the control a component interaction names; False leaves it to discord.py."""
        if data.get("type") != COMPONENT_INTERACTION:
            return False
        inner = data.get("data")
        message = data.get("message")
        if not isinstance(inner, dict) or not isinstance(message, dict):
            return False
        custom_id = inner.get("custom_id")
        if not isinstance(custom_id, str) or not custom_id.startswith(PREFIX):
            return False
        found = self._template_for(custom_id)
        component = carried_component(message, custom_id, inner.get("component_type"))
        if found is None or component is None:
            return False
        factory, match = found
        data["message"] = {key: message[key] for key in KEPT_MESSAGE_FIELDS if key in message}
        data["message"]["content"] = ""
        interaction: discord.Interaction = discord.Interaction(
            data=data, state=self._client._connection
        )
        # What the message shows is read from these only if a click needs it (a sub-menu
        # keeps the hand's pictures): Discord lists no attachment an embed or a component
        # shows, so a picture is found by its reference there (``attach.shown_pictures``).
        interaction.extras[SHOWN] = (message.get("components"), message.get("embeds"))
        task = asyncio.get_running_loop().create_task(
            self._run(factory, interaction, component, match)
        )
        self._running.add(task)
        task.add_done_callback(self._running.discard)
        self.routed += 1
        return True

    def _template_for(self, custom_id: str) -> tuple[Factory, re.Match[str]] | None:
        for pattern, factory in self._templates:
            match = pattern.fullmatch(custom_id)
            if match is not None:
                return factory, match
        return None

    async def _run(
        self,
        factory: Factory,
        interaction: discord.Interaction,
        component: dict[str, Any],
        match: re.Match[str],
    ) -> None:
        try:
            control = await factory.from_custom_id(interaction, clicked_item(component), match)
            control._refresh_state(interaction, interaction.data)  # type: ignore[arg-type]
            if await control.interaction_check(interaction):
                await control.callback(interaction)
        except Exception:
            log.exception("a click on %r failed", (interaction.data or {}).get("custom_id"))


BUTTON = 2
STRING_SELECT = 3


def clicked_item(component: dict[str, Any]) -> ui.Item[Any]:
    """The clicked component as the item its control is made from.

    A control reads only the item's custom_id (a select's chosen values come with the
    interaction), so a button or a select is made with its custom_id alone: rebuilding a
    select's options the way discord.py does took a click into a 12-entry sub-menu 36 µs.
    """
    kind = component.get("type")
    custom_id = component.get("custom_id")
    if kind == BUTTON:
        return ui.Button(custom_id=custom_id)
    if kind == STRING_SELECT:
        return ui.Select(custom_id=custom_id)
    return _component_to_item(_component_factory(component))  # type: ignore[arg-type]


def carried_component(
    message: dict[str, Any], custom_id: str, component_type: Any
) -> dict[str, Any] | None:
    """The clicked component as the message carries it, or None if it carries none such.

    discord.py drops a click whose message does not carry the control; ours is answered as a
    damaged control by ``GloryBot.on_interaction`` instead, so such a click is left to it."""
    for component in _components(message.get("components")):
        if component.get("custom_id") == custom_id and component.get("type") == component_type:
            return component
    return None


def _components(rows: Any) -> Iterator[dict[str, Any]]:
    if not isinstance(rows, list):
        return
    for row in rows:
        if not isinstance(row, dict):
            continue
        yield row
        yield from _components(row.get("components"))
