"""``glory playground`` (``make playground``): Glory in the browser, without Discord.

Starts the loopback emulator, the real bot as a process against it (its database an SQLite file
in a temporary directory) and the page on ``http://127.0.0.1:PORT``, then serves until Ctrl+C
or SIGTERM. See docs/playground.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
from pathlib import Path

from bot.i18n import t
from bot.process.cli_locale import cli_locale

from .session import Playground, PlaygroundOptions
from .web import PageServer

DEFAULT_PORT = 8787
EXIT_FAILED = 1
EXIT_PORT_BUSY = 2


def parse_args(argv: list[str] | None, locale: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="glory playground", description=t("playground.cli.description", locale)
    )
    parser.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=t("playground.cli.port", locale, port=DEFAULT_PORT),
    )
    parser.add_argument(
        "--players", default="alice,bob", metavar="NAMES", help=t("playground.cli.players", locale)
    )
    parser.add_argument(
        "--language", default="en-US", metavar="LOCALE", help=t("playground.cli.language", locale)
    )
    parser.add_argument(
        "--pictures",
        choices=("on", "off"),
        default="on",
        help=t("playground.cli.pictures", locale),
    )
    parser.add_argument(
        "--no-rate-limits", action="store_true", help=t("playground.cli.no_rate_limits", locale)
    )
    parser.add_argument(
        "--workdir",
        type=Path,
        default=None,
        metavar="DIR",
        help=t("playground.cli.workdir", locale),
    )
    return parser.parse_args(argv)


def options_from(args: argparse.Namespace) -> PlaygroundOptions:
    players = tuple(name.strip() for name in args.players.split(",") if name.strip())
    return PlaygroundOptions(
        players=players,
        locale=args.language,
        pictures=args.pictures == "on",
        rate_limits=not args.no_rate_limits,
        workdir=args.workdir,
    )


async def serve(options: PlaygroundOptions, port: int, locale: str) -> int:
    """The page first (a busy port fails at once), then the emulator and the bot; until a
    signal asks to stop."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for number in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):  # no signal handlers on Windows
            loop.add_signal_handler(number, stop.set)
    playground = Playground(options)
    page = PageServer(playground, port)
    try:
        await page.start()
    except OSError:
        print(t("playground.cli.port_busy", locale, port=port), file=sys.stderr)
        return EXIT_PORT_BUSY
    print(t("playground.cli.starting", locale), flush=True)
    try:
        async with playground.running():
            print(
                t("playground.cli.ready", locale, url=page.url, log=playground.log_path),
                flush=True,
            )
            await stop.wait()
    except AssertionError:  # the bot did not connect: its log says why
        print(t("playground.cli.bot_failed", locale, log=playground.log_path), file=sys.stderr)
        if playground.bot is not None:
            print(playground.bot.log_tail(), file=sys.stderr)
        return EXIT_FAILED
    finally:
        await page.stop()
    print(t("playground.cli.stopped", locale), flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    locale = cli_locale()
    args = parse_args(argv, locale)
    with contextlib.suppress(KeyboardInterrupt):
        return asyncio.run(serve(options_from(args), args.port, locale))
    return 0
