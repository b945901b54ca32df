"""Family Adventure benchmark: CP-SAT against the plain DFS on fixed seeded deal sets, answers cross-checked.

Run: python benchmarks/bench_family.py [--deals 50] [--quick] [--engines cpsat,dfs,auto,fewest]
                                       [--dfs-budget 2] [--sets 4p,12c-plain]

A set is players (3, 4, 5) x colour cards played (4, 8, 12) x with or without the special cards.
Deal i of a set is `random_family_deal(players, rng)` with rng = `deal_rng(SEED, i, players, cards,
specials)`; the same rng then draws the mission, `random_objectives(cards // 2)` fitted into the
cards played (solver/experiments/bench.py's fitted_objectives). The engines solve every deal, taking turns deal by deal: cpsat
(the model), dfs (the plain search), auto (what sweeps run: a short DFS, then CP-SAT) and fewest
(CP-SAT finding the winning line with the fewest hammocks, an optimisation the DFS does not do). The
DFS has `--dfs-budget` seconds per deal, the others CPSAT_BUDGET. Where engines decide a deal they
must agree, else the run stops with a DISAGREE line. Times include building the model (CP-SAT) and
everything a solver call pays; `nodes` are DFS positions expanded and CP-SAT branches; `hammocks` is
the mean number of hammocks in the winning lines found.
"""

import argparse
import platform
import sys
import time

import numpy as np
import ortools

from solver import __version__
from solver.core.solution import Limits, Outcome
from solver.experiments.bench import FAMILY_SEED as SEED
from solver.experiments.bench import FamilySet
from solver.family.deal import format_family_deal
from solver.family.engines import auto_solve
from solver.family.model import PARAMETERS, cpsat_solve
from solver.family.search import dfs_solve

CPSAT_BUDGET = 60.0  # seconds per deal, a safety net: CP-SAT is expected to decide every deal
ENGINES = {
    "cpsat": cpsat_solve,
    "dfs": dfs_solve,
    "auto": auto_solve,
    "fewest": lambda deal, mission, limits: cpsat_solve(deal, mission, limits, fewest_hammocks=True),
}
QUICK_DEALS = 10
# solver/experiments/bench.py's family sets (shared with `crew bench --suite family`), with 4 colour cards too.
SETS = [FamilySet(p, k, s) for p in (3, 4, 5) for k in (4, 8, 12) for s in (True, False)]


def limits(engine: str, dfs_budget: float) -> Limits:
    return Limits(max_work=dfs_budget if engine == "dfs" else CPSAT_BUDGET)


def run_set(deal_set: FamilySet, deals: int, engines: list[str], dfs_budget: float) -> dict[str, list]:
    """Solve every deal of a set with each engine; return the solutions by engine. Exit on a disagreement."""
    solutions: dict[str, list] = {engine: [] for engine in engines}
    for i in range(deals):
        deal, mission = deal_set.case(i)
        for engine in engines:
            solutions[engine].append(ENGINES[engine](deal, mission, limits(engine, dfs_budget)))
        decided = {e: s[-1].outcome for e, s in solutions.items() if s[-1].outcome is not Outcome.UNKNOWN}
        if len(set(decided.values())) > 1:
            answers = ", ".join(f"{e} {o.value}" for e, o in decided.items())
            print(f"DISAGREE {deal_set.name} deal {i}: {answers}\n  deal: {format_family_deal(deal)}\n"
                  f"  mission: {mission.summary()}", flush=True)
            sys.exit(1)
    return solutions


def row(deal_set: FamilySet, engine: str, solutions: list) -> str:
    """Return the table row of one engine on one set."""
    counts = {outcome: sum(s.outcome is outcome for s in solutions) for outcome in Outcome}
    ms = np.array([s.seconds * 1000 for s in solutions])
    hammocks = [sum(t.hammock for t in s.turns) for s in solutions if s.outcome is Outcome.WIN]
    return (
        f"{deal_set.players:7d} {deal_set.cards:5d} {'yes' if deal_set.specials else 'no':>8s} {engine:>6s} "
        f"{len(solutions):5d} {counts[Outcome.WIN]:5d} {counts[Outcome.LOSS]:6d} {counts[Outcome.UNKNOWN]:8d} "
        f"{np.median(ms):9.2f} {np.percentile(ms, 99):9.1f} {len(ms) / (ms.sum() / 1000):8.1f} "
        f"{sum(s.nodes for s in solutions):13,d} {np.mean(hammocks) if hammocks else 0:9.2f}"
    )


