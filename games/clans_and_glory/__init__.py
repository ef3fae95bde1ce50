"""Clans and Glory: place clan members at a long table by colour or value, stake shields on the
boards, and let the stacks claim the boards' values from the lowest up.

See ``docs/rules/clans_and_glory.md`` for the rules as implemented.
"""

from games.clans_and_glory.game import ClansAndGlory
from games.clans_and_glory.state import ClansState

GAME = ClansAndGlory()

__all__ = ["GAME", "ClansAndGlory", "ClansState"]
