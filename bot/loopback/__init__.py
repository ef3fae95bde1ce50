"""A loopback Discord (REST + gateway on 127.0.0.1) for process-level tests of the bot.

    async with Emulator() as emu:
        env = emu.bot_environment(database_url)      # DISCORD_API_BASE, DISCORD_GATEWAY_URL
        ... start the bot, then:
        alice = emu.add_actor("alice")
        answer = await (await alice.slash("ping")).response()

See docs/loopback.md for the full guide.
"""

from .actors import ActionRefused, Actor
from .faults import FaultPlan, RandomFaults, RestFault
from .gateway import Gateway
from .interactions import InteractionRecord, LateInteraction
from .model import Channel, Message, User
from .nonces import NonceRegistry
from .notify import WaitTimeout
from .ratelimits import RateLimitRefusal, RateLimits, RouteLimit
from .rest import RefusedPayload, RestCall
from .server import Emulator

__all__ = [
    "ActionRefused",
    "Actor",
    "Channel",
    "Emulator",
    "FaultPlan",
    "Gateway",
    "InteractionRecord",
    "LateInteraction",
    "Message",
    "NonceRegistry",
    "RandomFaults",
    "RateLimitRefusal",
    "RateLimits",
    "RefusedPayload",
    "RestCall",
    "RestFault",
    "RouteLimit",
    "User",
    "WaitTimeout",
]
