"""The skis: after a trick holding the skis card (the blue 7), every player passes their whole hand to the left.

The trick's winner leads next; the blue 7 is played once, so the hands turn at most once. With the Ghost
(the rulebook): only the two players' hands change places, his display stays (`skis_rotation`). No card
leaves its hand alone: the hands move whole, so the skis trade no cards.
"""

from solver.core.cards import bit, parse_card
from solver.trick.spaces.space import StageSpace
from solver.trick.variants import PlayRules

SKIS_CARD = parse_card("b7")


class Skis(StageSpace):
    name = "skis"
    effect = "after a trick with the blue 7, every hand passes whole to the left"
    crew_refusal = ""  # hands move whole: a player knows each it held (solver/engines/crew.py, `hands_moved`)
    with_the_ghost = "the players swap hands; his display stays (rulebook)"

    def play_rules(self, space, draws, deal, ghost):
        yield "", PlayRules(skis=bit(SKIS_CARD))


SKIS = Skis()
