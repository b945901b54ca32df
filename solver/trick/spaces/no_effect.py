"""The spaces without effect on one deal: they touch communication, the choice of mission or the campaign
track, none of which changes one deal under perfect information. Each plays as the train."""

from solver.trick.spaces.space import StageSpace


class NoEffect(StageSpace):
    changes_play = False

    crew_refusal = ""  # nothing a player at the table knows or decides changes (the storm: its flicked tiles)

    def __init__(self, name: str, effect: str, tiles_flicked: bool = False):
        self.name = name
        self.effect = effect  # what it changes instead
        self.tiles_flicked = tiles_flicked


NO_EFFECT_SPACES = (
    NoEffect("train", "no special rule"),
    NoEffect("on-foot", "limits which mission the crew picks"),
    NoEffect("storm", "limits communication", tiles_flicked=True),
    NoEffect("donkey", "moves the time marker"),
    NoEffect("cable-car", "moves the crew marker after a failure"),
    NoEffect("ice", "moves the crew marker after a failure"),
    NoEffect("ice-hole", "moves the crew marker after a success"),
)
