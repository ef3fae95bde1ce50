"""``python -m bot`` (``make run``): start the bot with the settings from ``.env``.

Without a token it explains where to get one and exits with status 2, without a traceback.
``--sync`` uploads the slash commands (to ``DEV_GUILD_ID`` when set) before connecting.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import ctypes.util
import gc
import logging
import os
import signal
import sys
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

import discord
from dotenv import load_dotenv

from bot.config import Settings
from bot.endpoints import use_endpoints
from bot.i18n import t

if TYPE_CHECKING:
    from bot.app import GloryBot

log = logging.getLogger("bot")

GC_YOUNG_THRESHOLD = 20_000
"""Allocations between young collections (Python's default is 700)."""

MALLOC_ARENAS = 2
M_ARENA_MAX = -8
"""glibc's ``mallopt`` parameter number for the arena limit (``malloc.h``)."""


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot", description=t("cli.description"))
    parser.add_argument("--sync", action="store_true", help=t("cli.sync"))
    return parser.parse_args(argv)


def quiet_garbage_collector() -> None:
    """Fewer, cheaper pauses of Python's cycle collector while players click.

    Everything imported so far (discord.py, SQLAlchemy, the catalogs …) lives as long as the
    process, so it is moved out of the collector's sight; and young objects are collected less
    often, since a click allocates thousands that die with it anyway.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNG_THRESHOLD, 20, 20)


def limit_malloc_arenas(arenas: int = MALLOC_ARENAS) -> bool:
    """Cap glibc's malloc arenas, as ``MALLOC_ARENA_MAX`` would; True if it was applied.

    Every database connection runs in a thread of its own, and glibc gives threads arenas of
    their own, up to eight per core. Memory freed in one arena is kept for that arena, so the
    bot held tens of megabytes it no longer used: ``benchmarks/bot_load.py`` measured about
    100 KB per active game without the cap and 75 KB with it, at the same latency. An
    operator's ``MALLOC_ARENA_MAX`` wins; other C libraries (macOS, musl, Windows) are left
    alone.
    """
    if os.environ.get("MALLOC_ARENA_MAX") or not sys.platform.startswith("linux"):
        return False
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    libc = ctypes.CDLL(name)
    if not hasattr(libc, "gnu_get_libc_version"):  # not glibc
        return False
    return bool(libc.mallopt(M_ARENA_MAX, arenas))


def event_loop_runner() -> Callable[[Coroutine[Any, Any, None]], None]:
    """uvloop where it is installed (not on Windows): every click is mostly event-loop work."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run
    return uvloop.run


async def serve(bot: GloryBot, token: str) -> None:
    """Run until closed, or until SIGTERM or SIGINT asks for a clean stop.

    SIGTERM is how systemd, Docker and every host stop a process. Python's default would end it
    at once; here the bot stops taking clicks, lets those in progress finish, closes the outbox
    and the database, and then this returns: exit status 0 and one log line.
    """
    loop = asyncio.get_running_loop()
    asked: list[str] = []
    stop = asyncio.Event()

    def ask_to_stop(signal_name: str) -> None:
        asked.append(signal_name)
        stop.set()

    for number in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):  # no signal handlers on Windows
            loop.add_signal_handler(number, ask_to_stop, number.name)
    async with bot:
        running = asyncio.create_task(bot.start(token))
        stopping = asyncio.create_task(stop.wait())
        await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
        if stop.is_set():
            await bot.stop()
            with contextlib.suppress(asyncio.CancelledError):
                await running
            log.info("stopped cleanly on %s", asked[0])
        else:
            stopping.cancel()
            running.result()  # a login failure and the like reach main() from here


def main(argv: list[str] | None = None) -> int:
    limit_malloc_arenas()
    args = parse_args(argv)
    load_dotenv()
    try:
        settings = Settings.from_env(sync=args.sync)
    except ValueError:
        print(t("cli.bad_number"), file=sys.stderr)
        return 2
    if not settings.token:
        print(t("cli.no_token"), file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    use_endpoints(settings.api_base, settings.gateway_url)

    from bot.app import GloryBot

    bot = GloryBot(settings)
    quiet_garbage_collector()
    try:
        event_loop_runner()(serve(bot, settings.token))
    except discord.LoginFailure:
        print(t("cli.bad_token"), file=sys.stderr)
        return 2
    except discord.PrivilegedIntentsRequired:
        print(t("cli.intents"), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
