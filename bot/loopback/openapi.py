"""Discord's own contract: every request checked against Discord's OpenAPI description.

Discord publishes an OpenAPI 3.1 description of its HTTP API (``discord-api-spec``, MIT; a copy
is kept in ``../shared/discord_api_spec/openapi.json`` beside the repository). The emulator runs
every request it receives through ``Contract.request_problems`` (path template and its
parameters, query, JSON body or a multipart upload's ``payload_json``, ``$ref``s resolved) and
refuses a request that breaks it with Discord's 400 / 50035 answer, so a payload Discord would
refuse fails the test that sent it; the tests run the emulator's own answers through
``Contract.response_problems``, so discord.py parses in tests what it parses from Discord.

The schema is stricter than Discord in one way, on purpose: a property the description does not
name is a problem (Discord ignores it, so a misspelt key would silently do nothing). What
discord.py 2.7 itself sends outside the description is allowed by name, each with its reason
(``ALLOWED_EXTRA_PROPERTIES``, ``INTEGER_SNOWFLAKES``, ``DIGIT_BOOLEANS``), so only our own
mistakes fail.

Cost: schemas are compiled once per process into closures, one per schema node, and the
validator of an operation is built on its first use; a check allocates nothing while the
value is valid (problems carry their path only once something failed). Unions of objects
told apart by their ``type`` (message components, command options, callbacks) pick their
branch by that value instead of trying each.

Where the description is found: ``GLORY_DISCORD_API_SPEC`` (the file, or its folder), else
``shared/discord_api_spec/openapi.json`` in the repository's parent folder or any folder above
it (``../shared`` of a checkout; ``/work/shared`` for a worktree in ``/work/wt/<name>``).
``find_spec`` raises ``SpecMissing`` naming every place it looked.
"""

from __future__ import annotations

import functools
import os
import re
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

SPEC_SETTING = "GLORY_DISCORD_API_SPEC"
SPEC_RELATIVE = Path("shared") / "discord_api_spec" / "openapi.json"
REPO_ROOT = Path(__file__).resolve().parents[2]

INVALID_FORM_BODY = 50035
UNKNOWN_ROUTE = "UNKNOWN_ROUTE"

# -- what discord.py 2.7 sends outside the description, allowed by name ------------------------

ALLOWED_EXTRA_PROPERTIES: dict[tuple[str, str], str] = {
    ("RichEmbed", "flags"): "discord.py's Embed.to_dict() keeps the embed flags it read",
    ("MessageEditRequestPartial", "tts"): "discord.py sends tts=false with every message edit",
    ("IncomingWebhookUpdateForInteractionCallbackRequestPartial", "tts"): (
        "discord.py sends tts=false with a type-7 update"
    ),
    ("IncomingWebhookUpdateRequestPartial", "tts"): (
        "discord.py sends tts=false with every webhook message edit"
    ),
    ("ApplicationCommandUpdateRequest", "nsfw"): (
        "documented (application commands: nsfw), missing from the description"
    ),
}
"""``(schema, property)``: a property discord.py sends that the schema does not name."""

INTEGER_SNOWFLAKES: dict[tuple[str, str], str] = {
    ("MessageAttachmentRequest", "id"): "discord.py numbers new attachments 0, 1, ... as integers",
    ("CreatePrivateChannelRequest", "recipient_id"): "discord.py sends the user id as an integer",
    (
        "MessageAllowedMentionsRequest",
        "users",
    ): "discord.py's AllowedMentions sends user ids as integers",
    (
        "MessageAllowedMentionsRequest",
        "roles",
    ): "discord.py's AllowedMentions sends role ids as integers",
}
"""``(schema, property)``: a snowflake (or a list of them) discord.py sends as JSON integers,
not strings; checked as the strings they stand for."""

DIGIT_BOOLEANS: dict[str, str] = {
    "with_response": "discord.py asks for the callback's answer with with_response=1",
    "wait": "discord.py sends follow-ups with wait=1",
    "with_components": "discord.py sends webhook messages with with_components=1",
}
"""Query booleans discord.py writes as ``1``/``0`` instead of ``true``/``false``."""


class SpecMissing(RuntimeError):
    """Discord's OpenAPI description is not where it is looked for."""


