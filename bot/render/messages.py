"""The table and a hand as Components V2 messages (``layout``'s house style).

What each shows, top to bottom:

- **the table**: the game's name and whose turn it is (or the result), the table's picture
  (or, without pictures, the whole board in words), the recent moves, the totals, the footer
  ("Game #12 · move 7") and the My hand button;
- **a hand**: its title, a notice (the choices made so far in the menu, a stale click …),
  whose turn it is, what happened since the player's own last move (``story``), the table
  (a picture, or the board in words) while the player is on turn or looks at an ephemeral
  hand, the hand's picture (or the cards in words), what only they saw, the footer and the
  controls.

A picture replaces the words it shows, and carries them as its alt text, so a screen reader
loses nothing. Text always takes over when a picture is missing (pictures off for the server
or the player, or not drawn in time for a click's answer).

Everything slow is made once per state (``LoadedGame.derived``: the board's lines, the hand's
lines, the alt texts); a click's answer only assembles the JSON around them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.flows.session import LoadedGame
from bot.i18n import t
from bot.pictures.attach import CHART_FILE, HAND_FILE, TABLE_FILE
from bot.pictures.scene import plain
from bot.render.base import Presenter
from bot.render.common import moves_made, shown_names, status_line, total_line
from bot.render.layout import (
    ALT_TEXT,
    JSON,
    TEXT_LIMIT,
    Layout,
    Picture,
    TextBudget,
    action_rows,
    container,
    gallery,
    heading,
    joined,
    seat_accent,
    separator,
    small,
    text,
    texts,
)
from bot.render.limits import EMBED_TITLE, clip
from bot.render.story import story_key, story_of
from bot.storage.models import GameStatus
from games import Event

HEADING_ROOM = 600
"""At most this much of a message's text for its title, status and notice."""
LOG_ROOM = 1000
"""At most this much for a log (the table's recent moves, a hand's story)."""


def accent_of(loaded: LoadedGame) -> int:
    """The colour of the player on turn; neutral once nobody is."""
    state = loaded.state
    if state is None or loaded.status is not GameStatus.ACTIVE:
        return seat_accent(None)
    return seat_accent(state.to_move)


def footer_of(loaded: LoadedGame, locale: str) -> str:
    return t("table.footer", locale, id=loaded.id, move=moves_made(loaded))


def table_alt(loaded: LoadedGame, presenter: Presenter, locale: str) -> str:
    """The table's picture in words: what the board text would have said."""

    def make() -> str:
        names = shown_names(loaded)
        intro = t(
            "pictures.alt.table", locale, game=presenter.game_name(locale), move=moves_made(loaded)
        )
        lines = presenter.table_lines(loaded.view(None), names, locale)
        return plain(joined(intro, *[line for line in lines if line]))[:ALT_TEXT]

    return loaded.derived(("table_alt", locale, tuple(loaded.names)), make)


def table_layout(
    loaded: LoadedGame,
    presenter: Presenter,
    log: Sequence[str],
    locale: str,
    *,
    pictures: Sequence[str] = (),
    controls: Any = None,
) -> Layout:
    """The public table. ``log``: the recent moves' lines (``common.log_lines``, public events
    only); ``pictures``: the files attached (``TABLE_FILE``, ``CHART_FILE``); ``controls``:
    its buttons (``controls.table_view``)."""
    view = loaded.view(None)
    names = shown_names(loaded)
    budget = TextBudget()
    footer = footer_of(loaded, locale)
    top = budget.take(
        joined(
            heading(clip(presenter.game_name(locale), EMBED_TITLE)),
            status_line(loaded, view, presenter, names, locale),
        ),
        HEADING_ROOM,
    )
    foot = budget.take(small(footer))
    totals = budget.take(total_line(presenter, view, names, locale), LOG_ROOM)
    log_text = t("table.log", locale)
    children: list[JSON] = texts(top)
    shown: list[Picture] = []
    if TABLE_FILE in pictures:
        shown.append(Picture(TABLE_FILE, table_alt(loaded, presenter, locale)))
        children.append(gallery(shown[-1]))
    else:
        room = min(LOG_ROOM, len("\n".join(log)) + len(log_text) + 4) if log else 0
        children += texts(budget.first(presenter.table_lines(view, names, locale), keep=room))
    recent = budget.section(log_text, log, cap=budget.left)
    if recent:
        children += [separator(), text(recent)]
    children += texts(totals)
    if CHART_FILE in pictures:
        shown.append(chart_picture(presenter, locale, totals))
        children.append(gallery(shown[-1]))
    children += texts(foot)
    children += action_rows(controls)
    return Layout([container(children, accent_of(loaded))], footer=footer, pictures=shown)


