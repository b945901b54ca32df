"""The default engine: the Numba DFS kernel first, then CP-SAT for the deals it cannot finish fast.

The DFS answers most deals in well under a millisecond, wins and losses alike,
but a few losses (and wins behind large lost subtrees) need it to refute
millions of lines. CP-SAT proves those in about a tenth of a second through
propagation and clause learning, but pays about 15 ms to build and read every
model (crew bench's LOSS sets: 8.5-15 ms of Python, about 6 ms for CP-SAT to
read it) before its own start. So the kernel gets a small node budget
(`DFS_NODES`, about 25 ms; `SHORT_DFS_NODES`, about 6 ms, when every task has
a fixed owner or the mission has trick conditions and no card changes hands
alone), and only deals it leaves open go on: CP-SAT (when it models the
mission) and the kernel then take two turns each of growing length, and CP-SAT
keeps the rest of the budget, at once where cards change hands one by one (seconds of work:
solver/core/solution.py); a special mission's clean tricks with three players are the kernel's alone
(`kernel_alone`). The answer names the engines in turn up to the one that found it: "kernel",
"kernel>cpsat", "kernel>cpsat>kernel" and so on; its `nodes` are the kernel's card plays and its
`branches` CP-SAT's (a `kernel>cpsat` answer reported only the kernel's capped plays, as if CP-SAT
had done nothing).
"""

import time

from solver.core.deal import Deal
from solver.core.solution import Limits, Outcome, Solution
from solver.engines import cpsat, kernel
from solver.engines.kernel import SINGLE_DEAL_TT_BITS, KernelSolver, load_compiled
from solver.missions.tasks import TaskMission

