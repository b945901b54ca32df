"""Whole `crew solve` processes: this tree against an earlier commit's, on the same seeded deals, taking turns.

Run: python benchmarks/bench_startup.py REV [--reps 2] [--deals 10]

What a user waits for is the process: Python's start, the imports (warm bytecode, which both trees
get compiled first, as `make install` does), loading the kernel's machine code (warm Numba cache) and
the search. REV is extracted with `git archive` into a temporary directory;
each tree's `crew solve` runs as its own process (`python -c` with the tree first on sys.path), old
and new in turns deal by deal, and the script prints per set the median and max wall seconds of each
and the engine that answered in the new tree. REV's first solve compiles its kernel (not timed).
"""

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.core.cards import format_card  # noqa: E402
from solver.core.deal import deal_rng, format_deal  # noqa: E402
from solver.missions.dealer import random_task_mission  # noqa: E402

SEED = 20261201
SETS = (("4p-draft-4", 4, 4, "draft"), ("4p-draft-6", 4, 6, "draft"), ("5p-draft-6", 5, 6, "draft"),
        ("4p-dealt-8", 4, 8, "dealt"))


def solve_args(players: int, tasks: int, owners: str, index: int) -> list[str]:
    """Return `crew solve`'s arguments for deal `index` of a set (the deal written out, so both trees read it)."""
    game = random_task_mission(deal_rng(SEED, index, players, tasks), players, tasks, owners)
    mission = game.task_setup.mission
    args = ["solve", "--deal", format_deal(game.deal), "--tasks", " ".join(format_card(c) for c in mission.cards),
            "--commander", str(game.deal.commander), "--json", "--budget", "20"]
    return args + (["--owners", ",".join(map(str, mission.owners))] if owners == "dealt" else [])


def run(tree: Path, args: list[str]) -> tuple[float, dict]:
    code = f"import sys; sys.path.insert(0, {str(tree)!r}); sys.argv = ['crew'] + {args!r}; from cli.main import main; main()"
    began = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tree, check=True)
    return time.perf_counter() - began, json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev")
    parser.add_argument("--reps", type=int, default=2)
    parser.add_argument("--deals", type=int, default=10)
    options = parser.parse_args()
    old = Path(tempfile.mkdtemp(prefix="crew-startup-"))
    try:
        archive = subprocess.run(["git", "archive", options.rev], cwd=ROOT, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(old)], input=archive, check=True)
        trees = {"old": old, "new": ROOT}
        for tree in trees.values():
            subprocess.run([sys.executable, "-m", "compileall", "-q", "solver", "cli"], cwd=tree, check=True)
        run(old, solve_args(4, 1, "draft", 0))  # compile REV's kernel into its own cache, untimed
        walls, engines = defaultdict(lambda: defaultdict(list)), defaultdict(Counter)
        for rep in range(options.reps):
            for name, players, tasks, owners in SETS:
                for index in range(options.deals):
                    args = solve_args(players, tasks, owners, index)
                    for tree in (("old", "new") if (rep + index) % 2 == 0 else ("new", "old")):
                        wall, answer = run(trees[tree], args)
                        walls[name][tree].append(wall)
                        if tree == "new":
                            engines[name][answer["engine"]] += 1
        print(f"# whole crew solve processes, {options.rev} (old) against the working tree (new), warm caches; "
              f"{options.deals} deals a set, {options.reps} turns")
        print(f"{'set':12s} {'old median s':>12s} {'old max s':>9s} {'new median s':>12s} {'new max s':>9s}  new engines")
        for name, *_ in SETS:
            o, n = walls[name]["old"], walls[name]["new"]
            print(f"{name:12s} {statistics.median(o):12.3f} {max(o):9.3f} {statistics.median(n):12.3f} {max(n):9.3f}  "
                  + ", ".join(f"{engine} {count}" for engine, count in engines[name].most_common()))
    finally:
        shutil.rmtree(old, ignore_errors=True)


if __name__ == "__main__":
    main()
