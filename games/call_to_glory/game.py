"""The declaration of Call to Glory: options, player counts and the state factories."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.call_to_glory.actions import CODEC
from games.call_to_glory.persistence import GAME_KEY, VERSION, load_state
from games.call_to_glory.state import CallToGloryState
from games.core import JSON, Action, Game, InvalidOptions, MalformedState, Option


class CallToGlory(Game):
    key = GAME_KEY
    name = "Call to Glory"
    player_counts = (2, 3, 4)
    options = (
        # 4 is the full game (three rounds when imperial_tasks is on, as that variant says);
        # 1 is the one-round quick game of the online version.
        Option("rounds", 4, (4, 1)),
        Option("imperial_tasks", False, (False, True)),
        Option("ninja", False, (False, True)),
    )

    def check_options(self, players: int, options: JSON) -> None:
        if options["imperial_tasks"] and options["rounds"] == 1:
            raise InvalidOptions(
                "conflict",
                "Imperial Tasks needs its full three rounds; the one-round quick game "
                "cannot be combined with it",
                option="rounds",
                allowed=(4,),
                conflicting=("rounds", "imperial_tasks"),
                reason="tasks_need_full_game",
            )

    def new_state(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> CallToGloryState:
        resolved = self.resolve_options(players, options)
        return CallToGloryState.new_game(players, seed, resolved)

    def state_from_json(self, data: JSON) -> CallToGloryState:
        if not isinstance(data, Mapping) or data.get("game") != GAME_KEY:
            raise MalformedState("not a saved Call to Glory state")
        if data.get("version") != VERSION:
            raise MalformedState(f"unsupported Call to Glory state version {data.get('version')!r}")
        options = data.get("options")
        if not isinstance(options, Mapping):
            raise MalformedState("a saved Call to Glory state needs its options")
        try:
            resolved = self.resolve_options(data.get("players"), options)  # type: ignore[arg-type]
        except InvalidOptions as error:
            raise MalformedState(f"saved options are invalid: {error}") from error
        if set(resolved) != set(options):
            raise MalformedState("saved options must list every option")
        return load_state(dict(data), data["players"], resolved)

    def action_from_json(self, data: JSON) -> Action:
        return CODEC.decode(data)
