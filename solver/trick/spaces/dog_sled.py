"""The dog sled: the crew chooses the driver (one case per seat), who may open any trick, trick 1 included,
instead of the player due to lead.

The driver's other powers (the choice of mission, permission to communicate) do not touch one deal. With the
Ghost (our reading: the rulebook is silent): a player drives, the Ghost deciding nothing.
"""

from solver.trick.spaces.space import StageSpace
from solver.trick.variants import PlayRules


class DogSled(StageSpace):
    name = "dog-sled"
    effect = "a driver of the crew's choice may open any trick"
    crew_refusal = ""  # the driver's choices are the crew's (solver/engines/realistic.py, `SledWeighing`)
    with_the_ghost = "a player drives (our reading: the rulebook is silent; the Ghost decides nothing)"

    def play_rules(self, space, draws, deal, ghost):
        for seat in range(deal.players):
            if seat != ghost:  # the Ghost decides nothing
                yield f"dog-sled driver = seat {seat}", PlayRules(sled=seat)


DOG_SLED = DogSled()
