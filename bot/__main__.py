"""``glory`` and ``python -m bot`` (``make run``): start the bot with the settings from ``.env``.

``.env`` is read from the current directory (``--env-file`` names another); the environment
wins over it. ``--help`` lists every setting, ``--sync`` uploads the slash commands (to
``DEV_GUILD_ID`` when set) before connecting.

Every way a start can fail that is the operator's to fix (no token, a setting the bot cannot
use, Discord unreachable or refusing the token, the database unreachable or unsupported) ends
with one or two sentences from the catalog (``cli.*``) on stderr, without a traceback unless
``LOG_LEVEL=DEBUG``, and exit status 2 (fix a setting) or 3 (Discord or the database could not
be reached: a later try may work). Anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import ctypes.util
import gc
import importlib.metadata
import logging
import os
import signal
import sys
import textwrap
from collections.abc import Callable, Coroutine, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from dotenv import load_dotenv
from sqlalchemy.exc import SQLAlchemyError

from bot.config import SETTINGS, SettingError, Settings, redact_url
from bot.endpoints import use_endpoints
from bot.i18n import LOCALES, t

if TYPE_CHECKING:
    from bot.app import GloryBot

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
"""A start that cannot work until someone changes a setting (or the token)."""
EXIT_UNREACHABLE = 3
"""Discord or the database could not be reached: trying again later may work (systemd does)."""
SHARD_CLOSE_CODES = {4010: "cli.invalid_shard", 4011: "cli.sharding_required"}
"""Gateway close codes that mean the shard settings do not fit the bot (Discord's 4010 and
4011), and the catalog message for each."""
TRANSIENT = frozenset({"cli.discord_unreachable", "cli.database_unreachable"})
HELP_WIDTH = 79
INDENT = " " * 6
REASON_CHARACTERS = 200
"""A library's error message is cut to this length in a start-up failure's sentence."""


def version() -> str:
    """The installed distribution's version (``unknown`` when run from a bare source tree)."""
    try:
        return importlib.metadata.version("glory")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def cli_locale(env: Mapping[str, str] | None = None) -> str:
    """The operator's language for the command line's messages, from ``LC_ALL``/``LANG``."""
    env = os.environ if env is None else env
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            code = value.split("_")[0].split(".")[0].lower()
            return code if code in LOCALES else "en"
    return "en"


def settings_help(locale: str) -> str:
    """Every setting ``Settings.from_env`` reads, its meaning and its default."""
    lines = [t("cli.settings", locale)]
    for name, default in SETTINGS:
        meaning = t(f"cli.setting.{name}", locale)
        if default is not None:
            meaning = f"{meaning} ({t('cli.default', locale, value=default)})"
        lines.append(f"  {name}")
        lines.append(
            textwrap.fill(meaning, HELP_WIDTH, initial_indent=INDENT, subsequent_indent=INDENT)
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
    parser.add_argument("--sync", action="store_true", help=t("cli.sync", locale))
    parser.add_argument(
        "--env-file", default=".env", metavar="PATH", help=t("cli.env_file", locale)
    )
    parser.add_argument(
        "--version", action="version", version=f"glory {version()}", help=t("cli.version", locale)
    )
    return parser.parse_args(argv)


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


def _reason(error: BaseException) -> str:
    """A library error's own words, short: the first line of its message."""
    if isinstance(error, SQLAlchemyError) and getattr(error, "orig", None) is not None:
        error = error.orig  # type: ignore[attr-defined]
    if isinstance(error, OSError) and error.strerror and not isinstance(error, aiohttp.ClientError):
        text = error.strerror
    else:
        text = str(error).strip() or type(error).__name__
    return text.splitlines()[0][:REASON_CHARACTERS].rstrip(".")


def explain(error: BaseException, bot: GloryBot, settings: Settings) -> tuple[str, dict[str, Any]]:
    """The catalog message for a failed start (``KeyError``-free: ``("", {})`` for a bug).

    Discord comes first (the token is checked by logging in), the database second (the store is
    opened in ``setup_hook``, right after logging in), so whether the bot logged in tells which
    of the two a plain network error came from.
    """
    if isinstance(error, discord.LoginFailure):
        return "cli.bad_token", {}
    if isinstance(error, discord.PrivilegedIntentsRequired):
        return "cli.intents", {}
    if isinstance(error, discord.ConnectionClosed) and error.code in SHARD_CLOSE_CODES:
        return SHARD_CLOSE_CODES[error.code], {"count": settings.shards_text()}
    logged_in = bot.application is not None
    store_open = getattr(bot, "store", None) is not None
    network = (OSError, TimeoutError)
    discord_error = (aiohttp.ClientError, discord.GatewayNotFound, discord.DiscordServerError)
    if isinstance(error, discord_error) or (not logged_in and isinstance(error, network)):
        return "cli.discord_unreachable", {"url": discord.http.Route.BASE, "reason": _reason(error)}
    database_error = isinstance(error, SQLAlchemyError) or type(error).__module__.startswith(
        "asyncpg"
    )
    if not store_open and (database_error or (logged_in and isinstance(error, network))):
        url = redact_url(settings.database_url)
        return "cli.database_unreachable", {"url": url, "reason": _reason(error)}
    return "", {}


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

    # From the directory the bot is started in, not searched for from the installed package.
    load_dotenv(args.env_file)
    try:
        settings = Settings.from_env(sync=args.sync)
    except SettingError as error:
        return fail(error.key, **error.values)
    if not settings.token:
        return fail("cli.no_token")
    configure_logging(settings.log_level)
    use_endpoints(settings.api_base, settings.gateway_url)

    from bot.app import make_bot
    from bot.startup import announce

    bot = make_bot(settings)
    bot.add_listener(announce(bot, version()), "on_ready")
    quiet_garbage_collector()
    try:
        event_loop_runner()(serve(bot, settings.token))
    except KeyboardInterrupt:
        pass
    except Exception as error:
        key, values = explain(error, bot, settings)
        if not key:
            raise
        log.debug("the start failed", exc_info=error)
        return fail(key, **values)
    return 0


def run() -> None:
    """The ``glory`` console command."""
    sys.exit(main())


if __name__ == "__main__":
    run()
