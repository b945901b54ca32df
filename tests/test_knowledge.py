"""What a player knows (solver/missions/knowledge.py), against the rules, by enumeration on small deals.

Random small deals, random legal play from trick 1 (plain rules: follow suit when you can) and
random communications, each made before a trick played or the next (a card with its true token in
the hand it held then, or none). For every seat:
the true deal is consistent with what it knows; the consistent deals, enumerated by brute force
and checked against the rules themselves (every play legal in its hand at the time, every token
true of the hand it was shown from), are exactly as many as `count` says; every sample is one of
them, and over many samples each turns up about equally often.
"""

import itertools
import math
import random
from collections import Counter

import pytest
from conftest import small_deals
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.core.cards import COLOURS, SUIT_MASKS, bit, highest, lowest, parse_card, parse_cards, scan, suit_of
from solver.core.deal import COMMANDER_CARD, parse_deal
from solver.core.errors import InputError
from solver.core.rules import legal_plays, trick_winner
from solver.missions.knowledge import HIGHEST, LOWEST, ONLY, Communication, Knowledge, seat_list, splits_of

SAMPLES_PER_DEAL = 40  # expected draws of each consistent deal: missing one has odds of e^-40
MOST_COUNTED = 60  # more consistent deals than this: samples are checked to be consistent, not counted


@st.composite
def games_so_far(draw, deal):
    """Random legal plays from trick 1: the tricks as (seat, card) lists (the last maybe begun), the hands now."""
    hands, leader, tricks, trick = list(deal.hands), deal.commander, [], []
    for _ in range(draw(st.integers(0, sum(bin(h).count("1") for h in deal.hands)), label="plays")):
        seat = (leader + len(trick)) % deal.players
        legal = legal_plays(hands[seat], [c for _, c in trick])
        if not legal:
            break
        c = draw(st.sampled_from(list(scan(legal))), label="card")
        hands[seat] &= ~bit(c)
        trick.append((seat, c))
        if len(trick) == deal.players:
            leader = trick_winner(leader, [c for _, c in trick], deal.players)
            tricks.append(trick)
            trick = []
    return tricks + ([trick] if trick else []), tuple(hands)


def true_token(hand: int, c: int) -> str | None:
    """Return the token a card shown from `hand` may carry: its true place in its colour, None in the middle."""
    suit = hand & SUIT_MASKS[suit_of(c)]
    return ONLY if suit == bit(c) else HIGHEST if highest(suit) == c else LOWEST if lowest(suit) == c else None


def shown_truly(held, shown) -> bool:
    """Return True when every card `shown` lay in its seat's hand before its trick (`held`: the hands before each
    trick), with its true token (or none)."""
    return all(held[s.trick - 1][s.seat] >> s.card & 1 and (s.token is None or
               true_token(held[s.trick - 1][s.seat], s.card) == s.token) for s in shown)


def hand_before(first: int, seat: int, tricks, trick: int) -> int:
    """Return `seat`'s hand before trick `trick` (1-based): its `first` hand less what it played before."""
    return first & ~sum(bit(c) for t in tricks[: trick - 1] for s, c in t if s == seat)


@st.composite
def communications(draw, deal, tricks):
    """Up to two cards shown by different seats, each before a trick up to the next one to begin, each with its
    true token (or in a dead zone)."""
    shown = []
    for seat in draw(st.lists(st.integers(0, deal.players - 1), unique=True, max_size=2), label="seats"):
        trick = draw(st.integers(1, sum(len(t) == deal.players for t in tricks) + 1), label="before trick")
        hand = hand_before(deal.hands[seat], seat, tricks, trick)
        colours = [c for c in scan(hand) if suit_of(c) in COLOURS]
        if colours:
            c = draw(st.sampled_from(colours), label="shown")
            token = true_token(hand, c) if draw(st.booleans(), label="token") else None
            shown.append(Communication(seat, c, token, trick))
    return tuple(shown)


def cards_shown(draw, held, seats) -> tuple:
    """Up to two cards shown by different seats of `seats`, each before a trick up to the next one, from the hand
    its seat held then (`held`: the hands before each trick, the next included), with its true token (or none)."""
    shown = []
    for seat in draw(st.lists(st.sampled_from(seats), unique=True, max_size=2), label="seats"):
        trick = draw(st.integers(1, len(held)), label="before trick")
        hand = held[trick - 1][seat]
        colours = [c for c in scan(hand) if suit_of(c) in COLOURS]
        if colours:
            c = draw(st.sampled_from(colours), label="shown")
            shown.append(Communication(seat, c, true_token(hand, c) if draw(st.booleans(), label="token") else None,
                                       trick))
    return tuple(shown)


