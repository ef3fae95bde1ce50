"""Hints through SimCord: ``/hint`` and the hand's Hint button in every game, the refusals,
the counter in ``/scores``, ``/settings hints``, and a search that runs deferred, without the
game's lock, and is dropped when the game moved on meanwhile."""

from __future__ import annotations

import asyncio
import random
import time

import discord
import pytest

from bot.flows.hints import move_words
from bot.i18n import t
from bot.render import presenter_for
from bot.render.common import safe_names
from tests.bot.driver import (
    Table,
    answer_of,
    answered_privately,
    catalog_pattern,
    components,
    current_table,
    live_dm_hand,
    new_table,
    open_lobby,
    play_one_move,
    quick_game,
    reply_text,
    seat_on_turn,
    start,
)
from tests.bot.forge import forged_click, simultaneous
from tests.bot.test_bad_input import DAMAGED

GAME_OPTIONS = {
    "call_to_glory": {"rounds": 1},
    "kami": {"target": 5},
    "clans_and_glory": {},
}
HINT_LINE = catalog_pattern("hint.move", "en")


def hint_id(message: discord.Message) -> str | None:
    for control in components(message):
        custom_id = getattr(control, "custom_id", None) or ""
        if custom_id.startswith("glory:hint:"):
            return custom_id
    return None


async def legal_move_words(table: Table, seat: int) -> set[str]:
    """How the move menu names each legal move of ``seat`` (what a hint may name)."""
    loaded = await table.loaded()
    presenter = presenter_for(loaded.row.game_key)
    view, names = loaded.view(seat), safe_names(loaded.names)
    return {
        move_words(presenter, action, view, names, "en") for action in loaded.state.legal_actions()
    }


def hinted_move(text: str) -> str:
    match = HINT_LINE.fullmatch(text.splitlines()[0])
    assert match, text
    return match["move"]


def deferrals_since(env, start: int) -> list[int]:
    """The deferrals (callback types 5 and 6) among the requests made since ``start``."""
    return [
        request.json["type"]
        for request in env.http_requests[start:]
        if request.path.endswith("/callback") and request.json["type"] in (5, 6)
    ]


async def hints_used(table: Table) -> list[int]:
    return [seat.hints_used for seat in (await table.loaded()).seats]


@pytest.mark.parametrize("game_key", list(GAME_OPTIONS))
async def test_hint_command_and_button_name_a_legal_move(simcord_env, game_key: str) -> None:
    table = new_table(simcord_env, 2)
    await open_lobby(table, game_key, GAME_OPTIONS[game_key])
    await start(table)
    seat = seat_on_turn(table)
    player = table.players[seat]
    legal = await legal_move_words(table, seat)

    start_at = len(simcord_env.http_requests)
    result = await player.member.slash(table.channel, "hint")
    assert answered_privately(result)
    assert deferrals_since(simcord_env, start_at) == [5], "the search runs after a deferral"
    text = reply_text(result)
    assert hinted_move(text) in legal
    assert t("hint.used", "en", count=1) in text
    assert "{" not in text and "hint." not in text
    assert await hints_used(table) == [1 if s == seat else 0 for s in range(2)]

    # The hand DM of the player on turn carries the Hint button, in its own row.
    dm = live_dm_hand(table, seat)
    custom_id = hint_id(dm)
    loaded = await table.loaded()
    assert custom_id == f"glory:hint:{loaded.id}:{loaded.row.version}:{seat}"
    waiting = live_dm_hand(table, 1 - seat)
    assert waiting is None or hint_id(waiting) is None
    start_at = len(simcord_env.http_requests)
    clicked = await player.user.click(dm, custom_id=custom_id)
    assert answered_privately(clicked)
    assert deferrals_since(simcord_env, start_at) == [6]
    # The same position: the same hint, and it is not counted twice.
    assert reply_text(clicked) == text
    assert await hints_used(table) == [1 if s == seat else 0 for s in range(2)]
    assert (await table.loaded()).row.version == loaded.row.version  # a hint moves nothing

    # The next player's hint is counted for them; /scores shows both.
    await play_one_move(table, random.Random(3))
    other = seat_on_turn(table)
    if other != seat:
        legal = await legal_move_words(table, other)
        result = await table.players[other].member.slash(table.channel, "hint")
        assert hinted_move(reply_text(result)) in legal
    scores = await table.players[0].member.slash(table.channel, "scores")
    embed = scores.response.message.embeds[0]
    assert [field.name for field in embed.fields][-1] == t("scores.hints", "en")
    used = await hints_used(table)
    names = (await table.loaded()).names
    for name, count in zip(names, used, strict=True):
        assert t("scores.hint_entry", "en", name=name, count=count) in embed.fields[-1].value


