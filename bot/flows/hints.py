"""Hints: privately, the move the strong AI would make now, and why.

``/hint`` and the Hint button of a hand (``components.HintButton``) come here. The answer names
the move as the move menu does (its menu path through the presenter, "Lay a set › Samurai (12)
› 3 cards"), adds the engine's reason (``State.explain``, a token translated through
``hint.<game>.<token>`` with cards, seats and boards phrased by the presenter), says so when two
moves are about equally good, and counts the hint (``seats.hints_used``, shown by ``/scores``).

Why it never leaks: the search runs on the real state but sees it only through
``determinize(seat, …)`` (``games.ai``), its seed is derived from the game, the version and the
seat, and the reason reads only the mover's hand and the public table; the answer is ephemeral.

Why one player's hints never slow anyone else: the search runs in the AI's search pool (a
worker process; a thread when ``AI_WORKERS=0``) after the interaction is deferred and without
the game's lock, and it goes through the search queue (``bot/ai/queue.py``): AI seats' own
moves first (a move that finds every worker busy stops a running hint's search, which is made
again, at its full budget, once the moves are done: the player still gets their hint, only
later), hints taking turns between games, a bounded number waiting (one more is told to
ask again shortly), and a hint whose position is gone by the time a worker is free is dropped
without a search. A player waits for one hint at a time (clicking again meanwhile is told so,
without reading the database); the same position asked about again later (/hint after the
button) is answered from memory and counts once. A move made while the search ran is noticed
afterwards (the version is compared) and the hint is dropped.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.ai.queue import QueueFull
from bot.flows.moves import ended_key, in_private
from bot.flows.session import LoadedGame, load_game
from bot.i18n import has, t
from bot.interactions.answers import Answer
from bot.interactions.replies import guarded, reply
from bot.messages.languages import user_locale
from bot.render import presenter_for
from bot.render.base import JSON, Presenter
from bot.render.common import safe_names
from bot.render.limits import clip
from bot.storage.models import GameStatus
from games import Action, Game
from games.ai import decision_seed

if TYPE_CHECKING:
    from collections.abc import Mapping

    from bot.ai.queue import SearchQueue
    from bot.process.config import Settings
    from bot.storage.repository import Store
    from games import Game

log = logging.getLogger(__name__)

HINT_LEVEL = "strong"
HINT_SEED = "hint"
"""Part of every hint's seed (an AI player's own decisions use another)."""
CONTENT_LIMIT = 2000
REMEMBERED = 256
"""Hints kept per process, so that asking again in the same position costs no search."""
PATIENCE_SECONDS = 8.0
"""How long a player waits for a hint whose search has not started: when every worker is busy
with AI seats' moves (which go first) for that long, the player is told to ask again later,
nothing is counted, and the search is taken out of the queue."""


# ---------------------------------------------------------------- phrasing


def _number(value: Any, presenter: Presenter, names: Sequence[str], locale: str) -> Any:
    return value


def _phrase(key: str) -> Callable[[Any, Presenter, Sequence[str], str], str]:
    def phrase(value: Any, presenter: Presenter, names: Sequence[str], locale: str) -> str:
        return t(key, locale, count=value)

    return phrase


def _card(value: Any, presenter: Presenter, names: Sequence[str], locale: str) -> str:
    return presenter.card(value, locale)


def _player(value: Any, presenter: Presenter, names: Sequence[str], locale: str) -> str:
    return names[value] if isinstance(value, int) and 0 <= value < len(names) else "?"


def _board(value: Any, presenter: Presenter, names: Sequence[str], locale: str) -> Any:
    return value + 1 if isinstance(value, int) else value  # boards are counted from 1


def _positions(value: Any, presenter: Presenter, names: Sequence[str], locale: str) -> str:
    label = getattr(presenter, "position_label", None)
    shown = [label(str(p), locale) if label else str(p) for p in value or ()]
    return ", ".join(shown) or t(presenter.key("none"), locale)


Converter = Callable[[Any, Presenter, Sequence[str], str], Any]
REASON_PARAMS: dict[str, dict[str, tuple[str, Converter]]] = {
    "call_to_glory": {
        "value": ("card", _card),
        "seat": ("player", _player),
        "count": ("count", _number),
        "types": ("types", _phrase("hint.types")),
        "points": ("points", _phrase("hint.points")),
        "pile": ("pile", _number),
        "left": ("cards", _phrase("hint.cards")),
    },
    "kami": {
        "card": ("card", _card),
        "attack": ("attack", _card),
        "points": ("points", _phrase("hint.points")),
    },
    "clans_and_glory": {
        "board": ("board", _board),
        "value": ("value", _number),
        "card": ("card", _card),
        "positions": ("positions", _positions),
        "cards": ("cards", _phrase("hint.cards")),
        "points": ("points", _phrase("hint.points")),
        "left": ("shields", _phrase("hint.shields")),
    },
}
"""Per game, how each parameter of an engine's reason reads: (placeholder, converter). The
engines' parameters are values, seats and card names (docs/ai.md, "Hints")."""


