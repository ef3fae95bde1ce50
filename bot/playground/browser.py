"""The playground's page in headless Chromium: what the browser test and the screenshots use.

Development only: it needs Playwright (``pip install -e .[dev]``) and a Chromium on the machine
(Debian's ``chromium`` package; ``GLORY_CHROMIUM`` names another). Playwright drives the
system's browser; it never downloads one.

A ``PagePlayer`` acts only through what the page shows, the way a person would: it picks a
command in the command box, presses the buttons and opens the select menus the page rendered
from the bot's messages. ``play_to_end`` uses the first enabled game control (``glory:m:`` /
``glory:s:`` custom ids, a stored format) of the newest hand the player sees, whatever the
messages look like, so it keeps working when the layouts change.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.async_api import Browser, Locator, Page

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
)
"""The network here is closed: without the background-networking flags Chromium keeps trying
Google's hosts. Playwright gives each launch a fresh profile (``--user-data-dir``)."""
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
DESKTOP = {"width": 1500, "height": 1000}
SETTLE_MS = 15_000
QUIET_SECONDS = 0.4
SHOT_ATTEMPTS = 3
POLL_MS = 50
TURN_MS = 30_000
"""How long a player waits for their turn (AI players think, the bot draws pictures)."""

PICK_CONTROL = """
(abandoned) => {
  const MENU = /^glory:[ms]:(\\d+):(\\d+):(\\d+):/;
  let best = null;
  for (const column of ["dm-messages", "channel-messages"]) {
    for (const article of document.querySelectorAll(`#${column} article.message`)) {
      const id = article.dataset.messageId;
      if (abandoned.includes(id)) continue;
      if (column === "channel-messages" && !article.classList.contains("ephemeral")) continue;
      const controls = article.querySelectorAll(
        "button.dc-button[data-custom-id]:not(:disabled), " +
        ".dc-select[data-custom-id]:not(.disabled)");
      for (const control of controls) {
        const match = MENU.exec(control.dataset.customId);
        if (!match) continue;
        const version = Number(match[2]);
        const newer = !best || version > best.version ||
          (version === best.version && (id.length > best.messageId.length ||
            (id.length === best.messageId.length && id > best.messageId)));
        if (newer) {
          const select = control.classList.contains("dc-select");
          const option = select ? control.querySelector(".dc-option") : null;
          best = { column, messageId: id, customId: control.dataset.customId, version,
                   select, value: option ? option.dataset.value : null };
        }
        break;
      }
    }
  }
  return best;
}
"""
GAME_RUNNING = """
() => Boolean(document.querySelector('#channel-messages [data-custom-id^="glory:hand:"]'))
"""
WHOSE_TURN = """
([names, abandoned]) => {
  const MENU = /^glory:[ms]:(\\d+):(\\d+):(\\d+):/;
  const page = window.gloryPage;
  const controls = (components, found) => {
    for (const c of components || []) {
      const match = c.custom_id && !c.disabled ? MENU.exec(c.custom_id) : null;
      if (match) found.push(Number(match[2]));
      controls(c.components, found);
      if (c.accessory) controls([c.accessory], found);
    }
    return found;
  };
  let best = null;
  for (const player of page.players().filter((p) => names.includes(p.name))) {
    for (const message of page.messages()) {
      if (abandoned.includes(message.id)) continue;
      const mine = message.channel_id === player.dm || message.page.viewer_id === player.id;
      if (!mine) continue;
      const versions = controls(message.components, []);
      if (!versions.length) continue;
      const version = Math.max(...versions);
      if (!best || version > best.version) best = { version, name: player.name };
    }
  }
  return best ? best.name : null;
}
"""


StepHook = Callable[[int, "Control"], Awaitable[None]]


def find_chromium() -> str | None:
    """The system's Chromium (``GLORY_CHROMIUM`` first), or None."""
    named = os.environ.get("GLORY_CHROMIUM")
    if named:
        return named if Path(named).exists() else None
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


@contextlib.asynccontextmanager
async def chromium(executable: str | None = None) -> AsyncIterator[Browser]:
    """Headless Chromium from the system, closed on exit."""
    from playwright.async_api import async_playwright

    path = executable or find_chromium()
    if path is None:
        raise FileNotFoundError("no Chromium: apt-get install chromium, or set GLORY_CHROMIUM")
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=path, args=list(CHROMIUM_FLAGS), headless=True
        )
        try:
            yield browser
        finally:
            await browser.close()


@dataclass(frozen=True)
class Control:
    """A game control the page shows: a button, or a select and the option to choose."""

    column: str
    message_id: str
    custom_id: str
    version: int
    select: bool
    value: str | None

    @classmethod
    def from_page(cls, found: dict[str, Any]) -> Control:
        return cls(
            column=found["column"],
            message_id=found["messageId"],
            custom_id=found["customId"],
            version=found["version"],
            select=found["select"],
            value=found["value"],
        )


