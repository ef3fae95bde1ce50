"""The move pipeline: one path from a click to the engine and back, for every game.

Order matters: load → check (game, seat, version, turn, legality) → apply on a fresh copy →
commit with a compare-and-swap on the version → only then Discord I/O. A per-game lock
serialises clicks within this process; the compare-and-swap catches any other process. Until
the commit succeeds nothing is stored, so a failure leaves the game exactly as it was.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord
from discord.utils import escape_markdown

from bot.components import MenuTarget
from bot.controls import breadcrumb, menu_view, resolve
from bot.i18n import t
from bot.languages import user_locale
from bot.render import presenter_for
from bot.render.common import hand_embed, safe_names
from bot.replies import guarded, reply
from bot.session import LoadedGame, load_game
from bot.storage.engine import dumps, loads
from bot.storage.models import GameStatus, SeatRow
from bot.storage.repository import FinalScore, MoveRecord, StorageConflict
from games import Action, IllegalAction, State
from games.menu import action_at

if TYPE_CHECKING:
    from bot.app import GloryBot

log = logging.getLogger(__name__)


def final_scores(
    state: State, seats: Sequence[SeatRow], *, concede: bool = False
) -> list[FinalScore]:
    """Results per seat from the engine's scores and winners (nobody wins a conceded game)."""
    scores = state.scores
    winners = set() if concede else set(state.winners)
    return [
        FinalScore(seat=s.seat, user_id=s.user_id, score=scores[s.seat], won=s.seat in winners)
        for s in seats
    ]


def private_parts(loaded: LoadedGame) -> list[dict]:
    """Per seat, what its view shows beyond the public one (its hand …).

    A waiting player's DM shows only this, so it needs an edit only when this part changes.
    """
    public = loaded.view(None)
    parts = []
    for seat in range(len(loaded.seats)):
        view = loaded.view(seat)
        parts.append({k: v for k, v in view.items() if k != "seat" and public.get(k) != v})
    return parts


def ended_key(status: GameStatus) -> str:
    return f"game.ended.{status.value}"


