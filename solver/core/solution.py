"""What a solver answers: WIN with a witness line of play, LOSS, or UNKNOWN past its budget."""

from dataclasses import dataclass, field
from enum import Enum
from typing import NamedTuple

from solver.core.cards import format_card


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


@dataclass(frozen=True)
class Limits:
    """A per-deal budget; None means unlimited.

    `cp_sat_effort`, with `max_nodes`: after the kernel's nodes, a turn of CP-SAT within this much of its
    deterministic time (the default engine's, for a mission CP-SAT models; engines without CP-SAT ignore it).
    """

    max_nodes: int | None = None
    max_seconds: float | None = None
    cp_sat_effort: float | None = None


@dataclass
class Solution:
    """A solver's answer; `tricks` and `assignment` (task card -> seat) are set for a WIN."""

    outcome: Outcome
    nodes: int
    seconds: float
    engine: str
    tricks: list[Trick] = field(default_factory=list)
    assignment: dict[int, int] = field(default_factory=dict)
    setup: str = ""  # the mission's choices that won (chosen players, token swaps), if any
    branches: int = 0  # the default engine's answer: CP-SAT's branches in its turns (`nodes`: the kernel's plays)

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
            "engine": self.engine,
            "setup": self.setup,
        }
