"""The house style of Glory's Components V2 messages, written as Discord's JSON.

The table, a hand and the game-over message share one look (Discord's layout components,
``IS_COMPONENTS_V2``): one container whose accent is the colour of the player on turn, a
heading with a short status, the pictures in media galleries (each picture full width: two
side by side would be half as wide, and a phone shows a message about 400 px wide), short
texts (the last moves, the score line), a small footer line, and the controls as action rows.

Why JSON and not ``discord.ui.LayoutView``: a hand is sent with every click's answer, and
building discord.py's item trees per click cost more than the rest of rendering the hand
(see ``controls.PrebuiltControls``). ``Layout`` hands the finished JSON to discord.py's own
send and edit calls; it reports ``has_components_v2()``, so discord.py sets the flag.

Rules the builders follow (Discord's, checked by ``bot/loopback/discord_limits.py``): at most
40 components in all, 4,000 characters of text displays in all, a gallery's alt text at most
1,024 characters; a message that becomes V2 by an edit must clear its content and embeds
(``edit_fields``), and a V2 message can never carry content or embeds again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

import discord

from bot.pictures.palette import PLAYER_COLOURS
from bot.render.limits import ELLIPSIS, clip, first_lines, last_lines

JSON = dict[str, Any]

ACTION_ROW = 1
TEXT_DISPLAY = 10
MEDIA_GALLERY = 12
SEPARATOR = 14
CONTAINER = 17

TEXT_LIMIT = 4000
"""Characters of all text displays of one message together."""
ALT_TEXT = 1024
"""Characters of a picture's description (its alt text, read by screen readers)."""

NEUTRAL_ACCENT = 0xC27C0E
"""The accent when nobody is on turn (a lobby's gold, ``discord.Colour.dark_gold``)."""
SEAT_ACCENTS = tuple((r << 16) | (g << 8) | b for r, g, b in PLAYER_COLOURS)
"""Each seat's colour: the one its badge has in the pictures."""


def seat_accent(seat: int | None) -> int:
    """The accent of a message whose player on turn is ``seat`` (``None``: nobody)."""
    if seat is None:
        return NEUTRAL_ACCENT
    return SEAT_ACCENTS[seat % len(SEAT_ACCENTS)]


class Picture(NamedTuple):
    """A picture a layout shows: the attached file's name and its alt text."""

    filename: str
    description: str


def text(content: str) -> JSON:
    return {"type": TEXT_DISPLAY, "content": content}


def heading(title: str) -> str:
    """A title line (Markdown's third level: big enough, not shouting)."""
    return f"### {title}"


def small(line: str) -> str:
    """A line in Discord's small, muted print (the footer)."""
    return f"-# {line}"


def separator(*, divider: bool = True) -> JSON:
    return {"type": SEPARATOR, "divider": divider, "spacing": 1}


def gallery(picture: Picture) -> JSON:
    """One picture, full width, with its alt text."""
    return {
        "type": MEDIA_GALLERY,
        "items": [
            {
                "media": {"url": f"attachment://{picture.filename}"},
                "description": alt_text(picture.description),
            }
        ],
    }


def alt_text(description: str) -> str:
    """A picture's description as Discord takes it: plain words, at most 1,024 characters."""
    plain = description.replace("**", "").replace("__", "")
    return clip(plain, ALT_TEXT) or "-"


def container(children: Sequence[JSON], accent: int) -> JSON:
    return {"type": CONTAINER, "accent_color": accent, "components": list(children)}


