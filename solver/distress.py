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
from collections.abc import Iterator

from solver.cards import COLOUR_CARDS, format_card, scan
from solver.deal import Deal, make_deal, pass_cards
from solver.portfolio import solve_in_rounds
from solver.setup import join_labels
from solver.solution import Limits, Solution

SIDES = (("left", 1), ("right", -1))  # left: to the next seat in play order


def distress_passes(deal: Deal) -> Iterator[tuple[str, Deal]]:
    """Yield (description, deal after the pass) for both sides and every choice of cards."""
    choices = [list(scan(hand & COLOUR_CARDS)) for hand in deal.hands]
    for side, step in SIDES:
        for given in itertools.product(*choices):
            gives = ", ".join(f"seat {seat} gives {format_card(c)}" for seat, c in enumerate(given))
            yield f"distress signal to the {side}: {gives}", make_deal(pass_cards(deal.hands, given, step), deal.commander)


def solve_with_distress(
    deal: Deal, setups, solve, limits: Limits = Limits(), progress=None
) -> tuple[Solution, Deal | None]:
    """Solve a mission's setups on every distress pass of `deal`; return the first WIN and its deal.

    In rounds of growing node budgets (portfolio.solve_in_rounds); wrap a kernel
    or portfolio solver in `TableSharing` so each setup keeps one table of lost
    positions through all its passes and rounds.
    """
    cases = [
        (join_labels(setup.label, description), passed, setup.mission)
        for setup in setups
        for description, passed in distress_passes(deal)
    ]
    return solve_in_rounds(cases, solve, limits, progress=progress)
