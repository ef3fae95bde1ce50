"""Messages sent before the bot wrote Components V2 keep working after the upgrade.

A game running across the upgrade has a table and hand DMs in the old form: an embed with
classic action rows. Their controls carry the same custom_ids as before (``glory:m:…``,
``glory:hand:…``), and the first edit of each turns it into the new V2 message: Discord lets
an edit set IS_COMPONENTS_V2 when it also clears the old content and embeds (Edit Message,
``flags``), which ``render.layout.edit_fields`` always does. SimCord and the payload validator
refuse any other conversion, so these tests fail if one slips through.
"""

from __future__ import annotations

import random

import discord

from bot.i18n import t
from bot.render import presenter_for
from bot.render.common import shown_names, table_embed
from bot.render.layout import PrebuiltControls
from tests.bot.driver import (
    MENU_PREFIXES,
    components,
    current_table,
    footer_text,
    live_dm_hand,
    play_one_move,
    quick_game,
    texts,
    use_first_control,
    walk,
)

V2 = discord.MessageFlags(components_v2=True).value


def old_rows(message: discord.Message) -> list[dict]:
    """A message's controls as classic action rows (the JSON the bot sent before V2)."""
    rows = [c for c in walk(message.components) if isinstance(c, discord.components.ActionRow)]
    return [row.to_dict() for row in rows]


def is_v2(message: discord.Message) -> bool:
    return bool(message.flags.value & V2) and not message.embeds and not message.content


async def test_an_old_hand_dm_and_its_buttons_work_and_its_first_answer_makes_it_v2(
    simcord_env,
) -> None:
    table = await quick_game(simcord_env)
    loaded = await table.loaded()
    seat = loaded.state.to_move
    new = live_dm_hand(table, seat)
    assert new is not None and is_v2(new)
    # The same hand as the bot sent it before: an embed and the menu's rows, same custom_ids.
    embed = discord.Embed(title="Kami: hand", description="old hand")
    embed.set_footer(text=footer_text(new))
    channel = table.bot.get_partial_messageable(new.channel.id, type=discord.ChannelType.private)
    sent = await channel.send(embed=embed, view=PrebuiltControls(old_rows(new)))
    await table.bot.store.set_hand_message(
        loaded.id, seat, new.channel.id, sent.id, loaded.row.version
    )
    player = table.players[seat]
    old = next(m for m in player.user.dm_channel.history(viewer=player.user) if m.id == sent.id)
    assert old.embeds and not old.flags.value & V2
    ids = [c.custom_id for c in components(old) if (c.custom_id or "").startswith(MENU_PREFIXES)]
    assert ids and ids == [
        c.custom_id for c in components(new) if (c.custom_id or "").startswith(MENU_PREFIXES)
    ]
    before = loaded.row.version
    result = await use_first_control(player.user, old)  # the collapsed menu's select, mostly
    assert result.acknowledged and not result.ephemeral
    shown = next(m for m in player.user.dm_channel.history(viewer=player.user) if m.id == old.id)
    assert is_v2(shown), "the click's answer turned the old hand into the new message"
    moved = (await table.loaded()).row.version != before
    crumb = t("menu.breadcrumb", "en", path="")
    assert moved or any(crumb in text for text in texts(shown)), "a move or its sub-menu"


async def test_an_old_table_is_turned_into_the_new_one_by_the_next_move(simcord_env) -> None:
    table = await quick_game(simcord_env)
    loaded = await table.loaded()
    new = current_table(table)
    presenter = presenter_for(loaded.row.game_key)
    old_embed = table_embed(loaded, presenter, [], loaded.row.locale)
    channel = table.bot.get_partial_messageable(table.channel.id)
    sent = await channel.send(embed=old_embed, view=PrebuiltControls(old_rows(new)))
    await table.bot.store.set_message(loaded.id, table_message_id=sent.id)
    await new.delete()
    old = current_table(table)
    assert old.id == sent.id and old.embeds and not old.flags.value & V2
    # Its My hand button (an unchanged custom_id) still answers with the player's hand.
    player = table.players[0]
    hand = await player.member.click(old, custom_id=f"glory:hand:{table.game_id}")
    assert hand.ephemeral and is_v2(hand.response.message)
    await play_one_move(table, random.Random(1))
    edited = current_table(table)
    assert edited.id == sent.id and is_v2(edited), "the table was edited, not posted again"
    names = shown_names(await table.loaded())
    assert any(name in text for text in texts(edited) for name in names)
