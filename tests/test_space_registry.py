"""The stage spaces' registry (solver/trick/spaces/): every space is one unit, found by its name.

Each unit holds its `crew spaces` texts and its reading with the Ghost, parses its options and names
them back (`str(space)` parses to the same space); an unknown name or a bad argument is a one-line
error. The spaces' rules themselves are tested by hand in tests/test_journey_spaces.py and
tests/test_ghost_spaces.py.
"""

import pytest

from solver.core.cards import card_set, parse_card_list
from solver.core.deal import deal_rng, parse_deal
from solver.trick.spaces import NO_EFFECT, PLAY_SPACES, SPACES, TRAIN, Space, SpaceError, StageSpace, parse_space
from solver.trick.spaces.bicycle import DEFAULT_BICYCLE_CARDS
from solver.trick.spaces.fog import DEFAULT_FOG_CARDS
from solver.trick.spaces.machete import DEFAULT_MACHETE_CARDS

# Each space's options as written after NAME=, and the space they name; NAME alone gives the defaults.
WITH_ARGUMENTS = [
    ("machete=b7 g9", Space("machete", machete=card_set(parse_card_list("b7 g9")))),
    ("fog=3", Space("fog", fog_cards=3)),
    ("bicycle=p2 y9", Space("bicycle", bicycle=card_set(parse_card_list("p2 y9")))),
]
DEFAULTS = {
    "machete": Space("machete", machete=DEFAULT_MACHETE_CARDS),
    "fog": Space("fog", fog_cards=DEFAULT_FOG_CARDS),
    "bicycle": Space("bicycle", bicycle=DEFAULT_BICYCLE_CARDS),
}
DEAL = parse_deal("r4 p1 p2 | b1 b2 b3 | g1 g2 g3")


def test_the_registry_lists_the_spaces_that_change_play_first():
    # `crew spaces` and the error for an unknown name list them in this order.
    assert list(SPACES) == [*PLAY_SPACES, *NO_EFFECT]
    assert list(PLAY_SPACES) == ["skis", "vespa", "machete", "hang-glider", "helicopter", "dog-sled", "jeep", "fog"]
    assert "train" in NO_EFFECT and TRAIN == parse_space("train")


@pytest.mark.parametrize("name", SPACES)
def test_every_space_has_its_texts(name):
    space = SPACES[name]
    assert isinstance(space, StageSpace) and space.name == name
    assert space.effect and "\n" not in space.effect
    if space.changes_play:  # its reading with two players, under its line in `crew spaces`
        assert space.with_the_ghost and "\n" not in space.with_the_ghost
        assert PLAY_SPACES[name] == space.effect
    else:
        assert space.with_the_ghost == "" and NO_EFFECT[name] == space.effect


@pytest.mark.parametrize("name", SPACES)
def test_every_space_parses_its_name_and_round_trips(name):
    space = parse_space(name)
    assert space == DEFAULTS.get(name, Space(name)) and space.unit is SPACES[name]
    assert str(space) == name
    assert parse_space(f" {name.upper().replace('-', '_')} ") == space  # case, spaces and underscores are free


@pytest.mark.parametrize("text, space", WITH_ARGUMENTS, ids=[text for text, _ in WITH_ARGUMENTS])
def test_options_parse_and_round_trip(text, space):
    assert parse_space(text) == space
    assert str(space) == text and parse_space(str(space)) == space


@pytest.mark.parametrize("name", [name for name in SPACES if name not in DEFAULTS])
def test_a_space_without_options_refuses_an_argument(name):
    with pytest.raises(SpaceError) as error:
        parse_space(f"{name}=3")
    assert str(error.value) == f"stage space {name} takes no argument, got '3'"


@pytest.mark.parametrize("text, words", [
    ("fog=x", ["fog", "'x'"]),
    ("fog=0", ["fog", "at least 1"]),
    ("machete=r1", ["machete", "colour cards"]),
    ("bicycle=r2", ["bicycle", "colour cards"]),
])
def test_a_bad_option_is_a_one_line_error(text, words):
    with pytest.raises(SpaceError) as error:
        parse_space(text)
    assert "\n" not in str(error.value) and all(word in str(error.value) for word in words)


def test_an_unknown_name_is_a_one_line_error_naming_every_space():
    with pytest.raises(SpaceError) as error:
        parse_space("bogus")
    assert str(error.value) == f"unknown stage space 'bogus' (known: {', '.join(SPACES)})"


@pytest.mark.parametrize("name", [name for name in SPACES if name not in ("fog", "jeep")])
def test_a_space_without_chance_draws_nothing(name):
    # Seeded deals stay the same on every space but fog's: only fog and the jeep take from the generator.
    space = parse_space(name)
    rng = deal_rng(0, 0)
    drawn = space.unit.draw(space, DEAL, rng, -1)
    assert (drawn.arrivals, drawn.jeep_order) == ((), ())
    assert rng.integers(1 << 30) == deal_rng(0, 0).integers(1 << 30)


@pytest.mark.parametrize("name", NO_EFFECT)
def test_a_space_without_effect_adds_nothing(name):
    space = parse_space(name)
    unit = space.unit
    assert not space.changes_play and not space.trades_cards
    assert list(unit.play_rules(space, unit.draw(space, DEAL, deal_rng(0, 0), -1), DEAL, -1)) == [("", None)]
    assert list(unit.starting_deals(DEAL, ())) == [("", DEAL, ())]
    assert unit.forbidden_tricks(space) == ()
