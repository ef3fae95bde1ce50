"""A Kami game in progress: whose decision it is, what is legal, and what each action does.

A move of the rulebook (a lead or a counter) is two decisions here: first the defense card, then
the attack card. In Duel the card under a taken mercenary is turned up between the two, so the
player always chooses the attack knowing what the middle offers.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from games.core import JSON, Action, Event, State
from games.kami import actions as act
from games.kami.cards import BY_NAME, COUNTERS, EMPRESS, NAMES, SOLDIER, TYPES, VALUES, names_of
from games.kami.rules import illegal_reason
from games.kami.scoring import has_won, settle
from games.kami.setup import deal, draw_start_player
from games.rng import Rng

DEMORALIZED_SOLDIERS = 5

ASK_EVERYONE = "ask_everyone"
ASK_ELIGIBLE = "ask_eligible"
DEMORALIZED_OFF = "off"
DEMORALIZED_RULES = (ASK_EVERYONE, ASK_ELIGIBLE, DEMORALIZED_OFF)
"""Values of option ``demoralized``: who is asked after a 4-player deal. ``to_move`` and
``decision`` are public, so asking only eligible players tells the table who holds 5+ Soldiers;
asking everyone (the default) keeps the check silent until someone actually reveals."""

REVEAL_PHASE = "demoralized_reveal"
CONSENT_PHASE = "demoralized_consent"
LEAD_PHASE = "lead_defense"
LEAD_ATTACK_PHASE = "lead_attack"
RESPOND_PHASE = "respond"
COUNTER_ATTACK_PHASE = "counter_attack"
OVER_PHASE = "game_over"
PHASES = (
    REVEAL_PHASE,
    CONSENT_PHASE,
    LEAD_PHASE,
    LEAD_ATTACK_PHASE,
    RESPOND_PHASE,
    COUNTER_ATTACK_PHASE,
    OVER_PHASE,
)
ATTACK_PHASES = (LEAD_ATTACK_PHASE, COUNTER_ATTACK_PHASE)

HIDDEN_LEAD = ("lead", None)
"""How a lead from someone else's hand looks: the card went face down unseen."""

DefenseCard = tuple[int, bool, bool]
"""``(card, face_up, from_mercenary)`` in a defense line."""
AttackCard = tuple[int, bool]
"""``(card, from_mercenary)`` in an attack line."""


