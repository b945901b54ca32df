"""The kernel of this tree against the kernel of an earlier commit, on the same deals, in one process.

Run: python benchmarks/bench_versus.py REV [--deals 200] [--reps 5] [--max-nodes 3000000]
                                           [--only NAME ...] [--gate 30%]
     python benchmarks/bench_versus.py REV --by-deal [--engine kernel|auto] [--deals 200] [--only NAME ...]

REV `baseline` is the commit results/bench-baseline.json was made at. With `--gate`, the script is
CI's time gate (make bench-check): it exits 1 when the new kernel's best times, summed over the
sets whose searches are the same, exceed the old one's by more than the tolerance. Both run in
the same job on the same machine, taking turns, so the machine's speed and load cancel out, unlike a
baseline's stored times.

Machines here are shared and noisy: two benchmark runs minutes apart can differ
by 30%. So both kernels run in one process, taking turns set by set and
repetition by repetition, and the figure is the ratio of their best times
(and of their median times). REV's `solver` package is extracted with `git
archive` into a temporary directory and imported under another name. The deal
sets are benchmarks/bench_kernel.py's; each kernel builds the deals with its own
package from the same seeds, and both must search the same number of nodes (the
same search), else the comparison is refused. Times include everything a sweep
pays per deal: compiling the mission, the search and the witness.

`--by-deal` compares two different searches (a new bound, another schedule): the two take turns deal by
deal, each deal timed once, and the WIN and the LOSS deals both decide are reported apart (their count,
median and total ms, the new/old ratio of the totals), with the deals only one of them decided; an answer
both decide must be the same, else the script stops. `--engine auto` times the default engine of `crew solve`
(the kernel, then CP-SAT) within a 10 s budget a deal, `kernel` the kernel alone within `--max-nodes`.
"""

import argparse
import atexit
import importlib
import io
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import zlib
from pathlib import Path

# Both kernels are compiled in this process, neither loaded from Numba's cache (set before any
# import of the solver): next to code compiled in the process, code loaded from the cache ran
# 1.22-1.24x slower here with the same nodes (0c0fa48 against the tree; both compiled: 1.00-1.05),
# a difference of where the code lies, not of what it does. Only when run as the script: a test that
# imports this module set it for its whole worker, and every later `crew` the worker started compiled
# the kernel afresh into that directory (26-63 s of a test run's CPU).
if __name__ == "__main__":
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="bench-versus-numba-")
    atexit.register(shutil.rmtree, os.environ["NUMBA_CACHE_DIR"], ignore_errors=True)

from bench_kernel import SEED, SETS  # noqa: E402

from solver.experiments.bench import KERNEL_SETS, parse_tolerance

ROOT = Path(__file__).resolve().parent.parent
OLD = "solver_versus"
AUTO_BUDGET = 10.0  # seconds of work a deal for --engine auto (bench_kernel.py's default budget)


def baseline_commit() -> str:
    """Return the commit results/bench-baseline.json's quick run was made at (its working tree's changes aside)."""
    baseline = json.loads((ROOT / "results" / "bench-baseline.json").read_text())
    return baseline["quick"]["machine"]["commit"].removesuffix("-dirty")


