"""Full deals with known answers (tests/data/known_deals.txt), WIN and LOSS, checked every run."""

from pathlib import Path

import pytest
from conftest import check_witness

from solver.core.cards import parse_card_list
from solver.core.deal import parse_deal
from solver.core.solution import Limits, Outcome
from solver.engines import cpsat
from solver.engines.kernel import KernelSolver
from solver.engines.portfolio import DFS_NODES, SHORT_DFS_NODES, PortfolioSolver
from solver.missions.conditions import Balanced, TrickCounter
from solver.missions.tasks import make_task_mission, parse_tokens

KNOWN_DEALS = Path(__file__).parent / "data" / "known_deals.txt"
BUDGET = Limits(max_work=60)  # far above what any engine needs here: a miss means a bug
KERNEL = KernelSolver()
PORTFOLIO = PortfolioSolver()


def read_cases():
    for line in KNOWN_DEALS.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, answer, speed, deal_text, tasks, tokens, owners = (f.strip() for f in line.split(";"))
            deal = parse_deal(deal_text)
            fixed = None if owners == "draft" else [int(seat) for seat in owners.split(",")]
            mission = make_task_mission(deal, parse_card_list(tasks), parse_tokens(tokens), fixed)
            yield pytest.param(deal, mission, Outcome(answer), speed, id=name)


CASES = list(read_cases())


def check(solution, deal, mission, answer):
    assert solution.outcome is answer
    if answer is Outcome.WIN:
        check_witness(deal, mission, solution)


@pytest.mark.parametrize("deal, mission, answer, speed", CASES)
def test_default_engine(deal, mission, answer, speed):
    check(PORTFOLIO.solve(deal, mission, BUDGET), deal, mission, answer)


@pytest.mark.parametrize("deal, mission, answer, speed", CASES)
def test_cpsat(deal, mission, answer, speed):
    check(cpsat.solve(deal, mission, BUDGET), deal, mission, answer)


@pytest.mark.parametrize("deal, mission, answer, speed", [c for c in CASES if c.values[3] == "fast"])
def test_kernel_alone(deal, mission, answer, speed):
    check(KERNEL.solve(deal, mission, BUDGET), deal, mission, answer)


def test_the_file_holds_wins_and_losses_for_every_player_count():
    answers = {(c.values[0].players, c.values[2]) for c in CASES}
    for players in (3, 4, 5):
        assert (players, Outcome.WIN) in answers and (players, Outcome.LOSS) in answers


def test_the_portfolio_gives_fixed_owners_and_trick_conditions_a_smaller_kernel_budget():
    # Its choice depends on the mission alone, so a sweep's answers never depend on timing.
    deal = parse_deal("p1 p2 p3 | b1 b2 b3 | g1 g2 g3", 0)
    portfolio = PortfolioSolver(tt_bits=16)
    drafted, fixed = make_task_mission(deal, [2]), make_task_mission(deal, [2], owners=[0])
    counted = make_task_mission(deal, [2], counters=[TrickCounter(0b111, at_least=1)])
    balanced = make_task_mission(deal, [2], balanced=Balanced(1))
    budgets = [portfolio.dfs_budget(mission) for mission in (drafted, fixed, counted, balanced)]
    assert budgets == [DFS_NODES, SHORT_DFS_NODES, SHORT_DFS_NODES, SHORT_DFS_NODES]
    assert SHORT_DFS_NODES < DFS_NODES
    assert portfolio.solve(deal, fixed).outcome is portfolio.solve(deal, drafted).outcome is Outcome.WIN