def chart_picture(presenter: Presenter, locale: str, totals: str) -> Picture:
    """The score chart (``CHART_FILE``) with its alt text: what it plots, and the totals
    (``common.total_line``) in words."""
    about = "pictures.alt.chart" if presenter.has_rounds else "pictures.alt.chart_final"
    return Picture(
        CHART_FILE, joined(t(about, locale, game=presenter.game_name(locale)), plain(totals))
    )


@dataclass(frozen=True, slots=True)
class HandText:
    """A hand's words that depend only on the state, the seat, the language and the names
    (made once per state: every click in the same position reuses them)."""

    title: str
    status: str
    cards: tuple[str, ...]
    """The hand itself, in words (left out when its picture is shown)."""
    notes: tuple[str, ...]
    """What else only this seat knows (tasks, a card looked at), shown either way."""
    board: tuple[str, ...]
    """The table in words (for a hand that shows the table)."""
    shows_table: bool
    """Whether the hand shows the table (``hand_shows_table``)."""
    accent: int
    footer: str

    @property
    def heading(self) -> str:
        return heading(self.title)


def hand_text(
    loaded: LoadedGame,
    presenter: Presenter,
    seat: int,
    locale: str,
    names: tuple[str, ...],
    *,
    full: bool,
) -> HandText:
    state = loaded.state
    # The same text either way while the seat is on turn or the game is over.
    full = full or state is None or state.to_move == seat or state.is_over
    key = ("hand_text", seat, locale, names, full, loaded.status)
    return loaded.derived(key, lambda: _hand_text(loaded, presenter, seat, locale, names, full))


def _hand_text(
    loaded: LoadedGame,
    presenter: Presenter,
    seat: int,
    locale: str,
    names: tuple[str, ...],
    full: bool,
) -> HandText:
    view = loaded.view(seat)
    title = t("hand.title", locale, game=presenter.game_name(locale), name=names[seat])
    if loaded.status is not GameStatus.ACTIVE or view["is_over"]:
        status = status_line(loaded, view, presenter, names, locale)
    else:
        decision = presenter.decision(view["decision"], locale)
        if view["to_move"] == seat:
            status = t("hand.your_turn", locale, decision=decision)
        elif full:
            status = t("hand.waiting", locale, name=names[view["to_move"]], decision=decision)
        else:
            # A DM is not edited after every move of the others: it says when this was true.
            status = t(
                "hand.waiting_since",
                locale,
                name=names[view["to_move"]],
                decision=decision,
                move=moves_made(loaded),
            )
    on_turn = loaded.status is GameStatus.ACTIVE and view["to_move"] == seat
    board = tuple(presenter.table_lines(view, names, locale)) if full or on_turn else ()
    return HandText(
        title=clip(title, EMBED_TITLE),
        status=status,
        cards=tuple(presenter.hand_cards(view, names, locale)),
        notes=tuple(presenter.hand_notes(view, names, locale)),
        board=board,
        shows_table=hand_shows_table(loaded, seat, full),
        accent=accent_of(loaded),
        footer=footer_of(loaded, locale),
    )


def hand_alt(loaded: LoadedGame, presenter: Presenter, seat: int, locale: str) -> str:
    """The hand's picture in words."""

    def make() -> str:
        names = shown_names(loaded)
        intro = t("pictures.alt.hand", locale, game=presenter.game_name(locale), name=names[seat])
        cards = presenter.hand_cards(loaded.view(seat), names, locale)
        return plain(joined(intro, *cards))[:ALT_TEXT]

    return loaded.derived(("hand_alt", seat, locale, tuple(loaded.names)), make)


def hand_shows_table(loaded: LoadedGame, seat: int, full: bool) -> bool:
    """Whether a hand shows the table too: a seat on turn needs it to decide, and an
    ephemeral hand (``full``) is looked at instead of the channel. A waiting DM does not: it
    would have to be edited after every move of the others to stay true."""
    state = loaded.state
    if state is None or loaded.status is not GameStatus.ACTIVE or state.is_over:
        return False
    return full or state.to_move == seat


