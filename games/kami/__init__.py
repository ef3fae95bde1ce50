"""Kami: a climbing card game for 2-4 players after Goita; see ``docs/rules/kami.md``.

``GAME`` is the registry entry. The engine is split into ``cards`` (types and the counter rule),
``actions``, ``setup`` (draws and deals), ``scoring`` (ending rules), ``state`` (decisions and
their effects), ``rules`` (reason codes for illegal actions), ``view`` and ``serial``.
"""

from games.kami.game import KamiGame
from games.kami.state import KamiState

GAME = KamiGame()

__all__ = ["GAME", "KamiGame", "KamiState"]
