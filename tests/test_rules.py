"""Trick rules: legal plays (following suit, trumps as a suit) and who wins a trick."""

import pytest
from conftest import played_tricks, small_deals
from hypothesis import given
from hypothesis import strategies as st

from solver.core.cards import COLOUR_CARDS, SUIT_MASKS, TRUMPS, bit, parse_card, parse_cards, suit_of
from solver.core.deal import deal_rng, parse_deal, random_deal
from solver.core.rules import legal_plays, num_tricks, trick_winner, winning_card


def cards(text: str) -> list[int]:
    return [parse_card(word) for word in text.split()]


def legal(hand: str, trick: str) -> int:
    return legal_plays(parse_cards(hand), cards(trick))


# --- legal plays ---------------------------------------------------------------


def test_leader_may_play_anything():
    assert legal("p3 p7 b2 r1", "") == parse_cards("p3 p7 b2 r1")


def test_must_follow_the_led_colour():
    assert legal("p3 p7 b2 r1", "p5") == parse_cards("p3 p7")
    assert legal("p3 p7 b2 r1", "b9 p1") == parse_cards("b2")


def test_follow_the_first_card_not_a_later_trump():
    # The lead decides the suit; a trump played after the lead changes nothing.
    assert legal("p3 b2 r1", "p5 r3") == parse_cards("p3")


def test_void_in_the_led_colour_may_play_any_card():
    assert legal("p3 p7 b2 r1", "g4") == parse_cards("p3 p7 b2 r1")
    assert legal("p3 p7 b2 r1", "y9 g1") == parse_cards("p3 p7 b2 r1")


def test_trump_led_must_be_followed_with_trumps():
    assert legal("p3 p7 b2 r1", "r2") == parse_cards("r1")
    assert legal("r1 r4 g9", "r3") == parse_cards("r1 r4")


def test_trump_led_and_no_trump_in_hand_may_play_anything():
    assert legal("p3 p7 b2", "r2") == parse_cards("p3 p7 b2")


def test_holding_trumps_does_not_excuse_following_colour():
    assert legal("g2 r1 r2", "g7") == parse_cards("g2")


# --- trick winner --------------------------------------------------------------


def test_highest_of_the_led_colour_wins():
    assert winning_card(cards("p5 p2 p7")) == parse_card("p7")
    assert trick_winner(0, cards("p5 p2 p7"), 3) == 2


def test_off_suit_colour_card_never_wins():
    # b9 is the top blue, but pink was led: p7 wins.
    assert winning_card(cards("p5 b9 p7")) == parse_card("p7")
    # Everyone else discarded: the low lead still wins.
    assert winning_card(cards("g1 p9 b9 y9")) == parse_card("g1")
    assert trick_winner(3, cards("g1 p9 b9 y9"), 4) == 3


def test_trumping_when_void_wins():
    # b9 led, r1 played by the second seat: the lowest trump beats the top blue.
    assert winning_card(cards("b9 r1 b2")) == parse_card("r1")
    assert trick_winner(1, cards("b9 r1 b2"), 3) == 2  # seat 1 led, seat 2 trumped


def test_highest_trump_wins_among_several():
    assert winning_card(cards("p9 r2 r4 r1")) == parse_card("r4")
    assert winning_card(cards("r1 r3 p9 r2 b9")) == parse_card("r3")
    assert trick_winner(4, cards("r1 r3 p9 r2 b9"), 5) == 0  # (4 + 1) % 5


def test_trick_winner_counts_seats_clockwise_from_the_leader():
    trick = cards("y3 y8 y5")
    assert [trick_winner(leader, trick, 3) for leader in range(3)] == [1, 2, 0]
    trick = cards("y3 y8 y5 y1")
    assert [trick_winner(leader, trick, 4) for leader in range(4)] == [1, 2, 3, 0]


# --- number of tricks ----------------------------------------------------------------


def test_num_tricks_is_the_common_hand_size():
    assert num_tricks(parse_deal("p1 p2 | b1 b2 | g1 g2 | y1 y2").hands) == 2


def test_num_tricks_ignores_the_three_player_extra_card():
    assert num_tricks(parse_deal("p1 p2 p3 | b1 b2 | g1 g2").hands) == 2
    assert num_tricks(parse_deal("b1 b2 | g1 g2 | p1 p2 p3").hands) == 2


@pytest.mark.parametrize("players, tricks", [(3, 13), (4, 10), (5, 8)])
def test_num_tricks_of_full_deals(players, tricks):
    deal = random_deal(players, deal_rng(2, players))
    assert num_tricks(deal.hands) == tricks


def test_num_tricks_14_13_13():
    # The whole deck split 14 / 13 / 13 in bit order: 13 tricks, one card left over.
    split = [range(0, 14), range(14, 27), range(27, 40)]
    hands = [sum(1 << c for c in part) for part in split]
    assert [len(part) for part in split] == [14, 13, 13]
    assert num_tricks(hands) == 13


# --- properties ----------------------------------------------------------------

any_tricks = st.integers(3, 5).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 39), min_size=n, max_size=n, unique=True), st.integers(0, n - 1)
    )
)
# Tricks played legally from random small deals, and tricks of arbitrary distinct cards.
tricks = st.one_of(
    played_tricks().map(lambda case: (case[2], case[1])),
    any_tricks,
)


@given(played_tricks())
def test_winner_of_a_played_trick(case):
    deal, leader, trick = case
    winner = trick_winner(leader, trick, deal.players)
    assert 0 <= winner < deal.players
    card = winning_card(trick)
    assert card in trick
    assert deal.hands[winner] & bit(card)  # the winner held the winning card
    # Every card is legal for the seat that played it.
    for k, c in enumerate(trick):
        seat = (leader + k) % deal.players
        assert legal_plays(deal.hands[seat], trick[:k]) & bit(c)


@given(tricks)
def test_winner_is_a_player_whose_card_is_in_the_trick(trick_and_leader):
    trick, leader = trick_and_leader
    players = len(trick)
    winner = trick_winner(leader, trick, players)
    assert 0 <= winner < players
    card = winning_card(trick)
    assert card in trick
    assert trick[(winner - leader) % players] == card  # the winner played the winning card


@given(tricks)
def test_a_trump_in_the_trick_beats_every_colour(trick_and_leader):
    trick, _ = trick_and_leader
    played_trumps = [c for c in trick if bit(c) & TRUMPS]
    if played_trumps:
        assert winning_card(trick) == max(played_trumps)  # higher trump = higher bit
        assert not bit(winning_card(trick)) & COLOUR_CARDS
    else:
        led = [c for c in trick if suit_of(c) == suit_of(trick[0])]
        assert winning_card(trick) == max(led)


@given(tricks)
def test_an_off_suit_colour_card_never_wins(trick_and_leader):
    trick, _ = trick_and_leader
    win = winning_card(trick)
    for c in trick:
        if bit(c) & COLOUR_CARDS and suit_of(c) != suit_of(trick[0]):
            assert c != win


@given(small_deals(), st.data())
def test_legal_plays_follow_suit_when_possible(deal, data):
    hand = deal.hands[0]
    lead = data.draw(st.integers(0, 39).filter(lambda c: not hand & bit(c)), label="lead")
    allowed = legal_plays(hand, [lead])
    same_suit = hand & SUIT_MASKS[suit_of(lead)]
    assert allowed & ~hand == 0
    assert allowed
    assert allowed == (same_suit if same_suit else hand)
