"""The move pipeline: one path from a click to the engine and back, for every game.

Order matters: load → check (game, seat, version, turn, legality) → apply on a fresh copy →
commit with a compare-and-swap on the version, together with what the move must publish (the
outbox entry) → answer the click → hand the entry to the game's courier. A per-game lock
serialises clicks within this process; the compare-and-swap catches any other process. Until
the commit succeeds nothing is stored, so a failure leaves the game exactly as it was.

The deadline rule (``bot/interactions/answers.py``): under the lock the only call to Discord is the
click's own answer, and a click that finds its game busy defers before it waits. Everything else the
move shows (the table, the other hands, the next player's ping) is the courier's job, after
the lock is released; a failed or expired answer never undoes the move or stops that.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.flows.session import LoadedGame, load_game, share_views
from bot.i18n import t
from bot.interactions.answers import Answer
from bot.interactions.components import MenuTarget
from bot.interactions.replies import guarded, reply
from bot.messages.controls import breadcrumb, menu_layout, menu_tree
from bot.messages.languages import user_locale
from bot.messages.menu_layout import resolve
from bot.outbox.entries import END, Entry, Publication
from bot.pictures.attach import shown_pictures
from bot.render import presenter_for
from bot.render.base import AUTOPLAY_EVENT
from bot.render.common import safe_names, shown_names
from bot.render.messages import HAND_FILE, TABLE_FILE
from bot.storage.models import GameStatus, SeatRow
from bot.storage.repository import FinalScore, MoveRecord, StorageConflict
from games import Action, IllegalAction, State

if TYPE_CHECKING:
    from collections.abc import Mapping

    from bot.flows.clock import TurnClock
    from bot.flows.game_locks import GameLocks
    from bot.flows.lobby import LobbyFlow
    from bot.flows.turn_hooks import TurnChanges
    from bot.messages.publisher import Publisher
    from bot.outbox.dispatch import Outbox
    from bot.storage.repository import Store
    from games import Game

HAND_PICTURES = frozenset({HAND_FILE, TABLE_FILE})
"""The pictures a hand may show, kept in its message by a sub-menu click."""
log = logging.getLogger(__name__)

MOVE_PICTURE_BUDGET = 0.005
"""Seconds a move's answer waits for the mover's new hand picture once the move is stored.
The drawing starts before the commit (``Pictures.draw_hand_ahead``) and takes about 0.5 ms
of a worker's CPU, so it is usually in by then; it is late only when the machine is
overloaded, and the click's answer should not wait for it then."""


def final_scores(
    state: State, seats: Sequence[SeatRow], *, concede: bool = False
) -> list[FinalScore]:
    """Results per seat from the engine's scores and winners (nobody wins a conceded game).

    A game with AI players, or with a seat the AI took over, is marked so (standings keep it
    apart), and so is a human seat the AI was playing at the end (its win is not credited). A
    player who left and did not come back (``departed``) never wins: whatever the AI made of
    their seat, their result is a loss (``bot/ratings/model.py``).
    """
    scores, sides = state.scores, state.sides
    winners = set() if concede else set(state.winners)
    with_ai = any(s.ai_level is not None or s.takeover for s in seats)
    return [
        FinalScore(
            seat=s.seat,
            user_id=s.user_id,
            score=scores[s.seat],
            won=s.seat in winners and not s.departed,
            ai_level=s.ai_level,
            with_ai=with_ai,
            autoplayed=s.takeover,
            side=sides[s.seat],
            departed=s.departed,
        )
        for s in seats
    ]


def private_parts(view: Callable[[int | None], dict[str, Any]], seats: int) -> list[dict]:
    """Per seat, what its view shows beyond the public one (its hand …).

    A waiting player's DM shows only this, so it needs an edit only when this part changes.
    A move compares the parts before and after it; those after are kept with the new state
    (``private_parts_key``), so the next move need not compute every seat's view again.
    """
    public = view(None)
    parts = []
    for seat in range(seats):
        seen = view(seat)
        parts.append({k: v for k, v in seen.items() if k != "seat" and public.get(k) != v})
    return parts


