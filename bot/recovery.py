"""After a restart: finish the Discord side of moves that a crash cut short.

A move is committed before anything is sent to Discord, so a crash in between leaves the game
right but the table stale and, worse, the next player without the DM that tells them it is their
turn. Each seat stores the game version its hand DM was sent at; a game whose player on turn
has no DM from the move that gave them the turn is published again: table, hands, and a new DM
(a ping) for that player.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.session import LoadedGame, load_game
from bot.storage.models import GameStatus

if TYPE_CHECKING:
    from bot.app import GloryBot

log = logging.getLogger(__name__)


async def turn_began_at(bot: GloryBot, loaded: LoadedGame) -> int | None:
    """The version at which the player on turn got the turn; ``None``: nobody is on turn."""
    if loaded.state is None or loaded.state.to_move is None:
        return None
    moves = await bot.store.recent_moves(loaded.id, 1)
    if not moves:
        return 1  # the start of the game, when it logged no setup events
    last = moves[-1]
    return last.version if last.seat != loaded.state.to_move else None


async def missed_turn(bot: GloryBot, loaded: LoadedGame) -> int | None:
    """The seat on turn if it never got the DM for this turn, else ``None``."""
    began = await turn_began_at(bot, loaded)
    if began is None or loaded.state is None or loaded.state.to_move is None:
        return None
    seat = loaded.state.to_move
    shown = loaded.seats[seat].hand_version
    return seat if shown is None or shown < began else None


async def deliver_missed_turns(bot: GloryBot) -> int:
    """Republish every running game whose player on turn missed their DM; how many."""
    republished = 0
    for row in await bot.store.open_games(GameStatus.ACTIVE):
        assert row.id is not None
        async with bot.moves.lock(row.id):  # a click arriving meanwhile waits for this
            loaded = await load_game(bot.store, bot.registry, row.id)
            if loaded is None or loaded.status is not GameStatus.ACTIVE:
                continue
            seat = await missed_turn(bot, loaded)
            if seat is None:
                continue
            log.info("game %s: re-sending the turn of seat %s after a restart", loaded.id, seat)
            recent = await bot.publisher.recent_events(loaded)
            await bot.publisher.refresh_table(loaded, recent)
            await bot.publisher.deliver_hands(
                loaded, range(len(loaded.seats)), fresh=[seat], recent=recent
            )
            republished += 1
    return republished