def brute_force(deal, tricks, hands, seat, shown):
    """Return every deal of the hands now that the rules allow, seen from `seat`: its hand as it is, every
    other hand of its size, every play legal in its hand at the time, every token true of its first hand."""
    played = {(s, c) for trick in tricks for s, c in trick}
    others = [s for s in range(deal.players) if s != seat]
    found = set()

    def deal_out(left: int, rest: list[int], now: list[int]):
        if not rest:
            if allowed(now, tricks, shown, played, deal.commander):
                found.add(tuple(now))
            return
        s = rest[0]
        for cards in itertools.combinations(sorted(scan(left)), bin(hands[s]).count("1")):
            now[s] = sum(bit(c) for c in cards)
            deal_out(left & ~now[s], rest[1:], now)

    unseen = sum(hands[s] for s in others)
    deal_out(unseen, others, [hands[seat] if s == seat else 0 for s in range(deal.players)])
    return found


def commander_holds_r4(dealt, commander: int) -> bool:
    """"Commander: the holder of the 4 rocket" (the rules' glossary): True when the hands as dealt give the 4 rocket,
    if dealt at all, to the Commander's seat."""
    r4 = bit(COMMANDER_CARD)
    return not any(hand & r4 for hand in dealt) or bool(dealt[commander] & r4)


def allowed(now, tricks, shown, played, commander: int = 0) -> bool:
    """Return True when the hands now make every play legal and every shown token true, the Commander holding the
    4 rocket."""
    first = list(now)
    for s, c in played:
        first[s] |= bit(c)
    if not commander_holds_r4(first, commander):
        return False
    held = list(first)
    for trick in tricks:
        for k, (s, c) in enumerate(trick):
            if not legal_plays(held[s], [card for _, card in trick[:k]]) >> c & 1:
                return False
            held[s] &= ~bit(c)
    then = [(s, hand_before(first[s.seat], s.seat, tricks, s.trick)) for s in shown]
    return all(hand >> s.card & 1 and (s.token is None or true_token(hand, s.card) == s.token) for s, hand in then)


@settings(max_examples=60, deadline=None)
@given(small_deals(max_players=4, min_cards=2, max_cards=3).flatmap(lambda deal: games_so_far(deal).flatmap(
    lambda game: st.tuples(st.just(deal), st.just(game), communications(deal, game[0])))))
def test_samples_are_the_consistent_deals_each_about_as_often(drawn):
    deal, (tricks, hands), shown = drawn
    sizes = tuple(bin(h).count("1") for h in hands)
    for seat in range(deal.players):
        known = Knowledge.of(seat, hands[seat], sizes, tricks, shown, deck=deal.cards, commander=deal.commander)
        assert known.consistent(hands)
        expected = brute_force(deal, tricks, hands, seat, shown)
        assert hands in expected and known.count() == len(expected)
        assert {h for h in expected if known.consistent(h)} == expected
        drawn_deals = Counter(known.samples(random.Random(seat), SAMPLES_PER_DEAL * min(len(expected), MOST_COUNTED)))
        one_by_one = random.Random(seat)  # one call draws what as many calls of `sample` draw
        assert known.samples(random.Random(seat), 5) == [known.sample(one_by_one) for _ in range(5)]
        assert_drawn_are_the_consistent(drawn_deals, expected)


def assert_drawn_are_the_consistent(drawn: Counter, expected: set):
    """Fail when a drawn deal is not among the `expected` (the consistent ones, by brute force) or, with few enough
    of them to count, when one was never drawn or they were drawn unequally often."""
    assert set(drawn) <= expected  # none inconsistent
    if len(expected) <= MOST_COUNTED:
        assert set(drawn) == expected  # none missing
        assert_about_equally_often(drawn, len(expected))


