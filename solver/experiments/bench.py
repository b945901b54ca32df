"""Benchmark suites and their regression gate (`crew bench`): fixed seeded deal sets, reports, baselines.

Three suites, each a list of deal sets solved in one process:
- kernel: Planet Nine task missions (benchmarks/bench_kernel.py's sets), the DFS kernel alone
  with a node budget per deal, past which a deal is UNKNOWN;
- sweep: cells of built-in missions solved deal by deal as `crew sweep` solves them
  (`solve_batch`: the default engine, stage spaces, the Ghost, special missions' best score);
- family: Family Adventure deals and random objectives (benchmarks/bench_family.py's sets),
  solved as sweeps do (a short DFS, then CP-SAT on one worker);
- loss: LOSS-heavy sets solved by the default engine (the kernel, then CP-SAT): random fixed-owner
  task deals with 4 players and 8-14 tasks, 5 players and 8-10 (about half lost), and the
  trick-condition missions 17, 26, 34 and 46 at 3-5 players as sweeps deal them.
Deal i of a set depends only on the set and i. What a deal's answer is, and how many nodes its
search took, depend only on the code, not on the machine or its load: they are the gate. A
changed answer is a correctness bug; more nodes than the baseline's beyond a tolerance is a
regression. Time does depend on the machine, so every suite also times a fixed calibration
workload (compiled and plain-Python loops) in the same run, and a suite's time is compared as
its ratio to that, with a looser tolerance.

A report is a dict (JSON): version and machine information, and per suite its calibration,
seconds, and per set the deals, WIN/LOSS/UNKNOWN counts, each deal's answer (W, L or U, a special mission's
score after it: `W2`, `W>=1`; space-separated), total nodes, median
and p99 ms per deal (and of the WIN and the LOSS deals apart), deals per second, and how many deals
each engine answered. A baseline file holds one report per mode (quick, full).
"""

import json
import os
import platform
import time
import zlib
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

import numba
import numpy as np
import ortools
from numba import njit

from solver import __version__
from solver.core.deal import deal_rng
from solver.core.errors import InputError
from solver.core.solution import Limits, Outcome
from solver.engines.kernel import KernelSolver
from solver.engines.portfolio import PortfolioSolver
from solver.experiments.cell import Cell
from solver.experiments.summary import git_commit
from solver.experiments.sweep import Batch, batches, solve_batch
from solver.family.deal import FamilyDeal, random_family_deal
from solver.family.engines import auto_solve
from solver.family.mission import ROWS, FamilyMission, check_consistent, random_objectives
from solver.missions.dealer import random_task_mission
from solver.missions.mission import find_mission
from solver.missions.tasks import ABSOLUTE, RELATIVE, Token
from solver.trick.spaces import parse_space

SEED = 20261130
FAMILY_SEED = 20261201
SUITES = ("kernel", "sweep", "family", "loss")
MODES = {"quick": 0, "full": 1}  # index into a set's deal counts
KERNEL_NODES = 3_000_000  # per deal; a node budget keeps UNKNOWN as reproducible as the answers
KERNEL_TT_BITS = 22
SAFETY_SECONDS = 60.0  # sweep and family deals: a budget (seconds of work) they are expected never to reach
DEFAULT_BASELINE = "results/bench-baseline.json"
BASELINE_FORMAT = 1
PASS, REGRESSION, BAD_INPUT, CHANGED = 0, 1, 2, 3  # exit codes of `crew bench --compare`


@dataclass(frozen=True)
class TaskSet:
    """Planet Nine task missions: random deals and tasks, owners drafted or fixed, tokens."""

    name: str
    players: int
    tasks: int
    fixed_owners: bool = False
    tokens: tuple = ()
    deals: tuple[int, int] = (30, 200)  # quick, full

    def case(self, index: int):
        """Return deal `index` of this set and its task mission (the dealer's, from the set's own generator)."""
        rng = deal_rng(SEED, index, zlib.crc32(self.name.encode()))
        game = random_task_mission(rng, self.players, self.tasks, "random" if self.fixed_owners else "draft", self.tokens)
        return game.deal, game.task_setup.mission


