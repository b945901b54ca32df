"""The default engine of `crew solve` against de Jong's SAT solver, on crew bench's LOSS sets, taking turns deal by deal.

Run: python benchmarks/bench_sat.py --sat PATH [--deals 100] [--only NAME ...] [--json FILE]

De Jong's solver (2021: the play of a fixed-owner deal as CNF, solved by Kissat) is the fastest public exact solver
of The Crew, and issue 19's yardstick. PATH is its `satisfiability` program, built outside this repository (the
project's own benchmarks never need it), with the Kissat of his time (rel-1.0.3: on crew bench's LOSS sets about
1.5-3x faster than rel-4.0.4, whose inprocessing dominates these small instances), e.g.:

    git clone https://github.com/arminbiere/kissat && (cd kissat && git checkout rel-1.0.3 && ./configure -fPIC && make)
    git clone https://github.com/Thyrum/an-analysis-of-the-crew dejong && cd dejong
    mkdir -p deps/include/kissat deps/lib && cp ../kissat/src/kissat.h deps/include/kissat/
    cp ../kissat/build/libkissat.a deps/lib/ && mkdir release && cd release
    cmake .. -DCMAKE_BUILD_TYPE=release -DCMAKE_INCLUDE_PATH=$PWD/../deps/include -DCMAKE_LIBRARY_PATH=$PWD/../deps/lib
    make satisfiability   # ../bin/satisfiability (cmake's complaint about Boost is for his other program)

Each deal goes to one run of the program, in its game format (`game_text`), timed by its wall time (the process's
start included: about 2 ms). crew's default engine solves the same deal in this process, warm (the kernel compiled,
CP-SAT loaded), within a 60 s budget. The two take turns deal by deal, which of them goes first alternating, so the
machine's load falls on both alike. An answer both give must be the same, else the script stops. Reported per set,
WIN and LOSS apart: the deals, the medians, the p99 and the totals of both, and SAT's median over crew's.
"""

import argparse
import json
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from solver import __version__
from solver.core.cards import TRUMP, rank_of, scan, suit_of
from solver.core.solution import Limits, Outcome
from solver.engines.portfolio import PortfolioSolver
from solver.experiments.bench import LOSS_TASK_SETS
from solver.experiments.summary import git_commit

BUDGET = 60.0  # seconds of work a deal for crew: far above any deal of these sets


def card_text(c: int) -> str:
    """Return card `c` as de Jong's game format writes it: [suit,value], suit 0 the trumps (ours are the last suit,
    after the four colours)."""
    return f"[{0 if suit_of(c) == TRUMP else suit_of(c) + 1},{rank_of(c)}]"


def game_text(deal, mission) -> str:
    """Return the deal and its fixed-owner tasks in de Jong's game format: the players, the starting player (the
    Commander) and the suits; a hand a line; then each seat's tasks a line."""
    lines = [f"{deal.players} {deal.commander} 5"]
    lines += [" ".join(card_text(c) for c in scan(hand)) for hand in deal.hands]
    lines += [" ".join(card_text(c) for c, owner in zip(mission.cards, mission.owners) if owner == seat)
              for seat in range(deal.players)]
    return "\n".join(lines) + "\n"


def sat_solve(program: str, text: str) -> tuple[str, float]:
    """Return the SAT solver's answer ("W" or "L") and its wall seconds on the game `text`."""
    with tempfile.NamedTemporaryFile("w", suffix=".game") as game:
        game.write(text)
        game.flush()
        began = time.perf_counter()
        try:
            run = subprocess.run([program, "solve", "-g", game.name], capture_output=True, text=True)
        except OSError as error:  # not a program
            sys.exit(f"bench_sat: cannot run {program}: {error.strerror}")
        seconds = time.perf_counter() - began
    said = run.stdout.split()
    if "UNSOLVABLE" in said:
        return "L", seconds
    if "SOLVABLE" in said:
        return "W", seconds
    sys.exit(f"bench_sat: {program} gave no answer (exit {run.returncode}): {run.stderr.strip()[:200]}")


def p99(values: list[float]) -> float:
    return sorted(values)[min(len(values) - 1, int(len(values) * 0.99))]


def set_lines(name: str, rows) -> list[str]:
    """Return a set's report lines, WIN and LOSS apart, from its (answer, crew ms, SAT ms, engine) rows."""
    lines = []
    for answer in "LW":
        crew = [ours for said, ours, _, _ in rows if said == answer]
        sat = [theirs for said, _, theirs, _ in rows if said == answer]
        if crew:
            lines.append(
                f"{name:12s} {answer} {len(crew):4d}  median {statistics.median(crew):7.1f} {statistics.median(sat):7.1f}"
                f"  x{statistics.median(sat) / statistics.median(crew):5.1f}   p99 {p99(crew):7.1f} {p99(sat):7.1f}"
                f"   total s {sum(crew) / 1000:6.2f} {sum(sat) / 1000:6.2f}")
    unknown = sum(said == "U" for said, _, _, _ in rows)
    if unknown:
        lines.append(f"{name:12s} UNKNOWN to crew within {BUDGET:.0f} s: {unknown}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sat", required=True, help="de Jong's `satisfiability` program (built outside the repository)")
    parser.add_argument("--deals", type=int, default=100, help="deals a set (the sets' first ones)")
    parser.add_argument("--only", nargs="*", help="set names (default: all of crew bench's LOSS task sets)")
    parser.add_argument("--json", help="write every deal's answer and times to this file")
    args = parser.parse_args()
    if not Path(args.sat).is_file():
        parser.error(f"no SAT program at {args.sat} (build it as this script's help says)")
    sets = [s for s in LOSS_TASK_SETS if not args.only or s.name in args.only]
    if not sets:
        parser.error(f"no LOSS set named {', '.join(args.only)}; the sets: {', '.join(s.name for s in LOSS_TASK_SETS)}")
    solver = PortfolioSolver()
    solver.solve(*sets[0].case(0))  # warm: the kernel compiled, CP-SAT loaded, the table's pages written
    print(f"# crew-solver {__version__} at {git_commit()}, python {platform.python_version()}, {platform.platform()}")
    print(f"# SAT: {args.sat}; {args.deals} deals a set, crew warm in process (budget {BUDGET:.0f} s), SAT a process a deal")
    print(f"# command: python benchmarks/bench_sat.py {' '.join(sys.argv[1:])}")
    print("# set        answer deals  median ms crew SAT  SAT/crew   p99 ms crew SAT   total s crew SAT")
    report = {}
    for deal_set in sets:
        rows = []
        for index in range(args.deals):
            deal, mission = deal_set.case(index)
            text = game_text(deal, mission)
            if index % 2:
                theirs = sat_solve(args.sat, text)
                ours = solver.solve(deal, mission, Limits(max_work=BUDGET))
            else:
                ours = solver.solve(deal, mission, Limits(max_work=BUDGET))
                theirs = sat_solve(args.sat, text)
            said = {Outcome.WIN: "W", Outcome.LOSS: "L", Outcome.UNKNOWN: "U"}[ours.outcome]
            if said != "U" and said != theirs[0]:
                sys.exit(f"bench_sat: {deal_set.name} deal {index}: crew {ours.outcome.value}, SAT {theirs[0]}")
            rows.append((said, ours.seconds * 1000, theirs[1] * 1000, ours.engine))
        report[deal_set.name] = rows
        print("\n".join(set_lines(deal_set.name, rows)), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(report))


if __name__ == "__main__":
    main()
