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
signal cannot be given (our reading: everyone must pass a card). With two players
JARVIS passes too ("Everyone passes one non-rocket card"; "JARVIS counts as a
third crew member"), a face-up card of the crew's choice (the Commander plays him), and the card he
gets takes the place of the one he gave, as with the Ghost on the helicopter and
the Vespa; a stage space is not combined with the signal (the signal is Planet
Nine's, the spaces are Journey's). The passes of one deal and one setup share the kernel's table of
lost positions: after a trick or two, many passes reach the same positions.
"""

import dataclasses
import itertools
from collections.abc import Iterator

from solver.core.cards import COLOUR_CARDS, format_card, scan
from solver.core.deal import Deal, make_deal, pass_cards
from solver.core.solution import Limits, Solution
from solver.engines.cases import solve_in_rounds
from solver.missions.setup import join_labels
from solver.missions.stage import ON_TRAIN, Stage, space_cases
from solver.trick.ghost import GHOST_SEAT
from solver.trick.variants import ghost_playable, ghost_receives

SIDES = (("left", 1), ("right", -1))  # left: to the next seat in play order


def distress_passes(deal: Deal, display: tuple[int, ...] = ()) -> Iterator[tuple[str, Deal, tuple[int, ...]]]:
    """Yield (description, deal after the pass, the Ghost's display after it) for both sides and
    every choice of cards.

    Two players (`display`, JARVIS's at seat 2): he passes one of his face-up cards, and the card
    he gets takes its place in his display.
    """
    ghost = GHOST_SEAT if display else -1
    choices = [
        list(scan((ghost_playable(hand, display) if seat == ghost else hand) & COLOUR_CARDS))
        for seat, hand in enumerate(deal.hands)
    ]
    for side, step in SIDES:
        for given in itertools.product(*choices):
            gives = ", ".join(f"seat {seat} gives {format_card(c)}" for seat, c in enumerate(given))
            shown = display
            if display:
                got = given[(ghost - step) % deal.players]
                shown = ghost_receives(display, (given[ghost],), (got,))
                gives += f" ({format_card(got)} lies where {format_card(given[ghost])} lay)"
            passed = make_deal(pass_cards(deal.hands, given, step), deal.commander)
            yield f"distress signal to the {side}: {gives}", passed, shown


def solve_with_distress(
    deal: Deal, setups, solve, limits: Limits = Limits(), progress=None, stage: Stage = ON_TRAIN
) -> tuple[Solution, Deal | None, Stage]:
    """Solve a mission's setups on every distress pass of `deal`; return the first WIN, its deal and
    its stage (with two players, the display after the pass; else `stage`).

    In rounds of growing node budgets (cases.solve_in_rounds); wrap a kernel
    or portfolio solver in `TableSharing` so each setup keeps one table of lost
    positions through all its passes and rounds (with JARVIS, each pass's display
    is a mission of its own).
    """
    cases, stages = [], {}
    for setup in setups:
        for description, passed, display in distress_passes(deal, stage.display):
            passed_stage = dataclasses.replace(stage, display=display)
            for label, case_deal, mission in space_cases(passed_stage, passed, [setup]):
                label = join_labels(label, description)
                stages[label] = passed_stage
                cases.append((label, case_deal, mission))
    solution, passed = solve_in_rounds(cases, solve, limits, progress=progress)
    return solution, passed, stages.get(solution.setup, stage)