KERNEL_SETS = [
    *(TaskSet(f"4p-draft-{k}", 4, k) for k in (2, 4, 6, 8, 10)),
    *(TaskSet(f"4p-fixed-{k}", 4, k, fixed_owners=True) for k in (4, 6, 8)),
    TaskSet("3p-draft-4", 3, 4),
    TaskSet("5p-draft-4", 5, 4),
    TaskSet("4p-tokens-1234", 4, 4, tokens=tuple(Token(ABSOLUTE, n) for n in (1, 2, 3, 4))),
    TaskSet("4p-arrows-4", 4, 4, tokens=tuple(Token(RELATIVE, n) for n in (1, 2, 3, 4))),
]


@dataclass(frozen=True)
class SweepSet:
    """A sweep cell: a built-in mission at a player count, on a stage space, as `crew sweep` names it."""

    mission: str
    players: int
    space: str = "train"
    difficult: bool = False
    deals: tuple[int, int] = (50, 200)

    @property
    def cell(self) -> Cell:
        return Cell(self.mission, self.players).on_stage(parse_space(self.space), self.difficult)

    @property
    def name(self) -> str:
        return f"{self.cell}/{self.players}p"

    def batch(self, count: int) -> Batch:
        (batch,) = batches(self.cell, find_mission(self.mission), SEED, list(range(count)), SAFETY_SECONDS, count)
        return batch


SWEEP_SETS = [
    *(SweepSet(f"planet-nine/{n}", 4) for n in (5, 15, 25, 35, 45)),
    SweepSet("planet-nine/20", 3),
    SweepSet("journey/yellow-for-everyone", 4, "helicopter"),
    SweepSet("journey/no-green-after-blue", 3, "jeep"),
    SweepSet("journey/trick-call", 4, "vespa"),
    SweepSet("journey/pink-for-everyone", 3, "skis"),
    SweepSet("journey/yellow-for-everyone", 3, "fog"),
    SweepSet("journey/table-chain", 4),
    SweepSet("journey/table-rising", 4),  # the table card's order (kernel.moves.expand_table): 77,460 -> 2,553 nodes
    SweepSet("journey/yellow-for-everyone", 2, "jeep"),
    SweepSet("journey/no-green-after-blue", 2, "helicopter", difficult=True),
    # Deep Sea: difficulty totals, drafted (each deal one case per assignment the draft allows), a card with
    # LOSS deals (8: every card 6 or higher) and a pair the kernel proves lost at the first trick (24+26).
    # The totals' full counts stop before their first deal undecided in SAFETY_SECONDS (difficulty-4: deal
    # 84, difficulty-8: deal 57), which would make a set's answers depend on the machine's speed.
    SweepSet("deep-sea/difficulty-4", 4, deals=(50, 80)),
    SweepSet("deep-sea/difficulty-6", 4),
    SweepSet("deep-sea/difficulty-8", 4, deals=(20, 50)),
    SweepSet("deep-sea/8", 5),
    SweepSet("deep-sea/24+26", 4),
]


# LOSS-heavy sets, solved as crew solve and sweeps solve them (the kernel, then CP-SAT): random
# fixed-owner task deals, about half of them lost, and the logbook's trick-condition missions that took
# 85% of the logbook sweep's time (17, 26, 34, 46).
LOSS_TASK_SETS = [
    TaskSet(f"{players}p-fixed-{tasks}", players, tasks, fixed_owners=True, deals=(20, 100))
    for players, counts in ((4, (8, 10, 12, 14)), (5, (8, 10))) for tasks in counts
]
CONDITION_SETS = [SweepSet(f"planet-nine/{n}", players, deals=(5, 25)) for n in (17, 26, 34, 46) for players in (3, 4, 5)]


@dataclass(frozen=True)
class FamilySet:
    """Family Adventure: random deals, and random objectives fitted into the colour cards played."""

    players: int
    cards: int
    specials: bool
    deals: tuple[int, int] = (8, 40)

    @property
    def name(self) -> str:
        return f"{self.players}p-{self.cards}c-{'specials' if self.specials else 'plain'}"

    def case(self, index: int) -> tuple[FamilyDeal, FamilyMission]:
        """Return deal `index` of this set and its mission."""
        rng = deal_rng(FAMILY_SEED, index, self.players, self.cards, int(self.specials))
        deal = random_family_deal(self.players, rng)
        return deal, fitted_objectives(self.cards, self.specials, rng)


