"""Sweep throughput: deals per second of a fixed mini-sweep at --jobs 1 and at --jobs 2.

Run: python benchmarks/bench_sweep.py [--missions 1-50] [--players 4] [--deals 10]
                                      [--seed 20261130] [--budget 10] [--jobs 1,2] [--repeat 1]

Each run is the `crew sweep` command in a fresh process, into a fresh temporary
directory, so the figure includes what a user pays: process start-up, loading
the compiled kernel in every worker, and writing the database. The rate is the
deals of the sweep over its wall-clock time (the best of --repeat runs). The
runs must agree deal by deal (result, setup and line of play), since a sweep's
deals depend only on the seed: else the script says so and exits 1.
"""

import argparse
import os
import platform
import sqlite3
import subprocess
import sys
import tempfile
import time
from contextlib import closing
from pathlib import Path

CREW = Path(sys.executable).parent / "crew"


def run_sweep(args, jobs: int) -> tuple[float, float, dict]:
    """Run the mini-sweep once at `jobs` into a fresh directory.

    Return its wall-clock seconds, the sum of its per-deal solving times (seconds) and its stored deals.
    """
    with tempfile.TemporaryDirectory(prefix="bench-sweep-") as directory:
        command = [
            str(CREW), "sweep", "--missions", args.missions, "--players", args.players, "--deals", str(args.deals),
            "--seed", str(args.seed), "--budget", str(args.budget), "--jobs", str(jobs), "--out", directory,
            "--format", "csv",
        ]
        began = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        seconds = time.perf_counter() - began
        with closing(sqlite3.connect(Path(directory) / "results.db")) as db:
            rows = db.execute("SELECT mission, players, seed, deal_index, result, setup, line FROM deals").fetchall()
            (solving_ms,) = db.execute("SELECT SUM(ms) FROM deals").fetchone()
    return seconds, solving_ms / 1000, {row[:4]: row[4:] for row in rows}


def machine() -> str:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    load = ", load average " + " ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else ""
    return (
        f"{platform.platform()}; {platform.processor() or platform.machine()}; {os.cpu_count()} cores, "
        f"{cores} usable{load}; Python {platform.python_version()}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--missions", default="1-50")
    parser.add_argument("--players", default="4")
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--budget", type=float, default=10.0)
    parser.add_argument("--jobs", default="1,2", help="Job counts to compare, e.g. 1,2 (the first is the base).")
    parser.add_argument("--repeat", type=int, default=1, help="Runs per job count; the best time counts.")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    print(f"sweep: --missions {args.missions} --players {args.players} --deals {args.deals} "
          f"--seed {args.seed} --budget {args.budget}")
    rates, answers = {}, {}
    for jobs in (int(j) for j in args.jobs.split(",")):
        best = solving = float("inf")
        for _ in range(args.repeat):
            seconds, solved, stored = run_sweep(args, jobs)
            if seconds < best:
                best, solving = seconds, solved
            answers.setdefault(jobs, stored)
            if stored != answers[jobs]:
                print(f"--jobs {jobs}: two runs differ")
                return 1
        rates[jobs] = len(answers[jobs]) / best
        print(f"--jobs {jobs}: {len(answers[jobs])} deals in {best:.2f} s, {rates[jobs]:.1f} deals/s "
              f"({solving:.2f} s of it solving deals, summed over workers)")
    base, *others = rates
    for jobs in others:
        print(f"--jobs {jobs} / --jobs {base}: {rates[jobs] / rates[base]:.2f}x")
    status = 0
    for jobs in others:
        results = {key: answer[0] for key, answer in answers[jobs].items()}
        if results != {key: answer[0] for key, answer in answers[base].items()}:
            print(f"--jobs {jobs}: per-deal results differ from --jobs {base}")
            status = 1
        elif answers[jobs] != answers[base]:
            print(f"--jobs {jobs}: the same results, but other setups or lines of play than --jobs {base}")
            status = 1
    if status == 0:
        print(f"per-deal results identical across --jobs {args.jobs}")
    return status


if __name__ == "__main__":
    sys.exit(main())
