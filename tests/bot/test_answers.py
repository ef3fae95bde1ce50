"""How a click's answer reaches Discord (``bot/interactions/answers.py``).

An update of the clicked message is discord.py's ``edit_message`` without ``with_response``:
these tests pin that the message still changes, that discord.py still counts the interaction
as answered, and that the discord.py helpers the update is built on still exist as used.
"""

from __future__ import annotations

import inspect
import random
import re

import discord
from discord.webhook.async_ import AsyncWebhookAdapter, interaction_message_response_params

import bot.interactions.answers
from tests.bot.driver import play_one_move, quick_game, table_version

CALLBACK = re.compile(r"/interactions/\d+/[^/]+/callback$")


async def test_a_click_edits_its_message_without_asking_for_it_back(
    simcord_env, monkeypatch
) -> None:
    answered: list[discord.InteractionResponseType | None] = []
    edit = bot.interactions.answers.edit_clicked_message

    async def recorded(interaction: discord.Interaction, **content: object) -> None:
        await edit(interaction, **content)
        # What discord.py knows of the answer (the click drops its response object after).
        done = interaction.response.is_done()
        answered.append(interaction.response.type if done else None)

    monkeypatch.setattr(bot.interactions.answers, "edit_clicked_message", recorded)
    table = await quick_game(simcord_env, players=3)
    move = table_version(table)
    await play_one_move(table, random.Random(3))  # asserts that the hand message changed
    assert table_version(table) == move + 1
    assert answered, "no click was answered by an update"
    assert set(answered) == {discord.InteractionResponseType.message_update}
    updates = [
        request
        for request in simcord_env.http_requests
        if CALLBACK.search(request.path) and (request.json or {}).get("type") == 7
    ]
    assert len(updates) == len(answered)
    assert all(not request.params.get("with_response") for request in updates)


def test_the_discord_py_helpers_an_update_is_built_on_are_still_there() -> None:
    accepted = set(inspect.signature(interaction_message_response_params).parameters)
    assert (
        bot.interactions.answers.UPDATE_FIELDS | {"type", "previous_allowed_mentions"} <= accepted
    )
    request = inspect.signature(AsyncWebhookAdapter.request).parameters
    assert {"payload", "multipart", "files", "proxy", "proxy_auth"} <= set(request)
    assert "_response_type" in inspect.getsource(discord.InteractionResponse.is_done)
