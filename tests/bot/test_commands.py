"""/hand, /table, /scores, /standings, /rules, /leave, /cancel and /sync."""

from __future__ import annotations

import random

import discord
import pytest
from sqlmodel import select

from bot.app import EXTENSIONS
from bot.storage.models import GameStatus, ResultRow
from bot.storage.repository import FinalScore, MoveRecord
from games import REGISTRY
from tests.bot.conftest import make_bot
from tests.bot.driver import (
    current_table,
    message_text,
    new_table,
    open_lobby,
    play_one_move,
    play_to_end,
    quick_game,
    seat_on_turn,
    start,
)
from tests.store.conftest import PUBLISH_MOVE
from tests.store.conftest import start as start_stored


async def test_hand_is_ephemeral_and_only_for_players(simcord_env) -> None:
    table = await quick_game(simcord_env)
    on_turn = seat_on_turn(table)
    for seat, player in enumerate(table.players):
        result = await player.member.slash(table.channel, "hand")
        assert result.ephemeral and "Your hand" in message_text(result.response.message)
        assert bool(result.response.message.components) == (seat == on_turn)
    outsider = table.guild.add_member(simcord_env.create_user("outsider"))
    result = await outsider.slash(table.channel, "hand")
    assert result.ephemeral and "not playing" in result.response.content
    other = table.guild.create_text_channel("elsewhere")
    result = await outsider.slash(other, "hand")
    assert result.ephemeral and "no game in this channel" in result.response.content


async def test_table_is_posted_again_and_the_old_one_retired(simcord_env) -> None:
    table = await quick_game(simcord_env)
    old = current_table(table)
    result = await table.players[0].member.slash(table.channel, "table")
    assert result.ephemeral
    new = current_table(table)
    assert new.id != old.id and table.channel.last_message.id == new.id
    retired = next(m for m in table.channel.history() if m.id == old.id)
    assert "moved down" in retired.content and not retired.components
    assert (await table.loaded()).row.table_message_id == new.id
    hand = await table.players[1].member.click(new, label="My hand")
    assert hand.ephemeral
    await play_one_move(table, random.Random(1))  # moves keep updating the new table


async def test_scores_by_round_and_total(simcord_env) -> None:
    table = await quick_game(simcord_env)
    await play_to_end(table, random.Random(4))
    result = await table.players[0].member.slash(table.channel, "scores")
    assert result.ephemeral
    embed = result.response.message.embeds[0]
    names = [field.name for field in embed.fields]
    assert names == ["By round", "Total"]
    assert "Round 1:" in embed.fields[0].value
    loaded = await table.loaded()
    for name, score in zip(loaded.names, loaded.state.scores, strict=True):
        assert f"{name}: {score} point" in embed.fields[1].value


async def test_rules_for_every_game(simcord_env) -> None:
    channel = simcord_env.create_guild().create_text_channel("rules")
    member = simcord_env.guild.add_member(simcord_env.create_user("reader"))
    for key in REGISTRY:
        result = await member.slash(channel, "rules", game=key)
        assert result.ephemeral
        embed = result.response.message.embeds[0]
        assert embed.title.startswith(f"{REGISTRY[key].name} · ") and len(embed.description) > 200
        assert embed.footer.text.startswith("Page 1 of ")


async def test_leave_by_the_last_human_records_an_abandoned_game(simcord_env) -> None:
    table = await quick_game(simcord_env)
    result = await table.players[1].member.slash(table.channel, "leave")
    assert not result.ephemeral and "the AI plays their seat" in result.response.content
    assert (await table.loaded()).status is GameStatus.ACTIVE  # the game goes on
    result = await table.players[0].member.slash(table.channel, "leave")
    assert not result.ephemeral and "no player is left" in result.response.content
    loaded = await table.loaded()
    assert loaded.status is GameStatus.ABANDONED
    assert "abandoned" in message_text(current_table(table))
    assert not current_table(table).components
    async with table.bot.store.session() as session:
        results = (await session.exec(select(ResultRow))).all()
    assert len(results) == 2 and {r.outcome for r in results} == {"abandoned"}
    assert not any(r.won for r in results)
    standings = await table.players[0].member.slash(table.channel, "standings")
    assert "No rated games" in message_text(standings.response.message)


async def test_cancel_needs_the_host_or_manage_server(simcord_env) -> None:
    table = await quick_game(simcord_env, players=3)
    result = await table.players[2].member.slash(table.channel, "cancel")
    assert result.ephemeral and "Only the host" in result.response.content
    assert (await table.loaded()).status is GameStatus.ACTIVE
    role = table.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    manager = table.guild.add_member(simcord_env.create_user("manager"), roles=[role])
    result = await manager.slash(table.channel, "cancel")
    assert not result.ephemeral
    assert (await table.loaded()).status is GameStatus.CANCELLED
    async with table.bot.store.session() as session:
        assert (await session.exec(select(ResultRow))).all() == []
    result = await table.players[0].member.slash(table.channel, "leave")
    assert result.ephemeral and "no game in this channel" in result.response.content


