"""A seat never ends a game: ``/leave`` hands the seat to the AI while a human plays on, the
player can take it back, leaving counts as a loss, and with nobody left the game is abandoned."""

from __future__ import annotations

import random

from sqlmodel import select

from bot.flows.seat_handover import EVERYONE_LEFT
from bot.flows.session import AI_MARK
from bot.i18n import t
from bot.ratings.model import SeatResult, finishing_ranks, rate_game
from bot.ratings.tables import RatingChangeRow
from bot.storage.models import GameStatus, OutboxRow, ResultRow
from bot.storage.repository import SeatTurns
from tests.bot.driver import (
    components,
    current_table,
    live_dm_hand,
    message_text,
    quick_game,
    seat_on_turn,
)
from tests.bot.test_ai_players import human_move


async def settle(table, humans: set[int]):  # type: ignore[no-untyped-def]
    """Let the AI move until one of ``humans`` is on turn (their seat), or the game ends."""
    import asyncio

    for _ in range(20_000):
        loaded = await table.loaded()
        if loaded.status is not GameStatus.ACTIVE:
            await table.bot.outbox.idle()
            return None
        if loaded.state.to_move in humans:
            await table.bot.outbox.idle()
            return loaded.state.to_move
        await asyncio.sleep(0.002)
    raise AssertionError("the AI did not move")


async def test_leave_hands_the_seat_to_the_ai_and_the_game_goes_on(simcord_env) -> None:
    table = await quick_game(simcord_env)
    name = table.players[1].user.name
    result = await table.players[1].member.slash(table.channel, "leave")
    assert not result.ephemeral
    assert result.response.content == t("flow.leave.handed_over", "en", name=name)
    loaded = await table.loaded()
    assert loaded.status is GameStatus.ACTIVE
    assert loaded.seats[1].takeover and loaded.seats[1].departed
    await table.bot.outbox.idle()
    assert f"{name} {AI_MARK}" in message_text(current_table(table))  # the table marks it
    rng = random.Random(4)
    for _ in range(2_000):
        seat = await settle(table, {0})
        if seat is None:
            break
        await human_move(table, 0, rng)
    loaded = await table.loaded()
    assert loaded.status is GameStatus.FINISHED  # the game went on to its end
    async with table.bot.store.session() as session:
        results = {
            r.seat: r
            for r in (
                await session.exec(select(ResultRow).where(ResultRow.game_id == table.game_id))
            ).all()
        }
        changes = {
            c.seat: c
            for c in (
                await session.exec(
                    select(RatingChangeRow).where(RatingChangeRow.game_id == table.game_id)
                )
            ).all()
        }
    # The leaver lost, whatever the AI made of the seat, and that loss counts for them.
    assert results[1].departed and not results[1].won
    assert changes[1].counted and changes[1].rank == 2 and changes[0].rank == 1
    assert changes[1].mu_after < changes[1].mu_before


async def test_leaving_twice_is_explained_and_the_seat_can_be_taken_back(simcord_env) -> None:
    table = await quick_game(simcord_env, players=3)
    leaver = table.players[2]
    await leaver.member.slash(table.channel, "leave")
    again = await leaver.member.slash(table.channel, "leave")
    assert again.ephemeral and "already" in again.response.content
    await table.bot.outbox.idle()
    dm = leaver.user.dm_channel.last_message
    back = next(
        c for c in components(dm) if (getattr(c, "custom_id", "") or "").startswith("glory:back:")
    )
    result = await leaver.user.click(dm, custom_id=back.custom_id)
    assert result.acknowledged
    loaded = await table.loaded()
    assert not loaded.seats[2].takeover and not loaded.seats[2].departed


async def test_the_last_human_leaving_ends_the_game_as_abandoned(simcord_env) -> None:
    table = await quick_game(simcord_env)
    await table.players[1].member.slash(table.channel, "leave")
    name = table.players[0].user.name
    result = await table.players[0].member.slash(table.channel, "leave")
    assert not result.ephemeral
    assert result.response.content == t("flow.leave.last_player", "en", name=name)
    loaded = await table.loaded()
    assert loaded.status is GameStatus.ABANDONED
    async with table.bot.store.session() as session:
        results = (await session.exec(select(ResultRow))).all()
        assert (await session.exec(select(RatingChangeRow))).all() == []  # never rated
    assert {r.outcome for r in results} == {"abandoned"} and not any(r.won for r in results)


async def test_a_takeover_of_the_last_human_playing_ends_the_game(simcord_env) -> None:
    """The turn clock takes the last human's seat over (here: its record set so): the AI does
    not play a game for nobody; it ends as abandoned, saying why."""
    table = await quick_game(simcord_env)
    await table.players[1].member.slash(table.channel, "leave")
    await table.bot.outbox.idle()
    store = table.bot.store
    ended = []
    real_end = store.end

    async def end(*args, **kwargs):  # type: ignore[no-untyped-def]
        row, entry = await real_end(*args, **kwargs)
        ended.append(entry)
        return row, entry

    store.end = end  # type: ignore[method-assign]
    await store.set_seat_turns(table.game_id, SeatTurns(0, 3, True))
    table.bot.autoplay.turn_changed(table.game_id)
    await settle(table, set())
    loaded = await table.loaded()
    assert loaded.status is GameStatus.ABANDONED
    assert ended and ended[0].body["why"] == EVERYONE_LEFT
    async with store.session() as session:
        assert (await session.exec(select(OutboxRow))).all() == []  # delivered
    assert seat_on_turn(table) is None or live_dm_hand(table, 0) is not None


def test_a_player_who_left_is_placed_last_and_their_loss_counts() -> None:
    results = [
        SeatResult(seat=0, user_id=1, score=3, won=False),
        # The AI won the seat after its player left: still a loss for them.
        SeatResult(seat=1, user_id=2, score=9, won=False, autoplayed=True, departed=True),
        SeatResult(seat=2, user_id=3, score=5, won=True),
    ]
    ranks = finishing_ranks(results)
    assert ranks == {2: 1, 0: 2, -2: 3}
    changes, updated = rate_game(results, {})
    leaver = next(c for c in changes if c.seat == 1)
    assert leaver.counted and leaver.rank == 3 and leaver.after.mu < leaver.before.mu
    assert (2, "") in updated


def test_a_kami_partner_who_stayed_is_ranked_by_the_side_alone() -> None:
    results = [
        SeatResult(seat=0, user_id=1, score=10, won=True, side=0),
        SeatResult(seat=1, user_id=2, score=4, won=False, side=1),
        SeatResult(seat=2, user_id=3, score=10, won=True, side=0, autoplayed=True, departed=True),
        SeatResult(seat=3, user_id=4, score=4, won=False, side=1),
    ]
    ranks = finishing_ranks(results)
    assert ranks[0] == 1 and ranks[1] == 2 and ranks[-3] == 3
    changes, _ = rate_game(results, {})
    by_seat = {c.seat: c for c in changes}
    assert by_seat[0].after.mu > by_seat[0].before.mu  # the partner who stayed won
    assert by_seat[2].after.mu < by_seat[2].before.mu  # the one who left lost