ENGINE = "auto"
DFS_NODES = 200_000  # ~25 ms; tuned on the benchmark sets (100k-300k all close)
# Fixed owners for every task: the kernel's wins mostly come early or not at all, and CP-SAT proves a
# loss as fast as it finds a win. Measured on random fixed-owner deals (crew bench's loss suite and 3p
# sets, 60 deals each): 50k nodes keeps the kernel's quick wins (WIN medians 0-5 ms at 3 players and
# at 4 with 8-10 tasks) and cuts every LOSS median by 15-20 ms (4p-fixed-10: 63 -> 46 ms; 5p-fixed-10:
# 46 -> 30); only 4p-fixed-12's WIN median grows (22 -> 44 ms, its p99 falls 112 -> 96).
# Trick counters and the balanced rule: 100 sweep deals each of missions 26 (4p, 5p), 34, 29 (5p) and
# 17 (3p), budgets taking turns: 50k nodes gives every cell a lower mean than 200k (26/5p 38.4 -> 34.2
# ms, 17/3p 11.5 -> 10.8, the others 2-7% lower); 10k raises three of the five means (17/3p: 22 ms).
# Not where cards change hands one by one (the helicopter, the jeep, mission 12's pass): CP-SAT's model there
# costs 0.2-0.3 s. Yellow for everyone with 5 players, 60 deals each, 50k/200k/1M nodes: the helicopter's
# mean 215/182/183 ms (median 202/15/16), the jeep's 94/75/72; the machete's (no trades) 51/55/61.
SHORT_DFS_NODES = 50_000
# After the kernel's budget the two engines take turns, CP-SAT first: CP_SAT_EFFORT of CP-SAT's deterministic
# time (its own unit: 0.5-1.7 wall seconds each on these models), then KERNEL_TURN_NODES card plays, then
# each TURN_GROWTH times more (GROWN_TURNS turns, below), until one decides or the time runs out. Both budgets are deterministic, so
# which engine answers, and the kernel's nodes, repeat run after run. Neither engine wins everywhere: "no 1
# and no 2" with 3 players, its scores proven by the kernel in 0.01-0.3 s, left CP-SAT open for 2 s, and
# the helicopter's 5-player deals the other way round (CP-SAT 0.3-0.7 s, kernel > 8 s). Measured on 16
# slow CP-SAT deals (5-player helicopter and jeep) and 24 3-player scores of "no 1 and no 2" left inexact
# at a 2 s budget: these turns leave 7 scores inexact in 20.3 s and decide the 16 in 8.7 s; CP-SAT alone
# after the kernel (as before) 20 inexact in 46.6 s and 8.3 s; 300k-play kernel turns 8 inexact; CP-SAT
# turns of 0.3 slower on both (22.7 s, 9.0 s); wall-time turns of 0.05-0.5 s did no better (7 inexact).
# After GROWN_TURNS turns CP-SAT keeps the rest of the time: each CP-SAT turn starts afresh, and turns growing
# on to the budget left three logbook LOSSes UNKNOWN at 10 s (missions 1, 17 and 26 with 3 players, deals
# 829, 868 and 726, which CP-SAT alone proves in 7.4, 2.8 and 4.9 s and the kernel alone in 9.4-13.8 s),
# where the kernel's budget and CP-SAT for the rest had proved them.
CP_SAT_EFFORT = 0.15
# Fixed owners for every task: CP-SAT's first turn is longer. There it proves most losses the kernel's budget leaves
# open, and a loss it needed a second turn for cost the kernel's million plays and a model built anew. The LOSS-heavy
# fixed-owner sets (4 players, 8-14 tasks, deals 0-199 and then 200-399 to check; 0.15 and 0.4 taking turns deal by
# deal, the machine busy with a sweep): the slowest LOSS 283 / 287 / 295 ms -> 126 / 229 / 157 (8 / 12 / 14 tasks),
# then 241 / 312 / 269 / 296 -> 99 / 176 / 113 / 121 (8 / 12 / 14 / 10); WIN and LOSS totals lower in 7 of those 8,
# medians within noise, the same answers; 5 players with 8 and 10 tasks alike. CP-SAT keeping the rest of the time
# at once did no better on these losses; the turns stay (above: the deals where the kernel's next turn decides).
FIXED_CP_SAT_EFFORT = 0.4
KERNEL_TURN_NODES = 1_000_000
GROWN_TURNS = 4  # CP-SAT 0.15 (0.4 with fixed owners), the kernel 1M plays, CP-SAT 4x, the kernel 4M plays; then CP-SAT
# Not where cards change hands one by one (`TaskMission.trades`): there CP-SAT keeps the rest after the kernel's budget. The
# slow deals (over 0.2 s) of Journey's yellow for everyone, pink for everyone, no green after blue and the trick
# call on the helicopter and the jeep, 3-5 players, 1,000 deals a cell (seed 1, 662 deals), taking turns: the
# same answers in 178 s instead of 297 (yellow for everyone with 5 players on the helicopter: median 0.29 s a
# deal instead of 0.68); no 1 and no 2 there (CP-SAT with its places to spare), its 185 slow deals and those left
# at a bound: 2 scores at a bound instead of 19 (the helicopter with 5 players: none instead of 14), 89 s instead of 205.
TURN_GROWTH = 4
# The cases of one deal that the kernel's first round leaves open, in one CP-SAT model (solve_together): Deep
# Sea's drafted totals, whose 630-25,200 assignments each cost the kernel or a model of their own. Totals 16
# and 20, 4 players, 30 deals each, seed 1: the 12 deals the 10 s budget had left UNKNOWN are decided (11 WIN,
# 1 LOSS), each in 0.3-4.4 s in all, and the sweep took 43 s instead of 196; the deterministic times seen were
# 0.02-0.72, so 5.0 is headroom no deal there reached (it bounds a model CP-SAT cannot settle).
TOGETHER_EFFORT = 5.0


