"""English messages of Clans and Glory: name, rules summary, options, decisions, menus, events."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "clans_and_glory.name": "Clans and Glory",
    "clans_and_glory.rules": (
        "**Goal:** claim the most valuable clan members with your shields.\n"
        "**The table:** a row of boards (two more than players), each with north and south seats; "
        "the two end boards also have a head seat by the campfire.\n"
        "**Your turn:** seat one card from your hand face up next to (or across from) a card of "
        "the same colour or value. Only if no card fits anywhere, seat one face down; it blocks "
        "the seat and never scores. Then you may stake one of your five shields on that board.\n"
        "**Scoring:** when every card is placed, each board's shields are read in the order they "
        "were staked: the first takes all cards of the lowest value, the next the next value, and "
        "so on. Card values are points; most points wins (ties: more cards).\n"
        "**Options:** the final player's last shield, where the start cards lie, and whether seats "
        "relate across board edges."
    ),
    "clans_and_glory.option.final_turn_shield_allowed": "Shield on the final turn",
    "clans_and_glory.option.start_seats": "Start cards",
    "clans_and_glory.option.start_seats.north_middle": "middle north seat",
    "clans_and_glory.option.start_seats.alternating": "alternating north and south",
    "clans_and_glory.option.start_seats.random": "random seat",
    "clans_and_glory.option.cross_board_adjacency": "Neighbours across board edges",
    "clans_and_glory.decision.place": "seat a card face up",
    "clans_and_glory.decision.place_face_down": "seat a card face down (nothing fits face up)",
    "clans_and_glory.decision.shield": "stake a shield on this board or not",
    "clans_and_glory.colour.red": "Red",
    "clans_and_glory.colour.blue": "Blue",
    "clans_and_glory.colour.green": "Green",
    "clans_and_glory.colour.yellow": "Yellow",
    "clans_and_glory.colour.purple": "Purple",
    "clans_and_glory.colour.orange": "Orange",
    "clans_and_glory.colour.black": "Black",
    "clans_and_glory.card": "{colour} {value}",
    "clans_and_glory.face_down": "face-down card",
    "clans_and_glory.none": "none",
    "clans_and_glory.claim": {
        "one": "{name} takes the {value}s ({count} point)",
        "other": "{name} takes the {value}s ({count} points)",
    },
    "clans_and_glory.menu.place": "Seat a card",
    "clans_and_glory.menu.place_face_down": "Seat a card face down",
    # Positions: north and south seats by column (numbered from 1 along the row, like the
    # boards), the two head seats by the campfires by compass point (west = left end).
    "clans_and_glory.position.n": "N{column}",
    "clans_and_glory.position.s": "S{column}",
    "clans_and_glory.position.hl": "W",
    "clans_and_glory.position.hr": "E",
    "clans_and_glory.menu.card": "{arg}",
    "clans_and_glory.menu.board": "Board {arg}",
    "clans_and_glory.menu.position": "Seat {arg}",
    "clans_and_glory.menu.shield": "Stake a shield",
    "clans_and_glory.menu.no_shield": "No shield",
    "clans_and_glory.view.progress": {
        "one": "{count} card seated so far; {last} plays last.",
        "other": "{count} cards seated so far; {last} plays last.",
    },
    "clans_and_glory.view.shields_left": "Shields left: {shields}",
    "clans_and_glory.view.hand_sizes": "Cards in hand: {sizes}",
    "clans_and_glory.view.shield_board": "A shield would go on board {board}.",
    "clans_and_glory.view.board": "**Board {board}** · shields: {stack}",
    "clans_and_glory.view.row.north": "North: {cells}",
    "clans_and_glory.view.row.south": "South: {cells}",
    "clans_and_glory.view.row.head": "Head: {cells}",
    "clans_and_glory.view.empty": "{position} –",
    "clans_and_glory.view.cell": "{position} {card}",
    "clans_and_glory.view.your_face_down": "{card} (face down)",
    "clans_and_glory.view.hand": "**Your hand:** {cards}",
    "clans_and_glory.event.game_started": "Start cards are out; {start_player} begins.",
    "clans_and_glory.event.card_placed": "{seat} seated {card} at {position} on board {board}.",
    "clans_and_glory.event.card_placed_face_down": (
        "{seat} seated a card face down at {position} on board {board}."
    ),
    "clans_and_glory.event.face_down_card": "Your face-down card at {position} is {card}.",
    "clans_and_glory.event.shield_placed": "{seat} staked a shield on board {board}.",
    "clans_and_glory.event.shield_declined": "{seat} kept their shields.",
    "clans_and_glory.event.game_ended": "Every card is placed; the boards are scored.",
    "clans_and_glory.event.board_scored": "Board {board}: {claims}.",
    "clans_and_glory.event.result": {
        "one": "Final points: {points}. Winner: {winners}.",
        "other": "Final points: {points}. Winners: {winners}.",
    },
}
