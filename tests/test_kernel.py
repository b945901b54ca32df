"""The Numba kernel against the plain-Python reference: same answer on every deal, legal witnesses."""

import pytest
from hypothesis import given, settings

from conftest import check_witness, deals_and_missions
from solver.deal import parse_deal
from solver.kernel import KernelSolver
from solver.reference import solve as reference_solve
from solver.solution import Limits, Outcome
from solver.tasks import make_task_mission

# One solver for the whole module: its transposition table is reused from deal
# to deal, so the generation stamps are exercised too.
KERNEL = KernelSolver(tt_bits=16)

# At least 2,000 random small deals per run: 3-5 players, 3-6 cards each, 1-4
# tasks, every token kind, fixed and drafted owners.
EXAMPLES_PER_PLAYER_COUNT = 700


def agree(deal, mission):
    expected = reference_solve(deal, mission)
    got = KERNEL.solve(deal, mission)
    assert got.outcome is expected.outcome, f"kernel {got.outcome.value}, reference {expected.outcome.value}"
    if got.outcome is Outcome.WIN:
        check_witness(deal, mission, got)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_kernel_agrees_with_reference(players):
    @settings(max_examples=EXAMPLES_PER_PLAYER_COUNT)
    @given(deals_and_missions(min_players=players, max_players=players, capped=False))
    def check(case):
        agree(*case)

    check()


def test_node_budget_gives_unknown_and_the_next_deal_is_unaffected():
    deal = parse_deal("p1 p2 p3 p4 | b1 b2 b3 b4 | g1 g2 g3 g4 | y1 y2 y3 y4")
    mission = make_task_mission(deal, [deal_card for deal_card in (0, 9)], owners=[2, 3])
    assert KERNEL.solve(deal, mission, Limits(max_nodes=1)).outcome is Outcome.UNKNOWN
    assert KERNEL.solve(deal, mission).outcome is reference_solve(deal, mission).outcome
