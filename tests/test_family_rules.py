"""Family Adventure move rules on hand-worked grid positions."""

import pytest

from solver.family.cards import parse_card, parse_cards
from solver.family.rules import ANY, DIAGONAL, KNIGHT, STRAIGHT, followers, may_follow


@pytest.mark.parametrize(
    "last, move, expected",
    [
        ("G5", STRAIGHT, "G1 G2 G3 G4 G6 G7 P5 B5"),  # colour after colour, number after number
        ("G5", DIAGONAL, "P4 P6 B4 B6"),  # the middle row has no row two steps away
        ("P5", DIAGONAL, "G4 G6 B3 B7"),
        ("G5", KNIGHT, "P3 P7 B3 B7"),
        ("P1", KNIGHT, "G3 B2"),
        ("B7", DIAGONAL, "G6 P5"),
        ("G3", ANY, "P1 P2 P3 P4 P5 P6 P7 G1 G2 G4 G5 G6 G7 B1 B2 B3 B4 B5 B6 B7"),
    ],
)
def test_followers_on_the_grid(last, move, expected):
    assert followers(parse_card(last), move) == parse_cards(expected)


def test_the_rulebook_example_lifeboat_to_logan_needs_a_diagonal():
    # "the island marker is on the lifeboat (green 5), so there's no direct path to Logan
    # (blue 4) ... your special card allows you to use diagonal connections".
    assert not may_follow(parse_card("lifeboat"), parse_card("Logan"))
    assert may_follow(parse_card("lifeboat"), parse_card("Logan"), DIAGONAL)


def test_the_first_card_is_free_and_no_card_follows_itself():
    assert followers(None) == parse_cards("P1 P2 P3 P4 P5 P6 P7 G1 G2 G3 G4 G5 G6 G7 B1 B2 B3 B4 B5 B6 B7")
    for move in (STRAIGHT, DIAGONAL, KNIGHT, ANY):
        assert not may_follow(parse_card("B3"), parse_card("B3"), move)