def spec_candidates(root: Path = REPO_ROOT) -> list[Path]:
    """Where the description is looked for, in order (see the module's docstring)."""
    found: list[Path] = []
    setting = os.environ.get(SPEC_SETTING)
    if setting:
        path = Path(setting).expanduser()
        found.append(path / "openapi.json" if path.is_dir() else path)
    found.extend(parent / SPEC_RELATIVE for parent in root.resolve().parents)
    return found


def find_spec(root: Path = REPO_ROOT) -> Path:
    """The path of ``openapi.json``; ``SpecMissing`` says where it looked."""
    candidates = spec_candidates(root)
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    looked = "\n".join(f"  {path}" for path in candidates)
    raise SpecMissing(
        "Discord's OpenAPI description (openapi.json) was not found, so the emulator cannot "
        f"check requests against Discord's contract. Looked in:\n{looked}\n"
        f"Put Discord's discord-api-spec openapi.json at ../shared/discord_api_spec/ beside "
        f"the repository, or set {SPEC_SETTING} to the file."
    )


# -- problems ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Problem:
    """One way a value breaks the contract: where (``("components", 0, "custom_id")``), Discord's
    error code for it and a message."""

    where: tuple[str | int, ...]
    code: str
    message: str

    @property
    def path(self) -> str:
        """``components[0].custom_id``: the style of ``discord_limits``' problems."""
        text = ""
        for part in self.where:
            text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
        return text or "(body)"

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


_Raw = list[tuple[list[str | int], str, str]]
"""Problems while they bubble up: the path reversed (innermost first), code, message."""
Check = Callable[[Any], "_Raw | None"]


def _one(code: str, message: str) -> _Raw:
    return [([], code, message)]


def _under(key: str | int, found: _Raw) -> _Raw:
    for where, _, _ in found:
        where.append(key)
    return found


def refusal(problems: Iterable[Problem]) -> dict[str, Any]:
    """Discord's 400 body for a request that breaks the contract (50035, errors by path)."""
    errors: dict[str, Any] = {}
    for problem in problems:
        node = errors
        for part in problem.where:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": problem.code, "message": problem.message})
    return {"code": INVALID_FORM_BODY, "message": "Invalid Form Body", "errors": errors}


# -- the compiler ----------------------------------------------------------------------------------

_JSON_TYPE = {
    str: "string",
    bool: "boolean",
    int: "integer",
    float: "number",
    dict: "object",
    list: "array",
    type(None): "null",
}
_INT_RANGE = {"int32": (-(2**31), 2**31 - 1), "int64": (-(2**63), 2**63 - 1)}
_URI = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:\S+$")
_DATE_TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$")


def _kind(value: Any) -> str:
    return _JSON_TYPE.get(type(value), "unknown")


