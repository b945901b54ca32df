"""Sweeps: many seeded deals per cell (solver/experiments/cell.py), solved in parallel, reproducibly.

A cell is a logbook (or mission-file) mission at one player count, or a
random-task experiment `tasks/K/MODE`: K random task cards, no tokens, owners
drafted (`draft`) or dealt blindly (`dealt`: task j of the draw goes to seat
Commander + j, clockwise, so the seats hold the draft counts with no choice).
Deal i of a cell depends only on (seed, cell, i), and the dealer makes it
(solver/missions/dealer.py, `dealt`): its generator is
`deal_rng(seed, i, key...)`, with the key naming the mission (crc32 of its id)
and the player count; a task experiment's key leaves out the owner mode, so
`dealt` and `draft` see the same deals and tasks (a paired comparison). The
results therefore do not depend on the job count, the batching or the cluster.

Family Adventure cells (`family/NAME`, or `family/objectives/K`: K random
required cards drawn per deal) are solved by a short DFS, then the CP-SAT
model (solver.family.engines.auto_solve), deal i from
`deal_rng(seed, i, crc32(cell name), players)`. A special (scored) Journey
mission's deal is solved for its highest score (solver.engines.score.max_score); the
record keeps the score (`Score`: at least N when the budget ran out), and WIN means a score above 0.

A trick-taking cell may stand on a Journey stage space: `MISSION@SPACE`
(`journey/yellow-for-everyone@skis`). Its deals are the same as the cell's
without the space (same generator and key), so spaces compare pair by pair;
fog deals its own way (solver.missions.stage.stage_deal). Two-player cells play with the
Ghost (JARVIS for Planet Nine and task experiments); `@difficult-ghost` marks
the difficult variant. A pattern mission (a special stage) deals as the
stage says (solver/missions/special.py: 7 cards out with 3 players, the redeal with 5).

Work goes out in batches (`Batch`) of deal indices of one cell, so a worker
pays the JIT load and its transposition table once and then solves deal after
deal; `solve_batch` is what a worker runs (a process pool, or a Dask cluster).
"""

import dataclasses
import re
import time
import zlib
from dataclasses import dataclass

from solver.core.cards import format_card
from solver.core.deal import deal_rng
from solver.core.errors import InputError
from solver.core.solution import Limits, Outcome, Solution
from solver.engines.analysis import line_position, slack, slack_limits
from solver.engines.cases import TableSharing, solve_setups
from solver.engines.crew import GameTables
from solver.engines.realistic import CREW_NODES, play_dealt
from solver.engines.score import max_score
from solver.experiments.cell import Cell, Kind
from solver.experiments.stats import Score
from solver.family.deal import format_family_deal, random_family_deal
from solver.family.engines import auto_solve
from solver.family.mission import FamilyMission, random_objectives
from solver.family.solution import FamilySolution
from solver.missions.dealer import Dealt, deal_mission, deal_task_experiment, dealt_record
from solver.missions.mission import Mission
from solver.missions.stage import space_cases

MAX_TASKS = 36  # colour cards


@dataclass(frozen=True)
class Batch:
    """Deals `indices` of a cell for one worker, on the cell's stage space and Ghost; `mission` is None for
    a random task or objective experiment."""

    cell: Cell
    mission: Mission | FamilyMission | None
    seed: int
    indices: tuple[int, ...]
    budget: float | None
    samples: int = 0  # the realistic crew's deals a decision (solver/engines/realistic.py); 0: perfect information only
    crew_nodes: int = CREW_NODES  # the card plays a crew's sample solve may take


@dataclass(frozen=True)
class CrewResult:
    """A deal played by the realistic crew, beside its perfect-information answer: the crew's result, its tasks
    done of all, the trick it failed in (None: won), the game's milliseconds, its plays (tricks separated by
    "/"), and the slack of the solver's winning line (None when the deal was not won): its decisions (plays with
    two legal cards or more), the critical ones among them (one card alone keeps the mission winnable, every
    other proved to lose it) and those perhaps critical (no other card proved to keep it winnable, some
    undecided within the slack's caps (`analysis.slack_limits`); None in a row of before they were
    counted, whose critical ones include them)."""

    result: str  # win, loss
    tasks_done: int
    tasks: int
    lost_in: int | None
    ms: float
    line: str
    decisions: int | None = None
    critical: int | None = None
    perhaps_critical: int | None = None
    score: int | None = None  # a special mission: the crew's score (its game played out)


