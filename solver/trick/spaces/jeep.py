"""The jeep: after trick 3 every player puts two cards of the crew's choice in the middle; the middle is
shuffled and each takes two back (`jeep_exchanges`).

The shuffle is chance, drawn with the deal: the seat taking each card of the middle, in card order (lowest
first). Ordering the middle by card, not by who put what in, makes the draw a fair shuffle of whichever
cards the crew puts in; the crew sees it, as it sees every hand. A player may take back their own cards.
With the Ghost (the rulebook's "Dragonflier" row): he puts two face-up cards in, and the two he draws lie
in their places, the Scout choosing which goes where.
"""

import numpy as np

from solver.core.errors import InputError
from solver.core.rules import num_tricks
from solver.trick.spaces.space import Draws, StageSpace
from solver.trick.variants import PlayRules

JEEP_AFTER = 3


class Jeep(StageSpace):
    name = "jeep"
    effect = "after trick 3 every hand puts two cards in the middle, shuffled, and takes two back"
    crew_refusal = ""  # a player knows the pair it put in and the two it took (solver/missions/jeep_worlds.py)
    with_the_ghost = ("he puts two face-up cards in; the two he draws lie in their places, as the Scout chooses "
                      "(the rulebook's 'Dragonflier' row)")
    trades_cards = True

    def draw(self, space, deal, rng, ghost):
        return Draws(jeep_order=draw_jeep_order(deal.players, rng))

    def play_rules(self, space, draws, deal, ghost):
        if not draws.jeep_order:
            raise InputError("the jeep needs its shuffle (drawn with the deal)")
        if num_tricks(deal.hands) - JEEP_AFTER < 2:
            raise InputError(f"the jeep needs two cards in every hand after trick {JEEP_AFTER}")
        yield "", PlayRules(jeep_after=JEEP_AFTER, jeep_order=draws.jeep_order)


def draw_jeep_order(players: int, rng: np.random.Generator) -> tuple[int, ...]:
    """Draw the jeep's shuffle: the seat taking each card of the middle, lowest card first (two each)."""
    return tuple(int(seat) for seat in rng.permutation([seat for seat in range(players) for _ in range(2)]))


JEEP = Jeep()
