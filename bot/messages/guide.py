"""``/rules``: a short guide to each game, in pages the reader turns with buttons (ephemeral).

Why pages: a game taught in one embed was either too long to read on a phone or too short to
learn from (players missed Kami's Empress rule, Demoralized and the Duel's mercenaries). Each
page holds one topic: goal and cards, a turn, special rules, scoring and the end, the options
(each with a line per value, the same lines the lobby's selects show), an example. The texts
are catalog entries (``guide.<game>.<page>``, ``bot/i18n/*/guide.py``), written in our own
words from docs/rules/; the player's page of the game (``docs/rules/play/<game>.md``) is
linked when the project names its repository
(``[project.urls]`` ``Repository`` or ``Source``), else the footer names the file.

The buttons (⏮ ◀ ▶ ⏭) are ``DynamicItem``s like ``/scores``'s: ``glory:guide:<game>:<page>:
<button>`` names the page they lead to, so they work after a restart and a click edits the
ephemeral message in place. A custom_id naming no game of ours or no page number is a forged
or damaged control and answered as one; a page past the end shows the last page.
"""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

import discord
from discord import ui

from bot.i18n import t
from bot.interactions.answers import Answer
from bot.interactions.components import Control, DamagedControl
from bot.interactions.replies import guarded
from bot.messages.controls import SentControls
from bot.messages.languages import user_locale
from bot.messages.option_help import option_lines
from bot.messages.paging import PAGE_BUTTONS, step_buttons
from bot.render import presenter_for
from bot.render.limits import EMBED_TITLE, clip
from games import REGISTRY

PAGES: dict[str, tuple[str, ...]] = {
    "call_to_glory": ("goal", "turn", "sets", "scoring", "variants", "options", "example"),
    "kami": ("goal", "round", "empress", "demoralized", "duel", "scoring", "options", "example"),
    "clans_and_glory": ("goal", "turn", "scoring", "options", "example"),
}
"""Each game's pages in reading order; ``options`` is built from the game's declared options."""
RULES_FILE = "docs/rules/play/{game}.md"
"""How to play a game, for players, with pictures (the engine's own notes, every ruling in
detail, are ``docs/rules/<game>.md``; the player's page links them)."""
REPOSITORY_LABELS = frozenset({"repository", "source", "source code"})
"""``[project.urls]`` labels that name the repository (GitHub-style ``/blob/`` links)."""
PAGE_NUMBER = re.compile(r"[1-9][0-9]{0,5}")
"""A page in a custom_id: ASCII digits only, at most six; anything else is forged."""


PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"
"""A source checkout's project file (an installed wheel has none beside the package)."""


def project_urls() -> list[tuple[str, str]]:
    """``[project.urls]``: from a source checkout's pyproject.toml (fresher than the metadata
    of an editable install), else from the installed package's metadata."""
    if PYPROJECT.is_file():
        with PYPROJECT.open("rb") as file:
            urls = tomllib.load(file).get("project", {}).get("urls", {})
        return [(str(label), str(url)) for label, url in urls.items()]
    try:
        entries = importlib.metadata.metadata("glory").get_all("Project-URL") or []
    except importlib.metadata.PackageNotFoundError:
        return []
    return [(label, url) for label, _, url in (entry.partition(",") for entry in entries)]


@cache
def repository_url() -> str | None:
    """The repository named in the project's URLs (``Repository`` or ``Source``), if any."""
    for label, url in project_urls():
        url = url.strip()
        if label.strip().lower() in REPOSITORY_LABELS and url.startswith("https://"):
            return url.rstrip("/")
    return None


def rules_url(game_key: str) -> str | None:
    """A link to the full rules of ``game_key``, or ``None`` when no repository is known."""
    base = repository_url()
    return f"{base}/blob/HEAD/{RULES_FILE.format(game=game_key)}" if base else None


def page_count(game_key: str) -> int:
    return len(PAGES[game_key])


def page_text(game_key: str, page: str, locale: str) -> str:
    """The body of one page (the options page lists the game's options and their values)."""
    if page != "options":
        return t(f"guide.{game_key}.{page}", locale)
    example = t(f"guide.{game_key}.options.example", locale)
    intro = t("guide.options.intro", locale, example=example)
    return "\n".join([intro, *option_lines(REGISTRY[game_key], locale)])


def page_title(game_key: str, page: str, locale: str) -> str:
    key = "guide.options.title" if page == "options" else f"guide.{game_key}.{page}.title"
    game = presenter_for(game_key).game_name(locale)
    return clip(t("guide.title", locale, game=game, page=t(key, locale)), EMBED_TITLE)


def guide_message(game_key: str, locale: str, page: int = 1) -> dict[str, Any]:
    """The guide of ``game_key`` at ``page`` (from 1, clamped to the pages there are):
    ``embed`` and ``view`` (the page buttons, and the full rules' link when one is known)."""
    count = page_count(game_key)
    page = min(max(page, 1), count)
    name = PAGES[game_key][page - 1]
    url = rules_url(game_key)
    embed = discord.Embed(
        title=page_title(game_key, name, locale),
        description=page_text(game_key, name, locale),
        url=url,
    )
    if url is None:
        path = RULES_FILE.format(game=game_key)
        footer = t("guide.footer_path", locale, page=page, pages=count, path=path)
    else:
        footer = t("guide.footer", locale, page=page, pages=count)
    embed.set_footer(text=footer)
    return {"embed": embed, "view": guide_buttons(game_key, page, count, url, locale)}


def guide_buttons(
    game_key: str, page: int, count: int, url: str | None, locale: str
) -> SentControls:
    """⏮ ◀ ▶ ⏭ for ``page`` of ``count`` (those leading nowhere greyed out), then the link."""
    controls = step_buttons(
        page,
        count,
        lambda target, button, emoji, disabled: GuidePageButton(
            game_key, target, button, emoji=emoji, disabled=disabled
        ),
    )
    if url is not None:
        controls.add_item(ui.Button(label=t("guide.full_rules", locale), url=url, row=0))
    return controls


class GuidePageButton(Control, ui.DynamicItem[ui.Button], template=r"glory:guide:(?P<fields>.*)"):
    """Shows another page of the ``/rules`` guide in the same ephemeral message."""

    def __init__(
        self,
        game_key: str,
        page: int,
        button: str = "next",
        *,
        emoji: str | None = None,
        disabled: bool = False,
    ) -> None:
        self.game_key = game_key
        self.page = page
        super().__init__(
            ui.Button(
                emoji=emoji,
                style=discord.ButtonStyle.secondary,
                custom_id=f"glory:guide:{game_key}:{page}:{button}",
                disabled=disabled,
                row=0,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Button, match: re.Match[str], /
    ) -> GuidePageButton | DamagedControl:
        fields = match["fields"].split(":")
        if len(fields) != 3 or fields[0] not in PAGES or fields[2] not in dict(PAGE_BUTTONS):
            return DamagedControl(item)
        if not PAGE_NUMBER.fullmatch(fields[1]):
            return DamagedControl(item)
        return cls(fields[0], int(fields[1]), fields[2])

    async def act(self, interaction: discord.Interaction) -> None:
        async with guarded(interaction, None):
            content = guide_message(self.game_key, user_locale(interaction), self.page)
            await Answer.of(interaction).update(**content)


async def send_guide(interaction: discord.Interaction, game_key: str) -> None:
    """Answer ``/rules`` with the guide's first page, in the reader's language."""
    await Answer.of(interaction).send(**guide_message(game_key, user_locale(interaction)))


GUIDE_ITEMS = (GuidePageButton,)
"""The dynamic items of this module, registered when ``bot.exts.rules`` loads."""
