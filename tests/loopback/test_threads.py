"""Games in Discord threads: the emulator's public threads, and Glory played inside one.

Why: ``/play`` promises to work "in a text channel (or thread)", and SimCord cannot create
threads. A thread is a channel of its own (type 11, with a ``parent_id``): the bot must post
the lobby and the table in the thread, not in its parent, and a game in the thread must not
make the parent channel busy (nor the other way round).
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import discord
import pytest

from .bot_process import bot_process
from .conftest import running_reference_bot
from .emulator import Channel, Emulator, Message
from .emulator.interactions import APPLICATION_COMMAND
from .test_glory_bot import GLORY_BOT, assert_clean_log, database_url
from .ui_players import has_hand_button, open_and_start, play_until_version

glory_bot_exists = pytest.mark.skipif(
    importlib.util.find_spec("bot.app") is None, reason="the bot is not written yet"
)


def bot_posts(emulator: Emulator, channel: Channel) -> list[Message]:
    """What everyone in ``channel`` can see from the bot (ephemeral answers left out)."""
    return [
        m
        for m in emulator.messages_in(channel)
        if m.author_id == emulator.bot_user.id and not m.ephemeral
    ]


def has_join_button(message: Message) -> bool:
    return any(c.get("label") == "Join" for c in message.iter_components())


async def test_discord_py_sees_threads_from_guild_create_and_thread_create(
    emulator: Emulator,
) -> None:
    """The emulator's thread payloads are complete for discord.py 2.7.1: a thread that existed
    at login (GUILD_CREATE ``threads``) and one created later (THREAD_CREATE) are both cached
    as ``discord.Thread`` under their parent, interactions in them carry the thread as their
    channel, and the bot's posts and edits land in the thread."""
    alice = emulator.add_actor("alice")
    older = await emulator.add_thread("before login", owner=alice.user)
    async with running_reference_bot(emulator) as running:
        bot = running.bot
        newer = await emulator.add_thread("after login", owner=alice.user)
        await emulator.wait_for(
            lambda: bot.get_channel(newer.id) is not None, what="THREAD_CREATE to be parsed"
        )
        parent = bot.get_channel(emulator.channel.id)
        assert isinstance(parent, discord.TextChannel)
        for thread in (older, newer):
            cached = bot.get_channel(thread.id)
            assert isinstance(cached, discord.Thread)
            assert (cached.parent, cached.owner_id, cached.name) == (
                parent,
                alice.user.id,
                thread.name,
            )
            assert cached.type is discord.ChannelType.public_thread and not cached.archived
        assert {t.id for t in parent.threads} == {older.id, newer.id}

        channels_seen: list[object] = []

        async def remember_channel(interaction: discord.Interaction) -> None:
            channels_seen.append(interaction.channel)

        bot.add_listener(remember_channel, "on_interaction")
        pong = await (await alice.slash("ping", channel=newer)).settled()
        assert pong.channel_id == newer.id and pong.content == "pong"
        await (await alice.slash("announce", channel=newer, text="hello thread")).settled()
        announced = await emulator.wait_for(
            lambda: next(
                (m for m in bot_posts(emulator, newer) if m.content == "hello thread (edited)"),
                None,
            ),
            what="the announcement posted and edited in the thread",
        )
        assert channels_seen == [bot.get_channel(newer.id)] * 2
        assert emulator.calls("PATCH", f"/channels/{newer.id}/messages/{announced.id}")
        assert emulator.messages_in(emulator.channel) == []

        fetched = await bot.fetch_channel(newer.id)
        assert isinstance(fetched, discord.Thread) and fetched.parent_id == parent.id
        assert fetched.message_count == 2  # pong and the announcement; the ephemeral is not
        assert emulator.unhandled == []


@glory_bot_exists
async def test_glory_is_played_in_a_thread(emulator: Emulator, tmp_path: Path) -> None:
    """The real bot process: a lobby and a game inside a thread created while it runs, moves
    edit the table in the thread, a second ``/play`` there is refused with the "busy" notice,
    and ``/play`` in the parent channel still opens its own lobby."""
    from bot.i18n import t

    alice, bob, carol, dave = (emulator.add_actor(n) for n in ("alice", "bob", "carol", "dave"))
    async with bot_process(
        emulator, tmp_path / "bot.log", argv=GLORY_BOT, database_url=database_url(tmp_path)
    ) as bot:
        thread = await emulator.add_thread("kami night", owner=alice.user)
        table = await open_and_start(emulator, [alice, bob, carol], "kami", channel=thread)

        play = next(
            r
            for r in emulator.interactions.values()
            if r.type == APPLICATION_COMMAND and r.channel_id == thread.id
        )
        lobby = play.response_message
        assert lobby is not None and not lobby.ephemeral
        assert lobby.channel_id == thread.id
        assert table.message.channel_id == thread.id
        assert bot_posts(emulator, emulator.channel) == []

        edits_before = len(table.message.history)
        start = table.version()
        await play_until_version(table, start + 3, random.Random("thread"))
        assert len(table.message.history) > edits_before, "moves did not edit the table"
        assert table.running and table.message.channel_id == thread.id
        assert emulator.calls("PATCH", f"/channels/{thread.id}/messages/{table.message.id}")
        tables = [m for m in bot_posts(emulator, thread) if has_hand_button(m)]
        assert tables == [table.message]

        refused = await (await dave.slash("play", game="kami", channel=thread)).settled(timeout=10)
        assert refused.ephemeral and refused.channel_id == thread.id
        assert refused.content == t("play.busy", "en-US")

        parent_play = await dave.slash("play", game="kami", channel=emulator.channel)
        parent_lobby = await parent_play.settled(timeout=10)
        assert not parent_lobby.ephemeral and has_join_button(parent_lobby)
        assert bot_posts(emulator, emulator.channel) == [parent_lobby]
        assert table.running, "a lobby in the parent channel disturbed the thread's game"
        await assert_clean_log(bot, emulator)