def private_parts_key(seats: int) -> tuple[str, int]:
    """Where ``private_parts`` of a state is kept (``LoadedGame.derived``)."""
    return ("private parts", seats)


def move_publication(
    state: State, seats: int, before: list[dict], was_to_move: int | None
) -> Publication:
    """What a move must show: the table, every hand whose private part or turn changed, the
    hand of the seat on turn, and a new DM (a ping) for a player who now gets the turn.
    ``before``: ``private_parts`` of the state the move was made on; ``state``: the state
    after it.

    The seat on turn is always among the hands, even when it moves again and its hand did
    not change: its controls name the game's version, so every move makes them stale. The
    click's own answer usually brings them up to date (and the courier then skips that
    hand), but an answer can be lost (the process dies after the commit, Discord refuses a
    late callback), and the player would be left with controls that only answer "stale".
    """
    views: dict[int | None, dict[str, Any]] = {}

    def view(seat: int | None) -> dict[str, Any]:
        if seat not in views:
            views[seat] = state.view(seat)
        return views[seat]

    now = private_parts(view, seats)
    # The answer and the courier show this state next; the next move compares with ``now``.
    share_views(state, views, {private_parts_key(seats): now})
    to_move = state.to_move
    changed = [
        s
        for s in range(seats)
        if state.is_over or s in (to_move, was_to_move) or now[s] != before[s]
    ]
    fresh = [to_move] if to_move is not None and to_move != was_to_move else []
    # The engine says who decides next: the same seat means its turn goes on, and the
    # table may wait for the move that passes it (bot/outbox/turn_hold.py).
    goes_on = to_move is not None and to_move == was_to_move and not state.is_over
    return Publication.move(
        changed, fresh, over=state.is_over, turn_goes_on=time.time() if goes_on else None
    )


def ended_key(status: GameStatus) -> str:
    return f"game.ended.{status.value}"


def in_private(interaction: discord.Interaction) -> bool:
    """The control was used on the clicker's own message: a DM, or an ephemeral message.

    Only a modified client can send a hand's control from a public message (the table);
    honouring it would answer with the clicker's private hand in public.
    """
    message = interaction.message
    if message is None:
        return False
    return interaction.guild_id is None or message.flags.ephemeral


