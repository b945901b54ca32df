"""Two players: a third seat, the Ghost (Journey) or JARVIS (Planet Nine), whose cards lie in a display.

Journey: set the 4-heli aside, lay 14 of the other 39 cards out in 7 columns,
a face-down card under a face-up one, and deal the rest with the 4-heli, 13
each, to the two players. Planet Nine: set all four rockets aside instead. The
display's seat is seat 2, so the play goes 0, 1, Ghost; seats are only names,
and the Guide (Commander), holder of the 4, is seat 0 or 1. What the display
changes in play is in solver/trick/variants.py.

Notation: the display is written as seat 2's hand, its face-up cards, a `/`,
and the face-down cards under them in the same order:
`p1 b2 ... | ... | g3 y4 p6 b8 g1 y2 r2 / p2 b3 g4 y5 p7 b9 g2`.
"""

import numpy as np

from solver.core.cards import CARD_COUNT, TRUMPS, bit, card_set, format_card, format_cards, parse_card_list
from solver.core.deal import COMMANDER_CARD, Deal, DealError, make_deal

GHOST_SEAT = 2
COLUMNS = 7
DISPLAY_MARK = "/"
SET_ASIDE = {"journey": bit(COMMANDER_CARD), "planet-nine": TRUMPS}  # never in the display


def random_ghost_deal(game: str, rng: np.random.Generator) -> tuple[Deal, tuple[int, ...]]:
    """Deal for two players and return the deal (seat 2 holds the display's cards) and the display.

    Planet Nine sets its rockets aside; Journey, and any other game, the 4-heli.
    """
    aside = SET_ASIDE.get(game, SET_ASIDE["journey"])
    rest = [int(c) for c in rng.permutation([c for c in range(CARD_COUNT) if not aside & bit(c)])]
    display = tuple(rest[: 2 * COLUMNS])
    players = [*rest[2 * COLUMNS :], *(c for c in range(CARD_COUNT) if aside & bit(c))]
    players = [int(c) for c in rng.permutation(players)]
    hands = [card_set(players[0::2]), card_set(players[1::2]), card_set(display)]
    return make_deal(hands), display


DISPLAY_OF = {"journey": "the Ghost's display", "planet-nine": "JARVIS's display"}
ASIDE_WORDS = {"journey": "the 4-heli goes to a player", "planet-nine": "the rockets are set aside when it is laid out"}


def parse_ghost_deal(text: str, commander: int | None = None, game: str = "journey") -> tuple[Deal, tuple[int, ...]]:
    """Return the deal and display written as `HAND | HAND | FACE-UP / FACE-DOWN` (see above), for `game`'s
    two-player seat (JARVIS in Planet Nine, the Ghost in Journey): its display never holds what the game sets
    aside, and the two hands hold as many cards each, the display as many or one more."""
    parts = text.split("|")
    if len(parts) != 3 or DISPLAY_MARK not in parts[GHOST_SEAT] or any(DISPLAY_MARK in p for p in parts[:2]):
        raise DealError(f"a two-player deal is HAND | HAND | FACE-UP {DISPLAY_MARK} FACE-DOWN (the Ghost's display)")
    display = DISPLAY_OF.get(game, DISPLAY_OF["journey"])
    up_text, down_text = parts[GHOST_SEAT].split(DISPLAY_MARK, 1)
    up, down = parse_card_list(up_text), parse_card_list(down_text)
    if len(up) != len(down) or not up:
        raise DealError(f"{display} needs one face-down card under each face-up card, got {len(up)} and {len(down)}")
    if len(up + down) != len(set(up + down)):
        raise DealError(f"a card is twice in {display}")
    aside = card_set(up + down) & SET_ASIDE.get(game, SET_ASIDE["journey"])
    if aside:
        raise DealError(f"{display} cannot hold {format_cards(aside)}: {ASIDE_WORDS.get(game, ASIDE_WORDS['journey'])}")
    hands = [card_set(parse_card_list(part)) for part in parts[:2]] + [card_set(up + down)]
    sizes = [bin(hand).count("1") for hand in hands]
    if sizes[0] != sizes[1] or not 0 <= sizes[2] - sizes[0] <= 1:
        raise DealError(f"the two players hold {sizes[0]} and {sizes[1]} cards and {display} {sizes[2]}: the players "
                        "hold as many cards each, the display as many or one more")
    return make_deal(hands, commander), (*up, *down)


def format_ghost_deal(deal: Deal, display: tuple[int, ...]) -> str:
    """Return the notation of a two-player deal with its display."""
    return f"{format_cards(deal.hands[0])} | {format_cards(deal.hands[1])} | {format_display(display)}"


def format_display(display: tuple[int, ...]) -> str:
    """Return the notation of a display: its face-up cards, `/`, the face-down cards under them."""
    columns = len(display) // 2
    up = " ".join(format_card(c) for c in display[:columns])
    down = " ".join(format_card(c) for c in display[columns:])
    return f"{up} {DISPLAY_MARK} {down}"
