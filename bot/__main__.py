"""Entry point for ``python -m bot``."""

import os
import sys

from dotenv import load_dotenv


def main() -> int:
    load_dotenv()
    if not os.environ.get("DISCORD_TOKEN"):
        print(
            "DISCORD_TOKEN is not set.\n"
            "Create an application at https://discord.com/developers/applications, add a bot,\n"
            "copy its token into a file named .env (see .env.example) and run `make run` again."
        )
        return 2
    print("The bot itself is not implemented yet.")
    return 1


if __name__ == "__main__":
    sys.exit(main())
