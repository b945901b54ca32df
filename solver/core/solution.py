"""What a solver answers: WIN with a witness line of play, LOSS, or UNKNOWN past its budget."""

import math
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import NamedTuple

from solver.core.cards import format_card
from solver.core.errors import InputError


class Outcome(str, Enum):
    WIN = "win"
    LOSS = "loss"
    UNKNOWN = "unknown"


class Trick(NamedTuple):
    """One played trick: who led, the cards in play order, who won, which tasks it completed,
    the cards passed right after it (helicopter: one per seat from seat 0; jeep: two per seat),
    and the card of it laid on the table (special stages; -1: none)."""

    leader: int
    cards: tuple[int, ...]
    winner: int
    completed: tuple[int, ...] = ()
    passed: tuple[int, ...] = ()
    tabled: int = -1


# A budget is counted in work, not in wall-clock time, so that whether a deal is decided within it depends only
# on the deal and the budget: never on the machine, its load or the other jobs of a sweep (a wall-clock budget
# made a sweep's UNKNOWNs differ run to run for deals at its edge: journey-spaces-1000's deal 793, decided in
# 1.95-2.0 s at a 2 s budget). A second of work is what an engine does in about a second on the 2-core
# machine these were measured on:
BUDGET_UNIT = "seconds of work"  # what a sweep's store says its budget is counted in
KERNEL_PLAYS_PER_SECOND = 5_000_000  # logbook missions 17, 26, 34, 46 at 3-5 players: 4.0-5.6 M card plays a second
REFERENCE_PLAYS_PER_SECOND = 80_000  # the plain-Python search: 65,000-110,000 (solver/engines/quick.py)
# CP-SAT's deterministic time at the CPU seconds a unit takes on its long solves: 0.40-0.48 (the logbook's
# hardest LOSSes, missions 1, 17 and 26 with 3 players, 5.5-13.5 units each; the jeep's slowest WIN of
# "yellow for everyone", 0.8); plus each model's building and reading, about 20 ms of Python and C++ a model
# (short solves: 21-27 ms of CPU for 0.015 units).
CP_SAT_SECONDS_PER_UNIT = 0.47
CP_SAT_MODEL_WORK = 0.02


def checked_budget(seconds: float | None) -> float | None:
    """Return a budget of `seconds` of work (None: unlimited); raise InputError for nan or infinity, which no
    engine can count its plays in."""
    if seconds is not None and not math.isfinite(seconds):
        raise InputError(f"a budget is a finite number of seconds, got {seconds}")
    return seconds


@dataclass(frozen=True)
class Limits:
    """A per-deal budget; None means unlimited.

    `max_work`: seconds of work (above: the engines' card plays and CP-SAT's deterministic time), the
    budget a user gives as seconds. `cp_sat_effort`, with `max_nodes`: after the kernel's nodes, a turn of
    CP-SAT within this much of its deterministic time (the default engine's, for a mission CP-SAT models;
    engines without CP-SAT ignore it).
    """

    max_nodes: int | None = None
    max_work: float | None = None
    cp_sat_effort: float | None = None

    def __post_init__(self):
        checked_budget(self.max_work)

    def plays(self, per_second: int) -> int | None:
        """Return the most card plays (or search nodes) these limits allow an engine doing `per_second` of them
        in a second of work: `max_nodes`, or fewer when `max_work` allows fewer (None: no limit)."""
        if self.max_work is None:
            return self.max_nodes
        allowed = max(0, int(self.max_work * per_second + 1e-6))  # the work of n plays allows n, rounding aside
        return allowed if self.max_nodes is None else min(self.max_nodes, allowed)

    def after(self, work: float) -> "Limits":
        """Return these limits less `work` already spent (the nodes limit unchanged: it is per call)."""
        return self if self.max_work is None else replace(self, max_work=self.max_work - work)

    @property
    def spent(self) -> bool:
        """True when no work is left."""
        return self.max_work is not None and self.max_work <= 0


@dataclass
class Solution:
    """A solver's answer; `tricks` and `assignment` (task card -> seat) are set for a WIN (but where the outcome
    alone was asked for: the kernel's `outcome_only`)."""

    outcome: Outcome
    nodes: int
    seconds: float
    engine: str
    tricks: list[Trick] = field(default_factory=list)
    assignment: dict[int, int] = field(default_factory=dict)
    setup: str = ""  # the mission's choices that won (chosen players, token swaps), if any
    branches: int = 0  # the default engine's answer: CP-SAT's branches in its turns (`nodes`: the kernel's plays)
    work: float = 0.0  # seconds of work spent (see Limits), the same on every run; `seconds` is the wall clock's

    def to_json(self) -> dict:
        """Return the answer as a JSON-ready dict with cards in notation."""
        return {
            "result": self.outcome.value,
            "assignment": {format_card(c): seat for c, seat in self.assignment.items()},
            "tricks": [
                {"leader": t.leader, "cards": [format_card(c) for c in t.cards], "winner": t.winner}
                | ({"completed": [format_card(c) for c in t.completed]} if t.completed else {})
                | ({"passed": [format_card(c) for c in t.passed]} if t.passed else {})
                | ({"table": format_card(t.tabled)} if t.tabled >= 0 else {})
                for t in self.tricks
            ],
            "nodes": self.nodes,
            **({"cp_sat_branches": self.branches} if self.branches else {}),
            "seconds": round(self.seconds, 6),
            "work": round(self.work, 6),
            "engine": self.engine,
            "setup": self.setup,
        }
