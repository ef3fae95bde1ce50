"""AI players through SimCord: the host seats them from the lobby's seats menu, they play
through the same move path as people (stored, published, logged), and complete games of every
game and player count finish with one human among AI players."""

from __future__ import annotations

import asyncio
import random

import pytest
from sqlmodel import select

from bot.flows.session import AI_MARK
from bot.i18n import t
from bot.storage.models import GameStatus, ResultRow
from tests.bot.driver import (
    Table,
    answer_of,
    components,
    current_table,
    lobby_message,
    message_text,
    new_table,
    pick,
    reply_text,
    set_option,
    start,
)
from tests.bot.forge import forged_click

GAME_OPTIONS = {
    "call_to_glory": {"rounds": 1},
    "kami": {"target": 5},
    "clans_and_glory": {},
}


def seats_id(table: Table) -> str:
    return f"glory:seats:{table.game_id}"


async def open_with_ai(table: Table, game_key: str, levels: list[int]) -> None:
    """The host opens a lobby and seats one AI player per entry of ``levels`` (their index in
    the seats menu: 0 easy, 1 medium, 2 strong, 3 rule-based)."""
    host = table.players[0].member
    result = await host.slash(table.channel, "play", game=game_key)
    table.game_id = int(result.response.message.components[0].children[0].custom_id.split(":")[-1])
    loaded = await table.loaded()
    for index, option in enumerate(loaded.game.options):
        wanted = GAME_OPTIONS[game_key].get(option.name)
        if wanted is not None:
            await set_option(table, host, index, option.choices.index(wanted))
    for player in table.players[1:]:
        await player.member.click(
            lobby_message(table), custom_id=f"glory:lobby:join:{table.game_id}"
        )
    for level in levels:
        result = await host.select(lobby_message(table), [f"a{level}"], custom_id=seats_id(table))
        assert result.acknowledged and not result.ephemeral, reply_text(result)


async def settle_until_human_turn(table: Table, humans: int) -> int | None:
    """Let the AI players move until a human seat is on turn; that seat (None: game over)."""
    for _ in range(20_000):
        loaded = await table.loaded()
        if loaded.status is not GameStatus.ACTIVE:
            await table.bot.outbox.idle()
            return None
        seat = loaded.state.to_move
        if seat is not None and seat < humans:
            await table.bot.outbox.idle()
            return seat
        await asyncio.sleep(0.002)
    raise AssertionError("the AI players did not move")


async def human_move(table: Table, seat: int, rng: random.Random) -> None:
    """The human on turn plays a random legal move from their hand DM."""
    player = table.players[seat]
    version = (await table.loaded()).row.version
    message = None
    for candidate in reversed(player.user.dm_channel.history(viewer=player.user)):
        if any(
            getattr(c, "custom_id", "").startswith(("glory:m:", "glory:s:"))
            for c in components(candidate)
        ):
            message = candidate
            break
    assert message is not None, "the human on turn has no hand DM with controls"
    for _depth in range(10):
        custom_id, value = pick(message, rng)
        if value is None:
            result = await player.user.click(message, custom_id=custom_id)
        else:
            result = await player.user.select(message, [value], custom_id=custom_id)
        assert result.acknowledged
        if (await table.loaded()).row.version != version:
            return
        message = result.response
    raise AssertionError("a menu deeper than 10 levels")


CASES = [
    pytest.param(key, players, id=f"{key}-{players}")
    for key in GAME_OPTIONS
    for players in (2, 3, 4)
]


