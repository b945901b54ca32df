"""A mission played on a stage space: each deal's rules there, and the crew's choices the space adds.

A mission's setups (setup.py) become cases, (label, deal, TaskMission), that
the engines solve in turn; the deal is won when some case is:
- skis, hang glider, fog, helicopter, jeep: rules of play, in every setup
  (PlayRules; the passes of the helicopter and the jeep are the crew's
  choices inside the search);
- dog sled: the crew chooses the driver, one case per seat;
- Vespa: the holder of the blue 1 swaps one card with another member right
  before trick 1, neither giving nor taking r4; the crew chooses the member
  and both cards, one case (and deal) per swap. Our reading: the swap is
  compulsory, as the rule says ("chooses, once, ... and exchanges");
- machete: a trick holding a machete card and totalling 15/16, 20/21 or 25/26
  fails the mission: one "no such trick" counter per pair of totals.
The machete cards and fog's card count come with the space (spaces.py); fog's
draws and the jeep's shuffle come with the deal: a `Stage` is a space and its
draws for one deal, and with two players the Ghost's display (solver/trick/ghost.py).

Two players: the rulebook's special rules for the Ghost, and our readings where
it has none (docs/missions.md):
- Vespa: it applies to the Ghost only if the blue 1 lies face up in his display
  before trick 1 (if it lies face down, nobody swaps); he gives and takes face-up
  cards only, and the card he gets lies where his lay;
- skis, helicopter, jeep: his own rules there (solver/trick/variants.py);
- hang glider: it leaves the Ghost alone (variants.py);
- dog sled: the driver is one of the two players (the Ghost decides nothing);
- fog: the Ghost's display is laid out as usual; the players are dealt as fog says.
"""

import dataclasses
from dataclasses import dataclass

import numpy as np

from solver.core.cards import TRUMPS, bit, format_card, scan
from solver.core.deal import COMMANDER_CARD, Deal, make_deal, random_deal
from solver.core.errors import InputError
from solver.core.rules import num_tricks
from solver.missions.conditions import MAX_COUNTERS, TrickCounter
from solver.missions.mission import Mission
from solver.missions.setup import join_labels
from solver.missions.special import REDEAL_AFTER, check_special_space, draw_redeal, special_deal
from solver.missions.tasks import TaskMission
from solver.trick.ghost import GHOST_SEAT, random_ghost_deal
from solver.trick.spaces import (
    JEEP_AFTER,
    MACHETE_VALUES,
    SKIS_CARD,
    TRAIN,
    VESPA_CARD,
    Space,
    draw_jeep_order,
    fog_arrivals,
    random_fog_deal,
)
from solver.trick.variants import PlayRules, ghost_playable, ghost_receives

Case = tuple[str, Deal, TaskMission]


@dataclass(frozen=True)
class Stage:
    """Where one deal is played: the stage space, and what it drew with the deal (fog's arrivals)."""

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
    """Deal for a space: fog deals its own way and draws its arrivals; the others deal as usual.

    The space's chance (fog's draws, the jeep's shuffle) is drawn after the deal, so a
    space's deals are the same as the train's (but fog's). Two players: the Ghost's deal
    of `game` (journey or planet-nine), played as three seats.
    """
    if players == 2:
        deal, display = random_ghost_deal(game, rng)
        return deal, stage_of(space, deal, rng, display, difficult)
    if space.name == "fog":
        deal, arrivals = random_fog_deal(players, space.fog_cards, rng)
        return deal, Stage(space, arrivals)
    deal = random_deal(players, rng)
    return deal, stage_of(space, deal, rng)


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
    ghost = GHOST_SEAT if display else -1
    if space.name == "fog":
        return Stage(space, fog_arrivals(deal, space.fog_cards, rng, ghost), display=display, difficult=difficult)
    if space.name == "jeep":
        return Stage(space, jeep_order=draw_jeep_order(deal.players, rng), display=display, difficult=difficult)
    return Stage(space, display=display, difficult=difficult)


