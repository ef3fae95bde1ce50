"""Kami's declaration: player counts, options and the factory the registry uses."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import JSON, Action, Event, Game, Option
from games.kami.actions import CODEC
from games.kami.scoring import ENDINGS
from games.kami.serial import state_from_json
from games.kami.state import ASK_EVERYONE, DEMORALIZED_RULES, KamiState
from games.rng import Rng

TARGETS = (5, 10, 15, 20, 25, 30)


class KamiGame(Game):
    key = "kami"
    name = "Kami"
    player_counts = (2, 3, 4)
    options = (
        Option("ending", "soldier", ENDINGS),
        Option("target", 15, TARGETS),
        Option("three_player_deal", "printed", ("printed", "publisher"), players=(3,)),
        Option("lord_clamp", True, (True, False)),
        # Who the Demoralized check asks after a deal; see DEMORALIZED_RULES for why the
        # default asks everyone.
        Option("demoralized", ASK_EVERYONE, DEMORALIZED_RULES, players=(4,)),
    )

    def new_state(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> KamiState:
        """Draw for the first start player, then deal round 1; the events of both are kept in
        ``state.opening_events`` because ``new_state`` has no other way to return them."""
        resolved = self.resolve_options(players, options)
        state = KamiState(players, resolved, Rng(seed))
        events: list[Event] = []
        state.draw_for_start(events)
        state.deal_round(events)
        state.opening_events = events
        return state

    def state_from_json(self, data: JSON) -> KamiState:
        return state_from_json(data, self.resolve_options)

    def action_from_json(self, data: JSON) -> Action:
        return CODEC.decode(data)
