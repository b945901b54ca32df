"""The realistic crew's games (issue 22's speed target), in a warm process: whole games, each decision from N
sampled deals solved by the kernel.

Run: python benchmarks/bench_crew.py [--games 20] [--sets tasks-1,tasks-3,tasks-5] [--samples 16] [--compare]

Sets (seed 20261202; game i played by the crew with crew seed i and CREW_NODES a solve, as a sweep plays it):
`tasks-K`, deal i of the random-task experiment `tasks/K/dealt` at 4 players; `logbook-Np`, logbook mission
i mod 50 + 1 at N players (2: with JARVIS); `SPACE-4p` (`skis`, `vespa`, `dog-sled`, `storm`, ...), the logbook
missions likewise at 4 players on a Journey space; `no-1-no-2-4p` and `pink-for-everyone-5p`, Journey's special
missions, played to the end for the best mean score; `deep-sea-N-Pp`, Deep Sea's card N alone at P players, deal i
of its sweep cell (seed 1, as `crew-deep-sea-cards-*` play them); a game the crew does not play (since it plays mission 12's random
pass under fog with the Ghost, none of these sets has one) is skipped and counted. The figures are wall seconds per game, median and p99, WIN
and LOSS games apart, with the kernel's solves per game and the seconds a solve. `--compare` plays each game
twice, taking turns, with the game's one table (`GameTables`) against a fresh table generation a solve, checks that no position gets WIN
from one and LOSS from the other, and counts the games they play differently (a sample's budget ends UNKNOWN with
one table and decided with the other).
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
from solver.engines.crew import GameTables, hidden_unsupported  # noqa: E402
from solver.engines.kernel import SINGLE_DEAL_TT_BITS, KernelSolver  # noqa: E402
from solver.engines.realistic import CREW_LIMITS, play_dealt  # noqa: E402
from solver.missions.dealer import deal_mission, deal_task_experiment  # noqa: E402
from solver.missions.mission import find_mission  # noqa: E402
from solver.missions.stage import crew_setups  # noqa: E402
from solver.trick.spaces import TRAIN, parse_space  # noqa: E402

SEED = 20261202
SPECIALS = ("no-1-no-2", "pink-for-everyone")  # Journey's special missions: a score


class Counted:
    """An engine that counts its solves and their seconds, and keeps each position's decided answer."""

    def __init__(self, solve):
        self.solve, self.solves, self.seconds, self.decided = solve, 0, 0.0, {}

    def __call__(self, deal, mission, limits):
        began = time.perf_counter()
        solution = self.solve(deal, mission, limits)
        self.solves += 1
        self.seconds += time.perf_counter() - began
        if solution.outcome is not Outcome.UNKNOWN:
            self.decided[deal, mission] = solution.outcome
        return solution


def contradictions(first: Counted, second: Counted) -> int:
    """Return how many positions both decided, one WIN and the other LOSS (a fault: the budget may leave a position
    UNKNOWN with one table and decide it with the other, so their games may differ, but never their answers)."""
    return sum(first.decided[key] is not outcome for key, outcome in second.decided.items() if key in first.decided)


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
    played = play_dealt(game, samples, index, counted, CREW_LIMITS)
    return played, time.perf_counter() - began, counted


def crew_refusal(game) -> str:
    """Return what the crew does not model in a dealt game (as a sweep's crew_refusal), "" when it plays it."""
    return next((why for setup in crew_setups(game.stage, game.deal, game.setups())
                 for why in [hidden_unsupported(setup.mission)] if why), "")


def dealt(name: str, index: int):
    """Return game `index` of set `name` (the module's docstring names them)."""
    if name.startswith("tasks-"):
        return deal_task_experiment(int(name.removeprefix("tasks-")), "dealt", TRAIN, 4, SEED, index)
    kind, players = name.rsplit("-", 1)
    players = int(players.removesuffix("p"))
    if kind.startswith("deep-sea-"):
        return deal_mission(find_mission(f"deep-sea/{kind.removeprefix('deep-sea-')}"), TRAIN, players, 1, index)
    if kind in SPECIALS:
        return deal_mission(find_mission(f"journey/{kind}"), TRAIN, players, SEED, index)
    space = TRAIN if kind == "logbook" else parse_space(kind)
    return deal_mission(find_mission(f"planet-nine/{index % 50 + 1}"), space, players, SEED, index)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--sets", default="tasks-1,tasks-3,tasks-5")
    parser.add_argument("--samples", type=int, default=16)
    parser.add_argument("--compare", action="store_true")
    options = parser.parse_args()
    print(f"kernel load: {load_kernel():.2f} s (apart from the figures)")
    kernel = KernelSolver(SINGLE_DEAL_TT_BITS)
    for set_name in options.sets.split(","):
        times = {"game table": {Outcome.WIN: [], Outcome.LOSS: []}, "fresh tables": {Outcome.WIN: [], Outcome.LOSS: []}}
        solves = {name: {Outcome.WIN: [], Outcome.LOSS: []} for name in times}
        solve_seconds, differed, refused = [], 0, 0
        for index in range(options.games):
            game = dealt(set_name, index)
            if crew_refusal(game):  # a sweep notes such cells and plays the others
                refused += 1
                continue
            engines = {"game table": lambda: GameTables(kernel), "fresh tables": lambda: kernel.solve}
            names = list(engines) if options.compare else ["game table"]
            if options.compare and index % 2:
                names.reverse()
            played, engines_used = {}, []
            for name in names:
                played[name], seconds, counted = play(game, index, options.samples, engines[name]())
                times[name][played[name].outcome].append(seconds)
                solves[name][played[name].outcome].append(counted.solves)
                solve_seconds.append(counted.seconds / max(counted.solves, 1))
                engines_used.append(counted)
            if options.compare:
                if contradictions(*engines_used):
                    raise SystemExit(f"game {index} of {set_name}: the two tables answered a position differently")
                differed += len({p.decisions for p in played.values()}) != 1
        print(f"{set_name}, {options.samples} samples a decision, {options.games} games "
              f"(mean {statistics.mean(solve_seconds) * 1000:.2f} ms a solve"
              + (f"; {differed} played differently, a budget deciding a sample with one table only" if differed else "")
              + (f"; {refused} the crew does not play" if refused else "")
              + "):")
        for name in (times if options.compare else ["game table"]):
            for outcome in (Outcome.WIN, Outcome.LOSS):
                report(f"  {name}, {outcome.value}", times[name][outcome], solves[name][outcome])
            every = times[name][Outcome.WIN] + times[name][Outcome.LOSS]
            report(f"  {name}, all", every, solves[name][Outcome.WIN] + solves[name][Outcome.LOSS])


if __name__ == "__main__":
    main()
