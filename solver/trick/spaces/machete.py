"""The machete: the mission fails when a trick holds a machete card and totals 15 or 16, 20 or 21, 25 or 26.

Each pair of totals is a forbidden trick, which a mission counts as a "no such trick" counter
(solver/missions/stage.py). The rulebook says seven colour cards carry a machete but not which: ours
are a placeholder, and `machete=CARDS` names others. With the Ghost (our reading: the rulebook is
silent): as for everyone, a face-down card being never in a trick.
"""

from solver.core.cards import card_set, parse_card_list
from solver.trick.spaces.space import ForbiddenTrick, Space, StageSpace, cards_argument, colour_cards_option

# Our placeholder, until a designer gives the real ones.
DEFAULT_MACHETE_CARDS = card_set(parse_card_list("p3 p8 b5 g2 g6 y4 y9"))
MACHETE_VALUES = ((15, 16), (20, 21), (25, 26))  # a trick with a machete and one of these totals fails


class Machete(StageSpace):
    name = "machete"
    effect = ("a trick with a machete card totalling 15/16, 20/21 or 25/26 fails the mission "
              "(our placeholder machete cards p3 p8 b5 g2 g6 y4 y9 unless named: the rulebook does not say which)")
    with_the_ghost = "as for everyone (a face-down card is never in a trick) (our reading: the rulebook is silent)"
    crew_refusal = ""  # a forbidden trick: every player sees the tricks' cards, and the crew plays it as a rule

    def parse(self, argument):
        return Space(self.name, machete=colour_cards_option(self.name, argument, DEFAULT_MACHETE_CARDS))

    def argument(self, space):
        return cards_argument(space.machete, DEFAULT_MACHETE_CARDS)

    def forbidden_tricks(self, space):
        return tuple(ForbiddenTrick(space.machete, low, high) for low, high in MACHETE_VALUES)


MACHETE = Machete()
