"""A rules-based Call to Glory player: lay sets big enough to stay, count the cards, do not feed
the next player, end the round when it pays.

Written from the rules (``/work/shared/rules/call_to_glory.md``):

* **A display scores each type once**, however many cards, but a set is lost to anyone who lays
  a larger one. So a set is worth its value times the chance that it stays. That chance is
  counted: the copies of a type the seat has not seen (not in its hand, not in a display, not
  in a discard pile, not publicly taken into someone's hand) are somewhere among the draw piles
  and the others' unknown hand cards, and an opponent needs ``count + 1`` of them (with the
  cards they were seen to take) before the round ends.
* **Lay** when the expected points gained (a new type, a set taken from someone) beat keeping
  the cards; lay all the cards of the type (a bigger set is safer and nothing else uses them).
* **End the round** (enough types in the display) only when the seat is ahead in it, and race
  to lay what it can when someone else is about to end it or a draw pile is nearly empty.
* **Draw** a discard pile's top card when it makes (or grows towards) a set worth having, else
  blind; blind from the smaller pile when ahead (the round ends sooner), the larger when behind.
* **Discard** the card least useful to the seat and to the next player (a type somebody
  collects, or can use to beat one of our sets, is not given away), on the pile whose top card
  it should bury.
* Ninjas (variant) remove a card from the leader's display where it takes a whole type away;
  tasks (variant) are revealed where they pay the seat most and the others least.

It reads only its own hand and tasks and the public table (displays, discard piles, pile sizes,
hand sizes, the cards the table saw a player take), never another hand or a draw pile's order.
"""

from __future__ import annotations

import random

from games.call_to_glory import actions as act
from games.call_to_glory.cards import INDEX_OF, TASK_BONUS, VALUES
from games.call_to_glory.phases import (
    CHOOSE_PILE,
    DRAW,
    DRAW_SECOND,
    LAY_OR_DISCARD,
    NINJA_OR_END,
    REVEAL_TASK,
)
from games.call_to_glory.scoring import display_points
from games.call_to_glory.state import CallToGloryState
from games.core import Action

DRAW_FROM_DISCARD = 1.5
"""How useful a visible card must be (in expected points) to take it instead of a blind card.
At 0.6 the player took discard tops that merely started a set, showing the table what it
collects and skipping the blind card's chances: against the independent greedy player
(``benchmarks/greedy_players.py``) it won 40 % of 2-player duplicate games; at 1.5 it wins
about 53 %, and its share of the points at 3 and 4 players rose from 0.85–0.91× to 1.2× a greedy
seat's (2026-11-28)."""


