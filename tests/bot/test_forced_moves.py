"""Forced moves: one button, or made for the player who asks for it, at a time that cannot be
told from a chosen move's, and without pinging them."""

from __future__ import annotations

import asyncio
import math
import random

from bot.flows.forced_moves import MIN_SAMPLES, PRIOR_MEDIAN, SHORTEST, forced_delay, only_move
from bot.i18n import t
from bot.render.base import AUTOPLAY_EVENT
from bot.storage.models import GameStatus
from tests.bot.driver import components, live_dm_hand, menu_custom_id, quick_game
from tests.bot.forge import forged_click


def ks_statistic(a: list[float], b: list[float]) -> float:
    """The two-sample Kolmogorov–Smirnov statistic: the largest gap between the samples'
    empirical distribution functions."""
    points = sorted(set(a) | set(b))
    a, b = sorted(a), sorted(b)
    gap, i, j = 0.0, 0, 0
    for x in points:
        while i < len(a) and a[i] <= x:
            i += 1
        while j < len(b) and b[j] <= x:
            j += 1
        gap = max(gap, abs(i / len(a) - j / len(b)))
    return gap


def ks_critical(n: int, m: int, alpha: float = 0.01) -> float:
    """The statistic above which two samples differ at level ``alpha`` (large samples)."""
    c = math.sqrt(-0.5 * math.log(alpha / 2))
    return c * math.sqrt((n + m) / (n * m))


def human_times(rng: random.Random, count: int, median: float, spread: float) -> list[float]:
    """Decision times of a made-up player: log-normal, as reaction and thinking times are."""
    return [rng.lognormvariate(math.log(median), spread) for _ in range(count)]


def game_of(rng: random.Random, median: float, spread: float, forced_share: float, fast: bool):
    """One player's decisions over a long game: (forced move delays, chosen move times). A
    forced move comes after ``forced_delay`` of the choices seen so far (``fast``: at once,
    as a bot without this scheme would make it)."""
    seen: list[float] = []
    forced: list[float] = []
    for _ in range(240):
        if rng.random() < forced_share:
            forced.append(1.0 + rng.random() if fast else forced_delay(seen, [], rng))
        else:
            seen.append(rng.lognormvariate(math.log(median), spread))
    return forced, seen


def test_a_forced_moves_timing_cannot_be_told_from_a_chosen_one() -> None:
    """Players of very different pace, a quarter of their turns forced (four-player Kami):
    a two-sample KS test at the 1 % level cannot tell the forced moves' delays from their
    chosen moves' times, while it does tell forced moves made at once."""
    rng = random.Random(29)
    for median, spread in ((3.0, 0.5), (9.0, 0.9), (40.0, 1.2)):
        forced, chosen = game_of(rng, median, spread, 0.25, fast=False)
        assert ks_statistic(forced, chosen) < ks_critical(len(forced), len(chosen))
        instant, chosen = game_of(rng, median, spread, 0.25, fast=True)
        assert ks_statistic(instant, chosen) > ks_critical(len(instant), len(chosen))


def test_the_delays_follow_the_players_own_times() -> None:
    """Drawn often, the delays have the distribution of the times they are drawn from."""
    rng = random.Random(30)
    seen = human_times(rng, 40, 9.0, 0.9)
    forced = [forced_delay(seen, [], rng) for _ in range(4000)]
    assert ks_statistic(forced, seen) < ks_critical(len(forced), len(seen))


def test_the_delays_keep_the_mean_and_spread_of_the_times_they_imitate() -> None:
    rng = random.Random(7)
    seen = human_times(rng, 30, 6.0, 0.8)
    logs = [math.log(x) for x in seen]
    drawn = [math.log(forced_delay(seen, [], rng)) for _ in range(20_000)]
    mean = sum(logs) / len(logs)
    spread = math.sqrt(sum((x - mean) ** 2 for x in logs) / len(logs))
    drawn_mean = sum(drawn) / len(drawn)
    drawn_spread = math.sqrt(sum((x - drawn_mean) ** 2 for x in drawn) / len(drawn))
    assert abs(drawn_mean - mean) < 0.03 and abs(drawn_spread - spread) < 0.03
    # Never a copy of a time the player showed (it would stand out in a log), and no pile of
    # delays at the shortest one.
    assert not set(seen) & {math.exp(x) for x in drawn}
    assert min(math.exp(x) for x in drawn) >= SHORTEST


