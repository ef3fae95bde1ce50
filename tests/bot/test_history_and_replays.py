"""``/history``, ``/replay`` and ``/standings`` by rating through SimCord and the real bot: a
finished game is listed and replays move by move to the table it ended with, the export
holds the game, abandoned games, pages at their boundaries, the hands setting, and every bad
input answered without a change."""

from __future__ import annotations

import json
import random
import re
from datetime import timedelta
from typing import Any

import discord
import pytest
import simcord
from sqlmodel import select

from bot.i18n import t
from bot.messages.history import PER_PAGE
from bot.ratings.board import PER_PAGE as BOARD_PAGE
from bot.ratings.tables import RatingRow
from bot.render import presenter_for
from bot.render.common import log_lines, safe_names
from bot.storage.models import GameRow, GameStatus, MoveRow, ResultRow, SeatRow, utcnow
from bot.storage.repository import OPENING_SEAT
from games import REGISTRY
from tests.bot.driver import (
    current_table,
    message_text,
    new_table,
    open_lobby,
    play_one_move,
    play_to_end,
    quick_game,
    start,
)
from tests.bot.forge import forged_click

FOOTER = re.compile(r"^Move (\d+) of (\d+), round (\d+)$")
PAGE = re.compile(r"Page (\d+) of (\d+)")


def ids(message: Any) -> list[str]:
    rows = message.components if hasattr(message, "components") else []
    found = []
    for row in rows:
        for child in row.get("components", []) if isinstance(row, dict) else row.children:
            custom_id = child.get("custom_id") if isinstance(child, dict) else child.custom_id
            if custom_id:
                found.append(custom_id)
    return found


def button(message: Any, suffix: str) -> str:
    return next(custom_id for custom_id in ids(message) if custom_id.endswith(suffix))


def footer_of(message: Any) -> tuple[int, int, int]:
    found = FOOTER.match(message.embeds[0].footer.text)
    assert found, message.embeds[0].footer.text
    return int(found[1]), int(found[2]), int(found[3])


async def store_game(
    env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    key: str,
    players: int,
    seed: int,
    *,
    status: GameStatus = GameStatus.FINISHED,
    user_ids: list[int] | None = None,
    stop_after: int | None = None,
) -> int:
    """A game played by random legal moves, stored as the bot stores one; its id."""
    game = REGISTRY[key]
    rng = random.Random(seed)
    state = game.new_state(players, seed, {})
    moves = [
        MoveRow(
            game_id=0,
            version=1,
            seat=OPENING_SEAT,
            action={"kind": "opening"},
            events=state.opening_events,
        )
    ]
    while not state.is_over and (stop_after is None or len(moves) <= stop_after):
        seat = state.to_move
        action = rng.choice(state.legal_actions())
        events = state.apply(action)
        moves.append(
            MoveRow(
                game_id=0, version=len(moves) + 1, seat=seat, action=action.to_json(), events=events
            )
        )
    users = user_ids or [10_000 + seat for seat in range(players)]
    async with env.bot.store.session() as session:
        row = GameRow(
            guild_id=guild.id,
            channel_id=channel.id,
            host_id=users[0],
            game_key=key,
            options={},
            status=status,
            version=len(moves) + 1,
            seed=seed,
            state=state.to_json(),
        )
        session.add(row)
        await session.flush()
        assert row.id is not None
        for seat in range(players):
            session.add(
                SeatRow(
                    game_id=row.id, seat=seat, user_id=users[seat], display_name=f"player{seat}"
                )
            )
            session.add(
                ResultRow(
                    game_id=row.id,
                    seat=seat,
                    guild_id=guild.id,
                    game_key=key,
                    user_id=users[seat],
                    score=state.scores[seat],
                    won=seat in state.winners,
                    outcome=status.value,
                )
            )
        for move in moves:
            move.game_id = row.id
            session.add(move)
        await session.commit()
        return row.id


# ---------------------------------------------------------------- the whole way, as players do


