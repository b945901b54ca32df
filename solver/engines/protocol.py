"""The one protocol of the trick-taking engines, and the engines by name.

Every engine module offers `ENGINE` (its name), `unsupported(mission)` (the rule families of a
TaskMission it does not model, short name -> words; empty when it answers the mission) and
`solve(deal, mission, limits)`, which raises UnsupportedMission naming those families rather
than answer. Callers choose an engine by capability through `unsupported`, never by checks of
their own (the portfolio sends CP-SAT only what `cpsat.unsupported` leaves).

The modules are imported when an engine is first asked for: the kernel's import pulls in Numba
(0.3 s) and CP-SAT's ortools, which a solve the plain search answers never needs.
"""

import importlib
from typing import Protocol

from solver.core.deal import Deal
from solver.core.errors import InputError
from solver.core.solution import Limits, Solution
from solver.missions.tasks import TaskMission


class Engine(Protocol):
    ENGINE: str

    def unsupported(self, mission: TaskMission) -> dict[str, str]: ...

    def solve(self, deal: Deal, mission: TaskMission, limits: Limits = ...) -> Solution: ...


ENGINE_MODULES = {
    "auto": "solver.engines.portfolio",
    "kernel": "solver.engines.kernel",
    "cpsat": "solver.engines.cpsat",
    "reference": "solver.engines.reference",
}
ENGINES = tuple(ENGINE_MODULES)  # the engines' names, the default first


def engine(name: str) -> Engine:
    """Return the engine module named `name` (imported now if it was not yet); InputError if there is none."""
    if name not in ENGINE_MODULES:
        raise InputError(f"unknown engine {name!r} (allowed: {', '.join(ENGINES)})")
    return importlib.import_module(ENGINE_MODULES[name])