def test_few_decisions_borrow_the_tables_then_the_priors_and_a_limit_holds() -> None:
    rng = random.Random(3)
    few = [2.0] * (MIN_SAMPLES - 1)
    table = human_times(rng, 20, 30.0, 0.2)
    assert all(10 < forced_delay(few, table, rng) < 90 for _ in range(100))
    prior = sorted(forced_delay([], [], rng) for _ in range(2001))
    assert 0.8 * PRIOR_MEDIAN < prior[1000] < 1.25 * PRIOR_MEDIAN
    assert all(forced_delay(table, table, rng, limit=5.0) <= 5.0 for _ in range(100))


async def forced_turn_ahead(table, rng: random.Random):  # type: ignore[no-untyped-def]
    """Play until the seat on turn has a move after which the next seat's only move is one
    move; (mover, that move, the forced seat)."""
    from tests.bot.driver import play_one_move

    for _ in range(500):
        loaded = await table.loaded()
        state = loaded.state
        for action in state.legal_actions():
            after = state.clone()
            after.apply(action)
            changed = not after.is_over and after.to_move != state.to_move
            if changed and len(after.legal_actions()) == 1:
                return state.to_move, action, after.to_move
        await play_one_move(table, rng)
    raise AssertionError("no forced move came")


async def forced_hand(env, table, rng: random.Random):  # type: ignore[no-untyped-def]
    """Play until a seat's only move is one move, and make nothing for it: (its hand DM, the
    seat)."""
    mover, action, forced = await forced_turn_ahead(table, rng)
    loaded = await table.loaded()
    table.bot.forced.watch = lambda loaded: None  # the test makes no forced move itself
    await forged_click(
        env,
        table.players[mover].user,
        live_dm_hand(table, mover),
        menu_custom_id(loaded, mover, action),
    )
    await table.bot.outbox.idle()
    return live_dm_hand(table, forced), forced


async def test_a_forced_seat_gets_one_button_and_the_choice_to_pass_automatically(
    simcord_env,
) -> None:
    table = await quick_game(simcord_env)
    dm, forced = await forced_hand(simcord_env, table, random.Random(1))
    labels = [c.label for c in components(dm) if getattr(c, "label", None)]
    move_buttons = [
        c for c in components(dm) if (c.custom_id or "").startswith(("glory:m:", "glory:s:"))
    ]
    assert len(move_buttons) == 1  # one button plays the only move
    assert t("flow.button.autopass", "en") in labels
    toggle = next(c for c in components(dm) if c.custom_id.startswith("glory:autopass:"))
    user = table.players[forced].user
    result = await user.click(dm, custom_id=toggle.custom_id)
    assert result.acknowledged and not result.ephemeral  # the hand, with a word on it
    assert await table.bot.store.auto_pass(user.id)
    off = await table.players[forced].member.slash(table.channel, "autopass", mode="off")
    assert off.ephemeral and not await table.bot.store.auto_pass(user.id)


async def test_a_forced_move_made_for_the_player_pings_nobody_and_leaves_no_mark(
    simcord_env,
) -> None:
    table = await quick_game(simcord_env)
    rng = random.Random(2)
    mover, action, forced = await forced_turn_ahead(table, rng)
    user = table.players[forced].user
    await table.bot.store.set_auto_pass(user.id, True)

    async def at_once(loaded, seat):  # type: ignore[no-untyped-def]
        return 0.0

    table.bot.forced.delay_for = at_once
    delivery = table.bot.outbox.delivery
    sent: list[tuple[int, int]] = []
    send_hand = delivery._send_hand

    async def recording(loaded, seat, content, ping_since):  # type: ignore[no-untyped-def]
        sent.append((seat, loaded.row.version))  # a new hand DM: a notification
        await send_hand(loaded, seat, content, ping_since)

    delivery._send_hand = recording
    await table.bot.outbox.idle()
    loaded = await table.loaded()
    version = loaded.row.version
    await forged_click(
        simcord_env,
        table.players[mover].user,
        live_dm_hand(table, mover),
        menu_custom_id(loaded, mover, action),
    )
    for _ in range(2000):  # the forced move follows without any click of its player
        now = await table.loaded()
        if now.row.version >= version + 2 or now.status is not GameStatus.ACTIVE:
            break
        await asyncio.sleep(0.005)
    else:
        raise AssertionError("the forced move was not made")
    await table.bot.outbox.idle()
    moves = await table.bot.store.recent_moves(table.game_id, 3)
    forced_move = next(m for m in moves if m.version == version + 2)
    assert forced_move.seat == forced
    assert not any(event.get("type") == AUTOPLAY_EVENT for event in forced_move.events)
    # The turn it had nothing to decide in sent the player no new DM (no notification).
    assert (forced, version + 1) not in sent


async def test_the_only_move_is_read_from_the_menu_tree(simcord_env) -> None:
    table = await quick_game(simcord_env)
    loaded = await table.loaded()
    assert only_move(loaded) is None  # a lead has many choices
