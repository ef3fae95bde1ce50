"""Search settings that depend on the game and the number of players (3-4 players of Call to
Glory and of Clans and Glory).

Two players of every game and Kami at any count search exactly as ``games.ai.search``
describes, at the level's own budget; only the settings returned here change a search (so the
2-player figures and the level ladder stay as measured). Clans and Glory at 3-4 players only
searches fewer iterations (``CLANS_ITERATIONS_SHARE``).

**Call to Glory with three or four players: the seat's own draws end the tree.** A blind
draw's outcome is a card only the seat sees, so the search keys the node after it by that card
(``games.ai.search``, "Select"): up to nine subtrees, each with a ninth of the visits, in which
the next decision (lay or discard: 10-20 moves) is tried move by move, a bad one as often as a
good one. A visible discard-pile card leads to one subtree whose lay or discard is quickly
found. So blind draws were rated by averages that mixed in poor first tries and visible cards by
their best follow-up: in 3-player games strong took a discard top where the rules-based player
drew blind at 71 of its 80 second draws that differed from it, each 1.6 points worse on
average by the end of the round (scored by finishing the round with the rules-based player for
every seat, 60 sampled worlds each; ``docs/ai.md``, "Call to Glory at 3 and 4 players"). Ending
the tree at the seat's own draw scores every draw by the same rules-based continuation, whatever
the card: blind and visible are compared on equal terms. At 53 second draws of rules-based
3-player games (deals 301-304) the old search took a discard top 49 times, the rules-based
player 4 times; with the tree ending at the draw, 16 times.

**And its guided searches roll out 32 moves, not 16** (``budget``). Sixteen moves are about five
turns, under two of the seat's own at 3 players: whatever the seat does now, the rules-based
player lays for it in the next turn of the rollout, so a move's worth beyond that turn (a set
that will still be there, the tempo of one lay per turn) is hardly seen. The iterations shrink
to 0.55 of the level's so that a decision costs about the same (an iteration with 32 moves
costs about 1.8 times one with 16).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from games.core import Action, State

OwnLeaf = Callable[[Action], bool]

CTG_ROLLOUT_DEPTH = 32
"""Rollout moves of a guided search in Call to Glory at 3-4 players (16 elsewhere): about three
of the seat's own turns at 3 players instead of under two."""
DEEP_ROLLOUT_SHARE = 0.9
"""The least share of rules-based moves in a search's rollouts for it to roll out
``CTG_ROLLOUT_DEPTH`` moves (strong's 0.9): a rollout that is mostly the rules-based player's
stays a fair forecast over 32 moves, one that is half random moves (medium, a weaker level on
purpose since 2026-11-28) drifts further from real play the longer it runs, and medium's
character (8 moves, fewer iterations) is what the level ladder measured."""
CTG_ITERATIONS_SHARE = 0.55
"""The guided levels' iterations there (strong: 600 -> 330), so that a decision costs about
what it does with 16-move rollouts and stays within the bot's time."""


CLANS_ITERATIONS_SHARE = {3: 0.8, 4: 0.75}
"""Strong's iterations in Clans and Glory at 3 and 4 players (500 -> 400 and 375): an
iteration there simulates more seats on a larger board, and at 500 a decision's 95th
percentile was 603 ms (3 players) and 731 ms (4 players) of one idle core (2026-11-28,
12:37, ``benchmarks/ai_cost.py``), past the 500 ms target and the bot's 450 ms cap, which
would cut those searches anyway. At 400 and 375 the p95 of 40-42 tournament games was 453 and
403 ms, and strong still took 1.34x and 1.25x a rules-based seat's points (``docs/ai.md``,
"Cost")."""


@dataclasses.dataclass(frozen=True)
class Budget:
    """A guided search's iterations and rollout depth for one game and player count."""

    iterations: int
    rollout_depth: int | None


def budget(state: State, iterations: int, rollout_depth: int | None, expert_share: float) -> Budget:
    """The budget a level's search uses in ``state``: the level's own (``iterations``,
    ``rollout_depth``) except for searches whose rollouts are mostly the rules-based player's
    (``expert_share`` at least ``DEEP_ROLLOUT_SHARE``: strong) in Call to Glory at three and
    four players (``CTG_ROLLOUT_DEPTH``, ``CTG_ITERATIONS_SHARE``) and in Clans and Glory at
    three and four (``CLANS_ITERATIONS_SHARE``)."""
    if expert_share >= DEEP_ROLLOUT_SHARE and state.game_key == "clans_and_glory":
        share = CLANS_ITERATIONS_SHARE.get(state.num_players)
        if share is not None:
            return Budget(max(1, round(iterations * share)), rollout_depth)
    if (
        expert_share >= DEEP_ROLLOUT_SHARE
        and state.game_key == "call_to_glory"
        and state.num_players >= 3
    ):
        return Budget(max(1, round(iterations * CTG_ITERATIONS_SHARE)), CTG_ROLLOUT_DEPTH)
    return Budget(iterations, rollout_depth)


def _is_draw(action: Action) -> bool:
    return action.kind == "draw"


def own_leaf(state: State) -> OwnLeaf | None:
    """After which of the deciding seat's own moves the search's tree stops (the simulation
    goes on as a rollout), or ``None`` for a search whose tree follows every move."""
    if state.game_key == "call_to_glory" and state.num_players >= 3:
        return _is_draw
    return None
