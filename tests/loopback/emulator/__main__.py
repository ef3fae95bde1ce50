"""``python -m tests.loopback.emulator --port 0``: run the emulator as its own process.

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

from .server import Emulator


async def serve(port: int, token: str | None) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    async with Emulator(token=token) as emulator:
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
    parser = argparse.ArgumentParser(prog="python -m tests.loopback.emulator")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--token", default=None, help="accept only this bot token")
    args = parser.parse_args(argv)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(args.port, args.token))
    return 0


if __name__ == "__main__":
    sys.exit(main())
