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


# ---------------------------------------------------------------------------------------------
# Documented limits Discord's OpenAPI description does not carry (``openapi.py`` checks what it
# does carry). Sources: ``../shared/notes/discord_real_world_contract.md`` §4 and Discord's docs
# (``interactions/application-commands``, ``resources/message`` "Allowed Mentions").
# ---------------------------------------------------------------------------------------------

COMMAND_NAME = 32
COMMAND_DESCRIPTION = 100
COMMAND_OPTIONS = 25
COMMAND_CHOICES = 25
CHOICE_TEXT = 100
COMMAND_TOTAL = 8000
"""Characters of a command's names, descriptions and choices together (per locale)."""
STRING_OPTION_LENGTH = 6000
INTEGER_BOUND = 2**53 - 1
"""Discord's integers and numbers in options and choices are JavaScript-safe."""
CHAT_INPUT_COMMANDS = 100
CONTEXT_MENU_COMMANDS = 15
MENTION_IDS = 100
MENTION_KINDS = frozenset({"roles", "users", "everyone"})

CHAT_INPUT, USER_COMMAND, MESSAGE_COMMAND = 1, 2, 3
SUB_COMMAND, SUB_COMMAND_GROUP, STRING_OPTION, INTEGER_OPTION, NUMBER_OPTION = 1, 2, 3, 4, 10
DISCORD_LOCALES = frozenset(
    [
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    ]
)
_NAME_PUNCTUATION = frozenset("-_'")


def _bad_command_name(name: Any, *, lowercase: bool) -> str | None:
    """Why ``name`` is no command or option name: 1 to 32 of letters, digits (any script),
    ``-``, ``_`` and ``'``; lowercase where the letter has a lowercase form (slash commands)."""
    if not isinstance(name, str) or not 1 <= len(name) <= COMMAND_NAME:
        return f"must be 1 to {COMMAND_NAME} characters"
    for char in name:
        if not (char.isalnum() or char in _NAME_PUNCTUATION or _is_mark(char)):
            return f"{char!r} is not allowed in a name"
    if lowercase and name != name.lower():
        return "must be lowercase"
    return None


def _is_mark(char: str) -> bool:
    """Devanagari and Thai vowel signs (Discord allows their scripts whole)."""
    return "\u0900" <= char <= "\u097f" or "\u0e00" <= char <= "\u0e7f"


def _localizations(where: str, value: Any, *, name: bool, lowercase: bool) -> list[str]:
    problems: list[str] = []
    for locale, text in (value or {}).items():
        if locale not in DISCORD_LOCALES:
            problems.append(f"{where}.{locale}: not one of Discord's locales")
        elif name:
            why = _bad_command_name(text, lowercase=lowercase)
            if why:
                problems.append(f"{where}.{locale}: {why}")
        elif not isinstance(text, str) or not 1 <= len(text) <= COMMAND_DESCRIPTION:
            problems.append(f"{where}.{locale}: must be 1 to {COMMAND_DESCRIPTION} characters")
    return problems


def _bounded(where: str, value: Any) -> list[str]:
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if number and not -INTEGER_BOUND <= value <= INTEGER_BOUND:
        return [f"{where}: {value} is beyond ±(2^53-1)"]
    return []


def _option_problems(where: str, option: Mapping[str, Any], depth: int) -> list[str]:
    problems: list[str] = []
    kind = option.get("type")
    why = _bad_command_name(option.get("name"), lowercase=True)
    if why:
        problems.append(f"{where}.name: {why}")
    description = option.get("description")
    if not isinstance(description, str) or not 1 <= len(description) <= COMMAND_DESCRIPTION:
        problems.append(f"{where}.description: must be 1 to {COMMAND_DESCRIPTION} characters")
    problems += _localizations(
        f"{where}.name_localizations", option.get("name_localizations"), name=True, lowercase=True
    )
    problems += _localizations(
        f"{where}.description_localizations",
        option.get("description_localizations"),
        name=False,
        lowercase=False,
    )
    choices = option.get("choices") or []
    if len(choices) > COMMAND_CHOICES:
        problems.append(f"{where}.choices: {len(choices)} choices, at most {COMMAND_CHOICES}")
    for index, choice in enumerate(choices):
        name = choice.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= CHOICE_TEXT:
            problems.append(f"{where}.choices[{index}].name: must be 1 to {CHOICE_TEXT} characters")
        value = choice.get("value")
        if isinstance(value, str) and len(value) > CHOICE_TEXT:
            problems.append(f"{where}.choices[{index}].value: more than {CHOICE_TEXT} characters")
        problems += _bounded(f"{where}.choices[{index}].value", value)
    for key in ("min_value", "max_value"):
        problems += _bounded(f"{where}.{key}", option.get(key))
    low, high = option.get("min_value"), option.get("max_value")
    if low is not None and high is not None and low > high:
        problems.append(f"{where}: min_value {low} is more than max_value {high}")
    low, high = option.get("min_length"), option.get("max_length")
    if low is not None and high is not None and low > high:
        problems.append(f"{where}: min_length {low} is more than max_length {high}")
    children = option.get("options") or []
    if kind in (SUB_COMMAND, SUB_COMMAND_GROUP):
        allowed = SUB_COMMAND if kind == SUB_COMMAND_GROUP else None
        problems += _options_problems(where, children, depth + 1, only=allowed)
    elif children:
        problems.append(f"{where}.options: only subcommands and groups have options")
    return problems


