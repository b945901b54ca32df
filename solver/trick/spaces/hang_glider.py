"""The hang glider: before every trick each player sets a card aside for the last trick (changeable before every
trick), which does not count for following suit; the last trick is the set-aside cards (`hang_glider_plays`).

Communication being forbidden changes nothing under perfect information. With the Ghost (our reading: the
rulebook is silent): it leaves him alone; he sets no card aside and follows suit with his face-up cards.
"""

from solver.core.cards import DECK
from solver.trick.spaces.space import StageSpace
from solver.trick.variants import PlayRules


class HangGlider(StageSpace):
    name = "hang-glider"
    effect = "a card set aside for the last trick does not count for following suit"
    crew_refusal = ""  # a discard says less (solver/missions/knowledge.py, `set_aside_caps`); nobody communicates
    with_the_ghost = "no effect on him: he sets no card aside (our reading: the rulebook is silent)"

    def play_rules(self, space, draws, deal, ghost):
        yield "", PlayRules(hang_glider=True)

    def barred_communication(self, space):
        return DECK  # "Communication is forbidden."


HANG_GLIDER = HangGlider()
