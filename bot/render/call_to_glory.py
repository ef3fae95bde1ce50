"""How Call to Glory reads: cards by character name, displays, piles, ninjas and tasks.

Only phrasing lives here; which moves exist comes from the engine's menu paths.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.i18n import t
from bot.render.base import JSON, Presenter


class CallToGloryPresenter(Presenter):
    seat_fields = ("seat", "target", "beaten_seat", "start_player", "ended_by")
    silent_events = frozenset({"turn_started", "tasks_dealt"})
    card_fields = ("value",)
    card_list_fields = ("values",)
    score_list_fields = ("scores", "totals", "base", "bonus")

    def card(self, value: Any, locale: str) -> str:
        return t(self.key("card", str(value)), locale)

    def argument(
        self, word: str, argument: str, view: JSON, names: Sequence[str], locale: str
    ) -> str:
        if word == "card":
            return self.card(argument, locale)
        if word == "source":
            return t(self.key("source", argument), locale)
        if word == "task":
            return argument.upper()
        return super().argument(word, argument, view, names, locale)

    # ---------------------------------------------------------------- events

    def event_key(self, event: Mapping[str, Any]) -> str:
        kind = str(event.get("type"))
        if kind == "card_drawn" and event.get("value") is None:
            return "card_drawn_hidden"
        if kind == "set_laid" and event.get("beaten_seat") is not None:
            return "set_laid_beating"
        return kind

    def event_params(
        self, event: Mapping[str, Any], names: Sequence[str], locale: str
    ) -> dict[str, Any]:
        params = super().event_params(event, names, locale)
        if isinstance(event.get("source"), str):
            params["source"] = t(self.key("source", event["source"]), locale)
        if isinstance(event.get("deck"), str):
            params["deck"] = event["deck"].upper()
        if isinstance(event.get("tasks"), list):
            params["tasks"] = ", ".join(
                t(
                    self.key("view.task_short"),
                    locale,
                    deck=str(task["deck"]).upper(),
                    card=self.card(task["value"], locale),
                )
                for task in event["tasks"]
            )
        if isinstance(event.get("awards"), list):
            params["awards"] = self.awards(event["awards"], names, locale)
        if event.get("type") == "round_scored":
            params["itemised"] = self.itemised(event, names, locale)
        return params

    def awards(self, awards: list[dict[str, Any]], names: Sequence[str], locale: str) -> str:
        """Who a revealed task pays, and for how many cards ("Ann +12 (3 cards)")."""
        return ", ".join(
            t(
                self.key("award"),
                locale,
                name=names[award["seat"]],
                points=award["points"],
                count=len(award["cards"]) if isinstance(award["cards"], list) else award["cards"],
            )
            for award in awards
            if 0 <= award["seat"] < len(names)
        ) or t(self.key("no_award"), locale)

    def itemised(self, event: Mapping[str, Any], names: Sequence[str], locale: str) -> str:
        """A round's points per player, the tasks' bonus apart where there is one."""
        entries = []
        rows = zip(names, event["base"], event["bonus"], event["scores"], strict=False)
        for name, base, bonus, total in rows:
            if bonus:
                entries.append(
                    t(
                        self.key("round_entry"),
                        locale,
                        name=name,
                        base=base,
                        bonus=bonus,
                        count=total,
                    )
                )
            else:
                entries.append(t("common.name_value", locale, name=name, value=total))
        return ", ".join(entries)

    # ---------------------------------------------------------------- views

    def table_lines(self, view: JSON, names: Sequence[str], locale: str) -> list[str]:
        lines = [
            t(self.key("view.round"), locale, round=view["round"], total=view["rounds_total"]),
            t(
                self.key("view.draw_piles"),
                locale,
                first=t("common.cards", locale, count=view["draw_piles"][0]),
                second=t("common.cards", locale, count=view["draw_piles"][1]),
            ),
        ]
        for number, pile in enumerate(view["discard_piles"], start=1):
            lines.append(
                t(
                    self.key("view.discard_pile"),
                    locale,
                    number=number,
                    count=len(pile),
                    top=self.card(pile[-1], locale) if pile else t(self.key("none"), locale),
                )
            )
        lines.append("")
        for seat, name in enumerate(names):
            display = ", ".join(
                t(
                    self.key("view.display_entry"),
                    locale,
                    card=self.card(e["value"], locale),
                    count=e["count"],
                )
                for e in view["displays"][seat]
            ) or t(self.key("none"), locale)
            lines.append(
                t(
                    self.key("view.player"),
                    locale,
                    name=name,
                    count=view["hand_sizes"][seat],
                    display=display,
                    points=t("common.points", locale, count=view["display_points"][seat]),
                )
            )
        ninja = view.get("ninja")
        if ninja:
            lines.append(
                t(
                    self.key("view.ninjas"),
                    locale,
                    supply=ninja["supply"],
                    held=self.seat_scores(ninja["held"], names, locale),
                )
            )
        tasks = view.get("tasks")
        if tasks:
            for record in tasks["revealed"]:
                if record.get("round", view["round"]) != view["round"]:
                    continue  # the scores say what earlier rounds' tasks paid
                lines.append(
                    t(
                        self.key("view.task_revealed"),
                        locale,
                        name=names[record["seat"]],
                        deck=str(record["deck"]).upper(),
                        card=self.card(record["value"], locale),
                    )
                )
        pending = view.get("pending_discard")
        if pending:
            lines.append(
                t(
                    self.key("view.pending"),
                    locale,
                    name=names[pending["seat"]],
                    count=pending["count"],
                    card=self.card(pending["value"], locale),
                )
            )
        return lines

    def round_points(self, view: JSON) -> list[int]:
        """The displays' points: what each seat would score if the round ended now."""
        return list(view["display_points"])

    def hand_notes(
        self, view: JSON, names: Sequence[str], locale: str, *, own: bool = True
    ) -> list[str]:
        tasks = view.get("tasks")
        if not tasks or not tasks.get("mine"):
            return []
        mine = ", ".join(
            t(
                self.key("view.task"),
                locale,
                deck=task["deck"].upper(),
                card=self.card(task["value"], locale),
                bonus=task["bonus"],
            )
            for task in tasks["mine"]
        )
        return [t(self.key("view.my_tasks" if own else "view.tasks_held"), locale, tasks=mine)]
