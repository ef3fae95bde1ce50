"""Pictures arrive with the messages through SimCord: the table, the hand DM, the ephemeral
hand and ``/scores`` carry a PNG shown as the embed's image; a move's edit replaces the
table's picture; ``/settings images off`` and ``/pictures hand:off`` leave text only."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import discord
import pytest

from bot.i18n import t
from bot.interactions.answers import Answer
from bot.pictures import service
from bot.pictures.scene import HandScene, plain
from bot.render import presenter_for
from tests.bot.conftest import make_bot
from tests.bot.driver import (
    current_table,
    layout_texts,
    live_dm_hand,
    message_text,
    new_table,
    open_lobby,
    play_one_move,
    play_to_end,
    quick_game,
    start,
    table_version,
    use_first_control,
    walk,
)
from tests.bot.test_game_over import game_over_messages


@pytest.fixture
def simcord_bot(database_url):
    """The bot with its pictures on, as every server has them by default."""
    return make_bot(database_url, pictures=True)


def gallery_files(message: Any) -> list[str]:
    """The file names a V2 message's galleries show, in order."""
    message = getattr(message, "message", message)
    return [
        item.media.url.split("?")[0].rsplit("/", 1)[-1]
        for component in walk(message.components)
        if isinstance(component, discord.components.MediaGalleryComponent)
        for item in component.items
    ]


def picture(message: Any, filename: str) -> bool:
    """The message carries ``filename`` and shows it in a gallery (a hand may show the table
    too; an embed's image no longer: the table and the hands are V2 messages)."""
    message = getattr(message, "message", message)
    names = [attachment.filename for attachment in message.attachments]
    return filename in names and filename in gallery_files(message)


def embed_picture(message: Any, filename: str) -> bool:
    """The message carries exactly ``filename``, shown as its embed's image (``/scores``)."""
    names = [attachment.filename for attachment in message.attachments]
    image = message.embeds[0].image.url if message.embeds and message.embeds[0].image else None
    return names == [filename] and image is not None and image.endswith(filename)


def alt_texts(message: Any) -> list[str]:
    message = getattr(message, "message", message)
    return [
        item.description or ""
        for component in walk(message.components)
        if isinstance(component, discord.components.MediaGalleryComponent)
        for item in component.items
    ]


async def test_table_and_hand_dm_carry_their_pictures(simcord_env) -> None:
    table = await quick_game(simcord_env)
    shown = current_table(table)
    assert picture(shown, "table.png")
    assert shown.attachments[0].size > 1000
    seat = (await table.loaded()).state.to_move
    dm = live_dm_hand(table, seat)
    assert dm is not None and picture(dm, "hand.png")
    first = shown.attachments[0].id
    await play_one_move(table, random.Random(1))
    edited = current_table(table)
    assert picture(edited, "table.png") and edited.attachments[0].id != first  # replaced


async def test_the_ephemeral_hand_carries_its_picture(simcord_env) -> None:
    table = await quick_game(simcord_env)
    player = table.players[0]
    result = await player.member.click(
        current_table(table), custom_id=f"glory:hand:{table.game_id}"
    )
    assert result.ephemeral and picture(result.response, "hand.png")


async def test_scores_carry_no_chart_before_a_round_is_scored_and_one_after(simcord_env) -> None:
    """``/scores`` in the first round has nothing to draw: no chart (not an empty one)."""
    table = await quick_game(simcord_env)
    player = table.players[0]
    scores = await player.member.slash(table.channel, "scores")
    assert scores.ephemeral and scores.response.attachments == []
    assert not scores.response.embeds[0].image
    rng = random.Random(5)
    for _ in range(400):  # until the first round is scored
        loaded = await table.loaded()
        if loaded.state.view(None)["round_scores"] or loaded.state.is_over:
            break
        await play_one_move(table, rng)
    scores = await player.member.slash(table.channel, "scores")
    assert scores.ephemeral and embed_picture(scores.response, "scores.png")  # still an embed


