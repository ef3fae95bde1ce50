"""Suite-wide guards: Discord's API description must be there, and no emulator of any test may
see a request (or give an answer) that breaks it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.loopback.openapi import SpecMissing, find_spec
from bot.loopback.server import Emulator


def pytest_sessionstart(session: pytest.Session) -> None:
    """No description, no suite: without it the emulator checks nothing against Discord's
    contract, and a green run would mean less than it says (CI fails here, loudly)."""
    try:
        find_spec()
    except SpecMissing as missing:
        raise pytest.UsageError(str(missing)) from None


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "breaks_contract: the test sends requests Discord's API description refuses, on purpose",
    )


@pytest.fixture(autouse=True)
def emulators_keep_discords_contract(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every emulator a test starts checks its own answers against the description too, and
    the test fails if a request broke Discord's contract (unless marked ``breaks_contract``)
    or an answer did."""
    made: list[Emulator] = []

    def watch(emulator: Emulator) -> None:
        emulator.check_answers = True
        made.append(emulator)

    Emulator.observers.append(watch)
    try:
        yield
    finally:
        Emulator.observers.remove(watch)
    answers = [str(problem) for emulator in made for problem in emulator.answer_problems]
    assert not answers, "the emulator answered outside Discord's API description:\n" + "\n".join(
        answers[:20]
    )
    if request.node.get_closest_marker("breaks_contract"):
        return
    broken = [str(problem) for emulator in made for problem in emulator.contract_violations]
    assert not broken, "requests broke Discord's API description:\n" + "\n".join(broken[:20])
