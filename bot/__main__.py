"""``glory`` and ``python -m bot`` (``make run``): start the bot with the settings from ``.env``.

``.env`` is read from the current directory (``--env-file`` names another, which must exist);
the environment wins over it. ``--help`` lists every setting. The bot registers its slash
commands by itself when they changed (``bot/interactions/command_sync.py``); ``glory sync`` (or its
old spelling ``--sync``) registers them whatever the record says and exits, without connecting to
the gateway: for CI/CD, and for commands someone removed by hand.

Every way a start can fail that is the operator's to fix (no token, a setting the bot cannot
use, Discord unreachable or refusing the token, the database unreachable, refusing the login,
missing or unwritable) ends with one or two sentences from the catalog (``cli.*``) on stderr,
never followed by a traceback unless ``LOG_LEVEL=DEBUG``, and an exit status a supervisor can
act on: ``EXIT_START_FAILED`` (2: a setting or something permanent to fix; systemd's unit does
not restart it) or ``EXIT_UNREACHABLE`` (3: Discord or the database could not be reached, a
later try may work). Anything else is a bug and keeps its traceback.
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
import textwrap
import threading
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any

import discord
from dotenv import load_dotenv

from bot.i18n import t
from bot.process.cli_locale import cli_locale
from bot.process.config import SETTINGS, SettingError, Settings
from bot.process.endpoints import use_endpoints
from bot.process.start_failures import TRANSIENT, explain
from bot.process.version import version

if TYPE_CHECKING:
    from bot.app import GloryBot
    from bot.interactions.command_sync import Registration

log = logging.getLogger("bot")

GC_THRESHOLDS = (700, 4, 1_000)
"""When the cycle collector runs: every 700 net allocations for the young generation (Python's
default), every 4 young collections for the middle one (default 10), and a full collection
only after 1,000 middle ones (default 10) *and* once a quarter more objects have grown old.

Why: a collection's pause grows with the objects it walks, and what it walks is what outlived
the collections before it: each game's current state, views and menus, which live until its
next move. At 300 clicks/s with 200 games, (2,000, 20, 20) made young collections of 7,500
objects (3.4 ms, up to 10 ms) and middle ones of 30,000–40,000 (16–31 ms) every ten seconds,
and those pauses set the clicks' p99. With these thresholds the pauses stay under 5 ms and
full collections (50–80 ms with 200 games) come minutes apart under load, for about one more
percent of a core (docs/architecture.md)."""

MALLOC_ARENAS = 2
M_ARENA_MAX = -8
"""glibc's ``mallopt`` parameter number for the arena limit (``malloc.h``)."""


EXIT_START_FAILED = 2
"""A start that cannot work until someone changes a setting, the token or the database: a
supervisor should not restart it (``RestartPreventExitStatus=2`` in ``deploy/glory.service``)."""
EXIT_UNREACHABLE = 3
"""Discord or the database could not be reached: trying again later may work (systemd does)."""
COMMANDS = ("run", "sync", "playground")
HELP_WIDTH = 79
INDENT = " " * 6
REASON_CHARACTERS = 200
"""A library's error message is cut to this length in a start-up failure's sentence."""


def settings_help(locale: str) -> str:
    """Every setting ``Settings.from_env`` reads, its meaning and its default."""
    lines = [t("cli.settings", locale)]
    for name, default in SETTINGS:
        meaning = t(f"cli.setting.{name}", locale)
        if default is not None:
            meaning = f"{meaning} ({t('cli.default', locale, value=default)})"
        lines.append(f"  {name}")
        lines.append(
            textwrap.fill(
                meaning,
                HELP_WIDTH,
                initial_indent=INDENT,
                subsequent_indent=INDENT,
                break_on_hyphens=False,  # a default path stays whole
            )
        )
    return "\n".join(lines)


def parse_args(argv: list[str] | None, locale: str = "en") -> argparse.Namespace:
    command = "python -m bot" if Path(sys.argv[0]).name == "__main__.py" else "glory"
    parser = argparse.ArgumentParser(
        prog=command,
        description=t("cli.description", locale),
        epilog=settings_help(locale),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "command", nargs="?", choices=COMMANDS, default="run", help=t("cli.commands", locale)
    )
    parser.add_argument(
        "--sync", action="store_true", help=t("cli.sync", locale)
    )
    parser.add_argument("--env-file", metavar="PATH", help=t("cli.env_file", locale))
    parser.add_argument(
        "--version", action="version", version=f"glory {version()}", help=t("cli.version", locale)
    )
    args = parser.parse_args(argv)
    if args.sync:  # the old spelling of ``glory sync``
        args.command = "sync"
    return args


