"""Family Adventure cards and deals: notation, names, setup rules, seeded deals with their chance."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.core.deal import deal_rng
from solver.family.cards import (
    BLUE,
    CARD_COUNT,
    DECK,
    GREEN,
    PINK,
    FamilyCardError,
    card,
    card_label,
    colour_of,
    format_card,
    number_of,
    parse_card,
    parse_cards,
)
from solver.family.deal import (
    FamilyDealError,
    format_family_deal,
    format_family_hands,
    make_family_deal,
    parse_family_deal,
    parse_family_hands,
    random_family_deal,
)


@pytest.mark.parametrize(
    "name, colour, number",
    [
        ("Titania", BLUE, 7), ("Snake", BLUE, 6), ("Island", BLUE, 1), ("Rosso", GREEN, 1),
        ("coconut", GREEN, 3), ("toolbox", PINK, 4), ("lifeboat", GREEN, 5), ("Riku", PINK, 2),
        ("Maite", GREEN, 2), ("Stella", BLUE, 3), ("Logan", BLUE, 4),
    ],
)
def test_the_rulebook_names(name, colour, number):
    assert parse_card(name) == parse_card(name.upper()) == card(colour, number)
    assert name in card_label(card(colour, number))


def test_notation_round_trips_for_all_21_cards():
    assert [format_card(c) for c in range(CARD_COUNT)][:8] == ["P1", "P2", "P3", "P4", "P5", "P6", "P7", "G1"]
    for c in range(CARD_COUNT):
        assert parse_card(format_card(c)) == parse_card(format_card(c).lower()) == c
        assert card(colour_of(c), number_of(c)) == c
    assert parse_cards("b7, g3 P1") == (1 << card(BLUE, 7)) | (1 << card(GREEN, 3)) | (1 << card(PINK, 1))


@pytest.mark.parametrize("text", ["P8", "Y1", "B0", "Kiano", "", "G33"])
def test_unknown_cards_name_the_problem(text):
    with pytest.raises(FamilyCardError, match="unknown card"):
        parse_card(text)


def test_a_card_listed_twice_is_an_error():
    with pytest.raises(FamilyCardError, match="twice"):
        parse_cards("B7 Titania")


EVEN = "P1 P2 P3 P4 P5 P6 P7 | G1 G2 G3 G4 G5 G6 G7 | B1 B2 B3 B4 B5 B6 B7"


def test_a_deal_round_trips_and_the_coconut_holder_starts():
    deal = make_family_deal(parse_family_hands(EVEN), [1, 2, 3], [4, 5, 6], 0)
    assert format_family_hands(deal) == EVEN
    assert deal.first == 1 and deal.players == 3


@pytest.mark.parametrize(
    "hands, specials, aside, shell, words",
    [
        ("P1 P2 | G1 G2 | B1 B2 | P3 P4 | P5 P6 | P7", [1] * 6, [], 0, "3 to 5 hands"),
        (EVEN.replace(" B7", ""), [1, 2, 3], [4, 5, 6], 0, "missing B7"),
        (EVEN.replace("P7 |", "P7 B7 |"), [1, 2, 3], [4, 5, 6], 0, "two hands"),
        ("P1 P2 P3 P4 P5 P6 P7 G1 | G2 G3 G4 G5 G6 G7 | B1 B2 B3 B4 B5 B6 B7", [1, 2, 3], [4, 5, 6], 0, "even"),
        (EVEN, [1, 2, 2], [4, 5, 6], 0, "special"),
        (EVEN, [1, 2, 3], [4, 5, 6], 6, "shell"),
    ],
)
def test_bad_deals_name_the_problem(hands, specials, aside, shell, words):
    with pytest.raises(FamilyDealError, match=words):
        make_family_deal(parse_family_hands(hands), specials, aside, shell)


@given(st.integers(3, 5), st.integers(0, 2**32), st.integers(0, 1000))
def test_random_deals_follow_the_setup_and_repeat_from_the_seed(players, seed, index):
    deal = random_family_deal(players, deal_rng(seed, index))
    assert deal == random_family_deal(players, deal_rng(seed, index))
    sizes = sorted(h.bit_count() for h in deal.hands)
    assert sum(sizes) == CARD_COUNT and sizes[-1] - sizes[0] <= 1
    assert sizes == {3: [7, 7, 7], 4: [5, 5, 5, 6], 5: [4, 4, 4, 4, 5]}[players]
    assert sorted(deal.specials + deal.aside) == [1, 2, 3, 4, 5, 6] and len(deal.specials) == players
    assert 0 <= deal.shell < 6
    union = 0
    for hand in deal.hands:
        assert not union & hand
        union |= hand
    assert union == DECK


@pytest.mark.parametrize("players", [1, 6, 7])
def test_random_deals_reject_other_player_counts(players):
    with pytest.raises(FamilyDealError, match="2 to 5 players"):
        random_family_deal(players, deal_rng(1, 0))


@given(st.integers(0, 2**32), st.integers(0, 1000))
def test_two_players_get_the_ghost_and_the_coin_decides_who_starts(seed, index):
    deal = random_family_deal(2, deal_rng(seed, index))
    assert deal.ghost and deal.seats == 3 and deal.players == 2
    assert [h.bit_count() for h in deal.hands] == [7, 7, 7] and len(deal.specials) == 3
    assert deal.first in (0, 1)


@given(st.integers(2, 5), st.integers(0, 2**32))
def test_the_text_form_of_a_deal_round_trips(players, seed):
    deal = random_family_deal(players, deal_rng(seed, 0))
    assert parse_family_deal(format_family_deal(deal)) == deal


@pytest.mark.parametrize(
    "fields, words",
    [
        ("", "needs specials, aside, shell"),
        ("; specials 1 2 3 ; aside 4 5 6", "needs shell"),
        ("; specials 1 2 3 ; aside 4 5 6 ; shell 0 ; colour 2", "unknown deal field 'colour'"),
        ("; specials 1 2 3 ; aside 4 5 6 ; shell x", "takes numbers"),
        ("; specials 1 2 3 ; aside 4 5 6 ; shell 0 ; shell 1", "given twice"),
        ("; specials 1 2 3 ; aside 4 5 6 ; shell 0 ; first 0", "coconut's holder .seat 1."),
        ("; specials 1 2 3 ; aside 4 5 6 ; shell 0 ; ghost ; first 2", "seat 0 or 1"),
        ("; specials 1 2 3 ; aside 4 5 6 ; shell 0 ; ghost 1 ; first 0", "takes no value"),
    ],
)
def test_bad_deal_text_names_the_problem(fields, words):
    with pytest.raises(FamilyDealError, match=words):
        parse_family_deal(EVEN + fields)


def test_the_ghost_seat_starts_by_the_coin_not_the_coconut():
    deal = parse_family_deal(EVEN + "; specials 1 2 3 ; aside 4 5 6 ; shell 0 ; ghost ; first 0")
    assert deal.first == 0 and deal.ghost and deal.players == 2