def import_revision(rev: str, into: Path):
    """Extract REV's solver package as package OLD under `into` and import it."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "solver"], capture_output=True)
    if archive.returncode:
        sys.exit(f"bench_versus: cannot extract {rev} from this checkout ({archive.stderr.decode().strip()})")
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")
    (into / "solver").rename(into / OLD)
    sources = list((into / OLD).rglob("*.py"))
    # Numba dispatches slowly on a NamedTuple class whose name another class in the process has (both
    # kernels' SearchArrays: measured x2 per deal, same nodes), so REV's NamedTuples are renamed.
    declared = re.compile(r"^class (\w+)\(NamedTuple\)", re.M)
    tuples = {name for source in sources for name in declared.findall(source.read_text())}
    for source in sources:
        text = source.read_text().replace("from solver", f"from {OLD}").replace("import solver", f"import {OLD}")
        for name in tuples:
            text = re.sub(rf"\b{name}\b", f"{name}Versus", text)
        source.write_text(text)
    sys.path.insert(0, str(into))
    return modules(OLD)


def current():
    return modules("solver")


# The modules used, by the layered package each lies in (a revision before the layering has them
# at the top of its package).
LAYER = {"deal": "core", "tasks": "missions", "kernel": "engines", "solution": "core"}


def modules(root: str) -> dict:
    """Return the modules of LAYER under the package `root`, flat or layered."""
    return {name: module(root, name, layer) for name, layer in LAYER.items()}


def cases(package, deal_set, deals: int):
    """Return the set's deals and missions built with `package` (as bench_kernel's DealSet.case)."""
    deal_module, tasks_module = package["deal"], package["tasks"]
    built = []
    for index in range(deals):
        rng = deal_module.deal_rng(SEED, index, zlib.crc32(deal_set.name.encode()))
        deal = deal_module.random_deal(deal_set.players, rng)
        cards = deal_module.random_tasks(deal_set.tasks, rng)
        players = deal_set.players
        owners = [int(s) for s in rng.integers(0, players, size=deal_set.tasks)] if deal_set.fixed_owners else None
        tokens = [None if t is None else tasks_module.Token(t.kind, t.n) for t in deal_set.tokens]
        tokens += [None] * (deal_set.tasks - len(tokens))
        built.append((deal, tasks_module.make_task_mission(deal, cards, tokens, owners)))
    return built


def timed(package, solver, built, max_nodes: int) -> tuple[float, int]:
    """Solve every deal; return the seconds and total nodes."""
    limits = package["solution"].Limits(max_nodes=max_nodes)
    began = time.perf_counter()
    nodes = sum(solver.solve(deal, mission, limits).nodes for deal, mission in built)
    return time.perf_counter() - began, nodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev", help="the commit to compare with, e.g. HEAD~3, or baseline "
                        "(the commit results/bench-baseline.json was made at)")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--max-nodes", type=int, default=3_000_000, help="per deal (past it: UNKNOWN)")
    parser.add_argument("--only", nargs="*", help="set names (default: the kernel suite's; bench_kernel.py's "
                        "LOSS-heavy sets by name)")
    parser.add_argument("--gate", type=parse_tolerance, help="exit 1 past this summed time growth, e.g. 30%%")
    parser.add_argument("--by-deal", action="store_true", help="time two different searches deal by deal, WIN and "
                        "LOSS apart")
    parser.add_argument("--engine", choices=("kernel", "auto"), default="kernel", help="with --by-deal: the kernel "
                        "alone or the default engine")
    args = parser.parse_args()
    if args.engine != "kernel" and not args.by_deal:
        parser.error("--engine auto compares different searches: give --by-deal")
    rev = baseline_commit() if args.rev == "baseline" else args.rev
    with tempfile.TemporaryDirectory() as scratch:
        packages = {"old": import_revision(rev, Path(scratch)), "new": current()}
        if args.by_deal:
            by_deal(rev, packages, args)
            return
        solvers = {side: package["kernel"].KernelSolver(22) for side, package in packages.items()}
        print(f"# {rev} (old) against the working tree (new); {args.deals} deals per set, best and median "
              f"of {args.reps} alternating runs; max {args.max_nodes:,} nodes per deal")
        print(f"{'set':16s} {'nodes':>12s} {'old best ms':>12s} {'new best ms':>12s} {'new/old best':>13s} "
              f"{'new/old median':>15s}")
        totals = {"old": 0.0, "new": 0.0}  # best seconds summed over the sets of the same search
        for deal_set in SETS:
            if deal_set.name not in (args.only or [k.name for k in KERNEL_SETS]):
                continue
            built = {side: cases(package, deal_set, args.deals) for side, package in packages.items()}
            for side in packages:  # compile both kernels before timing
                timed(packages[side], solvers[side], built[side][:2], args.max_nodes)
            seconds = {side: [] for side in packages}
            nodes = {}
            for _ in range(args.reps):
                for side in packages:
                    took, nodes[side] = timed(packages[side], solvers[side], built[side], args.max_nodes)
                    seconds[side].append(took)
            if nodes["old"] != nodes["new"]:
                print(f"{deal_set.name:16s} different searches: {nodes['old']:,} against {nodes['new']:,} nodes")
                continue
            best = {side: min(times) for side, times in seconds.items()}
            median = {side: sorted(times)[len(times) // 2] for side, times in seconds.items()}
            for side in totals:
                totals[side] += best[side]
            print(f"{deal_set.name:16s} {nodes['new']:>12,} {best['old'] * 1e3:>12.1f} {best['new'] * 1e3:>12.1f} "
                  f"{best['new'] / best['old']:>13.3f} {median['new'] / median['old']:>15.3f}")
    if args.gate is not None:
        sys.exit(gate(totals, args.gate))


def by_deal(rev: str, packages: dict, args) -> None:
    """Print, per set, the two searches' WIN and LOSS times apart, taking turns deal by deal (`--by-deal`)."""
    roots = {"old": OLD, "new": "solver"}
    solvers, limits = {}, {}
    for side, package in packages.items():
        solution = package["solution"]
        if args.engine == "auto":
            solvers[side] = module(roots[side], "portfolio", "engines").PortfolioSolver(22)
            limits[side] = solution.Limits(max_work=AUTO_BUDGET)
        else:
            solvers[side] = package["kernel"].KernelSolver(22)
            limits[side] = solution.Limits(max_nodes=args.max_nodes)
    print(f"# {rev} (old) against the working tree (new), engine {args.engine}; {args.deals} deals per set, taking "
          "turns deal by deal; the WIN and the LOSS deals both decided: count, median ms old/new, total ms old/new, "
          "new/old of the totals; the deals only one decided")
    for deal_set in SETS:
        if deal_set.name not in (args.only or [k.name for k in KERNEL_SETS]):
            continue
        built = {side: cases(package, deal_set, args.deals) for side, package in packages.items()}
        for side in packages:  # compile both before timing
            solvers[side].solve(*built[side][0], limits[side])
        deals = []  # per deal: {side: (outcome name, ms)}
        for index in range(args.deals):
            answer = {}
            for side in ("old", "new") if index % 2 else ("new", "old"):
                began = time.perf_counter()
                outcome = solvers[side].solve(*built[side][index], limits[side]).outcome.name
                answer[side] = (outcome, (time.perf_counter() - began) * 1e3)
            deals.append(answer)
        print(by_deal_line(deal_set.name, deals))