async def test_standings_after_several_games(simcord_env) -> None:
    table = new_table(simcord_env, 3)
    everyone = list(table.players)
    rng = random.Random(11)
    winners: list[list[int]] = []
    for key, players in (("clans_and_glory", 2), ("clans_and_glory", 3), ("kami", 2)):
        table.players = everyone[:players]
        await open_lobby(table, key, {"target": 5} if key == "kami" else None)
        await start(table)
        loaded = await play_to_end(table, rng)
        winners.append([loaded.seats[s].user_id for s in loaded.state.winners])
    table.players = everyone
    result = await table.players[0].member.slash(table.channel, "standings")
    assert not result.ephemeral
    # Without a game, the pages run through each game's board: Clans and Glory, then Kami.
    boards = {
        "Clans and Glory": (winners[:2], {0: 2, 1: 2, 2: 1}),
        "Kami": (winners[2:], {0: 1, 1: 1}),
    }
    page = result.response
    for title, (won, played) in boards.items():
        text = message_text(page.message)
        assert f"Standings: {title}" in text
        for seat, count in played.items():
            user_id = everyone[seat].user.id
            wins = sum(user_id in w for w in won)
            line = next(line for line in text.splitlines() if f"<@{user_id}>" in line)
            assert f"{count} game" in line and f"{wins} won" in line
        if title == "Clans and Glory":
            next_id = next(
                c["custom_id"]
                for row in page.components
                for c in row["components"]
                if c["custom_id"].endswith(":next")
            )
            page = (await everyone[0].member.click(page.message, custom_id=next_id)).response
    result = await table.players[0].member.slash(table.channel, "standings", game="kami")
    text = message_text(result.response.message)
    assert "Standings: Kami" in text and f"<@{table.players[2].user.id}>" not in text


async def test_standings_show_the_top_ten_and_the_callers_rank(simcord_env) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    caller = guild.add_member(simcord_env.create_user("caller"))
    store = simcord_env.bot.store
    for index in range(12):
        game = await store.create_lobby(
            guild_id=guild.id,
            channel_id=1000 + index,
            host_id=index + 1,
            host_name="x",
            host_locale="en",
            game_key="kami",
            options={},
            locale="en",
            expires_at=simcord_env.now(),
        )
        await start_stored(store, game.id, seed=1, state={})
        final = [FinalScore(0, index + 1, 10, True), FinalScore(1, caller.id, 0, False)]
        await store.commit_move(
            game.id,
            expected_version=1,
            state={},
            move=MoveRecord(0, {}, []),
            final=final,
            publication=PUBLISH_MOVE,
        )
    result = await caller.slash(channel, "standings")
    lines = message_text(result.response.message).splitlines()
    ranked = [line for line in lines if line[:1].isdigit()]
    assert len(ranked) == 11 and ranked[-1].startswith("13. ")
    assert f"<@{caller.id}>: **" in ranked[-1] and ranked[-1].endswith("12 games, 0 won")


@pytest.mark.parametrize("owner", [False, True])
async def test_sync_is_for_the_owner_only(simcord_env, owner) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("admin")
    admins = guild.create_role("admins", permissions=discord.Permissions(administrator=True))
    member = guild.add_member(simcord_env.create_user("someone"), roles=[admins])
    if owner:
        simcord_env.bot.owner_id = member.id
    result = await member.slash(channel, "sync")
    assert result.ephemeral
    text = result.response.content  # the reply after "thinking…" replaces it
    if owner:
        assert "Synced 18 commands" in text  # with /hint, /history, /profile, /replay, /pictures,
        # /about, /health and /autopass
    else:
        assert "owner" in text


DISCORD_INTEGER_BOUND = 2**53 - 1
"""Discord's integer options hold JavaScript-safe integers: a bound beyond makes it refuse the
whole command sync with 50035."""


def _numbers_of(option: dict) -> list[int]:
    found = [option[key] for key in ("min_value", "max_value") if key in option]
    found += [choice["value"] for choice in option.get("choices", ()) if option["type"] == 4]
    for child in option.get("options", ()):
        found += _numbers_of(child)
    return found


async def test_every_integer_option_bound_fits_discords_safe_integer_range(database_url) -> None:
    bot = make_bot(database_url)
    for extension in EXTENSIONS:
        await bot.load_extension(extension)
    payloads = [command.to_dict(bot.tree) for command in bot.tree.get_commands()]
    numbers = [number for payload in payloads for number in _numbers_of(payload)]
    assert numbers, "no integer option found: the test checks nothing"
    assert all(-DISCORD_INTEGER_BOUND <= number <= DISCORD_INTEGER_BOUND for number in numbers)
