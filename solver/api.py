"""The public Python API: solve one deal as `crew solve` does, sweep as `crew sweep` does.

    from solver.api import SolveRequest, solve

    answer = solve(SolveRequest(deal="p1 p2 p3 | b1 b2 b3 | g1 g2 g3", tasks="p3", commander=0))
    answer.solution.outcome            # Outcome.WIN
    answer.solution.tricks             # the winning line of play
    answer = solve(SolveRequest(deal=text, mission="planet-nine/12", seed=3, distress=True))
    answer.distress.solution           # with the distress signal too

A request names the deal (two players: with the Ghost's display, `HAND | HAND | UP / DOWN`), a
task mission (`tasks`, `owners`, `tokens`) or a mission (`mission`, `mission_file`), the stage
space, the engine and the limits. The seed draws what the deal does not say: the mission's task
cards, its chance (mission 12's pass), the space's draws (fog, the jeep) and a special stage's
redeal, each from its own key (solver/missions/dealer.py: `TASK_DRAW`, `CHANCE_DRAW`, `SPACE_DRAW`),
so the draws do not depend on one another. Bad input raises InputError with a one-line message.

    result = run_sweep(SweepRequest(missions="1-10", players="3,4", deals=50, out="sweeps/mine"))
    result.summaries                   # one CellSummary a cell: counts, win rate and interval, times
    read_sweep("sweeps/mine")          # the same, from the results database, any time later

A sweep stores every deal in OUT/results.db as it is solved; the same request again resumes it.

    answer = solve_family(FamilySolveRequest(mission="family/toolbox-grey", players=4, seed=7))
    answer.solution.outcome            # Family Adventure: the turns of a WIN in answer.solution.turns

    answer = run_benchmarks(BenchRequest(suite="kernel", quick=True, baseline="results/bench-baseline.json"))
    answer.code                        # 0: the same answers and nodes within tolerance (crew bench's exit code)
"""

import contextlib
import dataclasses
import itertools
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from solver.core.cards import parse_card_list
from solver.core.cp_sat import load_cp_sat
from solver.core.deal import MAX_PLAYERS, Deal, deal_rng, parse_deal
from solver.core.errors import InputError
from solver.core.solution import BUDGET_UNIT, Limits, Outcome, Solution, checked_budget
from solver.engines import protocol
from solver.engines.analysis import (
    Analysis,
    PostMortem,
    Reached,
    analyze_position,
    case_solver,
    consistent_cases,
    post_mortem,
)
from solver.engines.cases import ROUNDS, TableSharing, solve_setups
from solver.engines.crew import GameTables, hidden_unsupported
from solver.engines.distress import solve_with_distress
from solver.engines.explain import Explanation, explain_loss
from solver.engines.quick import Allowance
from solver.engines.realistic import CREW_NODES, Game, play_dealt
from solver.engines.reference import walk
from solver.engines.score import ScoreAnswer, max_score
from solver.experiments.cell import Cell
from solver.experiments.plan import default_name, plan_sweep, sweep_game
from solver.experiments.stats import CellSummary
from solver.experiments.store import DATABASE, ResultStore
from solver.experiments.summary import SUMMARY_JSON, from_rows, versions, write_summary
from solver.experiments.sweep import crew_seed
from solver.family import model as family_model
from solver.family.deal import FamilyDeal, parse_family_deal, random_family_deal
from solver.family.engines import ENGINES as FAMILY_ENGINES
from solver.family.mission import FamilyMission, find_family_mission, random_objectives
from solver.family.solution import FamilySolution
from solver.missions.dealer import PLANET_NINE, Dealt, deal_mission, dealt_record, lay_out, lay_out_tasks, plain_deal
from solver.missions.ghost_knowledge import GhostSeat
from solver.missions.mission import Mission, find_mission
from solver.missions.position import PASS_WORD, TRICK_MARK, parse_played, played_from_json, position_of
from solver.missions.setup import Setup, events_so_far
from solver.missions.stage import Stage, crew_setups, space_cases, space_refusal, stage_refusal
from solver.missions.tasks import make_task_mission, parse_tokens
from solver.trick.ghost import DISPLAY_MARK, parse_ghost_deal
from solver.trick.spaces import TRAIN, parse_space

if TYPE_CHECKING:  # imported where used: the kernel, the sweep's workers and the benchmarks load Numba
    from solver.experiments import bench


@dataclass(frozen=True)
class SolveRequest:
    """One deal to solve, as `crew solve` takes it (text where the CLI takes text)."""

    deal: str | None = None  # hands separated by "|"; two players: "HAND | HAND | FACE-UP / FACE-DOWN" (None: drawn)
    tasks: str | None = None  # task cards, e.g. "g3 b7" (with a mission: instead of the seed's draw)
    owners: tuple[int, ...] | None = None  # a task mission's fixed owner per task (default: draft)
    tokens: str | None = None  # a task mission's tokens, e.g. "1,2,-"
    mission: str | None = None  # a mission id such as planet-nine/12
    mission_file: str | None = None  # look `mission` up in this file
    seed: int = 0
    commander: int | None = None  # the Commander when r4 is not dealt
    space: str | None = None  # a stage space, e.g. "skis" or "fog=4"
    difficult_ghost: bool = False
    engine: str = "auto"  # a name of solver.engines.protocol.ENGINES
    distress: bool = False  # also solve with the distress signal
    limits: Limits = Limits()
    # Without `deal`: the deal `crew deal` draws (`DealRequest`), deal `index` of `cell` (or of `mission`'s cell
    # on `space`) at `players`, with `seed`; with neither, a deal alone for the task mission `tasks`.
    cell: str | None = None
    players: int = 4
    index: int = 0


