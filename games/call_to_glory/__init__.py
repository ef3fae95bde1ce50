"""Call to Glory (Michael Schacht, White Goblin Games 2012) for 2 to 4 players.

Rules as implemented: ``docs/rules/call_to_glory.md``.
"""

from games.call_to_glory.game import CallToGlory

GAME = CallToGlory()

__all__ = ["GAME", "CallToGlory"]
