"""What a player knows after mission 12's random pass (solver/missions/pass_worlds.py), by enumeration.

planet-nine.md, mission 12: "Right after trick 1 every player gives one card chosen uniformly at random from
his hand (his communicated card excluded) to the next player in turn order (left); all draws are made before
any card moves."

Random small deals: cards shown before trick 1, trick 1 played by the rules, a random pass (each seat gives a
card of its hand other than the one it showed), more random legal play and more cards shown. For every seat,
every world (the hands dealt and the gifts) is enumerated by brute force and checked against the rules
themselves (the seat's own hand and the gifts it saw, every play legal in its hand at the time, every token true
of the hand it was shown from, no shown card given); `PassWorlds` counts exactly those, and draws only them,
each about equally often.
"""

import itertools
import random
from collections import Counter

from conftest import small_deals
from hypothesis import given, settings
from hypothesis import strategies as st
from test_knowledge import (
    MOST_COUNTED,
    SAMPLES_PER_DEAL,
    assert_drawn_are_the_consistent,
    commander_holds_r4,
    true_token,
)

from solver.core.cards import COLOURS, bit, card_set, popcount, scan, suit_of
from solver.core.rules import legal_plays, trick_winner
from solver.missions.knowledge import Communication
from solver.missions.pass_worlds import PassWorlds, shown_last
from solver.trick.chance import RandomPass


def pass_cards(hands, gifts):
    """Return the hands after each seat gives its gift to the next seat."""
    players = len(hands)
    return [hand & ~bit(gifts[t]) | bit(gifts[(t - 1) % players]) for t, hand in enumerate(hands)]


@st.composite
def passed_games(draw):
    """A deal, its cards shown, its tricks ((seat, card) lists, trick 1 first, the last maybe begun), the
    gifts of the pass after trick 1."""
    deal = draw(small_deals(min_players=3, max_players=4, min_cards=3, max_cards=4, extra_card=False))
    players, hands = deal.players, list(deal.hands)
    shown = [show(draw, hands, seat, 1) for seat in draw(st.lists(st.integers(0, players - 1), unique=True, max_size=2))]
    shown = [s for s in shown if s is not None]
    tricks, trick, leader = [], [], deal.commander
    total = sum(bin(h).count("1") for h in hands)
    plays = draw(st.integers(players, total), label="plays")
    gifts = ()
    for _ in range(plays):
        seat = (leader + len(trick)) % players
        c = draw(st.sampled_from(list(scan(legal_plays(hands[seat], [c for _, c in trick])))), label="card")
        hands[seat] &= ~bit(c)
        trick.append((seat, c))
        if len(trick) < players:
            continue
        leader = trick_winner(leader, [c for _, c in trick], players)
        tricks.append(trick)
        trick = []
        if len(tricks) == 1:
            excluded = {s.seat: s.card for s in shown}
            gifts = tuple(draw(st.sampled_from([c for c in scan(hands[t]) if c != excluded.get(t)]), label="gift")
                          for t in range(players))
            hands = pass_cards(hands, gifts)
        if not any(hands):
            break
        silent = [t for t in range(players) if t not in {s.seat for s in shown}]
        if silent and draw(st.booleans(), label="show after the pass"):  # before the next trick
            said = show(draw, hands, draw(st.sampled_from(silent), label="seat"), len(tricks) + 1)
            shown += [said] if said is not None else []
    return deal, tuple(shown), tricks + ([trick] if trick else []), gifts


def show(draw, hands, seat: int, trick: int) -> Communication | None:
    colours = [c for c in scan(hands[seat]) if suit_of(c) in COLOURS]
    if not colours:
        return None
    c = draw(st.sampled_from(colours), label="shown")
    token = true_token(hands[seat], c) if draw(st.booleans(), label="token") else None
    return Communication(seat, c, token, trick)


def worlds_by_brute_force(deal, shown, tricks, gifts, seat):
    """Return every (hands dealt, gifts) the rules allow, seen from `seat` (its hand dealt and the gifts it gave and
    got as they were), as slot tuples (kept cards per seat, then each gift)."""
    players = deal.players
    sizes = [bin(h).count("1") for h in deal.hands]
    others = [t for t in range(players) if t != seat]
    found = set()
    rest = deal.cards & ~deal.hands[seat]
    opening = [card_set(c for s, c in tricks[0] if s == t) for t in others]  # in the hands dealt
    for split in splits(rest, [sizes[t] for t in others], opening):
        hands = list(deal.hands)
        for t, hand in zip(others, split):
            hands[t] = hand
        if not commander_holds_r4(hands, deal.commander) or not allowed(hands, shown, tricks[:1], None):
            continue  # trick 1 alone first: most splits fail it
        after_first = [h & ~card_set(c for s, c in tricks[0] if s == t) for t, h in enumerate(hands)]
        for guess in itertools.product(*[sorted(scan(h)) for h in after_first]):
            if guess[seat] != gifts[seat] or guess[(seat - 1) % players] != gifts[(seat - 1) % players]:
                continue
            if allowed(hands, shown, tricks, guess):
                kept = tuple(h & ~bit(g) for h, g in zip(after_first, guess))
                found.add(kept + tuple(bit(g) for g in guess))
    return found


