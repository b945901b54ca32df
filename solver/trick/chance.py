"""Chance events drawn with the deal, so the search knows how they fall (mission 12's random pass).

Mission 12: right after trick 1 every player gives one card, chosen uniformly at
random from their hand, to the next player (left, the next seat in play order);
all cards are chosen before any moves. Under perfect information we treat the
draw as part of the deal, like the shuffle: one random ordering of the deck is
drawn with the deal, and each player gives the first card of their hand in that
ordering. Whatever trick 1 took from a hand, that card is uniform over the
cards left, and the hands are disjoint, so the players' draws are independent.
The crew sees the ordering, so it may steer trick 1 knowing what each play
will make the pass give; the solver answers "can this deal, with this draw,
be won?", and a sweep's win rate averages over the draws as over the deals.

Two players (JARVIS, the Ghost): the pass may not take a face-down card, and the
card he gets must lie somewhere in his display. We read it as the project reads
the helicopter, the jeep and the Vespa with the Ghost (the rulebook's table for
them): he gives a face-up card, drawn at random among his face-up cards (the
first of them in the ordering), and the card he gets takes the place of the one
he gave, so a face-down card under it stays face down.
"""

from dataclasses import dataclass

import numpy as np

from solver.core.cards import CARD_COUNT, bit
from solver.core.deal import pass_cards
from solver.trick.variants import ghost_exchange, ghost_playable, ghost_receives

PASS_LEFT_AFTER_TRICK_1 = (
    "pass-left-after-trick-1"  # the mission-file name of mission 12's event
)


@dataclass(frozen=True)
class RandomPass:
    """After trick `after`, each player passes the first card of their hand in `order` to the left."""

    after: int
    order: tuple[int, ...]  # every card of the deck once

    def given(self, hands, ghost: int = -1, display: tuple[int, ...] = ()) -> tuple[int, ...]:
        """Return the card each seat passes (-1 for an empty hand), the Ghost (seat `ghost`, with
        `display`) one of his face-up cards."""
        offered = [ghost_playable(hand, display) if seat == ghost else hand for seat, hand in enumerate(hands)]
        return tuple(next((c for c in self.order if hand & bit(c)), -1) for hand in offered)

    def apply(self, hands, ghost: int = -1, display: tuple[int, ...] = ()) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Return the hands and the Ghost's display after the pass (the card he gets lies where his lay)."""
        given = self.given(hands, ghost, display)
        gave, got = ghost_exchange(given, len(hands), ghost, ()) if ghost >= 0 else ((), ())
        if gave and min(gave + got) >= 0:  # else the place of a card he gave keeps it, as a played card's does
            display = ghost_receives(display, gave, got)
        return pass_cards(hands, given), display


def draw_random_pass(rng: np.random.Generator, after: int = 1) -> RandomPass:
    """Draw the ordering of a random pass after trick `after`."""
    return RandomPass(after, tuple(int(c) for c in rng.permutation(CARD_COUNT)))