@dataclass(frozen=True)
class DistressAnswer:
    """The answer with the distress signal: on the deal (and the Ghost's display) after the pass."""

    solution: Solution
    deal: Deal
    stage: Stage


@dataclass(frozen=True)
class SolveAnswer:
    """A solved request: the deal and stage it was played on, its setups and the answer.

    `score`: a special mission's highest score (its `solution` the line reaching it); `distress`:
    the answer with the signal, when asked for (the answer without it when that already wins);
    `load_seconds`: what loading the kernel's machine code (or, for the cpsat engine, importing
    CP-SAT) cost this request, apart from the solution's `seconds` (0.0 once loaded in this process).
    """

    deal: Deal
    stage: Stage
    setups: list[Setup]
    solution: Solution
    mission: Mission | None = None
    score: ScoreAnswer | None = None
    distress: DistressAnswer | None = None
    load_seconds: float = 0.0
    dealt: Dealt | None = None  # the deal with everything it is played with (its draws), as laid out


KERNEL_ENGINES = ("auto", "kernel")  # the engines that search with the kernel


def sharing_engine(engine: str):
    """Return the engine for a deal's setups, rounds and passes: kernels keep a table per setup."""
    if engine == "kernel":
        from solver.engines.kernel import SINGLE_DEAL_TT_BITS, KernelSolver

        return TableSharing(KernelSolver(SINGLE_DEAL_TT_BITS))
    if engine == "auto":
        from solver.engines.kernel import SINGLE_DEAL_TT_BITS
        from solver.engines.portfolio import PortfolioSolver

        return TableSharing(PortfolioSolver(SINGLE_DEAL_TT_BITS))
    return protocol.engine(engine).solve


def load_kernel() -> float:
    """Import the kernel and load its machine code into this process; return the seconds it took (0.0 once
    loaded)."""
    began = time.perf_counter()
    from solver.engines.kernel import load_compiled

    loading = load_compiled()
    return time.perf_counter() - began if loading else 0.0


def read_deal(request: SolveRequest, game: str) -> tuple[Deal, tuple[int, ...]]:
    """Return the request's deal and the two-player display of `game` (JARVIS's, the Ghost's; empty without)."""
    if DISPLAY_MARK in request.deal:
        return parse_ghost_deal(request.deal, request.commander, game)
    return parse_deal(request.deal, request.commander), ()


def solve(request: SolveRequest, progress=None) -> SolveAnswer:
    """Solve a request; `progress(round, done, total)` follows the distress signal's passes.

    The default engine looks first with the plain search, within a small allowance of card plays
    (solver/engines/quick.py), and loads the kernel only if that leaves the request open; the answer
    then counts both searches, its engine named "reference>kernel..." (without the distress signal:
    its passes are many cases, each too big for the allowance).
    """
    first = None
    if request.engine == "auto" and not request.distress:
        first = solve_loaded(request, progress, Allowance())
        if decided(first):
            return first
    if request.engine in KERNEL_ENGINES:
        load_seconds = load_kernel()
    else:
        load_seconds = load_cp_sat() if request.engine == "cpsat" else 0.0
    left = request.limits if first is None else request.limits.after(first.solution.work)
    answer = solve_loaded(dataclasses.replace(request, limits=left), progress, sharing_engine(request.engine))
    if first is not None:
        answer.solution.engine = f"{first.solution.engine}>{answer.solution.engine}"
        answer.solution.nodes += first.solution.nodes
        answer.solution.seconds += first.solution.seconds
        answer.solution.work += first.solution.work
    return dataclasses.replace(answer, load_seconds=load_seconds)


def decided(answer: "SolveAnswer") -> bool:
    """Whether an answer is final: WIN or LOSS, and for a special mission its best score exact."""
    return answer.solution.outcome is not Outcome.UNKNOWN and (answer.score is None or answer.score.exact)


def solve_loaded(request: SolveRequest, progress, engine) -> SolveAnswer:
    """Solve a request with `engine` (a callable on a case, as solver/engines/cases.py takes)."""
    game = dealt_for(request)
    if game.stage.space.changes_play and request.distress:
        raise InputError("the distress signal is Planet Nine's and stage spaces are Journey's: "
                         "--distress goes without --space")
    mission = game.mission
    if mission is not None and mission.score is not None:
        if request.distress:
            raise InputError("a special (scored) mission is solved without --distress (its score is the best line's)")
        score = max_score(game.deal, mission, list(game.cards), game.chance, engine, request.limits, game.stage)
        return SolveAnswer(game.deal, game.stage, game.setups(score.events), score.solution, mission, score,
                           dealt=game)
    return dataclasses.replace(solve_setups_of(request, game, engine, progress), mission=mission, dealt=game)


def dealt_for(request: SolveRequest) -> Dealt:
    """Return the request's deal as laid out: given in text, or drawn as `crew deal` draws it."""
    if request.seed < 0:
        raise InputError(f"the seed is a whole number from 0 on, got {request.seed}")
    return given_deal(request) if request.deal is not None else drawn_deal(request)


