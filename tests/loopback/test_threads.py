"""Games in Discord threads: the emulator's public threads, and Glory played inside one.

Why: ``/play`` promises to work "in a text channel (or thread)", and SimCord cannot create
threads. A thread is a channel of its own (type 11, with a ``parent_id``): the bot must post
the lobby and the table in the thread, not in its parent, and a game in the thread must not
make the parent channel busy (nor the other way round).
"""

from __future__ import annotations

import contextlib
import importlib.util
import random
import sqlite3
from pathlib import Path

import discord
import pytest

from bot.loopback import Channel, Emulator, Message
from bot.loopback.bot_process import glory_bot
from bot.loopback.interactions import APPLICATION_COMMAND
from bot.loopback.ui_players import (
    MENU_ID,
    Table,
    footer_text,
    has_hand_button,
    open_and_start,
    play_until_version,
)

from .conftest import running_reference_bot
from .test_glory_bot import assert_clean_log

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


def game_id_of(table: Table) -> int:
    """The game id in the players' menus (``glory:m:<game>:...``)."""
    ids = {
        int(match["game"])
        for player in table.players
        for message in player.dms
        for component in message.iter_components()
        if (match := MENU_ID.match(component["custom_id"]))
    }
    assert len(ids) == 1, ids
    return ids.pop()


def newest_table(emulator: Emulator, channel: Channel) -> Message | None:
    """The newest bot post in ``channel`` that carries "My hand": the live table."""
    tables = [m for m in bot_posts(emulator, channel) if has_hand_button(m)]
    return tables[-1] if tables else None


def footer(message: Message | None) -> str:
    return "" if message is None else footer_text(message)


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


async def test_archived_thread_refuses_changes_with_50083_until_a_bot_post_unarchives_it(
    emulator: Emulator,
) -> None:
    """Discord's rules for an archived thread, as discord.py 2.7.1 meets them: archiving sends
    THREAD_UPDATE (discord.py drops the thread from its cache), editing or deleting a message
    there raises ``HTTPException`` 400 / 50083 and changes nothing, and a message the bot
    sends unarchives the thread (THREAD_UPDATE, cached again) so edits work again. A locked
    archived thread refuses the bot's message as well and stays archived."""
    alice = emulator.add_actor("alice")
    async with running_reference_bot(emulator) as running:
        bot = running.bot
        thread = await emulator.add_thread("to be archived", owner=alice.user)
        await emulator.wait_for(
            lambda: isinstance(bot.get_channel(thread.id), discord.Thread),
            what="THREAD_CREATE to be parsed",
        )
        archived_flags: list[bool] = []

        async def remember_update(payload: discord.RawThreadUpdateEvent) -> None:
            archived_flags.append(payload.data["thread_metadata"]["archived"])

        bot.add_listener(remember_update, "on_raw_thread_update")
        posted = await bot.get_partial_messageable(thread.id).send("first")

        await emulator.archive_thread(thread)
        await emulator.wait_for(lambda: archived_flags == [True], what="THREAD_UPDATE archived")
        assert bot.get_channel(thread.id) is None, "discord.py keeps only active threads"
        fetched = await bot.fetch_channel(thread.id)
        assert isinstance(fetched, discord.Thread) and fetched.archived and not fetched.locked
        for change in (posted.edit(content="edited"), posted.delete()):
            with pytest.raises(discord.HTTPException) as refused:
                await change
            assert (refused.value.status, refused.value.code) == (400, 50083)
        assert [m.content for m in emulator.messages_in(thread)] == ["first"]

        await bot.get_partial_messageable(thread.id).send("revived")
        assert not thread.archived
        await emulator.wait_for(
            lambda: archived_flags == [True, False], what="THREAD_UPDATE unarchived"
        )
        await emulator.wait_for(
            lambda: isinstance(bot.get_channel(thread.id), discord.Thread),
            what="the unarchived thread back in discord.py's cache",
        )
        await posted.edit(content="edited")
        assert [m.content for m in emulator.messages_in(thread)] == ["edited", "revived"]

        await emulator.archive_thread(thread, locked=True)
        with pytest.raises(discord.HTTPException) as refused:
            await bot.get_partial_messageable(thread.id).send("locked out")
        assert (refused.value.status, refused.value.code) == (400, 50083)
        assert thread.archived and thread.locked
        assert [m.content for m in emulator.messages_in(thread)] == ["edited", "revived"]
        assert emulator.unhandled == []


@glory_bot_exists
async def test_glory_is_played_in_a_thread(emulator: Emulator, tmp_path: Path) -> None:
    """The real bot process: a lobby and a game inside a thread created while it runs, moves
    edit the table in the thread, a second ``/play`` there is refused with the "busy" notice,
    and ``/play`` in the parent channel still opens its own lobby."""
    from bot.i18n import t

    alice, bob, carol, dave = (emulator.add_actor(n) for n in ("alice", "bob", "carol", "dave"))
    async with glory_bot(emulator, tmp_path) as bot:
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
        # The courier edits the table once its picture is drawn: wait for it, do not race it.
        await emulator.wait_for(
            lambda: len(table.message.history) > edits_before,
            timeout=10,
            what="moves editing the table",
        )
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


