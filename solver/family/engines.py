"""The Family Adventure engines by name, and `auto`: a short DFS first, then the CP-SAT model.

Both searches are exact, so the portfolio changes only the time: most deals of
the built-in missions are won within a few dozen DFS positions (a few ms), where
building and solving the CP-SAT model costs 30-150 ms; a deal the DFS does not
settle within `QUICK_DFS_NODES` goes to CP-SAT, which also refutes losses fast.
"""

import time

from solver.core.solution import Limits, Outcome
from solver.family.deal import FamilyDeal
from solver.family.mission import FamilyMission
from solver.family.model import cpsat_solve
from solver.family.search import dfs_solve
from solver.family.solution import FamilySolution

QUICK_DFS_NODES = 40


def auto_solve(deal: FamilyDeal, mission: FamilyMission, limits: Limits = Limits()) -> FamilySolution:
    """Return the DFS's answer if it comes within QUICK_DFS_NODES positions, else CP-SAT's."""
    start = time.perf_counter()
    quick = dfs_solve(deal, mission, Limits(QUICK_DFS_NODES, limits.max_work))
    if quick.outcome is not Outcome.UNKNOWN:
        return quick
    answer = cpsat_solve(deal, mission, Limits(max_work=limits.after(quick.work).max_work))
    answer.seconds, answer.work = time.perf_counter() - start, quick.work + answer.work
    return answer


ENGINES = {"auto": auto_solve, "cpsat": cpsat_solve, "dfs": dfs_solve}
