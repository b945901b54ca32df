"""A plain depth-first search over Family Adventure turns: the independent check of the CP-SAT model.

It tries every legal turn (solver.family.turns.successors), drops a line as
soon as the row breaks an objective for good (solver.family.objectives.broken),
and remembers the positions it has refuted. A position forgets the order of the
cards inside each row of the layout: what is still possible depends on the
hands and special cards (the crew's pool too), whose turn it is, the hammock
tokens left (plain ones, and whether the shell's is still face up, with the
cards set aside for it), the last card (the next step and the row rules) and
which cards lie in which row (the objectives of the prefix are already checked;
what is left to check counts cards per row). Once the shell is found the cards
still aside are out of the game, so the key leaves them out.
"""

import time

from solver.core.solution import Limits, Outcome
from solver.family.deal import FamilyDeal
from solver.family.mission import FamilyMission
from solver.family.objectives import broken, unmet
from solver.family.solution import FamilySolution
from solver.family.turns import FamilyState, initial_state, successors

# A second of work (solver/core/solution.py's Limits): 13,800-17,300 positions a second measured on 120 random
# deals of 3-5 players and 6 objectives.
DFS_POSITIONS_PER_SECOND = 15_000


class OutOfBudget(Exception):
    pass


def position(mission: FamilyMission, state: FamilyState) -> tuple:
    """Return what the rest of the mission depends on: the state with each row as a set."""
    rows = [0, 0, 0]
    for index, c in enumerate(state.row):
        rows[mission.row_of(index + 1)] |= 1 << c
    aside = state.aside if state.shell_up else 0
    return (state.hands, state.specials, state.pool, aside, state.seat, state.plain, state.shell_up, state.row[-1:],
            tuple(rows))


def dfs_solve(deal: FamilyDeal, mission: FamilyMission, limits: Limits = Limits()) -> FamilySolution:
    """Return WIN with the turns of a winning line, LOSS, or UNKNOWN when the budget runs out."""
    start = time.perf_counter()
    refuted: set[tuple] = set()
    line = []
    nodes = 0
    max_nodes = limits.plays(DFS_POSITIONS_PER_SECOND)

    def wins(state: FamilyState) -> bool:
        nonlocal nodes
        if state.finished:
            return unmet(mission, state.row) is None
        key = position(mission, state)
        if key in refuted:
            return False
        nodes += 1
        if max_nodes is not None and nodes > max_nodes:
            raise OutOfBudget
        for turn, after in successors(state):
            if len(after.row) > len(state.row) and broken(mission, after.row, len(state.row)):
                continue
            line.append(turn)
            if wins(after):
                return True
            line.pop()
        refuted.add(key)
        return False

    initial = initial_state(deal, mission)
    try:
        outcome = Outcome.WIN if broken(mission, ()) is None and wins(initial) else Outcome.LOSS
    except OutOfBudget:
        outcome, line = Outcome.UNKNOWN, []
    return FamilySolution(outcome, nodes, time.perf_counter() - start, "dfs", line, nodes / DFS_POSITIONS_PER_SECOND)