def reason_key(game_key: str, reason: Mapping[str, Any]) -> str:
    """The catalog key of ``reason``: ``hint.<game>.<token>``, or a variant named after a true
    flag of the reason (``hint.kami.wins_round.doubled``) where the catalog has one."""
    key = f"hint.{game_key}.{reason.get('token')}"
    for name, value in reason.items():
        if value is True and has(f"{key}.{name}"):
            return f"{key}.{name}"
    return key


def reason_text(
    presenter: Presenter, reason: Mapping[str, Any] | None, names: Sequence[str], locale: str
) -> str | None:
    """The engine's reason in words, or ``None`` when it gave none (or one the catalog lacks:
    an engine token never reaches a player raw)."""
    if not reason:
        return None
    key = reason_key(presenter.game_key, reason)
    if not has(key):
        log.warning("no catalog text for the hint reason %s", key)
        return None
    converters = REASON_PARAMS.get(presenter.game_key, {})
    params: dict[str, Any] = {}
    for name, value in reason.items():
        if name == "token" or isinstance(value, bool):
            continue
        placeholder, convert = converters.get(name, (name, _number))
        params[placeholder] = convert(value, presenter, names, locale)
    params.setdefault("count", 0)
    return t(key, locale, **params)


def move_words(
    presenter: Presenter, action: Action, view: JSON, names: Sequence[str], locale: str
) -> str:
    """The action as the move menu names it: its menu path's labels, "Discard a card › Farmer"."""
    labels = [presenter.token_label(token, view, names, locale) for token in action.menu_path]
    return t("menu.separator", locale).join(labels)


def hint_text(
    presenter: Presenter,
    action: Action,
    decision: Mapping[str, Any],
    view: JSON,
    names: Sequence[str],
    locale: str,
    used: int | None = None,
    *,
    game: Game | None = None,
) -> str:
    """The whole answer: the move, why, whether it wins the game or was a close call (then
    naming the runner-up, when ``game`` can read it), how many hints so far.

    ``view`` is the asking seat's view and ``decision`` what ``games.ai.decide`` answered for
    it, so nothing here can show what the seat may not see.
    """
    lines = [t("hint.move", locale, move=move_words(presenter, action, view, names, locale))]
    why = reason_text(presenter, decision.get("reason"), names, locale)
    if why:
        lines.append(why)
    alternatives = decision.get("alternatives") or []
    if decision.get("forced"):
        lines.append(t("hint.forced", locale))
    elif decision.get("winning"):
        lines.append(t("hint.wins_game", locale))
    elif decision.get("close_call") and game is not None and alternatives:
        other = game.action_from_json(alternatives[0]["action"])
        words = move_words(presenter, other, view, names, locale)
        lines.append(t("hint.close_call_with", locale, move=words))
    elif decision.get("close_call"):
        lines.append(t("hint.close_call", locale))
    if used is not None:
        lines.append(t("hint.used", locale, count=used))
    return clip("\n".join(lines), CONTENT_LIMIT)


def hint_request(loaded: LoadedGame, seat: int, max_ms: float | None) -> dict[str, Any]:
    """What the search pool is asked: the position, the asking seat, the strong level and a seed
    that depends only on the game, the version and the seat."""
    return {
        "state": loaded.row.state,
        "seat": seat,
        "level": HINT_LEVEL,
        "seed": decision_seed(loaded.id, loaded.row.version, seat, HINT_SEED),
        "max_ms": max_ms,
    }


def hints_used_lines(loaded: LoadedGame, names: Sequence[str], locale: str) -> list[str]:
    """``/scores``: how many hints each player used; nothing when nobody used one."""
    people = [seat for seat in loaded.seats if seat.ai_level is None]
    if not any(seat.hints_used for seat in people):
        return []
    return [
        t("scores.hint_entry", locale, name=names[seat.seat], count=seat.hints_used)
        for seat in people
    ]


# ---------------------------------------------------------------- the flow


@dataclass(frozen=True)
class Given:
    """A hint worked out for one position: the decision and the seat's count after it."""

    decision: dict[str, Any]
    used: int


Key = tuple[int, int, int]
"""A hint's position: game, version, seat."""


class _TooLong(Exception):
    """A hint waited longer than its player's patience for its decision."""