async def test_images_off_for_the_server_and_for_a_hand_leave_text_only(simcord_env) -> None:
    table = await quick_game(simcord_env)
    role = table.guild.create_role("managers", permissions=discord.Permissions(manage_guild=True))
    manager = table.guild.add_member(table.env.create_user("manager"), roles=[role])
    answer = await manager.slash(table.channel, "settings images", shown="off")
    assert answer.ephemeral
    await play_one_move(table, random.Random(2))
    edited = current_table(table)
    assert edited.attachments == [] and gallery_files(edited) == []
    loaded = await table.loaded()
    board = presenter_for("kami").table_lines(loaded.view(None), loaded.names, "en")
    assert board[0] in message_text(edited)  # without its picture, the text is all there
    await manager.slash(table.channel, "settings images", shown="on")
    player = table.players[1]
    await player.member.slash(table.channel, "pictures", hand="off")
    result = await player.member.click(
        current_table(table), custom_id=f"glory:hand:{table.game_id}"
    )
    assert result.ephemeral and result.response.attachments == []


async def test_the_final_table_comes_with_the_score_chart(simcord_env) -> None:
    table = await quick_game(simcord_env)
    await play_to_end(table, random.Random(3))
    final = current_table(table)
    assert [a.filename for a in final.attachments] == ["table.png", "scores.png"]
    assert gallery_files(final) == ["table.png", "scores.png"]
    assert "The game is over" in message_text(final)


async def test_the_game_over_message_shows_the_final_chart_with_the_totals_as_alt_text(
    simcord_env,
) -> None:
    table = await quick_game(simcord_env)
    await play_to_end(table, random.Random(3))
    await table.bot.outbox.idle()
    [over] = game_over_messages(table)
    assert [a.filename for a in over.attachments] == ["scores.png"]
    assert gallery_files(over) == ["scores.png"]
    [alt] = alt_texts(over)
    loaded = await table.loaded()
    assert alt.startswith(t("pictures.alt.chart", "en", game="Kami"))
    for name, points in zip(loaded.names, loaded.view(None)["scores"], strict=True):
        assert f"{name} {points} point" in alt  # the totals in words


async def test_the_game_over_message_has_no_picture_where_the_server_turned_them_off(
    simcord_env,
) -> None:
    table = await quick_game(simcord_env)
    role = table.guild.create_role("managers", permissions=discord.Permissions(manage_guild=True))
    manager = table.guild.add_member(table.env.create_user("manager"), roles=[role])
    await manager.slash(table.channel, "settings images", shown="off")
    await play_to_end(table, random.Random(3))
    await table.bot.outbox.idle()
    [over] = game_over_messages(table)
    assert over.attachments == [] and gallery_files(over) == []
    assert t("over.scores.final", "en") in message_text(over)


async def test_a_sub_menu_click_keeps_the_hand_picture_without_sending_it_again(
    simcord_env,
) -> None:
    # Clans and Glory: a card first, then its board and seat (the other games' decisions
    # mostly fit one control now, bot/messages/menu_layout.py).
    table = new_table(simcord_env, 3)
    await open_lobby(table, "clans_and_glory")
    await start(table)
    rng = random.Random(4)
    for _ in range(12):  # until the player on turn has a menu with a second level
        seat = (await table.loaded()).state.to_move
        dm = live_dm_hand(table, seat)
        before = table_version(table)
        result = await use_first_control(table.players[seat].user, dm)
        if table_version(table) == before:  # a sub-menu opened: nothing was played
            shown = result.response
            assert picture(shown, "hand.png") and picture(shown, "table.png")
            kept = {a.filename: a.id for a in shown.attachments}
            sent = {a.filename: a.id for a in dm.attachments}
            assert kept == sent  # neither picture uploaded again
            return
        await play_one_move(table, rng)
    pytest.fail("no sub-menu in 12 moves")


