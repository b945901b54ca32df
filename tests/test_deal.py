"""Deals: notation, the Commander, dealing-rule errors, seeded random deals and task draws."""

import pytest
from conftest import small_deals
from hypothesis import given

from solver.core.cards import COLOUR_CARDS, DECK, TRUMPS, bit, parse_card, parse_cards, popcount
from solver.core.deal import (
    Deal,
    DealError,
    deal_rng,
    format_deal,
    make_deal,
    parse_deal,
    random_deal,
    random_tasks,
)
from solver.core.errors import InputError


def sizes(deal: Deal) -> list[int]:
    return [popcount(hand) for hand in deal.hands]


def assert_whole_deck_once(deal: Deal):
    union = 0
    for hand in deal.hands:
        assert union & hand == 0, "a card is in two hands"
        union |= hand
    assert union == DECK
    assert sum(sizes(deal)) == 40


# --- notation ----------------------------------------------------------------


def test_parse_deal_reads_hands_in_seat_order():
    deal = parse_deal("p1 p9 r4 | b2 g5 | y7 y8")
    assert deal.players == 3
    assert deal.hands == (parse_cards("p1 p9 r4"), parse_cards("b2 g5"), parse_cards("y7 y8"))
    assert deal.cards == parse_cards("p1 p9 r4 b2 g5 y7 y8")
    assert deal.holder(parse_card("g5")) == 1
    assert deal.holder(parse_card("y8")) == 2
    assert deal.holder(parse_card("b9")) is None


@pytest.mark.parametrize(
    "text",
    [
        "p1 p9 r4 | b2 g5 | y7 y8",
        "p1 b1 | p2 b2 | p3 b3 | p4 b4",
        "p1 | p2 | p3 | p4 | r4",
        "p2 p7 b1 b6 g2 g9 y3 y8 r1 r4 | p3 p8 b2 b7 g3 g7 y4 y9 r2 p1 | p4 p9 b3 b8 g4 g8 y1 y5 r3 b9"
        " | p5 p6 b4 b5 g1 g5 g6 y2 y6 y7",
    ],
)
def test_deal_round_trip(text):
    deal = parse_deal(text)
    # format_deal orders each hand by suit then rank, so compare sets and the re-parse
    again = parse_deal(format_deal(deal))
    assert again == deal
    assert format_deal(again) == format_deal(deal)
    assert [parse_cards(part) for part in text.split("|")] == list(deal.hands)


def test_format_deal_is_canonical():
    deal = parse_deal("R4 P9,p1 | g5 b2 | Y8 y7")
    assert format_deal(deal) == "p1 p9 r4 | b2 g5 | y7 y8"


@given(small_deals())
def test_small_deal_round_trip(deal):
    # The notation carries no Commander; without r4 it must be passed again.
    assert parse_deal(format_deal(deal), deal.commander) == deal


def test_seeded_full_deal_round_trip():
    for players in (3, 4, 5):
        deal = random_deal(players, deal_rng(11, players))
        assert parse_deal(format_deal(deal)) == deal


# --- the Commander -------------------------------------------------------------


@pytest.mark.parametrize(
    "text, seat",
    [
        ("r4 p1 | p2 p3 | p4 p5", 0),
        ("p1 p2 | r4 p3 | p4 p5", 1),
        ("p1 p2 | p3 p4 | p5 r4", 2),
        ("p1 | p2 | p3 | r4 | p5", 3),
    ],
)
def test_commander_is_the_holder_of_r4(text, seat):
    assert parse_deal(text).commander == seat
    assert parse_deal(text, commander=seat).commander == seat  # agreeing is fine


def test_explicit_commander_conflicting_with_r4_raises():
    with pytest.raises(DealError, match="seat 1"):
        parse_deal("p1 p2 | r4 p3 | p4 p5", commander=0)
    with pytest.raises(InputError):
        make_deal([bit(parse_card("r4")), bit(parse_card("p1")), bit(parse_card("p2"))], commander=2)


def test_without_r4_the_commander_is_given_or_seat_0():
    text = "p1 r3 | p2 p3 | p4 p5"
    assert parse_deal(text).commander == 0
    assert parse_deal(text, commander=2).commander == 2
    assert parse_deal(text, commander=1).commander == 1


@pytest.mark.parametrize("seat", [3, -1, 7])
def test_commander_outside_the_table_raises(seat):
    with pytest.raises(DealError, match=f"seat {seat} is not a seat"):
        parse_deal("p1 | p2 | p3", commander=seat)


# --- dealing-rule errors -------------------------------------------------------


def test_card_in_two_hands_raises_naming_it():
    with pytest.raises(DealError, match="p1"):
        parse_deal("p1 p2 | p1 p3 | p4 p5")
    with pytest.raises(DealError, match="b9"):
        make_deal([parse_cards("b9 p1"), parse_cards("p2 p3"), parse_cards("b9 p4")])


def test_card_twice_in_one_hand_raises():
    with pytest.raises(InputError, match="p2"):
        parse_deal("p2 p2 | p1 p3 | p4 p5")


