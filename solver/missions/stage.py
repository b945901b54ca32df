"""A mission played on a stage space: each deal's rules there, and the crew's choices the space adds.

A mission's setups (setup.py) become cases, (label, deal, TaskMission), that the engines solve in
turn; the deal is won when some case is. What each case is comes from the space's unit
(solver/trick/spaces/, one module a space), applied here alike for every space:
- its rules of play (PlayRules), in every setup, one case per choice of the crew's (the dog-sled
  driver); the passes of the helicopter and the jeep are the crew's choices inside the search;
- its starting deals, one case per deal the crew may start trick 1 from (the Vespa's swaps);
- its forbidden tricks (the machete's), one "no such trick" counter each in every setup.
The space's options come with it (the machete's cards, fog's count); its chance comes with the
deal (fog's arrivals, the jeep's shuffle): a `Stage` is a space and its draws for one deal, and
with two players the Ghost's display (solver/trick/ghost.py), whose readings on each space are
in its unit (docs/missions.md).
"""

import dataclasses
from dataclasses import dataclass

import numpy as np

from solver.core.deal import Deal
from solver.core.errors import InputError
from solver.missions.conditions import MAX_COUNTERS, TrickCounter
from solver.missions.mission import Mission
from solver.missions.setup import join_labels
from solver.missions.special import REDEAL_AFTER, check_special_space, draw_redeal, special_deal
from solver.missions.tasks import TaskMission
from solver.trick.chance import PASS_LEFT_AFTER_TRICK_1
from solver.trick.ghost import GHOST_SEAT, random_ghost_deal
from solver.trick.spaces import TRAIN, Draws, Space

Case = tuple[str, Deal, TaskMission]


@dataclass(frozen=True)
class Stage:
    """Where one deal is played: the stage space, what it drew with the deal (fog's arrivals, the jeep's shuffle)
    and the Ghost's display."""

    space: Space = TRAIN
    arrivals: tuple[int, ...] = ()
    jeep_order: tuple[int, ...] = ()
    display: tuple[int, ...] = ()  # two players: the Ghost's display (seat 2)
    difficult: bool = False  # the difficult Ghost
    redeal_order: tuple[int, ...] = ()  # a special stage with five players: the redeal's shuffle (special.py)

    @property
    def ghost(self) -> int:
        """Return the Ghost's seat, or -1 without him."""
        return GHOST_SEAT if self.display else -1


ON_TRAIN = Stage()


def stage_deal(
    space: Space, players: int, rng: np.random.Generator, game: str = "journey", difficult: bool = False
) -> tuple[Deal, Stage]:
    """Deal for a space and draw its chance (fog deals its own way and draws its arrivals).

    The space's chance (fog's draws, the jeep's shuffle) is drawn after the deal, so a
    space's deals are the same as the train's (but fog's). Two players: the Ghost's deal
    of `game` (journey or planet-nine), played as three seats.
    """
    if players == 2:
        deal, display = random_ghost_deal(game, rng)
        return deal, stage_of(space, deal, rng, display, difficult)
    deal, drawn = space.unit.deal(space, players, rng)
    return deal, Stage(space, drawn.arrivals, drawn.jeep_order)


def special_stage_deal(
    mission: Mission, space: Space, players: int, rng: np.random.Generator, difficult: bool = False
) -> tuple[Deal, Stage]:
    """Deal a pattern mission (special stage, solver/missions/special.py) and draw its redeal; two players:
    the Ghost's deal of all 40 cards."""
    check_special_space(space)
    if players == 2:
        return stage_deal(space, players, rng, "journey", difficult)
    deal = special_deal(mission, players, rng)
    return deal, Stage(space, redeal_order=draw_redeal(mission, players, rng))


def stage_of(
    space: Space, deal: Deal, rng: np.random.Generator, display: tuple[int, ...] = (), difficult: bool = False
) -> Stage:
    """Return the stage of a given deal on `space`, drawing its chance (fog's arrivals, the jeep's shuffle);
    two players: with the Ghost's `display` (fog deals his cards at once)."""
    drawn = space.unit.draw(space, deal, rng, GHOST_SEAT if display else -1)
    return Stage(space, drawn.arrivals, drawn.jeep_order, display=display, difficult=difficult)