class KamiState(State):
    """All of Kami's table. Attributes are plain lists so that serialisation (``serial.py``) and
    the test builder can read and set them directly; everything else treats them as private."""

    game_key = "kami"

    def __init__(self, players: int, options: JSON, rng: Rng) -> None:
        self.num_players = players
        self.options = dict(options)
        self.rng = rng
        self.hands: list[list[int]] = [[0] * 8 for _ in range(players)]
        self.hand_sizes: list[int] = [0] * players
        self.defense: list[list[DefenseCard]] = [[] for _ in range(players)]
        self.attack: list[list[AttackCard]] = [[] for _ in range(players)]
        self.stacks: list[list[int]] = []
        self.set_aside: list[int] = []
        self.leftover_seen_by: list[int] = []
        self.phase = LEAD_PHASE
        self.seat: int | None = 0
        self.opening = True
        self.attacker: int | None = None
        self.attack_card: int | None = None
        self.passes = 0
        self.open_empresses = 0
        self.start_player = 0
        self.round = 1
        self.redeals = 0
        self.totals: list[int] = [0] * (2 if players == 4 else players)
        self.history: list[JSON] = []
        self.last_round: JSON | None = None
        self.demoralized_queue: list[int] = []
        """Seats the Demoralized check has still to ask; the head is asked (or, during consent,
        is the revealer whose partner decides)."""
        self.revealed_soldiers: list[JSON] = []
        self.demoralized_asked: list[int] = []
        """Seats the Demoralized check of this deal has asked so far. ``to_move`` showed each of
        them to the table, so it is public; under ``ask_eligible`` it tells who holds 5+
        Soldiers, and ``determinize`` keeps the hands consistent with it."""
        self.start_draw: list[dict[int, int]] = []
        self.opening_events: list[Event] = []
        """Events of ``new_state`` (start-player draw and first deal) for the UI to show."""
        self.winner_side: int | None = None

    # ---------------------------------------------------------------- options and sides

    @property
    def is_duel(self) -> bool:
        return self.num_players == 2

    @property
    def is_team_game(self) -> bool:
        return self.num_players == 4

    def side_of(self, seat: int) -> int:
        """Teams are seats 0+2 and 1+3; with 2 or 3 players every seat is its own side."""
        return seat % 2 if self.num_players == 4 else seat

    def seats_of(self, side: int) -> list[int]:
        return [side, side + 2] if self.num_players == 4 else [side]

    def partner(self, seat: int) -> int:
        return (seat + 2) % 4

    # ---------------------------------------------------------------- protocol

    @property
    def to_move(self) -> int | None:
        return self.seat

    @property
    def decision(self) -> str | None:
        return None if self.seat is None else self.phase

    @property
    def scores(self) -> list[int]:
        totals, side_of = self.totals, self.side_of
        return [totals[side_of(seat)] for seat in range(self.num_players)]

    @property
    def rounds_finished(self) -> int:
        return len(self.history)

    @property
    def round_scores(self) -> list[list[int]]:
        rows = []
        for record in self.history:
            side = self.side_of(record["seat"])
            rows.append(
                [
                    record["points"] if self.side_of(seat) == side else 0
                    for seat in range(self.num_players)
                ]
            )
        return rows

    @property
    def winners(self) -> list[int]:
        return [] if self.winner_side is None else self.seats_of(self.winner_side)

    def why_illegal(self, action: Action) -> str:
        return illegal_reason(self, action)

    def _view(self, seat: int | None) -> JSON:
        from games.kami.view import table_view

        return table_view(self, seat)

    def to_json(self) -> JSON:
        from games.kami.serial import state_to_json

        return state_to_json(self)

    def clone(self) -> KamiState:
        from games.kami.hidden import copy_state

        return copy_state(self)

    def determinize(self, seat: int, rng: Rng) -> KamiState:
        from games.kami.hidden import determinize

        return determinize(self, seat, rng)

    @property
    def sides(self) -> list[int]:
        return [self.side_of(seat) for seat in range(self.num_players)]

    def observed_action(self, action: Action, seat: int | None) -> Hashable:
        """A lead from the hand hides its card from everyone but the leader."""
        if type(action) is act.Lead and seat != self.seat:
            return HIDDEN_LEAD
        return action

    def explain(self, action: Action) -> JSON | None:
        from games.kami.explain import explain

        return explain(self, action) if self.is_legal(action) else None

    # ---------------------------------------------------------------- derived facts

    @property
    def empress_open(self) -> bool:
        """An Empress lies face-up in some defense line; a face-down one never counts."""
        return self.open_empresses > 0

    def available_stacks(self) -> list[int]:
        return [index for index, stack in enumerate(self.stacks) if stack]

    def can_reveal_soldiers(self, seat: int) -> bool:
        """Demoralized needs at least 5 Soldiers in the hand."""
        return self.hands[seat][SOLDIER] >= DEMORALIZED_SOLDIERS

    def demoralized_seats_to_ask(self) -> list[int]:
        """Who the Demoralized check asks after this deal, in turn order from the start player.

        Under ``ask_everyone`` the list is the same for every deal, so the order of decisions
        reveals nothing about the hands; ``ask_eligible`` filters by hand and therefore does.
        """
        rule = self.options["demoralized"]
        if self.num_players != 4 or rule == DEMORALIZED_OFF:
            return []
        order = [(self.start_player + step) % 4 for step in range(4)]
        if rule == ASK_ELIGIBLE:
            return [seat for seat in order if self.can_reveal_soldiers(seat)]
        return order

    @staticmethod
    def attack_allowed(card: int, *, last_card: bool, empress_open: bool) -> bool:
        """Only the Empress is restricted: she needs the other one face-up in defense, or must be
        the hand's last card (never true for a mercenary)."""
        return card != EMPRESS or empress_open or last_card

    def attack_follows(self, seat: int, *, hand_card: int | None, stack: int | None) -> bool:
        """Whether some attack is legal after this defense card. With 3 or 4 players it always
        is (hands are even); in Duel the hand may be all Empresses with nothing open."""
        hand = self.hands[seat]
        size = self.hand_sizes[seat]
        left = size - (hand_card is not None)
        plain_left = size - hand[EMPRESS] - (hand_card is not None and hand_card != EMPRESS)
        if plain_left > 0 or left == 1:  # the usual case, decided without simulating
            return True
        opened = self.empress_open
        tops = [s[-1] for s in self.stacks if s]
        face_up = self.phase == RESPOND_PHASE
        if hand_card is not None:
            size -= 1
            placed = hand_card
            remaining = list(hand)
            remaining[hand_card] -= 1
        else:
            assert stack is not None
            taken = self.stacks[stack]
            placed = taken[-1]
            remaining = hand
            tops.remove(placed)
            if len(taken) > 1:
                tops.append(taken[-2])
        if face_up and placed == EMPRESS:
            opened = True
        if any(
            remaining[card] and self.attack_allowed(card, last_card=size == 1, empress_open=opened)
            for card in TYPES
        ):
            return True
        return any(self.attack_allowed(top, last_card=False, empress_open=opened) for top in tops)

    # ---------------------------------------------------------------- legal actions

    def _legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase == RESPOND_PHASE:
            return self._responses()
        if phase in ATTACK_PHASES:
            return self._attacks()
        if phase == LEAD_PHASE:
            return self._leads()
        if phase == REVEAL_PHASE:
            # Asked even when keeping hidden is all they can do: answering for them would skip
            # them and so tell the table that they hold fewer than 5 Soldiers.
            assert self.seat is not None
            if self.can_reveal_soldiers(self.seat):
                return [act.REVEAL, act.KEEP_HIDDEN]
            return [act.KEEP_HIDDEN]
        if phase == CONSENT_PHASE:
            return [act.REDEAL, act.PLAY_ON]
        return []

    def _responses(self) -> list[Action]:
        seat = self.seat
        assert seat is not None and self.attack_card is not None
        hand = self.hands[seat]
        beats = [row[self.attack_card] for row in COUNTERS]
        actions: list[Action] = [act.PASS]
        if not self.stacks:
            actions.extend(act.COUNTER[card] for card in TYPES if hand[card] and beats[card])
            return actions
        if self.hand_sizes[seat] >= 2:  # a Duel hand's last card must be an attack
            actions.extend(
                act.COUNTER[card]
                for card in TYPES
                if hand[card]
                and beats[card]
                and self.attack_follows(seat, hand_card=card, stack=None)
            )
        actions.extend(
            act.COUNTER_MERCENARY[index]
            for index, stack in enumerate(self.stacks)
            if stack and beats[stack[-1]] and self.attack_follows(seat, hand_card=None, stack=index)
        )
        return actions

    def _leads(self) -> list[Action]:
        seat = self.seat
        assert seat is not None
        hand = self.hands[seat]
        if not self.stacks:
            return [act.LEAD[card] for card in TYPES if hand[card]]
        actions: list[Action] = []
        if self.hand_sizes[seat] >= 2:
            actions.extend(
                act.LEAD[card]
                for card in TYPES
                if hand[card] and self.attack_follows(seat, hand_card=card, stack=None)
            )
        actions.extend(
            act.LEAD_MERCENARY[index]
            for index, stack in enumerate(self.stacks)
            if stack and self.attack_follows(seat, hand_card=None, stack=index)
        )
        return actions

    def _attacks(self) -> list[Action]:
        seat = self.seat
        assert seat is not None
        hand = self.hands[seat]
        last = self.hand_sizes[seat] == 1
        opened = self.open_empresses > 0
        allowed = self.attack_allowed
        actions: list[Action] = [
            act.ATTACK[card]
            for card in TYPES
            if hand[card] and allowed(card, last_card=last, empress_open=opened)
        ]
        if self.stacks:
            actions.extend(
                act.ATTACK_MERCENARY[index]
                for index, stack in enumerate(self.stacks)
                if stack and allowed(stack[-1], last_card=False, empress_open=opened)
            )
        return actions

    # ---------------------------------------------------------------- applying actions

    def _apply(self, action: Action) -> list[Event]:
        events: list[Event] = []
        handler = _HANDLERS[type(action)]
        handler(self, action, events)
        return events

    def _take_from_hand(self, seat: int, card: int) -> None:
        self.hands[seat][card] -= 1
        self.hand_sizes[seat] -= 1

    def _take_mercenary(self, stack: int) -> tuple[int, Event | None]:
        """Mercenaries go straight to the table, never into a hand; the card below turns up.
        Returns the card and the event announcing the uncovered one (if any) for the caller to
        log after its own event."""
        cards = self.stacks[stack]
        card = cards.pop()
        if not cards:
            return card, None
        return card, {"type": "mercenary_revealed", "stack": stack, "card": NAMES[cards[-1]]}

    def _on_pass(self, action: Action, events: list[Event]) -> None:
        seat = self.seat
        assert seat is not None
        events.append({"type": "pass", "seat": seat})
        self.passes += 1
        if self.passes == self.num_players - 1:
            self._begin_lead(self.attacker, events)  # type: ignore[arg-type]
        else:
            self.seat = (seat + 1) % self.num_players

    def _begin_lead(self, seat: int, events: list[Event]) -> None:
        self.phase = LEAD_PHASE
        self.seat = seat
        if self.stacks and self.hand_sizes[seat] == 1 and not self.available_stacks():
            # Our Duel ruling D5: one hand card and no mercenary left leaves no two-card lead,
            # so the card is played alone as the final attack (never doubled).
            card = next(card for card in TYPES if self.hands[seat][card])
            events.append({"type": "lone_attack", "seat": seat, "card": NAMES[card]})
            self._place_attack(seat, card, False, events, defended=False)

    def _on_counter(self, action: Action, events: list[Event]) -> None:
        seat = self.seat
        assert seat is not None
        uncovered = None
        if isinstance(action, act.Counter):
            card = BY_NAME[action.card]
            self._take_from_hand(seat, card)
        else:
            card, uncovered = self._take_mercenary(action.stack)  # type: ignore[attr-defined]
        mercenary = not isinstance(action, act.Counter)
        event = {"type": "counter", "seat": seat, "card": NAMES[card], "mercenary": mercenary}
        events.append(event)
        if uncovered is not None:
            events.append(uncovered)
        self.defense[seat].append((card, True, mercenary))
        if card == EMPRESS:
            self.open_empresses += 1
        self.phase = COUNTER_ATTACK_PHASE
        self._attack_if_forced(seat, events)

    def _on_lead(self, action: Action, events: list[Event]) -> None:
        seat = self.seat
        assert seat is not None
        if isinstance(action, act.Lead):
            card = BY_NAME[action.card]
            self._take_from_hand(seat, card)
            events.append({"type": "lead", "seat": seat, "opening": self.opening, "card": None})
            events.append(
                {"type": "hidden_defense", "seat": seat, "card": NAMES[card], "visible_to": [seat]}
            )
            self.defense[seat].append((card, False, False))
        else:
            card, uncovered = self._take_mercenary(action.stack)  # type: ignore[attr-defined]
            # The card lay face-up on its stack, so hiding it hides nothing: the event says it.
            events.append(
                {"type": "lead", "seat": seat, "opening": self.opening, "card": NAMES[card]}
            )
            if uncovered is not None:
                events.append(uncovered)
            self.defense[seat].append((card, False, True))
        self.opening = False
        self.phase = LEAD_ATTACK_PHASE
        self._attack_if_forced(seat, events)

    def _attack_if_forced(self, seat: int, events: list[Event]) -> None:
        """A lone hand card with no mercenary to choose instead is the only possible attack; the
        whole table can see that, so the engine plays it without asking."""
        if self.hand_sizes[seat] == 1 and not (self.stacks and self.available_stacks()):
            card = next(card for card in TYPES if self.hands[seat][card])
            self._place_attack(seat, card, False, events)

    def _on_attack(self, action: Action, events: list[Event]) -> None:
        seat = self.seat
        assert seat is not None
        if isinstance(action, act.Attack):
            self._place_attack(seat, BY_NAME[action.card], False, events)
            return
        card, uncovered = self._take_mercenary(action.stack)  # type: ignore[attr-defined]
        self._place_attack(seat, card, True, events)  # never ends a round: the hand is not empty
        if uncovered is not None:
            events.append(uncovered)

    def _place_attack(
        self, seat: int, card: int, mercenary: bool, events: list[Event], *, defended: bool = True
    ) -> None:
        """Put the attack card down; an emptied hand ends the round, else the others respond.
        ``defended`` is false only for the lone attack of ruling D5, which has no defense card."""
        if not mercenary:
            self._take_from_hand(seat, card)
        self.attack[seat].append((card, mercenary))
        events.append({"type": "attack", "seat": seat, "card": NAMES[card], "mercenary": mercenary})
        if self.hand_sizes[seat] == 0:
            self._end_round(seat, card, self.defense[seat][-1] if defended else None, events)
            return
        self.attacker = seat
        self.attack_card = card
        self.passes = 0
        self.phase = RESPOND_PHASE
        self.seat = (seat + 1) % self.num_players

    def _end_round(
        self, seat: int, card: int, final_defense: DefenseCard | None, events: list[Event]
    ) -> None:
        """The emptied hand's side scores the final attack, doubled (Volltreffer) only when the
        same move hid an identical card face-down in defense."""
        revealed = None
        doubled = False
        if final_defense is not None and not final_defense[1]:
            revealed = final_defense[0]
            doubled = revealed == card
        points = VALUES[card] * (2 if doubled else 1)
        side = self.side_of(seat)
        before = self.totals[side]
        ending, target = self.options["ending"], self.options["target"]
        total = settle(
            before, points, target=target, ending=ending, lord_clamp=self.options["lord_clamp"]
        )
        self.totals[side] = total
        record = {
            "round": self.round,
            "start_player": self.start_player,
            "seat": seat,
            "seats": self.seats_of(side),
            "card": NAMES[card],
            "points": points,
            "doubled": doubled,
            "revealed_defense": None if revealed is None else NAMES[revealed],
            "total_before": before,
            "total": total,
        }
        self.history.append(record)
        self.last_round = record
        events.append({"type": "round_end", **record, "seats": list(record["seats"])})
        if has_won(total, target=target, ending=ending):
            self.winner_side = side
            self.phase = OVER_PHASE
            self.seat = None
            events.append({"type": "game_over", "winners": self.winners, "scores": self.scores})
            return
        self.start_player = (self.start_player + 1) % self.num_players
        self.round += 1
        self.redeals = 0
        self.deal_round(events)

    # ---------------------------------------------------------------- dealing

    def draw_for_start(self, events: list[Event]) -> None:
        start, draws = draw_start_player(self.rng, self.num_players)
        self.start_player = start
        self.start_draw = draws
        events.append(
            {
                "type": "start_player_draw",
                "draws": [
                    [{"seat": seat, "card": NAMES[card]} for seat, card in draw.items()]
                    for draw in draws
                ],
                "start_player": start,
            }
        )

    def deal_round(self, events: list[Event], *, redeal: bool = False) -> None:
        """Clear the table, deal for the mode, then ask Demoralized or let the start player open."""
        players = self.num_players
        dealt = deal(
            self.rng,
            players,
            self.start_player,
            publisher_deal=self.options["three_player_deal"] == "publisher",
        )
        self.hands = dealt.hands
        self.hand_sizes = [sum(hand) for hand in dealt.hands]
        self.stacks = dealt.stacks
        self.set_aside = dealt.set_aside
        self.leftover_seen_by = dealt.leftover_seen_by
        self.defense = [[] for _ in range(players)]
        self.attack = [[] for _ in range(players)]
        self.attacker = None
        self.attack_card = None
        self.passes = 0
        self.open_empresses = 0
        self.opening = True
        self.revealed_soldiers = []
        public: Event = {
            "type": "deal",
            "round": self.round,
            "start_player": self.start_player,
            "redeal": redeal,
            "hand_sizes": list(self.hand_sizes),
        }
        if self.stacks:
            public["mercenaries"] = [NAMES[stack[-1]] for stack in self.stacks]
        if players == 3:
            public["set_aside"] = len(self.set_aside)
        events.append(public)
        for seat in range(players):
            events.append(
                {
                    "type": "hand",
                    "seat": seat,
                    "cards": names_of(self.hands[seat]),
                    "visible_to": [seat],
                }
            )
        for card, seat in zip(self.set_aside, self.leftover_seen_by, strict=False):
            events.append(
                {"type": "leftover_seen", "seat": seat, "card": NAMES[card], "visible_to": [seat]}
            )
        self.start_demoralized_check()

    def start_demoralized_check(self) -> None:
        """Queue the players the Demoralized check asks for the cards just dealt (option
        ``demoralized``), then hand the decision to the first of them or to the opening lead."""
        self.demoralized_queue = self.demoralized_seats_to_ask()
        self.demoralized_asked = []
        self._next_demoralized_or_open()

    def _next_demoralized_or_open(self) -> None:
        if self.demoralized_queue:
            self.phase = REVEAL_PHASE
            self.seat = self.demoralized_queue[0]
            self.demoralized_asked.append(self.seat)
        else:
            self.phase = LEAD_PHASE
            self.seat = self.start_player

    # ---------------------------------------------------------------- Demoralized

    def _on_reveal(self, action: Action, events: list[Event]) -> None:
        seat = self.seat
        assert seat is not None
        soldiers = self.hands[seat][SOLDIER]
        self.revealed_soldiers.append({"seat": seat, "soldiers": soldiers})
        events.append({"type": "soldiers_revealed", "seat": seat, "soldiers": soldiers})
        self.phase = CONSENT_PHASE
        self.seat = self.partner(seat)

    def _on_keep_hidden(self, action: Action, events: list[Event]) -> None:
        # No event: declining must not add anything to what the table already knows.
        self.demoralized_queue.pop(0)
        self._next_demoralized_or_open()

    def _on_redeal(self, action: Action, events: list[Event]) -> None:
        events.append({"type": "redeal", "seat": self.seat, "revealer": self.demoralized_queue[0]})
        self.redeals += 1
        self.deal_round(events, redeal=True)

    def _on_play_on(self, action: Action, events: list[Event]) -> None:
        events.append({"type": "play_on", "seat": self.seat, "revealer": self.demoralized_queue[0]})
        self.demoralized_queue.pop(0)
        self._next_demoralized_or_open()


_HANDLERS: dict[type, Any] = {
    act.Pass: KamiState._on_pass,
    act.Counter: KamiState._on_counter,
    act.CounterWithMercenary: KamiState._on_counter,
    act.Lead: KamiState._on_lead,
    act.LeadWithMercenary: KamiState._on_lead,
    act.Attack: KamiState._on_attack,
    act.AttackWithMercenary: KamiState._on_attack,
    act.RevealSoldiers: KamiState._on_reveal,
    act.KeepSoldiersHidden: KamiState._on_keep_hidden,
    act.AcceptRedeal: KamiState._on_redeal,
    act.RefuseRedeal: KamiState._on_play_on,
}