async def test_no_hints_column_while_nobody_asked(simcord_env) -> None:
    table = await quick_game(simcord_env)
    scores = await table.players[0].member.slash(table.channel, "scores")
    names = [field.name for field in scores.response.message.embeds[0].fields]
    assert names == ["By round", "Total"]


async def test_hint_refusals_change_nothing(simcord_env) -> None:
    table = new_table(simcord_env, 3)
    await open_lobby(table, "kami", {"target": 5})
    lobby = await table.players[0].member.slash(table.channel, "hint")
    assert lobby.ephemeral and reply_text(lobby) == t("game.ended.lobby", "en")
    await start(table)
    seat = seat_on_turn(table)
    waiting = (seat + 1) % 3

    result = await table.players[waiting].member.slash(table.channel, "hint")
    assert answered_privately(result) and reply_text(result) == t("hint.not_your_turn", "en")
    outsider = table.guild.add_member(simcord_env.create_user("outsider"))
    result = await outsider.slash(table.channel, "hint")
    assert answered_privately(result) and reply_text(result) == t("hand.not_a_player", "en")
    elsewhere = table.guild.create_text_channel("elsewhere")
    result = await table.players[seat].member.slash(elsewhere, "hint")
    assert reply_text(result) == t("game.none_here", "en")

    loaded = await table.loaded()
    user, dm = table.players[seat].user, live_dm_hand(table, seat)
    base = f"glory:hint:{loaded.id}"
    refusals = {
        f"{base}:{loaded.row.version}:{waiting}": t("move.not_your_control", "en"),
        f"{base}:{loaded.row.version - 1}:{seat}": t("hint.stale", "en"),
        f"glory:hint:{loaded.id + 99}:1:{seat}": t("error.game_gone", "en"),
    }
    for custom_id, expected in refusals.items():
        result = await forged_click(simcord_env, user, dm, custom_id)
        assert answered_privately(result) and reply_text(result) == expected, custom_id
    for custom_id in (
        f"{base}:{loaded.row.version}",
        f"{base}:{loaded.row.version}:{seat}:0",
        f"{base}:x:{seat}",
        f"{base}:{loaded.row.version}:-1",
        f"glory:hint:{'9' * 30}:1:0",
        f"{base}:{loaded.row.version}:٣",
    ):
        result = await forged_click(simcord_env, user, dm, custom_id)
        assert answered_privately(result) and DAMAGED in reply_text(result), custom_id
    # A Hint button sent from the public table (only a modified client can) is refused.
    member = table.players[seat].member
    custom_id = f"{base}:{loaded.row.version}:{seat}"
    result = await forged_click(simcord_env, member, current_table(table), custom_id)
    assert answered_privately(result) and reply_text(result) == t("move.private_only", "en")
    assert await hints_used(table) == [0, 0, 0]
    assert (await table.loaded()).row.version == loaded.row.version

    # Once the game is over, the button and the command say so.
    custom_id = hint_id(dm)
    await table.players[0].member.slash(table.channel, "cancel")  # the host
    assert live_dm_hand(table, seat) is None  # the hand lost its controls
    result = await forged_click(simcord_env, user, dm, custom_id)  # an old copy of the hand
    assert answered_privately(result)
    assert reply_text(result) == t("game.ended.cancelled", "en")
    result = await table.players[seat].member.slash(table.channel, "hint")
    assert reply_text(result) == t("game.none_here", "en")


def add_manager(table: Table) -> discord.Member:
    role = table.guild.create_role("managers", permissions=discord.Permissions(manage_guild=True))
    return table.guild.add_member(table.env.create_user("manager"), roles=[role])