def space_cases(stage: Stage, deal: Deal, setups) -> list[Case]:
    """Return the cases of a mission's setups on `deal` played on `stage`."""
    space = stage.space
    unit = space.unit
    draws = Draws(stage.arrivals, stage.jeep_order)
    cases = []
    for setup in setups:
        mission = setup.mission
        if mission.pattern is not None:
            check_special_space(space)
        mission = with_forbidden_tricks(mission, space, deal.players)
        for label, rules in unit.play_rules(space, draws, deal, stage.ghost):
            rules = mission.space if rules is None else rules  # no space rule: the mission's own rules stand
            if stage.redeal_order:
                rules = dataclasses.replace(rules, redeal_after=REDEAL_AFTER, redeal_order=stage.redeal_order)
            for start_label, start, display in unit.starting_deals(deal, stage.display):
                ruled = with_display(rules, display, stage.difficult)
                ruled = dataclasses.replace(mission, space=ruled) if ruled != mission.space else mission
                cases.append((join_labels(setup.label, label, start_label), start, ruled))
    return cases


def with_display(rules, display: tuple[int, ...], difficult: bool):
    """Return the rules of play `rules` with the Ghost's `display` (two players; `difficult`: the difficult Ghost's
    leads), or as they are without one."""
    return dataclasses.replace(rules, ghost=GHOST_SEAT, display=display, difficult=difficult) if display else rules


def pass_refusal(mission: Mission, space: Space) -> str:
    """Return why `mission` is not played on `space`, "" when it is: mission 12's random pass under fog=1, where
    trick 1 leaves every hand but the Guide's empty (dealt one card each) and the rules do not say what an empty
    hand passes (docs/missions.md, "chance")."""
    if space.fog_cards == 1 and PASS_LEFT_AFTER_TRICK_1 in mission.chance:
        return (f"{mission.id}'s random pass is not played on fog=1: after trick 1 every hand but the Guide's is "
                "empty, and the rules do not say what an empty hand passes (fog=2 or more)")
    return ""


def check_pass_space(mission: Mission, space: Space) -> None:
    """Raise InputError where `pass_refusal` refuses."""
    reason = pass_refusal(mission, space)
    if reason:
        raise InputError(reason)


def stage_refusal(stage: Stage) -> str:
    """Return why the hidden-information crew does not play on `stage`, "" when it does (`space_refusal`)."""
    return space_refusal(stage.space)


def space_refusal(space: Space) -> str:
    """Return why the hidden-information crew does not play on `space`, "" when it does: what the space changes in
    what a player knows or decides (its unit's `crew_refusal`), with the Ghost or not."""
    reason = space.unit.crew_refusal
    return f"the {space.name} ({reason})" if reason else ""


def crew_setups(stage: Stage, deal: Deal, setups) -> list:
    """Return a mission's setups as the crew plays them on `stage` (one it plays: `stage_refusal`): one a case, with
    its mission (the skis' rule, the machete's forbidden tricks, the dog sled's driver) and its label; on the Vespa,
    whose cases are the swaps, the setups with the Ghost's display as dealt (it has no rule of play; the crew makes
    its swap itself: solver/engines/vespa_swap.py); InputError for another space whose cases start from another deal
    than the one dealt."""
    if stage.space.unit.swaps_before_play:
        return [dataclasses.replace(setup, mission=dataclasses.replace(
            setup.mission, space=with_display(setup.mission.space, stage.display, stage.difficult)))
                for setup in setups]
    played = []
    for setup in setups:
        for label, start, mission in space_cases(stage, deal, [setup]):
            if start != deal:
                raise InputError(f"the crew plays the deal as dealt, not the {stage.space.name}'s")
            played.append(dataclasses.replace(setup, label=label, mission=mission))
    return played


def with_forbidden_tricks(mission: TaskMission, space: Space, players: int) -> TaskMission:
    """Return the mission with the tricks `space` forbids (the machete's) as "no such trick" counters."""
    forbidden = space.unit.forbidden_tricks(space)
    if not forbidden:
        return mission
    everyone = (1 << players) - 1  # a trick fails whoever wins it
    counters = mission.counters + tuple(
        TrickCounter(everyone, containing=trick.containing, at_most=0, min_value=trick.low, max_value=trick.high)
        for trick in forbidden
    )
    if len(counters) > MAX_COUNTERS:
        raise InputError(
            f"this mission with the {space.name} needs {len(counters)} trick counters; the solver holds {MAX_COUNTERS}"
        )
    return dataclasses.replace(mission, counters=counters)
