"""A one-off solve's first look: the plain search within a small allowance of card plays, all cases together.

Loading the kernel costs a process about 0.45 s (importing Numba, 0.3 s, then its machine code
from the cache, 0.15-0.25 s), against well under a millisecond of search for most deals. The
plain-Python reference needs no compiled code and, at 65,000-110,000 card plays a second, decides
most such deals within a few thousand plays: of 40 random deals each, 5,000 plays decide 37 with 3
players and 3 tasks, 35 with 4 players and 4 tasks, 33 with 4 and 8, and 22 with 5 and 6. So
`crew solve` lets it look first, within `QUICK_NODES` plays over all the request's cases (a node
allowance, not a time limit, so the same request answers the same way on any machine), and loads
the kernel only for what that leaves open (solver/api.py).
"""

from solver.core.deal import Deal
from solver.core.solution import Limits, Outcome, Solution
from solver.engines import reference
from solver.engines.capacity import kernel_unsupported
from solver.missions.tasks import TaskMission

QUICK_NODES = 5_000  # ~50-80 ms of plain search at most: less than the ~0.45 s the kernel's loading costs


class Allowance:
    """The reference engine within `nodes` card plays in all, over every call; UNKNOWN once they are spent,
    and for a mission the kernel cannot hold (the kernel then refuses it, as the default engine does)."""

    def __init__(self, nodes: int = QUICK_NODES):
        self.left = nodes

    def __call__(self, deal: Deal, mission: TaskMission, limits: Limits = Limits()) -> Solution:
        cap = self.left if limits.max_nodes is None else min(self.left, limits.max_nodes)
        if cap <= 0 or kernel_unsupported(mission):
            return Solution(Outcome.UNKNOWN, 0, 0.0, reference.ENGINE)
        answer = reference.solve(deal, mission, Limits(cap, limits.max_work))
        self.left -= answer.nodes
        return answer