@dataclass(frozen=True)
class Record:
    """One solved deal, as stored."""

    cell: Cell
    seed: int
    index: int
    result: str  # win, loss, unknown
    nodes: int
    ms: float
    engine: str
    setup: str  # the choices that won
    line: str  # the winning line: each trick's cards in play order (then "table CARD", then "passed CARDS": the
    # crew's passes after it, as Trick.passed), tricks separated by "/"
    score: Score | None = None  # a special mission's best score
    dealt: dict | None = None  # the deal and its draws as text (solver.missions.dealer.dealt_record)
    crew: CrewResult | None = None  # a sweep with the realistic crew: its game of the deal

    @property
    def players(self) -> int:
        return self.cell.players


def parse_numbers(text: str, what: str, low: int, high: int) -> list[int]:
    """Return the numbers of a list like `5,10,12` or `1-12` or `1-3,7`, in order, once each."""
    numbers = []
    for part in str(text).split(","):
        match = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", part)
        if not match:
            raise InputError(f"{what} must be numbers or ranges like 1-12 or 5,10,12, got {text!r}")
        first, last = int(match[1]), int(match[2] or match[1])
        if not low <= first <= last <= high:
            raise InputError(f"{what} {part.strip()} is not within {low}-{high}")
        numbers += [n for n in range(first, last + 1) if n not in numbers]
    return numbers


def family_case(batch: Batch, index: int):
    """Return deal `index` of a Family Adventure cell and its mission (random objectives are drawn per deal)."""
    rng = deal_rng(batch.seed, index, zlib.crc32(str(batch.cell).encode()), batch.cell.players)
    deal = random_family_deal(batch.cell.players, rng)
    if batch.mission is not None:
        return deal, batch.mission
    return deal, random_objectives(batch.cell.objectives, rng)


def solve_family_batch(batch: Batch) -> list[Record]:
    records = []
    for index in batch.indices:
        deal, mission = family_case(batch, index)
        solution = auto_solve(deal, mission, Limits(max_work=batch.budget))
        records.append(family_record(batch, index, solution, {"deal": format_family_deal(deal)}))
    return records


def family_record(batch: Batch, index: int, solution: FamilySolution, dealt: dict) -> Record:
    return Record(
        batch.cell, batch.seed, index, solution.outcome.value, solution.nodes, solution.seconds * 1000,
        solution.engine, "", solution.line, dealt=dealt,
    )


def dealt(batch: Batch, index: int) -> Dealt:
    """Return deal `index` of the batch's cell, with everything it is played with (the dealer's)."""
    cell = batch.cell
    if cell.kind is Kind.TASKS:
        return deal_task_experiment(cell.tasks, cell.owner_mode, cell.space, cell.players, batch.seed, index,
                                    cell.difficult)
    return deal_mission(batch.mission, cell.space, cell.players, batch.seed, index, cell.difficult)


_SOLVER = None  # the worker process's PortfolioSolver, made on its first batch: its table is reused deal after deal
_CREW_SOLVER = None  # and its KernelSolver for the realistic crew's many small solves


def solve_batch(batch: Batch) -> list[Record]:
    """Solve every deal of a batch (what a worker runs)."""
    global _SOLVER
    if batch.cell.family:
        return solve_family_batch(batch)
    if _SOLVER is None:
        from solver.engines.kernel import load_compiled  # Numba: a worker's, not the planning process's
        from solver.engines.portfolio import PortfolioSolver

        _SOLVER = PortfolioSolver()
        load_compiled()  # now, not inside the first timed deal
    records = []
    for index in batch.indices:
        game = dealt(batch, index)
        engine, limits = TableSharing(_SOLVER), Limits(max_work=batch.budget)
        if game.mission is not None and game.mission.score is not None:
            answer = max_score(game.deal, game.mission, list(game.cards), game.chance, engine, limits, game.stage)
            crew = play_crew(batch, index, game, answer.solution, special=True) if batch.samples else None
            records.append(dataclasses.replace(record(batch, index, game, answer.solution, answer.outcome,
                                                      Score(answer.score, answer.exact)), crew=crew))
            continue
        solution = solve_setups(game.deal, game.setups(), engine, limits, stage=game.stage)
        crew = play_crew(batch, index, game, solution) if batch.samples else None
        records.append(dataclasses.replace(record(batch, index, game, solution), crew=crew))
    return records


