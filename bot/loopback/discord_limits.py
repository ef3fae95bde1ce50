"""Discord's payload limits, checked the way Discord checks them (one validator for every harness).

Why in the test harness: Discord refuses an oversized message with 400 / 50035 ("Invalid Form
Body"), and the bot must never send one. SimCord (``tests/bot/conftest.py``) and the loopback
emulator (``bot/loopback``) both run every message the bot sends through
``message_problems`` and answer a refused one as Discord would, so no future message can
break the limits unnoticed.

The limits are those of ``../shared/notes/discord_real_world_contract.md`` §4 (classic
components; the bot sends no Components V2 layouts).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

INVALID_FORM_BODY = 50035
EMPTY_MESSAGE = 50006
EMPTY_MESSAGE_PROBLEM = "empty message: no content, embed, component or file"

CONTENT = 2000
EMBEDS = 10
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR = 256
EMBED_TOTAL = 6000
ROWS = 5
BUTTONS_PER_ROW = 5
BUTTON_LABEL = 80
CUSTOM_ID = 100
SELECT_OPTIONS = 25
OPTION_TEXT = 100
PLACEHOLDER = 150
BUTTON_URL = 512
NONCE = 25

ACTION_ROW = 1
BUTTON = 2
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
STRING_SELECT = 3
LINK_STYLE = 5
PREMIUM_STYLE = 6


def _length(text: Any) -> int:
    return len(text) if isinstance(text, str) else 0


def embed_problems(embeds: Sequence[Mapping[str, Any]]) -> list[str]:
    """What breaks the per-embed and combined limits (title, description, fields, …)."""
    problems: list[str] = []
    if len(embeds) > EMBEDS:
        problems.append(f"embeds: {len(embeds)} embeds, at most {EMBEDS}")
    total = 0
    for index, embed in enumerate(embeds):
        where = f"embeds[{index}]"
        texts: list[tuple[str, Any, int]] = [
            (f"{where}.title", embed.get("title"), EMBED_TITLE),
            (f"{where}.description", embed.get("description"), EMBED_DESCRIPTION),
            (f"{where}.footer.text", (embed.get("footer") or {}).get("text"), FOOTER),
            (f"{where}.author.name", (embed.get("author") or {}).get("name"), AUTHOR),
        ]
        fields = embed.get("fields") or []
        if len(fields) > EMBED_FIELDS:
            problems.append(f"{where}.fields: {len(fields)} fields, at most {EMBED_FIELDS}")
        for number, field in enumerate(fields):
            texts.append((f"{where}.fields[{number}].name", field.get("name"), FIELD_NAME))
            texts.append((f"{where}.fields[{number}].value", field.get("value"), FIELD_VALUE))
            if not _length(field.get("name")) or not _length(field.get("value")):
                problems.append(f"{where}.fields[{number}]: name and value must not be empty")
        for path, text, limit in texts:
            length = _length(text)
            total += length
            if length > limit:
                problems.append(f"{path}: {length} characters, at most {limit}")
    if total > EMBED_TOTAL:
        problems.append(f"embeds: {total} characters in all, at most {EMBED_TOTAL}")
    return problems


def component_problems(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """What breaks the limits of classic components (rows, buttons, selects, custom_ids)."""
    problems: list[str] = []
    if len(rows) > ROWS:
        problems.append(f"components: {len(rows)} rows, at most {ROWS}")
    seen: set[str] = set()
    for row_index, row in enumerate(rows):
        where = f"components[{row_index}]"
        if row.get("type") != ACTION_ROW:
            problems.append(f"{where}: top-level components must be action rows")
            continue
        children = row.get("components") or []
        selects = [c for c in children if c.get("type") in SELECT_TYPES]
        if not children:
            problems.append(f"{where}: an action row needs at least one component")
        if selects and len(children) > 1:
            problems.append(f"{where}: a select must be alone in its row")
        if len(children) > BUTTONS_PER_ROW:
            problems.append(f"{where}: {len(children)} components, at most {BUTTONS_PER_ROW}")
        for child_index, child in enumerate(children):
            path = f"{where}.components[{child_index}]"
            problems.extend(_child_problems(path, child, seen))
    return problems


def _child_problems(path: str, child: Mapping[str, Any], seen: set[str]) -> list[str]:
    problems: list[str] = []
    kind = child.get("type")
    custom_id = child.get("custom_id")
    needs_id = kind in SELECT_TYPES or (
        kind == BUTTON and child.get("style") not in (LINK_STYLE, PREMIUM_STYLE)
    )
    if needs_id:
        if not isinstance(custom_id, str) or not 1 <= len(custom_id) <= CUSTOM_ID:
            problems.append(f"{path}.custom_id: must be 1 to {CUSTOM_ID} characters")
        elif custom_id in seen:
            problems.append(f"{path}.custom_id: {custom_id!r} is used twice in this message")
        else:
            seen.add(custom_id)
    if kind == BUTTON:
        if _length(child.get("label")) > BUTTON_LABEL:
            problems.append(f"{path}.label: {_length(child.get('label'))} characters, at most 80")
        labelled = child.get("label") or child.get("emoji")
        if not labelled and child.get("style") != PREMIUM_STYLE:
            problems.append(f"{path}: a button needs a label or an emoji")
        problems.extend(_link_problems(path, child))
    elif kind in SELECT_TYPES:
        problems.extend(_select_problems(path, child))
    else:
        problems.append(f"{path}.type: {kind!r} is not a button or a select")
    return problems


def _link_problems(path: str, button: Mapping[str, Any]) -> list[str]:
    """A link button carries a url (1 to 512 characters) and no custom_id; others no url."""
    url = button.get("url")
    if button.get("style") != LINK_STYLE:
        return [f"{path}.url: only link buttons have a url"] if url is not None else []
    problems: list[str] = []
    if not isinstance(url, str) or not 1 <= len(url) <= BUTTON_URL:
        problems.append(f"{path}.url: a link button needs a url of 1 to {BUTTON_URL} characters")
    if button.get("custom_id") is not None:
        problems.append(f"{path}.custom_id: a link button cannot have a custom_id")
    return problems


def _count(value: Any, default: int) -> int:
    """``min_values``/``max_values`` as sent; an absent or null one takes Discord's default."""
    return default if value is None else value


