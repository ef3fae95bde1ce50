"""``python -m bot.loopback --port 0``: run the emulator as its own process.

Prints one JSON line with the URLs (``api_base``, ``gateway_url``, ``control_url``) once it
listens, then serves until SIGINT/SIGTERM. Drive it through the control API (control.py).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import signal
import sys

from .ratelimits import RateLimits
from .server import INTERACTION_DEADLINE_SECONDS, Emulator


async def serve(
    port: int,
    token: str | None,
    *,
    rate_limits: str = "none",
    interaction_deadline: float = INTERACTION_DEADLINE_SECONDS,
    shards: int = 1,
) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    policy = RateLimits.discord_like() if rate_limits == "discord_like" else None
    async with Emulator(
        token=token,
        rate_limits=policy,
        interaction_deadline=interaction_deadline if interaction_deadline > 0 else None,
        shard_count=shards,
    ) as emulator:
        print(
            json.dumps(
                {
                    "api_base": emulator.api_base,
                    "gateway_url": emulator.gateway_url,
                    "control_url": f"http://127.0.0.1:{emulator.port}/_loopback",
                }
            ),
            flush=True,
        )
        await stop.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.loopback")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--token", default=None, help="accept only this bot token")
    parser.add_argument(
        "--rate-limits",
        choices=("none", "discord_like"),
        default="none",
        help="rate-limit policy (PUT /_loopback/rate_limits changes it later)",
    )
    parser.add_argument(
        "--interaction-deadline",
        type=float,
        default=INTERACTION_DEADLINE_SECONDS,
        help="seconds a callback may take (0: no deadline)",
    )
    parser.add_argument(
        "--shards",
        type=int,
        default=1,
        help="the shard count GET /gateway/bot recommends and POST /_loopback/guilds places by",
    )
    args = parser.parse_args(argv)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(
            serve(
                args.port,
                args.token,
                rate_limits=args.rate_limits,
                interaction_deadline=args.interaction_deadline,
                shards=args.shards,
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
