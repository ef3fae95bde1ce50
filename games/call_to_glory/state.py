"""The rules of Call to Glory as a state machine.

A turn is a sequence of steps for the seat on turn (draw, draw again, lay or discard, then
ninja uses or an explicit end while miniatures could still be used). Steps owned by someone
else (a beaten owner or ninja victim choosing a discard pile, end-of-round task reveals) make
that seat ``to_move``. Whenever a position leaves exactly one legal action for reasons everyone
can see (a forced pile, a forced second source, the last task), the engine takes it at once; a
lay-or-discard step is always asked, because its choices depend on the hidden hand.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from games.call_to_glory import actions as act
from games.call_to_glory import rounds
from games.call_to_glory.cards import (
    INDEX_OF,
    NINJA,
    TASK_ROUNDS,
    TYPES,
    VALUES,
    minimum_set,
    types_to_end,
)
from games.call_to_glory.hidden import copy_state, determinize
from games.call_to_glory.phases import (
    CHOOSE_PILE,
    DRAW,
    DRAW_SECOND,
    HAND_DEPENDENT,
    LAY_OR_DISCARD,
    NINJA_OR_END,
    OVER,
    REVEAL_TASK,
    TURN_PHASES,
)
from games.call_to_glory.scoring import display_points, game_winners
from games.core import JSON, Action, Event, State
from games.rng import Rng

BEATEN = "beaten"
NINJA_REMOVAL = "ninja"


@dataclass(slots=True)
class PendingDiscard:
    """Display cards waiting for their owner to pick a discard pile.

    ``resume`` is the phase of the interrupted turn, so a ninja used between the two draws
    returns to the second draw once the victim has chosen.
    """

    seat: int
    type_index: int
    count: int
    reason: str
    resume: str


class CallToGloryState(State):
    """A game of Call to Glory. Zones hold type indexes; see ``games.call_to_glory.cards``."""

    game_key = "call_to_glory"

    def __init__(self, players: int, options: JSON, rng: Rng) -> None:
        self.num_players = players
        self.options = dict(options)
        self.tasks_on: bool = options["imperial_tasks"]
        self.ninja_on: bool = options["ninja"]
        self.rounds_total: int = TASK_ROUNDS if self.tasks_on else options["rounds"]
        self.minimum = minimum_set(players)
        self.types_needed = types_to_end(players)
        self.rng = rng

        self.round_number = 1
        self.start_player = 0
        self.start_reason = "random"
        self.current = 0
        self.phase = DRAW
        self.drawn: list[int] = []  # source indexes used this turn
        self.gained_this_turn = 0

        self.draw_piles: list[list[int]] = [[], []]  # last item is the top card
        self.discard_piles: list[list[int]] = [[], []]
        self.hands = [[0] * TYPES for _ in range(players)]
        self.displays = [[0] * TYPES for _ in range(players)]
        self.owner = [-1] * TYPES  # seat holding each type in the display, -1 if none
        self.known = [[0] * TYPES for _ in range(players)]
        """Cards of each hand the whole table has seen go in: every card drawn from a discard
        pile, as long as no discard or lay of that type can have taken it out again. Public
        knowledge, so views show it and ``determinize`` keeps these cards where they are."""

        self.ninja_supply = 0
        self.ninja_held = [0] * players
        self.tasks: list[list[tuple[str, int]]] = [[] for _ in range(players)]
        self.revealed: list[JSON] = []
        self.reveals_done = 0
        self.pending: PendingDiscard | None = None
        self.round_triggers: list[JSON] = []  # why the current round ended, once it has
        self.history: list[JSON] = []
        # Events of the game's setup, which ``new_state`` cannot return; not persisted.
        self.opening_events: list[Event] = []

    # ------------------------------------------------------------------ creation

    @classmethod
    def new_game(cls, players: int, seed: int, options: JSON) -> CallToGloryState:
        state = cls(players, options, Rng(seed))
        start = state.rng.below(players)
        events: list[Event] = []
        if state.tasks_on:
            events += rounds.deal_tasks(state)
        events += rounds.setup_round(state, start, "random")
        state._legal_cache = None
        state.opening_events = events + state._take_forced_actions()
        return state

    # ------------------------------------------------------------------ protocol

    @property
    def to_move(self) -> int | None:
        phase = self.phase
        if phase in TURN_PHASES:
            return self.current
        if phase == CHOOSE_PILE:
            return self.pending.seat  # type: ignore[union-attr]
        if phase == REVEAL_TASK:
            return self.revealing_seat
        return None

    @property
    def decision(self) -> str | None:
        return None if self.phase == OVER else self.phase

    @property
    def revealing_seat(self) -> int:
        return (self.start_player + self.reveals_done) % self.num_players

    def provisional_scores(self) -> list[int] | None:
        """Totals plus what each display would score now (task bonuses not yet revealed)."""
        totals = self.scores
        if self.phase == OVER:
            return totals
        return [total + display_points(d) for total, d in zip(totals, self.displays, strict=True)]

    @property
    def rounds_finished(self) -> int:
        return len(self.history)

    @property
    def round_scores(self) -> list[list[int]]:
        return [list(entry["scores"]) for entry in self.history]

    @property
    def scores(self) -> list[int]:
        totals = [0] * self.num_players
        for entry in self.history:
            for seat, points in enumerate(entry["scores"]):
                totals[seat] += points
        return totals

    @property
    def winners(self) -> list[int]:
        if self.phase != OVER:
            return []
        return game_winners(self.scores, self.round_scores)[0]

    def why_illegal(self, action: Action) -> str:
        from games.call_to_glory.reasons import why_illegal

        return why_illegal(self, action)

    def _view(self, seat: int | None) -> JSON:
        from games.call_to_glory.view import build_view

        return build_view(self, seat)

    def to_json(self) -> JSON:
        from games.call_to_glory.persistence import dump_state

        return dump_state(self)

    def clone(self) -> CallToGloryState:
        return copy_state(self)

    def determinize(self, seat: int, rng: Rng) -> CallToGloryState:
        return determinize(self, seat, rng)

    def explain(self, action: Action) -> JSON | None:
        from games.call_to_glory.explain import explain

        return explain(self, action) if self.is_legal(action) else None

    # ------------------------------------------------------------------ legal actions

    def _legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase in (DRAW, DRAW_SECOND):
            actions: list[Action] = [act.DRAWS[s] for s in self.draw_sources()]
        elif phase == LAY_OR_DISCARD:
            actions = self._lay_and_discard_actions()
        elif phase == NINJA_OR_END:
            actions = [act.END_TURN]
        elif phase == CHOOSE_PILE:
            return list(act.CHOOSE_PILES)
        elif phase == REVEAL_TASK:
            return [act.REVEALS[deck] for deck, _t in self.tasks[self.revealing_seat]]
        else:
            return []
        if self.ninja_usable():
            current = self.current
            for seat, display in enumerate(self.displays):
                if seat != current:
                    row = act.NINJAS[seat]
                    actions.extend(row[t] for t in range(TYPES) if display[t])
        return actions

    def draw_sources(self) -> list[int]:
        """Non-empty sources, minus the one the first card of this turn came from."""
        piles = self.draw_piles
        discards = self.discard_piles
        used = self.drawn
        return [
            source
            for source, pile in ((0, piles[0]), (1, piles[1]), (2, discards[0]), (3, discards[1]))
            if pile and source not in used
        ]

    def _lay_and_discard_actions(self) -> list[Action]:
        hand = self.hands[self.current]
        minimum = self.minimum
        owner = self.owner
        displays = self.displays
        lays: list[Action] = []
        discards: list[Action] = []
        forced = self.forced_pile()
        for t in range(TYPES):
            held = hand[t]
            if not held:
                continue
            if forced is None:
                discards.extend(act.DISCARDS[t])
            else:
                discards.append(act.DISCARDS[t][forced])
            lowest = minimum[t]
            holder = owner[t]
            if holder >= 0 and displays[holder][t] >= lowest:
                lowest = displays[holder][t] + 1
            if held >= lowest:
                lays.extend(act.LAYS[t][lowest : held + 1])
        return lays + discards

    def forced_pile(self) -> int | None:
        """The slot rule: an empty slot must be (re)started before the other pile grows.

        Returns the pile index (0 or 1) a discard must go to, or ``None`` when both piles hold
        cards and the discarding player chooses. With both slots empty, slot 1 starts.
        """
        if not self.discard_piles[0]:
            return 0
        if not self.discard_piles[1]:
            return 1
        return None

    def ninja_usable(self) -> bool:
        """A miniature gained on an earlier turn is held and another display has a card."""
        if not self.ninja_on or self.ninja_held[self.current] <= self.gained_this_turn:
            return False
        current = self.current
        return any(any(d) for seat, d in enumerate(self.displays) if seat != current)

    # ------------------------------------------------------------------ applying actions

    def _apply(self, action: Action) -> list[Event]:
        events = self._perform(action)
        return events + self._take_forced_actions()

    def _take_forced_actions(self) -> list[Event]:
        """Play every publicly forced position (see ``HAND_DEPENDENT``); cache the next list."""
        events: list[Event] = []
        while self.phase != OVER:
            actions = self._legal_actions()
            if len(actions) != 1 or self.phase in HAND_DEPENDENT:
                self._legal_cache = (actions, None)
                break
            events += self._perform(actions[0])
        return events

    def _perform(self, action: Action) -> list[Event]:
        if isinstance(action, act.Draw):
            return self._draw(act.SOURCES.index(action.source))
        if isinstance(action, act.Discard):
            return self._discard(INDEX_OF[action.value], action.pile - 1)
        if isinstance(action, act.Lay):
            return self._lay(INDEX_OF[action.value], action.count)
        if isinstance(action, act.UseNinja):
            return self._use_ninja(action.seat, INDEX_OF[action.value])
        if isinstance(action, act.ChoosePile):
            return self._resolve_pending(action.pile - 1, forced=False)
        if isinstance(action, act.EndTurn):
            return self._end_turn()
        if isinstance(action, act.RevealTask):
            return rounds.reveal_task(self, action.deck)
        raise AssertionError(f"unhandled action {action!r}")

    def _draw(self, source: int) -> list[Event]:
        pile = self.draw_piles[source] if source < 2 else self.discard_piles[source - 2]
        t = pile.pop()
        seat = self.current
        self.hands[seat][t] += 1
        self.drawn.append(source)
        self.phase = DRAW_SECOND if self.phase == DRAW else LAY_OR_DISCARD
        name = act.SOURCES[source]
        if source >= 2:
            self.known[seat][t] += 1
            return [{"type": "card_drawn", "seat": seat, "source": name, "value": VALUES[t]}]
        return [
            {"type": "card_drawn", "seat": seat, "source": name, "value": None},
            {
                "type": "card_drawn_secret",
                "seat": seat,
                "source": name,
                "value": VALUES[t],
                "visible_to": [seat],
            },
        ]

    def _discard(self, t: int, pile: int) -> list[Event]:
        seat = self.current
        forced = self.forced_pile() is not None
        self.hands[seat][t] -= 1
        if self.known[seat][t]:
            self.known[seat][t] -= 1
        self.discard_piles[pile].append(t)
        event: Event = {
            "type": "card_discarded",
            "seat": seat,
            "value": VALUES[t],
            "pile": pile + 1,
            "forced": forced,
        }
        return [event, *self._after_action_two()]

    def _lay(self, t: int, count: int) -> list[Event]:
        seat = self.current
        holder = self.owner[t]
        beaten = self.displays[holder][t] if holder >= 0 else 0
        self.hands[seat][t] -= count
        known = self.known[seat]
        if known[t]:
            known[t] = max(0, known[t] - count)
        if holder >= 0:
            self.displays[holder][t] = 0
        self.displays[seat][t] = count
        self.owner[t] = seat
        events: list[Event] = [
            {
                "type": "set_laid",
                "seat": seat,
                "value": VALUES[t],
                "count": count,
                "beaten_seat": holder if holder >= 0 else None,
                "beaten_count": beaten,
            }
        ]
        if self.ninja_on and t == NINJA and self.ninja_supply:
            self.ninja_supply -= 1
            self.ninja_held[seat] += 1
            self.gained_this_turn += 1
            events.append(
                {
                    "type": "ninja_gained",
                    "seat": seat,
                    "supply": self.ninja_supply,
                    "held": self.ninja_held[seat],
                }
            )
        if holder >= 0:
            events += self._discard_display_cards(holder, t, beaten, BEATEN, NINJA_OR_END)
        else:
            events += self._after_action_two()
        return events

    def _use_ninja(self, target: int, t: int) -> list[Event]:
        seat = self.current
        self.ninja_held[seat] -= 1
        self.ninja_supply += 1
        display = self.displays[target]
        display[t] -= 1
        if not display[t]:
            self.owner[t] = -1
        event: Event = {
            "type": "ninja_used",
            "seat": seat,
            "target": target,
            "value": VALUES[t],
            "remaining": display[t],
            "supply": self.ninja_supply,
        }
        return [event, *self._discard_display_cards(target, t, 1, NINJA_REMOVAL, self.phase)]

    def _discard_display_cards(
        self, owner: int, t: int, count: int, reason: str, resume: str
    ) -> list[Event]:
        """Cards leaving a display go onto one pile picked by their owner (slot rule first)."""
        self.pending = PendingDiscard(owner, t, count, reason, resume)
        forced = self.forced_pile()
        if forced is not None:
            return self._resolve_pending(forced, forced=True)
        self.phase = CHOOSE_PILE
        return []

    def _resolve_pending(self, pile: int, *, forced: bool) -> list[Event]:
        pending = self.pending
        assert pending is not None
        self.pending = None
        self.discard_piles[pile].extend([pending.type_index] * pending.count)
        event: Event = {
            "type": "set_discarded",
            "seat": pending.seat,
            "value": VALUES[pending.type_index],
            "count": pending.count,
            "pile": pile + 1,
            "reason": pending.reason,
            "forced": forced,
        }
        if pending.resume == NINJA_OR_END:
            return [event, *self._after_action_two()]
        self.phase = pending.resume
        return [event]

    def _after_action_two(self) -> list[Event]:
        """Offer the remaining ninja uses with an explicit end, or end the turn right away."""
        if self.ninja_usable():
            self.phase = NINJA_OR_END
            return []
        return self._end_turn()

    def start_turn(self) -> list[Event]:
        assert self.draw_piles[0] and self.draw_piles[1], "a turn starts with two draw piles"
        self.phase = DRAW
        self.drawn = []
        self.gained_this_turn = 0
        return [{"type": "turn_started", "seat": self.current}]

    def _end_turn(self) -> list[Event]:
        triggers = self.round_end_triggers()
        if not triggers:
            self.current = (self.current + 1) % self.num_players
            return self.start_turn()
        self.round_triggers = triggers
        events: list[Event] = [
            {
                "type": "round_ended",
                "round": self.round_number,
                "seat": self.current,
                "triggers": copy.deepcopy(triggers),
            }
        ]
        if self.tasks_on:
            self.phase = REVEAL_TASK
            self.reveals_done = 0
            return events
        return events + rounds.finish_round(self)

    def round_end_triggers(self) -> list[JSON]:
        """The end-of-round conditions that hold now (checked only when a turn ends)."""
        return rounds.round_end_triggers(self)