def kernel_alone(deal: Deal, mission: TaskMission) -> bool:
    """Return True where the kernel alone decides a mission CP-SAT models (deterministic, as `dfs_budget`): a
    special mission's clean tricks with 3 players ("no 1 and no 2": at least k tricks holding none of a set,
    whoever wins them), and no other trick condition, unless cards change hands one by one or the Ghost plays.

    With 13 tricks CP-SAT's turns seldom settle these and cost the kernel the time it needs: the 24 three-player
    scores of journey-spaces-1000 (seed 1, "no 1 and no 2" on the spaces without trades) that took over 0.2 s,
    solved at a 2 s budget taking turns, 5 left at a bound instead of 7, in 17.8 s instead of 27.9 (the train's
    deal 591: the kernel proves a ninth clean trick out of reach in 8.1 M plays, 1.6 s of work, where its turns
    got 5 M). Not with 4 and 5 players (the kernel alone left 4 of 18 such scores at a bound instead of 1), nor
    beside the machete's trick values, which make every card distinct to the kernel (its 1,000 deals: 8 scores
    at a bound instead of 3), nor with the Ghost (the third seat of two players: on the hang glider with the
    difficult Ghost 3 of 1,000 scores fell to `>=1`).
    """
    everyone = (1 << deal.players) - 1
    return deal.players == 3 and mission.space.ghost < 0 and not mission.trades and bool(mission.counters) and all(
        counter.containing and counter.max_containing == 0 and counter.at_least > 0 and counter.winners == everyone
        for counter in mission.counters)


def unsupported(mission: TaskMission) -> dict[str, str]:
    """Return what of `mission` the portfolio cannot answer: what the kernel cannot (CP-SAT only
    ever gets the missions it models, which the kernel models too)."""
    return kernel.unsupported(mission)


