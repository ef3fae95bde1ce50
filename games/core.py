"""The engine protocol every game implements and every consumer (bot, benchmarks, tests) relies on.

The shape follows OpenSpiel's ``State``: whoever must decide now (``to_move``), exactly the legal
actions for that seat, ``apply``, per-seat views, and complete JSON serialisation including the
RNG. See ``docs/engine.md`` for the contract in prose.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

if TYPE_CHECKING:
    from games.rng import Rng

JSON = dict[str, Any]
Event = dict[str, Any]
"""A JSON-compatible record of something that happened.

Every event has a ``"type"``. An event that reveals hidden information carries
``"visible_to": [seat, ...]``; events without that key are public.
"""

S = TypeVar("S", bound="State")


# --------------------------------------------------------------------------- errors


class GameError(Exception):
    """Base of every error an engine raises on purpose."""


class InvalidOptions(GameError, ValueError):
    """Options (or a player count) that a game cannot be started with.

    ``code`` is machine-readable so that a UI can phrase the message in the user's language:
    ``player_count``, ``unknown_option``, ``bad_value`` or ``conflict``. A ``conflict`` names
    the options that clash (``conflicting``, in the game's option order) and why, as a
    snake_case ``reason`` token of the game (data only: the UI words it).
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        option: str | None = None,
        allowed: Sequence[Any] = (),
        conflicting: Sequence[str] = (),
        reason: str | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.option = option
        self.allowed = tuple(allowed)
        self.conflicting = tuple(conflicting)
        self.reason = reason


class IllegalAction(GameError):
    """An action that ``apply`` refused; the state is unchanged.

    ``reason`` is a stable snake_case code (``game_over``, ``not_legal``, ``malformed`` or a
    game-specific one such as ``same_source`` or ``set_too_small``).
    """

    def __init__(self, reason: str, message: str = "") -> None:
        super().__init__(message or reason)
        self.reason = reason


class MalformedAction(IllegalAction):
    """JSON that does not describe any action of the game."""

    def __init__(self, message: str) -> None:
        super().__init__("malformed", message)


class MalformedState(GameError, ValueError):
    """JSON that is not a saved state of the game."""


# --------------------------------------------------------------------------- options


@dataclasses.dataclass(frozen=True)
class Option:
    """A declared game option: its type is the type of ``default``; ``choices`` lists every
    allowed value in display order (at most 25, so a UI can offer them as a select)."""

    name: str
    default: bool | int | str
    choices: tuple[bool | int | str, ...]
    players: tuple[int, ...] | None = None
    """Player counts the option matters for; ``None`` means every count. It is still accepted
    for other counts (a lobby fixes options before the seats fill) and simply has no effect."""

    @property
    def type(self) -> type:
        return type(self.default)

    def __post_init__(self) -> None:
        if self.default not in self.choices:
            raise ValueError(f"default of option {self.name!r} is not among its choices")
        if not 1 <= len(self.choices) <= 25:
            raise ValueError(f"option {self.name!r} needs 1 to 25 choices")
        if any(type(choice) is not self.type for choice in self.choices):
            raise ValueError(f"choices of option {self.name!r} must all be {self.type.__name__}")

    def parse(self, value: Any) -> bool | int | str:
        if type(value) is not self.type or value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise InvalidOptions(
                "bad_value",
                f"option {self.name!r} cannot be {value!r}; allowed: {allowed}",
                option=self.name,
                allowed=self.choices,
            )
        return value

    def applies_to(self, players: int) -> bool:
        return self.players is None or players in self.players


# --------------------------------------------------------------------------- actions


class Action:
    """An immutable, hashable decision.

    Subclasses are ``@dataclass(frozen=True, slots=True)`` with fields of type ``int``, ``str``,
    ``bool``, ``int | None``, ``str | None`` or ``tuple[int, ...]``, and a class-level ``kind``.
    """

    __slots__ = ()
    kind: ClassVar[str]

    def to_json(self) -> JSON:
        data: JSON = {"kind": self.kind}
        for field in dataclasses.fields(self):  # type: ignore[arg-type]
            value = getattr(self, field.name)
            data[field.name] = list(value) if isinstance(value, tuple) else value
        return data

    @property
    def menu_path(self) -> tuple[str, ...]:
        """The path of this action in a nested menu, as stable tokens.

        A token is ``word`` or ``word:argument`` (lower-case ASCII, digits, ``_``, ``-``, ``.``),
        for example ``("discard", "card:20", "pile:2")``. Across the legal actions of one
        decision, paths are distinct, none is a prefix of another, and no menu level offers more
        than 25 choices. A UI translates ``word`` through its message catalog.
        """
        raise NotImplementedError


class ActionCodec:
    """Turns action JSON back into action objects, strictly: unknown kinds, missing or extra
    fields and wrongly typed values all raise ``MalformedAction``."""

    def __init__(self, *classes: type[Action]) -> None:
        self._classes: dict[str, type[Action]] = {}
        self._hints: dict[str, dict[str, Any]] = {}
        for cls in classes:
            self._classes[cls.kind] = cls
            hints = typing.get_type_hints(cls)
            self._hints[cls.kind] = {f.name: hints[f.name] for f in dataclasses.fields(cls)}  # type: ignore[arg-type]

    def decode(self, data: Any) -> Action:
        if not isinstance(data, Mapping):
            raise MalformedAction("an action must be a JSON object")
        kind = data.get("kind")
        if kind not in self._classes:
            raise MalformedAction(f"unknown action kind {kind!r}")
        hints = self._hints[kind]
        extra = set(data) - set(hints) - {"kind"}
        if extra:
            raise MalformedAction(f"unexpected fields for {kind!r}: {sorted(extra)}")
        values = {}
        for name, hint in hints.items():
            if name not in data:
                raise MalformedAction(f"action {kind!r} lacks field {name!r}")
            values[name] = _coerce(data[name], hint, f"{kind}.{name}")
        return self._classes[kind](**values)


def _coerce(value: Any, hint: Any, where: str) -> Any:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        for option in typing.get_args(hint):
            if option is type(None):
                if value is None:
                    return None
                continue
            try:
                return _coerce(value, option, where)
            except MalformedAction:
                pass
        raise MalformedAction(f"{where} has the wrong type")
    if origin is tuple:
        (item_hint, _ellipsis) = typing.get_args(hint)
        if not isinstance(value, list | tuple):
            raise MalformedAction(f"{where} must be a list")
        return tuple(_coerce(item, item_hint, where) for item in value)
    if hint in (int, str, bool) and type(value) is hint:
        return value
    raise MalformedAction(f"{where} must be {getattr(hint, '__name__', hint)}")


# --------------------------------------------------------------------------- states


class State(ABC):
    """A game in progress. Engines subclass it and implement the abstract members.

    ``apply`` mutates the state in place; the base class checks legality first, so an illegal
    action raises ``IllegalAction`` and changes nothing. Legal actions are cached between moves.
    """

    game_key: ClassVar[str]
    num_players: int
    _legal_cache: tuple[list[Action], frozenset[Action] | None] | None = None
    opening_events: Sequence[Event] = ()
    """What happened while the game was set up (start-player draw, deal...), for the log.
    ``new_state`` returns only the state, so the fresh state carries its setup events here; a
    restored state may or may not keep them. Private ones carry ``visible_to`` as usual."""

    # ---- to implement -------------------------------------------------------------------

    @property
    @abstractmethod
    def to_move(self) -> int | None:
        """The seat that must decide now; ``None`` once the game is over."""

    @property
    @abstractmethod
    def decision(self) -> str | None:
        """A token naming what ``to_move`` decides now (``draw``, ``choose_pile`` …)."""

    @abstractmethod
    def _legal_actions(self) -> list[Action]:
        """Every legal action for ``to_move`` (empty once the game is over)."""

    @abstractmethod
    def _apply(self, action: Action) -> list[Event]:
        """Carry out an action already known to be legal."""

    @property
    @abstractmethod
    def scores(self) -> list[int]:
        """Cumulative score per seat (a team game gives each seat its team's total)."""

    @property
    @abstractmethod
    def round_scores(self) -> list[list[int]]:
        """Points per finished round: one row per round, one entry per seat."""

    @property
    @abstractmethod
    def winners(self) -> list[int]:
        """The winning seats once the game is over (several on a shared win); else empty."""

    @abstractmethod
    def _view(self, seat: int | None) -> JSON:
        """Game-specific part of the observation of ``seat`` (``None``: spectator)."""

    @abstractmethod
    def to_json(self) -> JSON:
        """Everything needed to continue identically, including the RNG state."""

    @abstractmethod
    def determinize(self: S, seat: int, rng: Rng) -> S:
        """A full, independent state that ``seat`` cannot tell apart from this one.

        Everything ``seat`` has seen stays exactly as it is: its own hand and private cards,
        everything public, and whatever the public history proved (a card taken from a discard
        pile, Soldiers shown for Demoralized, the hand of a player who could not follow). Only
        what ``seat`` cannot know is redealt from ``rng``: other hands, face-down cards of
        others, draw piles, undealt cards. The copy gets a fresh RNG drawn from ``rng``, because
        the engine's RNG decides every future shuffle and keeping it would show a search the
        real future. ``view(seat)`` of the result equals ``view(seat)`` of this state, and the
        result depends only on that view and ``rng``, never on the hidden cards themselves.
        """

    # ---- provided -----------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.to_move is None

    def legal_actions(self) -> list[Action]:
        return list(self._legal()[0])

    def is_legal(self, action: Action) -> bool:
        return action in self._legal_members()

    def why_illegal(self, action: Action) -> str:
        """A reason code for an action that is not legal now; engines refine the default."""
        return "not_legal"

    def apply(self, action: Action) -> list[Event]:
        if self.to_move is None:
            raise IllegalAction("game_over", "the game is over")
        if not isinstance(action, Action):
            raise MalformedAction(f"not an action: {action!r}")
        for candidate in self._legal()[0]:
            if candidate is action:  # the engines hand out shared instances: no hashing
                break
        else:
            if action not in self._legal_members():
                reason = self.why_illegal(action)
                raise IllegalAction(reason, f"{action.to_json()} is not legal now ({reason})")
        self._legal_cache = None
        return self._apply(action)

    def view(self, seat: int | None) -> JSON:
        if seat is not None and not 0 <= seat < self.num_players:
            raise ValueError(f"no seat {seat} in a {self.num_players}-player game")
        data: JSON = {
            "game": self.game_key,
            "players": self.num_players,
            "seat": seat,
            "to_move": self.to_move,
            "decision": self.decision,
            "scores": self.scores,
            "round_scores": self.round_scores,
            "is_over": self.is_over,
            "winners": self.winners,
        }
        data.update(self._view(seat))
        return data

    def clone(self: S) -> S:
        """An independent copy that continues exactly like this state, RNG included.

        The default goes through JSON; engines override it with a field-by-field copy (3-4 µs
        instead of 40-100 µs), which is what a search copying a state per iteration needs. Plain
        records the engine never changes once written (history rows, logged events) may be
        shared between the copies; everything the engine mutates is copied.
        """
        from games import REGISTRY

        return REGISTRY[self.game_key].state_from_json(self.to_json())  # type: ignore[return-value]

    @property
    def rounds_finished(self) -> int:
        """How many rounds are over, ``len(round_scores)`` without building the rows; a search
        checks it after every simulated step to stop at the end of the round."""
        return len(self.round_scores)

    def provisional_scores(self) -> list[int] | None:
        """Each seat's total if the round in progress ended now, or ``None`` when the table
        cannot tell before the round ends. A search that stops simulating mid-round scores the
        position by this."""
        return None

    @property
    def sides(self) -> list[int]:
        """The side each seat plays for: seats of one team share a side and its result.

        Every seat is its own side unless the game is played in teams (four-player Kami).
        """
        return list(range(self.num_players))

    def observed_action(self, action: Action, seat: int | None) -> Hashable:
        """What ``seat`` perceives when ``to_move`` takes ``action``, as a hashable key.

        A public action is its own key. An action that hides something from ``seat`` (a card
        put face down by another player) maps to a key without the hidden part, so two actions
        ``seat`` cannot tell apart share one key. A search keys its tree by this, never by
        facts the searching seat lacks.
        """
        return action

    def explain(self, action: Action) -> JSON | None:
        """A short machine-readable reason to take ``action`` now, or ``None``.

        The result is ``{"token": word, **parameters}`` (for example ``{"token": "beats_set",
        "value": 12, "count": 3, "seat": 1}``), which a UI translates through its catalog. It
        uses only what ``to_move`` knows (its own hand and the public table), so it may be
        shown to that seat as a hint.
        """
        return None

    def _legal(self) -> tuple[list[Action], frozenset[Action] | None]:
        """The legal actions, and their set once someone asked (``_legal_members``): a search
        applies actions taken from the list itself, so most positions never need the set."""
        if self._legal_cache is None:
            actions = self._legal_actions() if self.to_move is not None else []
            self._legal_cache = (actions, None)
        return self._legal_cache

    def _legal_members(self) -> frozenset[Action]:
        actions, members = self._legal()
        if members is None:
            members = frozenset(actions)
            self._legal_cache = (actions, members)
        return members


# --------------------------------------------------------------------------- games


class Game(ABC):
    """A game's declaration and factory. One instance per game lives in ``games.REGISTRY``."""

    key: ClassVar[str]
    name: ClassVar[str]
    player_counts: ClassVar[tuple[int, ...]]
    options: ClassVar[tuple[Option, ...]]

    def option(self, name: str) -> Option:
        for option in self.options:
            if option.name == name:
                return option
        raise InvalidOptions(
            "unknown_option",
            f"{self.name} has no option {name!r}; "
            f"options: {', '.join(o.name for o in self.options)}",
            option=name,
            allowed=tuple(o.name for o in self.options),
        )

    def resolve_options(self, players: int, options: Mapping[str, Any] | None = None) -> JSON:
        """Validate ``options`` for ``players`` and fill in defaults; raises ``InvalidOptions``."""
        if type(players) is not int or players not in self.player_counts:
            counts = ", ".join(str(n) for n in self.player_counts)
            raise InvalidOptions(
                "player_count",
                f"{self.name} is played by {counts} players, not {players!r}",
                allowed=self.player_counts,
            )
        given = dict(options or {})
        resolved: JSON = {}
        for name, value in given.items():
            resolved[name] = self.option(name).parse(value)
        for option in self.options:
            resolved.setdefault(option.name, option.default)
        self.check_options(players, resolved)
        return resolved

    def check_options(self, players: int, options: JSON) -> None:
        """Reject combinations of options that do not work together (``InvalidOptions``)."""
        return None

    @abstractmethod
    def new_state(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
        """A fresh game; must call ``resolve_options``."""

    @abstractmethod
    def state_from_json(self, data: JSON) -> State:
        """Inverse of ``State.to_json``; raises ``MalformedState`` on foreign data."""

    @abstractmethod
    def action_from_json(self, data: JSON) -> Action:
        """Inverse of ``Action.to_json``; raises ``MalformedAction``."""


# --------------------------------------------------------------------------- events


def events_for(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The events ``seat`` may see (``None``: only public ones)."""
    return [
        event
        for event in events
        if "visible_to" not in event or (seat is not None and seat in event["visible_to"])
    ]