async def test_a_server_manager_turns_hints_off_and_on(simcord_env) -> None:
    table = await quick_game(simcord_env)
    seat = seat_on_turn(table)
    player = table.players[seat]
    manager = add_manager(table)
    assert "settings hints" in manager.available_commands(table.channel)
    assert "settings hints" not in player.member.available_commands(table.channel)

    # Granted the command by the server owner, an ordinary member is still refused.
    command = simcord_env.backend.find_command("settings", None)
    table.guild.set_command_permissions(int(command["id"]), {player.member: True})
    result = await player.member.slash(table.channel, "settings hints", allowed="off")
    assert result.ephemeral and result.response.content == t("settings.manage_only", "en")
    assert await table.bot.store.hints_allowed(table.guild.id)

    result = await manager.slash(table.channel, "settings hints", allowed="off")
    assert result.ephemeral and result.response.content == t("settings.hints.off", "en")
    assert not await table.bot.store.hints_allowed(table.guild.id)
    result = await player.member.slash(table.channel, "hint")
    assert answered_privately(result) and reply_text(result) == t("hint.disabled", "en")
    dm = live_dm_hand(table, seat)
    result = await player.user.click(dm, custom_id=hint_id(dm))  # the button asks the server
    assert answered_privately(result) and reply_text(result) == t("hint.disabled", "en")
    assert await hints_used(table) == [0, 0]

    result = await manager.slash(table.channel, "settings hints", allowed="on")
    assert result.response.content == t("settings.hints.on", "en")
    result = await player.member.slash(table.channel, "hint")
    assert hinted_move(reply_text(result)) in await legal_move_words(table, seat)
    assert (await hints_used(table))[seat] == 1


async def test_the_search_runs_deferred_and_without_the_games_lock(simcord_env) -> None:
    table = await quick_game(simcord_env)
    bot = table.bot
    seat = seat_on_turn(table)
    seen = []
    decide = bot.autoplay.pool.decide

    async def watched(request, **options):
        seen.append((bot.locks.lock(table.game_id).locked(), request["level"], request["seat"]))
        return await decide(request, **options)

    bot.autoplay.pool.decide = watched
    start_at = len(simcord_env.http_requests)
    result = await table.players[seat].member.slash(table.channel, "hint")
    assert answered_privately(result) and deferrals_since(simcord_env, start_at) == [5]
    assert seen == [(False, "strong", seat)]


async def test_a_hint_overtaken_by_a_move_is_dropped_and_not_counted(simcord_env) -> None:
    table = await quick_game(simcord_env)
    bot = table.bot
    seat = seat_on_turn(table)
    decide = bot.autoplay.pool.decide

    async def overtaken(request, **options):
        answer = await decide(request, **options)
        # While the search ran, the move was made (the turn clock, say).
        loaded = await table.loaded()
        action = loaded.game.action_from_json(answer["action"])
        async with bot.locks.lock(loaded.id):
            await bot.moves.commit_action(loaded, seat, action)
        return answer

    bot.autoplay.pool.decide = overtaken
    result = await table.players[seat].member.slash(table.channel, "hint")
    assert answered_privately(result) and reply_text(result) == t("hint.moved_on", "en")
    assert await hints_used(table) == [0, 0]
    assert answer_of(result).flags.ephemeral


async def test_a_second_click_while_the_hint_is_worked_out_is_told_so(simcord_env) -> None:
    table = await quick_game(simcord_env)
    bot = table.bot
    seat = seat_on_turn(table)
    player = table.players[seat]
    legal = await legal_move_words(table, seat)
    decide = bot.autoplay.pool.decide
    searches = []

    async def slow(request, **options):
        searches.append(request["seat"])
        await asyncio.get_running_loop().run_in_executor(None, time.sleep, 0.05)
        return await decide(request, **options)

    bot.autoplay.pool.decide = slow
    dm = live_dm_hand(table, seat)
    custom_id = hint_id(dm)
    first, again = await simultaneous(
        simcord_env, [(player.user, dm, custom_id, None), (player.user, dm, custom_id, None)]
    )
    assert answered_privately(first) and answered_privately(again)
    texts = sorted([reply_text(first), reply_text(again)], key=lambda text: "Hint" in text)
    assert texts[0] == t("hint.wait", "en")  # whichever the bot handled second
    assert hinted_move(texts[1]) in legal
    assert searches == [seat]
    assert await hints_used(table) == [1 if s == seat else 0 for s in range(2)]
    # Done: asking again is answered from memory, without a second search.
    later = await player.member.slash(table.channel, "hint")
    assert reply_text(later) == texts[1] and searches == [seat]