@pytest.mark.parametrize(("game_key", "players"), CASES)
async def test_one_human_finishes_a_game_against_ai_players(
    simcord_env, game_key: str, players: int
) -> None:
    rng = random.Random(f"{game_key}{players}")
    table = new_table(simcord_env, 1)
    # Rule-based and easy players: the two levels that answer quickly enough for a test.
    await open_with_ai(table, game_key, [3 if n % 2 == 0 else 0 for n in range(players - 1)])
    lobby = message_text(lobby_message(table))
    assert lobby.count(AI_MARK) == players - 1
    assert t("ai.level.rules", "en") in lobby
    await start(table)
    for _ in range(2_000):
        seat = await settle_until_human_turn(table, humans=1)
        if seat is None:
            break
        await human_move(table, seat, rng)
    loaded = await table.loaded()
    assert loaded.status is GameStatus.FINISHED
    # Every move is in the log once, and the table shows the final one with the AI marked.
    assert await table.bot.store.move_count(table.game_id) >= loaded.row.version - 1
    final = message_text(current_table(table))
    assert AI_MARK in final
    scores = await table.players[0].member.slash(table.channel, "scores")
    assert reply_text(scores).count(AI_MARK) >= players - 1
    # AI seats never get DMs; the results keep the game apart from all-human games.
    ai_ids = {row.user_id for row in loaded.seats if row.ai_level}
    assert len(ai_ids) == players - 1 and all(user < 0 for user in ai_ids)
    dm_targets = {
        request.path for request in simcord_env.http_requests if request.path.startswith("/users/")
    }
    assert not any(str(user) in path for user in ai_ids for path in dm_targets)
    async with table.bot.store.session() as session:
        results = (
            await session.exec(select(ResultRow).where(ResultRow.game_id == table.game_id))
        ).all()
    assert len(results) == players and all(result.with_ai for result in results)
    assert {result.ai_level for result in results} == {None, "rules", "easy"} - (
        {"easy"} if players == 2 else set()
    )
    human_standings = await table.bot.store.standings(table.guild.id)
    assert human_standings == []  # an all-human table has no games yet
    with_ai = await table.bot.store.standings(table.guild.id, with_ai=True)
    assert [standing.user_id for standing in with_ai] == [table.players[0].user.id]


async def test_the_seats_menu_adds_and_removes_ai_players_and_sets_the_turn_time(
    simcord_env,
) -> None:
    table = new_table(simcord_env, 2)
    await open_with_ai(table, "kami", [2, 1])
    loaded = await table.loaded()
    assert [row.ai_level for row in loaded.seats] == [None, None, "strong", "medium"]
    text = message_text(lobby_message(table))
    assert "AI, strong" in text and "AI, medium" in text
    # Four seats taken: the menu offers no more AI players.
    values = [
        option.value
        for control in components(lobby_message(table))
        if getattr(control, "custom_id", "") == seats_id(table)
        for option in control.options
    ]
    assert not any(value.startswith("a") for value in values)
    assert {"r2", "r3"} <= set(values)
    host = table.players[0].member
    await host.select(lobby_message(table), ["r2"], custom_id=seats_id(table))
    loaded = await table.loaded()
    assert [row.ai_level for row in loaded.seats] == [None, None, "medium"]
    await host.select(lobby_message(table), ["c2"], custom_id=seats_id(table))
    assert (await table.loaded()).row.turn_seconds == 600
    assert "10 minutes" in message_text(lobby_message(table))


async def test_only_the_host_changes_the_seats_and_forged_choices_change_nothing(
    simcord_env,
) -> None:
    table = new_table(simcord_env, 2)
    await open_with_ai(table, "kami", [])
    before = await table.loaded()
    guest = table.players[1].member
    refused = await guest.select(lobby_message(table), ["a0"], custom_id=seats_id(table))
    assert refused.ephemeral and "Only the host" in reply_text(refused)
    host = table.players[0].member
    # Humans, a missing seat, no such level or time, and values that are no choice at all.
    for forged in ("r0", "r1", "r9", "a7", "c9", "x", "a²", "a", ""):
        result = await forged_click(
            simcord_env, host, lobby_message(table), seats_id(table), forged
        )
        assert result.acknowledged and answer_of(result).flags.ephemeral, forged
    after = await table.loaded()
    assert after.row.version == before.row.version
    assert [row.user_id for row in after.seats] == [row.user_id for row in before.seats]
