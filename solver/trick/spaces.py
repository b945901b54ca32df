"""Journey's stage spaces: the special rule of the space the crew marker stands on.

A space is named on the command line as `NAME` or `NAME=ARGUMENT`
(`--space skis`, `--space fog=4`, `--space "machete=p3 b5 g2 g6 y4 y9 p8"`).
Spaces that only touch communication, the choice of mission or the campaign
track change nothing in one deal under perfect information (`NO_EFFECT`).

What each space changes in play is in solver/trick/variants.py (`PlayRules`).
The crew's own choices (the dog-sled driver, the Vespa swap) and the
machete's trick rule are made per deal in solver/missions/stage.py.
"""

from dataclasses import dataclass

import numpy as np

from solver.core.cards import (
    CARD_COUNT,
    COLOUR_CARDS,
    bit,
    card_set,
    format_cards,
    parse_card,
    parse_card_list,
    popcount,
    scan,
)
from solver.core.deal import COMMANDER_CARD, Deal, DealError, make_deal
from solver.core.errors import InputError
from solver.core.rules import num_tricks

SKIS_CARD = parse_card("b7")
VESPA_CARD = parse_card("b1")
# The rulebook says 7 colour cards carry a machete but not which: ours, until a designer gives the real ones.
DEFAULT_MACHETE_CARDS = card_set(parse_card_list("p3 p8 b5 g2 g6 y4 y9"))
MACHETE_VALUES = ((15, 16), (20, 21), (25, 26))  # a trick with a machete and one of these totals fails
DEFAULT_FOG_CARDS = 4

PLAY_SPACES = {
    "skis": "after a trick with the blue 7, every hand passes whole to the left",
    "vespa": "before trick 1 the blue 1's holder swaps a card (not the 4-heli) with a member of the crew's choice",
    "machete": "a trick with a machete card totalling 15/16, 20/21 or 25/26 fails the mission "
               "(our placeholder machete cards p3 p8 b5 g2 g6 y4 y9 unless named: the rulebook does not say which)",
    "hang-glider": "a card set aside for the last trick does not count for following suit",
    "helicopter": "after a trick with a heli, every hand passes a card of the crew's choice to the left",
    "dog-sled": "a driver of the crew's choice may open any trick",
    "jeep": "after trick 3 every hand puts two cards in the middle, shuffled, and takes two back",
    "fog": "N cards dealt each (the Guide one more), one drawn by everyone after each trick",
}
# Two players: what a space does with the Ghost: the rulebook's table of special rules, and our
# readings where it is silent (docs/missions.md), each said as such.
WITH_THE_GHOST = {
    "skis": "the players swap hands; his display stays (rulebook)",
    "vespa": "he rides only with the blue 1 face up, swapping face-up cards; what he gets lies in its place (rulebook)",
    "machete": "as for everyone (a face-down card is never in a trick) (our reading: the rulebook is silent)",
    "hang-glider": "no effect on him: he sets no card aside (our reading: the rulebook is silent)",
    "helicopter": "he passes a face-up card; the card he gets lies in its place (the rulebook's 'Fog' row, "
                  "read as the helicopter's: fog passes no card)",
    "dog-sled": "a player drives (our reading: the rulebook is silent; the Ghost decides nothing)",
    "jeep": "he puts two face-up cards in; the two he draws lie in their places, as the Scout chooses "
            "(the rulebook's 'Dragonflier' row)",
    "fog": "his display is laid out whole; the players are dealt as fog says (our reading: the rulebook is silent)",
}
# A card leaves its hand but to be played (the skis move whole hands; fog's deal holds the cards drawn later).
TRADE_CARDS = {"vespa", "helicopter", "jeep"}
JEEP_AFTER = 3
NO_EFFECT = {
    "train": "no special rule",
    "on-foot": "limits which mission the crew picks",
    "bicycle": "limits communication",
    "storm": "limits communication",
    "donkey": "moves the time marker",
    "cable-car": "moves the crew marker after a failure",
    "ice": "moves the crew marker after a failure",
    "ice-hole": "moves the crew marker after a success",
}


class SpaceError(InputError):
    """An unknown stage space or a bad argument to one."""


@dataclass(frozen=True)
class Space:
    """A stage space as chosen: its name, machete cards and fog card count where they apply."""

    name: str = "train"
    machete: int = 0
    fog_cards: int = 0

    def __str__(self) -> str:
        if self.name == "machete" and self.machete != DEFAULT_MACHETE_CARDS:
            return f"machete={format_cards(self.machete)}"
        if self.name == "fog" and self.fog_cards != DEFAULT_FOG_CARDS:
            return f"fog={self.fog_cards}"
        return self.name

    @property
    def changes_play(self) -> bool:
        return self.name in PLAY_SPACES

    @property
    def trades_cards(self) -> bool:
        """Return True when a card may leave the hand it was dealt to but to be played."""
        return self.name in TRADE_CARDS


