"""Discord's payload limits, checked the way Discord checks them (one validator for every harness).

Why in the test harness: Discord refuses an oversized message with 400 / 50035 ("Invalid Form
Body"), and the bot must never send one. SimCord (``tests/bot/conftest.py``) and the loopback
emulator (``bot/loopback``) both run every message the bot sends through
``message_problems`` and answer a refused one as Discord would, so no future message can
break the limits unnoticed.

The limits are those of ``../shared/notes/discord_real_world_contract.md`` §4: classic
components (action rows of buttons and selects) and Components V2 layouts (a message flagged
``IS_COMPONENTS_V2``: containers, sections, text displays, media galleries, separators, files
and thumbnails, at most 40 components in all, no content or embeds).
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
SECTION = 9
TEXT_DISPLAY = 10
THUMBNAIL = 11
MEDIA_GALLERY = 12
FILE = 13
SEPARATOR = 14
CONTAINER = 17
COMPONENTS_V2 = 1 << 15
"""``MessageFlags.components_v2``: set once (at creation or by an edit), never removed."""
V2_COMPONENTS = 40
"""Components in a V2 message, nested ones included."""
V2_TEXT = 4000
"""Characters of all its text displays together."""
SECTION_TEXTS = 3
GALLERY_ITEMS = 10
MEDIA_DESCRIPTION = 1024
V2_TOP_LEVEL = frozenset(
    {ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER}
)
CONTAINER_CHILDREN = frozenset({ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR})
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
        problems += _row_problems(where, row, seen)
    return problems


def _row_problems(where: str, row: Mapping[str, Any], seen: set[str]) -> list[str]:
    """An action row's own rules (one select alone, or up to five buttons) and its children's."""
    problems: list[str] = []
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


def layout_problems(components: Sequence[Mapping[str, Any]]) -> list[str]:
    """What breaks the limits of a Components V2 layout (a message flagged
    ``IS_COMPONENTS_V2``): the types allowed where, sections, galleries, the 40 components
    and 4,000 characters of text in all, and unique custom_ids and ids."""
    layout = _Layout()
    if not components:
        layout.problems.append("components: a V2 message needs at least one component")
    for index, component in enumerate(components):
        layout.check(f"components[{index}]", component, V2_TOP_LEVEL)
    if layout.count > V2_COMPONENTS:
        layout.problems.append(
            f"components: {layout.count} components in all, at most {V2_COMPONENTS}"
        )
    if layout.text > V2_TEXT:
        layout.problems.append(
            f"components: {layout.text} characters of text displays, at most {V2_TEXT}"
        )
    return layout.problems


class _Layout:
    """One walk over a V2 layout, counting what Discord counts."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.count = 0
        self.text = 0
        self.custom_ids: set[str] = set()
        self.ids: set[int] = set()

    def check(self, path: str, component: Mapping[str, Any], allowed: frozenset[int]) -> None:
        self.count += 1
        kind = component.get("type")
        if kind not in allowed:
            self.problems.append(f"{path}.type: {kind!r} is not allowed here")
            return
        number = component.get("id")
        if number is not None:
            if not isinstance(number, int) or not 0 <= number < 2**31:
                self.problems.append(f"{path}.id: must be a 32-bit integer")
            elif number in self.ids:
                self.problems.append(f"{path}.id: {number} is used twice in this message")
            self.ids.add(number)
        if kind == ACTION_ROW:
            self.problems += _row_problems(path, component, self.custom_ids)
            self.count += len(component.get("components") or [])
        elif kind == CONTAINER:
            for index, child in enumerate(component.get("components") or []):
                self.check(f"{path}.components[{index}]", child, CONTAINER_CHILDREN)
            if not component.get("components"):
                self.problems.append(f"{path}.components: a container needs a component")
        elif kind == SECTION:
            self._section(path, component)
        elif kind == TEXT_DISPLAY:
            content = component.get("content")
            if not _length(content):
                self.problems.append(f"{path}.content: a text display needs text")
            self.text += _length(content)
        elif kind == MEDIA_GALLERY:
            items = component.get("items") or []
            if not 1 <= len(items) <= GALLERY_ITEMS:
                self.problems.append(f"{path}.items: {len(items)} items, 1 to {GALLERY_ITEMS}")
            for index, item in enumerate(items):
                self._media(f"{path}.items[{index}]", item)
        elif kind == THUMBNAIL:
            self._media(path, component)
        elif kind == FILE:
            url = (component.get("file") or {}).get("url")
            if not (isinstance(url, str) and url.startswith("attachment://")):
                self.problems.append(f"{path}.file.url: a file shows an attachment:// only")
        elif kind == SEPARATOR and component.get("spacing", 1) not in (1, 2):
            self.problems.append(f"{path}.spacing: 1 (small) or 2 (large)")

    def _section(self, path: str, section: Mapping[str, Any]) -> None:
        texts = section.get("components") or []
        if not 1 <= len(texts) <= SECTION_TEXTS:
            self.problems.append(f"{path}.components: {len(texts)} texts, 1 to {SECTION_TEXTS}")
        for index, text in enumerate(texts):
            self.check(f"{path}.components[{index}]", text, frozenset({TEXT_DISPLAY}))
        accessory = section.get("accessory")
        if accessory is None:
            self.problems.append(f"{path}.accessory: a section needs a button or a thumbnail")
        elif accessory.get("type") == BUTTON:
            self.count += 1
            self.problems += _child_problems(f"{path}.accessory", accessory, self.custom_ids)
        else:
            self.check(f"{path}.accessory", accessory, frozenset({THUMBNAIL}))

    def _media(self, path: str, item: Mapping[str, Any]) -> None:
        url = (item.get("media") or {}).get("url")
        if not isinstance(url, str) or not url:
            self.problems.append(f"{path}.media.url: required")
        if _length(item.get("description")) > MEDIA_DESCRIPTION:
            length = _length(item.get("description"))
            self.problems.append(
                f"{path}.description: {length} characters, at most {MEDIA_DESCRIPTION}"
            )


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
    flags = _flags(payload.get("flags"))
    was_v2 = current is not None and bool(_flags(current.get("flags")) & COMPONENTS_V2)
    if was_v2 and payload.get("flags") is not None and not flags & COMPONENTS_V2:
        problems.append("flags: IS_COMPONENTS_V2 cannot be removed from a message")
    if was_v2 or flags & COMPONENTS_V2:
        problems += _v2_message_problems(payload, creating=creating, current=current)
    else:
        problems += component_problems(payload.get("components") or [])
    if creating:
        if _is_empty(payload):
            problems.append(EMPTY_MESSAGE_PROBLEM)
    elif current is not None:
        edited = {key: payload.get(key, current.get(key)) for key in MESSAGE_BODY_KEYS}
        if _is_empty(edited):
            problems.append(EMPTY_MESSAGE_PROBLEM)
    return problems


def _flags(value: Any) -> int:
    return value if isinstance(value, int) else 0


def _v2_message_problems(
    payload: Mapping[str, Any], *, creating: bool, current: Mapping[str, Any] | None
) -> list[str]:
    """A V2 message holds components only: no content, embeds, stickers or poll, whether it
    is created so or becomes V2 by an edit (which must then clear the old content and embeds
    itself: Discord keeps what an edit leaves out)."""
    after = dict(payload) if creating or current is None else {**current, **payload}
    problems = layout_problems(payload.get("components") or []) if "components" in payload else []
    if not creating and "components" not in payload and not (current or {}).get("components"):
        problems.append("components: a V2 message needs at least one component")
    for key in ("content", "embeds", "sticker_ids", "poll"):
        if after.get(key):
            problems.append(f"{key}: a V2 message (IS_COMPONENTS_V2) cannot have {key}")
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