class QuietReconnects(logging.Filter):
    """discord.py logs every failed reconnect with a traceback; below DEBUG one line will do."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.getMessage().startswith("Attempting a reconnect"):
            error = record.exc_info[1]
            record.msg = f"{record.getMessage()} ({type(error).__name__}: {error})"
            record.args = ()
            record.exc_info = None
        return True


def configure_logging(level: str) -> None:
    """The log format, and library noise quiet unless ``LOG_LEVEL=DEBUG``: Alembic's lines at
    every start, discord.py's warnings about voice (which Glory does not use) and its
    tracebacks for reconnects."""
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if level == "DEBUG":
        return
    logging.getLogger("alembic").setLevel(logging.WARNING)
    logging.getLogger("discord.client").addFilter(QuietReconnects())
    discord.VoiceClient.warn_nacl = False
    if hasattr(discord.VoiceClient, "warn_dave"):
        discord.VoiceClient.warn_dave = False


def quiet_garbage_collector() -> None:
    """Short pauses of Python's cycle collector while players click.

    Everything imported so far (discord.py, SQLAlchemy, the catalogs …) lives as long as the
    process, so it is moved out of the collector's sight; and the collections run at
    ``GC_THRESHOLDS``, which keep each one small.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


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


SQLITE_THREAD_SUFFIX = "(_connection_worker_thread)"
"""How Python names the thread of each aiosqlite connection (``Thread-N (target)``)."""
THREADS_SETTLE_SECONDS = 3.0


async def settle_database_threads(timeout: float = THREADS_SETTLE_SECONDS) -> None:
    """Let aiosqlite's connection threads finish before the event loop closes.

    Why: when SQLite refuses to open the file, aiosqlite queues the stop of that connection's
    thread and raises at once; the start fails, ``main`` prints its sentence and the loop
    closes. If the thread reports the stop after that, it meets a closed loop and prints a
    traceback *after* the sentence (2 runs in 10 under load). Waiting here, on the still
    running loop, leaves nothing to report late.
    """
    threads = [
        thread
        for thread in threading.enumerate()
        if thread.name.endswith(SQLITE_THREAD_SUFFIX) and thread.is_alive()
    ]
    if not threads:
        return
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    for thread in threads:
        remaining = deadline - loop.time()
        if remaining <= 0:
            break
        await asyncio.to_thread(thread.join, remaining)
    # Their last callbacks were queued on this loop: let them run before it closes.
    for _ in range(3):
        await asyncio.sleep(0)


async def settled(job: Coroutine[Any, Any, Any]) -> Any:
    """``job``, and on a failed start the database threads settled before the loop closes."""
    try:
        return await job
    except Exception:
        await settle_database_threads()
        raise


async def register_only(bot: GloryBot, token: str) -> Registration | None:
    """``glory sync``: log in, register the commands, close; no gateway connection, so it can
    run beside the bot (CI/CD, a container's one-off run) without answering clicks twice."""
    bot.only_register = True
    async with bot:
        await bot.login(token)
    return bot.registration


def main(argv: list[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    if arguments[:1] == ["playground"]:  # Glory in the browser, without Discord
        from bot.playground.cli import main as playground

        return playground(arguments[1:])
    limit_malloc_arenas()
    locale = cli_locale()
    args = parse_args(argv, locale)

    def fail(key: str, **values: Any) -> int:
        print(t(key, locale, **values), file=sys.stderr)
        return EXIT_UNREACHABLE if key in TRANSIENT else EXIT_START_FAILED

    # From the directory the bot is started in, not searched for from the installed package;
    # a file named on the command line must be there (a typo would silently use none).
    if args.env_file is not None and not Path(args.env_file).is_file():
        return fail("cli.env_file_missing", path=args.env_file)
    load_dotenv(args.env_file or ".env")
    try:
        settings = Settings.from_env(sync=args.command == "run")
    except SettingError as error:
        return fail(error.key, **error.values)
    if not settings.token:
        return fail("cli.no_token")
    configure_logging(settings.log_level)
    use_endpoints(settings.api_base, settings.gateway_url)

    from bot.app import make_bot
    from bot.process.startup import announce

    bot = make_bot(settings)
    registration: list[Registration | None] = []
    if args.command == "run":
        bot.add_listener(announce(bot, version()), "on_ready")
        quiet_garbage_collector()
        job: Coroutine[Any, Any, Any] = serve(bot, settings.token)
    else:

        async def job_sync() -> None:
            registration.append(await register_only(bot, settings.token))

        job = job_sync()
    try:
        event_loop_runner()(settled(job))
    except KeyboardInterrupt:
        pass
    except Exception as error:
        key, values = explain(error, bot, settings)
        if not key:
            raise
        log.debug("the start failed", exc_info=error)
        return fail(key, **values)
    if args.command == "sync":
        return registered(registration[0] if registration else None, locale)
    return 0


def registered(registration: Registration | None, locale: str) -> int:
    """``glory sync``'s last line: how many commands are registered where, or why not."""
    if registration is None:
        return 0
    if registration.error:
        print(t("cli.sync_failed", locale, reason=registration.error), file=sys.stderr)
        return EXIT_UNREACHABLE
    key = "cli.synced_global" if registration.guild_id is None else "cli.synced_guild"
    print(t(key, locale, count=registration.count, guild=registration.guild_id or 0))
    return 0


def run() -> None:
    """The ``glory`` console command."""
    sys.exit(main())


if __name__ == "__main__":
    run()