def _options_problems(
    where: str, options: Sequence[Mapping[str, Any]], depth: int, *, only: int | None = None
) -> list[str]:
    problems: list[str] = []
    if len(options) > COMMAND_OPTIONS:
        problems.append(f"{where}.options: {len(options)} options, at most {COMMAND_OPTIONS}")
    names: set[Any] = set()
    optional_seen = False
    for index, option in enumerate(options):
        path = f"{where}.options[{index}]"
        kind = option.get("type")
        if only is not None and kind != only:
            problems.append(f"{path}: a group holds subcommands only")
        if depth >= 1 and kind == SUB_COMMAND_GROUP:
            problems.append(f"{path}: groups cannot nest")
        if option.get("name") in names:
            problems.append(f"{path}.name: {option.get('name')!r} twice on one level")
        names.add(option.get("name"))
        if kind not in (SUB_COMMAND, SUB_COMMAND_GROUP):
            if option.get("required"):
                if optional_seen:
                    problems.append(f"{path}: a required option after an optional one")
            else:
                optional_seen = True
        problems += _option_problems(path, option, depth)
    return problems


def _command_text(command: Mapping[str, Any], locale: str | None) -> int:
    """The characters of ``command`` counted towards its 8,000 (in ``locale``'s wording)."""

    def text(item: Mapping[str, Any], key: str) -> int:
        localized = (item.get(f"{key}_localizations") or {}).get(locale) if locale else None
        value = localized if localized is not None else item.get(key)
        return len(value) if isinstance(value, str) else 0

    def walk(item: Mapping[str, Any]) -> int:
        total = text(item, "name") + text(item, "description")
        for choice in item.get("choices") or []:
            total += text(choice, "name") + len(str(choice.get("value", "")))
        return total + sum(walk(option) for option in item.get("options") or [])

    return walk(command)


def command_problems(where: str, command: Mapping[str, Any]) -> list[str]:
    """The documented limits of one application command (name and description rules per
    type, options, choices, integer bounds, localizations, 8,000 characters per locale)."""
    problems: list[str] = []
    kind = command.get("type") or CHAT_INPUT
    why = _bad_command_name(command.get("name"), lowercase=kind == CHAT_INPUT)
    if kind == CHAT_INPUT and why:
        problems.append(f"{where}.name: {why}")
    description = command.get("description") or ""
    if kind == CHAT_INPUT and not 1 <= len(description) <= COMMAND_DESCRIPTION:
        problems.append(f"{where}.description: must be 1 to {COMMAND_DESCRIPTION} characters")
    if kind != CHAT_INPUT and description:
        problems.append(f"{where}.description: only slash commands have a description")
    problems += _localizations(
        f"{where}.name_localizations",
        command.get("name_localizations"),
        name=kind == CHAT_INPUT,
        lowercase=kind == CHAT_INPUT,
    )
    problems += _localizations(
        f"{where}.description_localizations",
        command.get("description_localizations"),
        name=False,
        lowercase=False,
    )
    problems += _options_problems(where, command.get("options") or [], 0)
    locales = {None} | set(command.get("name_localizations") or {})
    locales |= set(command.get("description_localizations") or {})
    longest = max(_command_text(command, locale) for locale in locales)
    if longest > COMMAND_TOTAL:
        problems.append(f"{where}: {longest} characters of text, at most {COMMAND_TOTAL}")
    return problems


def commands_problems(commands: Any) -> list[str]:
    """A bulk overwrite of commands (``PUT .../commands``): each command's limits, the number
    of each type (100 slash commands, 15 user and 15 message commands) and unique names."""
    if not isinstance(commands, list):
        return ["commands: must be a list"]
    problems: list[str] = []
    seen: set[tuple[Any, Any]] = set()
    counts: dict[Any, int] = {}
    for index, command in enumerate(commands):
        if not isinstance(command, Mapping):
            problems.append(f"[{index}]: must be an object")
            continue
        kind = command.get("type") or CHAT_INPUT
        counts[kind] = counts.get(kind, 0) + 1
        if (kind, command.get("name")) in seen:
            problems.append(f"[{index}].name: {command.get('name')!r} twice")
        seen.add((kind, command.get("name")))
        problems += command_problems(f"[{index}]", command)
    for kind, most in (
        (CHAT_INPUT, CHAT_INPUT_COMMANDS),
        (USER_COMMAND, CONTEXT_MENU_COMMANDS),
        (MESSAGE_COMMAND, CONTEXT_MENU_COMMANDS),
    ):
        if counts.get(kind, 0) > most:
            problems.append(f"commands: {counts[kind]} of type {kind}, at most {most}")
    return problems


def allowed_mentions_problems(payload: Mapping[str, Any]) -> list[str]:
    """``allowed_mentions``: ``parse`` names only roles, users and everyone; at most 100 user
    and 100 role ids; a kind in ``parse`` cannot also list its ids (Discord refuses both)."""
    mentions = payload.get("allowed_mentions")
    if not isinstance(mentions, Mapping):
        return []
    problems: list[str] = []
    parse = mentions.get("parse") or []
    for kind in parse:
        if kind not in MENTION_KINDS:
            problems.append(f"allowed_mentions.parse: {kind!r} is not roles, users or everyone")
    for kind in ("users", "roles"):
        ids = mentions.get(kind) or []
        if len(ids) > MENTION_IDS:
            problems.append(f"allowed_mentions.{kind}: {len(ids)} ids, at most {MENTION_IDS}")
        if ids and kind in parse:
            problems.append(f"allowed_mentions: {kind} both in parse and listed")
    return problems


def message_extras(payload: Any) -> list[str]:
    """The documented message limits beyond ``message_problems`` and the description
    (``allowed_mentions``'s shape, for now)."""
    if not isinstance(payload, Mapping):
        return []
    return allowed_mentions_problems(payload)
