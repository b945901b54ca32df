"""What the kernel's arrays hold, readable without loading the kernel.

The kernel's problem array (solver/engines/kernel/problem.py) has room for `MAX_COUNTERS` trick
counters, `MAX_SEQUENCES` sequence rules, `MAX_COMPARISONS` comparisons and `MAX_RUNS` run rules, and its table automaton runs on fixed hands only. The
kernel refuses the rest, and so does the default engine: its first look with the plain search
(solver/engines/quick.py) asks here first, so that it never answers what the kernel would refuse.
"""

from solver.missions.conditions import MAX_COUNTERS
from solver.missions.tasks import TaskMission

MAX_SEQUENCES = 4
MAX_COMPARISONS = 16
MAX_RUNS = 4


def kernel_unsupported(mission: TaskMission) -> dict[str, str]:
    """Return what of `mission` the kernel's arrays cannot hold, by rule family (short name -> words);
    empty when the kernel answers it."""
    missing = {}
    if len(mission.counters) > MAX_COUNTERS:
        missing["trick-counters"] = f"more than {MAX_COUNTERS} trick counters (this mission: {len(mission.counters)})"
    if len(mission.sequences) > MAX_SEQUENCES:
        missing["sequences"] = f"more than {MAX_SEQUENCES} sequence rules (this mission: {len(mission.sequences)})"
    if mission.pattern is not None and (mission.space.heli_pass or mission.space.jeep_after):
        missing["pattern"] = "a table pattern with passes between tricks"
    if len(mission.comparisons) > MAX_COMPARISONS:
        missing["comparisons"] = f"more than {MAX_COMPARISONS} comparisons (this mission: {len(mission.comparisons)})"
    if len(mission.runs) > MAX_RUNS:
        missing["runs"] = f"more than {MAX_RUNS} run rules (this mission: {len(mission.runs)})"
    return missing