def given_deal(request: SolveRequest) -> Dealt:
    """Return the request's deal as given in text, with what it does not say drawn from its seed."""
    mission = find_mission(request.mission, request.mission_file) if request.mission is not None else None
    # A task mission is Planet Nine's (JARVIS) unless it stands on one of Journey's stage spaces (the Ghost).
    game = mission.id.split("/", 1)[0] if mission is not None else "journey" if request.space is not None else PLANET_NINE
    deal, display = read_deal(request, game)
    if request.difficult_ghost and not display:
        raise InputError("--difficult-ghost needs a two-player deal with the Ghost's display (HAND | HAND | UP / DOWN)")
    space = parse_space(request.space) if request.space is not None else TRAIN
    if mission is None:
        return lay_out_tasks(deal, display, task_setup(request, deal), space, request.seed, request.difficult_ghost, game)
    if request.owners is not None or request.tokens is not None:
        raise InputError("--owners and --tokens come from the mission; leave them out with --mission")
    cards = parse_card_list(request.tasks) if request.tasks is not None else None
    return lay_out(deal, display, mission, space, request.seed, request.difficult_ghost, cards)


def drawn_deal(request: SolveRequest) -> Dealt:
    """Return the deal `crew deal` draws for the request's cell or mission (its task cards and chance as the
    sweep's), or a deal alone played with the request's task mission."""
    if request.cell is None and request.mission is None and request.tasks is None:
        raise InputError("give --deal, or --seed with --mission, --cell or --tasks (the deal crew deal draws), "
                         "or --batch FILE")
    drawn = deal(DealRequest(cell=request.cell, mission=request.mission, mission_file=request.mission_file,
                             space=request.space, players=request.players, difficult_ghost=request.difficult_ghost,
                             seed=request.seed, index=request.index))
    if request.commander is not None and request.commander != drawn.dealt.deal.commander:
        raise InputError(f"the drawn deal's commander is seat {drawn.dealt.deal.commander}, the holder of r4, not seat "
                         f"{request.commander} (--commander goes with a --deal without r4)")
    if drawn.cell is None:
        return dataclasses.replace(drawn.dealt, task_setup=task_setup(request, drawn.dealt.deal))
    if request.tasks is not None or request.owners is not None or request.tokens is not None:
        raise InputError(f"the task cards of {drawn.cell} are drawn with its deal: leave out --tasks, --owners "
                         "and --tokens, or give --deal")
    return drawn.dealt


def task_setup(request: SolveRequest, deal: Deal) -> Setup:
    """Return the one setup of a task mission (`tasks`, `owners`, `tokens`)."""
    if request.tasks is None:
        raise InputError("give --tasks, or --mission")
    tokens = parse_tokens(request.tokens) if request.tokens is not None else None
    owners = list(request.owners) if request.owners is not None else None
    return Setup("", make_task_mission(deal, parse_card_list(request.tasks), tokens, owners))


def solve_setups_of(request: SolveRequest, game: Dealt, engine, progress) -> SolveAnswer:
    """Solve the dealt game's setups on its stage, and with the distress signal when asked for."""
    deal, stage, setups = game.deal, game.stage, game.setups()
    rounds = () if request.engine == "cpsat" else ROUNDS  # CP-SAT has no node budget to grow
    solution = solve_setups(deal, setups, engine, request.limits, rounds, stage)
    if not request.distress:
        return SolveAnswer(deal, stage, setups, solution)
    if solution.outcome is Outcome.WIN:  # the crew may leave the signal unused
        return SolveAnswer(deal, stage, setups, solution, distress=DistressAnswer(solution, deal, stage))
    signalled, passed, passed_stage = solve_with_distress(deal, setups, engine, request.limits, progress, stage)
    return SolveAnswer(deal, stage, setups, solution, distress=DistressAnswer(signalled, passed or deal, passed_stage))


@dataclass(frozen=True)
class AnalyzeRequest:
    """A position to analyse, or a whole game for its post-mortem: the deal and mission as `crew solve` takes
    them (`solve`; its limits apply to each card's solve, or each prefix's), the plays so far (text, "|"
    between tricks, or tricks of cards: solver/missions/position.py), and the crew's choice among the
    mission's setups (a label of `crew solve`'s "choices:", e.g. "X = seat 2"), when known."""

    solve: SolveRequest
    played: str | tuple = ""
    choice: str | None = None


@dataclass(frozen=True)
class AnalyzeAnswer:
    """A position analysed (`analysis`: every legal card's verdict, a winning line) or a game's post-mortem
    (`post_mortem`), on the deal and stage it was played on."""

    deal: Deal
    stage: Stage
    setups: list[Setup]
    dealt: Dealt
    mission: Mission | None
    analysis: Analysis | None = None
    post_mortem: PostMortem | None = None
    load_seconds: float = 0.0
    events: int | None = None  # a special mission: the scoring events in the tricks played so far


