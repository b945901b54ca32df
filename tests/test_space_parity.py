"""Stage spaces: the Numba kernel against the plain-Python reference on random small deals.

Each space's rules (solver/trick/spaces/) are drawn at random over the deal's own
cards: any card set as the skis, any seat as the dog-sled driver, any fog
schedule in which every hand keeps a card to play; with plain tasks and with
trick conditions. Witnesses of the kernel are replayed by hand (conftest).
"""

from dataclasses import replace

import pytest
from conftest import check_witness, deals_and_missions, missions_with_conditions, small_deals
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.core.cards import CARD_COUNT, popcount, scan
from solver.core.rules import num_tricks
from solver.core.solution import Outcome
from solver.engines.kernel import KernelSolver
from solver.engines.reference import solve as reference_solve
from solver.trick.variants import PlayRules

KERNEL = KernelSolver(tt_bits=16)
EXAMPLES_PER_SPACE = 150
# The Ghost on a space: his own rules there (solver/trick/variants.py), normal or difficult at random.
GHOST_SPACES = ("ghost-skis", "ghost-hang-glider", "ghost-dog-sled", "ghost-fog", "ghost-helicopter", "ghost-jeep")
SPACES = ("skis", "hang-glider", "dog-sled", "fog", "helicopter", "jeep", "ghost", "difficult-ghost", *GHOST_SPACES)
GHOSTS = ("ghost", "difficult-ghost", *GHOST_SPACES)  # three seats, one of them a display: 3-player deals
BRANCHY = ("helicopter", "jeep", "hang-glider", "ghost-helicopter", "ghost-jeep", "ghost-hang-glider")  # smaller deals


@st.composite
def fog_schedules(draw, deal):
    """Per card, the trick after which it reaches its holder: each hand is dealt 1+ cards, then one a trick."""
    tricks = num_tricks(deal.hands)
    arrivals = [0] * CARD_COUNT
    for hand in deal.hands:
        cards = draw(st.permutations(list(scan(hand))))
        dealt = draw(st.integers(max(1, len(cards) - tricks + 1), len(cards)), label="dealt")
        for place, c in enumerate(cards):
            arrivals[c] = max(0, place + 1 - dealt)
    return tuple(arrivals)


@st.composite
def space_rules(draw, deal, space):
    if space == "skis":
        skis = draw(st.sets(st.sampled_from(list(scan(deal.cards))), min_size=1, max_size=2))
        return PlayRules(skis=sum(1 << c for c in skis))
    if space == "hang-glider":
        return PlayRules(hang_glider=True)
    if space == "dog-sled":
        return PlayRules(sled=draw(st.integers(0, deal.players - 1), label="driver"))
    if space in GHOST_SPACES:
        ghost = draw(space_rules(deal, draw(st.sampled_from(["ghost", "difficult-ghost"]))))
        rules = draw(space_rules(deal, space.removeprefix("ghost-")))
        if rules.sled == ghost.ghost:  # a player drives the dog sled
            rules = replace(rules, sled=(ghost.ghost + 1) % deal.players)
        if rules.arrivals:  # fog deals the Ghost's display whole
            arrivals = [0 if deal.hands[ghost.ghost] >> c & 1 else when for c, when in enumerate(rules.arrivals)]
            rules = replace(rules, arrivals=tuple(arrivals))
        return replace(rules, ghost=ghost.ghost, display=ghost.display, difficult=ghost.difficult)
    if space in GHOSTS:
        seat = draw(st.sampled_from([s for s, hand in enumerate(deal.hands) if popcount(hand) % 2 == 0]))
        display = tuple(draw(st.permutations(list(scan(deal.hands[seat]))), label="display"))
        return PlayRules(ghost=seat, display=display, difficult=space == "difficult-ghost")
    if space == "helicopter":
        triggers = draw(st.sets(st.sampled_from(list(scan(deal.cards))), min_size=1, max_size=2))
        return PlayRules(heli_pass=sum(1 << c for c in triggers))
    if space == "jeep":
        tricks = num_tricks(deal.hands)
        if tricks < 3:
            return PlayRules()
        after = draw(st.integers(1, tricks - 2), label="jeep after")
        order = draw(st.permutations([seat for seat in range(deal.players) for _ in range(2)]), label="jeep order")
        return PlayRules(jeep_after=after, jeep_order=tuple(order))
    return PlayRules(arrivals=draw(fog_schedules(deal)))


def deal_options(space, max_cards):
    """Small-deal options for a space: three seats with one extra card for the Ghost (one even hand)."""
    if space in GHOSTS:
        return {"min_players": 3, "max_players": 3, "extra_card": True, "max_cards": max_cards, "capped": False}
    return {"max_cards": max_cards, "capped": space in BRANCHY}


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


def test_difficult_ghost_with_four_columns():
    # With three columns or fewer the difficult Ghost may lead any face-up card (below and both
    # neighbours are all there is): four columns (eight cards, seven tricks) make the rule bite.
    @settings(max_examples=60)
    @given(deals_and_missions(min_players=3, max_players=3, min_cards=7, max_cards=7, extra_card=True,
                              capped=False).flatmap(
        lambda case: st.tuples(st.just(case), space_rules(case[0], "difficult-ghost"))
    ))
    def check(drawn):
        (deal, mission), rules = drawn
        agree(deal, replace(mission, space=rules))

    check()
