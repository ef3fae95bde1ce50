"""How Kami reads: lines of defense and attack cards, mercenary stacks, teams and rounds.

Only phrasing lives here; which moves exist comes from the engine's menu paths.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.i18n import t
from bot.render.base import JSON, Presenter


class KamiPresenter(Presenter):
    seat_fields = ("seat", "start_player", "revealer")
    card_fields = ("card",)
    card_list_fields = ("cards",)

    def card(self, name: Any, locale: str) -> str:
        if name is None:
            return t(self.key("face_down"), locale)
        return t(self.key("card", str(name)), locale)

    def argument(
        self, word: str, argument: str, view: JSON, names: Sequence[str], locale: str
    ) -> str:
        if word == "card":
            return self.card(argument, locale)
        if word == "mercenary" and argument.isdigit():
            stacks = view.get("mercenaries") or []
            index = int(argument)
            top = stacks[index]["top"] if index < len(stacks) else None
            return t(self.key("stack"), locale, number=index + 1, card=self.card(top, locale))
        return super().argument(word, argument, view, names, locale)

    # ---------------------------------------------------------------- events

    def event_key(self, event: Mapping[str, Any]) -> str:
        kind = str(event.get("type"))
        if kind in ("lead", "counter", "attack") and event.get("mercenary"):
            return f"{kind}_mercenary"
        if kind == "lead" and event.get("card") is None:
            return "lead_hidden"
        if kind == "round_end" and event.get("doubled"):
            return "round_end_doubled"  # the Volltreffer, named
        return kind

    def event_params(
        self, event: Mapping[str, Any], names: Sequence[str], locale: str
    ) -> dict[str, Any]:
        params = super().event_params(event, names, locale)
        for counted in ("points", "soldiers"):  # the number a plural message counts
            if isinstance(event.get(counted), int):
                params["count"] = event[counted]
        return params

    # ---------------------------------------------------------------- views

    def table_lines(self, view: JSON, names: Sequence[str], locale: str) -> list[str]:
        lines = [
            t(self.key("view.mode", view["mode"]), locale),
            t(
                self.key("view.round"),
                locale,
                round=view["round"],
                ending=t(self.key("option.ending", view["ending"]), locale),
                target=view["target"],
            ),
        ]
        if view.get("teams"):
            teams = [" & ".join(names[s] for s in team) for team in view["teams"]]
            lines.append(t(self.key("view.teams"), locale, first=teams[0], second=teams[1]))
        attack = view.get("current_attack")
        if attack:
            lines.append(
                t(
                    self.key("view.current_attack"),
                    locale,
                    name=names[attack["seat"]],
                    card=self.card(attack["card"], locale),
                    count=view.get("passes", 0),
                )
            )
        lines.append("")
        for seat, name in enumerate(names):
            line = view["lines"][seat]
            defense = ", ".join(
                self.card(c["card"] if c["face_up"] or c["card"] else None, locale)
                for c in line["defense"]
            ) or t(self.key("none"), locale)
            attacks = ", ".join(self.card(c["card"], locale) for c in line["attack"]) or t(
                self.key("none"), locale
            )
            lines.append(
                t(
                    self.key("view.player"),
                    locale,
                    name=name,
                    count=view["hand_sizes"][seat],
                    defense=defense,
                    attack=attacks,
                )
            )
        if view.get("mercenaries"):
            stacks = ", ".join(
                t(
                    self.key("view.stack"),
                    locale,
                    number=i + 1,
                    card=self.card(s["top"], locale)
                    if s["height"]
                    else t(self.key("none"), locale),
                    count=s["height"],
                )
                for i, s in enumerate(view["mercenaries"])
            )
            lines.append(t(self.key("view.mercenaries"), locale, stacks=stacks))
        if view.get("set_aside"):
            lines.append(t(self.key("view.set_aside"), locale, count=view["set_aside"]))
        for reveal in view.get("revealed_soldiers") or []:
            lines.append(
                t(
                    self.key("view.soldiers_revealed"),
                    locale,
                    name=names[reveal["seat"]],
                    count=reveal["soldiers"],
                )
            )
        last = view.get("last_round")
        if last:
            lines.append(
                t(
                    self.key(
                        "view.last_round_doubled" if last.get("doubled") else "view.last_round"
                    ),
                    locale,
                    names=", ".join(names[s] for s in last["seats"]),
                    count=last["points"],
                    card=self.card(last["card"], locale),
                )
            )
        return lines

    def score_sides(self, view: JSON, names: Sequence[str]) -> list[tuple[str, int]]:
        """A team game scores per team: both seats of a team carry the team's points."""
        if not view.get("teams"):
            return super().score_sides(view, names)
        return [(" & ".join(names[seat] for seat in team), team[0]) for team in view["teams"]]

    def round_entries(
        self, points: Sequence[int], sides: Sequence[tuple[str, int]]
    ) -> list[tuple[str, int]]:
        """Only the side that ended a round scores it, so a round names just that side."""
        scored = [(label, points[seat]) for label, seat in sides if points[seat]]
        return scored or super().round_entries(points, sides)

    def hand_notes(
        self, view: JSON, names: Sequence[str], locale: str, *, own: bool = True
    ) -> list[str]:
        if not view.get("seen_leftover"):
            return []
        key = "view.seen_leftover" if own else "view.seen_leftover_of"
        return [t(self.key(key), locale, card=self.card(view["seen_leftover"], locale))]
