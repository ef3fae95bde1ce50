"""The collapsed move menu through the bot (SimCord): one click where the rules allow it, and
the custom_ids of menus sent before keep their meaning."""

from __future__ import annotations

from tests.bot.driver import (
    components,
    live_dm_hand,
    menu_custom_id,
    message_text,
    new_table,
    open_lobby,
    quick_game,
    seat_on_turn,
    snapshot,
    start,
)
from tests.bot.forge import forged_click


async def test_a_kami_lead_is_one_choice_in_one_select(simcord_env) -> None:
    table = await quick_game(simcord_env)
    seat = seat_on_turn(table)
    loaded = await table.loaded()
    assert {a.menu_path[0] for a in loaded.state.legal_actions()} == {"lead"}
    dm = live_dm_hand(table, seat)
    select = next(c for c in components(dm) if getattr(c, "options", None))
    assert select.custom_id == f"glory:s:{loaded.id}:{loaded.row.version}:{seat}:0"
    assert select.placeholder.startswith("Lead")  # the level taken for the player
    version = loaded.row.version
    result = await table.players[seat].user.select(
        dm, [select.options[0].value], custom_id=select.custom_id
    )
    assert result.acknowledged and not result.ephemeral
    assert (await table.loaded()).row.version == version + 1  # one click, one move


async def test_a_select_of_complete_moves_plays_a_move_named_by_a_multi_index_value(
    simcord_env,
) -> None:
    table = new_table(simcord_env, 2)
    await open_lobby(table, "call_to_glory")
    await start(table)
    for _ in range(40):
        seat = seat_on_turn(table)
        dm = live_dm_hand(table, seat)
        selects = [c for c in components(dm) if getattr(c, "options", None)]
        if selects and any("." in option.value for option in selects[0].options):
            break
        first = next(c for c in components(dm) if (c.custom_id or "").startswith("glory:"))
        if getattr(first, "options", None):
            await table.players[seat].user.select(
                dm, [first.options[0].value], custom_id=first.custom_id
            )
        else:
            await table.players[seat].user.click(dm, custom_id=first.custom_id)
    else:
        raise AssertionError("no select of complete moves in 40 clicks")
    select = selects[0]
    option = next(o for o in select.options if "." in o.value)
    assert " › " in option.label  # the whole move in words
    version, _, _, moves = await snapshot(table)
    await table.players[seat].user.select(dm, [option.value], custom_id=select.custom_id)
    after, _, _, after_moves = await snapshot(table)
    assert (after, after_moves) == (version + 1, moves + 1)


async def test_an_old_button_of_a_level_shows_the_collapsed_menu_from_there(simcord_env) -> None:
    """A DM sent before the upgrade carries "Seat a card" (path 0): it still opens the cards."""
    table = new_table(simcord_env, 2)
    await open_lobby(table, "clans_and_glory")
    await start(table)
    seat = seat_on_turn(table)
    loaded = await table.loaded()
    user, dm = table.players[seat].user, live_dm_hand(table, seat)
    before = await snapshot(table)
    old = f"glory:m:{loaded.id}:{loaded.row.version}:{seat}:0"
    result = await forged_click(simcord_env, user, dm, old)
    assert result.acknowledged and not result.ephemeral
    assert "Seat a card" in message_text(result.response.message)  # the breadcrumb
    assert await snapshot(table) == before  # navigating stores nothing


async def test_an_old_button_with_a_whole_path_plays_its_move(simcord_env) -> None:
    table = new_table(simcord_env, 2)
    await open_lobby(table, "clans_and_glory")
    await start(table)
    seat = seat_on_turn(table)
    loaded = await table.loaded()
    action = loaded.state.legal_actions()[-1]
    user, dm = table.players[seat].user, live_dm_hand(table, seat)
    version, _, _, moves = await snapshot(table)
    result = await forged_click(simcord_env, user, dm, menu_custom_id(loaded, seat, action))
    assert result.acknowledged
    after = await table.loaded()
    assert (after.row.version, await table.bot.store.move_count(table.game_id)) == (
        version + 1,
        moves + 1,
    )


async def test_an_old_select_of_one_level_still_adds_one_index(simcord_env) -> None:
    table = await quick_game(simcord_env)
    seat = seat_on_turn(table)
    loaded = await table.loaded()
    user, dm = table.players[seat].user, live_dm_hand(table, seat)
    version = loaded.row.version
    # Before the upgrade: a "Lead" button (path 0), then a select of that level's cards.
    old = f"glory:s:{loaded.id}:{version}:{seat}:0"
    result = await forged_click(simcord_env, user, dm, old, "0")
    assert result.acknowledged
    assert (await table.loaded()).row.version == version + 1


def test_a_menu_selects_value_is_one_index_or_a_path_below_its_level() -> None:
    from bot.interactions.components import MAX_DEPTH, select_path

    assert select_path(["3"], 0) == (3,)  # a level's choice, as before
    assert select_path(["2.0.1"], 1) == (2, 0, 1)  # a complete move below the level
    for forged in ([""], ["."], ["1..2"], ["1."], ["-1"], ["²"], ["1", "2"], [], ["9" * 30]):
        assert select_path(forged, 0) is None, forged
    deepest = ".".join(["0"] * MAX_DEPTH)
    assert select_path([deepest], 0) is not None
    assert select_path([deepest], 1) is None  # deeper than any menu, with its level
