"""``python -m bot.ratings recompute [--check]``: rebuild every rating from the stored results.

Why a command of its own: a change of the rating model (or a fix to it) must never lose
history, and an operator must be able to see that the stored ratings are what the results
say. The command opens the database the bot uses (``DATABASE_URL`` from the environment or
``.env``, or ``--database-url``), runs the migrations, and rebuilds every rating in one
transaction with the code the bot rates games with (``ledger.rebuild``), in the order the
games were rated. ``--check`` rebuilds, compares and rolls back: it reports whether the
stored ratings are exactly what the results give, and changes nothing.

It is safe while the bot runs: the rebuild is one transaction (on PostgreSQL it takes the
ratings' advisory lock, which every rated game waits for; on SQLite it holds the write lock,
and the bot's writes wait for it).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from dataclasses import dataclass

from dotenv import load_dotenv

from bot.__main__ import cli_locale
from bot.i18n import t
from bot.process.config import DEFAULT_DATABASE_URL
from bot.ratings.ledger import rebuild, snapshot
from bot.storage.repository import Store


@dataclass(frozen=True)
class Recomputed:
    games: int
    unchanged: bool
    """The rebuilt ratings equal the stored ones, bit for bit."""


async def recompute(url: str, *, check: bool = False) -> Recomputed:
    """Rebuild every rating at ``url`` in one transaction (rolled back with ``check``)."""
    store = await Store.open(url)
    try:
        async with store.engine.connect() as connection:
            transaction = await connection.begin()
            before = await connection.run_sync(snapshot)
            games = await connection.run_sync(rebuild)
            after = await connection.run_sync(snapshot)
            if check:
                await transaction.rollback()
            else:
                await transaction.commit()
    finally:
        await store.close()
    return Recomputed(games, before == after)


def main(argv: list[str] | None = None) -> int:
    locale = cli_locale()
    parser = argparse.ArgumentParser(
        prog="python -m bot.ratings", description=t("ratings.cli.description", locale)
    )
    parser.add_argument("command", choices=["recompute"], help=t("ratings.cli.command", locale))
    parser.add_argument("--check", action="store_true", help=t("ratings.cli.check", locale))
    parser.add_argument("--database-url", metavar="URL", help=t("ratings.cli.url", locale))
    parser.add_argument(
        "--env-file", default=".env", metavar="PATH", help=t("cli.env_file", locale)
    )
    args = parser.parse_args(argv)
    load_dotenv(args.env_file)
    url = args.database_url or os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    result = asyncio.run(recompute(url, check=args.check))
    key = "ratings.cli.same" if result.unchanged else "ratings.cli.different"
    action = "ratings.cli.checked" if args.check else "ratings.cli.rebuilt"
    print(t(action, locale, count=result.games))
    print(t(key, locale))
    return 0 if result.unchanged or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
