"""The move menu: nested levels from the engine's menu paths, Back, and the DM a waiting
player keeps."""

from __future__ import annotations

import pytest

from games.menu import choices_at
from tests.bot.driver import (
    MENU_PREFIXES,
    components,
    live_dm_hand,
    message_text,
    new_table,
    open_lobby,
    quick_game,
    seat_on_turn,
    start,
)


def labels(message) -> list[str]:
    """The move menu's labels (not the seat's own buttons below it, such as Hint)."""
    found = []
    for control in components(message):
        if not (getattr(control, "custom_id", None) or "").startswith(MENU_PREFIXES):
            continue
        if hasattr(control, "options") and control.options:
            found += [option.label for option in control.options]
        elif getattr(control, "label", None):
            found.append(control.label)
    return found


NESTED_DEAL_SEED = 6
"""A 2-player Clans and Glory deal with 45 complete first moves: more than one select holds, so
the menu asks for the card first (a deal of 25 or fewer is one select of complete moves)."""


async def test_nested_menu_and_back(simcord_env, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.flows.lobby.secrets.randbits", lambda bits: NESTED_DEAL_SEED)
    table = new_table(simcord_env, 2)
    await open_lobby(table, "clans_and_glory")
    await start(table)
    seat = seat_on_turn(table)
    user = table.players[seat].user
    top = live_dm_hand(table, seat)
    loaded = await table.loaded()
    actions = loaded.state.legal_actions()
    # "Seat a card" is the only choice of the top level: it is taken, the cards are shown.
    assert choices_at(actions, ()) == ["place"]
    assert len(labels(top)) == len(choices_at(actions, ("place",)))
    first = components(top)[0]
    if hasattr(first, "options") and first.options:
        result = await user.select(top, [first.options[0].value], custom_id=first.custom_id)
    else:
        result = await user.click(top, custom_id=first.custom_id)
    level = result.response.message
    assert "Chosen so far" in message_text(level)
    assert "Back" in labels(level)
    assert (await table.loaded()).row.version == loaded.row.version  # navigating stores nothing
    back = next(c for c in components(level) if getattr(c, "label", None) == "Back")
    result = await user.click(level, custom_id=back.custom_id)
    assert labels(result.response.message) == labels(top)
    assert "Back" not in labels(result.response.message)


async def test_a_waiting_players_dm_is_not_edited_by_others_moves(simcord_env) -> None:
    import random

    from tests.bot.driver import play_one_move

    table = await quick_game(simcord_env, players=3)
    rng = random.Random(2)
    waiting = [s for s in range(3) if s != seat_on_turn(table)]
    dms = {s: table.players[s].user.dm_channel.last_message for s in waiting}
    on_turn = table.players[seat_on_turn(table)].user.name
    for message in dms.values():
        # It says whose turn it is, and since when (it is not edited after every move).
        assert f"After move 0, **{on_turn}** is deciding" in message_text(message)
        assert not components(message)  # nothing to press while waiting
    await play_one_move(table, rng)
    for seat, message in dms.items():
        now = table.players[seat].user.dm_channel.last_message
        if seat_on_turn(table) == seat:
            assert now.id != message.id and components(now)  # a new DM: it is their turn
        else:
            assert now.id == message.id
