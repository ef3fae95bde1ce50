"""Kami's actions. A move is split into single-card decisions so that a Duel player sees the
mercenary that a taken card uncovers before choosing the next card.

Card fields hold card names (``"tower"``); mercenary fields hold a stack index (0-7), because
two stacks can show the same top card while hiding different ones underneath.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from games.core import Action, ActionCodec
from games.kami.cards import NAMES, TYPES


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Let the current attack stand; always allowed for a responder."""

    kind: ClassVar[str] = "pass"

    @property
    def menu_path(self) -> tuple[str, ...]:
        return ("pass",)


@dataclass(frozen=True, slots=True)
class Counter(Action):
    """Place a matching card from the hand face-up in defense; the attack follows."""

    card: str
    kind: ClassVar[str] = "counter"

    @property
    def menu_path(self) -> tuple[str, ...]:
        return ("counter", f"card:{self.card}")


@dataclass(frozen=True, slots=True)
class CounterWithMercenary(Action):
    """Duel: counter with the top card of a mercenary stack."""

    stack: int
    kind: ClassVar[str] = "counter_mercenary"

    @property
    def menu_path(self) -> tuple[str, ...]:
        return ("counter", f"mercenary:{self.stack}")


@dataclass(frozen=True, slots=True)
class Lead(Action):
    """Place a hand card face-down in defense (opening a round or after everyone passed)."""

    card: str
    kind: ClassVar[str] = "lead"

    @property
    def menu_path(self) -> tuple[str, ...]:
        return ("lead", f"card:{self.card}")


@dataclass(frozen=True, slots=True)
class LeadWithMercenary(Action):
    """Duel: place a mercenary face-down in defense (it was face-up on its stack, so all saw it)."""

    stack: int
    kind: ClassVar[str] = "lead_mercenary"

    @property
    def menu_path(self) -> tuple[str, ...]:
        return ("lead", f"mercenary:{self.stack}")


@dataclass(frozen=True, slots=True)
class Attack(Action):
    """Place a hand card face-up as the new attack, second half of a lead or a counter."""

    card: str
    kind: ClassVar[str] = "attack"

    @property
    def menu_path(self) -> tuple[str, ...]:
        return ("attack", f"card:{self.card}")


@dataclass(frozen=True, slots=True)
class AttackWithMercenary(Action):
    """Duel: attack with the top card of a mercenary stack."""

    stack: int
    kind: ClassVar[str] = "attack_mercenary"

    @property
    def menu_path(self) -> tuple[str, ...]:
        return ("attack", f"mercenary:{self.stack}")


@dataclass(frozen=True, slots=True)
class RevealSoldiers(Action):
    """Demoralized: show all Soldiers and let the partner decide on a redeal."""

    kind: ClassVar[str] = "reveal_soldiers"

    @property
    def menu_path(self) -> tuple[str, ...]:
        return ("reveal_soldiers",)


@dataclass(frozen=True, slots=True)
class KeepSoldiersHidden(Action):
    """Demoralized: do not invoke the rule."""

    kind: ClassVar[str] = "keep_hidden"

    @property
    def menu_path(self) -> tuple[str, ...]:
        return ("keep_hidden",)


@dataclass(frozen=True, slots=True)
class AcceptRedeal(Action):
    """Demoralized partner: call the round off; the same start player deals again."""

    kind: ClassVar[str] = "redeal"

    @property
    def menu_path(self) -> tuple[str, ...]:
        return ("redeal",)


@dataclass(frozen=True, slots=True)
class RefuseRedeal(Action):
    """Demoralized partner: play the dealt round anyway."""

    kind: ClassVar[str] = "play_on"

    @property
    def menu_path(self) -> tuple[str, ...]:
        return ("play_on",)


CODEC = ActionCodec(
    Pass,
    Counter,
    CounterWithMercenary,
    Lead,
    LeadWithMercenary,
    Attack,
    AttackWithMercenary,
    RevealSoldiers,
    KeepSoldiersHidden,
    AcceptRedeal,
    RefuseRedeal,
)

# Interned instances: legal-move generation hands out these objects instead of building new ones,
# which keeps a random playout cheap. Equal fresh instances (from JSON) compare and hash the same.
PASS = Pass()
REVEAL = RevealSoldiers()
KEEP_HIDDEN = KeepSoldiersHidden()
REDEAL = AcceptRedeal()
PLAY_ON = RefuseRedeal()
COUNTER = tuple(Counter(NAMES[card]) for card in TYPES)
LEAD = tuple(Lead(NAMES[card]) for card in TYPES)
ATTACK = tuple(Attack(NAMES[card]) for card in TYPES)
MAX_STACKS = 8
COUNTER_MERCENARY = tuple(CounterWithMercenary(stack) for stack in range(MAX_STACKS))
LEAD_MERCENARY = tuple(LeadWithMercenary(stack) for stack in range(MAX_STACKS))
ATTACK_MERCENARY = tuple(AttackWithMercenary(stack) for stack in range(MAX_STACKS))
