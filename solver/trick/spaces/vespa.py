"""The Vespa: right before trick 1 the holder of the Vespa card (the blue 1) swaps one card with another member,
neither giving nor taking the 4-heli; the crew chooses the member and both cards, one case (and deal) per swap.

Our reading: the swap is compulsory, as the rule says ("chooses, once, ... and exchanges"); it can be a
harmless one. With the Ghost (the rulebook): it applies to him only if the blue 1 lies face up in his display
before trick 1 (face down, nobody swaps); he gives and takes face-up cards only, and the card he gets lies
where his lay.
"""

import itertools

from solver.core.cards import bit, format_card, parse_card, scan
from solver.core.deal import COMMANDER_CARD, Deal, make_deal
from solver.trick.ghost import GHOST_SEAT
from solver.trick.spaces.space import StageSpace
from solver.trick.variants import ghost_playable, ghost_receives

VESPA_CARD = parse_card("b1")


class Vespa(StageSpace):
    name = "vespa"
    effect = "before trick 1 the blue 1's holder swaps a card (not the 4-heli) with a member of the crew's choice"
    crew_refusal = ""  # the crew swaps, each of the two knowing what it gave (solver/engines/vespa_swap.py)
    swaps_before_play = True
    with_the_ghost = ("he rides only with the blue 1 face up, swapping face-up cards; what he gets lies in its place "
                      "(rulebook)")
    trades_cards = True

    def starting_deals(self, deal, display):
        """Yield (label, deal, display) for every swap the Vespa's holder may make before trick 1."""
        holder = deal.holder(VESPA_CARD)
        ghost = GHOST_SEAT if display else -1
        if holder is None or holder == ghost and VESPA_CARD not in display[: len(display) // 2]:
            yield "", deal, display  # nobody rides the Vespa
            return
        for partner in range(deal.players):
            if partner != holder:
                gives, takes = swappable(deal, holder, display), swappable(deal, partner, display)
                for given, taken in itertools.product(scan(gives), scan(takes)):
                    yield swap(deal, display, holder, given, partner, taken)


def swappable(deal: Deal, seat: int, display: tuple[int, ...]) -> int:
    """Return the cards `seat` may swap on the Vespa: any but the 4-heli, the Ghost's face-up ones only."""
    hand = deal.hands[seat] & ~bit(COMMANDER_CARD)
    return ghost_playable(hand, display) if display and seat == GHOST_SEAT else hand


def swap(deal: Deal, display: tuple[int, ...], holder: int, given: int, partner: int, taken: int):
    """Return (label, deal, display) once `holder` gave `given` to `partner` for `taken`; a card the Ghost gets
    lies where his lay."""
    hands = list(deal.hands)
    hands[holder] = hands[holder] & ~bit(given) | bit(taken)
    hands[partner] = hands[partner] & ~bit(taken) | bit(given)
    label = f"Vespa: seat {holder} gives {format_card(given)} to seat {partner} for {format_card(taken)}"
    shown = display
    if display and holder == GHOST_SEAT:
        shown = ghost_receives(display, (given,), (taken,))
    elif display and partner == GHOST_SEAT:
        shown = ghost_receives(display, (taken,), (given,))
    return label, make_deal(hands, deal.commander), shown


VESPA = Vespa()
