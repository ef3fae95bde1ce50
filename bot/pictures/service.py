"""Pictures for the bot's messages: drawn off the event loop, once per position.

Why a service: a table is shown by the click's answer, the courier, re-posts and redraws, a
hand by DMs and ephemeral answers; drawing takes milliseconds of CPU that must not stall the
event loop. So pictures are drawn by worker processes (``workers.py``), kept (PNG bytes, least
recently used) under what they show, and a picture asked for again while it is being drawn
waits for that one drawing. A table is keyed by (game, version, language, theme, status,
names); a hand by what it shows (its cards, the playable ones, whose turn, its language …),
so the hand of a player who waits is drawn once, not once per move of the others. A picture
that fails to draw is logged and the message goes without it: pictures never hold a game up.
Nor do they hold a click up: the answer to a move waits only a few milliseconds for the
mover's new hand (``with_hand_within``) and goes without it after that; the courier's next
edit of the hand DM brings it.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any

from bot.flows.session import LoadedGame
from bot.i18n import t
from bot.pictures import draw
from bot.pictures.attach import CHART_FILE, HAND_FILE, TABLE_FILE, attach
from bot.pictures.palette import DEFAULT_THEME
from bot.pictures.scene import HandScene, TrendScene
from bot.pictures.scenes import chart_scene, hand_scene, table_scene
from bot.pictures.workers import PictureWorkers
from bot.storage.cache import LruCache
from bot.storage.settings_cache import SettingsCache
from games import Event

if TYPE_CHECKING:
    from bot.storage.repository import Store

log = logging.getLogger(__name__)

KEPT_PICTURES = 128
"""About 2.5 MB of PNGs: the latest tables of the games being played and the hands in use
(a game re-uses its pictures within seconds). With 512 (about 10 MB) the RSS per active game
in ``benchmarks/bot_load.py`` was 205 KB, against about 85 KB before the pictures; not
measured again with 128."""


async def _ready(drawing: asyncio.Future[bytes]) -> bytes:
    """A picture from ``Pictures.begin``; a caller who gives up leaves the drawing to the
    others who wait for it."""
    return await asyncio.shield(drawing)


def _hand_request(
    loaded: LoadedGame, seat: int, locale: str, theme: str
) -> tuple[tuple[Any, ...], HandScene]:
    """A hand picture's key, by what it shows, and its scene."""
    scene = hand_scene(loaded, seat, locale, theme)
    view = scene.view
    cards = tuple(card["card"] if isinstance(card, dict) else card for card in view["hand"] or ())
    key = (
        "hand",
        loaded.row.game_key,
        cards,
        scene.playable,
        seat,
        scene.names[seat],
        scene.on_turn,
        view["is_over"],
        locale,
        theme,
    )
    return key, scene


def _position_key(kind: str, loaded: LoadedGame, locale: str, theme: str) -> tuple[Any, ...]:
    """A public picture of one position: the same for everyone reading ``locale``."""
    return (
        kind,
        loaded.id,
        loaded.row.version,
        None,
        locale,
        theme,
        loaded.row.status,
        tuple(loaded.names),
    )


def _chart_alt(loaded: LoadedGame, locale: str) -> str:
    """The chart's description (points after each round, or the final points)."""
    game = t(f"{loaded.row.game_key}.name", locale)
    rounds = loaded.state is None or "round" in loaded.view(None)
    return t("pictures.alt.chart" if rounds else "pictures.alt.chart_final", locale, game=game)