def fitted_objectives(cards: int, specials: bool, rng: np.random.Generator) -> FamilyMission:
    """Return random_objectives(cards // 2) played with `cards` colour cards; cards of rows beyond them go anywhere."""
    mission = random_objectives(cards // 2, rng)
    rows = -(-cards // mission.row_length)
    mission = replace(
        mission,
        id=f"{mission.id}-in-{cards}",
        cards=cards,
        specials=specials,
        in_row=mission.in_row[:rows] + (0,) * (len(ROWS) - rows),
        anywhere=mission.anywhere | sum(mission.in_row[rows:]),
    )

    def refuse(field_name: str, message: str) -> None:
        raise AssertionError(f"{mission.id}: {field_name}: {message}")

    check_consistent(mission, refuse)
    return mission


FAMILY_SETS = [FamilySet(p, k, s) for p in (3, 4, 5) for k in (8, 12) for s in (True, False)]


@dataclass
class SetResult:
    """One set's run: each deal's answer, nodes, milliseconds and the engine that answered."""

    answers: list[str] = field(default_factory=list)  # W, L or U, a special mission's score after it
    nodes: int = 0
    ms: list[float] = field(default_factory=list)
    engines: dict[str, int] = field(default_factory=dict)  # engine -> deals it answered
    seconds: float = 0.0  # the set's wall-clock time: building the deals too, as a sweep pays it

    def add(self, answer: str, nodes: int, ms: float, engine: str) -> None:
        self.answers.append(answer)
        self.nodes += nodes
        self.ms.append(ms)
        self.engines[engine] = self.engines.get(engine, 0) + 1

    def times(self, letter: str) -> dict:
        """Return the median and p99 ms of the deals answered `letter` (W or L), None without any."""
        ms = [t for a, t in zip(self.answers, self.ms) if a.startswith(letter)]
        name = {"W": "win", "L": "loss"}[letter]
        if not ms:
            return {f"{name}_median_ms": None, f"{name}_p99_ms": None}
        return {f"{name}_median_ms": round(float(np.median(ms)), 3), f"{name}_p99_ms": round(float(np.percentile(ms, 99)), 3)}

    def summary(self) -> dict:
        ms = np.array(self.ms)
        return {
            "deals": len(self.answers),
            "win": sum(a.startswith("W") for a in self.answers),
            "loss": sum(a.startswith("L") for a in self.answers),
            "unknown": sum(a.startswith("U") for a in self.answers),
            "nodes": self.nodes,
            "median_ms": round(float(np.median(ms)), 3),
            "p99_ms": round(float(np.percentile(ms, 99)), 3),
            "deals_per_s": round(len(ms) / max(self.seconds, 1e-9), 1),
            "seconds": round(self.seconds, 4),
            **self.times("W"),
            **self.times("L"),
            "engines": dict(sorted(self.engines.items())),
            "answers": " ".join(self.answers),  # one line in the JSON file
        }


def letter(outcome: Outcome) -> str:
    return {Outcome.WIN: "W", Outcome.LOSS: "L", Outcome.UNKNOWN: "U"}[outcome]


def run_kernel_set(deal_set: TaskSet, count: int, solver: KernelSolver) -> SetResult:
    result = SetResult()
    for index in range(count):
        solution = solver.solve(*deal_set.case(index), Limits(max_nodes=KERNEL_NODES))
        result.add(letter(solution.outcome), solution.nodes, solution.seconds * 1000, solution.engine)
    return result


def run_loss_set(deal_set: TaskSet | SweepSet, count: int, solver: PortfolioSolver) -> SetResult:
    """Solve a LOSS-heavy set as crew solve does (a task set) or as a sweep does (a mission cell)."""
    if isinstance(deal_set, SweepSet):
        return run_sweep_set(deal_set, count)
    result = SetResult()
    for index in range(count):
        solution = solver.solve(*deal_set.case(index), Limits(max_work=SAFETY_SECONDS))
        result.add(letter(solution.outcome), solution.nodes, solution.seconds * 1000, solution.engine)
    return result


def run_sweep_set(deal_set: SweepSet, count: int) -> SetResult:
    result = SetResult()
    for record in solve_batch(deal_set.batch(count)):
        score = "" if record.score is None else str(record.score)
        result.add(record.result[0].upper() + score, record.nodes, record.ms, record.engine)
    return result


def run_family_set(deal_set: FamilySet, count: int) -> SetResult:
    result = SetResult()
    for index in range(count):
        solution = auto_solve(*deal_set.case(index), Limits(max_work=SAFETY_SECONDS))
        result.add(letter(solution.outcome), solution.nodes, solution.seconds * 1000, solution.engine)
    return result


SUITE_SETS = {"kernel": KERNEL_SETS, "sweep": SWEEP_SETS, "family": FAMILY_SETS, "loss": LOSS_TASK_SETS + CONDITION_SETS}


@njit(cache=True)
def compiled_spin(rounds):
    """A fixed integer workload for compiled code: xorshift and bit counting."""
    x = np.uint64(88172645463325252)
    bits = 0
    for _ in range(rounds):
        x ^= x << np.uint64(13)
        x ^= x >> np.uint64(7)
        x ^= x << np.uint64(17)
        y = x
        while y:
            y &= y - np.uint64(1)
            bits += 1
    return bits


def python_spin(rounds: int) -> int:
    """A fixed workload for plain Python: small dicts, tuples and integer bit operations."""
    seen, x = {}, 1
    for i in range(rounds):
        x = (x * 1103515245 + 12345) & 0xFFFFFFFF
        key = (x & 0xFF, i & 7)
        seen[key] = seen.get(key, 0) + bin(x).count("1")
    return len(seen)


def calibrate(repeats: int = 9) -> float:
    """Return the milliseconds of the calibration workload (the best of `repeats` runs of each part)."""
    compiled_spin(10)  # compile (or load) before timing
    total = 0.0
    for work, rounds in ((compiled_spin, 400_000), (python_spin, 100_000)):
        best = float("inf")
        for _ in range(repeats):
            began = time.perf_counter()
            work(rounds)
            best = min(best, time.perf_counter() - began)
        total += best
    return round(total * 1000, 3)


def run_suite(suite: str, mode: str, progress=None) -> dict:
    """Run one suite's sets; return its report part."""
    calibration = calibrate()
    run_set = {
        "kernel": partial(run_kernel_set, solver=KernelSolver(KERNEL_TT_BITS)),
        "sweep": run_sweep_set,
        "family": run_family_set,
        "loss": partial(run_loss_set, solver=PortfolioSolver(KERNEL_TT_BITS)),
    }[suite]
    run_set(SUITE_SETS[suite][0], 1)  # load the compiled kernel, a worker's solver, CP-SAT, before timing
    sets = {}
    for deal_set in SUITE_SETS[suite]:
        count = deal_set.deals[MODES[mode]]
        if progress:
            progress(f"{suite} {deal_set.name}: {count} deals")
        began = time.perf_counter()
        result = run_set(deal_set, count)
        result.seconds = time.perf_counter() - began
        sets[deal_set.name] = result.summary()
    seconds = sum(s["seconds"] for s in sets.values())
    return {"calibration_ms": calibration, "seconds": round(seconds, 4), "sets": sets}


def machine() -> dict:
    """Return version and machine information for a report."""
    return {
        "crew_solver": __version__,
        "commit": git_commit(),
        "python": platform.python_version(),
        "numba": numba.__version__,
        "numpy": np.__version__,
        "ortools": ortools.__version__,
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cores": os.cpu_count(),
    }


def run_bench(suites: list[str], mode: str, progress=None) -> dict:
    """Run the suites; return the report."""
    return {"mode": mode, "machine": machine(), "suites": {suite: run_suite(suite, mode, progress) for suite in suites}}


# --- the gate ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Finding:
    """One line of a comparison: `kind` is changed, regression, improvement or ok."""

    kind: str
    where: str
    text: str


def parse_time_tolerance(text: str) -> float | None:
    """Return a time tolerance as `parse_tolerance` does, or None for `off` (times reported, never failing)."""
    return None if str(text).strip().lower() == "off" else parse_tolerance(text)


def parse_tolerance(text: str) -> float:
    """Return a tolerance written as `25%` or `0.25` as a fraction."""
    value = str(text).strip()
    try:
        number = float(value.removesuffix("%"))
    except ValueError:
        raise InputError(f"a tolerance is a percentage like 25% or a fraction like 0.25, got {text!r}") from None
    fraction = number / 100 if value.endswith("%") else number
    if not 0 <= fraction < 100:
        raise InputError(f"a tolerance must be 0% or more, got {text!r}")
    return fraction


def baseline_report(baseline: dict, mode: str, suites) -> dict:
    """Return the baseline's report for `mode`, checking it holds every suite run."""
    if baseline.get("format") != BASELINE_FORMAT or not isinstance(baseline.get(mode), dict):
        raise InputError(f"the baseline holds no {mode} run: make one with crew bench"
                         f"{' --quick' if mode == 'quick' else ''} --save-baseline")
    missing = [suite for suite in suites if suite not in baseline[mode].get("suites", {})]
    if missing:
        raise InputError(f"the baseline's {mode} run has no {', '.join(missing)} suite: "
                         "refresh it with --save-baseline")
    return baseline[mode]


def compare(baseline: dict, report: dict, tolerance: float, time_tolerance: float | None) -> list[Finding]:
    """Compare a report with the baseline's report of its mode; return the findings.

    Per set: any changed answer is `changed`; nodes above the baseline's by more than `tolerance`
    a `regression` (below by as much, an `improvement`). Per suite: its time over its calibration,
    against the baseline's, a `regression` above 1 + `time_tolerance` (None: `info` only, when the time
    is gated elsewhere: CI's gate is benchmarks/bench_versus.py against the baseline's commit).
    """
    base = baseline_report(baseline, report["mode"], report["suites"])
    findings = []
    for suite, part in report["suites"].items():
        base_part = base["suites"][suite]
        if set(part["sets"]) != set(base_part["sets"]):
            raise InputError(f"the {suite} suite's sets differ from the baseline's: refresh it with --save-baseline")
        for name, now in part["sets"].items():
            findings += compare_set(f"{suite} {name}", base_part["sets"][name], now, tolerance)
        ratio = (part["seconds"] / part["calibration_ms"]) / (base_part["seconds"] / base_part["calibration_ms"])
        kind = "info" if time_tolerance is None else "regression" if ratio > 1 + time_tolerance else "ok"
        findings.append(Finding(kind, f"{suite} time", f"x{ratio:.2f} the baseline's, calibrated "
                                f"({part['seconds']:.2f} s against {base_part['seconds']:.2f} s; calibration "
                                f"{part['calibration_ms']:.0f} ms against {base_part['calibration_ms']:.0f} ms)"))
    return findings


def compare_set(where: str, base: dict, now: dict, tolerance: float) -> list[Finding]:
    """Compare one set's answers and nodes with the baseline's."""
    answers, base_answers = now["answers"].split(), base["answers"].split()
    if len(answers) != len(base_answers):
        raise InputError(f"{where}: {len(answers)} deals against the baseline's {len(base_answers)}")
    changed = [i for i, (a, b) in enumerate(zip(answers, base_answers)) if a != b]
    if changed:
        shown = ", ".join(f"deal {i}: {base_answers[i]} -> {answers[i]}" for i in changed[:5])
        more = ", ..." if len(changed) > 5 else ""
        return [Finding("changed", where, f"{len(changed)} answers changed ({shown}{more})")]
    growth = (now["nodes"] - base["nodes"]) / max(base["nodes"], 1)
    text = f"nodes {now['nodes']:,} against {base['nodes']:,} ({growth:+.1%})"
    if growth > tolerance:
        return [Finding("regression", where, text)]
    return [Finding("improvement" if growth < -tolerance else "ok", where, text)]


def verdict(findings: list[Finding]) -> int:
    """Return the exit code of a comparison: CHANGED, REGRESSION or PASS."""
    kinds = {finding.kind for finding in findings}
    return CHANGED if "changed" in kinds else REGRESSION if "regression" in kinds else PASS


def with_report(baseline: dict | None, report: dict) -> dict:
    """Return the baseline file's content with `report` as its run of the report's mode (other suites kept)."""
    updated = dict(baseline) if baseline and baseline.get("format") == BASELINE_FORMAT else {"format": BASELINE_FORMAT}
    previous = updated.get(report["mode"], {})
    suites = {**previous.get("suites", {}), **report["suites"]}
    updated[report["mode"]] = {**report, "suites": suites}
    return updated


def write_json(path: Path, content: dict) -> None:
    """Write `content` (a report or a baseline) as JSON, or raise a one-line error."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(content, indent=1) + "\n")
    except OSError as error:
        raise InputError(f"cannot write {path}: {error.strerror or error}") from None


def read_baseline(path: Path) -> dict:
    """Return a baseline file's content, or raise a one-line error."""
    try:
        baseline = json.loads(path.read_text())
    except FileNotFoundError:
        raise InputError(f"no baseline file {path} (make one with crew bench --save-baseline)") from None
    except (OSError, ValueError) as error:
        raise InputError(f"cannot read the baseline {path}: {error}") from None
    if not isinstance(baseline, dict):
        raise InputError(f"the baseline {path} is not a crew bench baseline")
    return baseline