class _Compiler:
    """Turns schema nodes into checks; ``$ref`` targets are compiled once and shared."""

    def __init__(self, spec: Mapping[str, Any], *, strict: bool) -> None:
        self.schemas: Mapping[str, Any] = spec["components"]["schemas"]
        self.strict = strict
        self._refs: dict[str, Check] = {}
        self.seconds = 0.0
        """Time spent compiling (once per schema and process)."""

    def ref(self, ref: str) -> Check:
        name = ref.rsplit("/", 1)[-1]
        check = self._refs.get(name)
        if check is None:
            holder: list[Check] = []
            self._refs[name] = lambda value: holder[0](value)  # recursion: bound below
            compiled = self.node(self.schemas[name], name)
            holder.append(compiled)
            self._refs[name] = check = compiled
        return check

    def resolve(self, schema: Mapping[str, Any]) -> tuple[Mapping[str, Any], str]:
        name = ""
        while "$ref" in schema:
            name = schema["$ref"].rsplit("/", 1)[-1]
            schema = self.schemas[name]
        return schema, name

    def node(self, schema: Mapping[str, Any], name: str = "") -> Check:
        if "$ref" in schema:
            return self.ref(schema["$ref"])
        declared = schema.get("type")
        types = (
            None if declared is None else set([declared] if isinstance(declared, str) else declared)
        )
        if types is not None and "number" in types:
            types.add("integer")
        checks: list[Check] = []
        by_kind: dict[str, list[Check]] = {}
        self._string(schema, by_kind)
        self._number(schema, by_kind)
        self._array(schema, by_kind)
        self._object(schema, name, by_kind)
        if "enum" in schema or "const" in schema:
            checks.append(self._choices(schema))
        for part in schema.get("allOf", ()):
            if not self._implied(schema, part):
                checks.append(self.node(part))
        for key in ("oneOf", "anyOf"):
            if key in schema:
                checks.append(self._union(schema[key]))
        checks = [c for c in checks if c is not _accept]
        if not checks and not by_kind and types is None:
            return _accept
        return _assemble(types, by_kind, checks)

    # keyword groups ------------------------------------------------------------------------

    def _implied(self, schema: Mapping[str, Any], part: Mapping[str, Any]) -> bool:
        """Whether ``allOf``'s ``part`` adds nothing to ``schema``'s own ``enum``: a component's
        ``type: {enum: [2], allOf: [MessageComponentTypes]}`` names one of the types already."""
        values = schema.get("enum", [schema["const"]] if "const" in schema else None)
        if not values:
            return False
        consts = self._consts(self.resolve(part)[0])
        return consts is not None and all((_kind(v), v) in consts for v in values)

    def _consts(self, schema: Mapping[str, Any]) -> set[tuple[str, Any]] | None:
        """The values a schema made only of constants allows (``oneOf`` of ``const``s, an
        ``enum``), keyed with their JSON kind; ``None`` for any other schema."""
        if "enum" in schema:
            return {(_kind(v), v) for v in schema["enum"] if not isinstance(v, (dict, list))}
        branches = schema.get("oneOf") or schema.get("anyOf")
        if not branches:
            return None
        found: set[tuple[str, Any]] = set()
        for branch in branches:
            branch = self.resolve(branch)[0]
            if "const" not in branch or isinstance(branch["const"], (dict, list)):
                return None
            found.add((_kind(branch["const"]), branch["const"]))
        return found

    def _string(self, schema: Mapping[str, Any], by_kind: dict[str, list[Check]]) -> None:
        low, high = schema.get("minLength"), schema.get("maxLength")
        pattern = schema.get("pattern")
        form = schema.get("format")
        checks = by_kind.setdefault("string", [])
        if low is not None or high is not None:
            checks.append(_length_check(low, high))
        if pattern is not None:
            regex = re.compile(pattern)
            checks.append(
                lambda v: (
                    None
                    if regex.search(v)
                    else _one("STRING_TYPE_REGEX", f"{v[:40]!r} does not match {pattern}")
                )
            )
        if form == "uri":
            checks.append(
                lambda v: (
                    None
                    if _URI.match(v)
                    else _one("URL_TYPE_INVALID_URL", "Not a well formed URL.")
                )
            )
        elif form == "date-time":
            checks.append(
                lambda v: (
                    None
                    if _DATE_TIME.match(v)
                    else _one("DATE_TYPE_PARSE", f"{v!r} is not an ISO8601 timestamp.")
                )
            )
        if not checks:
            del by_kind["string"]

    def _number(self, schema: Mapping[str, Any], by_kind: dict[str, list[Check]]) -> None:
        low, high = schema.get("minimum"), schema.get("maximum")
        bounds = _INT_RANGE.get(schema.get("format", ""))
        if bounds is not None:
            low = bounds[0] if low is None else max(low, bounds[0])
            high = bounds[1] if high is None else min(high, bounds[1])
        if low is None and high is None:
            return

        def check(value: Any) -> _Raw | None:
            if low is not None and value < low:
                return _one(
                    "NUMBER_TYPE_MIN", f"int value should be greater than or equal to {low}."
                )
            if high is not None and value > high:
                return _one("NUMBER_TYPE_MAX", f"int value should be less than or equal to {high}.")
            return None

        by_kind.setdefault("integer", []).append(check)
        by_kind.setdefault("number", []).append(check)

    def _array(self, schema: Mapping[str, Any], by_kind: dict[str, list[Check]]) -> None:
        checks: list[Check] = []
        low, high = schema.get("minItems"), schema.get("maxItems")
        if low is not None or high is not None:
            checks.append(_length_check(low, high))
        if schema.get("uniqueItems"):
            checks.append(_unique_items)
        if "items" in schema:
            item = self.node(schema["items"])
            if item is not _accept:

                def items(values: list[Any]) -> _Raw | None:
                    found: _Raw | None = None
                    for index, value in enumerate(values):
                        more = item(value)
                        if more:
                            found = (found or []) + _under(index, more)
                    return found

                checks.append(items)
        if checks:
            by_kind["array"] = checks

    def _object(
        self, schema: Mapping[str, Any], name: str, by_kind: dict[str, list[Check]]
    ) -> None:
        properties = {
            key: self._property(name, key, sub) for key, sub in schema.get("properties", {}).items()
        }
        required = tuple(schema.get("required", ()))
        extra = schema.get("additionalProperties")
        extra_check = self.node(extra) if isinstance(extra, Mapping) else None
        closed = extra is False or (self.strict and extra is None and bool(properties))
        allowed = {key for (owner, key) in ALLOWED_EXTRA_PROPERTIES if owner == name}
        low, high = schema.get("minProperties"), schema.get("maxProperties")
        if not properties and not required and extra_check is None and low is None and high is None:
            return

        def check(value: dict[str, Any]) -> _Raw | None:
            found: _Raw | None = None
            for key in required:
                if key not in value:
                    found = (found or []) + _under(
                        key, _one("BASE_TYPE_REQUIRED", "This field is required")
                    )
            for key, item in value.items():
                sub = properties.get(key)
                if sub is not None:
                    more = sub(item)
                elif extra_check is not None:
                    more = extra_check(item)
                elif closed and key not in allowed:
                    more = _one(
                        "UNKNOWN_FIELD",
                        f"not in Discord's description of {name or 'this object'} "
                        "(Discord ignores it: a misspelt key?)",
                    )
                else:
                    continue
                if more:
                    found = (found or []) + _under(key, more)
            count = len(value)
            if (low is not None and count < low) or (high is not None and count > high):
                found = (found or []) + _one(
                    "BASE_TYPE_BAD_LENGTH", f"{count} entries, {low or 0} to {high}"
                )
            return found

        by_kind["object"] = [check]

    def _property(self, owner: str, key: str, schema: Mapping[str, Any]) -> Check:
        check = self.node(schema)
        if (owner, key) not in INTEGER_SNOWFLAKES:
            return check

        def integer_or_schema(value: Any) -> _Raw | None:
            if type(value) is int:
                return check(str(value))
            if type(value) is list:
                return check([str(item) if type(item) is int else item for item in value])
            return check(value)

        return integer_or_schema

    def _choices(self, schema: Mapping[str, Any]) -> Check:
        values = list(schema["enum"]) if "enum" in schema else [schema["const"]]
        # JSON: 1 and True differ; keep each value with its kind
        keyed = {(_kind(v), v) for v in values if not isinstance(v, (dict, list))}

        def check(value: Any) -> _Raw | None:
            if isinstance(value, (dict, list)) or (_kind(value), value) not in keyed:
                return _one(
                    "BASE_TYPE_CHOICES", f"Value must be one of {sorted(map(repr, values))}."
                )
            return None

        return check

    def _union(self, branches: list[Mapping[str, Any]]) -> Check:
        """``oneOf``/``anyOf``: valid if a branch accepts the value. Objects told apart by a
        ``type`` of their own pick their branch by it."""
        consts = self._consts({"oneOf": branches})
        if consts is not None:
            shown = sorted(repr(value) for _, value in consts)

            def one_of(value: Any) -> _Raw | None:
                if isinstance(value, (dict, list)) or (_kind(value), value) not in consts:
                    return _one("BASE_TYPE_CHOICES", f"Value must be one of {shown}.")
                return None

            return one_of
        null_ok = any(self.resolve(b)[0].get("type") == "null" for b in branches)
        others = [b for b in branches if self.resolve(b)[0].get("type") != "null"]
        compiled = [self.node(b) for b in others]
        by_type = self._discriminated(others, compiled)

        def check(value: Any) -> _Raw | None:
            if value is None and null_ok:
                return None
            if by_type is not None and type(value) is dict:
                branch = (
                    by_type.get(value.get("type"))
                    if not isinstance(value.get("type"), bool)
                    else None
                )
                if branch is None:
                    return _under(
                        "type",
                        _one("UNION_TYPE_CHOICES", f"Value must be one of {sorted(by_type)}."),
                    )
                return branch(value)
            best: _Raw | None = None
            for branch in compiled:
                found = branch(value)
                if not found:
                    return None
                if best is None or _rank(found) < _rank(best):
                    best = found
            if best is None:
                return _one("UNION_TYPE_CHOICES", "Value matches no allowed type (null?)")
            return best

        return check

    def _discriminated(
        self, branches: list[Mapping[str, Any]], compiled: list[Check]
    ) -> dict[Any, Check] | None:
        table: dict[Any, Check] = {}
        for branch, check in zip(branches, compiled, strict=True):
            schema, _ = self.resolve(branch)
            tag = (
                schema.get("properties", {}).get("type") if schema.get("type") == "object" else None
            )
            if not isinstance(tag, Mapping):
                return None
            tag, _ = self.resolve(tag)
            values = tag.get("enum", [tag["const"]] if "const" in tag else None)
            if not values or any(type(v) is not int or v in table for v in values):
                return None
            for value in values:
                table[value] = check
        return table or None