def assert_about_equally_often(counts: Counter, cells: int):
    """Fail when the draws' chi-square statistic against equal odds lies in its upper tail of probability about
    3e-7 (Wilson and Hilferty's normal approximation at z = 5, cautious with few cells; the seeds are fixed: the test
    is deterministic). Mean plus 6 standard deviations, the bound before, is a tail of 0.002 with two cells: 200
    helicopter examples (test_heli_worlds.py) met it once, 54 against 26 draws of two worlds drawn alike."""
    each = sum(counts.values()) / cells
    statistic = sum((n - each) ** 2 / each for n in counts.values()) + (cells - len(counts)) * each
    freedom = max(cells - 1, 1)
    bound = freedom * (1 - 2 / (9 * freedom) + 5 * math.sqrt(2 / (9 * freedom))) ** 3
    assert statistic <= bound, (statistic, cells)


# --- by hand ---

# Seat 0 leads p5; seat 1 plays b2: "Only a player who has no card of the type led may play any card of
# their choice", so seat 1 holds no pink. Seat 2 showed g7 as its highest green before trick 1: "put the
# token at its top ... to mean ... that it is the highest ... card of that colour in hand". A highest card is
# one of several: a lone green would have been shown as the "only" card of that colour (the middle place).
DEAL = parse_deal("p5 b9 g1 | b2 g2 y1 | g7 g3 p1", 0)


def test_a_discard_shows_a_void_and_a_token_bounds_a_colour():
    tricks = [[(0, parse_card("p5")), (1, parse_card("b2"))]]
    shown = (Communication(2, parse_card("g7"), HIGHEST),)
    known = Knowledge.of(0, parse_cards("b9 g1"), (2, 2, 3), tricks, shown, deck=DEAL.cards)
    assert known.cannot[1] & parse_cards("p1") and known.must[2] == parse_cards("g7")
    assert known.unseen == parse_cards("g2 y1 g3 p1")
    # p1 can only be seat 2's; seat 2's other unseen card is a green below g7 (g2 or g3), seat 1 has the two left.
    assert known.count() == 2
    assert not known.consistent((parse_cards("b9 g1"), parse_cards("g2 g3"), parse_cards("g7 y1 p1")))
    for seed in range(20):
        hands = known.sample(random.Random(seed))
        assert hands[2] & parse_cards("g7 p1") == parse_cards("g7 p1") and hands[2] & parse_cards("g2 g3")
        assert known.consistent(hands)


def test_a_card_played_after_it_was_shown_can_be_the_other_one():
    # Seat 2 showed g7 as its highest green before trick 1 and played g3 in trick 1: the green below g7 it held
    # then is played, so its last unseen card is any of those left. Shown before trick 2 instead, g3 was gone
    # by then and another green must still be in seat 2's hand.
    tricks = [[(0, parse_card("g1")), (1, parse_card("g2")), (2, parse_card("g3"))]]
    for trick, count in ((1, 3), (2, 1)):
        shown = (Communication(2, parse_card("g7"), HIGHEST, trick),)
        known = Knowledge.of(0, parse_cards("p5 b9"), (2, 2, 2), tricks, shown,
                             deck=parse_cards("p5 b9 g1 b2 g2 y1 g7 g3 g4"))
        assert known.count() == count  # unseen b2 y1 g4: seat 2 holds any one of them, or (trick 2) g4


def test_a_void_tilts_no_deal_over_another():
    # Seat 1 discarded on a pink lead (holds no pink): the two pinks go to seats 2 and 3, both to one seat or
    # one each, and the four other cards fill what is left. Each of the consistent deals is equally likely.
    tricks = [[(0, parse_card("p9")), (1, parse_card("b1")), (2, parse_card("p8")), (3, parse_card("p7"))]]
    deck = parse_cards("p9 b1 p8 p7 y9 p1 p2 g1 g2 g3 g4")
    known = Knowledge.of(0, parse_cards("y9"), (1, 2, 2, 2), tricks, (), deck=deck)
    # Both pinks with seat 2 (or 3): 4 cards fill 2 + 2 (6 ways each); one each (2 ways): 4 fill 2+1+1 (12).
    assert known.count() == 2 * 6 + 2 * 12
    rng = random.Random(1)
    assert_about_equally_often(Counter(known.sample(rng) for _ in range(SAMPLES_PER_DEAL * 36)), 36)


