"""A replay: every position of an ended game, rebuilt through the engine.

Why rebuild instead of storing positions: the seed and the move log already say everything,
and the engine is the one source of truth for what they mean. The engine is deterministic
(``docs/engine.md``), so the same seed, options and actions give the same states and events,
unless the rules changed since the game was played. A ``Replay`` checks that as it is built:
every stored action must still be legal, must cause the same events as stored, and the last
position must be the stored final state. If not, ``problem`` says where, and the bot refuses
to show positions it would get wrong.

Positions are kept as checkpoints every ``CHECKPOINT`` moves (a state copy costs a few µs),
so showing any position is one copy and at most ``CHECKPOINT - 1`` engine steps.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from games import Event, Game, IllegalAction, InvalidOptions, MalformedAction, State

CHECKPOINT = 16
BOT_EVENTS = frozenset({"autoplay"})
"""Events the bot puts into a move's log (``bot.render.base.AUTOPLAY_EVENT``); not the engine's."""
JSON = dict[str, Any]


@dataclass(frozen=True)
class LoggedStep:
    """One stored move: who made it, the action as stored and the events as stored."""

    seat: int
    action: JSON
    events: list[Event]
    played_at: Any = None


@dataclass(frozen=True)
class Problem:
    """Why a stored game does not replay: ``kind`` is ``illegal`` (a stored action the engine
    refuses), ``events`` (it causes other events), ``final`` (the last position differs from
    the stored one) or ``start`` (the engine cannot set the game up as it was); ``move`` is
    the move number where it showed (0: at the start)."""

    kind: str
    move: int


def _normal(value: Any) -> Any:
    """``value`` as the database gives JSON back (tuples become lists, keys strings)."""
    return orjson.loads(orjson.dumps(value))


def _engine_events(events: Sequence[Event]) -> list[Event]:
    return [event for event in events if event.get("type") not in BOT_EVENTS]


@dataclass
class Replay:
    game: Game
    players: int
    seed: int
    options: JSON
    opening_events: list[Event]
    steps: list[LoggedStep]
    problem: Problem | None = None
    round_starts: list[int] = field(default_factory=list)
    """Positions at which a round has just ended (the first position of the next round)."""
    _checkpoints: list[State] = field(default_factory=list, repr=False)

    @property
    def last(self) -> int:
        """The last position: after every move (position ``i`` is after ``i`` moves)."""
        return len(self.steps)

    @classmethod
    def build(
        cls,
        game: Game,
        *,
        players: int,
        seed: int,
        options: JSON,
        opening_events: list[Event],
        steps: list[LoggedStep],
        final_state: JSON | None,
    ) -> Replay:
        replay = cls(game, players, seed, options, opening_events, steps)
        try:
            state = game.new_state(players, seed, options)
        except InvalidOptions:  # the stored options no longer make a game
            replay.problem = Problem("start", 0)
            return replay
        replay._checkpoints.append(state.clone())
        rounds = state.rounds_finished
        for number, step in enumerate(steps, start=1):
            try:
                events = state.apply(game.action_from_json(step.action))
            except (IllegalAction, MalformedAction):
                replay.problem = Problem("illegal", number)
                return replay
            if _normal(events) != _normal(_engine_events(step.events)):
                replay.problem = Problem("events", number)
                return replay
            if state.rounds_finished != rounds:
                rounds = state.rounds_finished
                if not state.is_over:  # the round that ended the game starts no other
                    replay.round_starts.append(number)
            if number % CHECKPOINT == 0:
                replay._checkpoints.append(state.clone())
        if final_state is not None and _normal(state.to_json()) != _normal(final_state):
            replay.problem = Problem("final", len(steps))
        return replay

    def position(self, number: int) -> State:
        """The state after ``number`` moves (clamped to the game), as a fresh copy."""
        assert self.problem is None, "a replay that does not match its game shows nothing"
        number = min(max(number, 0), self.last)
        state = self._checkpoints[number // CHECKPOINT].clone()
        for step in self.steps[number // CHECKPOINT * CHECKPOINT : number]:
            state.apply(self.game.action_from_json(step.action))
        return state

    def events_at(self, number: int) -> list[Event]:
        """What the move leading to position ``number`` caused, as stored (the setup's events
        at position 0)."""
        if number <= 0:
            return self.opening_events
        return self.steps[min(number, self.last) - 1].events

    def mover(self, number: int) -> int | None:
        return self.steps[number - 1].seat if 0 < number <= self.last else None

    def round_of(self, number: int) -> int:
        """The round position ``number`` belongs to (counted from 1)."""
        return 1 + sum(1 for start in self.round_starts if start <= number)

    def previous_round(self, number: int) -> int:
        """The start of the round before (or of this round, if ``number`` is inside it)."""
        starts = [0, *self.round_starts]
        earlier = [start for start in starts if start < number]
        return earlier[-1] if earlier else 0

    def next_round(self, number: int) -> int:
        later = [start for start in self.round_starts if start > number]
        return later[0] if later else self.last
