"""How ``python -m bot`` tunes its own process before the event loop starts."""

from __future__ import annotations

import gc
import platform
import sys

import pytest

from bot.__main__ import GC_THRESHOLDS, limit_malloc_arenas, quiet_garbage_collector

ON_GLIBC = sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc"


def test_malloc_arenas_are_capped_where_the_c_library_is_glibc(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("MALLOC_ARENA_MAX", raising=False)
    assert limit_malloc_arenas() is ON_GLIBC


def test_an_operators_malloc_arena_max_is_left_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MALLOC_ARENA_MAX", "4")
    assert limit_malloc_arenas() is False


def test_the_cycle_collector_keeps_its_pauses_short_and_full_collections_rare() -> None:
    before = gc.get_threshold()
    try:
        quiet_garbage_collector()
        assert gc.get_threshold() == GC_THRESHOLDS
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