_PY_TYPES = {
    "string": (str,),
    "boolean": (bool,),
    "integer": (int,),
    "number": (int, float),
    "object": (dict,),
    "array": (list,),
    "null": (type(None),),
}


def _assemble(
    types: set[str] | None, by_kind: dict[str, list[Check]], checks: list[Check]
) -> Check:
    """One node's check from its parts, specialised for the common shapes (a typed value with
    one keyword group and nothing else) so a valid value costs a few comparisons."""
    allowed = None if types is None else {t for kind in types for t in _PY_TYPES[kind]}
    per_type: dict[type, tuple[Check, ...]] = {}
    for kind, subs in by_kind.items():
        for python_type in _PY_TYPES[kind]:
            if allowed is None or python_type in allowed:
                known = per_type.get(python_type, ())
                per_type[python_type] = (*known, *(sub for sub in subs if sub not in known))
    message = "" if types is None else f"must be {' or '.join(sorted(types))}"
    code = "" if types is None else _coerce_code(types)

    def wrong(value: Any) -> _Raw:
        return _one(code, f"{message}, not {_kind(value)}")

    if not checks and len(per_type) <= 1 and all(len(subs) == 1 for subs in per_type.values()):
        if not per_type:
            assert allowed is not None
            allowed_types = frozenset(allowed)
            return lambda value: None if type(value) in allowed_types else wrong(value)
        ((only_type, (only,)),) = per_type.items()
        others = frozenset(allowed or ()) - {only_type}
        open_type = allowed is None
        if isinstance(only, _Length):
            low, high = only.low, only.high

            def sized(value: Any) -> _Raw | None:
                kind = type(value)
                if kind is only_type:
                    return None if low <= len(value) <= high else only(value)
                if open_type or kind in others:
                    return None
                return wrong(value)

            return sized

        def typed(value: Any) -> _Raw | None:
            kind = type(value)
            if kind is only_type:
                return only(value)
            if open_type or kind in others:
                return None
            return wrong(value)

        return typed
    allowed_types = None if allowed is None else frozenset(allowed)
    generic = tuple(checks)

    def check(value: Any) -> _Raw | None:
        if allowed_types is not None and type(value) not in allowed_types:
            return wrong(value)
        found: _Raw | None = None
        for sub in per_type.get(type(value), ()):
            more = sub(value)
            if more:
                found = (found or []) + more
        for sub in generic:
            more = sub(value)
            if more:
                found = (found or []) + more
        return found

    return check