class Pictures:
    def __init__(self, store: Store | None, *, processes: int = 0, enabled: bool = True) -> None:
        """``store``: where servers' and users' choices are read (``None``: pictures
        everywhere, no setting read); ``processes``: the drawing worker processes
        (``PICTURE_WORKERS``; 0 draws in threads); ``enabled``: ``PICTURES``."""
        self.store = store
        self._kept: LruCache[Hashable, bytes] = LruCache(KEPT_PICTURES)
        self._drawing: dict[Hashable, asyncio.Future[bytes]] = {}
        self._ahead: set[asyncio.Task[None]] = set()
        self.workers = PictureWorkers(processes)
        self._guilds = SettingsCache(self._read_server, changes_elsewhere=self._shared)
        """Whether a server shows pictures (``/settings images``); a user's choice for their
        hands (``/pictures``) is kept by the store with what it knows of users."""
        self.drawn = 0
        """How many pictures were drawn (the rest came from memory)."""
        self.late = 0
        """How many answers went without their hand's picture (not drawn within the budget)."""
        self.enabled = enabled
        """``False``: no pictures anywhere, whatever the servers chose (the SimCord tests of
        everything else run so; drawing every move in the test process tripled their time)."""

    # ---------------------------------------------------------------- drawing

    def begin(
        self,
        key: Hashable,
        lane: str,
        make: Callable[[Any], bytes],
        scene: Any,
        *,
        urgent: bool = False,
    ) -> asyncio.Future[bytes]:
        """The picture for ``key``, at once: from memory, the drawing under way, or a drawing
        handed now to the lane's worker (``urgent``: before the lane's other pictures)."""
        kept = self._kept.get(key)
        if kept is not None:
            done: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
            done.set_result(kept)
            return done
        running = self._drawing.get(key)
        if running is not None:
            return running
        future = self._drawing[key] = self.workers.submit(lane, make, scene, urgent=urgent)
        future.add_done_callback(functools.partial(self._drawn, key))
        return future

    def _drawn(self, key: Hashable, future: asyncio.Future[bytes]) -> None:
        self._drawing.pop(key, None)
        if not future.cancelled() and future.exception() is None:
            self.drawn += 1
            self._kept.put(key, future.result())

    async def table_png(
        self,
        loaded: LoadedGame,
        recent: Sequence[Sequence[Event]],
        locale: str,
        theme: str = DEFAULT_THEME,
    ) -> bytes:
        scene = table_scene(loaded, recent, locale, theme)
        key = _position_key("table", loaded, locale, theme)
        return await _ready(self.begin(key, "tables", draw.table_png, scene))

    def _begin_hand(
        self, loaded: LoadedGame, seat: int, locale: str, *, urgent: bool
    ) -> asyncio.Future[bytes]:
        """``begin`` for ``seat``'s hand (raises if its scene cannot be made)."""
        key, scene = _hand_request(loaded, seat, locale, DEFAULT_THEME)
        return self.begin(key, "hands", draw.hand_png, scene, urgent=urgent)

    async def hand_png(
        self, loaded: LoadedGame, seat: int, locale: str, *, urgent: bool = False
    ) -> bytes:
        return await _ready(self._begin_hand(loaded, seat, locale, urgent=urgent))

    async def chart_png(
        self, loaded: LoadedGame, locale: str, theme: str = DEFAULT_THEME
    ) -> bytes | None:
        """The score chart, or ``None`` before any round is scored (nothing to draw)."""
        scene = chart_scene(loaded, locale, theme)
        if scene is None:
            return None
        key = _position_key("chart", loaded, locale, theme)
        return await _ready(self.begin(key, "tables", draw.chart_png, scene))

    async def trend_png(self, scene: TrendScene, key: Hashable) -> bytes | None:
        """A ``/profile`` rating trend (``key``: the player, server and their ratings)."""
        return await self._safely(
            _ready(self.begin(("trend", key), "tables", draw.trend_png, scene)), None
        )

    # ---------------------------------------------------------------- the messages

    def draw_hand_ahead(self, loaded: LoadedGame, seat: int, locale: str) -> None:
        """Start drawing ``seat``'s hand now, for an answer that will show it soon.

        A move's answer shows the mover's new hand once the move is stored; handed to the
        worker before the commit, the picture is drawn while the move is written. Nothing
        waits for this drawing itself. (With the hand's setting not in memory, it is read
        first, and the drawing starts after that.)"""
        try:  # called before a move's commit, which a picture must never hold up
            shown = self._known_hand_shown(loaded.row.guild_id, loaded.seats[seat].user_id)
            if shown is None:
                drawing = self._draw_hand(loaded, seat, locale)
                task = asyncio.get_running_loop().create_task(drawing)
                self._ahead.add(task)
                task.add_done_callback(self._ahead.discard)
            elif shown:
                self._begin_hand(loaded, seat, locale, urgent=True)
        except Exception:
            log.exception("game %s: a hand could not be drawn ahead", loaded.id)

    async def _draw_hand(self, loaded: LoadedGame, seat: int, locale: str) -> None:
        if await self.hand_shown(loaded.row.guild_id, loaded.seats[seat].user_id):
            await self._safely(self.hand_png(loaded, seat, locale, urgent=True), loaded)

    async def with_hand_within(
        self,
        content: dict[str, Any],
        loaded: LoadedGame,
        seat: int,
        locale: str,
        budget: float | None = None,
        *,
        urgent: bool = False,
    ) -> tuple[dict[str, Any], bool]:
        """The hand with its picture, and whether the picture is in (or none is shown).

        ``budget``: seconds to wait for a picture still being drawn. A click's answer that
        would wait longer goes without it (``False``): the drawing goes on and is kept, and
        the next message showing this hand (its DM, brought up to date by the courier) has it.
        """
        png = None
        complete = True
        user_id = loaded.seats[seat].user_id
        if loaded.state is not None and await self.hand_shown(loaded.row.guild_id, user_id):
            png, complete = await self._hand_png_within(loaded, seat, locale, budget, urgent)
        game = t(f"{loaded.row.game_key}.name", locale)
        alt = t("pictures.alt.hand", locale, game=game, name=loaded.seats[seat].display_name)
        return attach(content, png, HAND_FILE, alt), complete

    async def _hand_png_within(
        self, loaded: LoadedGame, seat: int, locale: str, budget: float | None, urgent: bool
    ) -> tuple[bytes | None, bool]:
        try:
            drawing = self._begin_hand(loaded, seat, locale, urgent=urgent)
        except Exception:
            log.exception("game %s: a picture could not be drawn", loaded.id)
            return None, True
        if not drawing.done():
            self.workers.read_answers("hands")  # drawn already, but not yet read?
        if budget is not None and not drawing.done():
            await asyncio.wait((drawing,), timeout=budget)  # never cancels the drawing
            if not drawing.done():
                self.late += 1
                return None, False
        return await self._safely(_ready(drawing), loaded), True

    async def table_pngs(
        self, loaded: LoadedGame, recent: Sequence[Sequence[Event]]
    ) -> dict[str, bytes]:
        """The table's pictures by file name, for its V2 message: the table, and the score
        chart once the game is over; none where the server turned pictures off (or one that
        could not be drawn: the text takes its place)."""
        locale = loaded.row.locale
        if loaded.state is None or not await self.shown_in(loaded.row.guild_id):
            return {}
        png = await self._safely(self.table_png(loaded, recent, locale), loaded)
        if png is None:
            return {}
        pngs = {TABLE_FILE: png}
        if loaded.state.is_over:
            chart = await self._safely(self.chart_png(loaded, locale), loaded)
            if chart is not None:
                pngs[CHART_FILE] = chart
        return pngs

    async def hand_pngs_within(
        self,
        loaded: LoadedGame,
        seat: int,
        locale: str,
        recent: Sequence[Sequence[Event]],
        budget: float | None = None,
        *,
        with_table: bool = False,
        urgent: bool = False,
    ) -> tuple[dict[str, bytes], bool]:
        """A hand's pictures by file name (its cards; the table too, ``with_table``) and
        whether the hand's picture is in (or none is shown: the server or the player turned
        them off). ``budget``: seconds to wait for a picture still being drawn; a table not
        drawn by then is left out without making the hand incomplete (its words stand in)."""
        pngs: dict[str, bytes] = {}
        if loaded.state is None or not await self.hand_shown(
            loaded.row.guild_id, loaded.seats[seat].user_id
        ):
            return pngs, True
        table = None
        if with_table:
            key = _position_key("table", loaded, locale, DEFAULT_THEME)
            known = key in self._drawing or self._kept.get(key) is not None
            scene = None if known else table_scene(loaded, recent, locale, DEFAULT_THEME)
            # A hand shows the table to a player on turn (or looking at it): someone waits.
            table = self.begin(key, "tables", draw.table_png, scene, urgent=True)
        began = asyncio.get_running_loop().time()
        png, complete = await self._hand_png_within(loaded, seat, locale, budget, urgent)
        if table is not None:
            if budget is not None and not table.done():
                self.workers.read_answers("tables")
                left = budget - (asyncio.get_running_loop().time() - began)
                if left > 0:  # one budget for both pictures, not one each
                    await asyncio.wait((table,), timeout=left)
            if table.done() or budget is None:
                drawn = await self._safely(_ready(table), loaded)
                if drawn is not None:
                    pngs[TABLE_FILE] = drawn
        if png is not None:
            pngs[HAND_FILE] = png
        return pngs, complete

    async def final_chart(self, loaded: LoadedGame) -> bytes | None:
        """The score chart of an ended game for its game-over message (the final table's,
        drawn already), or ``None``: pictures off for the server, nothing scored to draw, or a
        drawing that failed."""
        if loaded.state is None or not await self.shown_in(loaded.row.guild_id):
            return None
        return await self._safely(self.chart_png(loaded, loaded.row.locale), loaded)

    async def with_chart(
        self, content: dict[str, Any], loaded: LoadedGame, locale: str
    ) -> dict[str, Any]:
        """``content`` with the score chart, or with no picture at all while no round is
        scored yet (``/scores`` in the first round)."""
        png = None
        if loaded.state is not None and await self.shown_in(loaded.row.guild_id):
            png = await self._safely(self.chart_png(loaded, locale), loaded)
        return attach(content, png, CHART_FILE, _chart_alt(loaded, locale))

    async def _safely(self, drawing: Any, loaded: LoadedGame) -> bytes | None:
        """The picture, or ``None`` (logged) if drawing it failed: the text goes alone."""
        try:
            return await drawing  # type: ignore[no-any-return]
        except Exception:
            log.exception("game %s: a picture could not be drawn", loaded.id)
            return None

    # ---------------------------------------------------------------- settings

    async def _read_server(self, guild_id: int) -> bool:
        assert self.store is not None
        return await self.store.images_shown(guild_id)

    def _shared(self) -> bool:
        return self.store is not None and self.store.shared

    async def shown_in(self, guild_id: int | None) -> bool:
        """Whether the server shows pictures (``/settings images``; on unless turned off)."""
        if not self.enabled:
            return False
        if guild_id is None or self.store is None:
            return True
        return await self._guilds.get(guild_id)

    async def hand_shown(self, guild_id: int | None, user_id: int) -> bool:
        """Whether a hand of ``user_id`` carries a picture: the server shows pictures and the
        user did not turn them off for their hand (``/pictures``)."""
        known = self._known_hand_shown(guild_id, user_id)
        if known is not None:
            return known
        if not await self.shown_in(guild_id):
            return False
        assert self.store is not None
        return await self.store.hand_images(user_id)

    def _known_hand_shown(self, guild_id: int | None, user_id: int) -> bool | None:
        """``hand_shown`` from what is in memory; ``None`` if a setting must be read first."""
        if not self.enabled or user_id < 0:
            return False  # an AI seat has no DM
        if self.store is None:
            return True
        if guild_id is not None:
            server = self._guilds.known(guild_id)
            if server is None:
                return None
            if not server:
                return False
        return self.store.known_hand_images(user_id)

    def remember_server(self, guild_id: int, shown: bool) -> None:
        self._guilds.remember(guild_id, shown)

    def close(self) -> None:
        self.workers.close()