def splits(cards: int, sizes, holding=()):
    """Yield every split of `cards` into hands of `sizes`, in order, the k-th holding the cards `holding[k]` (none
    past its end): a brute force enumerates only the hands dealt that hold what their seats played before any
    card could reach them, and checks every rule on those (the others break one: this file's brute force took
    17 s, 4 s with it)."""
    if not sizes:
        yield ()
        return
    held = holding[0] if holding else 0
    if held & ~cards or popcount(held) > sizes[0]:
        return
    for chosen in itertools.combinations(sorted(scan(cards & ~held)), sizes[0] - popcount(held)):
        hand = held | card_set(chosen)
        for more in splits(cards & ~hand, sizes[1:], holding[1:]):
            yield (hand, *more)


def allowed(hands, shown, tricks, gifts) -> bool:
    """Return True when the hands dealt and gifts make every play legal, every token true and no shown card given
    (gifts None: `tricks` is trick 1 alone, and the tokens shown before it are checked)."""
    held = list(hands)

    def true_of_hands(number: int) -> bool:
        """Whether the cards shown before trick `number` were in their hands then, with true tokens."""
        return all(held[s.seat] >> s.card & 1 and (s.token is None or true_token(held[s.seat], s.card) == s.token)
                   for s in shown if s.trick == number)

    for number, trick in enumerate(tricks, 1):
        if not true_of_hands(number):
            return False
        for k, (t, c) in enumerate(trick):
            if not legal_plays(held[t], [card for _, card in trick[:k]]) >> c & 1:
                return False
            held[t] &= ~bit(c)
        if gifts is None:
            return True
        if number == 1:
            if any(gifts[s.seat] == s.card for s in shown if s.trick == 1):
                return False
            held = pass_cards(held, gifts)
    return true_of_hands(len(tricks) + 1)


@settings(max_examples=60, deadline=None)
@given(passed_games())
def test_the_worlds_after_the_pass_are_the_consistent_ones_each_about_as_often(game):
    deal, shown, tricks, gifts = game
    players = deal.players
    sizes = tuple(bin(h).count("1") for h in deal.hands)
    for seat in range(players):
        first = card_set(c for s, c in tricks[0] if s == seat)
        kept = deal.hands[seat] & ~first & ~bit(gifts[seat])
        worlds = PassWorlds.of(seat, tricks, kept, gifts[seat], gifts[(seat - 1) % players], sizes, shown, deal.cards,
                               deal.commander)
        expected = worlds_by_brute_force(deal, shown, tricks, gifts, seat)
        true_world = tuple(h & ~card_set(c for s, c in tricks[0] if s == t) & ~bit(gifts[t])
                           for t, h in enumerate(deal.hands)) + tuple(bit(g) for g in gifts)
        assert true_world in expected and worlds.known.consistent(true_world)
        assert worlds.known.count() == len(expected)
        drawn = Counter(worlds.known.samples(random.Random(seat), SAMPLES_PER_DEAL * min(len(expected), MOST_COUNTED)))
        assert_drawn_are_the_consistent(drawn, expected)


def test_a_world_replays_its_own_pass():
    # A world is a deal again: each seat's hand dealt, and a pass whose order lists the gifts first, so that
    # "every player gives one card ... to the next player in turn order (left)" gives the world's gifts.
    deal_cards = card_set(range(12))
    tricks = [[(0, 0), (1, 1), (2, 2)]]
    worlds = PassWorlds.of(0, tricks, card_set([3, 4]), 5, 6, (4, 4, 4), (), deal_cards)
    for slots in worlds.known.samples(random.Random(1), 20):
        hands, random_pass = worlds.world(slots)
        assert random_pass.given([h & ~bit(first) for h, first in zip(hands, (0, 1, 2))]) == tuple(
            slots[3 + t].bit_length() - 1 for t in range(3))
        assert hands[0] == card_set([0, 3, 4, 5]) and hands[2] >> 6 & 1


def test_a_card_shown_before_the_pass_goes_last():
    # "his communicated card excluded": it is never the first of its hand in the order, every other card keeps
    # its place relative to the others.
    order = tuple(range(40))
    moved = shown_last(RandomPass(1, order), [Communication(0, 3, None, 1), Communication(1, 7, None, 2)])
    assert moved.order == (*[c for c in order if c != 3], 3)