def _select_problems(path: str, select: Mapping[str, Any]) -> list[str]:
    problems: list[str] = []
    if _length(select.get("placeholder")) > PLACEHOLDER:
        problems.append(f"{path}.placeholder: more than {PLACEHOLDER} characters")
    options = select.get("options") or []
    low = _count(select.get("min_values"), 1)
    high = _count(select.get("max_values"), 1)
    if not 0 <= low <= SELECT_OPTIONS or not 1 <= high <= SELECT_OPTIONS or low > high:
        problems.append(f"{path}: min_values {low} / max_values {high} out of range")
    if select.get("type") != STRING_SELECT:
        return problems
    if not 1 <= len(options) <= SELECT_OPTIONS:
        problems.append(f"{path}.options: {len(options)} options, 1 to {SELECT_OPTIONS}")
    if high > len(options):
        problems.append(f"{path}.max_values: {high} is more than its {len(options)} options")
    values: set[str] = set()
    for index, option in enumerate(options):
        for key in ("label", "value", "description"):
            length = _length(option.get(key))
            if length > OPTION_TEXT:
                problems.append(f"{path}.options[{index}].{key}: {length} characters, at most 100")
        if not _length(option.get("label")) or not _length(option.get("value")):
            problems.append(f"{path}.options[{index}]: label and value must not be empty")
        if option.get("value") in values:
            problems.append(f"{path}.options[{index}].value: {option.get('value')!r} twice")
        values.add(option.get("value"))
    return problems


MESSAGE_BODY_KEYS = ("content", "embeds", "components", "attachments", "sticker_ids", "poll")


def _is_empty(message: Mapping[str, Any]) -> bool:
    return not any(
        _length(value) if key == "content" else value
        for key, value in ((k, message.get(k)) for k in MESSAGE_BODY_KEYS)
    )


def message_problems(
    payload: Mapping[str, Any],
    *,
    creating: bool = True,
    current: Mapping[str, Any] | None = None,
) -> list[str]:
    """Every way ``payload`` (a message create or edit body) breaks Discord's limits.

    ``creating``: a new message must not be empty; an edit may send only the fields it changes.
    ``current`` (edits only): the message as it stands (``content``, ``embeds``,
    ``components``, ``attachments`` ...); Discord also refuses an edit that would leave the
    message empty (50006), e.g. ``content=""`` on a message that only has text.
    ``nonce``: at most 25 characters (Discord's "Create Message" parameters).
    """
    problems: list[str] = []
    content = payload.get("content")
    if _length(content) > CONTENT:
        problems.append(f"content: {_length(content)} characters, at most {CONTENT}")
    nonce = payload.get("nonce")
    if nonce is not None and len(str(nonce)) > NONCE:
        problems.append(f"nonce: {len(str(nonce))} characters, at most {NONCE}")
    problems += embed_problems(payload.get("embeds") or [])
    problems += component_problems(payload.get("components") or [])
    if creating:
        if _is_empty(payload):
            problems.append(EMPTY_MESSAGE_PROBLEM)
    elif current is not None:
        edited = {key: payload.get(key, current.get(key)) for key in MESSAGE_BODY_KEYS}
        if _is_empty(edited):
            problems.append(EMPTY_MESSAGE_PROBLEM)
    return problems


CALLBACK_MESSAGE = 4
CALLBACK_UPDATE_MESSAGE = 7


def callback_problems(
    body: Mapping[str, Any], *, current: Mapping[str, Any] | None = None
) -> list[str]:
    """The problems of an interaction callback's message (types 4 and 7).

    ``current``: for type 7, the message the component belongs to, as it stands (see
    ``message_problems``)."""
    kind = body.get("type")
    data = body.get("data") or {}
    if kind == CALLBACK_MESSAGE:
        return message_problems(data)
    if kind == CALLBACK_UPDATE_MESSAGE:
        return message_problems(data, creating=False, current=current)
    return []


def refusal(problems: Sequence[str]) -> dict[str, Any]:
    """Discord's answer body to a refused payload (HTTP 400)."""
    if list(problems) == [EMPTY_MESSAGE_PROBLEM]:
        return {"code": EMPTY_MESSAGE, "message": "Cannot send an empty message"}
    return {
        "code": INVALID_FORM_BODY,
        "message": "Invalid Form Body",
        "errors": {"_errors": [{"code": "BASE_TYPE_BAD_LENGTH", "message": p} for p in problems]},
    }
