"""Stage spaces: the Numba kernel against the plain-Python reference on random small deals.

Each space's rules (solver/trick/spaces/) are drawn at random over the deal's own
cards: any card set as the skis, any seat as the dog-sled driver, any fog
schedule in which every hand keeps a card to play; with plain tasks and with
trick conditions. Witnesses of the kernel are replayed by hand (conftest).
"""

from dataclasses import replace

import pytest
from conftest import (
    BRANCHY,
    SPACES,
    check_witness,
    deal_options,
    deals_and_missions,
    four_column_difficult_ghosts,
    missions_with_conditions,
    pick_set,
    small_deals,
    space_rules,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.core.cards import popcount, scan
from solver.core.rules import num_tricks
from solver.core.solution import Outcome
from solver.engines.kernel import KernelSolver
from solver.engines.reference import solve as reference_solve
from solver.missions.tasks import make_task_mission
from solver.trick.variants import NO_RULES

KERNEL = KernelSolver(tt_bits=16)
EXAMPLES_PER_SPACE = 150
def agree(deal, mission):
    expected = reference_solve(deal, mission)
    got = KERNEL.solve(deal, mission)
    assert got.outcome is expected.outcome, f"kernel {got.outcome.value}, reference {expected.outcome.value}"
    if got.outcome is Outcome.WIN:
        check_witness(deal, mission, got)
    if expected.outcome is Outcome.WIN:
        check_witness(deal, mission, expected)


@pytest.mark.parametrize("space", SPACES)
def test_kernel_agrees_with_reference_on_task_missions(space):
    @settings(max_examples=EXAMPLES_PER_SPACE)
    @given(deals_and_missions(**deal_options(space, max_cards=4 if space in BRANCHY else 5)).flatmap(
        lambda case: st.tuples(st.just(case), space_rules(case[0], space))
    ))
    def check(drawn):
        (deal, mission), rules = drawn
        agree(deal, replace(mission, space=rules))

    check()


@pytest.mark.parametrize("space", SPACES)
def test_kernel_agrees_with_reference_on_trick_conditions(space):
    @settings(max_examples=EXAMPLES_PER_SPACE)
    @given(small_deals(**deal_options(space, max_cards=3 if space in BRANCHY else 4)).flatmap(
        lambda deal: st.tuples(st.just(deal), missions_with_conditions(deal), space_rules(deal, space))
    ))
    def check(drawn):
        deal, mission, rules = drawn
        agree(deal, replace(mission, space=rules))

    check()


@pytest.mark.parametrize("space", SPACES)
def test_reference_equivalence_reduction_respects_the_space(space):
    @settings(max_examples=100)
    @given(small_deals(**{**deal_options(space, max_cards=3 if space in BRANCHY else 4), "capped": True}).flatmap(
        lambda deal: st.tuples(st.just(deal), missions_with_conditions(deal), space_rules(deal, space))
    ))
    def check(drawn):
        deal, mission, rules = drawn
        mission = replace(mission, space=rules)
        assert reference_solve(deal, mission).outcome is reference_solve(deal, mission, equivalence=False).outcome

    check()


@settings(max_examples=60)
@given(four_column_difficult_ghosts())
def test_difficult_ghost_with_four_columns(case):
    agree(*case)


@st.composite
def spoiling_counters(draw, deal):
    """A "no 1 and no 2" counter over the deal: at least `at_least` tricks holding at most `most` of a set of its
    cards (`most` 0 mostly), asked at or just below the most that counting its cards allows (each hand plays its
    own in as many tricks, at most `players` in one), where the kernel's room bounds cut hardest."""
    from solver.missions.conditions import TrickCounter

    dealt = list(scan(deal.cards))
    named = pick_set(draw, dealt, min_size=1, max_size=len(dealt) - 1)
    most = draw(st.sampled_from([0, 0, 1]), label="most")
    tricks = num_tricks(deal.hands)
    spares = [popcount(hand) - tricks for hand in deal.hands]
    played = popcount(named) - sum(spares)
    spoiled = max(-(-played // (deal.players - most)), *(popcount(hand & named) - spare - most * tricks
                                                          for hand, spare in zip(deal.hands, spares)))
    at_least = max(0, tricks - spoiled - draw(st.integers(0, 1), label="below the top"))
    return TrickCounter((1 << deal.players) - 1, containing=named, min_containing=0, at_least=at_least,
                        max_containing=most)


@pytest.mark.parametrize("space", ["train", "helicopter", "jeep", "fog", "ghost-jeep"])
def test_kernel_agrees_with_reference_on_tricks_free_of_a_set(space):
    # The room bounds (moves.room_wasted inside a trick, bounds.keeps_room once a pass is made) cut a line as
    # soon as the cards a scoring trick may not hold cannot fit into the tricks left to spoil: Journey's
    # "one step for each trick containing no 1 and no 2" asked for its highest score.
    @settings(max_examples=EXAMPLES_PER_SPACE)
    @given(small_deals(**deal_options(space, max_cards=3 if space in BRANCHY else 4)).flatmap(
        lambda deal: st.tuples(st.just(deal), spoiling_counters(deal),
                               st.just(NO_RULES) if space == "train" else space_rules(deal, space))
    ))
    def check(drawn):
        deal, counter, rules = drawn
        agree(deal, replace(make_task_mission(deal, [], counters=[counter], specs=True), space=rules))

    check()
