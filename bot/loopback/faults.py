"""REST fault injection: answer chosen routes with errors or late, and close users' DMs.

Gateway faults (drop, RECONNECT, INVALID_SESSION, silent heartbeats) act on a live socket
and therefore live on ``Gateway``; this module holds the rules the REST layer consults:
explicit rules (``fail``, ``rate_limit``, ``delay``) first, in insertion order, then the
seeded random plans (``randomly``) for soak tests. Any rule can target any route: ``method``
is an HTTP method or ``"*"``, ``path_pattern`` a regex searched in the path after ``/api/v10``.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

UNLIMITED = -1

# Path patterns for the routes a game bot uses most (searched after ``/api/v10``).
INTERACTION_CALLBACK = r"^/interactions/\d+/[^/]+/callback$"
FOLLOWUP_OR_ORIGINAL = r"^/webhooks/\d+/[^/]+"
FOLLOWUP = r"^/webhooks/\d+/[^/]+$"
WEBHOOK_MESSAGE = r"^/webhooks/\d+/[^/]+/messages/[^/]+$"
CHANNEL_MESSAGES = r"^/channels/\d+/messages$"
CHANNEL_MESSAGE = r"^/channels/\d+/messages/\d+$"
OPEN_DM = r"^/users/@me/channels$"
ANY_ROUTE = r""

RATE_LIMITED_BODY = {"message": "You are being rate limited.", "global": False, "code": 0}


def rate_limited_answer(
    retry_after: float, *, is_global: bool = False
) -> tuple[dict[str, Any], dict[str, str]]:
    """A 429 as Discord sends it; the ``Via`` header makes discord.py retry it."""
    body = {**RATE_LIMITED_BODY, "retry_after": retry_after, "global": is_global}
    headers = {
        "Via": "1.1 google",
        "Retry-After": str(max(1, round(retry_after))),
        "X-RateLimit-Scope": "global" if is_global else "user",
    }
    if is_global:
        headers["X-RateLimit-Global"] = "true"
    return body, headers


@dataclass
class RestFault:
    """Answer requests matching ``method`` and ``path_pattern`` with ``status`` ``times`` times.

    ``path_pattern`` is a regular expression searched in the path after ``/api/v10``. A fault
    with ``status=None`` only delays the request by ``delay`` seconds and then serves it.
    ``kind`` names it in ``RestCall.fault``.
    """

    method: str
    path_pattern: str
    status: int | None
    body: dict[str, Any] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    times: int = 1
    delay: float = 0.0
    hits: int = 0
    kind: str = ""

    def __post_init__(self) -> None:
        self._regex = re.compile(self.path_pattern)
        if not self.kind:
            self.kind = "delay" if self.status is None else f"status {self.status}"

    def matches(self, method: str, path: str) -> bool:
        if self.times != UNLIMITED and self.hits >= self.times:
            return False
        return self.method in ("*", method) and self._regex.search(path) is not None

    @property
    def exhausted(self) -> bool:
        return self.times != UNLIMITED and self.hits >= self.times

    def encoded_body(self) -> bytes:
        return json.dumps(self.body).encode()


@dataclass
class RandomFaults:
    """A seeded share of matching requests answered 429 or 5xx, or served late.

    One draw per matching request decides: below ``rate_limited`` → 429 (with ``Via`` and a
    ``retry_after`` drawn from the ``retry_after`` range, so discord.py sleeps and retries);
    then ``server_error`` → ``server_status`` (500: discord.py retries after 1, 3, 5... s);
    then ``slow`` → served after ``slow_seconds``. The same seed and the same sequence of
    requests give the same faults. ``methods=None`` matches every method.
    """

    seed: int | str
    rate_limited: float = 0.0
    server_error: float = 0.0
    slow: float = 0.0
    slow_seconds: float = 4.0
    retry_after: tuple[float, float] = (0.05, 1.0)
    methods: Collection[str] | None = None
    path_pattern: str = ANY_ROUTE
    server_status: int = 500
    counts: Counter[str] = field(default_factory=Counter)
    """Faults served so far by kind: ``rate_limited``, ``server_error``, ``slow``."""
    seen: int = 0
    """Matching requests seen (faulted or not)."""

    def __post_init__(self) -> None:
        shares = (self.rate_limited, self.server_error, self.slow)
        if min(shares) < 0 or sum(shares) > 1:
            raise ValueError(f"fault shares must be >= 0 and sum to at most 1, not {shares}")
        low, high = self.retry_after
        if not 0 < low <= high:
            raise ValueError(f"retry_after must be a range 0 < low <= high, not {low, high}")
        self._rng = random.Random(self.seed)
        self._regex = re.compile(self.path_pattern)
        if self.methods is not None:
            self.methods = frozenset(m.upper() for m in self.methods)

    def matches(self, method: str, path: str) -> bool:
        wanted = self.methods is None or method in self.methods
        return wanted and self._regex.search(path) is not None

    def decide(self, method: str, path: str) -> RestFault | None:
        """The fault for this request (a one-off ``RestFault``), or None to serve it normally."""
        if not self.matches(method, path):
            return None
        self.seen += 1
        draw = self._rng.random()
        if draw < self.rate_limited:
            retry_after = round(self._rng.uniform(*self.retry_after), 3)
            body, headers = rate_limited_answer(retry_after)
            fault = RestFault(method, ANY_ROUTE, 429, body, headers, kind="random rate_limited")
            self.counts["rate_limited"] += 1
        elif draw < self.rate_limited + self.server_error:
            body = {"code": 0, "message": "Injected random server error"}
            fault = RestFault(
                method, ANY_ROUTE, self.server_status, body, kind="random server_error"
            )
            self.counts["server_error"] += 1
        elif draw < self.rate_limited + self.server_error + self.slow:
            fault = RestFault(method, ANY_ROUTE, None, delay=self.slow_seconds, kind="random slow")
            self.counts["slow"] += 1
        else:
            return None
        fault.hits = 1
        return fault

    def describe(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "rate_limited": self.rate_limited,
            "server_error": self.server_error,
            "slow": self.slow,
            "slow_seconds": self.slow_seconds,
            "retry_after": list(self.retry_after),
            "methods": sorted(self.methods) if self.methods is not None else None,
            "path_pattern": self.path_pattern,
            "seen": self.seen,
            "counts": dict(self.counts),
        }


class FaultPlan:
    """The active REST faults: explicit rules in insertion order, then random plans."""

    def __init__(self) -> None:
        self.rules: list[RestFault] = []
        self.random_plans: list[RandomFaults] = []

    def add(self, fault: RestFault) -> RestFault:
        self.rules.append(fault)
        return fault

    def fail(
        self,
        method: str,
        path_pattern: str,
        status: int = 500,
        *,
        code: int = 0,
        message: str = "Injected failure",
        times: int = 1,
    ) -> RestFault:
        """Answer with an error status. discord.py retries 500/502/504/524 after 1, 3, 5... s."""
        return self.add(
            RestFault(
                method,
                path_pattern,
                status,
                {"code": code, "message": message},
                times=times,
                kind="fail",
            )
        )

    def rate_limit(
        self,
        method: str,
        path_pattern: str,
        *,
        retry_after: float = 0.05,
        is_global: bool = False,
        times: int = 1,
    ) -> RestFault:
        """Answer 429 the way Discord does; the ``Via`` header makes discord.py retry it."""
        body, headers = rate_limited_answer(retry_after, is_global=is_global)
        return self.add(
            RestFault(method, path_pattern, 429, body, headers, times=times, kind="rate_limit")
        )

    def delay(
        self, method: str, path_pattern: str, seconds: float, *, times: int = UNLIMITED
    ) -> RestFault:
        """Serve matching requests normally, but only after ``seconds`` (any route, any
        method: ``"*"``; an interaction callback's deadline is measured on arrival, before
        this delay, as Discord would time a request that is slow to answer)."""
        return self.add(
            RestFault(method, path_pattern, None, times=times, delay=seconds, kind="delay")
        )

    def randomly(
        self,
        *,
        seed: int | str,
        rate_limited: float = 0.0,
        server_error: float = 0.0,
        slow: float = 0.0,
        slow_seconds: float = 4.0,
        retry_after: tuple[float, float] = (0.05, 1.0),
        methods: Collection[str] | None = None,
        path_pattern: str = ANY_ROUTE,
        server_status: int = 500,
    ) -> RandomFaults:
        """Add a seeded random plan (see ``RandomFaults``); consulted after explicit rules."""
        plan = RandomFaults(
            seed=seed,
            rate_limited=rate_limited,
            server_error=server_error,
            slow=slow,
            slow_seconds=slow_seconds,
            retry_after=(float(retry_after[0]), float(retry_after[1])),
            methods=methods,
            path_pattern=path_pattern,
            server_status=server_status,
        )
        self.random_plans.append(plan)
        return plan

    def take(self, method: str, path: str) -> RestFault | None:
        """The first live rule matching this request, counted as hit; else a random plan's
        fault; None if none applies."""
        for rule in self.rules:
            if rule.matches(method, path):
                rule.hits += 1
                return rule
        for plan in self.random_plans:
            fault = plan.decide(method, path)
            if fault is not None:
                return fault
        return None

    def clear(self) -> None:
        """Remove every rule and random plan."""
        self.rules.clear()
        self.random_plans.clear()
