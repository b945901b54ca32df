"""What a player knows after a special stage's redeal (solver/missions/redeal_worlds.py), by enumeration.

The Journey rules, special stages with five players: "After the 3rd trick you have played 15 cards, of which 3
went onto the table and 12 were discarded. Shuffle those 12 cards and draw 2 of them each. This way, after the
3rd trick you all have 7 cards in hand again."

Random small deals (conftest's redeal: after trick 2, each seat draws as many discards as the others, the rest left
over): two tricks played by the rules, a card of each laid on the table, the discards dealt by a random shuffle,
more random legal play. For every seat, every world (the hands dealt, and who drew which discard) is enumerated by
brute force and checked against the rules themselves (the seat's own hand and draws, the Commander dealt the 4
rocket, every play legal in its hand at the time); `RedealWorlds` counts exactly those, and draws only them, each
about equally often.
"""

import functools
import itertools
import operator
import random
from collections import Counter

import pytest
from conftest import redeals, small_deals
from hypothesis import given, settings
from hypothesis import strategies as st
from test_knowledge import MOST_COUNTED, SAMPLES_PER_DEAL, assert_drawn_are_the_consistent, commander_holds_r4
from test_pass_worlds import splits

from solver.core.cards import bit, card_set, popcount, scan
from solver.core.errors import InputError
from solver.core.rules import legal_plays, trick_winner
from solver.missions.knowledge import Communication
from solver.missions.redeal_worlds import RedealWorlds
from solver.trick.variants import redeal


def play(hands, leader: int, tricks: int, tabled: list[int] | None, rng: random.Random):
    """Play `tricks` tricks of random legal cards from `hands` (changed), `leader` leading the first; return (tricks as
    (seat, card) lists, the next leader), laying a random card of each in `tabled` when given, else leaving the last
    maybe begun."""
    played = []
    players = len(hands)
    for _ in range(tricks):
        trick = []
        for k in range(rng.randint(1, players) if tabled is None and len(played) == tricks - 1 else players):
            seat = (leader + k) % players
            if not hands[seat]:
                return played, leader
            c = rng.choice(list(scan(legal_plays(hands[seat], [card for _, card in trick]))))
            hands[seat] &= ~bit(c)
            trick.append((seat, c))
        played.append(trick)
        if len(trick) < players:
            break
        leader = trick_winner(leader, [c for _, c in trick], players)
        if tabled is not None:
            tabled.append(rng.choice([c for _, c in trick]))
    return played, leader


@st.composite
def redealt_games(draw):
    """A small deal, its first tricks up to the redeal (a card of each on the table), the redeal's order and more
    play: (deal, tricks, tabled, order, after, hands now)."""
    deal = draw(small_deals(max_players=4, min_cards=3, max_cards=3, extra_card=False))
    rules = draw(redeals(deal, forced=True))
    rng = random.Random(draw(st.integers(0, 2**16)))
    hands, tabled = list(deal.hands), []
    tricks, leader = play(hands, deal.commander, rules.redeal_after, tabled, rng)
    discards = card_set(c for trick in tricks for _, c in trick) & ~card_set(tabled)
    hands = list(redeal(tuple(hands), discards, rules.redeal_order))
    more, _ = play(hands, leader, draw(st.integers(0, 2)), None, rng)
    return deal, tricks + more, card_set(tabled), rules.redeal_order, rules.redeal_after, hands


def union(card_sets) -> int:
    """Return the cards of all `card_sets`."""
    return functools.reduce(operator.or_, card_sets, 0)


def consistent(dealt, order, tricks, tabled, after, commander) -> bool:
    """Return True when the hands `dealt` and the redeal's `order` make every play of `tricks` legal, the
    Commander dealt the 4 rocket."""
    if not commander_holds_r4(dealt, commander):
        return False
    held = list(dealt)
    for number, trick in enumerate(tricks):
        if number == after:
            discards = card_set(c for t in tricks[:after] for _, c in t) & ~tabled
            held = list(redeal(tuple(held), discards, order))
        for k, (t, c) in enumerate(trick):
            if not legal_plays(held[t], [card for _, card in trick[:k]]) >> c & 1:
                return False
            held[t] &= ~bit(c)
    return True