def hand_layout(
    loaded: LoadedGame,
    presenter: Presenter,
    seat: int,
    locale: str,
    *,
    notice: str | None = None,
    recent: Sequence[Sequence[Event]] = (),
    full: bool = True,
    pictures: Sequence[str] = (),
    controls: Any = None,
    names: tuple[str, ...] | None = None,
) -> Layout:
    """One player's hand. ``recent``: the latest moves (``story.RecentMoves``), for what
    happened since the player's last move and what only they saw (made once per state, seat
    and language); ``full=False`` (a DM while the player waits): the table is left out;
    ``pictures``: the files attached (``TABLE_FILE``, ``HAND_FILE``); ``controls``: the move
    menu and seat buttons."""
    names = shown_names(loaded) if names is None else names
    words = hand_text(loaded, presenter, seat, locale, names, full=full)
    told = loaded.derived(
        ("story", seat, locale, names, story_key(recent)),
        lambda: story_of(presenter, recent, seat, names, locale),
    )
    story, story_title, private_log = told.lines, told.title, told.private
    hand_pictured = HAND_FILE in pictures
    table_pictured = words.shows_table and TABLE_FILE in pictures
    story_text = joined(f"**{story_title or t('hand.story', locale)}**", *story) if story else ""
    private = joined(f"**{t('hand.private_log', locale)}**", *private_log) if private_log else ""
    parts = _HandParts(
        top=joined(words.heading, notice, words.status),
        story=story_text,
        board="" if table_pictured or not words.shows_table else "\n".join(words.board),
        cards="" if hand_pictured else joined(*words.cards),
        notes=joined(*words.notes),
        private=private,
        foot=small(words.footer),
    )
    if not parts.fit():  # rare: long names, a long story, Clans and Glory's boards in words
        parts = _fitted(
            words, notice, story, story_title, private, hand_pictured, table_pictured, locale
        )
    children: list[JSON] = texts(parts.top, parts.story)
    shown: list[Picture] = []
    if table_pictured:
        shown.append(Picture(TABLE_FILE, table_alt(loaded, presenter, locale)))
        children += [separator(), gallery(shown[-1])]
    elif parts.board:
        children += [separator(), text(parts.board)]
    if hand_pictured:
        shown.append(Picture(HAND_FILE, hand_alt(loaded, presenter, seat, locale)))
        children += [separator(), gallery(shown[-1])]
    elif parts.cards:
        children += [separator(), text(parts.cards)]
    children += texts(parts.notes, parts.private, parts.foot)
    children += action_rows(controls)
    return Layout([container(children, words.accent)], footer=words.footer, pictures=shown)


@dataclass(slots=True)
class _HandParts:
    """A hand's texts, one per text display (an empty one is left out)."""

    top: str
    story: str
    board: str
    cards: str
    notes: str
    private: str
    foot: str

    def fit(self) -> bool:
        """Whether every part is within its room and all within Discord's 4,000 characters
        (then the parts are shown as they are)."""
        rest = (self.story, self.cards, self.notes, self.private)
        total = len(self.top) + len(self.board) + len(self.foot) + sum(map(len, rest))
        return (
            len(self.top) <= HEADING_ROOM
            and max(map(len, rest)) <= LOG_ROOM
            and (total <= TEXT_LIMIT)
        )


def _fitted(
    words: HandText,
    notice: str | None,
    story: Sequence[str],
    story_title: str | None,
    private: str,
    hand_pictured: bool,
    table_pictured: bool,
    locale: str,
) -> _HandParts:
    """The hand's parts cut to fit: the heading, status and footer first, then the notes and
    what only the player saw, the story from its newest line, the cards, and the board from
    its top with what is left."""
    budget = TextBudget()
    top = budget.take(joined(words.heading, notice, words.status), HEADING_ROOM)
    foot = budget.take(small(words.footer))
    notes = budget.take(joined(*words.notes), LOG_ROOM)
    private = budget.take(private, LOG_ROOM) if private else ""
    story_text = ""
    if story:
        title = story_title or t("hand.story", locale)
        story_text = budget.section(title, story, cap=LOG_ROOM, keep=LOG_ROOM)
    cards = "" if hand_pictured else budget.take(joined(*words.cards), LOG_ROOM)
    board = ""
    if words.shows_table and not table_pictured:
        board = budget.first(words.board)
    return _HandParts(top, story_text, board, cards, notes, private, foot)
