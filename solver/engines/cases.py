"""A deal's cases (a mission's setups on its stage) solved in turn, in rounds of growing node budgets.

Any engine of solver/engines/protocol.py solves a case; these functions only order the work:
the first WIN among the cases wins, LOSS when every case loses. Nothing here loads compiled
code, so a one-off solve can start with the plain search (solver/api.py).
"""

import time
from dataclasses import replace

from solver.core.deal import Deal
from solver.core.solution import Limits, Outcome, Solution
from solver.missions.position import Position
from solver.missions.stage import ON_TRAIN, Stage, space_cases

DEFAULT_ENGINE = "auto"  # the engine a LOSS names when there was no case to solve
# The budgets per case of the rounds before the last: card plays, and in the second round a short turn of
# CP-SAT after them (the default engine's, for the missions it models). Deep Sea's drafted totals leave hundreds
# of lost cases open after the first round; CP-SAT proves most of them by propagation alone, in its
# ~10-20 ms of building and reading each model, where 1M card plays of the kernel often do not (difficulty-20,
# seeded deal 3 of crew bench's set: 80 cases open after 2,000 plays, 77 after 1M, 24 s; CP-SAT 20 ms each).
# 0.04 rather than 0.02: a win among a deal's many cases can lie just past 0.02 (pink for everyone on the Vespa with
# 5 players, deals 496 and 574, 248 swaps each: CP-SAT wins 496's first swaps in 0.035-0.037, the kernel none in
# 5-20 M plays, and 0.02 reached 44-48 swaps in the 2 s budget, leaving the score at a bound). Journey's special
# and yellow missions on the Vespa and the dog sled, 4-5 players, 1,000 deals a cell: that score exact, the dog
# sled's 5-player pink and yellow cells in 7.7 and 7.3 s instead of 19.9 and 23.5, no cell slower; Deep Sea's totals
# 8-20 (4 players, 30-60 deals) and the logbook at 3 and 5 players (40 deals a mission) the same answers in the same
# time.
ROUND_CP_SAT_EFFORT = 0.04
ROUNDS = (Limits(2_000), Limits(50_000, cp_sat_effort=ROUND_CP_SAT_EFFORT), Limits(1_000_000))


def solve_setups(
    deal: Deal, setups, solve, limits: Limits = Limits(), rounds=ROUNDS, stage: Stage = ON_TRAIN,
    position: Position = Position(), choice: str | None = None,
) -> Solution:
    """Solve a mission's setups (its existential choices) on a stage; the first WIN wins.

    The stage space may add choices (solver/missions/stage.py), named in the answer's setup
    (a Vespa swap: the line of play starts from the hands after it). With several
    cases, in rounds of growing node budgets (see `solve_in_rounds`). A `position`: the plays and the
    crew's choices so far, forced in every case (a case they are not legal in loses), and `choice`, the
    one case's label.
    """
    cases = [(label, start, position.on(mission) if position.plays else mission)
             for label, start, mission in space_cases(stage, deal, setups) if choice is None or label == choice]
    return solve_in_rounds(cases, solve, limits, rounds if len(cases) > 1 else ())[0]


