"""The kernel as an engine: `KernelSolver` solves deals one after another on one table, two
searches taking turns (heuristic move order and plain card order), and reads the winning line back
from the stack.
"""

import time

import numpy as np

from solver.core.cards import bit
from solver.core.deal import MAX_PLAYERS, Deal, make_deal
from solver.core.solution import KERNEL_PLAYS_PER_SECOND, Limits, Outcome, Solution, Trick
from solver.engines.capacity import kernel_unsupported
from solver.engines.kernel.arrays import (
    CARD_ORDER,
    CONTROL_CELLS,
    DEPTH,
    DUE,
    FRAME_COLUMNS,
    GENERATION,
    HEURISTIC_ORDER,
    LEAD,
    LEAVES,
    LOSS,
    MAX_MOVES,
    MAX_PLIES,
    NODES,
    ORDERING,
    PERFT,
    PLAYED,
    PLY_COLUMNS,
    POS,
    TABLE_POS,
    WIN,
    SearchArrays,
)
from solver.engines.kernel.problem import (
    EVERY_MOVE,
    HELI_PASS,
    JEEP_AFTER,
    MAX_TRICKS,
    PATTERN,
    TASK_CARDS,
    TRICKS,
    compile_task_mission,
)
from solver.engines.kernel.search import search
from solver.engines.kernel.table import TranspositionTable
from solver.missions.tasks import TaskMission, make_task_mission

ENGINE = "kernel"
SLICE_NODES = 1 << 14  # nodes a search runs before the other takes its turn (~2 ms)
UNLIMITED_NODES = (1 << 63) - 1