async def test_a_finished_game_is_in_the_history_and_its_replay_walks_to_the_end(
    simcord_env,
) -> None:
    table = await quick_game(simcord_env)
    loaded = await play_to_end(table, random.Random(5))
    reader = table.players[1].member
    listed = await reader.slash(table.channel, "history")
    assert listed.ephemeral
    text = message_text(listed.response.message)
    assert f"#{loaded.id} Kami" in text.replace("**", "")
    winners = ", ".join(loaded.names[seat] for seat in loaded.state.winners)
    assert winners in text and "moves in" in text

    shown = await reader.slash(table.channel, "replay", game=loaded.id)
    assert shown.ephemeral
    message = shown.response
    position, last, _ = footer_of(message)
    assert position == 0 and last == await table.bot.store.move_count(loaded.id) - 1
    assert message.embeds[0].title == f"Replay: Kami, game #{loaded.id}"
    async with table.bot.store.session() as session:
        stored = (
            await session.exec(
                select(MoveRow).where(MoveRow.game_id == loaded.id).order_by(MoveRow.version)
            )
        ).all()
    presenter, names = presenter_for("kami"), safe_names(loaded.names)
    for expected in range(1, last + 1):
        result = await reader.click(message.message, custom_id=button(message, ":next"))
        assert result.response.id == message.id, "a step edits the replay in place"
        message = result.response
        assert footer_of(message)[0] == expected
        log = next(f.value for f in message.embeds[0].fields if f.name == t("table.log", "en"))
        for line in log_lines(presenter, [stored[expected].events], names, "en"):
            assert line in log
    final_table = message_text(current_table(table))
    replayed = [line for line in message.embeds[0].description.splitlines() if line]
    assert all(line in final_table for line in replayed), "the last step is the final table"
    assert ":next" in button(message, ":next") and all(
        c["disabled"]
        for row in message.components
        for c in row["components"]
        if c.get("custom_id", "").endswith((":next", ":last"))
    )
    hands = [f.name for f in message.embeds[0].fields if f.name.startswith("Hand: ")]
    assert hands == [f"Hand: {name}" for name in names]

    back = await reader.click(message.message, custom_id=button(message, ":first"))
    assert footer_of(back.response)[0] == 0
    exported = await reader.click(back.response.message, custom_id=f"glory:rpx:{loaded.id}")
    assert exported.ephemeral
    [attachment] = exported.response.attachments
    assert attachment.filename == f"glory-game-{loaded.id}.json"
    document = json.loads(await attachment.read())
    assert document["seed"] == loaded.row.seed and document["game"] == "kami"
    assert len(document["moves"]) == last
    assert [p["name"] for p in document["players"]] == [s.display_name for s in loaded.seats]


async def test_an_abandoned_game_is_listed_and_replayed_but_not_rated(simcord_env) -> None:
    table = await quick_game(simcord_env, players=3)
    rng = random.Random(2)
    for _ in range(4):
        await play_one_move(table, rng)
    for player in (1, 2, 0):  # the AI takes two seats, then nobody is left: abandoned
        result = await table.players[player].member.slash(table.channel, "leave")
        assert not result.ephemeral
    listed = await table.players[0].member.slash(table.channel, "history")
    assert "Abandoned" in message_text(listed.response.message)
    shown = await table.players[0].member.slash(table.channel, "replay", game=table.game_id)
    position, last, _ = footer_of(shown.response)
    assert position == 0 and last >= 4  # the AI may have moved for a seat meanwhile
    assert t("table.ended.abandoned", "en") not in shown.response.embeds[0].description
    end = await table.players[0].member.click(
        shown.response.message, custom_id=button(shown.response, ":last")
    )
    assert t("table.ended.abandoned", "en") in end.response.embeds[0].description
    async with table.bot.store.session() as session:
        assert (await session.exec(select(RatingRow))).all() == []
    standings = await table.players[0].member.slash(table.channel, "standings")
    assert t("ratings.empty", "en") in message_text(standings.response.message)


async def test_finished_games_are_rated_and_standings_rank_by_the_cautious_rating(
    simcord_env,
) -> None:
    table = new_table(simcord_env, 3)
    everyone = list(table.players)
    rng = random.Random(11)
    for players in (2, 3):
        table.players = everyone[:players]
        await open_lobby(table, "clans_and_glory")
        await start(table)
        await play_to_end(table, rng)
    async with table.bot.store.session() as session:
        rows = (await session.exec(select(RatingRow))).all()
    assert sorted(row.games for row in rows) == [1, 2, 2]
    assert {row.user_id for row in rows} == {player.user.id for player in everyone}
    shown = await table.players[0].member.slash(table.channel, "standings")
    text = message_text(shown.response.message)
    assert "Standings: Clans and Glory" in text and "μ − 3σ" in text
    ranked = sorted(rows, key=lambda r: -(r.mu - 3 * r.sigma))
    order = [text.index(f"<@{row.user_id}>") for row in ranked]
    assert order == sorted(order), "best cautious rating first"
    profile = await table.players[0].member.slash(table.channel, "profile")
    assert profile.ephemeral
    assert "Clans and Glory" in message_text(profile.response.message)
    assert "Recent games" in message_text(profile.response.message)
    assert profile.response.message.attachments == []  # this bot runs without pictures
    table.bot.publisher.pictures.enabled = True  # as every server has them by default
    drawn = await table.players[0].member.slash(table.channel, "profile")
    shown = drawn.response.message
    assert [attachment.filename for attachment in shown.attachments] == ["trend.png"]
    assert shown.embeds[0].image.url.endswith("trend.png")  # two games: a trend to draw