async def test_a_move_draws_the_movers_new_hand_while_the_move_is_being_stored(
    simcord_env, monkeypatch
) -> None:
    """The answer to a move shows the mover's new hand; its picture is handed to the worker
    before the commit ends, not after it (a move that leaves the hand as it was draws
    nothing new)."""
    table = await quick_game(simcord_env)
    bot = table.bot
    committed = [False]
    drawn: list[tuple[bool, int, tuple]] = []  # (after the commit?, seat, cards)
    submit = bot.publisher.pictures.workers.submit

    def recorded_submit(lane, draw, scene, **kwargs):
        if isinstance(scene, HandScene):
            drawn.append((committed[0], scene.view["seat"], tuple(scene.view["hand"])))
        return submit(lane, draw, scene, **kwargs)

    commit_move = bot.store.commit_move

    async def slow_commit(*args, **kwargs):
        await asyncio.sleep(0.2)  # a slow database: the drawing must not wait for it
        try:
            return await commit_move(*args, **kwargs)
        finally:
            committed[0] = True

    monkeypatch.setattr(bot.publisher.pictures.workers, "submit", recorded_submit)
    monkeypatch.setattr(bot.store, "commit_move", slow_commit)
    rng = random.Random(5)
    new_pictures = 0
    for _ in range(8):
        mover = (await table.loaded()).state.to_move
        committed[0] = False
        drawn.clear()
        await play_one_move(table, rng)
        after = tuple((await table.loaded()).view(mover)["hand"])
        movers = [(late, cards) for late, seat, cards in drawn if seat == mover]
        if movers:  # the mover's picture changed (its cards, or what it may play)
            new_pictures += 1
            assert movers == [(False, after)]
    assert new_pictures > 0
    dm = live_dm_hand(table, (await table.loaded()).state.to_move)
    assert dm is not None and picture(dm, "hand.png")


@pytest.mark.logs_errors
async def test_a_hand_that_cannot_be_drawn_ahead_does_not_hold_the_move_up(
    simcord_env, monkeypatch, caplog
) -> None:
    table = await quick_game(simcord_env)

    def broken(*args, **kwargs):
        raise RuntimeError("no picture today")

    monkeypatch.setattr(service, "_hand_request", broken)
    before = table_version(table)
    await play_one_move(table, random.Random(6))
    assert table_version(table) != before  # the move was stored and shown
    assert "could not be drawn ahead" in caplog.text  # and the answer went without its picture


async def test_a_move_whose_new_hand_picture_is_late_is_answered_without_it_and_the_dm_gets_it(
    simcord_env, monkeypatch
) -> None:
    """Past its budget the answer to a move shows the hand as text (whether a picture is late
    is ``tests/pictures/test_service.py``'s; SimCord's clock would not let it be late here);
    the courier then brings the hand DM up to date with the picture."""
    table = await quick_game(simcord_env)
    pictures = table.bot.publisher.pictures
    within = pictures._hand_png_within

    async def late_for_answers(loaded, seat, locale, budget, urgent):
        png, complete = await within(loaded, seat, locale, budget, urgent)
        return (None, False) if budget is not None else (png, complete)

    answers: list[dict] = []
    update = Answer.update

    async def recorded_update(self, **content):
        answers.append(content)
        return await update(self, **content)

    monkeypatch.setattr(pictures, "_hand_png_within", late_for_answers)
    monkeypatch.setattr(Answer, "update", recorded_update)
    mover = (await table.loaded()).state.to_move
    dm = live_dm_hand(table, mover)
    assert dm is not None and picture(dm, "hand.png")
    before = table_version(table)
    await play_one_move(table, random.Random(7))
    assert table_version(table) != before
    moved = answers[-1]  # the answer to the click that made the move, in the DM
    assert "hand.png" not in [file.filename for file in moved["attachments"]]
    assert "hand.png" not in [picture.filename for picture in moved["view"].pictures]
    cards = presenter_for("kami").hand_cards(
        (await table.loaded()).view(mover), (await table.loaded()).names, "en"
    )
    assert cards[0] in "\n".join(layout_texts(moved["view"]))  # the hand, in words
    await table.bot.outbox.idle()
    player = table.players[mover].user
    hand = next(m for m in player.dm_channel.history(viewer=player) if m.id == dm.id)
    assert picture(hand, "hand.png")  # the courier showed the new hand with its picture
    assert plain(cards[0]) in "\n".join(alt_texts(hand))  # its words went to the alt text
