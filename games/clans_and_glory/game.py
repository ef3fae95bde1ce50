"""The declaration of Clans and Glory: its options and the factories the registry calls."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.clans_and_glory.actions import CODEC
from games.clans_and_glory.serial import check_envelope, state_from_json
from games.clans_and_glory.setup import new_game
from games.clans_and_glory.state import ClansState
from games.clans_and_glory.table import START_SEAT_RULES
from games.core import JSON, Action, Game, InvalidOptions, MalformedState, Option


class ClansAndGlory(Game):
    key = "clans_and_glory"
    name = "Clans and Glory"
    player_counts = (2, 3, 4)
    options = (
        Option("final_turn_shield_allowed", True, (True, False)),
        Option("start_seats", "north_middle", START_SEAT_RULES),
        Option("cross_board_adjacency", True, (True, False)),
    )

    def new_state(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> ClansState:
        return new_game(players, seed, self.resolve_options(players, options))

    def state_from_json(self, data: JSON) -> ClansState:
        check_envelope(data, self.key)
        options = data["options"]
        if not isinstance(options, dict) or set(options) != {o.name for o in self.options}:
            raise MalformedState("options must name every option of the game")
        try:
            resolved = self.resolve_options(data["players"], options)
        except InvalidOptions as error:
            raise MalformedState(f"bad players or options: {error}") from error
        return state_from_json(data, resolved)

    def action_from_json(self, data: JSON) -> Action:
        return CODEC.decode(data)
