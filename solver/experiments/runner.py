"""Run sweep batches in parallel and store each batch as it completes.

Local runs use a process pool sized by `--jobs` (each worker keeps one solver
and its table from batch to batch); `--scheduler tcp://HOST:PORT` sends the same
batches to a Dask distributed cluster. Either way only this process writes the
database, one transaction per batch, so an interrupted run loses at most the
batches in flight, and nothing is written twice. A few batches per worker are
kept in flight, so Ctrl-C has little to cancel.
"""

import concurrent.futures
import os
import signal
import threading

from solver.core.errors import InputError
from solver.experiments.store import ResultStore
from solver.experiments.sweep import Batch, solve_batch

IN_FLIGHT_PER_WORKER = 2


def ignore_interrupts() -> None:
    """Leave Ctrl-C to the parent, which cancels the work and reports (worker initializer)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def run_batches(batches: list[Batch], store: ResultStore, jobs: int, scheduler: str | None, progress) -> None:
    """Solve the batches and store their records; `progress(records)` after each batch.

    KeyboardInterrupt propagates after the pending work is cancelled; every
    batch finished before it is stored.
    """
    if scheduler is not None:
        run_on_cluster(batches, store, scheduler, progress)
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
    pool = concurrent.futures.ProcessPoolExecutor(jobs, initializer=ignore_interrupts)
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


def run_on_cluster(batches: list[Batch], store: ResultStore, scheduler: str, progress) -> None:
    import distributed  # only clusters need it loaded

    try:  # waits distributed.comm.timeouts.connect (30 s by default) for the scheduler
        client = distributed.Client(scheduler)
    except (OSError, ValueError) as error:
        raise InputError(f"cannot connect to the Dask scheduler {scheduler}: {error}") from None
    with client:
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
            client.cancel(list(running))