def analyze(request: AnalyzeRequest, whole_game: bool = False) -> AnalyzeAnswer:
    """Analyse a position: for the seat to move, every legal card with its verdict (WIN: the mission stays
    winnable after it; a special mission's best score after it), the position's outcome and a line of play
    after a winning card; with `whole_game`, mark every play of the game instead (`PostMortem`: the first
    play after which the mission could no longer be won). A bad position raises PositionError naming its
    first bad play.

        answer = analyze(AnalyzeRequest(SolveRequest(deal=text, tasks="g3 b7", owners=(0, 2)), played="g3 b2 p4"))
        [(format_card(v.card), v.outcome.value) for v in answer.analysis.verdicts]
    """
    base = request.solve
    if base.distress:
        raise InputError("a position is played without --distress (the signal's pass comes before trick 1: "
                         "give the deal after it)")
    game = dealt_for(base)
    players = game.deal.players
    tricks = parse_played(request.played) if isinstance(request.played, str) else played_from_json(list(request.played))
    position = position_of(tricks, players)
    setups = game.setups()
    mission = game.mission
    scored = mission is not None and mission.score is not None
    consistent = consistent_cases(space_cases(game.stage, game.deal, setups), position, request.choice, scored)
    load_seconds = load_kernel() if base.engine in KERNEL_ENGINES else 0.0
    engine = sharing_engine(base.engine)
    if scored:
        def reach(_, prefix) -> Reached:
            score = max_score(game.deal, mission, list(game.cards), game.chance, engine, base.limits, game.stage,
                              prefix, request.choice)
            return Reached(score.solution, score)
    else:
        reach = case_solver(engine, base.limits)
    events = events_so_far(mission, game.deal, consistent[0].walked.tricks) if scored else None
    answer = AnalyzeAnswer(game.deal, game.stage, setups, game, mission, load_seconds=load_seconds, events=events)
    if whole_game:
        return dataclasses.replace(answer, post_mortem=post_mortem(consistent, reach))
    return dataclasses.replace(answer, analysis=analyze_position(consistent, reach))


@dataclass(frozen=True)
class ExplainAnswer:
    """Why a deal is lost: an impossible core of its mission's demands (`explanation`), on the deal and stage."""

    deal: Deal
    stage: Stage
    setups: list[Setup]
    explanation: Explanation
    load_seconds: float = 0.0


def explain(request: SolveRequest) -> ExplainAnswer:
    """Explain a LOSS: a smallest set of the mission's demands (tasks, tokens, counters, balance, sequence
    rules) that is already impossible on the deal, found by deletion with the exact solver (each within the
    request's limits); InputError when the deal is winnable or not proved lost.

        answer = explain(SolveRequest(deal=text, tasks="p8 b4 g2", owners=(1, 3, 0)))
        [demand.text for demand in answer.explanation.core]   # e.g. ["task p8 (seat 1)", "task b4 (seat 3)"]
    """
    if request.distress:
        raise InputError("explain a deal without --distress (or the deal after the signal's pass)")
    game = dealt_for(request)
    if game.mission is not None and game.mission.score is not None:
        raise InputError("a special mission scores; it is not won or lost: crew analyze gives its best score")
    load_seconds = load_kernel() if request.engine in KERNEL_ENGINES else 0.0
    setups = game.setups()
    explanation = explain_loss(space_cases(game.stage, game.deal, setups), sharing_engine(request.engine),
                               request.limits)
    return ExplainAnswer(game.deal, game.stage, setups, explanation, load_seconds)


@dataclass(frozen=True)
class PlayRequest:
    """A deal played by the hidden-information crew (solver/engines/realistic.py): the deal and mission as `crew
    solve` takes them (`solve`; its engine solves each sample, its limits apply to each of those solves), the deals
    sampled a decision, the seed of the crew's samples (apart from the deal's own `seed`), and the card plays a sample's
    solve may take (then it counts as not winnable, a card to play as half a win: crew.credit; the request's time
    budget applies to each sample's solve too)."""

    solve: SolveRequest
    samples: int = 16
    crew_seed: int = 0
    crew_nodes: int = CREW_NODES  # a sample's solve stops after this many card plays (then: open, crew.credit)


@dataclass(frozen=True)
class PlayAnswer:
    """A deal played by the crew (`game`), on the deal and stage it was played on, with the perfect-information
    answer of the same deal (`perfect`: WIN when a crew seeing every hand wins it)."""

    deal: Deal
    stage: Stage
    setups: list[Setup]
    game: Game
    perfect: Solution
    mission: Mission | None = None
    load_seconds: float = 0.0
    best: ScoreAnswer | None = None  # a special mission: the best score with every hand seen
    ghost: GhostSeat | None = None  # two players: who decided for the Ghost (JARVIS)


def play(request: PlayRequest) -> PlayAnswer:
    """Play a deal with a crew whose players each see only their own hand, the cards played and the cards shown:
    every decision from `samples` deals drawn from what its seat knows, each solved exactly.

        answer = play(PlayRequest(SolveRequest(mission="planet-nine/8", players=4, seed=3), samples=16))
        answer.game.outcome, answer.perfect.outcome   # e.g. (Outcome.LOSS, Outcome.WIN): lost by the crew
        [(d.seat, format_card(d.card)) for d in answer.game.decisions]
    """
    base = request.solve
    if base.distress:
        raise InputError("the crew plays without --distress (give the deal after the signal's pass)")
    game = dealt_for(base)
    mission = game.mission
    refusal = stage_refusal(game.stage)
    if refusal:
        raise InputError(f"the crew does not play with {refusal}: that is not in what a player knows yet")
    load_seconds = load_kernel() if base.engine in KERNEL_ENGINES else 0.0
    setups = crew_setups(game.stage, game.deal, game.setups())
    if request.crew_nodes < 1:
        raise InputError(f"a sample's solve has at least 1 card play, not {request.crew_nodes}")
    limits = Limits(max_nodes=request.crew_nodes, max_work=base.limits.max_work)
    played = play_dealt(game, request.samples, request.crew_seed, crew_engine(base.engine), limits)
    if mission is not None and mission.score is not None:
        best = max_score(game.deal, mission, list(game.cards), game.chance, sharing_engine(base.engine), base.limits,
                         game.stage)
        return PlayAnswer(game.deal, game.stage, setups, played, best.solution, mission, load_seconds, best,
                          game.ghost())
    perfect = solve_setups(game.deal, setups, sharing_engine(base.engine), base.limits, ROUNDS, game.stage)
    return PlayAnswer(game.deal, game.stage, setups, played, perfect, mission, load_seconds, ghost=game.ghost())