def by_deal_line(name: str, deals: list) -> str:
    """Return a set's `--by-deal` report line from each deal's {side: (outcome name, ms)}; exit when the two
    decide a deal differently."""
    for index, answer in enumerate(deals):
        outcomes = {answer[side][0] for side in answer}
        if "UNKNOWN" not in outcomes and len(outcomes) > 1:
            sys.exit(f"bench_versus: {name} deal {index}: {answer['old'][0]} (old) against {answer['new'][0]} (new)")
    parts = [f"{name:16s}"]
    for outcome in ("WIN", "LOSS"):
        both = [(d["old"][1], d["new"][1]) for d in deals if d["old"][0] == d["new"][0] == outcome]
        if both:
            old, new = [ms for ms, _ in both], [ms for _, ms in both]
            parts.append(f"{outcome} {len(both)} median {statistics.median(old):.1f}/{statistics.median(new):.1f} "
                         f"total {sum(old):.0f}/{sum(new):.0f} ms x{sum(new) / sum(old):.2f}")
    alone = {side: sum(d[side][0] != "UNKNOWN" and d[other][0] == "UNKNOWN" for d in deals)
             for side, other in (("old", "new"), ("new", "old"))}
    parts.append(f"decided by one only {alone['old']}/{alone['new']}")
    return " | ".join(parts)


def module(root: str, name: str, layer: str):
    """Return module `name` of the package `root`, layered or (a revision before the layering) flat."""
    try:
        return importlib.import_module(f"{root}.{layer}.{name}")
    except ModuleNotFoundError:
        return importlib.import_module(f"{root}.{name}")


def gate(totals: dict, tolerance: float) -> int:
    """Print the time gate's verdict on the summed best times; return the exit code."""
    if not totals["old"]:
        print("time gate: no set searched the same nodes in both kernels (the search changed): nothing to time")
        return 0
    ratio = totals["new"] / totals["old"]
    verdict = "SLOWER" if ratio > 1 + tolerance else "ok"
    print(f"time gate: {verdict}, new/old x{ratio:.3f} on the sets' summed best times (tolerance {tolerance:.0%})")
    return 1 if verdict == "SLOWER" else 0


if __name__ == "__main__":
    main()
