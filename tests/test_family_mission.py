"""Family Adventure missions as data: the built-in file, malformed files (one line per problem, naming it),
and the random-objective generator."""

import numpy as np
import pytest

from solver.core.errors import InputError
from solver.core.mission_file import MissionError
from solver.family.cards import parse_card, parse_cards
from solver.family.mission import (
    GAME,
    ROW_LENGTHS,
    FamilyMission,
    built_in_family_missions,
    check_consistent,
    load_family_missions,
    parse_family_missions,
    random_objectives,
)
from solver.family.objectives import broken

HEADER = 'game = "family"\n\n[[mission]]\nnumber = 1\n'


def problems_of(m: FamilyMission) -> list[str]:
    """Return what check_consistent reports for a mission built in code."""
    found = []
    check_consistent(m, lambda field, message: found.append(f"{field}: {message}"))
    return found


def assert_valid(m: FamilyMission) -> None:
    """Check a mission's fields directly, without the loader."""
    assert m.row_length in ROW_LENGTHS and 1 <= m.cards <= 3 * m.row_length
    assert all(0 <= h <= 6 for h in m.hammocks)
    rows = -(-m.cards // m.row_length)
    assert all(rule is None for rule in m.row_rules[rows:]) and not any(m.in_row[rows:])
    assert m.required.bit_count() <= m.cards and not m.required & m.forbidden
    for row, cards in enumerate(m.in_row):
        assert cards.bit_count() <= max(0, min(m.row_length, m.cards - row * m.row_length))
    assert all(1 <= p <= m.cards for p, _ in m.positions)
    assert len({c for _, c in m.positions}) == len({p for p, _ in m.positions}) == len(m.positions)
    for count in m.counts:
        assert count.at_least <= count.cards.bit_count() and count.at_least <= m.cards
        assert count.at_most is None or count.at_least <= count.at_most
        assert all(r < rows for r in count.rows)
    assert problems_of(m) == []
    assert broken(m, ()) is None


# --- the built-in missions ---------------------------------------------------------------------------


def test_built_in_missions_are_all_valid():
    missions = built_in_family_missions()
    assert missions, "the built-in file holds no mission"
    for mission_id, m in missions.items():
        assert mission_id == m.id and mission_id.startswith(f"{GAME}/")
        assert_valid(m)


def test_built_in_mission_1_is_the_rulebooks():
    """Mission 1: four cards, Titania (B7) and Snake (B6) in the white row."""
    m = built_in_family_missions()["family/1"]
    assert m.cards == 4 and m.row_length == 4
    assert m.in_row == (parse_cards("B7 B6"), 0, 0)
    assert not m.anywhere and not m.forbidden and not m.order and not m.positions and not m.counts


def test_built_in_mission_25_plays_three_rows_of_three():
    m = built_in_family_missions()["family/25"]
    assert (m.cards, m.row_length) == (9, 3)
    assert [m.row_of(p) for p in range(1, 10)] == [0, 0, 0, 1, 1, 1, 2, 2, 2]


def test_a_mission_file_loads_from_disk(tmp_path):
    path = tmp_path / "family.toml"
    path.write_text(HEADER + 'cards = 8\nname = "ignored: the number wins"\nforbid = ["lifeboat"]\n')
    m = load_family_missions(path)["family/1"]
    assert m.forbidden == parse_cards("G5") and m.cards == 8
    with pytest.raises(MissionError, match="cannot read"):
        load_family_missions(tmp_path / "missing.toml")


def test_every_field_is_read():
    text = HEADER + """title = "all of it"
players = [3, 4]
cards = 9
row_length = 3
hammocks = [2, 3, 4]
specials = false
play = [{ cards = ["Titania"], row = "grey" }, { cards = ["G3"] }]
order = ["Riku", "Maite"]
forbid = ["lifeboat"]
rows = { white = "increasing", gray = "non-increasing" }
positions = { "4" = "Titania", "9" = "B1" }
count = [{ cards = ["Rosso", "Snake"], at_most = 1, rows = ["black"] }, { cards = ["P1", "P2"], at_least = 1 }]
"""
    m = parse_family_missions(text, "test")["family/1"]
    assert (m.title, m.players, m.cards, m.row_length, m.hammocks, m.specials) == (
        "all of it", (3, 4), 9, 3, (2, 3, 4), False
    )
    assert m.in_row == (0, parse_cards("B7"), 0) and m.anywhere == parse_cards("G3")
    assert m.order == (parse_card("P2"), parse_card("G2")) and m.forbidden == parse_cards("G5")
    assert m.row_rules == ("increasing", "non-increasing", None)
    assert m.positions == ((4, parse_card("B7")), (9, parse_card("B1")))
    assert [(c.cards, c.rows, c.at_least, c.at_most) for c in m.counts] == [
        (parse_cards("G1 B6"), (2,), 0, 1), (parse_cards("P1 P2"), (), 1, None)
    ]
    assert m.hammocks_for(2) == 2 and m.hammocks_for(5) == 4
    assert_valid(m)


def test_a_name_gives_the_id_and_one_number_sets_every_hammock_count():
    m = parse_family_missions(HEADER.replace("number = 1", 'name = "quiet"') + "cards = 4\nhammocks = 2\n", "t")
    assert list(m) == ["family/quiet"] and m["family/quiet"].hammocks == (2, 2, 2)


# --- malformed files: a MissionError, one line per problem -------------------------------------------


def assert_one_problem(text: str, words: str) -> None:
    with pytest.raises(MissionError) as raised:
        parse_family_missions(text, "test")
    error = raised.value
    assert len(error.problems) == 1, error.problems
    message = str(error)
    assert "\n" not in message and message.startswith("test: ")
    assert words in message, message


@pytest.mark.parametrize(
    "body, words",
    [
        ('cards = 4\ncolour = "pink"', "field 'colour': unknown field"),
        ('cards = 4\nplay = [{ cards = ["Z9"] }]', "unknown card 'Z9'"),
        ('cards = 4\nforbid = ["Kiano"]', "unknown card 'Kiano'"),  # named in the rulebook, card unknown
        ('cards = 4\norder = ["B1", "P8"]', "unknown card 'P8'"),
        ('cards = 8\nplay = [{ cards = ["B7"], row = "purple" }]', "got 'purple'"),
        ('cards = 8\nrows = { pink = "increasing" }', "got 'pink'"),
        ('cards = 4\nplay = [{ cards = ["B7"], row = "grey" }]', "(the mission has 1 row(s)), got 'grey'"),
        ('cards = 8\nrows = { black = "increasing" }', "(the mission has 2 row(s)), got 'black'"),
        ('cards = 6\ncount = [{ cards = ["B7"], at_least = 1, rows = ["black"] }]', "got 'black'"),
        ('cards = 8\nrows = { white = "up" }', "a row rule is increasing or non-increasing, got 'up'"),
        ("cards = 0", "field 'cards': must be the number of colour cards to play, 1 to 12"),
        ("cards = 13", "1 to 12"),
        ("cards = 10\nrow_length = 3", "1 to 9 (three rows of 3)"),
        ('cards = "4"', "field 'cards'"),
        ("title = 'no cards'", "field 'cards'"),
        ("cards = 8\nrow_length = 5", "field 'row_length': must be 4, or 3"),
        ('cards = 4\nplay = [{ cards = ["Titania"] }]\nforbid = ["B7"]', "field 'forbid': B7 also required"),
        ('cards = 8\norder = ["B1", "B2"]\nforbid = ["B2"]', "B2 also required"),
        ('cards = 2\nplay = [{ cards = ["B1", "B2", "B3"] }]', "3 cards are required but only 2 are played"),
        ('cards = 3\norder = ["B1", "B2"]\npositions = { "1" = "P1", "2" = "P2" }', "4 cards are required"),
        (
            'cards = 8\nplay = [{ cards = ["B1", "B2", "B3", "B4", "B5"], row = "white" }]',
            "5 cards required in the white row, which holds 4",
        ),
        ('cards = 6\nplay = [{ cards = ["B1", "B2", "B3"], row = "grey" }]', "in the grey row, which holds 2"),
        ('cards = 9\nrow_length = 3\nplay = [{ cards = ["B1", "B2", "B3", "B4"], row = "black" }]', "holds 3"),
        ('cards = 4\npositions = { "5" = "Titania" }', "a position is 1 to 4 (the cards played), got '5'"),
        ('cards = 4\npositions = { "first" = "Titania" }', "got 'first'"),
        ('cards = 4\npositions = { "1" = "Titania", "3" = "B7" }', "B7 (Titania) at two positions"),
        (
            'cards = 8\npositions = { "5" = "B7" }\nplay = [{ cards = ["B7"], row = "white" }]',
            "not in the row it is required in",
        ),
        (
            'cards = 8\ncount = [{ cards = ["B1", "B2", "B3"], at_least = 2, at_most = 1 }]',
            "at_least 2 cannot be met with at_most 1",
        ),
        ('cards = 8\ncount = [{ cards = ["B1", "B2"], at_least = 3 }]', "at_least 3 cannot be met"),
        ('cards = 8\ncount = [{ cards = ["B1"], at_least = -1 }]', "whole numbers"),
        ('cards = 8\ncount = [{ cards = ["B1"], least = 1 }]', "entries look like"),
        ('cards = 8\nplay = [{ cards = ["B1"], rows = "white" }]', "entries look like"),
        ('cards = 8\nplay = [{ cards = ["B7"], row = "white" }, { cards = ["B7"] }]', "B7 required twice"),
        ("cards = 4\nhammocks = 7", "field 'hammocks'"),
        ("cards = 4\nhammocks = [1, 2]", "field 'hammocks'"),
        ('cards = 4\nspecials = "no"', "field 'specials': must be true or false"),
        ("cards = 4\nplayers = [6]", "field 'players'"),
    ],
)
def test_a_malformed_mission_names_its_problem_in_one_line(body, words):
    assert_one_problem(HEADER + body + "\n", words)


@pytest.mark.parametrize(
    "text, words",
    [
        ('game = "crew"\n[[mission]]\nnumber = 1\ncards = 4\n', "field 'game' must be 'family'"),
        ("[[mission]]\nnumber = 1\ncards = 4\n", "field 'game' must be 'family'"),
        ('game = "family"\n[[mission]\nnumber = 1\n', "not valid TOML"),
        ('game = "family"\nmission = 3\n', "missions must be [[mission]] tables"),
        ('game = "family"\nlevel = 3\n', "top level: unknown field 'level'"),
        ('game = "family"\n[[mission]]\ncards = 4\n', "mission #1: needs a 'number'"),
        ('game = "family"\n[[mission]]\nnumber = 2\ncards = 4\n[[mission]]\nnumber = 2\ncards = 5\n', "defined twice"),
    ],
)
def test_a_malformed_file_names_its_problem_in_one_line(text, words):
    assert_one_problem(text, words)


def test_every_problem_is_reported_on_one_line():
    text = HEADER.replace("family", "crew") + 'cards = 4\nforbid = ["Z9"]\n[[mission]]\nnumber = 2\ncards = 99\n'
    with pytest.raises(MissionError) as raised:
        parse_family_missions(text, "test")
    assert len(raised.value.problems) == 3 and "\n" not in str(raised.value)
    assert str(raised.value).startswith("3 problems: ")
    assert all(words in str(raised.value) for words in ("'game'", "'Z9'", "family/2: field 'cards'"))


# Found while writing these tests: the loader must never fail with anything but a MissionError.
@pytest.mark.parametrize(
    "body, words",
    [
        # a count's rows with one good and one bad name: sorted() compares None with an int (TypeError)
        ('cards = 8\ncount = [{ cards = ["B1"], at_least = 1, rows = ["white", "purple"] }]', "got 'purple'"),
        # str.isdigit() accepts "²", int() does not (ValueError)
        ('cards = 4\npositions = { "²" = "Titania" }', "got '²'"),
    ],
)
def test_a_malformed_mission_never_crashes_the_loader(body, words):
    assert_one_problem(HEADER + body + "\n", words)


# Found while writing these tests: missions that no deal can win, accepted silently (docs/family.md:
# loading reports "impossible counts" and contradictory positions).
@pytest.mark.parametrize(
    "body, words",
    [
        ('cards = 2\ncount = [{ cards = ["B1", "B2", "B3"], at_least = 3 }]', "count"),  # 3 of 2 cards played
        ('cards = 4\npositions = { "1" = "Titania", "01" = "Snake" }', "position"),  # two cards at position 1
    ],
)
def test_an_impossible_mission_is_refused(body, words):
    assert_one_problem(HEADER + body + "\n", words)


# --- random objectives ---------------------------------------------------------------------------------


@pytest.mark.parametrize("count", range(13))
def test_random_objectives_are_valid_missions_with_count_required_cards(count):
    for seed in range(20):
        m = random_objectives(count, np.random.default_rng(seed))
        assert m.id.startswith(f"{GAME}/") and (m.cards, m.row_length) == (12, 4)
        assert m.required.bit_count() == count
        assert not m.forbidden and not m.order and not m.positions and not m.counts
        assert all(cards.bit_count() <= 4 for cards in m.in_row)  # a row holds four cards
        in_rows = [cards for cards in m.in_row] + [m.anywhere]
        assert sum(cards.bit_count() for cards in in_rows) == count  # each required card in one place
        assert_valid(m)


def test_random_objectives_fill_rows_to_capacity_then_go_anywhere():
    """With 12 required cards a row often draws more than four: the rest must be played anywhere."""
    full = 0
    for seed in range(200):
        m = random_objectives(12, np.random.default_rng(seed))
        assert max(cards.bit_count() for cards in m.in_row) <= 4
        full += any(cards.bit_count() == 4 for cards in m.in_row)
    assert full > 0  # the capacity is reached, so the bound is exercised


def test_random_objectives_use_every_row_and_anywhere():
    seen = [0, 0, 0, 0]
    for seed in range(50):
        m = random_objectives(4, np.random.default_rng(seed))
        for place, cards in enumerate([*m.in_row, m.anywhere]):
            seen[place] += cards.bit_count()
    assert all(seen)


def test_random_objectives_repeat_from_the_seed():
    assert random_objectives(6, np.random.default_rng(7)) == random_objectives(6, np.random.default_rng(7))


@pytest.mark.parametrize("count", [-1, 13])
def test_random_objectives_refuse_other_counts(count):
    with pytest.raises(InputError, match="0 to 12"):
        random_objectives(count, np.random.default_rng(0))
