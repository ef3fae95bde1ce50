"""English messages of the ``/rules`` guide (``bot/messages/guide.py``), the lobby options'
explanations and the option conflicts.

Each game's guide is a few pages (``guide.<game>.<page>`` with its ``.title``), written in our
own words from docs/rules/ and the specifications. ``guide.<game>.option.<name>`` explains an
option in one line and ``guide.<game>.option.<name>.<value>`` each of its values (``on``/``off``
for switches); both also serve as the lobby selects' descriptions, so each stays within 100
characters. ``options.conflict.<game>.<reason>`` words an engine's conflict reason.
"""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    # ------------------------------------------------------------------ the guide's frame
    "guide.title": "{game} · {page}",
    "guide.footer": "Page {page} of {pages}",
    "guide.footer_path": "Page {page} of {pages} · the full rules: {path} in the bot's source code",
    "guide.full_rules": "Full rules",
    "guide.options.title": "Options",
    "guide.options.intro": (
        "The host sets these in the lobby's menus before the start, or writes them after "
        "{cmd_play}, for example `{example}`."
    ),
    "guide.option": "**{option}**: {about}",
    "guide.option_for": {
        "one": "**{option}** (only with {count} player): {about}",
        "other": "**{option}** (only with {count} players): {about}",
    },
    "guide.value": "• {value}: {about}",
    "guide.value_default": "• {value} (default): {about}",
    # ------------------------------------------------------------------ option conflicts
    "options.conflict": "{options} do not work together: {reason} Nothing was changed.",
    "options.conflict.option": "{option} ({value})",
    "options.conflict.and": "{first} and {second}",
    "options.conflict.call_to_glory.tasks_need_full_game": (
        "Imperial Tasks are revealed over three rounds, so they need the full game, not the "
        "one-round game."
    ),
    # ------------------------------------------------------------------ Call to Glory
    "guide.call_to_glory.goal.title": "Goal and cards",
    "guide.call_to_glory.goal": (
        "**Goal:** collect characters in your display and score the most points over the rounds "
        "(4 rounds; 3 with Imperial Tasks; 1 in the quick game).\n"
        "**Cards:** 110 cards of nine types. A type's value is also its number of copies: "
        "Emperor 6, Empress 7, Daimyo 8, Shogun 9, Samurai 12, Ninja 14, Envoy 16, Monk 18, "
        "Farmer 20.\n"
        "**Each round** starts afresh: all cards are shuffled, everyone gets 3 cards, the rest "
        "forms two draw piles and both discard piles are empty. Only the scores carry over."
    ),
    "guide.call_to_glory.turn.title": "A turn",
    "guide.call_to_glory.turn": (
        "**1. Draw two cards**, one after the other, from two different places: draw pile 1 or "
        "2, or the top card of discard pile 1 or 2. You see the first card before you choose "
        "the second place.\n"
        "**2. Then exactly one of these:** lay a set from your hand into your display, or "
        "discard one card onto a discard pile (a card you just drew is fine).\n"
        "**Discard piles:** cards always go onto an empty discard pile if there is one; only "
        "when both piles hold cards does the player choose.\n"
        "**No hand limit:** keep as many cards as you like."
    ),
    "guide.call_to_glory.sets.title": "Sets",
    "guide.call_to_glory.sets": (
        "**Size:** a set is 2 or more equal cards; with 3 or 4 players Samurai (12), Ninja (14) "
        "and Envoy (16) need at least 3.\n"
        "**Beating:** if a display (yours too) already shows that type, your set must have more "
        "cards. The old set leaves the table: its owner puts it onto a discard pile of their "
        "choice.\n"
        "**Growing:** you never add cards to a set on the table. To grow yours, lay a larger "
        "set; your old one is discarded.\n"
        "**One of a kind:** each type lies in at most one display, and you lay at most one set "
        "per turn."
    ),
    "guide.call_to_glory.scoring.title": "Round end and scoring",
    "guide.call_to_glory.scoring": (
        "**The round ends** after a turn that leaves one of these true: a display shows 6 "
        "different types (2 players), 5 (3 players) or 4 (4 players); all nine types lie on the "
        "table; a draw pile is empty.\n"
        "**Scoring:** each display scores the values of the types it shows, each type once "
        "however many cards it has: three Farmers and two Monks score 20 + 18 = 38. Cards in "
        "hand score nothing.\n"
        "**Next round:** the player with the lowest total starts (a tie: the lower score in the "
        "round just played).\n"
        "**Game end:** after the last round the highest total wins; a tie goes to the best "
        "single round, and if that ties too the win is shared."
    ),
    "guide.call_to_glory.variants.title": "The two variants",
    "guide.call_to_glory.variants": (
        "**Imperial Tasks:** before round 1 everyone gets three secret task cards, one from "
        "each deck (A pays 5, B 4, C 3). After each of the three rounds everyone reveals one: "
        "each card of the named type in a display earns its owner that bonus.\n"
        "**Ninja:** four ninja figures wait in the supply at the start of each round. Laying a "
        "Ninja set (14) takes one while any are left. At any moment of a later turn of yours, "
        "return a figure to remove one card from another player's display; they discard it.\n"
        "**After a ninja:** a set cut below the minimum size still scores its full value, and "
        "whoever lays that type must still beat what is left."
    ),
    "guide.call_to_glory.example.title": "An example",
    "guide.call_to_glory.example": (
        "Three players. Ann holds two Farmers; she takes a third Farmer from discard pile 1 "
        "and a card from draw pile 2.\n"
        "Ben's display shows two Farmers. Ann lays her three: more cards, so Ben's two leave "
        "his display and he puts them onto a discard pile.\n"
        "Ann's display now shows Farmer, Monk, Shogun and Emperor; with three players a fifth "
        "type would end the round.\n"
        "If the round ended now, Ann would score 20 + 18 + 9 + 6 = 53 points."
    ),
    "guide.call_to_glory.options.example": "rounds=1 ninja=on",
    "guide.call_to_glory.option.rounds": "How many rounds the game lasts.",
    "guide.call_to_glory.option.rounds.4": "The full game: 4 rounds (3 with Imperial Tasks).",
    "guide.call_to_glory.option.rounds.1": "A quick game of one round (not with Imperial Tasks).",
    "guide.call_to_glory.option.imperial_tasks": (
        "Secret task cards pay bonus points for types in the displays; the game has 3 rounds."
    ),
    "guide.call_to_glory.option.imperial_tasks.on": (
        "Everyone gets 3 secret tasks and reveals one after each round for bonus points."
    ),
    "guide.call_to_glory.option.imperial_tasks.off": "No task cards.",
    "guide.call_to_glory.option.ninja": (
        "Laying Ninjas earns figures that remove cards from other players' displays."
    ),
    "guide.call_to_glory.option.ninja.on": (
        "A Ninja set earns a figure; use it later to remove a card from a rival's display."
    ),
    "guide.call_to_glory.option.ninja.off": "Ninjas are an ordinary type.",
    # ------------------------------------------------------------------ Kami
    "guide.kami.goal.title": "Goal and cards",
    "guide.kami.goal": (
        "**Goal:** be the first to empty your hand. Only the card that empties it scores, for "
        "you or your team.\n"
        "**Cards:** 32 cards of eight types: Soldier 1 (10 cards); Spear 2, Horseman 2, Silver "
        "Dragon 3, Gold Dragon 3 (4 of each); Tower 4, Madman 4, Empress 5 (2 of each). The two "
        "dragons are different types.\n"
        "**Players:** four play in two teams, partners sitting opposite, 8 cards each. Three "
        "play alone with 8 cards each (8 stay unused). Two play a Duel: 8 cards each and eight "
        "mercenary stacks in the middle.\n"
        "**Start:** everyone draws a card and the highest begins; after each round the start "
        "moves one seat clockwise."
    ),
    "guide.kami.round.title": "A round",
    "guide.kami.round": (
        "**Lead:** the start player puts one card face down into their defense line, then "
        "attacks with a card face up. Leading is compulsory.\n"
        "**Answer:** clockwise, each other player passes or counters: they lay a card of the "
        "attacked type face up into their defense line, then attack with any card of their own. "
        "Passing is always allowed, even with a fitting card.\n"
        "**After a counter** the counterer is the attacker, and everyone is asked again from "
        "their left, players who passed before too. You may counter your partner.\n"
        "**Everyone passed:** the attacker leads again, a face-down card and then any attack.\n"
        "**Round end:** the moment a hand is empty the round ends; nobody answers that attack."
    ),
    "guide.kami.empress.title": "The Empress",
    "guide.kami.empress": (
        "**Countering:** the Empress counters any attack except a Soldier or a Spear.\n"
        "**Attacking:** she may attack only once the other Empress lies face up in some "
        "defense line (anyone's, your own too), or as the last card of your hand. A face-down "
        "Empress does not count, and neither does holding both.\n"
        "**Both in one move:** counter with one Empress, then attack with the other: allowed, "
        "and nobody can counter that attack."
    ),
    "guide.kami.demoralized.title": "Demoralized (4 players)",
    "guide.kami.demoralized": (
        "**When:** after each deal of a four-player game, a player holding 5 or more Soldiers "
        "may show them.\n"
        "**Then:** their partner decides. A redeal: nothing scores, all cards are shuffled and "
        "the same start player deals again. Or play on: the shown Soldiers stay known to all.\n"
        "**Who is asked:** by default every player in turn, also those with fewer Soldiers, so "
        "the question gives no hand away. The Demoralized option can ask only players with 5 "
        "Soldiers, or switch the rule off."
    ),
    "guide.kami.duel.title": "The Duel (2 players)",
    "guide.kami.duel": (
        "**Mercenaries:** 16 cards lie in eight stacks in the middle, one face down under one "
        "face up. Whenever you place a card (lead, counter or attack), you may take an open "
        "mercenary instead of a hand card; the card below then turns face up.\n"
        "**Same rules:** a mercenary must fit like a hand card (the attacked type for a counter, "
        "the Empress's attack condition). A mercenary Empress is never your last card.\n"
        "**Winning a round:** your last hand card must be an attack. It may not go into defense, "
        "nor may a defense card that would leave you no attack.\n"
        "**Last card, no mercenary left:** it attacks alone, without a defense card; it scores "
        "but never doubles."
    ),
    "guide.kami.scoring.title": "Scoring and the end",
    "guide.kami.scoring": (
        "**Round points:** only the side that empties a hand scores: the points of its final "
        "attack card. Cards left in other hands count nothing.\n"
        "**Masterstroke (double):** a round ending on a lead whose face-down card is the same "
        "type as the attack scores double. A counter never doubles. Best case: Empress under "
        "Empress, 10.\n"
        "**Game end:** with Soldier (default) the first side to reach the target wins. With "
        "Lord the target must be hit exactly; points past it count backwards (17 against 15 "
        "gives 13). With Kami going past the target drops the total to 0.\n"
        "**No ties:** only one side scores a round, so every game has a winner."
    ),
    "guide.kami.example.title": "An example",
    "guide.kami.example": (
        "Four players: Ann and Cem against Ben and Dana. Ann leads a Tower face down and "
        "attacks with a Horseman.\n"
        "Ben and Cem pass. Dana counters with a Horseman and attacks with a Silver Dragon. Ann "
        "counters with a Silver Dragon and attacks with a Spear.\n"
        "Later Ann holds just two cards, both Madmen. When everyone has passed on her attack, "
        "she leads: one Madman face down, the other as the attack.\n"
        "Her hand is empty: the round ends and Ann and Cem score 4 points, doubled to 8 because "
        "the face-down card is a Madman too."
    ),
    "guide.kami.options.example": "target=10 ending=lord",
    "guide.kami.option.ending": "How a side wins: reach the target, or hit it exactly.",
    "guide.kami.option.ending.soldier": "The first side to reach the target score or more wins.",
    "guide.kami.option.ending.lord": (
        "Hit the target exactly; points past it count backwards (17 of 15 gives 13)."
    ),
    "guide.kami.option.ending.kami": "Hit the target exactly; going past it drops the total to 0.",
    "guide.kami.option.target": "The score that ends the game.",
    "guide.kami.option.target.5": "Play to 5 points: a quick game.",
    "guide.kami.option.target.10": "Play to 10 points.",
    "guide.kami.option.target.15": "Play to 15 points: the standard game.",
    "guide.kami.option.target.20": "Play to 20 points.",
    "guide.kami.option.target.25": "Play to 25 points: a long game.",
    "guide.kami.option.target.30": "Play to 30 points: the longest game.",
    "guide.kami.option.three_player_deal": "How many cards each player gets in a 3-player game.",
    "guide.kami.option.three_player_deal.printed": (
        "8 cards each, as printed; the other 8 stay face down, unused."
    ),
    "guide.kami.option.three_player_deal.publisher": (
        "10 cards each (publisher's FAQ); two players each peek at one of the 2 unused cards."
    ),
    "guide.kami.option.lord_clamp": (
        "With the Lord ending: whether a total may fall below 0 (only with small targets)."
    ),
    "guide.kami.option.lord_clamp.on": "A total that would fall below 0 stays at 0.",
    "guide.kami.option.lord_clamp.off": "A total may fall below 0 (14 against a target of 5: -4).",
    "guide.kami.option.demoralized": (
        "A player with 5 Soldiers may show them; their partner may then call a redeal."
    ),
    "guide.kami.option.demoralized.ask_everyone": (
        "Everyone is asked after each deal, so the question reveals nobody's hand."
    ),
    "guide.kami.option.demoralized.ask_eligible": (
        "Only players with 5 Soldiers are asked: quicker, but the table learns who has them."
    ),
    "guide.kami.option.demoralized.off": "No Demoralized check: the start player leads at once.",
    # ------------------------------------------------------------------ Clans and Glory
    "guide.clans_and_glory.goal.title": "Goal and table",
    "guide.clans_and_glory.goal": (
        "**Goal:** win clan members with your shields; their values are your points.\n"
        "**Cards:** seven colours, each with the values 3 to 6 (2 players), 3 to 7 (3 players) "
        "or 3 to 8 (4 players).\n"
        "**The table:** a row of boards, two more than players. Each board has three columns "
        "with a north and a south seat, and the two end boards one more seat by the campfire. "
        "Every board starts with one card face up.\n"
        "**Related seats:** the seats left and right (also across a board's edge) and the seat "
        "opposite in the same column; the two campfire seats face each other."
    ),
    "guide.clans_and_glory.turn.title": "A turn",
    "guide.clans_and_glory.turn": (
        "**1. Seat a card:** put one hand card face up on a free seat whose related seats hold "
        "a face-up card of the same colour or the same value. You cannot pass.\n"
        "**Face down:** only when none of your cards fits anywhere, put one face down on any "
        "free seat. It blocks the seat, matches nothing and never scores; only you know it.\n"
        "**2. A shield, if you like:** stake one of your five shields on the board where your "
        "card went, on top of its stack of shields. At most one per turn."
    ),
    "guide.clans_and_glory.scoring.title": "The end and scoring",
    "guide.clans_and_glory.scoring": (
        "**End:** the game ends when the last player has seated their last card; the others "
        "each keep one card, which is discarded.\n"
        "**Scoring:** each board on its own. Its shields count in the order they were staked: "
        "the first takes all face-up cards of the board's lowest value, the second all cards of "
        "the next value there, and so on. Extra shields take nothing; leftover values go to "
        "nobody.\n"
        "**Winner:** the most points; a tie goes to more cards, then the win is shared."
    ),
    "guide.clans_and_glory.example.title": "An example",
    "guide.clans_and_glory.example": (
        "Board 1 holds the face-up cards 3, 3, 5, 5 and 6; Ann staked the first shield there "
        "and Ben the second.\n"
        "At the end Ann takes both 3s (6 points) and Ben both 5s (10 points); the 6 goes to "
        "nobody.\n"
        "An early shield is safe but cheap; a late one bets on what the board will still hold."
    ),
    "guide.clans_and_glory.options.example": "start_seats=random",
    "guide.clans_and_glory.option.final_turn_shield_allowed": (
        "Whether the last card of the game may still get a shield."
    ),
    "guide.clans_and_glory.option.final_turn_shield_allowed.on": (
        "The last player may stake a shield on their final turn."
    ),
    "guide.clans_and_glory.option.final_turn_shield_allowed.off": (
        "The game ends right after the last card, without a shield."
    ),
    "guide.clans_and_glory.option.start_seats": "Where each board's start card lies.",
    "guide.clans_and_glory.option.start_seats.north_middle": (
        "On the middle north seat of every board."
    ),
    "guide.clans_and_glory.option.start_seats.alternating": (
        "Middle seat, north on the 1st, 3rd, … board and south on the others."
    ),
    "guide.clans_and_glory.option.start_seats.random": "On a random seat of each board.",
    "guide.clans_and_glory.option.cross_board_adjacency": (
        "Whether the edge seats of neighbouring boards are related."
    ),
    "guide.clans_and_glory.option.cross_board_adjacency.on": (
        "A board's edge seat is related to the next board's edge seat beside it."
    ),
    "guide.clans_and_glory.option.cross_board_adjacency.off": (
        "A board's edge seats have no related seat on the next board."
    ),
}