class PrebuiltControls(discord.ui.View):
    """A message's components already in Discord's JSON, given where discord.py takes a view.

    A hand is sent with every click's answer and every hand DM. Building discord.py's items and
    a ``View`` for it (an object per button, each a ``DynamicItem`` wrapping a ``Button``, the
    view's own set-up, and the view store's bookkeeping once sent) cost more than the rest of
    rendering the hand; ``menu_controls`` writes the same JSON directly. discord.py keeps no
    record of this view: it is finished from the start, so nothing is stored for it, and
    clicks on its controls are routed by their custom_ids like every other
    (``bot/interactions/components.py``).
    """

    def __init__(self, components: list[dict[str, Any]]) -> None:
        # No View.__init__: its timeout, future and item weights serve a view that listens.
        self._children = []
        self._BaseView__timeout = None  # read by discord.py's ephemeral follow-up route
        self._components = components

    def to_components(self) -> list[dict[str, Any]]:
        return self._components

    def has_components_v2(self) -> bool:
        return False

    def is_finished(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return False


class Layout(PrebuiltControls):
    """A finished V2 message (one container) given where discord.py takes a view.

    ``footer``: the message's footer line in words ("Game #12 · move 7"), by which the outbox
    recognises a message it sent (``delivery._footer``); ``pictures``: the attachments its
    galleries show, by file name."""

    def __init__(
        self, components: list[JSON], *, footer: str = "", pictures: Sequence[Picture] = ()
    ) -> None:
        super().__init__(components)
        self.footer = footer
        self.pictures = tuple(pictures)

    def has_components_v2(self) -> bool:
        return True


def edit_fields(layout: Layout) -> JSON:
    """A message's fields for an edit to ``layout``: the old content and embeds cleared.

    Discord keeps what an edit leaves out, and makes a message V2 by an edit only if the same
    edit empties its content and embeds (Edit Message, ``flags``). A message the bot sent
    before it wrote V2 (an old table, an old hand DM) is turned into the new one by any of
    its edits, a click's answer included; for a V2 message, the cleared fields change nothing.
    """
    return {"content": None, "embed": None, "view": layout}


def action_rows(controls: PrebuiltControls | Any | None) -> list[JSON]:
    """The action rows of a view (a ``PrebuiltControls`` or discord.py's), as JSON."""
    return [] if controls is None else list(controls.to_components())


class TextBudget:
    """The 4,000 characters of a message's text displays, handed out part by part.

    Parts that must be whole (a status, a footer) are taken first with ``take``; a long part is
    then cut to what is left: a board from its top (``first``), a log from its end (``last``)."""

    def __init__(self, limit: int = TEXT_LIMIT) -> None:
        self.left = limit

    def take(self, content: str, cap: int | None = None) -> str:
        shown = clip(content, min(self.left, cap if cap is not None else self.left))
        self.left -= len(shown)
        return shown

    def first(self, lines: Sequence[str], keep: int = 0) -> str:
        """Whole lines from the top, leaving ``keep`` characters for what comes after."""
        shown = first_lines(lines, max(self.left - keep, 0))
        if shown == ELLIPSIS and lines:
            shown = ""
        self.left -= len(shown)
        return shown

    def last(self, lines: Sequence[str], keep: int = 0) -> str:
        shown = last_lines(lines, max(self.left - keep, 0))
        self.left -= len(shown)
        return shown

    def section(self, title: str, lines: Sequence[str], *, cap: int, keep: int = 0) -> str:
        """A bold title over the newest of ``lines`` that fit in ``cap`` characters in all
        (and leave ``keep`` for what comes after); empty when none fits."""
        head = f"**{title}**\n"
        room = min(cap, self.left - keep) - len(head)
        if room <= 0 or not lines:
            return ""
        shown = last_lines(lines, room)
        if not shown:
            return ""
        self.left -= len(head) + len(shown)
        return head + shown


def joined(*parts: str | None) -> str:
    """Text parts of one display, one per line block, the empty ones left out."""
    return "\n".join(part for part in parts if part)


def texts(*parts: str | None) -> list[JSON]:
    """A text display per non-empty part (an empty display is refused by Discord)."""
    return [text(part) for part in parts if part]


def components_of(children: Iterable[JSON]) -> int:
    """How many components Discord counts in ``children`` (nested ones included)."""
    count = 0
    for child in children:
        count += 1
        count += components_of(child.get("components") or [])
    return count