# ---------------------------------------------------------------- refusals and bad input


async def test_replay_refuses_running_games_other_servers_and_unknown_numbers(
    simcord_env,
) -> None:
    table = await quick_game(simcord_env)
    member = table.players[0].member
    running = await member.slash(table.channel, "replay", game=table.game_id)
    assert running.ephemeral and running.response.content == t("replay.running", "en")
    unknown = await member.slash(table.channel, "replay", game=987654)
    assert unknown.response.content == t("replay.not_here", "en")
    elsewhere = simcord_env.create_guild()
    other_channel = elsewhere.create_text_channel("other")
    foreign = await store_game(simcord_env, elsewhere, other_channel, "kami", 2, 1)
    refused = await member.slash(table.channel, "replay", game=foreign)
    assert refused.response.content == t("replay.not_here", "en")
    export = await forged_click(
        simcord_env, member, current_table(table), f"glory:rpx:{table.game_id}"
    )
    assert export.ephemeral and export.response.content == t("replay.running", "en")


FORGED = [
    "glory:rp:1:x:next",
    "glory:rp:1:-1:next",
    "glory:rp:1:3:sideways",
    "glory:rp:0:3:next",
    "glory:rp:1:3",
    "glory:rp:1:3:next:more",
    "glory:rp:1:9999999:next",
    "glory:rp:²:3:next",
    "glory:rpx:abc",
    "glory:rpx:1:2",
    "glory:hist:0:-:0:next",
    "glory:hist:2:chess:0:next",
    "glory:hist:2:-:x:next",
    "glory:st:1:kami:2:next",
    "glory:st:1:kami:1:up",
]
"""Ids a modified client could send; ``:1:`` stands for the replayed game's number."""


async def test_malformed_replay_history_and_standings_ids_are_answered_and_change_nothing(
    simcord_env,
) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    member = guild.add_member(simcord_env.create_user("reader"))
    game_id = await store_game(simcord_env, guild, channel, "kami", 2, 3)
    shown = (await member.slash(channel, "replay", game=game_id)).response
    before = (shown.embeds[0].to_dict(), shown.components)
    for custom_id in FORGED:
        forged = custom_id.replace(":1:", f":{game_id}:", 1)
        result = await forged_click(simcord_env, member, shown.message, forged)
        assert result.ephemeral and result.response.id != shown.id, forged
        assert result.response.content == t("error.damaged_control", "en"), forged
        after = simcord_env.backend.get_message(shown.message.channel.id, shown.id)
        assert (after.embeds[0], after.components) == before, forged


async def test_a_position_past_the_end_shows_the_last_and_rounds_jump(simcord_env) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    member = guild.add_member(simcord_env.create_user("reader"))
    game_id = await store_game(simcord_env, guild, channel, "call_to_glory", 3, 4)
    shown = (await member.slash(channel, "replay", game=game_id)).response
    _, last, _ = footer_of(shown)
    past = await forged_click(simcord_env, member, shown.message, f"glory:rp:{game_id}:999999:next")
    assert past.response.id == shown.id and footer_of(past.response)[:2] == (last, last)
    start_message = (await member.slash(channel, "replay", game=game_id)).response
    jumped = await member.click(start_message.message, custom_id=button(start_message, ":nround"))
    position, _, round_number = footer_of(jumped.response)
    assert 0 < position < last and round_number == 2
    again = await member.click(
        jumped.response.message, custom_id=button(jumped.response, ":pround")
    )
    assert footer_of(again.response)[2] == 1


async def test_a_server_that_hides_hands_shows_only_the_table_and_refuses_the_export(
    simcord_env,
) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    member = guild.add_member(simcord_env.create_user("reader"))
    game_id = await store_game(simcord_env, guild, channel, "kami", 4, 7)
    shown = (await member.slash(channel, "replay", game=game_id)).response
    assert any(f.name.startswith("Hand: ") for f in shown.embeds[0].fields)
    command = simcord_env.backend.find_command("settings", None)
    guild.set_command_permissions(int(command["id"]), {member: True})
    refused = await member.slash(channel, "settings replays", hands="off")
    assert refused.response.content == t("settings.manage_only", "en")
    role = guild.create_role("managers", permissions=discord.Permissions(manage_guild=True))
    manager = guild.add_member(simcord_env.create_user("manager"), roles=[role])
    done = await manager.slash(channel, "settings replays", hands="off")
    assert done.ephemeral and done.response.content == t("settings.replays.off", "en")
    hidden = (await member.slash(channel, "replay", game=game_id)).response
    names = [f.name for f in hidden.embeds[0].fields]
    assert not any(name.startswith("Hand: ") for name in names)
    assert not any(custom_id.startswith("glory:rpx:") for custom_id in ids(hidden))
    refused = await forged_click(simcord_env, member, hidden.message, f"glory:rpx:{game_id}")
    assert refused.ephemeral and "hidden" in refused.response.content
    assert not refused.response.attachments