def crew_seed(seed: int, index: int) -> int:
    """Return the seed of the realistic crew's samples in deal `index` of a sweep of `seed` (`crew play --crew-seed`)."""
    return seed << 32 | index


def play_crew(batch: Batch, index: int, game: Dealt, solution: Solution, special: bool = False) -> CrewResult:
    """Return the realistic crew's game of deal `index` (its samples seeded by `crew_seed`), each sample's solve
    within the batch's crew nodes and budget, and the slack of the perfect-information line `solution` when it won
    (each of its solves by the worker's portfolio within `analysis.slack_limits`, and the budget; not
    for a `special` mission, whose line is a score's)."""
    global _CREW_SOLVER
    from solver.engines.kernel import SINGLE_DEAL_TT_BITS, KernelSolver

    if _CREW_SOLVER is None:
        _CREW_SOLVER = KernelSolver(SINGLE_DEAL_TT_BITS)
    began = time.perf_counter()
    crew_limits = Limits(max_nodes=batch.crew_nodes, max_work=batch.budget)
    played = play_dealt(game, batch.samples, crew_seed(batch.seed, index), GameTables(_CREW_SOLVER), crew_limits)
    ms = (time.perf_counter() - began) * 1000
    plays, players = played.mission.played, game.deal.players
    line = "/".join(" ".join(format_card(c) for c in plays[k : k + players]) for k in range(0, len(plays), players))
    decisions = critical = perhaps_critical = None
    if solution.outcome is Outcome.WIN and not special:
        start, case = next((start, case) for label, start, case in space_cases(game.stage, game.deal, game.setups())
                           if label == solution.setup)  # the Vespa's line: of the deal after its swap
        slacks = slack(start, case, line_position(solution), GameTables(_SOLVER), slack_limits(case, batch.budget),
                       critical_only=True)
        decisions = len(slacks)
        critical, perhaps_critical = (sum(s.critical for s in slacks), sum(s.perhaps_critical for s in slacks))
    return CrewResult(played.outcome.value, played.tasks_done, len(played.mission.cards), played.lost_in, ms, line,
                      decisions, critical, perhaps_critical, played.score)


def record(batch: Batch, index: int, game: Dealt, solution: Solution, outcome=None, score: Score | None = None
           ) -> Record:
    """Return the record of a solved deal, `game` (a special mission passes its own outcome and score)."""
    line = "/".join(
        " ".join(format_card(c) for c in trick.cards)
        + (f" table {format_card(trick.tabled)}" if trick.tabled >= 0 else "")
        + (f" passed {' '.join(format_card(c) for c in trick.passed)}" if trick.passed else "")
        for trick in solution.tricks
    )
    return Record(
        batch.cell,
        batch.seed,
        index,
        (outcome or solution.outcome).value,
        solution.nodes,
        solution.seconds * 1000,
        solution.engine,
        solution.setup,
        line,
        score,
        dealt_record(game),
    )


def batches(cell: Cell, mission: Mission | FamilyMission | None, seed: int, indices: list[int], budget,
            size: int, samples: int = 0, crew_nodes: int = CREW_NODES) -> list[Batch]:
    """Split the deal indices of a cell into batches of `size`, dealt on the cell's stage space and Ghost (with
    `samples`, each deal also played by the realistic crew)."""
    return [
        Batch(cell, mission, seed, tuple(indices[start : start + size]), budget, samples, crew_nodes)
        for start in range(0, len(indices), size)
    ]
