"""Why a start failed, in the catalog's words, and whether trying again can help.

``explain`` turns the exception that ended a start into a catalog message (``cli.*``) and its
values; ``TRANSIENT`` names the messages a later try may cure (exit status 3: Discord or the
database out of reach). Every other message is permanent (exit status 2): a token Discord
refuses, shard settings that do not fit, a database that refuses the login, does not exist, or
(SQLite) cannot be written where ``DATABASE_URL`` puts it. A supervisor that restarts those
would only print the same sentence every few seconds forever, so the systemd unit does not.

Why the order of the checks: Discord comes first (the token is checked by logging in), the
database second (the store is opened in ``setup_hook``, right after logging in), so whether the
bot logged in tells which of the two a plain network error came from.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from bot.process.config import Settings, redact_url

if TYPE_CHECKING:
    from bot.app import GloryBot

SHARD_CLOSE_CODES = {4010: "cli.invalid_shard", 4011: "cli.sharding_required"}
"""Gateway close codes that mean the shard settings do not fit the bot (Discord's 4010 and
4011), and the catalog message for each."""
TRANSIENT = frozenset({"cli.discord_unreachable", "cli.database_unreachable"})
REASON_CHARACTERS = 200
"""A library's error message is cut to this length in a start-up failure's sentence."""

REFUSED_LOGIN = ("28",)
"""SQLSTATE classes of a login PostgreSQL refuses: wrong password, unknown role, ``pg_hba``."""
MISSING_DATABASE = ("3D000",)
NOT_ALLOWED = ("42501",)
"""The user may log in but not create Glory's tables (the migrations run at every start)."""
SQLITE_BUSY = ("database is locked",)
"""The one SQLite error another try can cure: another process held the file for a moment."""


def _cause(error: BaseException) -> BaseException:
    """The driver's own exception behind SQLAlchemy's wrapper."""
    if isinstance(error, SQLAlchemyError) and getattr(error, "orig", None) is not None:
        return error.orig  # type: ignore[attr-defined,no-any-return]
    return error


def reason(error: BaseException) -> str:
    """A library error's own words, short: the first line of its message."""
    error = _cause(error)
    if isinstance(error, OSError) and error.strerror and not isinstance(error, aiohttp.ClientError):
        text = error.strerror
    else:
        text = str(error).strip() or type(error).__name__
    return text.splitlines()[0][:REASON_CHARACTERS].rstrip(".")


def _sqlstate(error: BaseException) -> str:
    """PostgreSQL's SQLSTATE of an asyncpg error (SQLAlchemy keeps asyncpg's as ``__cause__``)."""
    error = _cause(error)
    for candidate in (error, error.__cause__):
        state = getattr(candidate, "sqlstate", None)
        if isinstance(state, str):
            return state
    return ""


def _database(error: BaseException, settings: Settings) -> tuple[str, dict[str, Any]]:
    """The message for a database that could not be opened (``("", {})``: not the database)."""
    url = redact_url(settings.database_url)
    said = reason(error)
    if make_url(settings.database_url).get_backend_name() == "sqlite":
        cause = _cause(error)
        if isinstance(cause, sqlite3.Error) and said.lower() in SQLITE_BUSY:
            return "cli.database_unreachable", {"url": url, "reason": said}
        if isinstance(cause, (sqlite3.Error, OSError)):
            path = make_url(settings.database_url).database or ""
            return "cli.sqlite_unusable", {"path": path, "reason": said}
        return "", {}
    state = _sqlstate(error)
    if state.startswith(REFUSED_LOGIN):
        return "cli.database_refused", {"url": url, "reason": said}
    if state in MISSING_DATABASE:
        return "cli.database_missing", {"url": url, "reason": said}
    if state in NOT_ALLOWED:
        return "cli.database_not_allowed", {"url": url, "reason": said}
    return "cli.database_unreachable", {"url": url, "reason": said}


def explain(error: BaseException, bot: GloryBot, settings: Settings) -> tuple[str, dict[str, Any]]:
    """The catalog message for a failed start (``("", {})`` for a bug, which keeps its
    traceback)."""
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
        return "cli.discord_unreachable", {"url": discord.http.Route.BASE, "reason": reason(error)}
    database_error = isinstance(error, SQLAlchemyError) or type(error).__module__.startswith(
        "asyncpg"
    )
    if not store_open and (database_error or (logged_in and isinstance(error, network))):
        return _database(error, settings)
    return "", {}
