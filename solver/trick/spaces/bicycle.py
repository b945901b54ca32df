"""The bicycle: "Only a player who has no (more) bicycle card in hand may communicate. There are 6 color cards with
a bicycle." Communication changes nothing in one deal under perfect information; the hidden-information crew
follows the rule (solver/engines/realistic.py, `Talk`), and a card shown tells that its seat holds no bicycle card.
The rulebook does not say which six cards carry a bicycle: ours are a placeholder, and `bicycle=CARDS` names others.
"""

from solver.core.cards import card_set, parse_card_list
from solver.trick.spaces.space import Space, StageSpace, cards_argument, colour_cards_option

# Our placeholder, until a designer gives the real ones (none a machete card of ours).
DEFAULT_BICYCLE_CARDS = card_set(parse_card_list("p1 b4 b8 g5 y2 y7"))


class Bicycle(StageSpace):
    name = "bicycle"
    effect = ("limits communication: only a player holding no bicycle card may communicate (our placeholder "
              "bicycle cards p1 b4 b8 g5 y2 y7 unless named: the rulebook does not say which)")
    changes_play = False
    crew_refusal = ""

    def parse(self, argument):
        return Space(self.name, bicycle=colour_cards_option(self.name, argument, DEFAULT_BICYCLE_CARDS))

    def argument(self, space):
        return cards_argument(space.bicycle, DEFAULT_BICYCLE_CARDS)

    def barred_communication(self, space):
        return space.bicycle


BICYCLE = Bicycle()
