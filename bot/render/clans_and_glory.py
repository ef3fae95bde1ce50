"""How Clans and Glory reads: boards with their seats, shield stacks and claims.

Only phrasing lives here; which placements are possible comes from the engine's menu paths.
A "position" is a place at the table (``n4``); "seat" always means a player. Positions read
through the catalog (``position.n`` with the column counted from 1 like the boards, so ``n4`` is
"N5" in English and "С5" in Russian; the head seats ``hl``/``hr`` have their own names).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from bot.i18n import has, t
from bot.render.base import JSON, Presenter

ROWS = ("north", "south", "head")
COLUMN_POSITION = re.compile(r"([a-z]+)(\d+)")
"""An engine position in a numbered column (``n4``, ``s10``); others are named (``hl``)."""


class ClansAndGloryPresenter(Presenter):
    seat_fields = ("seat", "last_seat", "start_player")
    card_fields = ("card",)
    score_list_fields = ("points",)

    def card(self, card: Any, locale: str) -> str:
        """``red-5`` → "Red 5"; ``None`` (a face-down card) → "face-down"."""
        if not isinstance(card, str) or "-" not in card:
            return t(self.key("face_down"), locale)
        colour, _, value = card.rpartition("-")
        return t(
            self.key("card"), locale, colour=t(self.key("colour", colour), locale), value=value
        )

    def argument(
        self, word: str, argument: str, view: JSON, names: Sequence[str], locale: str
    ) -> str:
        if word == "card":
            return self.card(argument, locale)
        if word == "board" and argument.isdigit():
            return str(int(argument) + 1)
        if word == "position":
            return self.position_label(argument, locale)
        return super().argument(word, argument, view, names, locale)

    # ---------------------------------------------------------------- events

    def event_key(self, event: Mapping[str, Any]) -> str:
        kind = str(event.get("type"))
        if kind == "card_placed" and event.get("face_down"):
            return "card_placed_face_down"
        return kind

    def event_params(
        self, event: Mapping[str, Any], names: Sequence[str], locale: str
    ) -> dict[str, Any]:
        params = super().event_params(event, names, locale)
        if isinstance(event.get("board"), int):
            params["board"] = event["board"] + 1
        if isinstance(event.get("position"), str):
            params["position"] = self.position_label(event["position"], locale)
        if event.get("type") == "result" and isinstance(event.get("winners"), list):
            params["count"] = len(event["winners"])
        if isinstance(event.get("stack"), list):
            params["stack"] = self.stack(event["stack"], names, locale)
        if isinstance(event.get("claims"), list):
            params["claims"] = self.claims(event["claims"], names, locale)
        return params

    def position_label(self, position: str, locale: str) -> str:
        """``n4`` → "N5" / "С5", ``hl`` → "W" / "З": the catalog's name of an engine position."""
        match = COLUMN_POSITION.fullmatch(position)
        if match:
            key = self.key("position", match[1])
            if has(key):
                return t(key, locale, column=int(match[2]) + 1)
        key = self.key("position", position)
        # An engine token the catalog does not name yet still reads, rather than crashing.
        return t(key, locale) if has(key) else position

    def stack(self, stack: Sequence[int], names: Sequence[str], locale: str) -> str:
        return ", ".join(names[s] for s in stack) or t(self.key("none"), locale)

    def claims(self, claims: Sequence[Mapping[str, Any]], names: Sequence[str], locale: str) -> str:
        parts = [
            t(
                self.key("claim"),
                locale,
                name=names[claim["seat"]],
                value=claim["value"],
                count=claim["points"],
            )
            if claim["value"] is not None
            else t(self.key("claim_nothing"), locale, name=names[claim["seat"]])
            for claim in claims
        ]
        return ", ".join(parts) or t(self.key("none"), locale)

    # ---------------------------------------------------------------- views

    def table_lines(self, view: JSON, names: Sequence[str], locale: str) -> list[str]:
        lines = [
            t(
                self.key("view.progress"),
                locale,
                count=view["placements_made"],
                last=names[view["last_seat"]],
            ),
            t(
                self.key("view.shields_left"),
                locale,
                shields=self.seat_scores(view["shields_left"], names, locale),
            ),
            t(
                self.key("view.hand_sizes"),
                locale,
                sizes=self.seat_scores(view["hand_sizes"], names, locale),
            ),
        ]
        if view.get("shield_board") is not None:
            lines.append(t(self.key("view.shield_board"), locale, board=view["shield_board"] + 1))
        for board in view["boards"]:
            lines.append("")
            lines.append(
                t(
                    self.key("view.board"),
                    locale,
                    board=board["board"] + 1,
                    stack=self.stack(board["stack"], names, locale),
                )
            )
            for row in ROWS:
                cells = [p for p in board["positions"] if p["row"] == row]
                if cells:
                    shown = " · ".join(self.position(p, names, locale) for p in cells)
                    lines.append(t(self.key("view.row", row), locale, cells=shown))
        return lines

    def position(self, position: Mapping[str, Any], names: Sequence[str], locale: str) -> str:
        label = self.position_label(str(position["position"]), locale)
        if not position["occupied"]:
            return t(self.key("view.empty"), locale, position=label)
        if position["face_down"]:
            card = (
                t(self.key("view.your_face_down"), locale, card=self.card(position["card"], locale))
                if position.get("card")
                else t(self.key("face_down"), locale)
            )
        else:
            card = self.card(position["card"], locale)
        return t(self.key("view.cell"), locale, position=label, card=card)

    has_rounds = False

    def hand_cards(
        self, view: JSON, names: Sequence[str], locale: str, *, own: bool = True
    ) -> list[str]:
        cards = ", ".join(self.card(c["card"], locale) for c in view["hand"] or []) or t(
            self.key("none"), locale
        )
        return [t(self.key("view.hand" if own else "view.cards"), locale, cards=cards)]
