"""What the bot's messages contain: lobby, table and hand, built from the stored game.

Why one place: a click's own answer (``moves``, ``lobby``) and the outbox's deliveries
(``bot/outbox``) show the same messages, and both must build them from the same state the
same way. Nothing here talks to Discord.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.controls import label_whole_menu, lobby_view, menu_controls, table_view
from bot.game_over import final_line
from bot.pictures.service import Pictures
from bot.render import presenter_for
from bot.render.common import (
    hand_embed,
    lobby_embed,
    private_log_lines,
    shown_names,
    table_embed,
)
from bot.session import LoadedGame
from games import Event

if TYPE_CHECKING:
    from bot.app import GloryBot

RECENT_MOVES = 6
PRIVATE_MOVES = 2


class Publisher:
    def __init__(self, bot: GloryBot) -> None:
        self.bot = bot
        self.pictures = Pictures(bot)

    def lobby_content(self, loaded: LoadedGame, focus: int = 0) -> dict:
        presenter = presenter_for(loaded.row.game_key)
        locale = loaded.row.locale
        return {
            "embed": lobby_embed(loaded, presenter, locale),
            "view": lobby_view(loaded, presenter, locale, focus),
        }

    async def recent_events(self, loaded: LoadedGame) -> list[list[Event]]:
        """The events of the last few moves, oldest first (for log lines)."""
        moves = await self.bot.store.recent_moves(loaded.id, RECENT_MOVES)
        return [move.events for move in moves]

    async def table_content(self, loaded: LoadedGame, recent: Sequence[Sequence[Event]]) -> dict:
        """The table message, with its picture unless the server turned pictures off (an
        edit with this content replaces the picture the message had)."""
        presenter = presenter_for(loaded.row.game_key)
        locale = loaded.row.locale
        content = {
            "embed": table_embed(loaded, presenter, recent, locale),
            "view": table_view(loaded, locale),
        }
        return await self.pictures.with_table(content, loaded, recent)

    async def hand_content(
        self,
        loaded: LoadedGame,
        seat: int,
        locale: str,
        recent: Sequence[Sequence[Event]],
        *,
        notice: str | None = None,
        full: bool = True,
        urgent: bool = False,
        whole_menu: bool = False,
        picture_budget: float | None = None,
    ) -> tuple[dict, bool]:
        """A seat's hand message; ``recent`` adds what only they saw in the last two moves.
        With it, whether it is complete (``False``: its picture was still being drawn after
        ``picture_budget`` seconds, and it goes without).

        DMs use ``full=False``: while the player waits it shows only what is theirs. The
        picture of the hand comes with it unless the server or the player turned it off;
        ``urgent``: a click's answer waits for it (drawn before the couriers' pictures).
        ``whole_menu``: label every level of the menu now, not only the top one (the courier,
        off any click's path: the player's clicks into sub-menus then find their labels).
        """
        presenter = presenter_for(loaded.row.game_key)
        names = shown_names(loaded)
        if notice is None:
            notice = final_line(loaded, seat, locale)  # a last DM: the result, their place
        private = private_log_lines(presenter, recent[-PRIVATE_MOVES:], seat, names, locale)
        embed = hand_embed(
            loaded,
            presenter,
            seat,
            locale,
            private_log=private,
            notice=notice,
            full=full,
            names=names,
        )
        if whole_menu:
            label_whole_menu(loaded, presenter, seat, locale, names)
        controls = menu_controls(loaded, presenter, seat, locale, names=names)
        return await self.pictures.with_hand_within(
            {"embed": embed, "view": controls},
            loaded,
            seat,
            locale,
            picture_budget,
            urgent=urgent,
        )
