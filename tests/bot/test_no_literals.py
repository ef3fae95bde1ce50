"""No user-visible text is written into the UI code: it all comes from the catalogs.

The scan reads ``bot/`` (except the catalogs in ``bot/i18n/``) with ``ast`` and looks at what
reaches Discord (and the command line): positional arguments of calls such as ``send``,
``send_message``, ``Embed`` or ``SelectOption``, and keyword arguments such as ``content=``,
``label=`` or ``title=`` of any call. A string constant there must be a catalog lookup's key or
free of letters (emoji, separators, ``-``); anything else is a literal a German or Russian
reader would see in English. Placeholder values passed to ``t(...)`` are checked the same way.
"""

from __future__ import annotations

import ast
from pathlib import Path

BOT = Path(__file__).resolve().parents[2] / "bot"

UI_CALLS = frozenset(
    {
        "send",
        "send_message",
        "edit",
        "edit_message",
        "edit_original_response",
        "Embed",
        "SelectOption",
        "Button",
        "Select",
        "Choice",
        "add_field",
        "set_footer",
        "set_author",
        "print",
    }
)
"""Calls whose positional arguments are shown to someone."""
UI_KEYWORDS = frozenset(
    {
        "content",
        "label",
        "placeholder",
        "title",
        "description",
        "name",
        "value",
        "text",
        "help",
    }
)
"""Keyword arguments that are shown to someone, in any call (``t``'s placeholders too)."""
IDS = frozenset({("Choice", "value"), ("SelectOption", "value")})
"""Keywords that are ids in these calls (the client shows the label, never the value)."""
LOOKUPS = frozenset({"t", "text", "has", "reply", "guarded", "announce"})
"""Our catalog functions: their string arguments are keys (and locales), not text."""
ALLOWED: frozenset[tuple[str, str]] = frozenset()
"""(module, literal) pairs allowed despite letters. Empty: add one only with a reason."""


def _name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _literals(expression: ast.expr) -> list[ast.Constant]:
    """String constants in ``expression``, not counting the keys given to catalog lookups
    nor subscripts (``view["seat"]``)."""
    found: list[ast.Constant] = []
    pending: list[ast.AST] = [expression]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Call) and _name(node) in LOOKUPS:
            continue  # its keyword values are checked when the scan reaches this call
        if isinstance(node, ast.Subscript):
            pending.append(node.value)  # view["to_move"]: the key is data, not text
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.append(node)
        pending.extend(ast.iter_child_nodes(node))
    return found


def _wording(literal: str) -> bool:
    return any(character.isalpha() for character in literal)


def violations(source: str, module: str = "<test>") -> list[str]:
    """``module:line: 'literal'`` for every user-visible literal in ``source``."""
    shown: list[ast.expr] = []
    for call in (node for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Call)):
        if _name(call) in UI_CALLS:
            shown.extend(call.args)
        shown.extend(
            kw.value
            for kw in call.keywords
            if kw.arg in UI_KEYWORDS and (_name(call), kw.arg) not in IDS
        )
    return sorted(
        f"{module}:{literal.lineno}: {literal.value!r}"
        for expression in shown
        for literal in _literals(expression)
        if _wording(literal.value) and (module, literal.value) not in ALLOWED
    )


NOT_UI = frozenset({"i18n", "loopback"})
"""Packages that show Discord users nothing of their own: the catalogs themselves, and the
loopback Discord (an emulator and its harness for developers, whose words are its own)."""


def ui_modules() -> list[Path]:
    return sorted(path for path in BOT.rglob("*.py") if not NOT_UI & set(path.parts))


def test_the_scan_finds_planted_literals() -> None:
    planted = """
await channel.send("Your turn!")
await interaction.response.send_message(content=f"Hello {name}")
embed = discord.Embed(title="Lobby", description=t("lobby.title", locale))
ui.Button(label=label or "Join", custom_id="glory:lobby:join:1")
discord.SelectOption(label="Rounds", value="0")
t("table.turn", locale, name="Somebody", decision=decision)
embed.add_field(name=names[view["seat"]], value=seat or "nobody")
"""
    found = violations(planted)
    assert [line.split(": ", 1)[1] for line in found] == [
        "'Your turn!'",
        "'Hello '",
        "'Lobby'",
        "'Join'",
        "'Rounds'",
        "'Somebody'",
        "'nobody'",
    ]


def test_the_scan_allows_lookups_ids_and_symbols() -> None:
    allowed = """
await channel.send(t("dm.closed", locale, mentions=", ".join(ids), button=t("button.my_hand")))
await reply(interaction, "lobby.full")
ui.Button(label=label or "-", custom_id=f"glory:m:{game}:{version}")
discord.SelectOption(label=t("menu.placeholder", locale), value=str(index))
embed.add_field(name=t("table.log", locale), value="\\n".join(lines), inline=False)
app_commands.Choice(name=text("kami.name"), value="kami")
"""
    assert violations(allowed) == []


def test_no_user_visible_literal_in_the_ui_code() -> None:
    modules = ui_modules()
    assert len(modules) > 20 and BOT / "exts" / "settings.py" in modules
    found = [
        problem
        for path in modules
        for problem in violations(path.read_text(encoding="utf-8"), str(path.relative_to(BOT)))
    ]
    assert not found, "user-visible literals (use a catalog key):\n" + "\n".join(found)
