"""What one seat may see of the table (``None``: a spectator).

Hidden: other hands, face-down defense cards taken from a hand, mercenaries under a stack top,
cards set aside, and the leftover another player peeked at. The face-down card of the move that
ended the game stays visible in the lines because the round-end scoring revealed it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.core import JSON
from games.kami.cards import NAMES, names_of

if TYPE_CHECKING:
    from games.kami.state import KamiState

MODES = {2: "duel", 3: "free_for_all", 4: "teams"}


def table_view(state: KamiState, seat: int | None) -> JSON:
    over = state.seat is None
    last = state.last_round
    revealed_final = over and last is not None and last["revealed_defense"] is not None
    lines = []
    for owner in range(state.num_players):
        defense = []
        count = len(state.defense[owner])
        for index, (card, face_up, mercenary) in enumerate(state.defense[owner]):
            shown = face_up or mercenary or owner == seat
            if revealed_final and owner == last["seat"] and index == count - 1:  # type: ignore[index]
                shown = True
            defense.append(
                {"card": NAMES[card] if shown else None, "face_up": face_up, "mercenary": mercenary}
            )
        attack = [{"card": NAMES[card], "mercenary": merc} for card, merc in state.attack[owner]]
        lines.append({"defense": defense, "attack": attack})
    in_play = not over and state.attacker is not None and state.attack_card is not None
    data: JSON = {
        "mode": MODES[state.num_players],
        "options": dict(state.options),
        "ending": state.options["ending"],
        "target": state.options["target"],
        "teams": [[0, 2], [1, 3]] if state.is_team_game else None,
        "round": state.round,
        "redeals": state.redeals,
        "start_player": state.start_player,
        "opening": state.phase == "lead_defense" and state.opening,
        "hand_sizes": list(state.hand_sizes),
        "lines": lines,
        "current_attack": (
            {"seat": state.attacker, "card": NAMES[state.attack_card]}  # type: ignore[index]
            if in_play
            else None
        ),
        "passes": state.passes if in_play else 0,
        "empress_open": state.empress_open,
        "mercenaries": (
            [
                {"top": NAMES[stack[-1]] if stack else None, "height": len(stack)}
                for stack in state.stacks
            ]
            if state.is_duel
            else None
        ),
        "set_aside": len(state.set_aside) if state.num_players == 3 else None,
        "revealed_soldiers": [dict(entry) for entry in state.revealed_soldiers],
        "demoralized_asked": list(state.demoralized_asked),
        "demoralized_revealer": (
            state.demoralized_queue[0] if state.phase == "demoralized_consent" else None
        ),
        "last_round": None if last is None else dict(last, seats=list(last["seats"])),
        "start_draw": [
            [{"seat": drawer, "card": NAMES[card]} for drawer, card in draw.items()]
            for draw in state.start_draw
        ],
        "hand": None,
        "seen_leftover": None,
    }
    if seat is not None:
        data["hand"] = names_of(state.hands[seat])
        for card, viewer in zip(state.set_aside, state.leftover_seen_by, strict=False):
            if viewer == seat:
                data["seen_leftover"] = NAMES[card]
    return data
