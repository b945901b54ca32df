"""The Numba double-dummy kernel: an existential depth-first search over card plays, on bitboards.

A TaskMission on a deal is compiled to flat int64 arrays (`problem`), which the jitted search
interprets; the modules split it by concern, each importing only those above it:

- `problem`: a deal and its mission compiled to the problem array (its `PROBLEM` layout);
- `arrays`: the search's own arrays (frame, ply, control layouts), the lookup tables, `SearchArrays`;
- `moves`: move generation, move ordering and card equivalence;
- `table`: the position's hash and the transposition table of lost positions;
- `bounds`: early proofs of loss (counters, tricks still needed, static checks at trick boundaries);
- `events`: what moves cards between tricks (random pass, skis, fog, passes, redeal, the table);
- `play`: a card into a trick, settling a trick, the mission won;
- `search`: the resumable search loop;
- `solver`: `KernelSolver`, the engine (solver/engines/protocol.py), and `perft`;
- `cache`: where Numba keeps the compiled kernel (a directory per version of its sources).

Machinery, in short: a transposition table of lost trick-boundary positions keyed by a 128-bit hash
with ranks squeezed; lazy task assignment (a drafted task's owner is whoever wins its trick, within
the seat's draft count, so one search covers every assignment); card equivalence; early failure
inside a trick; static checks at trick boundaries; order tokens checked on completion and early
success when all tasks are done; a heuristic move order taking turns with plain card order.
"""

from solver.engines.kernel.cache import use_cache_of_these_sources

use_cache_of_these_sources()  # before the modules below are compiled or loaded

from solver.engines.kernel.solver import (
    ENGINE,
    SINGLE_DEAL_TT_BITS,
    KernelSolver,
    load_compiled,
    perft,
    solve,
    unsupported,
)

__all__ = ["ENGINE", "SINGLE_DEAL_TT_BITS", "KernelSolver", "load_compiled", "perft", "solve", "unsupported"]
