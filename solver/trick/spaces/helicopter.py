"""The helicopter: after a trick holding a heli (not the last), every player passes one card of the crew's
choice to the left, all at once; the passes are the crew's choices inside the search (`heli_passes`).

With the Ghost (the rulebook's "Fog" row, read as the helicopter's: fog passes no card): he passes a face-up
card, and the card he gets lies where his lay.
"""

from solver.core.cards import TRUMPS
from solver.trick.spaces.space import StageSpace
from solver.trick.variants import PlayRules


class Helicopter(StageSpace):
    name = "helicopter"
    effect = "after a trick with a heli, every hand passes a card of the crew's choice to the left"
    crew_refusal = ""  # a player knows the cards it passed and got (solver/missions/heli_worlds.py)
    # With the Ghost both players see every card passed (his face up, the one between them by its giver and its
    # receiver): solver/missions/ghost_knowledge.py.
    with_the_ghost = ("he passes a face-up card; the card he gets lies in its place (the rulebook's 'Fog' row, "
                      "read as the helicopter's: fog passes no card)")
    trades_cards = True

    def play_rules(self, space, draws, deal, ghost):
        yield "", PlayRules(heli_pass=TRUMPS)


HELICOPTER = Helicopter()
