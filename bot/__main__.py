"""``python -m bot`` (``make run``): start the bot with the settings from ``.env``.

Without a token it explains where to get one and exits with status 2, without a traceback.
``--sync`` uploads the slash commands (to ``DEV_GUILD_ID`` when set) before connecting.
"""

from __future__ import annotations

import argparse
import logging
import sys

import discord
from dotenv import load_dotenv

from bot.config import Settings
from bot.endpoints import use_endpoints
from bot.i18n import t


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot", description=t("cli.description"))
    parser.add_argument("--sync", action="store_true", help=t("cli.sync"))
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
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
    try:
        bot.run(settings.token, log_handler=None)
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
