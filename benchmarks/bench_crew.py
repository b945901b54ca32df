"""The realistic crew's games (issue 22's speed target), in a warm process: whole 4-player games, each decision
from N sampled deals solved by the kernel.

Run: python benchmarks/bench_crew.py [--games 20] [--tasks 1,3,5] [--samples 16] [--compare]

Games: deal i of the random-task experiment `tasks/K/dealt` at 4 players (seed 20261202), played by the crew
with crew seed i. The figures are wall seconds per game, median and p99, WIN and LOSS games apart, with the
kernel's solves per game and the seconds a solve. `--compare` plays each game twice, taking turns, with the
game's one table (`GameTables`) against a fresh table generation a solve, and checks both play the same game.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.api import load_kernel  # noqa: E402
from solver.core.solution import Outcome  # noqa: E402
from solver.engines.crew import GameTables  # noqa: E402
from solver.engines.kernel import SINGLE_DEAL_TT_BITS, KernelSolver  # noqa: E402
from solver.engines.realistic import play_game  # noqa: E402
from solver.missions.dealer import deal_task_experiment  # noqa: E402
from solver.trick.spaces import TRAIN  # noqa: E402

SEED = 20261202


class Counted:
    """An engine that counts its solves and their seconds."""

    def __init__(self, solve):
        self.solve, self.solves, self.seconds = solve, 0, 0.0

    def __call__(self, deal, mission, limits):
        began = time.perf_counter()
        solution = self.solve(deal, mission, limits)
        self.solves += 1
        self.seconds += time.perf_counter() - began
        return solution


def percentile(values, share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def report(name: str, seconds: list[float], solves: list[int]) -> None:
    if seconds:
        print(f"{name:28s} n={len(seconds):3d}  median {statistics.median(seconds):7.3f} s   "
              f"p99 {percentile(seconds, 0.99):7.3f} s   solves/game {statistics.mean(solves):7.0f}")


def play(game, index: int, samples: int, engine) -> tuple:
    counted = Counted(engine)
    began = time.perf_counter()
    played = play_game(game.deal, game.setups(), samples=samples, seed=index, solve=counted)
    return played, time.perf_counter() - began, counted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--tasks", default="1,3,5")
    parser.add_argument("--samples", type=int, default=16)
    parser.add_argument("--compare", action="store_true")
    options = parser.parse_args()
    print(f"kernel load: {load_kernel():.2f} s (apart from the figures)")
    kernel = KernelSolver(SINGLE_DEAL_TT_BITS)
    for tasks in (int(t) for t in options.tasks.split(",")):
        times = {"game table": {Outcome.WIN: [], Outcome.LOSS: []}, "fresh tables": {Outcome.WIN: [], Outcome.LOSS: []}}
        solves = {name: {Outcome.WIN: [], Outcome.LOSS: []} for name in times}
        solve_seconds = []
        for index in range(options.games):
            game = deal_task_experiment(tasks, "dealt", TRAIN, 4, SEED, index)
            engines = {"game table": lambda: GameTables(kernel), "fresh tables": lambda: kernel.solve}
            names = list(engines) if options.compare else ["game table"]
            if options.compare and index % 2:
                names.reverse()
            played = {}
            for name in names:
                played[name], seconds, counted = play(game, index, options.samples, engines[name]())
                times[name][played[name].outcome].append(seconds)
                solves[name][played[name].outcome].append(counted.solves)
                solve_seconds.append(counted.seconds / max(counted.solves, 1))
            if len({p.decisions for p in played.values()}) != 1:
                raise SystemExit(f"game {index} of {tasks} tasks: the two tables played different games")
        print(f"{tasks} tasks, {options.samples} samples a decision, {options.games} games "
              f"(mean {statistics.mean(solve_seconds) * 1000:.2f} ms a solve):")
        for name in (times if options.compare else ["game table"]):
            for outcome in (Outcome.WIN, Outcome.LOSS):
                report(f"  {name}, {outcome.value}", times[name][outcome], solves[name][outcome])
            every = times[name][Outcome.WIN] + times[name][Outcome.LOSS]
            report(f"  {name}, all", every, solves[name][Outcome.WIN] + solves[name][Outcome.LOSS])


if __name__ == "__main__":
    main()