def worlds_by_brute_force(deal, tricks, tabled, order, after, seat):
    """Return the slot tuples (K_t, then D_t, then OUT) of every (dealt hands, order) consistent with what `seat`
    saw: its own hand dealt, its own draws."""
    players = deal.players
    before = [card_set(c for t in tricks[:after] for s, c in t if s == p) for p in range(players)]
    discards = card_set(c for t in tricks[:after] for _, c in t) & ~tabled
    taken = [card_set(c for c, taker in zip(scan(discards), order) if taker == p) for p in range(players)]
    sizes = [popcount(hand) for hand in deal.hands]
    others = [p for p in range(players) if p != seat]
    found = set()
    for hands in splits(deal.cards & ~deal.hands[seat], [sizes[p] for p in others], [before[p] for p in others]):
        dealt = [0] * players
        dealt[seat] = deal.hands[seat]
        for p, hand in zip(others, hands):
            dealt[p] = hand
        if not consistent(dealt, order, tricks[:after], tabled, after, deal.commander):
            continue  # the tricks before the redeal alone first: most splits fail them
        for shuffled in set(itertools.permutations(order)):
            drew = [card_set(c for c, taker in zip(scan(discards), shuffled) if taker == p) for p in range(players)]
            if drew[seat] == taken[seat] and consistent(dealt, shuffled, tricks, tabled, after, deal.commander):
                out = discards & ~union(drew)
                found.add(tuple(dealt[p] & ~before[p] for p in range(players)) + tuple(drew) + (out,))
    return found


@settings(max_examples=40, deadline=None)
@given(redealt_games())
def test_the_worlds_after_the_redeal_are_the_consistent_ones_each_about_as_often(game):
    deal, tricks, tabled, order, after, hands = game
    sizes = tuple(popcount(hand) for hand in deal.hands)
    for seat in range(deal.players):
        worlds = RedealWorlds.of(seat, tricks, tabled, hands[seat], order, after, sizes, (), deal.cards,
                                 deal.commander)
        expected = worlds_by_brute_force(deal, tricks, tabled, order, after, seat)
        assert true_world(deal, tricks, tabled, order, after) in expected
        assert worlds.known.count() == len(expected)
        drawn = Counter(worlds.known.samples(random.Random(seat), SAMPLES_PER_DEAL * min(len(expected), MOST_COUNTED)))
        assert_drawn_are_the_consistent(drawn, expected)
        for slots in list(drawn)[:5]:  # a world is a deal again, whose redeal the rules replay
            dealt, shuffled = worlds.world(slots)
            assert consistent(dealt, shuffled, tricks, tabled, after, deal.commander)
            assert dealt[seat] == deal.hands[seat]


def true_world(deal, tricks, tabled, order, after):
    """Return the slots of the game as it was dealt and redealt."""
    players = deal.players
    before = [card_set(c for t in tricks[:after] for s, c in t if s == p) for p in range(players)]
    discards = card_set(c for t in tricks[:after] for _, c in t) & ~tabled
    drew = [card_set(c for c, taker in zip(scan(discards), order) if taker == p) for p in range(players)]
    return tuple(deal.hands[p] & ~before[p] for p in range(players)) + tuple(drew) + (discards & ~union(drew),)


def test_a_communication_is_refused():
    # The crew shows a card only to tell where a task lies, and a special stage has no task.
    with pytest.raises(InputError, match="communicated"):
        RedealWorlds.of(0, [], 0, 0, (0, 1, 2, -1), 2, (3, 3, 3), (Communication(1, 5, None),), card_set(range(9)))
