"""Analysis from positions (issue 21's targets), in a warm process: every legal card of a 4-player mid-game
position, and the post-mortem of a whole 4-player game.

Run: python benchmarks/bench_analysis.py [--deals 200] [--engine auto]

Positions: random 4-player task missions (`random_task_mission`, seeded; 4 and 6 drafted tasks, 8 dealt),
played for a random number of plays, 8 to 24: along the solver's winning line, half of them leaving it at
a random play for random legal cards (a LOSS deal: random legal cards), stopping where the mission ended. Games: a WIN deal's winning line with one random legal
card at a random play of tricks 2-8, then random legal plays to the mission's end (lost, or won where the
card kept it winnable). The kernel is loaded and warmed on a first position before any timing; the figures
are wall seconds per position (all its legal cards) and per game, median and p99, WIN and LOSS positions
apart, with the kernel's plays per second.
"""

import argparse
import dataclasses
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.api import load_kernel, sharing_engine  # noqa: E402
from solver.core.cards import scan  # noqa: E402
from solver.core.deal import deal_rng  # noqa: E402
from solver.core.solution import Limits, Outcome  # noqa: E402
from solver.engines.analysis import analyze_position, case_solver, consistent_cases, line_position, post_mortem  # noqa: E402
from solver.engines.reference import walk  # noqa: E402
from solver.missions.dealer import random_task_mission  # noqa: E402
from solver.missions.position import Position  # noqa: E402

SEED = 20261202
SETS = ((4, "draft"), (6, "draft"), (8, "dealt"))
BUDGET = Limits(max_work=10.0)


def deals(count: int):
    """Yield (deal, mission) of the fixed seeded set, the three kinds in turn."""
    for index in range(count):
        tasks, owners = SETS[index % len(SETS)]
        game = random_task_mission(deal_rng(SEED, index, 4, tasks), 4, tasks, owners)
        yield game.deal, game.task_setup.mission


def random_plays(deal, mission, plays, rng, stop: int):
    """Extend `plays` with random legal cards until `stop` plays or the mission's end."""
    plays = tuple(plays)
    while len(plays) < stop:
        walked = walk(deal, dataclasses.replace(mission, played=plays))
        if walked.ended or not walked.legal:
            break
        plays += (rng.choice(list(scan(walked.legal))),)
    return plays


def percentile(values, share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def report(name: str, seconds: list[float]) -> None:
    if seconds:
        print(f"{name:34s} n={len(seconds):4d}  median {statistics.median(seconds) * 1000:8.2f} ms   "
              f"p99 {percentile(seconds, 0.99) * 1000:9.2f} ms   max {max(seconds) * 1000:9.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--engine", default="auto", choices=("auto", "kernel", "reference"))
    options = parser.parse_args()
    print(f"kernel load: {load_kernel():.2f} s (apart from the figures)")
    solve = sharing_engine(options.engine)
    reach = case_solver(solve, BUDGET)
    rng = random.Random(SEED)
    positions, games = {Outcome.WIN: [], Outcome.LOSS: [], Outcome.UNKNOWN: []}, []
    nodes = search_seconds = 0
    warmed = False
    for deal, mission in deals(options.deals):
        whole = solve(deal, mission, BUDGET)
        line = line_position(whole).plays if whole.outcome is Outcome.WIN else ()
        stop = rng.randint(8, 24)
        kept = rng.randint(0, stop) if rng.random() < 0.5 else stop  # half the positions leave the line early
        plays = random_plays(deal, mission, line[:kept], rng, stop)
        consistent = consistent_cases([("", deal, mission)], Position(plays))
        if consistent[0].walked.ended:
            continue
        if not warmed:  # the first solves of a process touch fresh memory
            analyze_position(consistent, reach)
            warmed = True
        began = time.perf_counter()
        analysis = analyze_position(consistent, reach)
        positions[analysis.outcome].append(time.perf_counter() - began)
        nodes += sum(v.nodes for v in analysis.verdicts)
        search_seconds += sum(v.seconds for v in analysis.verdicts)
        if whole.outcome is Outcome.WIN:
            slip = rng.randint(4, 31)
            walked = walk(deal, dataclasses.replace(mission, played=line[:slip]))
            if not walked.ended and walked.legal:
                game = random_plays(deal, mission, line[:slip] + (rng.choice(list(scan(walked.legal))),), rng, 40)
                consistent = consistent_cases([("", deal, mission)], Position(game))
                began = time.perf_counter()
                post_mortem(consistent, reach)
                games.append((time.perf_counter() - began, len(game)))
    print(f"engine {options.engine}; {options.deals} deals of 4 players ({', '.join(f'{t} {o}' for t, o in SETS)})")
    for outcome, seconds in positions.items():
        report(f"position, every legal card: {outcome.value.upper()}", seconds)
    report("position, every legal card: all", [s for seconds in positions.values() for s in seconds])
    report("post-mortem of a game", [s for s, _ in games])
    report("post-mortem of a 40-play game", [s for s, n in games if n == 40])
    if search_seconds:
        print(f"positions: {nodes:,} plays searched, {nodes / search_seconds:,.0f} plays/s")


if __name__ == "__main__":
    main()