def _quoted(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


class PagePlayer:
    """One browser tab on the playground, acting as whichever player is chosen."""

    def __init__(self, page: Page, url: str) -> None:
        self.page = page
        self.url = url
        self.abandoned: set[str] = set()
        """Hands the player stopped using because the bot answered a click on them with a new
        message (a notice, a fresh hand) instead of updating them, as a person would."""
        self.errors: list[str] = []
        page.on("pageerror", lambda error: self.errors.append(str(error)))

    async def open(self) -> None:
        """Load the page and wait for its first picture of the world."""
        await self.page.goto(self.url)
        await self.page.wait_for_function(
            "() => window.gloryPage && window.gloryPage.me() && window.gloryPage.changes() > 0",
            polling=POLL_MS,
        )

    async def phone(self, on: bool) -> None:
        toggle = self.page.locator("#phone-toggle")
        if await toggle.is_checked() != on:
            await toggle.click()

    async def act_as(self, name: str) -> None:
        await self.page.locator(f".player-tab[data-player-name={_quoted(name)}]").click()
        await self.page.wait_for_function(
            f"() => document.querySelector('.player-tab.active').dataset.playerName === "
            f"{_quoted(name)}"
        )

    async def settle(self) -> None:
        """Wait until every action the page started is answered and shown."""
        await self.page.wait_for_function(
            "() => document.body.dataset.pending === '0'", timeout=SETTLE_MS, polling=POLL_MS
        )

    async def run_command(self, path: str, **options: str) -> None:
        """Choose ``/path`` in the command box, fill its options, send it."""
        await self.page.locator("#command").select_option(path)
        for name, value in options.items():
            field = self.page.locator(f"#command-options [data-option={_quoted(name)}]")
            if await field.evaluate("node => node.tagName") == "SELECT":
                await field.select_option(value)
            else:
                await field.fill(value)
        await self.page.locator("#send-command").click()
        await self.settle()

    async def fill_with_ai(self, count: int = 1, level: str = "easy") -> None:
        await self.page.locator("#fill-count").fill(str(count))
        await self.page.locator("#fill-level").select_option(level)
        await self.page.locator("#fill-button").click()
        await self.settle()

    def channel_control(self, custom_id_prefix: str) -> Locator:
        """The newest control in the channel whose custom id starts with the prefix."""
        return self.page.locator(
            f"#channel-messages [data-custom-id^={_quoted(custom_id_prefix)}]"
        ).last

    async def click_in_channel(self, custom_id_prefix: str) -> None:
        await self.channel_control(custom_id_prefix).click()
        await self.settle()

    async def next_control(self) -> Control | None:
        found = await self.page.evaluate(PICK_CONTROL, sorted(self.abandoned))
        return None if found is None else Control.from_page(found)

    async def use(self, control: Control) -> None:
        """Press the button, or open the select and choose the option, as a person would."""
        article = self.page.locator(
            f"#{control.column} article[data-message-id={_quoted(control.message_id)}]"
        )
        target = f"[data-custom-id={_quoted(control.custom_id)}]"
        if control.select:
            select = article.locator(f".dc-select{target}")
            await select.locator(".dc-select-trigger").click()
            assert control.value is not None
            await select.locator(f".dc-option[data-value={_quoted(control.value)}]").click()
        else:
            await article.locator(f"button{target}").click()
        await self.settle()
        answer = await self.page.evaluate("() => window.gloryPage.lastAnswer()")
        if answer and answer.get("response_message_id") != control.message_id:
            self.abandoned.add(control.message_id)

    async def wait_for_game(self) -> None:
        await self.page.wait_for_function(GAME_RUNNING, timeout=TURN_MS, polling=POLL_MS)

    async def whose_turn(self, names: list[str]) -> str | None:
        """Which of these players sees a game control now (the newest state's), if any."""
        found = await self.page.evaluate(WHOSE_TURN, [names, sorted(self.abandoned)])
        return None if found is None else str(found)

    async def play_to_end(
        self, humans: list[str], max_steps: int = 600, on_step: StepHook | None = None
    ) -> int:
        """Play every seat of ``humans`` until the channel's table has no "My hand" button any
        more: whoever of them has a control now is chosen in the page's player tabs, and uses
        the first enabled game control of their newest hand. Returns the controls used;
        ``on_step(step, control)`` runs before each one (for screenshots)."""
        await self.wait_for_game()
        for step in range(max_steps):
            if len(humans) > 1:
                await self.page.wait_for_function(
                    f"(arg) => ({WHOSE_TURN})(arg) || !({GAME_RUNNING})()",
                    arg=[humans, sorted(self.abandoned)],
                    timeout=TURN_MS,
                    polling=POLL_MS,
                )
                name = await self.whose_turn(humans)
                if name is not None:
                    await self.act_as(name)
            handle = await self.page.wait_for_function(
                f"(abandoned) => ({PICK_CONTROL})(abandoned) || !({GAME_RUNNING})() || null",
                arg=sorted(self.abandoned),
                timeout=TURN_MS,
                polling=POLL_MS,
            )
            found = await handle.json_value()
            if found is True:  # the game is over
                return step
            control = Control.from_page(found)
            if on_step is not None:
                await on_step(step, control)
            await self.use(control)
        raise AssertionError(f"the game did not end within {max_steps} controls")

    def newest(self, column: str, selector: str) -> Locator:
        """The newest message in a column (``channel-messages`` / ``dm-messages``) that holds
        ``selector``."""
        return (
            self.page.locator(f"#{column} article.message")
            .filter(has=self.page.locator(selector))
            .last
        )

    async def open_channel(self, name: str) -> None:
        """Show ``#name`` in the channel column, adding the channel first if it is new."""
        item = self.page.locator(f"#channel-list li[data-channel-name={_quoted(name)}]")
        if not await item.count():
            await self.page.locator("#channel-name").fill(name)
            await self.page.locator("#add-channel button").click()
        await item.click()
        await self.page.wait_for_function(
            f"() => document.querySelector('#channel-list li.active')?.dataset.channelName "
            f"=== {_quoted(name)}",
            polling=POLL_MS,
        )

    async def quiet(self, seconds: float = QUIET_SECONDS, limit: float = 10.0) -> None:
        """Wait until the page has drawn nothing new for ``seconds`` (at most ``limit``)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + limit
        changes = await self.page.evaluate("() => window.gloryPage.changes()")
        while loop.time() < deadline:
            await asyncio.sleep(seconds)
            now = await self.page.evaluate("() => window.gloryPage.changes()")
            if now == changes:
                return
            changes = now

    async def shoot(self, locator: Locator, path: Path) -> None:
        """A picture of one message as a phone shows it, once the page is quiet (the window
        made tall enough for the whole message to fit in its column)."""
        from playwright.async_api import Error

        await self.phone(True)
        try:
            for attempt in range(SHOT_ATTEMPTS):
                await self.quiet()
                try:
                    height = await locator.evaluate("node => node.offsetHeight")
                    await self.page.set_viewport_size(
                        {"width": DESKTOP["width"], "height": max(DESKTOP["height"], height + 400)}
                    )
                    await locator.scroll_into_view_if_needed()
                    await locator.screenshot(path=str(path), animations="disabled")
                    return
                except Error:  # the bot edited the message meanwhile: it was drawn anew
                    if attempt == SHOT_ATTEMPTS - 1:
                        raise
        finally:
            await self.page.set_viewport_size(DESKTOP)
            await self.phone(False)


@dataclass(frozen=True)
class GameSetup:
    """One game to play through the page: in its own channel, by these people, with this many
    AI players seated by "Fill with AI"."""

    game: str
    options: str
    channel: str
    humans: tuple[str, ...]
    ai: int = 0


GAMES = (
    GameSetup("call_to_glory", "rounds=1", "call-to-glory", ("alice",), ai=1),
    GameSetup("kami", "target=5", "kami", ("bob", "carol")),
    GameSetup("clans_and_glory", "", "clans", ("dave",), ai=1),
)
"""A 2-player game of each game at its shortest: Call to Glory and Clans and Glory against an
AI player seated with "Fill with AI", Kami by two people at the page (the tabs switch between
them). Used by the browser test and by the screenshots."""
PLAYERS = ("alice", "bob", "carol", "dave")


async def play_game(
    player: PagePlayer, setup: GameSetup, *, shots: Path | None = None, shot_at: int = 4
) -> int:
    """``/play`` in the setup's channel, the other people join, AI players fill the seats, the
    host starts, and everyone plays to the end; returns the controls used.

    With ``shots``, pictures of the lobby, of the table and of the hand at the ``shot_at``-th
    control go there as ``<game>_lobby.png``, ``<game>_table.png`` and ``<game>_hand.png``.
    """
    host, *guests = setup.humans
    await player.act_as(host)
    await player.open_channel(setup.channel)
    await player.run_command("play", game=setup.game, options=setup.options)
    for guest in guests:
        await player.act_as(guest)
        await player.click_in_channel("glory:lobby:join:")
    await player.act_as(host)
    if setup.ai:
        await player.fill_with_ai(setup.ai)
    if shots is not None:
        lobby = player.newest("channel-messages", '[data-custom-id^="glory:seats:"]')
        await player.shoot(lobby, shots / f"{setup.game}_lobby.png")
    await player.click_in_channel("glory:lobby:start:")

    async def shoot_table_and_hand(step: int, control: Control) -> None:
        if shots is None or step != shot_at:
            return
        table = player.newest("channel-messages", '[data-custom-id^="glory:hand:"]')
        await player.shoot(table, shots / f"{setup.game}_table.png")
        hand = player.page.locator(
            f"#{control.column} article[data-message-id={_quoted(control.message_id)}]"
        )
        await player.shoot(hand, shots / f"{setup.game}_hand.png")

    return await player.play_to_end(list(setup.humans), on_step=shoot_table_and_hand)