def crew_engine(engine: str):
    """Return the engine the crew solves its samples with: the kernel (`auto` too: its samples are many small
    solves) with one table a game (`GameTables`), or the named engine."""
    if engine in KERNEL_ENGINES:
        from solver.engines.kernel import SINGLE_DEAL_TT_BITS, KernelSolver

        return GameTables(KernelSolver(SINGLE_DEAL_TT_BITS))
    return protocol.engine(engine).solve


@dataclass(frozen=True)
class DealRequest:
    """A deal to draw, as `crew deal` takes it: deal `index` of a sweep cell (`cell`, or `mission`'s cell on
    `space`, with the difficult Ghost or not) at `players` with `seed`, exactly as the sweep deals it; or,
    with neither, a task mission's deal alone (two players: JARVIS's display, the Ghost's on a stage space)."""

    cell: str | None = None  # a sweep cell's name: planet-nine/12, tasks/8/dealt, journey/no-1-no-2@fog
    game: str | None = None  # the game of a mission named without it (`mission="12"`)
    mission: str | None = None  # a mission id such as planet-nine/12
    mission_file: str | None = None
    space: str | None = None
    players: int = 4
    difficult_ghost: bool = False
    seed: int = 0
    index: int = 0


@dataclass(frozen=True)
class DealAnswer:
    """A drawn deal: its cell (None for a deal alone), everything it is played with, and that as text."""

    cell: Cell | None
    dealt: Dealt
    record: dict  # solver.missions.dealer.dealt_record


def deal(request: DealRequest) -> DealAnswer:
    """Draw a deal (see DealRequest); bad input raises InputError with a one-line message."""
    from solver.experiments.sweep import Batch, dealt  # the dealer of a sweep's cells, as its workers use it

    r = request
    if r.seed < 0 or r.index < 0:
        raise InputError(f"the seed and the index are whole numbers from 0 on, got {r.seed} and {r.index}")
    if not 2 <= r.players <= MAX_PLAYERS:
        raise InputError(f"a deal is for 2 to {MAX_PLAYERS} players (2: with JARVIS or the Ghost), got {r.players}")
    if r.difficult_ghost and r.players != 2:
        raise InputError("--difficult-ghost is the two-player Ghost's: give --players 2")
    space = parse_space(r.space) if r.space is not None else TRAIN
    if r.cell is not None:
        if r.mission is not None or r.space is not None or r.difficult_ghost:
            raise InputError("a cell's name says its mission, space and Ghost: leave out --mission, --space and "
                             "--difficult-ghost with --cell")
        cell = Cell(r.cell, r.players)
    elif r.mission is not None:
        name = r.mission if "/" in r.mission or r.game is None else f"{r.game}/{r.mission}"
        cell = Cell(find_mission(name, r.mission_file).id, r.players).on_stage(space, r.difficult_ghost)
    else:  # a task mission's deal: Planet Nine's (JARVIS), or Journey's (the Ghost) on a stage space
        dealt_alone = plain_deal("journey" if r.space is not None else PLANET_NINE, space, r.players, r.seed, r.index,
                                 r.difficult_ghost)
        return DealAnswer(None, dealt_alone, dealt_record(dealt_alone))
    if cell.family:
        raise InputError(f"{cell} is a Family Adventure cell: crew family solve --seed draws its deals")
    mission = None
    if cell.mission is not None:
        mission = find_mission(cell.mission, r.mission_file)
        if max(r.players, 3) not in mission.players:
            raise InputError(f"{mission.id} is for {', '.join(map(str, mission.players))} players, not {r.players}")
    drawn = dealt(Batch(cell, mission, r.seed, (r.index,), None), r.index)
    return DealAnswer(cell, drawn, dealt_record(drawn))


@dataclass(frozen=True)
class ShowAnswer:
    """One stored deal of a sweep: its cell, seed and index, its answer as stored, the deal and its draws as
    text (dealt again from its seed, cell and index when the database is of before they were stored), and
    the `crew solve` command that solves it again (None for Family Adventure), and the line with its seats."""

    cell: Cell
    seed: int
    index: int
    result: str
    nodes: int
    ms: float
    engine: str
    setup: str
    line: str
    score: object  # solver.experiments.stats.Score of a special mission, else None
    dealt: dict | None
    command: str | None
    tricks: tuple | None = None  # the line replayed: Trick(leader, cards, winner, completed), see `seated_line`
    crew: object = None  # solver.experiments.sweep.CrewResult: the realistic crew's game, in a sweep that played it
    play_command: str | None = None  # the `crew play` command that plays that game again