def compare(results: dict[str, dict[str, list]], dfs_budget: float) -> None:
    """Print the DFS/CP-SAT ratios of median and total times per set, and what CP-SAT says of DFS UNKNOWNs."""
    print("\n# DFS / CP-SAT time ratios per set (< 1: DFS faster), median and total; DFS UNKNOWNs count at the budget")
    faster = {"DFS": 0, "CP-SAT": 0}
    agreed = 0
    unknown = {outcome: 0 for outcome in Outcome}
    for name, solutions in results.items():
        seconds = {e: np.array([s.seconds for s in solutions[e]]) for e in ("dfs", "cpsat")}
        median = np.median(seconds["dfs"]) / np.median(seconds["cpsat"])
        total = seconds["dfs"].sum() / seconds["cpsat"].sum()
        faster["DFS" if median < 1 else "CP-SAT"] += 1
        pairs = [(d.outcome, c.outcome) for d, c in zip(solutions["dfs"], solutions["cpsat"])]
        agreed += sum(d is not Outcome.UNKNOWN and c is not Outcome.UNKNOWN for d, c in pairs)
        open_deals = [c for d, c in pairs if d is Outcome.UNKNOWN]
        for c in open_deals:
            unknown[c] += 1
        print(f"#   {name:16s} median x{median:7.3f} ({'DFS' if median < 1 else 'CP-SAT'} faster), "
              f"total x{total:7.3f}{f', DFS UNKNOWN {len(open_deals)}' if open_deals else ''}")
    deals = sum(len(solutions["dfs"]) for solutions in results.values())
    print(f"# median: DFS faster on {faster['DFS']} sets, CP-SAT on {faster['CP-SAT']}; both engines decided "
          f"{agreed} deals and agree on all")
    print(f"# DFS UNKNOWN {sum(unknown.values())} of {deals} deals at {dfs_budget} s; CP-SAT says "
          f"{unknown[Outcome.WIN]} WIN, {unknown[Outcome.LOSS]} LOSS, {unknown[Outcome.UNKNOWN]} UNKNOWN of them")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=50, help="deals per set")
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_DEALS} deals per set (overrides --deals)")
    parser.add_argument("--engines", default=",".join(ENGINES), help=f"comma-separated: {', '.join(ENGINES)}")
    parser.add_argument("--dfs-budget", type=float, default=2.0, help="DFS seconds per deal")
    parser.add_argument("--sets", help="comma-separated parts of set names to run, e.g. 4p,12c-plain")
    args = parser.parse_args()
    engines = args.engines.split(",")
    if not engines or set(engines) - set(ENGINES):
        parser.error(f"--engines takes {', '.join(ENGINES)}, comma-separated")
    deals = QUICK_DEALS if args.quick else args.deals
    sets = [s for s in SETS if not args.sets or any(part in s.name for part in args.sets.split(","))]
    if not sets:
        parser.error(f"--sets {args.sets!r} matches none of {', '.join(s.name for s in SETS)}")
    for engine in engines:  # CP-SAT's first call loads the library
        ENGINES[engine](*SETS[0].case(0), limits(engine, args.dfs_budget))
    print(f"# seed {SEED}, {deals} deals per set, DFS budget {args.dfs_budget} s, CP-SAT budget {CPSAT_BUDGET} s, "
          f"CP-SAT parameters {PARAMETERS}")
    print(f"# command: python {' '.join(sys.argv)}")
    print(f"{'players':>7s} {'cards':>5s} {'specials':>8s} {'engine':>6s} {'deals':>5s} {'wins':>5s} {'losses':>6s} "
          f"{'unknowns':>8s} {'median ms':>9s} {'p99 ms':>9s} {'deals/s':>8s} {'nodes':>13s} {'hammocks':>9s}")
    results = {}
    start = time.perf_counter()
    for deal_set in sets:
        results[deal_set.name] = run_set(deal_set, deals, engines, args.dfs_budget)
        for engine in engines:
            print(row(deal_set, engine, results[deal_set.name][engine]), flush=True)
    if {"dfs", "cpsat"} <= set(engines):
        compare(results, args.dfs_budget)
    print(f"# {time.perf_counter() - start:.0f} s; crew-solver {__version__}, python {platform.python_version()}, "
          f"ortools {ortools.__version__}, numpy {np.__version__}; {platform.platform()}, "
          f"{platform.processor() or platform.machine()}")


if __name__ == "__main__":
    main()
