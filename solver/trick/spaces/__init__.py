"""Journey's stage spaces: the special rule of the space the crew marker stands on, one module a space.

A space is named on the command line as `NAME` or `NAME=ARGUMENT` (`--space skis`, `--space fog=4`,
`--space "machete=p3 b5 g2 g6 y4 y9 p8"`). Each is a `StageSpace` (space.py) in a module of its own,
holding all of its rule: its `crew spaces` text and reading with the Ghost, its options, its chance,
its rules of play (`PlayRules`, solver/trick/variants.py, which the engines apply) and the crew's
choices it adds. `SPACES` finds them by name, in the order `crew spaces` lists them. Spaces that only
touch communication, the choice of mission or the campaign track change nothing in one deal under
perfect information (no_effect.py; the bicycle, which has options, bicycle.py). A mission on a space is made into cases in solver/missions/stage.py.
"""

from solver.trick.spaces.bicycle import BICYCLE
from solver.trick.spaces.dog_sled import DOG_SLED
from solver.trick.spaces.fog import FOG
from solver.trick.spaces.hang_glider import HANG_GLIDER
from solver.trick.spaces.helicopter import HELICOPTER
from solver.trick.spaces.jeep import JEEP
from solver.trick.spaces.machete import MACHETE
from solver.trick.spaces.no_effect import NO_EFFECT_SPACES
from solver.trick.spaces.skis import SKIS, SKIS_CARD
from solver.trick.spaces.space import TRAIN, Draws, Space, SpaceError, StageSpace
from solver.trick.spaces.vespa import VESPA, VESPA_CARD

__all__ = ["NO_EFFECT", "PLAY_SPACES", "SKIS_CARD", "SPACES", "TRAIN", "VESPA_CARD", "Draws", "Space", "SpaceError",
           "StageSpace", "parse_space"]

SPACES: dict[str, StageSpace] = {
    space.name: space
    for space in (SKIS, VESPA, MACHETE, HANG_GLIDER, HELICOPTER, DOG_SLED, JEEP, FOG, *NO_EFFECT_SPACES[:2], BICYCLE,
                  *NO_EFFECT_SPACES[2:])
}
# What each space changes in one deal, by name: those that change play, and those that change nothing.
PLAY_SPACES = {name: space.effect for name, space in SPACES.items() if space.changes_play}
NO_EFFECT = {name: space.effect for name, space in SPACES.items() if not space.changes_play}


def parse_space(text: str) -> Space:
    """Return the space written as NAME or NAME=ARGUMENT."""
    name, _, argument = text.strip().partition("=")
    name = name.strip().lower().replace("_", "-").replace(" ", "-")
    if name not in SPACES:
        raise SpaceError(f"unknown stage space {name!r} (known: {', '.join(SPACES)})")
    return SPACES[name].parse(argument.strip())