def _rank(found: _Raw) -> tuple[bool, int]:
    """How far a union's branch was from accepting a value: a branch of another type entirely
    is the farthest, then the fewer problems the nearer (the branch whose problems to report)."""
    wrong_type = (
        len(found) == 1
        and not found[0][0]
        and found[0][1].endswith(("_COERCE", "_CONVERT", "BAD_TYPE"))
    )
    return wrong_type, len(found)


def _accept(value: Any) -> None:
    return None


def _coerce_code(types: set[str]) -> str:
    if types & {"integer", "number"}:
        return "NUMBER_TYPE_COERCE"
    if "boolean" in types:
        return "BOOLEAN_TYPE_COERCE"
    if "array" in types:
        return "LIST_TYPE_CONVERT"
    if "object" in types:
        return "DICT_TYPE_CONVERT"
    return "BASE_TYPE_BAD_TYPE"


class _Length:
    """A length check (strings, arrays); ``_assemble`` inlines its bounds."""

    __slots__ = ("high", "low")

    def __init__(self, low: int | None, high: int | None) -> None:
        self.low = 0 if low is None else low
        self.high = 2**63 if high is None else high

    def __call__(self, value: Any) -> _Raw | None:
        size = len(value)
        if self.low <= size <= self.high:
            return None
        if self.low:
            return _one(
                "BASE_TYPE_BAD_LENGTH", f"Must be between {self.low} and {self.high} in length."
            )
        return _one("BASE_TYPE_MAX_LENGTH", f"Must be {self.high} or fewer in length.")


