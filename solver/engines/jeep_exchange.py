"""The jeep's exchange as the hidden-information crew makes it.

"Jeep. After the 3rd trick, each crew member places 2 cards face down in the middle of the table. Shuffle these
cards and each take 2 of them back. Communicated cards may not be taken this way."

Every seat chooses its pair at once, face down, without seeing the others' (our reading of "each crew member
places"): on samples of what it knows before the exchange, each with a shuffle of its own (chance still to come), it
weighs each pair it may put in (not a card it has shown and still holds: "communicated cards may not be taken this
way"), by the samples in which the mission stays winnable once it puts that pair in while the others put theirs as
best (a position that fixes its pair and leaves theirs to the crew: variants.ANY_CARD), and puts the best in. The
pairs are weighed cheapest first (the dearer card of each by crew.cheapness, then the other), ties to the first,
and raced (crew.raced): the best pair and its wins are those of solving every pair. The others' choices in a sample
may put in a card they have shown: the engines do not model communicated cards, so a pair's share is at most
optimistic there. What each seat knows after the exchange: solver/missions/jeep_worlds.py.
"""

import itertools
import random
from dataclasses import dataclass

from solver.core.cards import scan
from solver.core.deal import Deal
from solver.core.solution import Limits
from solver.engines.crew import best_raced, cheapness, decision_deals, raced, winnable
from solver.missions.position import Position, TrickChoices
from solver.trick.variants import ANY_CARD


@dataclass(frozen=True)
class PairChoice:
    """The pair `seat` put in the jeep's middle (higher first), the `pairs` it weighed, in order, and their `wins`
    ((wins, samples solved) each, crew.raced's)."""

    seat: int
    pair: tuple[int, int]
    pairs: tuple[tuple[int, int], ...]
    wins: tuple[tuple[int, int], ...]


def jeep_exchange(deal: Deal, mission, walked, position: Position, shown, samples: int, rng: random.Random, solve,
                  limits: Limits) -> tuple[PairChoice, ...]:
    """Return each seat's choice of the pair it puts in the middle at a walked position of `deal` that stops at the
    jeep's exchange (`position` on `mission`; `shown` the cards communicated so far)."""
    trick = len(walked.tricks)
    choices = []
    for seat in range(deal.players):
        showing = sum(1 << c.card for c in shown if c.seat == seat)
        pairs = sorted(itertools.combinations(sorted(scan(walked.hands[seat] & ~showing), reverse=True), 2),
                       key=lambda pair: sorted(map(cheapness, pair), reverse=True))
        deals = decision_deals(deal, mission, walked, position.plays, shown, samples, rng, seat=seat)
        after = {pair: position.choose(TrickChoices(passed=own_pair(pair, seat, deal.players)), trick).on(mission)
                 for pair in pairs}
        wins = raced(pairs, samples, lambda pair, k: winnable(deals[k].solve(solve, after[pair], limits)), race=True)
        best = best_raced(pairs, wins)
        choices.append(PairChoice(seat, best, tuple(pairs), tuple(wins[pair] for pair in pairs)))
    return tuple(choices)


def own_pair(pair: tuple[int, int], seat: int, players: int) -> tuple[int, ...]:
    """Return the exchange with `seat`'s pair put in and every other seat's left to the crew."""
    return (ANY_CARD,) * (2 * seat) + tuple(pair) + (ANY_CARD,) * (2 * (players - seat - 1))


def exchange_made(choices: tuple[PairChoice, ...]) -> TrickChoices:
    """Return the crew's choices after the exchange's trick: every seat's pair, seat by seat."""
    return TrickChoices(passed=tuple(c for choice in choices for c in choice.pair))
