"""The English catalog: the reference every other locale copies (same keys, same placeholders).

It is split by area for readability; ``MESSAGES`` is the one merged catalog. Plural messages
are dicts of CLDR categories chosen by ``count``.
"""

from __future__ import annotations

from bot.i18n.en import (
    ai,
    budget,
    call_to_glory,
    clans_and_glory,
    clock,
    command_options,
    common,
    flow,
    guide,
    hints,
    history,
    host,
    kami,
    pictures,
    settings,
)

MESSAGES: dict[str, str | dict[str, str]] = {
    **common.MESSAGES,
    **call_to_glory.MESSAGES,
    **kami.MESSAGES,
    **clans_and_glory.MESSAGES,
    **settings.MESSAGES,
    **ai.MESSAGES,
    **clock.MESSAGES,
    **hints.MESSAGES,
    **history.MESSAGES,
    **pictures.MESSAGES,
    **budget.MESSAGES,
    **guide.MESSAGES,
    **command_options.MESSAGES,
    **flow.MESSAGES,
    **host.MESSAGES,
}