def show(directory, cell_name: str, index: int, players: int | None = None) -> ShowAnswer:
    """Return deal `index` of the cell `cell_name` stored in a sweep's results directory; `players` may be left
    out when the cell has one player count there."""
    store = ResultStore(directory, create=False)
    found = store.deal_record(cell_name, index, players)
    if found.dealt is None and not found.cell.family:
        found = dataclasses.replace(found, dealt=deal(DealRequest(
            cell=str(found.cell), players=found.players, seed=found.seed, index=index)).record)
    command = solve_command(found.cell, found.seed, index, store.setting("budget"))
    tricks = None if found.cell.family else seated_line(found.cell, found.seed, index, found.setup, found.line)
    played = None
    if found.crew is not None:
        _, samples, nodes = store.setting("crew").split(", ")  # "realistic, N samples, M nodes"
        played = (f"crew play --cell {found.cell} --players {found.cell.players} --seed {found.seed} --index {index} "
                  f"--samples {samples.split()[0]} --crew-nodes {nodes.split()[0]} --crew-seed "
                  f"{crew_seed(found.seed, index)} --budget {store.setting('budget')}")
    return ShowAnswer(found.cell, found.seed, index, found.result, found.nodes, found.ms, found.engine, found.setup,
                      found.line, found.score, found.dealt, command, tricks, found.crew, played)


def seated_line(cell: Cell, seed: int, index: int, setup: str, line: str) -> tuple | None:
    """Return a stored line of play as tricks (leader, cards, winner, tasks completed, the crew's pass and table
    card), replayed on the cell's deal by the reference's rules (`walk`) in the case `setup` names; None for no
    line, or for a cell whose mission is not built in (a mission file's)."""
    if not line:
        return None
    try:
        drawn = deal(DealRequest(cell=str(cell), players=cell.players, seed=seed, index=index)).dealt
    except InputError:  # a mission of a mission file the store does not name: the line as stored
        return None
    scored = drawn.mission is not None and drawn.mission.score is not None
    stored = parse_played(line.replace(" passed ", f" {PASS_WORD} ").replace("/", TRICK_MARK))  # sweep.record's form
    position = position_of(stored, drawn.deal.players)
    for label, start, mission in space_cases(drawn.stage, drawn.deal, drawn.setups()):
        if label == setup:
            return walk(start, position.on(mission), scored).tricks
    return None


def solve_command(cell: Cell, seed: int, index: int, budget) -> str | None:
    """Return the `crew solve` command that solves a sweep's deal again (None for Family Adventure's)."""
    if cell.family:
        return None
    return (f"crew solve --cell {cell} --players {cell.players} --seed {seed} --index {index}"
            + (f" --budget {budget}" if budget is not None else ""))