class MoveFlow:
    def __init__(self, bot: GloryBot) -> None:
        self.bot = bot
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        """A lock lives while someone holds or waits for it; a bot that has run for months
        does not keep one per game it ever saw."""

    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    async def _load_for_player(
        self, interaction: discord.Interaction, game_id: int
    ) -> tuple[LoadedGame, int] | None:
        """The running game and the caller's seat, or ``None`` after explaining why not."""
        loaded = await load_game(self.bot.store, self.bot.registry, game_id)
        if loaded is None:
            await reply(interaction, "error.game_gone")
            return None
        if loaded.status is not GameStatus.ACTIVE:
            await reply(interaction, ended_key(loaded.status))
            return None
        seat = loaded.seat_of(interaction.user.id)
        if seat is None:
            await reply(interaction, "hand.not_a_player")
            return None
        return loaded, seat

    # ---------------------------------------------------------------- My hand / /hand

    async def show_hand(
        self, interaction: discord.Interaction, game_id: int, *, notice: str | None = None
    ) -> None:
        """A fresh ephemeral message with the caller's hand and controls."""
        async with guarded(interaction, game_id):
            found = await self._load_for_player(interaction, game_id)
            if found is None:
                return
            await self._send_hand(interaction, *found, notice=notice)

    async def _send_hand(
        self,
        interaction: discord.Interaction,
        loaded: LoadedGame,
        seat: int,
        *,
        notice: str | None = None,
    ) -> None:
        publisher = self.bot.publisher
        recent = await publisher.recent_events(loaded)
        content = publisher.hand_content(
            loaded, seat, user_locale(interaction), recent, notice=notice
        )
        if content["view"] is None:  # not their turn; send_message rejects view=None
            del content["view"]
        if interaction.response.is_done():
            await interaction.followup.send(ephemeral=True, **content)
        else:
            await interaction.response.send_message(ephemeral=True, **content)

    # ---------------------------------------------------------------- menu clicks

    async def on_menu(self, interaction: discord.Interaction, target: MenuTarget) -> None:
        """A click in a move menu: explain a refusal, open a sub-menu, or play the move.

        Everything happens under the game's lock, so a double click or a click in the DM and
        one in the channel at the same moment run one after the other; the second one then
        carries an old version and is refused as stale.
        """
        async with (
            guarded(interaction, target.game_id, "move.not_applied"),
            self.lock(target.game_id),
        ):
            found = await self._load_for_player(interaction, target.game_id)
            if found is None:
                return
            loaded, seat = found
            if seat != target.seat:
                await reply(interaction, "move.not_your_control")
                return
            if target.version != loaded.row.version:
                notice = t("move.stale", user_locale(interaction))
                await self._send_hand(interaction, loaded, seat, notice=notice)
                return
            state = loaded.state
            assert state is not None
            if state.to_move != seat:
                await reply(interaction, "move.not_your_turn")
                return
            actions = state.legal_actions()
            tokens = resolve(actions, target.path)
            if tokens is None:
                await reply(interaction, "move.illegal")
                return
            action = action_at(actions, tokens)
            if action is None:
                await self._navigate(interaction, loaded, target, tokens)
                return
            await self._play(interaction, loaded, target, action)

    async def _navigate(
        self,
        interaction: discord.Interaction,
        loaded: LoadedGame,
        target: MenuTarget,
        tokens: tuple[str, ...],
    ) -> None:
        locale = user_locale(interaction)
        presenter = presenter_for(loaded.row.game_key)
        assert loaded.state is not None
        notice = breadcrumb(
            presenter, loaded.view(target.seat), safe_names(loaded.names), tokens, locale
        )
        await interaction.response.edit_message(
            embed=hand_embed(loaded, presenter, target.seat, locale, notice=notice),
            view=menu_view(loaded, presenter, target.seat, locale, target.path),
        )

    async def _play(
        self,
        interaction: discord.Interaction,
        loaded: LoadedGame,
        target: MenuTarget,
        action: Action,
    ) -> None:
        assert loaded.state is not None
        before = private_parts(loaded)
        was_to_move = loaded.state.to_move
        state = loaded.mutable_state()
        try:
            events = state.apply(action)
        except IllegalAction:
            await reply(interaction, "move.illegal")
            return
        saved = state.to_json()
        # Refuse to store a state that could not be loaded again: the game would be stuck.
        # The reloaded copy is the one shown from now on, exactly as a restart would see it.
        reloaded = loaded.game.state_from_json(loads(dumps(saved)))
        try:
            version = await self.bot.store.commit_move(
                loaded.id,
                expected_version=target.version,
                state=saved,
                move=MoveRecord(seat=target.seat, action=action.to_json(), events=events),
                final=final_scores(state, loaded.seats) if state.is_over else None,
            )
        except StorageConflict:
            await reply(interaction, "move.stale_short")
            return
        loaded.row.version, loaded.row.state = version, saved
        if state.is_over:
            loaded.row.status = GameStatus.FINISHED
        after = loaded.after_move(reloaded)
        try:
            await self._publish(interaction, after, target.seat, before, was_to_move)
        except Exception:
            log.exception("game %s: the move was stored but updating Discord failed", loaded.id)
            if not interaction.response.is_done():
                await reply(interaction, "move.applied_display_failed")

    async def _publish(
        self,
        interaction: discord.Interaction,
        after: LoadedGame,
        seat: int,
        before: list[dict],
        was_to_move: int | None,
    ) -> None:
        """After the commit: the clicker's message, the table, then every changed hand."""
        publisher = self.bot.publisher
        recent = await publisher.recent_events(after)
        in_dm = interaction.guild_id is None
        await interaction.response.edit_message(
            **publisher.hand_content(after, seat, user_locale(interaction), recent, full=not in_dm)
        )
        await publisher.refresh_table(after, recent)
        state = after.state
        assert state is not None
        to_move = state.to_move
        now = private_parts(after)
        changed = [
            s
            for s in range(state.num_players)
            if state.is_over or now[s] != before[s] or (s == to_move) != (s == was_to_move)
        ]
        fresh = [to_move] if to_move is not None and to_move != was_to_move else []
        message = interaction.message.id if interaction.message else None
        await publisher.deliver_hands(
            after, changed, fresh=fresh, skip_message=message, recent=recent
        )

    # ---------------------------------------------------------------- /leave and /cancel

    async def end_game(
        self, interaction: discord.Interaction, loaded: LoadedGame, status: GameStatus
    ) -> None:
        """Cancel (no result) or abandon (results recorded as abandoned) an open game."""
        async with self.lock(loaded.id):
            final = None
            if status is GameStatus.ABANDONED and loaded.state is not None:
                final = final_scores(loaded.state, loaded.seats, concede=True)
            try:
                await self.bot.store.end(loaded.id, status, final=final)
            except StorageConflict:
                await reply(interaction, "game.already_ended")
                return
            self.bot.lobby.disarm(loaded.id)
            ended = await load_game(self.bot.store, self.bot.registry, loaded.id)
            assert ended is not None
            key = "game.cancelled_by" if status is GameStatus.CANCELLED else "game.abandoned_by"
            await interaction.response.send_message(
                t(key, ended.row.locale, name=escape_markdown(interaction.user.display_name))
            )
            publisher = self.bot.publisher
            if ended.state is None:
                await publisher.refresh_lobby(ended)
                return
            await publisher.refresh_table(ended)
            await publisher.deliver_hands(ended, range(len(ended.seats)))