class MoveFlow:
    def __init__(
        self,
        *,
        store: Store,
        registry: Mapping[str, Game],
        outbox: Outbox,
        publisher: Publisher,
        locks: GameLocks,
        clock: TurnClock,
        lobby: LobbyFlow,
        autoplay: TurnChanges,
    ) -> None:
        self.store = store
        self.registry = registry
        self.outbox = outbox
        self.publisher = publisher
        self.locks = locks
        self.clock = clock
        self.lobby = lobby
        self.autoplay = autoplay

    async def _load_for_player(
        self, interaction: discord.Interaction, game_id: int, *, at_least: int | None = None
    ) -> tuple[LoadedGame, int] | None:
        """The running game and the caller's seat, or ``None`` after explaining why not.
        ``at_least``: the version the clicked control names (memory behind it missed another
        process's move and is read again)."""
        loaded = await load_game(self.store, self.registry, game_id, at_least=at_least)
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
        content, _ = await self._hand_content(interaction, loaded, seat, notice=notice)
        await Answer.of(interaction).send(**content)

    async def _hand_content(
        self,
        interaction: discord.Interaction,
        loaded: LoadedGame,
        seat: int,
        *,
        notice: str | None = None,
        full: bool = True,
        picture_budget: float | None = None,
    ) -> tuple[dict, bool]:
        """The clicker's hand in their language (``full=False``: as their hand DM shows it),
        and whether it is complete (``Publisher.hand_content``)."""
        publisher = self.publisher
        recent = await publisher.recent_events(loaded)
        locale = user_locale(interaction)
        return await publisher.hand_content(
            loaded,
            seat,
            locale,
            recent,
            notice=notice,
            full=full,
            urgent=True,
            picture_budget=picture_budget,
        )

    # ---------------------------------------------------------------- menu clicks

    async def on_menu(self, interaction: discord.Interaction, target: MenuTarget) -> None:
        """A click in a move menu: explain a refusal, open a sub-menu, or play the move.

        Everything happens under the game's lock, so a double click or a click in the DM and
        one in an ephemeral hand at the same moment run one after the other; the second one
        then carries an old version and is refused as stale.
        """
        played: tuple[Entry, set[int], LoadedGame] | None = None
        async with guarded(interaction, target.game_id, "move.not_applied"):
            if not in_private(interaction):
                await reply(interaction, "move.private_only")
                return
            async with await self.locks.locked(interaction, target.game_id):
                played = await self._on_menu(interaction, target)
        if played is not None:
            entry, shown, after = played
            self.outbox.deliver([entry], shown=shown)
            self.autoplay.turn_changed(target.game_id, after)

    async def _on_menu(
        self, interaction: discord.Interaction, target: MenuTarget, *, again: bool = True
    ) -> tuple[Entry, set[int], LoadedGame] | None:
        found = await self._load_for_player(interaction, target.game_id, at_least=target.version)
        if found is None:
            return None
        loaded, seat = found
        if seat != target.seat:
            await reply(interaction, "move.not_your_control")
            return None
        if target.version != loaded.row.version:
            await self._answer_stale(interaction, loaded, seat)
            return None
        state = loaded.state
        assert state is not None
        if state.to_move != seat:
            await self._answer_not_your_turn(interaction, loaded)
            return None
        tree = menu_tree(loaded)
        tokens = resolve(tree, target.path)
        if tokens is None:
            await reply(interaction, "move.illegal")
            return None
        action = tree.action_at(tokens)
        if action is None:
            await self._navigate(interaction, loaded, target)
            return None
        return await self._play(interaction, loaded, target, action, again=again)

    async def _answer_not_your_turn(
        self, interaction: discord.Interaction, loaded: LoadedGame
    ) -> None:
        """ "Not your turn", naming whose turn it is (a player reading their DM alone would
        otherwise have to look at the channel)."""
        state = loaded.state
        assert state is not None and state.to_move is not None
        presenter = presenter_for(loaded.row.game_key)
        locale = user_locale(interaction)
        decision = presenter.decision(loaded.view(None)["decision"], locale)
        name = shown_names(loaded)[state.to_move]
        await reply(interaction, "move.not_your_turn", name=name, decision=decision)

    async def _answer_stale(
        self, interaction: discord.Interaction, loaded: LoadedGame, seat: int
    ) -> None:
        """A control of an earlier version: the current hand, with a word on why.

        Clicked in the player's hand DM, the DM itself is brought up to date: it may have been
        left behind by a lost delivery (a request of a process that died, carried out after the
        newer one), and the player keeps one live hand instead of collecting copies. Anywhere
        else (an old DM, an ephemeral hand) the answer is a fresh ephemeral hand.
        """
        notice = t("move.stale", user_locale(interaction))
        clicked = interaction.message.id if interaction.message else None
        if interaction.guild_id is None and clicked == loaded.seats[seat].hand_message_id:
            content, _ = await self._hand_content(
                interaction, loaded, seat, notice=notice, full=False
            )
            await Answer.of(interaction).update(**content)
            return
        await self._send_hand(interaction, loaded, seat, notice=notice)

    async def _navigate(
        self,
        interaction: discord.Interaction,
        loaded: LoadedGame,
        target: MenuTarget,
    ) -> None:
        """Show the menu position ``target`` names (collapsed: ``bot/messages/menu_layout.py``),
        with the choices made so far, taken for the player or by them, as its breadcrumb."""
        locale = user_locale(interaction)
        presenter = presenter_for(loaded.row.game_key)
        assert loaded.state is not None
        names = shown_names(loaded)
        shown = menu_layout(loaded, presenter, target.seat, locale, target.path, names)
        notice = breadcrumb(loaded, presenter, target.seat, shown.tokens, locale, names)
        content = await self.publisher.menu_hand(
            loaded,
            target.seat,
            locale,
            shown.path,
            notice=notice,
            kept=shown_pictures(interaction) & HAND_PICTURES,
            full=interaction.guild_id is not None,
        )
        await Answer.of(interaction).update(**content)

    async def _play(
        self,
        interaction: discord.Interaction,
        loaded: LoadedGame,
        target: MenuTarget,
        action: Action,
        *,
        again: bool = True,
    ) -> tuple[Entry, set[int], LoadedGame] | None:
        """Apply, commit with the move's publication, answer the click; the entry to deliver,
        the seats whose hand the answer itself showed, and the game after the move.

        A lost compare-and-swap means the game as loaded was not the stored one: another
        process moved (or ended the game) and its notice had not arrived yet. The store has
        forgotten it; the click is judged once more on the game as stored (``again``), so
        the player gets the answer the stored game calls for, with a fresh hand."""
        locale = user_locale(interaction)

        def draw_new_hand(ahead: LoadedGame) -> None:
            self.publisher.pictures.draw_hand_ahead(ahead, target.seat, locale)

        try:
            entry, after = await self.commit_action(
                loaded, target.seat, action, meanwhile=draw_new_hand
            )
        except IllegalAction:
            await reply(interaction, "move.illegal")
            return None
        except StorageConflict:
            if again:
                return await self._on_menu(interaction, target, again=False)
            await reply(interaction, "move.stale_short")
            return None
        assert after.state is not None
        shown: set[int] = set()
        state = after.state
        try:
            answered = await self._answer_move(interaction, after, target.seat, target.version)
            if answered and not state.is_over:  # at the end every DM channel is tidied too
                shown.add(target.seat)
        except Exception:
            log.exception("game %s: the move was stored but answering the click failed", after.id)
            await reply(interaction, "move.applied_display_failed")
        return entry, shown, after

    async def commit_action(
        self,
        loaded: LoadedGame,
        seat: int,
        action: Action,
        *,
        autoplay: str | None = None,
        meanwhile: Callable[[LoadedGame], None] | None = None,
    ) -> tuple[Entry, LoadedGame]:
        """Apply ``action`` for ``seat`` to a copy of the loaded state and commit it with a
        compare-and-swap on the loaded version, with what it publishes, the next turn's
        deadline and the seat's clock record; the outbox entry and the game after the move.

        The one way a move is stored, whoever decided it: a player's click, an AI player, or
        the AI standing in for a player (``autoplay``: ``clock`` when the turn ran out,
        ``takeover`` while the AI holds the seat). Raises ``IllegalAction`` or
        ``StorageConflict`` and changes nothing then. The caller holds the game's lock.
        ``meanwhile`` is given the game as it will be (``LoadedGame.ahead``) just before the
        commit is awaited, to start what the answer will need once it is stored.
        """
        assert loaded.state is not None
        seats = len(loaded.seats)
        before = loaded.derived(private_parts_key(seats), lambda: private_parts(loaded.view, seats))
        was_to_move = loaded.state.to_move
        state = loaded.mutable_state()
        events = state.apply(action)
        saved = state.to_json()
        turns = self.clock.seat_turns_after(loaded.seats[seat], autoplay)
        if autoplay == "clock" and turns is not None:
            why = "takeover" if turns.takeover else "clock"
            events = [{"type": AUTOPLAY_EVENT, "seat": seat, "why": why}, *events]
        seat_rows = loaded.seats
        if turns is not None:
            # The results are recorded in this commit: they must see the seat as it will be.
            seat_rows = [
                row if row.seat != seat else row.model_copy(update={"takeover": turns.takeover})
                for row in loaded.seats
            ]
        publication = move_publication(state, seats, before, was_to_move)
        if meanwhile is not None:
            meanwhile(loaded.ahead(state))
        entry = await self.store.commit_move(
            loaded.id,
            expected_version=loaded.row.version,
            state=saved,
            move=MoveRecord(seat=seat, action=action.to_json(), events=events),
            publication=publication,
            final=final_scores(state, seat_rows) if state.is_over else None,
            deadline=self.clock.deadline_after(loaded, state, turns),
            seat_turns=turns,
        )
        loaded.row.version, loaded.row.state = entry.version, saved
        if state.is_over:
            loaded.row.status = GameStatus.FINISHED
        return entry, loaded.after_move(state)

    async def _answer_move(
        self, interaction: discord.Interaction, after: LoadedGame, seat: int, target_version: int
    ) -> bool:
        """Show the clicker's new hand in the message they clicked; True if that message is
        their hand DM and Discord took the edit complete (their courier lane then skips it).

        Under load the new hand's picture can take longer than the rest of the move: past
        ``MOVE_PICTURE_BUDGET`` the answer goes without it, and the courier brings the DM up
        to date with the picture once it is drawn (an ephemeral hand gets it with its next
        answer)."""
        in_dm = interaction.guild_id is None
        content, complete = await self._hand_content(
            interaction, after, seat, full=not in_dm, picture_budget=MOVE_PICTURE_BUDGET
        )
        updated = await Answer.of(interaction).update(**content)
        clicked = interaction.message.id if interaction.message else None
        row = after.seats[seat]
        if updated and in_dm and clicked is not None and clicked > (row.hand_message_id or 0):
            # A hand DM the store does not know, newer than the recorded one: Discord made it,
            # and the process died before recording it. It is the player's hand now; the
            # recorded one is the one to delete. An older one is a DM the courier replaced and
            # deleted while this answer was on its way: never the hand again (it would be
            # deleted twice, ``bot/storage/hand_adoption.py``).
            store, channel = self.store, interaction.channel_id
            await store.adopt_clicked_hand(after.id, seat, channel, clicked, target_version)
        return complete and updated and clicked == row.hand_message_id

    # ---------------------------------------------------------------- /leave and /cancel

    async def end_game(
        self,
        interaction: discord.Interaction,
        loaded: LoadedGame,
        status: GameStatus,
        *,
        key: str | None = None,
        why: str | None = None,
    ) -> None:
        """Cancel (no result) or abandon (results recorded as abandoned) an open game; the
        channel is told (``key``: what it is told, with the user's name) and the game's end
        is published (``why``: the reason its game-over message gives)."""
        entry = None
        async with await self.locks.locked(interaction, loaded.id):
            final = None
            if status is GameStatus.ABANDONED and loaded.state is not None:
                final = final_scores(loaded.state, loaded.seats, concede=True)
            hands = list(range(len(loaded.seats))) if loaded.state is not None else []
            body: dict[str, Any] = {"hands": hands}
            if why is not None:
                body["why"] = why
            try:
                row, entry = await self.store.end(
                    loaded.id, status, final=final, publication=Publication(END, body)
                )
            except StorageConflict:
                await reply(interaction, "game.already_ended")
                return
            self.lobby.disarm(loaded.id)
            if key is None:
                cancelled = status is GameStatus.CANCELLED
                key = "game.cancelled_by" if cancelled else "game.abandoned_by"
            name = safe_names([interaction.user.display_name])[0]
            await Answer.of(interaction).send(t(key, row.locale, name=name), ephemeral=False)
        if entry is not None:
            self.outbox.deliver([entry])
