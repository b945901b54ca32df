"""Fog (fog=N, default 4): each player is dealt N cards, the Guide N + 1 with the 4-heli; after every trick
each player draws one card from the pile, clockwise from the Guide's left with the Guide last, until it runs
out, so every hand ends as large as usual.

The draws are chance, drawn with the deal (`arrivals`: when each card reaches its hand), and the crew sees
them, as it sees every hand. A card drawn later is part of its hand from the deal on, so fog trades no cards.
With the Ghost (our reading: the rulebook is silent): his display is laid out whole, and the players are dealt
as fog says.
"""

import numpy as np

from solver.core.cards import CARD_COUNT, bit, popcount, scan
from solver.core.deal import COMMANDER_CARD, Deal, DealError, make_deal
from solver.core.errors import InputError
from solver.core.rules import num_tricks
from solver.trick.spaces.space import Draws, Space, SpaceError, StageSpace
from solver.trick.variants import PlayRules

DEFAULT_FOG_CARDS = 4


class Fog(StageSpace):
    name = "fog"
    effect = "N cards dealt each (the Guide one more), one drawn by everyone after each trick"
    crew_refusal = ""  # a player knows its own draws (solver/missions/fog_worlds.py)
    with_the_ghost = ("his display is laid out whole; the players are dealt as fog says "
                      "(our reading: the rulebook is silent)")

    def parse(self, argument):
        if argument and not argument.isdigit():
            raise SpaceError(f"fog takes the number of cards dealt, e.g. fog=4, got {argument!r}")
        count = int(argument) if argument else DEFAULT_FOG_CARDS
        if count < 1:
            raise SpaceError("fog deals at least 1 card each")
        return Space(self.name, fog_cards=count)

    def argument(self, space):
        return None if space.fog_cards == DEFAULT_FOG_CARDS else str(space.fog_cards)

    def deal(self, space, players, rng):
        deal, arrivals = random_fog_deal(players, space.fog_cards, rng)
        return deal, Draws(arrivals=arrivals)

    def draw(self, space, deal, rng, ghost):
        return Draws(arrivals=fog_arrivals(deal, space.fog_cards, rng, ghost))

    def play_rules(self, space, draws, deal, ghost):
        if not draws.arrivals:
            raise InputError("fog needs the draws of its cards (drawn with the deal)")
        yield "", PlayRules(arrivals=draws.arrivals)


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
        raise DealError(
            f"fog dealing {cards} cards each (the Guide, seat {guide}, one more) cannot end in hands of {sizes}"
        )
    arrivals = [0] * CARD_COUNT
    for seat in clockwise:
        order = [int(c) for c in rng.permutation(sorted(scan(deal.hands[seat] & ~bit(COMMANDER_CARD))))]
        for place, c in enumerate(order):
            arrivals[c] = max(0, place + 1 - cards)
    return tuple(arrivals)


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


FOG = Fog()