def report_html(directory, target) -> Path:
    """Write a sweep's results directory as one self-contained HTML page (solver/experiments/html.py) to
    `target`: how it was made, the sortable table, the plots inline, a few lost and won deals per cell."""
    import io

    from solver.experiments import html
    from solver.experiments.plot import sweep_figure  # matplotlib loads only here

    store = ResultStore(directory, create=False)
    summaries = store.summaries()
    summary = Path(directory) / SUMMARY_JSON
    details = {k: v for k, v in json.loads(summary.read_text()).items() if k != "cells"} if summary.is_file() else {}
    budget = store.setting("budget")
    examples = {}
    for cell_summary in summaries:
        cell = cell_summary.cell
        records = [r for result in ("loss", "win") for r in store.examples(cell, result, html.EXAMPLES)]
        examples[cell] = [html.Example(r.index, r.result, r.dealt["deal"] if r.dealt else "(not stored)", r.line,
                                       solve_command(cell, r.seed, r.index, budget)
                                       or f"crew show {directory} {cell} {r.index} --players {cell.players}")
                          for r in records]
    figure = None
    if any(s.interval is not None for s in summaries):
        svg = io.StringIO()
        sweep_figure(summaries).savefig(svg, format="svg")
        figure = svg.getvalue()
    target = Path(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(html.page(summaries, details, examples, figure, f"crew sweep: {Path(directory).name}"))
    except OSError as error:
        raise InputError(f"cannot write the report to {target}: {error}") from None
    return target


@dataclass(frozen=True)
class SweepRequest:
    """A sweep, as `crew sweep` takes it (text where the CLI takes text)."""

    game: str | None = None  # planet-nine, journey, deep-sea or family (default: the mission file's game, else planet-nine)
    missions: str | None = None  # numbers (1-50, 5,17) or names; default: all of the game
    mission_file: str | None = None
    tasks: str | None = None  # a random-task experiment: task counts, e.g. "1-12"
    owners: str | None = None  # with tasks: draft, dealt, or draft,dealt
    objectives: str | None = None  # Family Adventure: numbers of required cards, e.g. "0-8"
    space: str | None = None  # stage spaces, e.g. "skis,vespa" or "all"
    players: str = "4"  # player counts, e.g. "3,4,5"
    difficult_ghost: bool = False
    deals: int = 100  # per cell
    seed: int = 1
    jobs: int | None = None  # local worker processes (default: the cores)
    budget: float = 10.0  # seconds per deal before UNKNOWN
    out: str | None = None  # the results directory (default: sweeps/ and a name from the request)
    scheduler: str | None = None  # a Dask scheduler, tcp://HOST:PORT
    batch: int = 25  # deals per task sent to a worker
    command: str | None = None  # how the sweep was asked for, for summary.json (default: this request)
    crew: str = "perfect"  # who plays: perfect (information: the solver alone), or also the realistic crew
    samples: int = 16  # the realistic crew's deals a decision
    crew_nodes: int = CREW_NODES  # the card plays a sample's solve may take (then: open, crew.credit)


@dataclass(frozen=True)
class SweepResult:
    """A sweep's results directory, its cells' summaries in table order, and whether it was interrupted
    (then the same request resumes it)."""

    out: Path
    summaries: list[CellSummary]
    interrupted: bool


def run_sweep(request: SweepRequest, make_progress=None, note=None) -> SweepResult:
    """Run (or resume) a sweep. `make_progress(total, needed)` (`needed`: cell -> deals to solve in this run)
    returns a `progress(records)` called after each batch; `note(text)` receives each remark on the plan
    (what it leaves out: missions at player counts they are not for, pattern missions on spaces that change
    play)."""
    from solver.experiments.runner import connect, default_jobs, run_batches  # the workers load the kernel
    from solver.experiments.sweep import batches

    r = request
    checked_budget(r.budget)
    game = sweep_game(r.game, r.mission_file)
    cells, notes = plan_sweep(game, r.missions, r.mission_file, r.tasks, r.owners, r.objectives, r.space,
                              r.players, r.difficult_ghost)
    for remark in notes:
        if note is not None:
            note(remark)
    samples = crew_samples(r, cells, note)
    out = Path(r.out) if r.out else Path("sweeps") / default_name(game, r.missions, r.tasks, r.owners,
                                                                   r.objectives, r.space, r.players, r.seed)
    with connect(r.scheduler) if r.scheduler else contextlib.nullcontext() as cluster:  # then the store
        store = ResultStore(out)
        crew = f"realistic, {r.samples} samples, {r.crew_nodes} nodes" if any(samples.values()) else "perfect"
        store.check_settings({"seed": r.seed, "budget": r.budget, "budget_unit": BUDGET_UNIT, "engine": "auto",
                              "crew": crew})
        store.check_definition([cell for cell, _ in cells], r.deals)
        per_cell, needed = [], {}
        for cell, mission in cells:
            done = store.done(cell, r.seed)
            missing = [i for i in range(r.deals) if i not in done]
            per_cell.append(batches(cell, mission, r.seed, missing, r.budget, r.batch, samples[cell], r.crew_nodes))
            needed[cell] = len(missing)
        # Cells in rounds, a batch of each in turn: an interrupted sweep has deals of every cell.
        work = [batch for round_ in itertools.zip_longest(*per_cell) for batch in round_ if batch is not None]
        total = sum(needed.values())
        progress = make_progress(total, needed) if make_progress is not None else (lambda records: None)
        interrupted = False
        try:
            run_batches(work, store, r.jobs or default_jobs(), cluster, progress)
        except KeyboardInterrupt:
            interrupted = True
    ordered = sorted((cell for cell, _ in cells), key=Cell.table_order)
    summaries = [store.summary(cell, limit=r.deals) for cell in ordered]
    write_summary(out, summaries, {
        "command": r.command or repr(r), "seed": r.seed, "deals": r.deals, "budget_seconds": r.budget,
        "crew": crew, "versions": versions(), "complete": not interrupted,
    })
    return SweepResult(out, summaries, interrupted)


CREWS = ("perfect", "realistic")


def crew_samples(request: SweepRequest, cells, note=None) -> dict:
    """Return per cell the realistic crew's samples a decision (0: perfect information only). A cell the crew does
    not play (`crew_refusal`: Family Adventure, a stage space whose effect a player does not see, a mission's rule
    the crew does not model there, e.g. mission 12's random pass on the hang glider) keeps perfect information, said in a
    `note`; InputError for a crew not in CREWS, or when the crew
    plays no cell at all."""
    if request.crew not in CREWS:
        raise InputError(f"the crew is perfect or realistic, not {request.crew!r}")
    if request.crew == "perfect":
        return {cell: 0 for cell, _ in cells}
    if request.samples < 1 or request.crew_nodes < 1:
        raise InputError(f"the realistic crew samples at least 1 deal a decision, each solved within at least 1 card "
                         f"play, not {request.samples} and {request.crew_nodes}")
    samples, left_out = {}, []
    for cell, mission in cells:
        why = crew_refusal(cell, mission)
        samples[cell] = 0 if why else request.samples
        if why:
            left_out.append(f"{cell} ({cell.players} players): {why}")
    if left_out and not any(samples.values()):
        raise InputError(f"the realistic crew plays none of these cells ({left_out[0]}): sweep them with --crew "
                         "perfect")
    for text in left_out:
        if note is not None:
            note(f"the realistic crew does not play {text}; its cell has perfect information only")
    return samples


def crew_refusal(cell: Cell, mission) -> str:
    """Return why the realistic crew does not play a sweep's cell, or "" when it does."""
    if cell.family:
        return "Family Adventure"
    refusal = space_refusal(cell.space)
    if refusal:
        return refusal
    if mission is not None:  # what the crew does not model in the mission's rules there: its first deal says
        game = deal_mission(mission, cell.space, cell.players, 0, 0, cell.difficult)
        for setup in crew_setups(game.stage, game.deal, game.setups()):
            why = hidden_unsupported(setup.mission)
            if why:
                return why
    return ""


def plot_sweep(directory, output=None) -> Path:
    """Draw a sweep's win rates with their 95% intervals (solver/experiments/plot.py) to `output`, a .png or
    .svg file (default: DIRECTORY/winrates.png); return its path. Without the results database, from the
    directory's summary.json (a published sweep: its database is not in git)."""
    from solver.experiments.plot import plot_summaries  # matplotlib loads only here

    target = Path(output) if output else Path(directory) / "winrates.png"
    if target.suffix not in (".png", ".svg"):
        raise InputError(f"the plot file must end in .png or .svg, got {target.name}")
    summary = Path(directory) / SUMMARY_JSON
    if not (Path(directory) / DATABASE).is_file() and summary.is_file():
        plot_summaries(from_rows(json.loads(summary.read_text())["cells"]), target)
    else:
        plot_summaries(ResultStore(directory, create=False).summaries(), target)
    return target


def read_sweep(directory) -> list[CellSummary]:
    """Return the summaries of a sweep's results directory, from its database (every cell, every seed)."""
    return ResultStore(directory, create=False).summaries()


@dataclass(frozen=True)
class FamilySolveRequest:
    """One Family Adventure deal to solve, as `crew family solve` takes it."""

    mission: str | None = None  # a mission id such as family/1 (the default)
    mission_file: str | None = None  # look `mission` up in this file
    objectives: int | None = None  # instead of a mission: 12 cards with this many random required cards
    deal: str | None = None  # the deal's text (default: drawn from `seed` for `players`)
    players: int = 4
    seed: int = 0  # draws the deal and the random objectives
    engine: str = "auto"  # a name of solver.family.engines.ENGINES
    fewest_hammocks: bool = False  # a winning line with the fewest hammocks (the CP-SAT model)
    limits: Limits = Limits()


@dataclass(frozen=True)
class FamilyAnswer:
    deal: FamilyDeal
    mission: FamilyMission
    solution: FamilySolution


def solve_family(request: FamilySolveRequest) -> FamilyAnswer:
    """Solve a Family Adventure request; bad input raises InputError with a one-line message."""
    if request.engine not in FAMILY_ENGINES:
        raise InputError(f"unknown engine {request.engine!r} (allowed: {', '.join(sorted(FAMILY_ENGINES))})")
    rng = deal_rng(request.seed, 0)
    deal = parse_family_deal(request.deal) if request.deal is not None else random_family_deal(request.players, rng)
    if request.objectives is not None:
        if request.mission is not None or request.mission_file is not None:
            raise InputError("--objectives draws a random mission; leave out --mission and --mission-file")
        mission = random_objectives(request.objectives, rng)
    else:
        mission = find_family_mission(request.mission or "family/1", request.mission_file)
    if deal.players not in mission.players:
        players = ", ".join(map(str, mission.players))
        raise InputError(f"{mission.id} is for {players} players, the deal has {deal.players}")
    if not request.fewest_hammocks:
        return FamilyAnswer(deal, mission, FAMILY_ENGINES[request.engine](deal, mission, request.limits))
    if request.engine == "dfs":
        raise InputError("--fewest-hammocks is an optimisation of the CP-SAT model; leave out --engine dfs")
    return FamilyAnswer(deal, mission, family_model.cpsat_solve(deal, mission, request.limits, fewest_hammocks=True))


@dataclass(frozen=True)
class BenchRequest:
    """A benchmark run, as `crew bench` takes it."""

    suite: str = "all"  # kernel, sweep, family or all
    quick: bool = False  # fewer deals per set
    baseline: str | None = None  # compare with this baseline file
    tolerance: str = "25%"  # node growth per set beyond which the comparison fails
    time_tolerance: str = "50%"  # calibrated time growth per suite beyond which it fails ("off": report only)
    save_baseline: str | None = None  # store this run as the baseline of its mode in this file
    json: str | None = None  # write the report to this file


@dataclass(frozen=True)
class BenchAnswer:
    """A benchmark run's report (solver.experiments.bench), its findings against the baseline (none
    without one) and the exit code of `crew bench` (bench.PASS, REGRESSION or CHANGED)."""

    report: dict
    findings: "list[bench.Finding]"
    code: int
    node_tolerance: float
    time_tolerance: float | None


def run_benchmarks(request: BenchRequest, progress=None) -> BenchAnswer:
    """Run the suites, compare with the baseline and write the files asked for; `progress(text)` follows the sets."""
    from solver.experiments import bench

    if request.suite not in (*bench.SUITES, "all"):
        raise InputError(f"unknown suite {request.suite!r} (allowed: {', '.join(bench.SUITES)}, all)")
    node_tolerance = bench.parse_tolerance(request.tolerance)
    time_tolerance = bench.parse_time_tolerance(request.time_tolerance)
    suites = list(bench.SUITES) if request.suite == "all" else [request.suite]
    mode = "quick" if request.quick else "full"
    baseline = bench.read_baseline(Path(request.baseline)) if request.baseline else None
    if baseline is not None:
        bench.baseline_report(baseline, mode, suites)  # a mismatched baseline fails before the run, not after
    report = bench.run_bench(suites, mode, progress)
    if request.json:
        bench.write_json(Path(request.json), report)
    findings = bench.compare(baseline, report, node_tolerance, time_tolerance) if baseline is not None else []
    if request.save_baseline:
        path = Path(request.save_baseline)
        previous = bench.read_baseline(path) if path.exists() else None
        bench.write_json(path, bench.with_report(previous, report))
    return BenchAnswer(report, findings, bench.verdict(findings), node_tolerance, time_tolerance)