async def test_a_full_hint_queue_says_to_ask_again_and_counts_nothing(simcord_env) -> None:
    table = await quick_game(simcord_env)
    seat = seat_on_turn(table)
    table.bot.autoplay.searches.hint_limit = 0
    result = await table.players[seat].member.slash(table.channel, "hint")
    assert answered_privately(result) and reply_text(result) == t("hint.busy", "en")
    assert await hints_used(table) == [0, 0]
    table.bot.autoplay.searches.hint_limit = 16
    result = await table.players[seat].member.slash(table.channel, "hint")
    assert hinted_move(reply_text(result)) in await legal_move_words(table, seat)


def with_a_busy_worker(bot, while_busy) -> list[str]:
    """Route the AI pool's searches through a recorder: the search seeded ``"busy"`` (the one
    worker taken by another table's AI seat) runs ``while_busy()`` instead, every other one
    the real search. Returns the seeds asked for, in order."""
    asked: list[str] = []
    decide = bot.autoplay.pool.decide

    async def watched(request, **options):
        asked.append(request["seed"])
        if request["seed"] == "busy":
            return await while_busy()
        return await decide(request, **options)

    bot.autoplay.pool.decide = watched
    return asked


async def test_a_hint_whose_position_is_gone_before_a_worker_is_free_is_never_searched(
    simcord_env,
) -> None:
    table = await quick_game(simcord_env)
    bot = table.bot
    seat = seat_on_turn(table)

    async def the_player_moves_meanwhile():
        # The one worker is busy (another table's AI, say) while the hint waits for it, and
        # meanwhile the player on turn moves (from another device, or their turn clock).
        await asyncio.get_running_loop().run_in_executor(None, time.sleep, 0.2)
        loaded = await table.loaded()
        action = loaded.state.legal_actions()[0]
        async with bot.locks.lock(loaded.id):
            await bot.moves.commit_action(loaded, seat, action)
        return {}

    asked = with_a_busy_worker(bot, the_player_moves_meanwhile)
    busy = asyncio.ensure_future(bot.autoplay.searches.move({"seed": "busy"}))
    await asyncio.sleep(0)
    assert bot.autoplay.searches.running == 1
    result = await table.players[seat].member.slash(table.channel, "hint")
    await busy
    assert answered_privately(result) and reply_text(result) == t("hint.moved_on", "en")
    assert asked == ["busy"], "no search for the position that was gone"
    assert await hints_used(table) == [0, 0]


async def test_a_hint_no_worker_took_within_the_players_patience_is_told_to_ask_later(
    simcord_env,
) -> None:
    table = await quick_game(simcord_env)
    bot = table.bot
    seat = seat_on_turn(table)
    done = asyncio.Event()

    async def beyond_the_players_patience():
        # The one worker is busy with another table's AI seat beyond the player's patience.
        await done.wait()
        return {}

    asked = with_a_busy_worker(bot, beyond_the_players_patience)
    awaited = bot.hints._awaited

    async def then_free(key, task):
        try:
            return await awaited(key, task)
        finally:
            done.set()  # the worker is free again right after the player was answered

    bot.hints._awaited = then_free
    bot.hints.patience = 0  # (SimCord runs no timer while the bot waits for a worker)
    busy = asyncio.ensure_future(bot.autoplay.searches.move({"seed": "busy"}))
    await asyncio.sleep(0)
    result = await table.players[seat].member.slash(table.channel, "hint")
    await busy
    assert answered_privately(result) and reply_text(result) == t("hint.later", "en")
    assert asked == ["busy"], "the hint left the queue: no search for it"
    assert await hints_used(table) == [0, 0]
    bot.hints.patience = 8.0
    again = await table.players[seat].member.slash(table.channel, "hint")
    assert hinted_move(reply_text(again)) in await legal_move_words(table, seat)
    assert await hints_used(table) == [1 if s == seat else 0 for s in range(2)]
