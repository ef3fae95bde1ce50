"""The real bot process uploads its pictures to the emulator as multipart messages: the table
and the hand DMs carry a PNG as their embed's image, and a move's edit replaces the table's."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

from bot.loopback import Emulator
from bot.loopback.bot_process import glory_bot
from bot.loopback.payloads import ATTACHMENT_SIZE_LIMIT
from bot.loopback.ui_players import (
    gallery_urls,
    live_hand,
    open_and_start,
    play_until_version,
    shown_version,
)

from .test_glory_bot import assert_clean_log

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("bot.pictures") is None, reason="the pictures are not written yet"
)


def shows_picture(message, filename: str) -> bool:
    """The message uploads ``filename`` and shows it in one of its galleries (a hand may show
    the table too)."""
    files = [attachment["filename"] for attachment in message.attachments]
    return filename in files and f"attachment://{filename}" in gallery_urls(message)


async def test_table_and_hands_arrive_with_their_pictures(emulator: Emulator, tmp_path: Path):
    players = [emulator.add_actor(name) for name in ("alice", "bob", "carol")]
    async with glory_bot(emulator, tmp_path, {"PICTURES": "on"}) as bot:
        table = await open_and_start(emulator, players, "clans_and_glory")
        assert shows_picture(table.message, "table.png")
        size = next(a for a in table.message.attachments if a["filename"] == "table.png")["size"]
        assert 1_000 < size < min(150 * 1024, ATTACHMENT_SIZE_LIMIT)
        hands = [live_hand(player) for player in players]
        assert any(hand is not None and shows_picture(hand, "hand.png") for hand in hands)
        await play_until_version(table, 3, random.Random("pictures"))
        assert shows_picture(table.message, "table.png")  # replaced, not added to
        await assert_clean_log(bot, emulator)


async def test_without_attach_files_the_table_goes_without_its_picture_and_the_game_goes_on(
    emulator: Emulator, tmp_path: Path
):
    """A channel where the bot may not attach files (a server took Attach Files away):
    Discord refuses the table's upload (403 / 50013) once; the table is posted without its
    picture (the board in words), every later table of that channel goes without one (no
    refusal per move), the players' DMs keep theirs, and the game is played on."""
    emulator.channel.bot_may_attach = False
    players = [emulator.add_actor(name) for name in ("alice", "bob", "carol")]
    async with glory_bot(emulator, tmp_path, {"PICTURES": "on"}) as bot:
        table = await open_and_start(emulator, players, "clans_and_glory")
        assert table.message.attachments == []
        assert table.message.author_id == emulator.bot_user.id
        hands = [live_hand(player) for player in players]
        assert any(hand is not None and shows_picture(hand, "hand.png") for hand in hands)
        await play_until_version(table, 4, random.Random("no-attach"))
        await emulator.wait_for(
            lambda: shown_version(table.current_message()) == table.version() >= 4,
            timeout=15,
            what="the table showing the last move",
        )
        assert table.current_message().attachments == []
        refused = [call for call in emulator.rest_calls if call.status == 403]
        assert [(c.method, c.path) for c in refused] == [
            ("POST", f"/channels/{emulator.channel.id}/messages")
        ]
        await assert_clean_log(bot, emulator)