class _Knowledge:
    """What ``seat`` can tell about the cards and the round."""

    __slots__ = (
        "_ahead",
        "_beaten",
        "_urgency",
        "future_draws",
        "hand",
        "hidden",
        "others",
        "seat",
        "shares",
        "shortest",
        "state",
        "unseen",
    )

    def __init__(self, state: CallToGloryState, seat: int) -> None:
        self.state = state
        self.seat = seat
        players = state.num_players
        hand = state.hands[seat]
        self.hand = hand
        first, second = state.discard_piles
        unseen = [
            value - held - first.count(t) - second.count(t)
            for t, (value, held) in enumerate(zip(VALUES, hand, strict=True))
        ]
        for display in state.displays:
            if any(display):
                unseen = [u - d for u, d in zip(unseen, display, strict=True)]
        self.others = others = [other for other in range(players) if other != seat]
        unknown_in_hand = [0] * players
        for other in others:
            known = state.known[other]
            if any(known):
                unseen = [u - k for u, k in zip(unseen, known, strict=True)]
                unknown_in_hand[other] = sum(state.hands[other]) - sum(known)
            else:
                unknown_in_hand[other] = sum(state.hands[other])
        self.unseen = [count if count > 0 else 0 for count in unseen]
        self.hidden = hidden = max(1, sum(self.unseen))
        piles = state.draw_piles
        self.shortest = shortest = min(len(piles[0]), len(piles[1]))
        # Each turn takes about one card from each draw pile: the round has roughly that many
        # turns left, shared among the players (an estimate; laying types may end it sooner).
        self.future_draws = future = 2.0 * max(1.0, shortest * 0.9) / players
        self.shares = [min(1.0, (unknown_in_hand[o] + future) / hidden) for o in range(players)]
        self._beaten: dict[tuple[int, int], float] = {}
        self._ahead: int | None = None
        self._urgency: float | None = None

    @property
    def ahead(self) -> int:
        """The seat's display points minus the best other display's."""
        if self._ahead is None:
            displays = self.state.displays
            mine = display_points(displays[self.seat])
            self._ahead = mine - max(display_points(displays[o]) for o in self.others)
        return self._ahead

    @property
    def urgency(self) -> float:
        """How soon the round may end: 1 when someone is a type short of ending it or a draw
        pile is almost gone, 0.5 when that is two steps away, else 0."""
        if self._urgency is None:
            state = self.state
            players = state.num_players
            needed = state.types_needed
            most = max(9 - state.displays[o].count(0) for o in self.others)
            self._urgency = 0.0
            if most >= needed - 1 or self.shortest <= players:
                self._urgency = 1.0
            elif most >= needed - 2 or self.shortest <= 3 * players:
                self._urgency = 0.5
        return self._urgency

    def beaten_chance(self, t: int, count: int) -> float:
        """Chance that some other player lays more than ``count`` cards of type ``t`` before
        the round ends (each of the unseen copies reaches them with the share of hidden cards
        they will hold)."""
        key = (t, count)
        cached = self._beaten.get(key)
        if cached is not None:
            return cached
        state = self.state
        minimum = state.minimum[t]
        copies = self.unseen[t]
        stays = 1.0
        for other in self.others:
            need = max(count + 1, minimum) - state.known[other][t]
            if need <= 0:
                stays = 0.0
                break
            if need > copies:
                continue
            stays *= 1.0 - _at_least(copies, self.shares[other], need)
        self._beaten[key] = 1.0 - stays
        return 1.0 - stays


def _at_least(trials: int, chance: float, need: int) -> float:
    """P(Binomial(trials, chance) >= need)."""
    if need <= 0:
        return 1.0
    if chance >= 1.0:
        return 1.0 if trials >= need else 0.0
    miss = 1.0 - chance
    term = miss**trials  # k = 0
    below = 0.0
    for k in range(need):
        below += term
        term = term * (trials - k) / (k + 1) * chance / miss
    return max(0.0, 1.0 - below)


def choose(state: CallToGloryState, seat: int, rng: random.Random) -> Action:
    """The rules-based player's move for ``seat`` (the seat to move)."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    phase = state.phase
    knowledge = _Knowledge(state, seat)
    if phase == REVEAL_TASK:
        return max(legal, key=lambda action: _task_value(state, seat, action))
    if phase == CHOOSE_PILE:
        return _cover(state, knowledge, legal)
    ninjas = [action for action in legal if type(action) is act.UseNinja]
    if ninjas:
        target = _ninja_target(state, seat, ninjas)
        if target is not None:
            return target
    if phase in (DRAW, DRAW_SECOND):
        return _draw(state, knowledge, [a for a in legal if type(a) is act.Draw], rng)
    if phase == LAY_OR_DISCARD:
        return _lay_or_discard(state, knowledge, legal, rng)
    if phase == NINJA_OR_END:
        return act.END_TURN
    return legal[rng.randrange(len(legal))]


# --------------------------------------------------------------------------- worth of cards


def _set_worth(knowledge: _Knowledge, t: int, count: int) -> float:
    """Expected points of a set of ``count`` cards of type ``t`` in the seat's display."""
    return VALUES[t] * (1.0 - knowledge.beaten_chance(t, count)) + _task_worth(knowledge, t, count)


def _task_worth(knowledge: _Knowledge, t: int, count: int) -> float:
    tasks = knowledge.state.tasks[knowledge.seat]
    if not tasks:
        return 0.0
    bonus = sum(TASK_BONUS[deck] for deck, task in tasks if task == t)
    return bonus * count / len(tasks)


