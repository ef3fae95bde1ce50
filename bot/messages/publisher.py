"""What the bot's messages contain: lobby, table and hand, built from the stored game.

Why one place: a click's own answer (``moves``, ``lobby``) and the outbox's deliveries
(``bot/outbox``) show the same messages, and both must build them from the same state the
same way. Nothing here talks to Discord.

The table and the hands are Components V2 messages (``render.messages``); their content is
written for an edit (``render.layout.edit_fields``: an edit turns a message sent before V2
into the new one) and turned into a new message's by ``pictures.attach.for_new_message``.
The lobby stays an embed (docs/architecture.md, "Components V2").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot.flows.session import LoadedGame
from bot.messages.controls import label_whole_menu, lobby_view, menu_controls, table_view
from bot.messages.game_over import final_line
from bot.pictures.attach import picture_files
from bot.pictures.service import Pictures
from bot.render import presenter_for
from bot.render.common import lobby_embed, log_lines, shown_names
from bot.render.layout import Layout, edit_fields
from bot.render.messages import hand_layout, hand_shows_table, table_layout
from bot.render.story import RecentMoves
from bot.storage.cache import KEPT_MOVES
from games import Event

if TYPE_CHECKING:
    from bot.storage.repository import Store

RECENT_MOVES = KEPT_MOVES
"""The moves a table's log and a hand's story read (the store keeps as many in memory)."""


def layout_content(layout: Layout, pngs: dict[str, bytes] | None) -> dict[str, Any]:
    """The fields of an edit to ``layout`` with its pictures (``pngs``: ``None`` uploads
    nothing, and the message keeps the files it has; ``{}`` removes them)."""
    content = edit_fields(layout)
    if pngs is not None:
        content["attachments"] = picture_files(layout.pictures, pngs)
    return content


class Publisher:
    def __init__(self, store: Store, pictures: Pictures) -> None:
        self.store = store
        self.pictures = pictures

    def lobby_content(self, loaded: LoadedGame, focus: int = 0) -> dict:
        presenter = presenter_for(loaded.row.game_key)
        locale = loaded.row.locale
        return {
            "embed": lobby_embed(loaded, presenter, locale),
            "view": lobby_view(loaded, presenter, locale, focus),
        }

    async def recent_events(self, loaded: LoadedGame) -> RecentMoves:
        """The latest moves (for log lines and stories), oldest first."""
        moves = await self.store.recent_moves(loaded.id, RECENT_MOVES)
        # The store may be a move further on than a courier's snapshot of the game.
        return RecentMoves([move for move in moves if move.version <= loaded.row.version])

    async def table_content(
        self, loaded: LoadedGame, recent: Sequence[Sequence[Event]], *, pictures: bool = True
    ) -> dict:
        """The table message, with its picture unless the server turned pictures off or
        ``pictures`` is false (the bot may not attach files there); an edit with this content
        replaces the picture the message had."""
        presenter = presenter_for(loaded.row.game_key)
        locale = loaded.row.locale
        pngs = await self.pictures.table_pngs(loaded, recent) if pictures else {}
        log = log_lines(presenter, recent, shown_names(loaded), locale)
        layout = table_layout(
            loaded, presenter, log, locale, pictures=list(pngs), controls=table_view(loaded, locale)
        )
        return layout_content(layout, pngs)

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
        """A seat's hand message, and whether it is complete (``False``: its picture was
        still being drawn after ``picture_budget`` seconds, and it goes without).

        ``recent`` (``recent_events``) gives the story: what happened since the seat's own
        last move, and what only they saw. DMs use ``full=False``: while the player waits the
        DM leaves the table out. The pictures come with it unless the server or the player
        turned them off; ``urgent``: a click's answer waits for them (drawn before the
        couriers' pictures). ``whole_menu``: label every level of the menu now, not only the
        top one (the courier, off any click's path: the player's clicks into sub-menus then
        find their labels).
        """
        presenter = presenter_for(loaded.row.game_key)
        names = shown_names(loaded)
        if notice is None:
            notice = final_line(loaded, seat, locale)  # a last DM: the result, their place
        if whole_menu:
            label_whole_menu(loaded, presenter, seat, locale, names)
        controls = menu_controls(loaded, presenter, seat, locale, names=names)
        pngs, complete = await self.pictures.hand_pngs_within(
            loaded,
            seat,
            locale,
            recent,
            picture_budget,
            with_table=hand_shows_table(loaded, seat, full),
            urgent=urgent,
        )
        layout = hand_layout(
            loaded,
            presenter,
            seat,
            locale,
            notice=notice,
            recent=recent,
            full=full,
            pictures=list(pngs),
            controls=controls,
            names=names,
        )
        return layout_content(layout, pngs), complete

    async def menu_hand(
        self,
        loaded: LoadedGame,
        seat: int,
        locale: str,
        path: tuple[int, ...],
        *,
        notice: str | None,
        kept: set[str],
        full: bool,
    ) -> dict:
        """The hand at a sub-menu (a click that chose a level, not a move yet): the message
        keeps the pictures it has (``kept``, by file name), nothing is uploaded."""
        presenter = presenter_for(loaded.row.game_key)
        names = shown_names(loaded)
        recent = await self.recent_events(loaded)
        controls = menu_controls(loaded, presenter, seat, locale, path, names)
        layout = hand_layout(
            loaded,
            presenter,
            seat,
            locale,
            notice=notice,
            recent=recent,
            full=full,
            pictures=sorted(kept),
            controls=controls,
            names=names,
        )
        return layout_content(layout, None)
