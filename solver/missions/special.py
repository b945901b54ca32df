"""Journey's special stages: how a pattern mission is dealt, and its five-player redeal.

In a special stage the crew lays one card of each trick on the table to form a
pattern (solver/missions/pattern.py). Unless the stage waives them (stages 19 and 20:
`adjustments = false` in the mission file), the rulebook adjusts the deal:
- 3 players: 7 random cards other than the 4-heli go back in the box (the crew
  may look at them: under perfect information they are simply out of play),
  and each member gets 11 of the 33 left;
- 5 players: after trick 3 the 12 discards are shuffled and each member draws
  two of them (two are left over), so every hand holds 7 again: 10 tricks.
The shuffle is chance, drawn with the deal as the seat taking each discard in
card order, -1 for the two left over (solver/trick/variants.py). Two players (the
Ghost) play all 40 cards, as the rulebook says.
"""

import numpy as np

from solver.core.cards import CARD_COUNT, bit
from solver.core.deal import COMMANDER_CARD, Deal, make_deal, random_deal
from solver.core.errors import InputError
from solver.missions.mission import Mission
from solver.trick.spaces import Space

REMOVED_WITH_THREE = 7
REDEAL_AFTER = 3
REDEAL_DRAWS = 2


def special_deal(mission: Mission, players: int, rng: np.random.Generator) -> Deal:
    """Deal a pattern mission for 3-5 players: with 3, 7 random cards but the 4-heli out and 11 each."""
    if players != 3 or not mission.adjustments:
        return random_deal(players, rng)
    others = [int(c) for c in rng.permutation([c for c in range(CARD_COUNT) if c != COMMANDER_CARD])]
    kept = [COMMANDER_CARD, *others[REMOVED_WITH_THREE:]]
    order = [int(c) for c in rng.permutation(kept)]
    return make_deal([sum(bit(c) for c in order[seat::players]) for seat in range(players)])


def draw_redeal(mission: Mission, players: int, rng: np.random.Generator) -> tuple[int, ...]:
    """Draw the five-player redeal's shuffle: the seat taking each discard, lowest first, -1 for
    the two left over; () when the mission has none."""
    if mission.pattern is None or players != 5 or not mission.adjustments:
        return ()
    slots = [seat for seat in range(players) for _ in range(REDEAL_DRAWS)]
    slots += [-1] * (REDEAL_AFTER * (players - 1) - len(slots))
    return tuple(int(seat) for seat in rng.permutation(slots))


def check_special_space(space: Space) -> None:
    """Raise for a stage space that changes play: a special stage is not played on one."""
    if space.changes_play:
        raise InputError(f"a pattern mission (special stage) is not played on a stage space, got {space}")
