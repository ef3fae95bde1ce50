"""The health file: the bot touches it while connected, a container's health check reads it.

Why a file: a health check runs as a separate command inside the container, with no port to
ask and no credentials; a file's age tells whether the bot holds its gateway connection. The
bot touches ``Settings.health_file`` every ``HEARTBEAT_SECONDS`` while connected (``heartbeat``,
started with the ready line); ``python -m bot.health`` (the Dockerfile's ``HEALTHCHECK``) exits
0 when the file is younger than ``MAX_AGE_SECONDS`` and 1 otherwise, with one line that says
which. Both resolve ``HEALTH_FILE`` the same way (``bot.process.config.health_file``): unset or
empty is ``DEFAULT_HEALTH_FILE``, so an env file's ``HEALTH_FILE=`` cannot point them at different
files.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from dotenv import load_dotenv

from bot.i18n import t
from bot.process.cli_locale import cli_locale
from bot.process.config import health_file

if TYPE_CHECKING:
    from bot.app import GloryBot

log = logging.getLogger("bot")

HEARTBEAT_SECONDS = 20.0
"""How often the health file is touched while connected."""
MAX_AGE_SECONDS = 90.0
"""The oldest file the check calls healthy: four missed heartbeats, so a busy moment or one
gateway reconnect is not a failure, while a bot that lost Discord is found within two minutes."""
EXIT_HEALTHY = 0
EXIT_UNHEALTHY = 1


async def heartbeat(bot: GloryBot, path: Path, every: float = HEARTBEAT_SECONDS) -> None:
    """Touch ``path`` every ``every`` seconds while ``connected``: a container's health check
    sees a stale file when the bot lost Discord and cannot get it back. A file that cannot be
    touched is logged once, not every time."""
    from bot.process.startup import connected

    warned = False
    while not bot.is_closed():
        if connected(bot):
            try:
                path.touch()
            except OSError as error:
                if not warned:
                    log.warning("cannot touch HEALTH_FILE %s: %s", path, error)
                warned = True
            else:
                warned = False
        await asyncio.sleep(every)


def check(
    path: Path, locale: str = "en", now: float | None = None, max_age: float = MAX_AGE_SECONDS
) -> tuple[int, str]:
    """The check's exit status and its line (Docker keeps it in the container's health log:
    ``docker inspect``)."""
    now = time.time() if now is None else now
    try:
        age = max(0, int(now - path.stat().st_mtime))
    except OSError:
        return EXIT_UNHEALTHY, t("health.missing", locale, path=str(path))
    if age > max_age:
        return EXIT_UNHEALTHY, t("health.stale", locale, path=str(path), count=age)
    return EXIT_HEALTHY, t("health.fresh", locale, path=str(path), count=age)


def main() -> int:
    """``python -m bot.health``: exit 0 while the bot in this container is connected."""
    load_dotenv(".env")
    locale = cli_locale()
    path = health_file(os.environ)
    if path is None:
        print(t("health.off", locale))
        return EXIT_HEALTHY
    status, line = check(Path(path), locale)
    print(line)
    return status


if __name__ == "__main__":
    sys.exit(main())
