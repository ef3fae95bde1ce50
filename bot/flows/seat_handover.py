"""A seat never ends a game: a player who leaves hands their seat to the AI.

``/leave`` used to end the game for everyone ("Bob conceded; the game ends"), though the AI can
hold a seat (the turn clock's takeover). Now, while at least one human still plays for
themself, the leaver's seat goes to the strong AI (``STAND_IN_LEVEL``) and the game goes on:
the table marks the seat ("Bob 🤖", as for a takeover), the seat's hand keeps its **Take my
seat back** button (``clock.take_back``), and the rating counts the leaver's result as a loss
unless they come back (``departed``; ``bot/ratings/model.py``), never crediting the AI's play
to anyone. With no human left playing — the last one leaves, or the turn clock takes the last
one's seat over — the game ends as abandoned, as every leave did before.

Every change is one transaction with its outbox entry (``bot/storage/seat_handover.py``,
``Store.end``), under the game's lock, like a move.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord

from bot.flows.session import LoadedGame, load_game
from bot.i18n import t
from bot.interactions.answers import Answer
from bot.interactions.replies import reply
from bot.outbox.entries import END, Publication
from bot.render.common import safe_names
from bot.storage.models import GameStatus, SeatRow
from bot.storage.repository import StorageConflict

if TYPE_CHECKING:
    from collections.abc import Mapping

    from bot.flows.game_locks import GameLocks
    from bot.flows.moves import MoveFlow
    from bot.flows.turn_hooks import TurnChanges
    from bot.outbox.dispatch import Outbox
    from bot.storage.repository import Store
    from games import Game

log = logging.getLogger(__name__)

EVERYONE_LEFT = "everyone_left"
"""Why an abandoned game ended (an END entry's ``why``): no human was left playing."""
LEFT = "left"
"""Why: the last human playing used ``/leave``."""


def humans_playing(seats: Sequence[SeatRow]) -> list[int]:
    """The seats a human plays for themself (not an AI player, not a seat the AI holds)."""
    return [row.seat for row in seats if row.ai_level is None and not row.takeover]


class SeatHandover:
    def __init__(
        self,
        *,
        store: Store,
        registry: Mapping[str, Game],
        outbox: Outbox,
        locks: GameLocks,
        moves: MoveFlow,
        autoplay: TurnChanges,
    ) -> None:
        self.store = store
        self.registry = registry
        self.outbox = outbox
        self.locks = locks
        self.moves = moves
        self.autoplay = autoplay

    async def leave(self, interaction: discord.Interaction, loaded: LoadedGame) -> None:
        """``/leave`` in a running game: the AI takes the seat while another human plays on;
        else the game ends as abandoned. The channel is told either way."""
        from bot.flows.moves import ended_key  # moves imports the AI, which imports the clock …

        entry = None
        async with await self.locks.locked(interaction, loaded.id):
            now = await load_game(self.store, self.registry, loaded.id)
            if now is None or now.status is not GameStatus.ACTIVE or now.state is None:
                await reply(interaction, ended_key(now.status) if now else "error.game_gone")
                return
            seat = now.seat_of(interaction.user.id)
            if seat is None:
                await reply(interaction, "hand.not_a_player")
                return
            if now.seats[seat].departed:
                await reply(interaction, "flow.leave.already")
                return
            others = [s for s in humans_playing(now.seats) if s != seat]
            name = safe_names([interaction.user.display_name])[0]
            if others:
                entry = await self.store.hand_seat_to_ai(
                    now.id,
                    seat,
                    publication=Publication.move([seat], []),
                    on_turn=now.state.to_move == seat,
                )
                if entry is None:  # ended meanwhile by another process
                    await reply(interaction, "game.already_ended")
                    return
                text = t("flow.leave.handed_over", now.row.locale, name=name)
                await Answer.of(interaction).send(text, ephemeral=False)
        if entry is not None:
            self.outbox.deliver([entry])
            self.autoplay.turn_changed(loaded.id)
            return
        await self.moves.end_game(
            interaction, loaded, GameStatus.ABANDONED, key="flow.leave.last_player", why=LEFT
        )

    async def end_if_nobody_plays(self, loaded: LoadedGame) -> bool:
        """End the game as abandoned if no human plays in it any more (the turn clock took the
        last one's seat over, or a restart finds it so); True if it ended (or had)."""
        if loaded.status is not GameStatus.ACTIVE or humans_playing(loaded.seats):
            return False
        from bot.flows.moves import final_scores

        entry = None
        async with self.locks.lock(loaded.id):
            now = await load_game(self.store, self.registry, loaded.id)
            if now is None or now.status is not GameStatus.ACTIVE or now.state is None:
                return True
            if humans_playing(now.seats):
                return False
            hands = list(range(len(now.seats)))
            try:
                _, entry = await self.store.end(
                    now.id,
                    GameStatus.ABANDONED,
                    final=final_scores(now.state, now.seats, concede=True),
                    publication=Publication(END, {"hands": hands, "why": EVERYONE_LEFT}),
                )
            except StorageConflict:
                return True
        log.info("game %s: no human plays any more; ended as abandoned", loaded.id)
        if entry is not None:
            self.outbox.deliver([entry])
        return True