async def test_a_game_the_rules_no_longer_replay_says_so(simcord_env) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    member = guild.add_member(simcord_env.create_user("reader"))
    game_id = await store_game(simcord_env, guild, channel, "kami", 2, 8)
    async with simcord_env.bot.store.session() as session:
        move = (
            await session.exec(
                select(MoveRow).where(MoveRow.game_id == game_id, MoveRow.version == 4)
            )
        ).one()
        move.events = [{"type": "something_else"}]
        session.add(move)
        await session.commit()
    shown = await member.slash(channel, "replay", game=game_id)
    assert shown.response.content == t("replay.rules_changed", "en", id=game_id, move=3)
    assert not shown.response.embeds


# ---------------------------------------------------------------- pages at their boundaries


@pytest.mark.parametrize("games", [PER_PAGE, PER_PAGE + 1, 2 * PER_PAGE + 1])
async def test_history_pages_break_at_their_boundaries(simcord_env, games: int) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    member = guild.add_member(simcord_env.create_user("reader"))
    made = [
        await store_game(
            simcord_env,
            guild,
            channel,
            "clans_and_glory",
            2,
            seed,
            stop_after=3,
            status=GameStatus.ABANDONED,
        )
        for seed in range(games)
    ]
    async with simcord_env.bot.store.session() as session:  # newest last
        for number, game_id in enumerate(made):
            row = await session.get(GameRow, game_id)
            row.updated_at = utcnow() - timedelta(minutes=games - number)
            session.add(row)
        await session.commit()
    shown = (await member.slash(channel, "history")).response
    text = message_text(shown.message)
    listed = [int(found) for found in re.findall(r"#(\d+)", text)]
    assert listed == list(reversed(made))[:PER_PAGE], "newest first"
    pages = -(-games // PER_PAGE)
    if pages == 1:
        assert not shown.components and not PAGE.search(text)
        return
    assert PAGE.search(text).groups() == ("1", str(pages))
    last = await member.click(shown.message, custom_id=button(shown, ":last"))
    text = message_text(last.response.message)
    assert PAGE.search(text).groups() == (str(pages), str(pages))
    assert [int(f) for f in re.findall(r"#(\d+)", text)] == list(reversed(made))[
        (pages - 1) * PER_PAGE :
    ]
    past = await forged_click(simcord_env, member, last.response.message, "glory:hist:999:-:0:next")
    assert PAGE.search(message_text(past.response.message)).groups() == (str(pages), str(pages))
    only_mine = (await member.slash(channel, "history", game="kami")).response
    assert t("history.empty", "en") in message_text(only_mine.message)


@pytest.mark.parametrize("players", [BOARD_PAGE, BOARD_PAGE + 1])
async def test_standings_pages_break_at_their_boundaries(simcord_env, players: int) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    member = guild.add_member(simcord_env.create_user("reader"))
    async with simcord_env.bot.store.session() as session:
        for number in range(players):
            session.add(
                RatingRow(
                    guild_id=guild.id,
                    game_key="kami",
                    user_id=member.id + number,
                    mu=30.0 - number,
                    sigma=2.0,
                    games=3,
                    wins=1,
                )
            )
        session.add(
            RatingRow(
                guild_id=guild.id,
                game_key="kami",
                user_id=0,
                ai_level="strong",
                mu=40.0,
                sigma=1.0,
                games=9,
                wins=9,
            )
        )
        await session.commit()
    shown = (await member.slash(channel, "standings", game="kami")).response
    text = message_text(shown.message)
    assert text.count("<@") == min(players, BOARD_PAGE) and "🤖" not in text
    if players == BOARD_PAGE:
        assert not shown.components
        return
    assert PAGE.search(text).groups() == ("1", "2")
    second = await member.click(shown.message, custom_id=button(shown, ":next"))
    text = message_text(second.response.message)
    assert text.count("<@") == 2, "the last player, then the reader's own line"
    assert f"{BOARD_PAGE + 1}. <@{member.id + players - 1}>" in text
    with_ai = (await member.slash(channel, "standings", game="kami", with_ai=True)).response
    assert with_ai.embeds[0].description.startswith("1. 🤖 AI (strong): **37.0**, 9 games")