def space_cases(stage: Stage, deal: Deal, setups) -> list[Case]:
    """Return the cases of a mission's setups on `deal` played on `stage`."""
    space = stage.space
    cases = []
    for setup in setups:
        mission = setup.mission
        if mission.pattern is not None:
            check_special_space(space)
        if space.name == "machete":
            mission = with_machete(mission, space.machete, deal.players)
        for label, rules in space_rules(stage, deal):
            rules = mission.space if rules is None else rules  # no space rule: the mission's own rules stand
            if stage.redeal_order:
                rules = dataclasses.replace(rules, redeal_after=REDEAL_AFTER, redeal_order=stage.redeal_order)
            swaps = vespa_swaps(deal, stage.display) if space.name == "vespa" else [("", deal, stage.display)]
            for swap_label, swapped, display in swaps:
                ruled = rules
                if display:
                    ruled = dataclasses.replace(rules, ghost=GHOST_SEAT, display=display, difficult=stage.difficult)
                ruled = dataclasses.replace(mission, space=ruled) if ruled != mission.space else mission
                cases.append((join_labels(setup.label, label, swap_label), swapped, ruled))
    return cases


def space_rules(stage: Stage, deal: Deal):
    """Yield (label, PlayRules) for every choice the space gives the crew (None: no rule of play)."""
    space = stage.space
    if space.name == "skis":
        yield "", PlayRules(skis=bit(SKIS_CARD))
    elif space.name == "hang-glider":
        yield "", PlayRules(hang_glider=True)
    elif space.name == "fog":
        if not stage.arrivals:
            raise InputError("fog needs the draws of its cards (drawn with the deal)")
        yield "", PlayRules(arrivals=stage.arrivals)
    elif space.name == "helicopter":
        yield "", PlayRules(heli_pass=TRUMPS)
    elif space.name == "jeep":
        if not stage.jeep_order:
            raise InputError("the jeep needs its shuffle (drawn with the deal)")
        if num_tricks(deal.hands) - JEEP_AFTER < 2:
            raise InputError(f"the jeep needs two cards in every hand after trick {JEEP_AFTER}")
        yield "", PlayRules(jeep_after=JEEP_AFTER, jeep_order=stage.jeep_order)
    elif space.name == "dog-sled":
        for seat in range(deal.players):
            if not (stage.display and seat == GHOST_SEAT):  # the Ghost decides nothing
                yield f"dog-sled driver = seat {seat}", PlayRules(sled=seat)
    else:
        yield "", None


def with_machete(mission: TaskMission, machete: int, players: int) -> TaskMission:
    """Return the mission with the machete's tricks forbidden."""
    counters = mission.counters + tuple(
        TrickCounter((1 << players) - 1, containing=machete, at_most=0, min_value=low, max_value=high)
        for low, high in MACHETE_VALUES
    )
    if len(counters) > MAX_COUNTERS:
        raise InputError(f"this mission with the machete needs {len(counters)} trick counters; the solver holds {MAX_COUNTERS}")
    return dataclasses.replace(mission, counters=counters)


def vespa_swaps(deal: Deal, display: tuple[int, ...] = ()):
    """Yield (label, deal, display) for every swap the Vespa's holder may make before trick 1.

    Two players (`display`, the Ghost's): the Ghost rides only with the blue 1 face up, and swaps
    face-up cards only; the card he gets lies where his lay."""
    holder = deal.holder(VESPA_CARD)
    ghost = GHOST_SEAT if display else -1
    if holder is None or holder == ghost and VESPA_CARD not in display[: len(display) // 2]:
        yield "", deal, display  # nobody rides the Vespa
        return
    keep = bit(COMMANDER_CARD)
    for partner in range(deal.players):
        if partner == holder:
            continue
        for given in scan(swappable(deal.hands[holder] & ~keep, holder == ghost, display)):
            for taken in scan(swappable(deal.hands[partner] & ~keep, partner == ghost, display)):
                hands = list(deal.hands)
                hands[holder] = hands[holder] & ~bit(given) | bit(taken)
                hands[partner] = hands[partner] & ~bit(taken) | bit(given)
                label = f"Vespa: seat {holder} gives {format_card(given)} to seat {partner} for {format_card(taken)}"
                shown = display
                if holder == ghost:
                    shown = ghost_receives(display, (given,), (taken,))
                elif partner == ghost:
                    shown = ghost_receives(display, (taken,), (given,))
                yield label, make_deal(hands, deal.commander), shown


def swappable(hand: int, ghost: bool, display: tuple[int, ...]) -> int:
    """Return the cards of `hand` that may be swapped on the Vespa: the Ghost's face-up ones only."""
    return ghost_playable(hand, display) if ghost else hand