def _lay_gain(state: CallToGloryState, knowledge: _Knowledge, t: int, count: int) -> float:
    """Expected points a lay of ``count`` × type ``t`` adds for the seat against the others."""
    seat = knowledge.seat
    holder = state.owner[t]
    gain = _set_worth(knowledge, t, count)
    if holder == seat:
        gain -= _set_worth(knowledge, t, state.displays[seat][t])
    elif holder >= 0:
        # Taken from another player: their points go too (shared among the rest of the table).
        gain += VALUES[t] / max(1, state.num_players - 1) * 1.5
    return gain


def _usefulness(state: CallToGloryState, knowledge: _Knowledge, t: int, extra: int = 0) -> float:
    """Expected points one more card of type ``t`` in the hand is worth to the seat."""
    seat = knowledge.seat
    held = knowledge.hand[t] + extra
    holder = state.owner[t]
    minimum = state.minimum[t]
    if holder == seat:
        own = state.displays[seat][t]
        if held + 1 <= own:
            return 0.05 * VALUES[t] * knowledge.beaten_chance(t, own)
        risk = knowledge.beaten_chance(t, own) - knowledge.beaten_chance(t, held + 1)
        return max(0.0, risk) * VALUES[t]
    need = minimum if holder < 0 else max(minimum, state.displays[holder][t] + 1)
    if held + 1 > need + 2:
        return 0.1
    reachable = VALUES[t] * (1.0 - knowledge.beaten_chance(t, max(need, held + 1)))
    if holder >= 0:
        reachable *= 1.5
    progress = (held + 1) / need
    return reachable * min(1.0, progress) * (0.5 if held + 1 < need else 1.0) / need * 2


def _use_to_others(state: CallToGloryState, knowledge: _Knowledge, t: int) -> float:
    """How much a card of type ``t`` helps the next player (who may take it from a pile)."""
    seat = knowledge.seat
    following = (seat + 1) % state.num_players
    value = 0.0
    if state.known[following][t]:
        value += VALUES[t] * 0.6  # they were seen collecting it
    holder = state.owner[t]
    if holder == seat:
        # Our set of t: a card more for them is a step towards beating it.
        value += VALUES[t] * 0.4
    elif holder < 0:
        value += VALUES[t] * 0.1
    return value


# --------------------------------------------------------------------------- decisions


def _lay_or_discard(
    state: CallToGloryState, knowledge: _Knowledge, legal: list[Action], rng: random.Random
) -> Action:
    seat = knowledge.seat
    lays: dict[int, act.Lay] = {}
    for action in legal:
        if type(action) is act.Lay:
            t = INDEX_OF[action.value]  # type: ignore[attr-defined]
            if t not in lays or action.count > lays[t].count:  # type: ignore[attr-defined]
                lays[t] = action  # type: ignore[assignment]
    best_lay: Action | None = None
    best_gain = -1e9
    display = state.displays[seat]
    types_now = sum(1 for c in display if c)
    for t, action in lays.items():
        gain = _lay_gain(state, knowledge, t, action.count)
        ends = types_now + (0 if display[t] else 1) >= state.types_needed
        if ends or _all_types_after(state, t):
            gain += _ending_bonus(state, knowledge, t, action.count)
        else:
            # The cards of the set could have grown a bigger one later.
            gain -= (
                (1.0 - knowledge.urgency)
                * 0.15
                * VALUES[t]
                * knowledge.beaten_chance(t, action.count)
            )
        if gain > best_gain:
            best_gain, best_lay = gain, action
    discard, discard_cost = _best_discard(state, knowledge, legal, rng)
    threshold = 0.5 - 1.5 * knowledge.urgency
    if best_lay is not None and best_gain - threshold > -discard_cost:
        return best_lay
    assert discard is not None or best_lay is not None
    return discard if discard is not None else best_lay  # type: ignore[return-value]


def _all_types_after(state: CallToGloryState, t: int) -> bool:
    return state.owner[t] < 0 and sum(1 for holder in state.owner if holder < 0) == 1