def test_no_consistent_deal_is_one_line():
    # Seat 1 showed p9 as its only pink but the only other place for p1 is seat 1.
    known = Knowledge.of(0, parse_cards("b9"), (1, 2), [], (Communication(1, parse_card("p9"), ONLY),),
                         deck=parse_cards("b9 p9 p1"))
    assert known.count() == 0
    with pytest.raises(InputError, match="no deal of the unseen cards agrees with what seat 0 knows"):
        known.sample(random.Random(0))


def test_samples_depend_only_on_the_seed():
    known = Knowledge.of(0, parse_cards("p5 b9 g1"), (3, 3, 3), [], (), deck=DEAL.cards)
    assert known.count() == 20  # 3 of the 6 other cards for seat 1
    first = [known.sample(random.Random(7)) for _ in range(5)]
    assert first == [known.sample(random.Random(7)) for _ in range(5)]
    assert len({known.sample(random.Random(seed)) for seed in range(50)}) > 1


def test_rockets_are_never_communicated():
    with pytest.raises(InputError, match="rockets cannot be communicated"):
        Communication(0, parse_card("r1"), HIGHEST)


def test_a_card_shown_on_the_bicycle_says_its_hand_holds_no_bicycle_card():
    # "Only a player who has no (more) bicycle card in hand may communicate": seat 1, showing y1, holds neither p2 nor
    # b3 (bicycle cards here), so they lie with seat 2; without the rule any split of the four unseen cards is possible.
    deal = parse_deal("p1 b1 | y1 y2 | p2 b3", 0)
    shown = Communication(1, parse_card("y1"), None, 1, holds_none=parse_cards("p2 b3"))
    known = Knowledge.of(0, deal.hands[0], (2, 2, 2), (), (shown,), deck=deal.cards)
    assert known.count() == 1 and known.samples(random.Random(0), 5) == [deal.hands] * 5
    free = Knowledge.of(0, deal.hands[0], (2, 2, 2), (), (Communication(1, parse_card("y1"), None, 1),), deck=deal.cards)
    assert free.count() == 3  # y1 with seat 1, the other three cards two and one


@given(st.lists(st.integers(0, 4), min_size=1, max_size=8), st.integers(0, 255), st.integers(0, 12))
def test_splits_are_every_way_to_share_the_cards_within_the_rooms_in_order(room, seats, count):
    seats &= (1 << len(room)) - 1
    order = seat_list(seats)
    expected = [shares for shares in itertools.product(*(range(room[s] + 1) for s in order))
                if sum(shares) == count] if order else []
    assert list(splits_of(count, seats, tuple(room))) == expected


@pytest.mark.parametrize("moves, plays, hand, sizes, left", [
    # seat 1 passes p7 on after trick 1 and gets it back in the next pass: p7 is the pink it held when it showed p1
    ((("p7", 1, 2), ("p7", 2, 1)), "", "p6 g1 g3", (3, 3, 3), ""),
    # seat 0 gives it p6 after trick 1 and it plays p6 in trick 2: not a pink it held then, so one of the unseen
    # pinks it may hold is still its own
    ((("p6", 0, 1),), "g1 p6 g2", "g3", (1, 3, 2), "p7 p8 p9"),
])
def test_a_lowest_card_s_other_card_is_one_held_when_it_was_shown(moves, plays, hand, sizes, left):
    # quest-for-planet-nine rules: "put the token at its top, middle, or bottom to mean respectively that it is the
    # highest, only, or lowest card of that colour in hand": seat 1 (dealt b2 p1 p7 p8; seat 0 b1 p6 g1 g3, seat 2
    # b3 p9 g2 g4) showed p1 as its lowest before trick 1, so it held another pink then; only a card it held then
    # can be that one.
    deck = parse_cards("b1 p6 g1 g3 b2 p1 p7 p8 b3 p9 g2 g4")
    tricks = [[(0, parse_card("b1")), (1, parse_card("b2")), (2, parse_card("b3"))]]
    if plays:
        tricks.append(list(zip((0, 1, 2), (parse_card(c) for c in plays.split()))))
    passes = tuple((1, giver, receiver, parse_card(c)) for c, giver, receiver in moves)
    shown = (Communication(1, parse_card("p1"), LOWEST, 1),)
    known = Knowledge.of(0, parse_cards(hand), sizes, tricks, shown, deck, moves=passes)
    assert known.needs == (((1 << 1, parse_cards(left)),) if left else ())
    assert known.count() > 0
