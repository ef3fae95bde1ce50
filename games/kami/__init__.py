"""Kami (placeholder until the engine lands)."""
from games.core import Game


class _Pending(Game):
    key = "kami"
    name = "Kami"
    player_counts = (2, 3, 4)
    options = ()

    def new_state(self, players, seed, options=None):
        raise NotImplementedError

    def state_from_json(self, data):
        raise NotImplementedError

    def action_from_json(self, data):
        raise NotImplementedError


GAME = _Pending()