def _ending_bonus(state: CallToGloryState, knowledge: _Knowledge, t: int, count: int) -> float:
    """Ending the round now: good when the seat leads the round (or the game, in its last
    round), bad when it trails."""
    seat = knowledge.seat
    points = [display_points(display) for display in state.displays]
    holder = state.owner[t]
    if holder >= 0 and holder != seat:
        points[holder] -= VALUES[t]
    if not state.displays[seat][t]:
        points[seat] += VALUES[t]
    totals = state.scores
    last = state.round_number >= state.rounds_total
    mine = points[seat] + (totals[seat] if last else 0)
    best_other = max(points[o] + (totals[o] if last else 0) for o in knowledge.others)
    margin = mine - best_other
    if margin > 0:
        return 30.0 + margin
    return -30.0 + margin


def _best_discard(
    state: CallToGloryState, knowledge: _Knowledge, legal: list[Action], rng: random.Random
) -> tuple[Action | None, float]:
    """The cheapest card to give away and the pile to put it on; its cost in expected points."""
    best: Action | None = None
    best_cost = 1e9
    following = (knowledge.seat + 1) % state.num_players
    piles = state.discard_piles
    for action in legal:
        if type(action) is not act.Discard:
            continue
        t = INDEX_OF[action.value]  # type: ignore[attr-defined]
        cost = _usefulness(state, knowledge, t, extra=-1) + _use_to_others(state, knowledge, t)
        pile = piles[action.pile - 1]  # type: ignore[attr-defined]
        if pile:
            # Burying a top card the next player wants is a small gain.
            cost -= 0.3 * _use_to_others(state, knowledge, pile[-1])
            if state.known[following][pile[-1]]:
                cost -= 0.5
        cost += rng.random() * 1e-3
        if cost < best_cost:
            best, best_cost = action, cost
    return best, best_cost


def _draw(
    state: CallToGloryState, knowledge: _Knowledge, draws: list[Action], rng: random.Random
) -> Action:
    best_visible: Action | None = None
    best_use = DRAW_FROM_DISCARD
    blind: list[Action] = []
    for action in draws:
        source = act.SOURCES.index(action.source)  # type: ignore[attr-defined]
        if source < 2:
            blind.append(action)
            continue
        t = state.discard_piles[source - 2][-1]
        use = _usefulness(state, knowledge, t)
        if use > best_use:
            best_visible, best_use = action, use
    if best_visible is not None or not blind:
        return best_visible if best_visible is not None else draws[0]
    if len(blind) == 1:
        return blind[0]
    sizes = [len(state.draw_piles[act.SOURCES.index(a.source)]) for a in blind]  # type: ignore[attr-defined]
    if sizes[0] == sizes[1]:
        return blind[rng.randrange(2)]
    smaller = 0 if sizes[0] < sizes[1] else 1
    # Ahead: hurry the end of the round (the smaller pile runs out first); behind: delay it.
    return blind[smaller] if knowledge.ahead > 0 else blind[1 - smaller]


def _cover(state: CallToGloryState, knowledge: _Knowledge, legal: list[Action]) -> Action:
    """Our beaten (or ninja'd) cards go on the pile whose top the next player wants most."""
    best = legal[0]
    best_use = -1.0
    for action in legal:
        pile = state.discard_piles[action.pile - 1]  # type: ignore[attr-defined]
        use = _use_to_others(state, knowledge, pile[-1]) if pile else 0.0
        if use > best_use:
            best, best_use = action, use
    return best


def _ninja_target(state: CallToGloryState, seat: int, ninjas: list[Action]) -> Action | None:
    """Take a whole type (a set of one card) from the player with the most points on show."""
    points = [display_points(display) for display in state.displays]
    best: Action | None = None
    best_key = (0, 0)
    for action in ninjas:
        target = action.seat  # type: ignore[attr-defined]
        t = INDEX_OF[action.value]  # type: ignore[attr-defined]
        if state.displays[target][t] != 1:
            continue
        key = (points[target], VALUES[t])
        if key > best_key:
            best, best_key = action, key
    return best


def _task_value(state: CallToGloryState, seat: int, action: Action) -> float:
    deck = action.deck  # type: ignore[attr-defined]
    t = next(task for d, task in state.tasks[seat] if d == deck)
    bonus = TASK_BONUS[deck]
    value = 0.0
    for owner, display in enumerate(state.displays):
        gained = bonus * display[t]
        value += gained if owner == seat else -gained / max(1, state.num_players - 1)
    return value