class SearchStack:
    """One resumable depth-first search: its stack arrays, control cells and move ordering."""

    def __init__(self, ordering: int):
        self.frames = np.zeros((MAX_TRICKS, FRAME_COLUMNS), dtype=np.int64)
        self.plies = np.zeros((MAX_PLIES, PLY_COLUMNS), dtype=np.int64)
        self.moves = np.zeros((MAX_PLIES, 2 * MAX_MOVES), dtype=np.int64)
        self.hands = np.zeros(MAX_PLAYERS, dtype=np.int64)
        self.control = np.zeros(CONTROL_CELLS, dtype=np.int64)
        self.ordering = ordering

    def reset(self, generation: int) -> None:
        """Prepare a new deal: the next `run` starts from the root."""
        self.control[:] = 0
        self.control[GENERATION] = generation
        self.control[ORDERING] = self.ordering

    def run(self, problem: np.ndarray, feasible: np.ndarray, pattern: np.ndarray, table: np.ndarray, nodes: int) -> int:
        """Search `nodes` more nodes at most; return RUNNING, WIN or LOSS."""
        limit = int(self.control[NODES]) + nodes
        arrays = SearchArrays(
            problem, feasible, pattern, self.frames, self.plies, self.moves, self.hands, self.control, table
        )
        return search(arrays, limit)

    @property
    def nodes(self) -> int:
        return int(self.control[NODES])

    def witness(self, problem: np.ndarray, players: int) -> list[Trick]:
        """Return the winning line held in the stack after a WIN (with the cards passed after each trick)."""
        depth = int(self.control[DEPTH]) + 1
        cards = self.plies[:depth, PLAYED].tolist()
        leaders = self.frames[:, LEAD].tolist()
        winners = self.frames[:, DUE].tolist()  # a trick's winner is due to lead the next
        task_cards = int(problem[TASK_CARDS])
        passed, tabled = {}, {}
        if problem[HELI_PASS] or problem[JEEP_AFTER] or problem[PATTERN]:  # plies between tricks: each after its trick
            plays, cards, trick = cards, [], 0
            for c, pos in zip(plays, self.plies[:depth, POS].tolist()):
                if pos < players:
                    cards.append(c)
                    trick += pos == players - 1
                elif pos == TABLE_POS:
                    tabled[trick - 1] = c
                else:
                    passed[trick - 1] = passed.get(trick - 1, ()) + (c,)
        tricks = []
        for t in range(len(cards) // players):
            played = tuple(cards[t * players : (t + 1) * players])
            completed = tuple([c for c in played if task_cards >> c & 1])
            tricks.append(Trick(leaders[t], played, winners[t + 1], completed, passed.get(t, ()), tabled.get(t, -1)))
        return tricks


class KernelSolver:
    """Solves deals one after another, reusing its transposition table and stacks.

    Two searches of the same deal take turns, `SLICE_NODES` each: one tries the
    heuristic move order first, the other plain card order. Either one's answer
    is the deal's (each is a complete search), and both store and read the same
    table of lost positions, so neither repeats a proof the other has finished.
    Which order finds a win fast differs from deal to deal by orders of
    magnitude, so taking turns costs at most about twice the faster of the two.
    """

    def __init__(self, tt_bits: int = 22):
        self.table = TranspositionTable(tt_bits)
        self.stacks = (SearchStack(HEURISTIC_ORDER), SearchStack(CARD_ORDER))

    def solve(
        self, deal: Deal, mission: TaskMission, limits: Limits = Limits(), generation: int | None = None,
        outcome_only: bool = False,
    ) -> Solution:
        """Decide whether the crew can complete every task of `mission` in `deal`.

        `outcome_only`: a WIN without its winning line (the realistic crew's samples ask only whether a card keeps
        the mission winnable; reading the line back cost 5% of its games, crew.GameTables).

        `generation` (from `table.next_generation()`): read and extend the lost positions
        stored under it by earlier calls, which must have had the same mission, seats,
        Commander and number of cards (another round on the same deal, or the distress
        passes of one deal): a position's fate depends only on the position then.
        Default: a new generation, so nothing stored before counts.
        """
        load_compiled()  # not inside this deal's `seconds`
        problem, feasible, pattern = compile_task_mission(deal, mission)
        if generation is None:
            generation = self.table.next_generation()
        for stack in self.stacks:
            stack.reset(generation)
        began = time.perf_counter()
        max_nodes = limits.plays(KERNEL_PLAYS_PER_SECOND)
        max_nodes = UNLIMITED_NODES if max_nodes is None else max_nodes
        nodes = 0
        while True:
            for stack in self.stacks:
                status = stack.run(problem, feasible, pattern, self.table.entries, min(SLICE_NODES, max_nodes - nodes))
                nodes = sum(s.nodes for s in self.stacks)
                seconds, work = time.perf_counter() - began, nodes / KERNEL_PLAYS_PER_SECOND
                if status == WIN and outcome_only:
                    return Solution(Outcome.WIN, nodes, seconds, ENGINE, work=work)
                if status == WIN:
                    tricks = stack.witness(problem, deal.players)
                    assignment = {c: t.winner for t in tricks for c in t.completed}
                    ordered = {c: assignment[c] for c in mission.cards}
                    return Solution(Outcome.WIN, nodes, seconds, ENGINE, tricks, ordered, work=work)
                if status == LOSS:
                    return Solution(Outcome.LOSS, nodes, seconds, ENGINE, work=work)
                if nodes >= max_nodes:
                    return Solution(Outcome.UNKNOWN, nodes, seconds, ENGINE, work=work)


SMALL_TT_BITS = 4  # perft and the warm-up never read a table; the search's stores need one all the same
_loaded = False  # the kernel's machine code is in this process (`load_compiled`)


def load_compiled() -> float:
    """Load the kernel's machine code into this process (from Numba's cache, else compiling it) by solving
    a one-card deal; return the seconds this call spent on it (0.0 once loaded). Every solve calls it
    first, so that a deal's `seconds` are its search's (measured: 0.14 s from the cache, 20 s compiling)."""
    global _loaded
    if _loaded:
        return 0.0
    _loaded = True  # the warm-up below is a solve too
    began = time.perf_counter()
    deal = make_deal([bit(0), bit(1), bit(2)])  # p1 | p2 | p3: seat 0 leads p1 and wins it
    KernelSolver(SMALL_TT_BITS).solve(deal, make_task_mission(deal, [0]))
    return time.perf_counter() - began


def perft(deal: Deal, mission: TaskMission, tricks: int) -> int:
    """Return the number of move sequences over the first `tricks` tricks of `deal` (perft), as the search
    makes them (solver/engines/reference.py's `perft` says what a move is), with no move pruned as
    equivalent and only the mission's rules of play (`TaskMission.rules_of_play`): no line is cut short."""
    problem, feasible, pattern = compile_task_mission(deal, mission.rules_of_play())
    total = int(problem[TRICKS])  # the redeal's trick included
    if not 0 <= tricks <= total:
        raise ValueError(f"perft counts 0 to {total} tricks of this deal, not {tricks}")
    if tricks == 0:
        return 1
    problem[EVERY_MOVE] = 1
    stack = SearchStack(CARD_ORDER)
    stack.reset(generation=1)
    stack.control[PERFT] = tricks
    status = stack.run(problem, feasible, pattern, TranspositionTable(SMALL_TT_BITS).entries, UNLIMITED_NODES)
    assert status == LOSS, "perft wins no mission: it ends when every sequence is counted"
    return int(stack.control[LEAVES])


def unsupported(mission: TaskMission) -> dict[str, str]:
    """Return what of `mission` the kernel does not model (solver/engines/protocol.py): what its
    arrays cannot hold; it raises UnsupportedMission naming it."""
    return kernel_unsupported(mission)


SINGLE_DEAL_TT_BITS = 20  # a fresh table for one deal: 24 MiB, its pages faulted in as they are touched


def solve(deal: Deal, mission: TaskMission, limits: Limits = Limits()) -> Solution:
    """Solve one deal with a fresh kernel solver (sweeps keep one `KernelSolver` per worker)."""
    return KernelSolver(SINGLE_DEAL_TT_BITS).solve(deal, mission, limits)
