"""CP-SAT model == plain DFS on random small Family Adventure cases, and every witness replays legally.

The two searches share only the rules module's reading of the rulebook (the
DFS walks `solver.family.turns`; the CP-SAT model encodes the rules itself), so
agreement on many cases checks the model. 1,000 seeded cases run in every CI
run, plus hypothesis-drawn seeds (the derandomised CI profile draws the same
ones each run; other profiles draw new ones).
"""

from collections import Counter

import pytest
from family_cases import random_case
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.core.solution import Limits, Outcome
from solver.family.model import cpsat_solve
from solver.family.objectives import unmet
from solver.family.search import dfs_solve
from solver.family.turns import replay

CASES = 1000
PARTS = 4  # in four tests, so that the test workers share them (90 s in one)
SEED = 20261130
DFS_NODES = 20_000  # deterministic; a case past it is not counted as agreement (at most 1% may be)


def check_witness(deal, mission, solution) -> None:
    """A WIN's turns must replay legally from the deal and meet every objective."""
    state = replay(deal, mission, solution.turns)
    assert state.finished, f"{solution.engine}: the witness plays {len(state.row)} of {mission.cards} cards"
    assert unmet(mission, state.row) is None, f"{solution.engine}: {unmet(mission, state.row)}"


def compare(deal, mission) -> Outcome:
    """Solve with both engines; assert they agree and their witnesses hold; return the outcome."""
    dfs = dfs_solve(deal, mission, Limits(max_nodes=DFS_NODES))
    cpsat = cpsat_solve(deal, mission)
    assert cpsat.outcome is not Outcome.UNKNOWN
    if dfs.outcome is Outcome.UNKNOWN:
        return Outcome.UNKNOWN
    assert dfs.outcome is cpsat.outcome, f"dfs {dfs.outcome.value}, cp-sat {cpsat.outcome.value}: {deal} {mission}"
    for solution in (dfs, cpsat):
        if solution.outcome is Outcome.WIN:
            check_witness(deal, mission, solution)
    return cpsat.outcome


@pytest.mark.parametrize("part", range(PARTS))
def test_cpsat_and_dfs_agree_on_a_thousand_seeded_cases(part):
    share = CASES // PARTS
    outcomes = Counter(compare(*random_case(SEED, index)) for index in range(part * share, (part + 1) * share))
    assert outcomes[Outcome.UNKNOWN] <= share // 100, outcomes
    assert outcomes[Outcome.WIN] >= share // 10 and outcomes[Outcome.LOSS] >= share // 10, outcomes


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 10**6))
def test_cpsat_and_dfs_agree_on_fresh_cases(seed, index):
    compare(*random_case(seed, index))
