"""A tiny seeded RNG whose whole state is one integer.

Engines keep their randomness inside the state so that a game restored from JSON continues
exactly as the original would. ``random.Random`` serialises to a 625-word tuple and its
shuffle is not promised to be stable across Python versions; SplitMix64 is both tiny and stable.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Any

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_TWO64 = 1 << 64


class Rng:
    """SplitMix64 with unbiased bounded integers and a Fisher-Yates shuffle."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next_u64(self) -> int:
        self.state = (self.state + _GOLDEN) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``; rejection sampling keeps it unbiased."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def shuffle(self, items: MutableSequence[Any]) -> None:
        """Fisher-Yates with ``below`` inlined: exactly the same permutation as drawing
        ``below(i + 1)`` for each ``i``, about twice as fast (a search shuffles a deck on every
        iteration)."""
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _TWO64 - _TWO64 % n
            while True:
                state = (state + _GOLDEN) & _MASK
                z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                z ^= z >> 31
                if z < limit:
                    break
            j = z % n
            items[i], items[j] = items[j], items[i]
        self.state = state

    def to_json(self) -> int:
        return self.state

    @classmethod
    def from_json(cls, state: int) -> Rng:
        if not isinstance(state, int) or isinstance(state, bool) or not 0 <= state <= _MASK:
            raise ValueError("rng state must be an unsigned 64-bit integer")
        return cls(state)