def _length_check(low: int | None, high: int | None) -> Check:
    return _Length(low, high)


def _unique_items(values: list[Any]) -> _Raw | None:
    seen = {orjson.dumps(v, option=orjson.OPT_SORT_KEYS) for v in values}
    return (
        None
        if len(seen) == len(values)
        else _one("LIST_ITEM_VALUE_DUPLICATE", "Items must be unique.")
    )


def _finish(found: _Raw | None, prefix: tuple[str | int, ...] = ()) -> list[Problem]:
    return [
        Problem(prefix + tuple(reversed(where)), code, message)
        for where, code, message in found or ()
    ]


# -- operations ------------------------------------------------------------------------------------


@dataclass
class Operation:
    """One method on one path template of the description, with its compiled checks."""

    method: str
    template: str
    operation_id: str
    segments: tuple[str, ...]
    path_checks: dict[int, tuple[str, Check]]
    query_checks: dict[str, tuple[str, Check]]
    query_required: tuple[str, ...]
    body_check: Check | None
    body_required: bool
    responses: dict[str, Check]

    @property
    def literal_count(self) -> int:
        return sum(1 for part in self.segments if not part.startswith("{"))

    def matches(self, parts: list[str]) -> bool:
        return all(
            template.startswith("{") or template == part
            for template, part in zip(self.segments, parts, strict=True)
        )