def solve_in_rounds(cases: list, solve, limits: Limits = Limits(), rounds=ROUNDS, progress=None):
    """Solve (label, deal, mission) cases; return the first WIN and its deal (see `solve_cases`).

    Each round gives every case still open a budget (`rounds`: card plays, and maybe a turn of
    CP-SAT; then the caller's `limits`), so an easy winning case is not kept waiting behind hard
    losing ones. Wrap a solver object in `TableSharing` so a case's later rounds
    keep the lost positions of its earlier ones. `progress(round, done, total)`,
    if given, is called before each case is solved.
    """
    began = time.perf_counter()
    nodes, branches, work = 0, 0, 0.0  # the card plays, CP-SAT branches and work of every round so far

    def work_left():
        return limits.after(work).max_work

    def counted(answer: Solution) -> Solution:
        """Return `answer` with the plays, branches, work and seconds of every round so far."""
        nonlocal nodes, branches, work
        nodes, branches, work = nodes + answer.nodes, branches + answer.branches, work + answer.work
        answer.nodes, answer.branches, answer.work = nodes, branches, work
        answer.seconds = time.perf_counter() - began
        return answer

    caps = [cap for cap in rounds if limits.max_nodes is None or cap.max_nodes < limits.max_nodes]
    for number, cap in enumerate([*caps, Limits(limits.max_nodes)], 1):
        still_open = []
        answer, won_on = solve_cases(
            reported(cases, number, progress), solve, replace(cap, max_work=work_left()),
            None if cap.max_nodes is None else still_open,
        )
        answer = counted(answer)
        if answer.outcome is not Outcome.UNKNOWN or not still_open:
            return answer, won_on
        cases = still_open
        if number == 1 and limits.max_nodes is None and hasattr(solve, "solve_together"):  # in one model, if it can
            together = solve.solve_together(cases, Limits(max_work=work_left()))
            if together is not None:
                answer, won_on = counted(together[0]), together[1]
                if answer.outcome is not Outcome.UNKNOWN:
                    return answer, won_on
    return answer, won_on


def reported(cases: list, number: int, progress):
    """Yield the cases of round `number`, calling `progress` before each."""
    for done, case in enumerate(cases):
        if progress is not None:
            progress(number, done, len(cases))
        yield case


class TableSharing:
    """An engine over a KernelSolver or PortfolioSolver that gives each mission its own table generation.

    For the cases of one deal only (its setups, their rounds, its distress
    passes): they share seats, Commander and card count, so a position proved
    lost for a mission stays lost in every later call with that mission.
    """

    def __init__(self, solver):
        self.solver = solver
        # id(mission) -> (generation, mission): holding the mission keeps its id from being reused by another
        # (an analysis or an explanation makes missions call by call; a reused id would share lost positions)
        self.generations = {}

    def solve_together(self, cases, limits: Limits):
        """The solver's `solve_together` (the open cases of one deal in one model), or None without one."""
        together = getattr(self.solver, "solve_together", None)
        return None if together is None else together(cases, limits)

    def __call__(self, deal: Deal, mission, limits: Limits = Limits()) -> Solution:
        generation, _ = self.generations.get(id(mission), (None, None))
        if generation is None:
            generation = self.solver.table.next_generation()
            self.generations[id(mission)] = generation, mission
        return self.solver.solve(deal, mission, limits, generation)


def solve_cases(cases, solve, limits: Limits = Limits(), open_cases=None) -> tuple[Solution, Deal | None]:
    """Solve (label, deal, mission) cases in turn; return the first WIN and its deal.

    LOSS (and no deal) when every case loses; UNKNOWN when none wins and one ran
    out of budget. The work budget covers all cases together. `open_cases`, a
    list, receives the cases left UNKNOWN within the node budget.
    """
    began = time.perf_counter()
    nodes, branches, work, unknown, engine = 0, 0, 0.0, False, DEFAULT_ENGINE
    for case in cases:
        label, deal, mission = case
        left = limits.after(work)
        if left.spent:
            unknown = True
            break
        answer = solve(deal, mission, left)
        if answer.outcome is Outcome.UNKNOWN and open_cases is not None:
            open_cases.append(case)
        nodes, branches, work = nodes + answer.nodes, branches + answer.branches, work + answer.work
        engine = answer.engine
        if answer.outcome is Outcome.WIN:
            answer.setup = label
            answer.nodes, answer.branches, answer.work = nodes, branches, work
            answer.seconds = time.perf_counter() - began
            return answer, deal
        unknown |= answer.outcome is Outcome.UNKNOWN
    outcome = Outcome.UNKNOWN if unknown else Outcome.LOSS
    return Solution(outcome, nodes, time.perf_counter() - began, engine, branches=branches, work=work), None
