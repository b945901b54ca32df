"""Kernel benchmark: fixed seeded deal sets, per set results, time per deal, nodes per second.

Run: python benchmarks/bench_kernel.py [--engine auto|kernel|cpsat] [--deals 200] [--budget 10]
                                       [--reference 20] [--only NAME ...]

`--engine auto` (the default engine of `crew solve`) runs the DFS kernel with a node budget and
hands the deals it leaves open to CP-SAT; the `engines` column says how many deals each answered
and CP-SAT's median and max ms. `--engine kernel` runs the DFS alone, `--engine cpsat` the
CP-SAT model alone (its nodes are CP-SAT branches, not card plays). `nodes` counts the
kernel's card plays; Mnodes/s is measured over the deals the kernel answered.

Every set draws deal i from `deal_rng(SEED, i, crc32(set name))` (deal, then tasks, then fixed
owners; the sets are solver/experiments/bench.py's, shared with `crew bench`), so figures are comparable
between runs and machines. The speed-up over
solver/engines/reference.py is measured in the same run on the first `--reference` deals of each set
that both finish, and their answers must agree.
"""

import argparse
import platform
import sys
import time

import numpy as np

from solver import __version__
from solver.core.solution import Limits, Outcome
from solver.engines import cpsat
from solver.engines.kernel import KernelSolver
from solver.engines.portfolio import PortfolioSolver
from solver.engines.reference import solve as reference_solve
from solver.experiments.bench import KERNEL_SETS, LOSS_TASK_SETS, SEED, SetResult, TaskSet, letter

REFERENCE_BUDGET = 5.0  # seconds per deal for the reference on the shared subset
# The deal sets of `crew bench --suite kernel`, then the LOSS-heavy fixed-owner sets of its `loss` suite
# (solver/experiments/bench.py; a set of one name is the same deals in both).
SETS = KERNEL_SETS + [s for s in LOSS_TASK_SETS if s.name not in {k.name for k in KERNEL_SETS}]


def run_set(solver, deal_set: TaskSet, deals: int, budget: float, reference: int) -> str:
    """Solve a set; return its report line (and the reference comparison)."""
    counts = {outcome: 0 for outcome in Outcome}
    apart = SetResult()  # the WIN and the LOSS deals' times apart
    ms, nodes, kernel_nodes, kernel_ms = [], 0, 0, 0.0
    cpsat_ms = []
    kernel_seconds = {}
    for i in range(deals):
        deal, mission = deal_set.case(i)
        solution = solver.solve(deal, mission, Limits(max_work=budget))
        counts[solution.outcome] += 1
        ms.append(solution.seconds * 1000)
        apart.add(letter(solution.outcome), solution.nodes, solution.seconds * 1000, solution.engine)
        nodes += solution.nodes
        if solution.engine != "kernel>cpsat":
            kernel_nodes += solution.nodes
            kernel_ms += solution.seconds * 1000
        else:
            cpsat_ms.append(solution.seconds * 1000)
        if i < reference and solution.outcome is not Outcome.UNKNOWN:
            kernel_seconds[i] = (solution.seconds, solution.outcome)
    ms = np.array(ms)
    engines = f"{solution.engine.split('>')[0]} {deals - len(cpsat_ms)}"
    if cpsat_ms:
        engines += f", >cpsat {len(cpsat_ms)} ({np.median(cpsat_ms):.0f}/{max(cpsat_ms):.0f} ms)"
    line = (
        f"{deal_set.name:16s} {deals:6d} {counts[Outcome.WIN]:5d} {counts[Outcome.LOSS]:5d} "
        f"{counts[Outcome.UNKNOWN]:5d} {np.median(ms):9.3f} {np.percentile(ms, 99):9.2f} {ms.max():9.1f} "
        f"{nodes:13,d} {kernel_nodes / max(kernel_ms, 1e-9) / 1000:8.2f}  "
        f"{outcome_times(apart, 'W')} {outcome_times(apart, 'L')}"
    )
    return f"{line}  {engines:32s} {reference_speedup(deal_set, kernel_seconds)}"


def outcome_times(result: SetResult, outcome: str) -> str:
    """Return the median and p99 ms of the set's WIN (`W`) or LOSS (`L`) deals, `-` without any."""
    median, p99 = result.times(outcome).values()
    return f"{'-' if median is None else f'{median:.2f}/{p99:.1f}':>15s}"


def reference_speedup(deal_set: TaskSet, kernel_seconds: dict) -> str:
    """Return the kernel's speed-up over the reference on deals both finish, same answers asserted."""
    ref_total = ker_total = 0.0
    shared = 0
    for i, (seconds, outcome) in kernel_seconds.items():
        deal, mission = deal_set.case(i)
        answer = reference_solve(deal, mission, Limits(max_work=REFERENCE_BUDGET))
        if answer.outcome is Outcome.UNKNOWN:
            continue
        if answer.outcome is not outcome:
            sys.exit(f"MISMATCH {deal_set.name} deal {i}: kernel {outcome.value}, reference {answer.outcome.value}")
        shared += 1
        ref_total += answer.seconds
        ker_total += seconds
    if not shared:
        return "speed-up n/a"
    return f"speed-up x{ref_total / ker_total:,.0f} on {shared}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="deals per set")
    parser.add_argument("--budget", type=float, default=10.0, help="seconds per deal")
    parser.add_argument("--reference", type=int, default=20, help="deals per set also run on the reference")
    parser.add_argument("--only", nargs="*", help="set names to run")
    parser.add_argument("--tt-bits", type=int, default=22)
    parser.add_argument("--engine", choices=["auto", "kernel", "cpsat"], default="auto")
    args = parser.parse_args()
    solver = {
        "auto": lambda: PortfolioSolver(args.tt_bits),
        "kernel": lambda: KernelSolver(args.tt_bits),
        "cpsat": lambda: cpsat,
    }[args.engine]()
    warm = time.perf_counter()
    solver.solve(*SETS[0].case(0))
    print(f"# crew-solver {__version__}, numba JIT warm-up {time.perf_counter() - warm:.2f} s")
    print(f"# {platform.platform()}, {platform.processor() or platform.machine()}, python {platform.python_version()}")
    print(f"# engine {args.engine}, seed {SEED}, {args.deals} deals per set, budget {args.budget} s per deal, "
          f"reference budget {REFERENCE_BUDGET} s")
    print(f"# command: python {' '.join(sys.argv)}")
    print(f"{'set':16s} {'deals':>6s} {'win':>5s} {'loss':>5s} {'unkn':>5s} {'median ms':>9s} {'p99 ms':>9s} "
          f"{'max ms':>9s} {'nodes':>13s} {'Mnodes/s':>8s}  {'WIN med/p99':>15s} {'LOSS med/p99':>15s}  "
          f"{'engines (cpsat median/max)':32s} reference")
    for deal_set in SETS:
        if args.only and deal_set.name not in args.only:
            continue
        print(run_set(solver, deal_set, args.deals, args.budget, args.reference), flush=True)


if __name__ == "__main__":
    main()
