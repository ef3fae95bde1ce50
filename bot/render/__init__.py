"""Presentation: turning engine views, events and menu tokens into catalog text.

``common`` builds the table, lobby and hand messages for every game; each game has one
presenter module that only knows how to *phrase* its view (no rules). ``presenter_for`` picks it.
"""

from __future__ import annotations

from bot.render.base import Presenter
from bot.render.call_to_glory import CallToGloryPresenter
from bot.render.clans_and_glory import ClansAndGloryPresenter
from bot.render.kami import KamiPresenter

PRESENTERS: dict[str, type[Presenter]] = {
    "call_to_glory": CallToGloryPresenter,
    "kami": KamiPresenter,
    "clans_and_glory": ClansAndGloryPresenter,
}


def presenter_for(game_key: str) -> Presenter:
    """The presenter of ``game_key`` (the generic one for a game without its own)."""
    return PRESENTERS.get(game_key, Presenter)(game_key)


__all__ = ["PRESENTERS", "Presenter", "presenter_for"]
