"""Phases of a Call to Glory state.

Each phase but ``OVER`` is also the public ``decision`` token, so UIs and the engine share one
vocabulary (listed in ``docs/rules/call_to_glory.md``).
"""

from __future__ import annotations

DRAW = "draw"
DRAW_SECOND = "draw_second"
LAY_OR_DISCARD = "lay_or_discard"
NINJA_OR_END = "ninja_or_end"
CHOOSE_PILE = "choose_pile"
REVEAL_TASK = "reveal_task"
OVER = "over"

PHASES = (DRAW, DRAW_SECOND, LAY_OR_DISCARD, NINJA_OR_END, CHOOSE_PILE, REVEAL_TASK, OVER)
TURN_PHASES = frozenset({DRAW, DRAW_SECOND, LAY_OR_DISCARD, NINJA_OR_END})
"""Phases in which the seat on turn decides."""
DRAWING = frozenset({DRAW, DRAW_SECOND})
AFTER_DRAWS = frozenset({LAY_OR_DISCARD, NINJA_OR_END})
HAND_DEPENDENT = frozenset({LAY_OR_DISCARD})
"""Steps whose number of choices depends on the hidden hand: never played automatically, since
an instant move would tell the table the hand left no choice."""
