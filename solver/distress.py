"""The distress signal: an optional pass of one non-trump card per player before trick 1.

Rulebook: after the tasks are distributed and before anyone communicates, the
crew may activate the distress signal; everyone passes one card that is not a
rocket to the neighbour on the agreed side, all at once. It only costs the
logbook one attempt, so a crew that can win without it may still use it: the
mission is won with the signal when it is won without it, or after some pass.

Under perfect information the crew picks the side and every player's card, so
the signal is one more existential choice: 2 sides times the product of the
players' non-trump card counts (about 2 x 8^4 = 8,000 passes with 4 players).
No pass can move r4, so the Commander, the draft and every chosen player stay
as they were. A player holding only trumps has nothing to pass, so then the
signal cannot be given (our reading: everyone must pass a card). The passes of one deal and one setup share the kernel's table of
lost positions: after a trick or two, many passes reach the same positions.
"""

import itertools
import time
from collections.abc import Iterator

from solver.cards import COLOUR_CARDS, bit, format_card, scan
from solver.deal import Deal, make_deal
from solver.portfolio import solve_cases
from solver.solution import Limits, Outcome, Solution

SIDES = (("left", 1), ("right", -1))  # left: to the next seat in play order
ROUND_NODES = (2_000, 50_000, 1_000_000)  # node budgets per pass of the rounds before the last


def distress_passes(deal: Deal) -> Iterator[tuple[str, Deal]]:
    """Yield (description, deal after the pass) for both sides and every choice of cards."""
    players = deal.players
    choices = [list(scan(hand & COLOUR_CARDS)) for hand in deal.hands]
    for side, step in SIDES:
        for given in itertools.product(*choices):
            hands = list(deal.hands)
            for seat, c in enumerate(given):
                hands[seat] &= ~bit(c)
                hands[(seat + step) % players] |= bit(c)
            gives = ", ".join(f"seat {seat} gives {format_card(c)}" for seat, c in enumerate(given))
            yield f"distress signal to the {side}: {gives}", make_deal(hands, deal.commander)


def solve_with_distress(
    deal: Deal, setups, solve, limits: Limits = Limits(), progress=None
) -> tuple[Solution, Deal | None]:
    """Solve a mission's setups on every distress pass of `deal`; return the first WIN and its deal.

    `solve(deal, mission, limits)` is an engine; wrap a KernelSolver or
    PortfolioSolver in `TableSharing` to share its table between the passes.
    Rounds of growing node budgets (`ROUND_NODES`, then `limits`) go over the
    passes still open, so an easy winning pass is not kept waiting behind hard
    losing ones. `progress(round, done, total)`, if given, is called before each
    pass is solved.
    """
    began = time.perf_counter()
    pending = [
        ("; ".join(part for part in (setup.label, description) if part), passed, setup.mission)
        for setup in setups
        for description, passed in distress_passes(deal)
    ]
    nodes = 0
    caps = [cap for cap in ROUND_NODES if limits.max_nodes is None or cap < limits.max_nodes]
    for number, cap in enumerate([*caps, limits.max_nodes], 1):
        left = None if limits.max_seconds is None else limits.max_seconds - (time.perf_counter() - began)
        still_open = []
        answer, passed = solve_cases(
            reported(pending, number, progress), solve, Limits(cap, left), None if cap is None else still_open
        )
        nodes += answer.nodes
        answer.nodes, answer.seconds = nodes, time.perf_counter() - began
        if answer.outcome is not Outcome.UNKNOWN or not still_open:
            return answer, passed
        pending = still_open
    return answer, passed


def reported(cases: list, number: int, progress):
    """Yield the cases of round `number`, calling `progress` before each."""
    for done, case in enumerate(cases):
        if progress is not None:
            progress(number, done, len(cases))
        yield case


class TableSharing:
    """An engine over a solver object that keeps its table while the mission stays the same.

    Only for the passes of one deal: they share seats, Commander and card count,
    so a lost position of one pass is lost in every other.
    """

    def __init__(self, solver):
        self.solver = solver
        self.last = None

    def __call__(self, deal: Deal, mission, limits: Limits = Limits()) -> Solution:
        same_table = mission is self.last
        self.last = mission
        return self.solver.solve(deal, mission, limits, same_table)