@glory_bot_exists
async def test_a_move_after_the_thread_was_archived_reposts_the_table_there(
    emulator: Emulator, tmp_path: Path
) -> None:
    """The thread of a running game is archived (by a moderator or Discord's inactivity timer),
    so editing the table there fails with 50083. The players' hands are in DMs and they play
    on; the bot must still show the current state in the thread: it posts the table anew,
    which unarchives the thread, and retires the old table (no controls left on it)."""
    from bot.i18n import t

    alice, bob, carol = (emulator.add_actor(n) for n in ("alice", "bob", "carol"))
    rng = random.Random("archived")
    async with glory_bot(emulator, tmp_path) as bot:
        thread = await emulator.add_thread("kami night", owner=alice.user)
        table = await open_and_start(emulator, [alice, bob, carol], "kami", channel=thread)
        game_id = game_id_of(table)
        await play_until_version(table, table.version() + 2, rng)
        old_table = table.message
        await emulator.archive_thread(thread)

        await play_until_version(table, table.version() + 1, rng)
        now = table.version()
        current = t("table.footer", "en-US", id=game_id, move=now - 1)  # moves: the deal is 1
        await emulator.wait_for(
            lambda: footer(newest_table(emulator, thread)) == current,
            timeout=10,
            what=f"a table in the thread showing {current!r}",
        )
        new_table = newest_table(emulator, thread)
        assert new_table is not None and new_table.id != old_table.id
        assert not thread.archived, "posting the table should have unarchived the thread"
        old_table_edits = f"/channels/{thread.id}/messages/{old_table.id}"
        await emulator.wait_for(
            lambda: [c.status for c in emulator.calls("PATCH", old_table_edits)][-2:] == [400, 200],
            what="the old table's edit refused (50083), then the old table retired",
        )
        assert not list(old_table.iter_components()), "the old table still has controls"
        assert [m for m in bot_posts(emulator, thread) if has_hand_button(m)] == [new_table]
        assert bot_posts(emulator, emulator.channel) == []

        # Play goes on with the new table, edited in place like before.
        assert table.current_message() is new_table
        edits_before = len(new_table.history)
        await play_until_version(table, now + 1, rng)
        following = t("table.footer", "en-US", id=game_id, move=table.version() - 1)
        await emulator.wait_for(
            lambda: footer(newest_table(emulator, thread)) == following,
            timeout=10,
            what=f"the new table edited to {following!r}",
        )
        assert newest_table(emulator, thread) is new_table
        assert len(new_table.history) > edits_before
        await assert_clean_log(bot, emulator)


def stored_lobby_message(tmp_path: Path) -> int | None:
    """The lobby message id the bot stored for its newest game (read from its SQLite file)."""
    with contextlib.closing(sqlite3.connect(tmp_path / "glory.db")) as database:
        row = database.execute("SELECT lobby_message_id FROM games ORDER BY id DESC").fetchone()
    return None if row is None else row[0]


@glory_bot_exists
async def test_a_lobby_redrawn_after_its_thread_was_archived_is_posted_there_again(
    emulator: Emulator, tmp_path: Path
) -> None:
    """A lobby waits in a thread that gets archived; ``/settings language`` (run in the parent
    channel) redraws open lobbies, and editing the archived one fails with 50083. The bot posts
    the lobby anew in the thread (unarchiving it) in the new language, and that lobby works:
    players join there and the host starts the game from it."""
    from bot.i18n import t
    from bot.render import presenter_for

    alice, bob, carol = (emulator.add_actor(n) for n in ("alice", "bob", "carol"))
    async with glory_bot(emulator, tmp_path) as bot:
        thread = await emulator.add_thread("kami later", owner=alice.user)
        play = await alice.slash("play", game="kami", channel=thread)
        old_lobby = await play.settled(timeout=10)
        assert has_join_button(old_lobby) and old_lobby.channel_id == thread.id
        # The bot stores the lobby's message id just after answering; a redraw before that
        # has no lobby message to redraw.
        await emulator.wait_for(
            lambda: stored_lobby_message(tmp_path) == old_lobby.id,
            timeout=10,
            what="the bot to store its lobby message",
        )
        old_title = old_lobby.embeds[0]["title"]
        await emulator.archive_thread(thread)

        saved = await (await alice.slash("settings language", language="de")).settled(timeout=10)
        assert saved.ephemeral and saved.channel_id == emulator.channel.id
        german = t("lobby.title", "de", game=presenter_for("kami").game_name("de"))
        new_lobby = await emulator.wait_for(
            lambda: next(
                (m for m in bot_posts(emulator, thread) if m.embeds[0].get("title") == german),
                None,
            ),
            timeout=10,
            what="the lobby posted again in the thread, in German",
        )
        assert new_lobby.id != old_lobby.id
        assert not thread.archived, "posting the lobby should have unarchived the thread"
        assert old_lobby.embeds[0]["title"] == old_title, "the archived lobby was changed"
        assert [c.status for c in emulator.calls("PATCH", f"/messages/{old_lobby.id}")] == [400]
        assert bot_posts(emulator, emulator.channel) == []

        join = next(c for c in new_lobby.iter_components() if ":join:" in c["custom_id"])
        start = next(c for c in new_lobby.iter_components() if ":start:" in c["custom_id"])
        for guest in (bob, carol):
            await (await guest.click(new_lobby, custom_id=join["custom_id"])).response(timeout=10)
        await (await alice.click(new_lobby, custom_id=start["custom_id"])).response(timeout=10)
        await emulator.wait_for(
            lambda: any(has_hand_button(m) for m in bot_posts(emulator, thread)),
            timeout=10,
            what="the table of the game started from the re-posted lobby",
        )
        await assert_clean_log(bot, emulator)
