"""The one protocol of the trick-taking engines, and the engines by name.

Every engine module offers `ENGINE` (its name), `unsupported(mission)` (the rule families of a
TaskMission it does not model, short name -> words; empty when it answers the mission) and
`solve(deal, mission, limits)`, which raises UnsupportedMission naming those families rather
than answer. Callers choose an engine by capability through `unsupported`, never by checks of
their own (the portfolio sends CP-SAT only what `cpsat.unsupported` leaves).
"""

from typing import Protocol

from solver.core.deal import Deal
from solver.core.solution import Limits, Solution
from solver.engines import cpsat, kernel, portfolio, reference
from solver.missions.tasks import TaskMission


class Engine(Protocol):
    ENGINE: str

    def unsupported(self, mission: TaskMission) -> dict[str, str]: ...

    def solve(self, deal: Deal, mission: TaskMission, limits: Limits = ...) -> Solution: ...


ENGINES: dict[str, Engine] = {"auto": portfolio, "kernel": kernel, "cpsat": cpsat, "reference": reference}
