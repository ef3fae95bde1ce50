"""The game-over message in the house style of the table and the hands
(``bot/messages/game_over_layout``): one container, in the winner's colour, the scores under a label
saying they are the totals, and no footer line (the outbox recognises tables and hands by theirs).
Pictures: in tests/bot/test_pictures_messages.py."""

from __future__ import annotations

import random

import discord

from bot.i18n import t
from bot.render.layout import NEUTRAL_ACCENT, seat_accent
from tests.bot.driver import play_to_end, quick_game, texts
from tests.bot.test_game_over import game_over_messages


def containers(message: discord.Message) -> list[discord.components.Container]:
    return [c for c in message.components if isinstance(c, discord.components.Container)]


async def test_a_won_game_ends_in_one_container_in_the_winners_colour_with_labelled_totals(
    simcord_env,
) -> None:
    table = await quick_game(simcord_env)
    await play_to_end(table, random.Random(7))
    await table.bot.outbox.idle()
    [over] = game_over_messages(table)
    [box] = containers(over)
    assert len(over.components) == 1  # everything inside the one container
    winners = (await table.loaded()).view(None)["winners"]
    expected = seat_accent(winners[0]) if len(winners) == 1 else NEUTRAL_ACCENT
    assert box.accent_colour is not None and box.accent_colour.value == expected
    shown = texts(over)
    assert shown[0].startswith("### ")  # the title as the tables' and hands' headings
    label = t("over.scores.final", "en")
    [scores] = [text for text in shown if text.startswith(f"**{label}**")]
    assert "**1.**" in scores  # the places below the label
    assert not any(text.startswith("-# ") for text in shown)  # no table or hand footer


async def test_a_cancelled_game_labels_the_scores_as_they_stood_and_has_the_neutral_colour(
    simcord_env,
) -> None:
    table = await quick_game(simcord_env)
    await table.players[0].member.slash(table.channel, "cancel")
    await table.bot.outbox.idle()
    [over] = game_over_messages(table)
    [box] = containers(over)
    assert box.accent_colour is not None and box.accent_colour.value == NEUTRAL_ACCENT
    shown = "\n".join(texts(over))
    assert t("over.scores.stopped", "en") in shown
    assert t("over.scores.final", "en") not in shown
