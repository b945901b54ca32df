"""Run sweep batches in parallel and store each batch as it completes.

Local runs use a process pool sized by `--jobs` (each worker keeps one solver
and its table from batch to batch); `--scheduler tcp://HOST:PORT` sends the same
batches to a Dask distributed cluster. Either way only this process writes the
database, one transaction per batch, so an interrupted run loses at most the
batches in flight, and nothing is written twice. A few batches per worker are
kept in flight, so Ctrl-C has little to cancel. A local worker dies with this
process, however it ends (`die_with`): `kill -9` of a sweep left its two workers
solving on, ~270 MB each, after the resumed sweep had finished.
"""

import concurrent.futures
import ctypes
import os
import signal
import sys
import threading
import time

from solver.core.errors import InputError
from solver.experiments.store import ResultStore
from solver.experiments.sweep import Batch, solve_batch

IN_FLIGHT_PER_WORKER = 2
PR_SET_PDEATHSIG = 1  # Linux prctl(2): the signal this process gets when its parent dies
PARENT_CHECK_SECONDS = 1.0  # elsewhere: how often a worker looks whether its parent is still there


def start_worker(parent: int) -> None:
    """Worker initializer: leave Ctrl-C to the parent, which cancels the work and reports, and die with it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with(parent)


def die_with(parent: int) -> None:
    """End this process when process `parent` ends: on Linux the kernel kills it (PR_SET_PDEATHSIG, even
    while it is deep in compiled code); elsewhere a thread checks every PARENT_CHECK_SECONDS."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    else:
        threading.Thread(target=watch_parent, args=(parent,), daemon=True).start()
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)


def watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(1)


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def run_batches(batches: list[Batch], store: ResultStore, jobs: int, cluster, progress) -> None:
    """Solve the batches and store their records; `progress(records)` after each batch. `cluster`: a
    Dask client connected to its scheduler (`connect`), or None for local processes.

    KeyboardInterrupt propagates after the pending work is cancelled; every
    batch finished before it is stored.
    """
    if cluster is not None:
        run_on_cluster(batches, store, cluster, progress)
    elif jobs == 1:
        for batch in batches:
            store.add(records := solve_batch(batch))
            progress(records)
    else:
        run_in_pool(batches, store, jobs, progress)


def finish(future, store: ResultStore, progress) -> None:
    """Store a finished batch; a worker's failure becomes a one-line error."""
    try:
        records = future.result()
    except Exception as error:  # a worker's failure, reported in one line, not a traceback
        raise InputError(f"a worker failed: {type(error).__name__}: {error}") from None
    store.add(records)
    progress(records)


def run_in_pool(batches: list[Batch], store: ResultStore, jobs: int, progress) -> None:
    pool = concurrent.futures.ProcessPoolExecutor(jobs, initializer=start_worker, initargs=(os.getpid(),))
    try:
        pending = list(reversed(batches))
        running = set()
        while pending or running:
            while pending and len(running) < jobs * IN_FLIGHT_PER_WORKER:
                running.add(pool.submit(solve_batch, pending.pop()))
            done, running = concurrent.futures.wait(running, return_when=concurrent.futures.FIRST_COMPLETED)
            for future in done:
                finish(future, store, progress)
    except BaseException:
        for process in list((pool._processes or {}).values()):
            process.terminate()  # a worker deep in a hard deal would otherwise finish it first
        raise
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


_SOLVING = threading.Lock()


def solve_batch_alone(batch: Batch):
    """solve_batch, one at a time per process: a Dask worker's threads would share its one solver."""
    with _SOLVING:
        return solve_batch(batch)


def connect(scheduler: str):
    """Return a Dask client connected to `scheduler` (a context manager that closes it); InputError, in one
    line, when there is none (before anything is written: the sweep's directory is made after this)."""
    import distributed  # only clusters need it loaded

    try:  # waits distributed.comm.timeouts.connect (30 s by default) for the scheduler
        return distributed.Client(scheduler)
    except (OSError, ValueError) as error:
        raise InputError(f"cannot connect to the Dask scheduler {scheduler}: {error}") from None


def run_on_cluster(batches: list[Batch], store: ResultStore, client, progress) -> None:
    import distributed

    pending = list(reversed(batches))
    running = set()
    try:
        while pending or running:
            workers = max(1, len(client.nthreads()))  # worker processes, asked again as workers join
            while pending and len(running) < workers * IN_FLIGHT_PER_WORKER:
                running.add(client.submit(solve_batch_alone, pending.pop(), pure=False))
            done, running = distributed.wait(running, return_when="FIRST_COMPLETED")
            for future in done:
                finish(future, store, progress)
    finally:
        if running:  # cancelling nothing makes the scheduler log a CommClosedError traceback as the client leaves
            client.cancel(list(running))