class PortfolioSolver:
    """Solves deals one after another with one kernel (and its transposition table) reused."""

    def __init__(self, tt_bits: int = 22, dfs_nodes: int = DFS_NODES):
        self.kernel = KernelSolver(tt_bits)
        self.table = self.kernel.table
        self.dfs_nodes = dfs_nodes

    def dfs_budget(self, mission: TaskMission) -> int:
        """Return the kernel's node budget before CP-SAT, chosen by what the mission is (deterministic,
        so sweeps stay reproducible): smaller when every task has a fixed owner or there are trick
        conditions (counters, balance), unless cards change hands one by one."""
        conditions = bool(mission.counters) or mission.balanced is not None
        short = (mission.fixed_owners or conditions) and not mission.trades
        return min(self.dfs_nodes, SHORT_DFS_NODES) if short else self.dfs_nodes

    @staticmethod
    def first_effort(mission: TaskMission) -> float:
        """Return CP-SAT's first turn after the kernel's budget (deterministic, as `dfs_budget`): longer for tasks
        that each have a fixed owner (`FIXED_CP_SAT_EFFORT`); a mission of no task (trick conditions alone) keeps
        the short one, which its turns were measured with."""
        return FIXED_CP_SAT_EFFORT if mission.cards and mission.fixed_owners else CP_SAT_EFFORT

    @staticmethod
    def grown_turns(mission: TaskMission) -> int:
        """Return how many turns the engines take after the kernel's budget before CP-SAT keeps the rest of
        it: `GROWN_TURNS`, none where cards change hands one by one (deterministic, as `dfs_budget`)."""
        return 0 if mission.trades else GROWN_TURNS

    def solve(
        self, deal: Deal, mission: TaskMission, limits: Limits = Limits(), generation: int | None = None,
        outcome_only: bool = False,
    ) -> Solution:
        """Decide the deal: DFS within its node budget (`dfs_budget`), then CP-SAT and the DFS in turns
        of growing length (`CP_SAT_EFFORT`, `KERNEL_TURN_NODES`, `TURN_GROWTH`), `grown_turns` of them,
        and CP-SAT for the time left.

        A `max_nodes` limit is a DFS limit: with one, the kernel answers within it, then CP-SAT
        within `cp_sat_effort` if the limits give one (`capped`); the kernel alone answers missions
        with rules the CP-SAT model lacks (`cpsat.unsupported`: a jeep the Ghost may lack two face-up cards
        for, table patterns with other rules, the redeal, Deep Sea's rules on a stage space) and those it decides
        better alone (`kernel_alone`: three players' clean tricks). `generation`, `outcome_only`: see
        KernelSolver.solve (CP-SAT's WIN has its line); the kernel's later turns keep the lost positions of its
        first. The answer's engine lists the turns ("kernel>cpsat>kernel"); its nodes are the kernel's card plays.
        """
        if limits.max_nodes is not None:
            return self.capped(deal, mission, limits, generation, outcome_only)
        if cpsat.unsupported(mission) or kernel_alone(deal, mission):
            return self.kernel.solve(deal, mission, limits, generation, outcome_only)
        load_compiled()  # not inside this deal's `seconds`
        began = time.perf_counter()
        if generation is None:
            generation = self.table.next_generation()
        answer = self.kernel.solve(deal, mission, Limits(self.dfs_budget(mission), limits.max_work), generation,
                                   outcome_only)
        engines, nodes, branches, work = [answer.engine], answer.nodes, 0, answer.work
        effort, plays, turns = self.first_effort(mission), KERNEL_TURN_NODES, self.grown_turns(mission)
        while answer.outcome is Outcome.UNKNOWN:
            left = limits.after(work)
            if left.spent:
                break
            last = engines[-1] != cpsat.ENGINE and len(engines) > turns  # CP-SAT keeps the rest of the budget
            if engines[-1] == cpsat.ENGINE:
                answer = self.kernel.solve(deal, mission, Limits(plays, left.max_work), generation, outcome_only)
                nodes, plays = nodes + answer.nodes, plays * TURN_GROWTH
            else:
                answer = cpsat.solve(deal, mission, Limits(max_work=left.max_work), None if last else effort)
                effort, branches = effort * TURN_GROWTH, branches + answer.nodes
            work += answer.work
            engines.append(answer.engine)
            if last:
                break
        answer.engine, answer.nodes, answer.branches, answer.work = ">".join(engines), nodes, branches, work
        answer.seconds = time.perf_counter() - began
        return answer

    def capped(self, deal: Deal, mission: TaskMission, limits: Limits, generation: int | None,
               outcome_only: bool = False) -> Solution:
        """The kernel within `limits.max_nodes`, then, for a deal it leaves open, CP-SAT within
        `limits.cp_sat_effort` of its deterministic time when the limits give one and it models the mission
        (a round of cases.solve_in_rounds): "kernel>cpsat", its nodes the kernel's, its branches CP-SAT's."""
        load_compiled()  # not inside this deal's `seconds`
        began = time.perf_counter()
        answer = self.kernel.solve(deal, mission, limits, generation, outcome_only)
        if (answer.outcome is not Outcome.UNKNOWN or limits.cp_sat_effort is None or cpsat.unsupported(mission)
                or kernel_alone(deal, mission)):
            return answer
        left = limits.after(answer.work)
        if left.spent:
            return answer
        turn = cpsat.solve(deal, mission, Limits(max_work=left.max_work), limits.cp_sat_effort)
        turn.engine, turn.nodes, turn.branches = f"{answer.engine}>{turn.engine}", answer.nodes, turn.nodes
        turn.seconds, turn.work = time.perf_counter() - began, answer.work + turn.work
        return turn

    def solve_together(self, cases, limits: Limits) -> tuple[Solution, Deal | None] | None:
        """Decide the open (label, deal, mission) cases of one deal at once with CP-SAT's model of them all
        (cpsat.solve_cases) within `TOGETHER_EFFORT`, or return None when one model cannot hold them
        (cpsat.together). The answer's engine is "kernel>cpsat": the cases were the kernel's first."""
        if not cpsat.together(cases):
            return None
        answer, won_on = cpsat.solve_cases(cases, limits, TOGETHER_EFFORT)
        answer.engine, answer.branches, answer.nodes = f"{kernel.ENGINE}>{cpsat.ENGINE}", answer.nodes, 0
        return answer, won_on


def solve(deal: Deal, mission: TaskMission, limits: Limits = Limits()) -> Solution:
    """Solve one deal with a fresh portfolio (sweeps keep one `PortfolioSolver` per worker)."""
    return PortfolioSolver(SINGLE_DEAL_TT_BITS).solve(deal, mission, limits)