TRAIN = Space()


def parse_space(text: str) -> Space:
    """Return the space written as NAME or NAME=ARGUMENT."""
    name, _, argument = text.strip().partition("=")
    name = name.strip().lower().replace("_", "-").replace(" ", "-")
    argument = argument.strip()
    if name not in PLAY_SPACES and name not in NO_EFFECT:
        known = ", ".join([*PLAY_SPACES, *NO_EFFECT])
        raise SpaceError(f"unknown stage space {name!r} (known: {known})")
    if name == "machete":
        cards = card_set(parse_card_list(argument)) if argument else DEFAULT_MACHETE_CARDS
        if not cards or cards & ~COLOUR_CARDS:
            raise SpaceError(f"machete cards must be colour cards, got {argument!r}")
        return Space(name, machete=cards)
    if name == "fog":
        if argument and not argument.isdigit():
            raise SpaceError(f"fog takes the number of cards dealt, e.g. fog=4, got {argument!r}")
        count = int(argument) if argument else DEFAULT_FOG_CARDS
        if count < 1:
            raise SpaceError("fog deals at least 1 card each")
        return Space(name, fog_cards=count)
    if argument:
        raise SpaceError(f"stage space {name} takes no argument, got {argument!r}")
    return Space(name)


def fog_arrivals(deal: Deal, cards: int, rng: np.random.Generator, ghost: int = -1) -> tuple[int, ...]:
    """Draw when each card of `deal` reaches its holder's hand under fog with `cards` dealt each.

    The Guide (holder of r4) is dealt r4 and `cards` more, everyone else `cards`; after
    each trick every player draws one card from the pile, clockwise from the Guide's
    left and the Guide last, until it runs out. Given who ends up with which cards,
    every order of a hand's other cards is as likely, so each hand's order is a random
    permutation (r4 first for the Guide). Returns, per card, the trick after which it
    arrives (0: dealt). The Ghost's seat (`ghost`), a display, is dealt whole.
    """
    guide = deal.commander
    if deal.holder(COMMANDER_CARD) != guide:
        raise DealError("fog needs r4 dealt: the Guide holds it from the start")
    tricks = num_tricks(deal.hands)
    clockwise = [(guide + offset) % deal.players for offset in range(1, deal.players + 1)]
    clockwise = [seat for seat in clockwise if seat != ghost]
    draws = [popcount(deal.hands[seat]) - cards - (seat == guide) for seat in clockwise]
    if min(draws) < 0 or max(draws) >= tricks or draws != sorted(draws, reverse=True) or draws[0] - draws[-1] > 1:
        sizes = "/".join(str(popcount(hand)) for hand in deal.hands)
        raise DealError(f"fog dealing {cards} cards each (the Guide, seat {guide}, one more) cannot end in hands of {sizes}")
    arrivals = [0] * CARD_COUNT
    for seat in clockwise:
        order = [int(c) for c in rng.permutation(sorted(scan(deal.hands[seat] & ~bit(COMMANDER_CARD))))]
        dealt = cards
        for place, c in enumerate(order):
            arrivals[c] = max(0, place + 1 - dealt)
    return tuple(arrivals)


def draw_jeep_order(players: int, rng: np.random.Generator) -> tuple[int, ...]:
    """Draw the jeep's shuffle: the seat taking each card of the middle, lowest card first (two each)."""
    return tuple(int(seat) for seat in rng.permutation([seat for seat in range(players) for _ in range(2)]))


def random_fog_deal(players: int, cards: int, rng: np.random.Generator) -> tuple[Deal, tuple[int, ...]]:
    """Deal as fog does and return the deal of every card each seat ends up with, and the arrivals.

    A random seat is the Guide; the pile is drawn one card a seat per round, clockwise
    from the Guide's left, while it lasts (see `fog_arrivals`, which draws the order).
    """
    guide = int(rng.integers(players))
    rest = [int(c) for c in rng.permutation([c for c in range(CARD_COUNT) if c != COMMANDER_CARD])]
    if cards < 1:
        raise DealError(f"fog deals at least 1 card each, got {cards}")
    hands = [0] * players
    hands[guide] = bit(COMMANDER_CARD)
    for place, c in enumerate(rest):  # `cards` each, then a card each per round: the same sizes
        hands[(guide + 1 + place) % players] |= bit(c)
    deal = make_deal(hands)
    return deal, fog_arrivals(deal, cards, rng)