class Contract:
    """Discord's API description, compiled (requests strictly, answers as Discord sends them)."""

    def __init__(self, spec: Mapping[str, Any], *, source: Path | None = None) -> None:
        self.source = source
        self._spec = spec
        self._requests = _Compiler(spec, strict=True)
        self._answers = _Compiler(spec, strict=True)
        self._by_shape: dict[tuple[str, int], list[Operation]] = {}
        self._lookups: dict[tuple[str, str], Operation | None] = {}
        for template, item in spec["paths"].items():
            shared = item.get("parameters", [])
            for method, operation in item.items():
                if method == "parameters":
                    continue
                built = self._operation(method.upper(), template, operation, shared)
                key = (built.method, len(built.segments))
                self._by_shape.setdefault(key, []).append(built)
        for candidates in self._by_shape.values():
            candidates.sort(key=lambda op: -op.literal_count)  # "@original" before "{message}"

    @property
    def compile_seconds(self) -> float:
        """Time spent so far compiling schemas (on their first use)."""
        return self._requests.seconds + self._answers.seconds

    @classmethod
    @functools.cache
    def load(cls, path: Path | None = None) -> Contract:
        """The contract from ``path`` (default: ``find_spec()``), read once per process."""
        path = find_spec() if path is None else path
        return cls(orjson.loads(path.read_bytes()), source=path)

    def _operation(
        self, method: str, template: str, operation: Mapping[str, Any], shared: list[Any]
    ) -> Operation:
        segments = tuple(template.strip("/").split("/"))
        parameters = [*shared, *operation.get("parameters", [])]
        lazy = self._lazy
        path_checks = {
            segments.index("{" + p["name"] + "}"): (p["name"], lazy(self._requests, p["schema"]))
            for p in parameters
            if p["in"] == "path" and "{" + p["name"] + "}" in segments
        }
        query_checks = {
            p["name"]: (p["schema"].get("type", ""), lazy(self._requests, p["schema"]))
            for p in parameters
            if p["in"] == "query"
        }
        required = tuple(p["name"] for p in parameters if p["in"] == "query" and p.get("required"))
        body = operation.get("requestBody")
        body_check = None
        if body is not None:
            content = body.get("content", {})
            schema = (content.get("application/json") or next(iter(content.values()), {})).get(
                "schema"
            )
            if schema is not None:
                body_check = lazy(self._requests, schema)
        responses = {
            status: lazy(self._answers, answer["content"]["application/json"]["schema"])
            for status, answer in operation.get("responses", {}).items()
            if status.startswith("2") and "application/json" in answer.get("content", {})
        }
        return Operation(
            method,
            template,
            operation.get("operationId", ""),
            segments,
            path_checks,
            query_checks,
            required,
            body_check,
            bool(body and body.get("required")),
            responses,
        )

    @staticmethod
    def _lazy(compiler: _Compiler, schema: Mapping[str, Any]) -> Check:
        """A check compiled on its first use (most of Discord's API is never called)."""
        compiled: list[Check] = []

        def check(value: Any) -> _Raw | None:
            if not compiled:
                began = time.perf_counter()
                compiled.append(compiler.node(schema))
                compiler.seconds += time.perf_counter() - began
            return compiled[0](value)

        return check

    def operation(self, method: str, path: str) -> Operation | None:
        """The operation for ``method`` on ``path`` (after ``/api/v10``), or ``None``."""
        parts = path.strip("/").split("/")
        for candidate in self._by_shape.get((method.upper(), len(parts)), ()):
            if candidate.matches(parts):
                return candidate
        return None

    def request_problems(
        self, method: str, path: str, query: Mapping[str, str], body: Any, *, has_body: bool = True
    ) -> list[Problem]:
        """Every way this request breaks the description (empty: it keeps it).

        ``body``: the JSON body, or a multipart upload's ``payload_json`` (as sent: before the
        emulator adds what it records of the files). ``has_body``: a body was sent at all.
        """
        operation = self.operation(method, path)
        if operation is None:
            return [Problem((), UNKNOWN_ROUTE, f"{method} {path} is not in Discord's API")]
        problems: list[Problem] = []
        parts = path.strip("/").split("/")
        for index, (name, check) in operation.path_checks.items():
            found = check(parts[index])
            if found:
                problems += _finish(found, (f"<path {name}>",))
        for key, value in query.items():
            known = operation.query_checks.get(key)
            if known is None:
                problems.append(
                    Problem(
                        (f"<query {key}>",), "UNKNOWN_FIELD", "not a query parameter of this route"
                    )
                )
                continue
            kind, check = known
            found = check(_query_value(kind, key, value))
            if found:
                problems += _finish(found, (f"<query {key}>",))
        for key in operation.query_required:
            if key not in query:
                problems.append(
                    Problem((f"<query {key}>",), "BASE_TYPE_REQUIRED", "This field is required")
                )
        if operation.body_check is not None:
            if body is None and operation.body_required and not has_body:
                problems.append(Problem((), "BASE_TYPE_REQUIRED", "this route needs a body"))
            elif body is not None:
                problems += _finish(operation.body_check(body))
        elif body is not None:
            problems.append(Problem((), "UNKNOWN_FIELD", "this route takes no body"))
        return problems

    def response_problems(self, method: str, path: str, status: int, body: Any) -> list[Problem]:
        """How an answer breaks the description's schema for it (2xx JSON answers only)."""
        operation = self.operation(method, path)
        if operation is None or not 200 <= status < 300 or body is None:
            return []
        check = operation.responses.get(str(status))
        if check is None:
            return [
                Problem(
                    (),
                    "UNDESCRIBED_ANSWER",
                    f"Discord answers {method} {operation.template} with no {status} JSON",
                )
            ]
        return _finish(check(body))


def _query_value(kind: str, key: str, raw: str) -> Any:
    """A query string's value as the JSON value its schema describes."""
    if kind == "boolean":
        if raw in ("true", "True"):
            return True
        if raw in ("false", "False"):
            return False
        if key in DIGIT_BOOLEANS and raw in ("1", "0"):
            return raw == "1"
        return raw
    if kind == "integer" and re.fullmatch(r"-?\d+", raw):
        return int(raw)
    return raw
