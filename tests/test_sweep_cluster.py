"""`crew sweep --scheduler` on a real Dask cluster: the same records as a local run, resume, one-line errors.

Deal i of a cell depends only on (seed, cell, i), and a worker's transposition
table is generation-stamped per deal, so every column but the timing (`ms`) must
be the same whatever the job count, the cluster or the deals a worker solved
before: result, nodes, engine, setup (the winning choices) and line. The sweep
here is chosen to cover what could differ: mission 5 (a chosen player, so
several setups solved in rounds), 12 (a random pass), 16 (a trick counter, and
a LOSS at 4 players), deals that take more than one kernel slice, and --batch 3
so there are several batches per cell. The budget is far above any deal's time
(checked: no UNKNOWN), so no answer depends on the machine's speed.

The cluster's workers run two threads each and switch threads every
microsecond. The threads of a worker process share its one solver, so batches
there must run one at a time (solver.experiments.runner.solve_batch_alone). Without that,
records can differ and batches can fail, but this small sweep has few deals
long enough to overlap, so it catches that race only sometimes. The commands
run as real processes (the installed `crew`), so stderr is what a user sees,
Dask's logging included.
"""

import contextlib
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")

CREW = Path(sys.executable).with_name("crew")
DEALS = 10
SWEEP = ["sweep", "--missions", "5,12,16", "--players", "3,4", "--seed", "35", "--budget", "5", "--batch", "3"]
CELLS = 6
# Every column but ms (wall-clock time).
COLUMNS = "mission, players, seed, deal_index, result, nodes, engine, setup, line"


def crew(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(CREW), *args], check=False, capture_output=True, text=True, timeout=120, env=env)


def sweep(out: Path, *options: str, deals: int = DEALS) -> subprocess.CompletedProcess:
    done = crew(*SWEEP, "--deals", str(deals), "--out", str(out), *options)
    assert done.returncode == 0, done.stderr
    return done


def records(out: Path) -> list[tuple]:
    with contextlib.closing(sqlite3.connect(out / "results.db")) as db:
        return db.execute(f"SELECT {COLUMNS} FROM deals ORDER BY mission, players, seed, deal_index").fetchall()


@pytest.fixture(scope="module")
def scheduler():
    """The address of a local cluster of two worker processes, closed after the module's tests."""
    # Port 0: a free port (other test runs or clusters may hold the default 8787).
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=2, processes=True, dashboard_address="127.0.0.1:0"
    ) as local:
        with distributed.Client(local) as client:
            client.run(sys.setswitchinterval, 1e-6)  # a thread switch between any two kernel slices
        yield local.scheduler_address


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> list[tuple]:
    """The records of the sweep run in this one process, deal after deal (--jobs 1)."""
    out = tmp_path_factory.mktemp("jobs1")
    sweep(out, "--jobs", "1")
    return records(out)


def test_the_reference_sweep_covers_what_could_differ(reference):
    assert len(reference) == CELLS * DEALS
    results = [row[4] for row in reference]
    assert "unknown" not in results  # else the answers would depend on the machine's speed
    assert "loss" in results
    assert any(row[5] > 16384 for row in reference)  # more than one kernel slice (SLICE_NODES)
    assert any(row[7] for row in reference)  # a setup chosen among several (mission 5's player X)
    assert all(row[8] for row in reference if row[4] == "win")


@pytest.mark.parametrize("where", ["jobs 2", "cluster"])
def test_same_records_whatever_runs_the_batches(where, reference, scheduler, tmp_path):
    options = ["--jobs", "2"] if where == "jobs 2" else ["--scheduler", scheduler]
    sweep(tmp_path, *options)
    assert records(tmp_path) == reference


def test_a_cluster_sweep_resumes(reference, scheduler, tmp_path):
    sweep(tmp_path, "--scheduler", scheduler, deals=5)
    assert len(records(tmp_path)) == CELLS * 5
    again = sweep(tmp_path, "--scheduler", scheduler)
    assert f"sweep: {CELLS * 5} / {CELLS * 5} deals" in again.stderr  # only the missing deals were solved
    with contextlib.closing(sqlite3.connect(tmp_path / "results.db")) as db:
        counts = db.execute("SELECT COUNT(*), COUNT(DISTINCT mission || players || seed || '/' || deal_index) FROM deals")
        assert counts.fetchone() == (CELLS * DEALS, CELLS * DEALS)
    assert records(tmp_path) == reference


def test_no_scheduler_is_one_line_error(tmp_path):
    address = "tcp://127.0.0.1:1"  # nothing listens there
    env = {**os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "1s"}  # not the default 30 s
    done = crew(*SWEEP, "--deals", "2", "--out", str(tmp_path / "out"), "--scheduler", address, env=env)
    assert done.returncode == 2, done.stderr
    assert not (tmp_path / "out").exists()  # no empty results.db left behind
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"crew: error: cannot connect to the Dask scheduler {address}: ")


def test_a_sweep_leaves_the_scheduler_without_a_traceback(scheduler, tmp_path):
    # The scheduler logged a CommClosedError traceback as every sweep's client left (it had cancelled an
    # empty list of futures just before closing).
    import logging
    import time

    logged: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = logged.append
    logger = logging.getLogger("distributed")
    logger.addHandler(handler)
    try:
        sweep(tmp_path, "--scheduler", scheduler, deals=2)
        time.sleep(1)  # the scheduler sees the client go
    finally:
        logger.removeHandler(handler)
    assert any("Remove client" in record.getMessage() for record in logged)  # the handler hears the scheduler
    assert [record.getMessage() for record in logged if record.exc_info] == []