@pytest.mark.parametrize(
    "text, players",
    [("p1 | p2", 2), ("p1", 1), ("p1 | p2 | p3 | p4 | p5 | p6", 6)],
)
def test_wrong_number_of_hands_raises(text, players):
    with pytest.raises(DealError, match=f"got {players}"):
        parse_deal(text)


@pytest.mark.parametrize("text", ["p1 | | p2", "p1 | p2 | ", " | p1 | p2"])
def test_empty_hand_raises(text):
    with pytest.raises(DealError, match="empty"):
        parse_deal(text)


@pytest.mark.parametrize(
    "text",
    [
        "p1 p2 p3 | b1 b2 b3 | g1 g2 g3 | y1 y2",  # 3/3/3/2: only 3 players get an extra card
        "p1 p2 p3 p4 p5 | b1 b2 b3 | g1 g2 g3",  # 5/3/3: two extra cards
        "p1 p2 p3 p4 | b1 b2 b3 b4 | g1 g2 g3",  # 4/4/3: two hands with an extra card
        "p1 p2 | b1 b2 | g1 g2 | y1 y2 | r1 r2 r3",  # 5 players, one extra
        "p1 p2 p3 p4 | b1 b2 | g1 g2",  # 4/2/2
    ],
)
def test_unequal_hands_raise(text):
    with pytest.raises(DealError, match="unequal"):
        parse_deal(text)


@pytest.mark.parametrize(
    "text", ["p1 p2 p3 p4 | b1 b2 b3 | g1 g2 g3", "b1 b2 b3 | p1 p2 p3 p4 | g1 g2 g3", "p1 | p2 | p3 p4"]
)
def test_three_players_may_have_one_extra_card(text):
    deal = parse_deal(text)
    assert sorted(sizes(deal)) in ([3, 3, 4], [1, 1, 2])


def test_deal_errors_are_input_errors():
    assert issubclass(DealError, InputError)


# --- seeded random deals ------------------------------------------------------------


@pytest.mark.parametrize("seed, index", [(0, 0), (1, 5), (2024, 17), (99, 1000)])
@pytest.mark.parametrize("players, expected", [(3, [13, 13, 14]), (4, [10] * 4), (5, [8] * 5)])
def test_random_deal_sizes_and_whole_deck(seed, index, players, expected):
    deal = random_deal(players, deal_rng(seed, index))
    assert deal.players == players
    assert sorted(sizes(deal)) == expected
    assert_whole_deck_once(deal)
    assert deal.hands[deal.commander] & bit(parse_card("r4"))


def test_deal_rng_is_a_pure_function_of_its_key():
    first = random_deal(4, deal_rng(7, 3))
    random_deal(4, deal_rng(7, 2))  # drawing other deals in between changes nothing
    assert random_deal(4, deal_rng(7, 3)) == first
    assert random_deal(4, deal_rng(7, 4)) != first
    assert random_deal(4, deal_rng(8, 3)) != first
    assert random_deal(4, deal_rng(7, 3, 1)) != first  # extra key ints give another deal
    assert random_deal(4, deal_rng(7, 3, 1)) == random_deal(4, deal_rng(7, 3, 1))


def test_many_indices_give_many_different_deals():
    deals = {format_deal(random_deal(3, deal_rng(5, i))) for i in range(50)}
    assert len(deals) == 50
    commanders = {random_deal(4, deal_rng(5, i)).commander for i in range(50)}
    assert len(commanders) > 1  # r4 is not always in the same seat


@pytest.mark.parametrize("players", [2, 6])
def test_random_deal_rejects_bad_player_counts(players):
    with pytest.raises(DealError):
        random_deal(players, deal_rng(0, 0))


# --- random task draws -------------------------------------------------------


@pytest.mark.parametrize("index", range(5))
@pytest.mark.parametrize("count", [0, 1, 5, 10, 36])
def test_random_tasks_are_distinct_colour_cards(index, count):
    tasks = random_tasks(count, deal_rng(3, index))
    assert len(tasks) == count
    assert len(set(tasks)) == count
    for c in tasks:
        assert bit(c) & COLOUR_CARDS
        assert not bit(c) & TRUMPS


def test_random_tasks_come_from_the_given_cards_only():
    cards = parse_cards("p1 p2 b7 r1 r2 r3 r4 g9")  # four colour cards among them
    for index in range(20):
        tasks = random_tasks(4, deal_rng(1, index), cards)
        assert sorted(tasks) == sorted(parse_cards_list("p1 p2 b7 g9"))
        assert len(random_tasks(2, deal_rng(1, index), cards)) == 2
    with pytest.raises(DealError):
        random_tasks(5, deal_rng(1, 0), cards)  # only four colour cards to draw from
    with pytest.raises(DealError):
        random_tasks(-1, deal_rng(1, 0))


def test_random_tasks_are_reproducible():
    assert random_tasks(6, deal_rng(4, 2)) == random_tasks(6, deal_rng(4, 2))
    draws = {tuple(random_tasks(6, deal_rng(4, i))) for i in range(20)}
    assert len(draws) > 1


def parse_cards_list(text):
    return [parse_card(word) for word in text.split()]