class HintFlow:
    def __init__(
        self,
        *,
        store: Store,
        registry: Mapping[str, Game],
        settings: Settings,
        searches: SearchQueue,
    ) -> None:
        self.store = store
        self.registry = registry
        self.settings = settings
        self.searches = searches
        self._searches: dict[Key, asyncio.Task[Given | None]] = {}
        self._queued: dict[Key, asyncio.Future[dict[str, Any] | None]] = {}
        """Each remembered hint's place in the search queue (done once its search is)."""
        self.patience = PATIENCE_SECONDS
        self._asking: dict[int, Key] = {}
        """Players waiting for a hint now (user id -> the position): one at a time each."""

    async def on_command(self, interaction: discord.Interaction) -> None:
        """``/hint`` in a channel: for the caller's seat in the channel's game."""
        async with guarded(interaction, None):
            row = await self.store.open_game_in_channel(interaction.channel_id or 0)
            if row is None:
                await reply(interaction, "game.none_here")
                return
            assert row.id is not None
            await self._hint(interaction, row.id, seat=None, version=None)

    async def on_button(
        self, interaction: discord.Interaction, game_id: int, version: int, seat: int
    ) -> None:
        """The Hint button of a hand (its custom_id names the game, the version and the seat)."""
        async with guarded(interaction, game_id):
            if not in_private(interaction):
                await reply(interaction, "move.private_only")
                return
            await self._hint(interaction, game_id, seat=seat, version=version)

    async def _hint(
        self,
        interaction: discord.Interaction,
        game_id: int,
        *,
        seat: int | None,
        version: int | None,
    ) -> None:
        user = interaction.user.id
        if user in self._asking:
            # Checked first and without a database read: a player clicking again while their
            # hint is being worked out costs nothing and is told so.
            await reply(interaction, "hint.wait")
            return
        loaded = await load_game(self.store, self.registry, game_id, at_least=version)
        if loaded is None:
            await reply(interaction, "error.game_gone")
            return
        if loaded.status is not GameStatus.ACTIVE or loaded.state is None:
            await reply(interaction, ended_key(loaded.status))
            return
        mine = loaded.seat_of(user)
        if mine is None:
            await reply(interaction, "hand.not_a_player")
            return
        if seat is not None and seat != mine:
            await reply(interaction, "move.not_your_control")
            return
        if version is not None and version != loaded.row.version:
            await reply(interaction, "hint.stale")
            return
        if loaded.state.to_move != mine:
            await reply(interaction, "hint.not_your_turn")
            return
        if not await self.store.hints_allowed(loaded.row.guild_id):
            await reply(interaction, "hint.disabled")
            return
        if user in self._asking:  # a second click that arrived during the reads above
            await reply(interaction, "hint.wait")
            return
        # The position as it is now: later moves update the kept row in place.
        position = loaded.snapshot()
        key = (position.id, position.row.version, mine)
        try:
            task = self._given(position, mine, key)
        except QueueFull:
            await reply(interaction, "hint.busy")
            return
        self._asking[user] = key
        try:
            await Answer.of(interaction).defer()  # the search takes up to half a second
            given = await self._awaited(key, task)
        except _TooLong:
            await reply(interaction, "hint.later")
            return
        finally:
            self._asking.pop(user, None)
        if given is None:
            await reply(interaction, "hint.moved_on")
            return
        locale = user_locale(interaction)
        presenter = presenter_for(position.row.game_key)
        action = position.game.action_from_json(given.decision["action"])
        text = hint_text(
            presenter,
            action,
            given.decision,
            position.view(mine),
            safe_names(position.names),
            locale,
            given.used,
            game=position.game,
        )
        await Answer.of(interaction).send(text)

    def _given(self, position: LoadedGame, seat: int, key: Key) -> asyncio.Task[Given | None]:
        """The hint for ``seat`` at this version: one search however often it is asked, and an
        answer from memory once it was made. Raises ``QueueFull`` when too many hints wait."""
        task = self._searches.get(key)
        if task is None or (task.done() and (task.cancelled() or task.exception())):
            request = hint_request(position, seat, self.settings.ai_max_ms)

            async def fresh() -> bool:
                return await self._still_at(position)

            search = self.searches.hint(position.id, request, fresh)
            task = asyncio.get_running_loop().create_task(self._search(position, seat, search))
            self._searches[key], self._queued[key] = task, search
            while len(self._searches) > REMEMBERED:
                oldest = next(iter(self._searches))
                del self._searches[oldest]
                self._queued.pop(oldest, None)
        return task

    async def _awaited(self, key: Key, task: asyncio.Task[Given | None]) -> Given | None:
        """The hint; raises ``_TooLong`` when no decision came within ``patience`` (every
        worker busy with AI seats' moves, which go first): the hint is then cancelled (it
        leaves the queue, or its answer is ignored) and nothing is counted. A decision that
        came is waited for while it is checked and counted."""
        try:
            return await asyncio.wait_for(asyncio.shield(task), self.patience)
        except TimeoutError:
            search = self._queued.get(key)
            if search is not None and not search.done():
                task.cancel()
                raise _TooLong from None
            return await asyncio.shield(task)

    async def _still_at(self, position: LoadedGame) -> bool:
        """Whether the game is still running at ``position``'s version."""
        now = await load_game(self.store, self.registry, position.id)
        return (
            now is not None
            and now.status is GameStatus.ACTIVE
            and now.row.version == position.row.version
        )

    async def _search(
        self, position: LoadedGame, seat: int, search: asyncio.Future[dict[str, Any] | None]
    ) -> Given | None:
        """Wait for the queued search (no lock held), check that the game is still where it
        was, count the hint; ``None`` if the game moved on (before the search started, it was
        not even made)."""
        decision = await search
        if decision is None:
            return None
        assert position.state is not None
        action = position.game.action_from_json(decision["action"])
        if action not in position.state.legal_actions():
            raise RuntimeError(f"the search suggested an illegal move: {decision['action']}")
        if not await self._still_at(position):
            return None
        used = await self.store.count_hint(position.id, seat)
        return Given(decision, used)
