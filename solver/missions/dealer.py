"""The dealer: one place that turns what a deal is drawn from into everything it is played with.

A deal to solve is more than its hands: the mission's task cards, its chance (mission 12's pass),
the stage space's draws (fog's arrivals, the jeep's shuffle), a special stage's removed cards and
redeal, and with two players the Ghost's display and variant. `Dealt` holds all of it, and its
`setups` are the TaskMissions the engines solve on its stage (solver/missions/stage.py makes them
cases). Every sweep, `crew solve`, `crew bench` and the tests that deal missions come through here.

Two kinds of deal, each with its own seeding, which published results depend on:
- deal `index` of a sweep cell (`deal_mission`, `deal_task_experiment`): every draw comes from one
  generator, `deal_rng(seed, index, key, players)` with the key naming the mission (crc32 of its
  id) or the task experiment (its count; not its owner mode, so draft and dealt see the same deals),
  in the order: the deal with the space's draws (or the special stage's removals and redeal), the
  task cards (Deep Sea's drawn to a difficulty total), the chance, and Deep Sea's redeals, each a deal
  with its draws again;
- a deal given as text (`lay_out`, `lay_out_tasks`: `crew solve`): what it does not say is drawn
  from `deal_rng(seed, 0, KEY)`, one generator per kind of draw (`TASK_DRAW`, `CHANCE_DRAW`,
  `SPACE_DRAW`), so that giving the task cards does not change the space's draws;
- and a deal with no mission (`plain_deal`: `crew deal` and `crew solve --tasks` without a deal):
  the hands and the space's draws from `deal_rng(seed, index, PLAIN_KEY, players)`.

`dealt_record` writes a `Dealt` down as text (the deal's notation, its task cards and owners, its
draws), as a sweep stores it with each deal and `crew deal` prints it.
"""

import dataclasses
import functools
import zlib
from dataclasses import dataclass

from solver.core.cards import format_card
from solver.core.deal import Deal, deal_rng, format_deal, random_tasks
from solver.core.errors import InputError
from solver.missions.deep_sea import draw_cards, redeal_reason, task_cards
from solver.missions.ghost_knowledge import GhostSeat
from solver.missions.mission import Mission, built_in_missions
from solver.missions.setup import Draft, Setup, deep_sea_draft, draw_chance, mission_setups
from solver.missions.special import check_special_space, draw_redeal
from solver.missions.stage import Stage, check_pass_space, special_stage_deal, stage_deal, stage_of
from solver.missions.tasks import Token, make_task_mission
from solver.trick.chance import RandomPass
from solver.trick.ghost import format_ghost_deal
from solver.trick.spaces import TRAIN, Space

TASK_DRAW, CHANCE_DRAW, SPACE_DRAW = 0, 1, 2  # a given deal's draws: the keys of their generators
TASK_EXPERIMENT = "tasks"  # what a task experiment's cells are named after, and its deals keyed by
TASKS_KEY = zlib.crc32(TASK_EXPERIMENT.encode())
PLANET_NINE = "planet-nine"  # a task experiment's game: its two-player deals are JARVIS's
OWNERS = ("draft", "dealt", "random")  # a random task mission's owners (`random_task_mission`)
PLAIN_KEY = zlib.crc32(b"deal")  # a deal with no mission (`plain_deal`)


@dataclass(frozen=True)
class Dealt:
    """One deal with everything it is played with: the stage (space, draws, the Ghost), and either a
    mission with its task cards and chance, or a task mission's one setup."""

    deal: Deal
    stage: Stage
    mission: Mission | None = None  # None: a task mission, `task_setup`
    cards: tuple[int, ...] = ()  # the mission's task cards, in draw order
    chance: RandomPass | None = None  # the mission's chance event as drawn (mission 12's pass)
    task_setup: Setup | None = None
    game: str = PLANET_NINE  # whose two-player rules it follows: JARVIS's (planet-nine) or the Ghost's (journey)

    def setups(self, events: int = 0) -> list[Setup]:
        """Return the setups to solve on the stage (a special mission's: at least `events` scoring events)."""
        if self.mission is None:
            return [self.task_setup]
        if events == 0:
            return list(self.every_setup)
        return mission_setups(self.mission, self.deal, list(self.cards), self.chance, events, self.stage.ghost)

    @functools.cached_property
    def every_setup(self) -> tuple[Setup, ...]:
        """The mission's setups with no scoring events asked, built once: a crew sweep's deal asks for them three
        times (its solve, the crew's game, the slack), and a Deep Sea total of 20 has up to 25,200 of them (0.6 s
        at 4 players: two thirds of building them went into the repeats, measured on 12 deals)."""
        return tuple(mission_setups(self.mission, self.deal, list(self.cards), self.chance, 0, self.stage.ghost))

    def ghost(self) -> GhostSeat | None:
        """Return who decides for the Ghost (JARVIS) and what his display never holds (None: no Ghost)."""
        return GhostSeat.of(self.game, self.deal) if self.stage.ghost >= 0 else None

    def draft(self) -> Draft | None:
        """Return the draft of the deal's Deep Sea task cards, one at a time (None: it drafts none)."""
        return None if self.mission is None else deep_sea_draft(self.mission, self.deal)


def deal_mission(mission: Mission, space: Space, players: int, seed: int, index: int,
                 difficult: bool = False) -> Dealt:
    """Return deal `index` of a sweep cell of `mission` on `space` (two players: with the Ghost of the
    mission's game, difficult or not)."""
    check_pass_space(mission, space)
    rng = deal_rng(seed, index, zlib.crc32(mission.id.encode()), players)
    game = mission.id.split("/", 1)[0]
    if mission.pattern is not None:
        deal, stage = special_stage_deal(mission, space, players, rng, difficult)
    else:
        deal, stage = stage_deal(space, players, rng, game, difficult)
    cards = tuple(random_tasks(mission.tasks, rng))
    if mission.total:
        mission = draw_cards(mission.total, players, task_cards(built_in_missions(), game), rng)
    chance = draw_chance(mission, rng)
    while redeal_reason(mission, deal):
        deal, stage = stage_deal(space, players, rng, game, difficult)
    return Dealt(deal, stage, mission, cards, chance, game=game)


def deal_task_experiment(tasks: int, owner_mode: str, space: Space, players: int, seed: int, index: int,
                         difficult: bool = False) -> Dealt:
    """Return deal `index` of a random-task experiment: `tasks` random task cards, no token, owners
    drafted (`draft`) or dealt blindly (`dealt`: task j to seat Commander + j)."""
    rng = deal_rng(seed, index, TASKS_KEY, tasks, players)
    return random_task_mission(rng, players, tasks, owner_mode, space=space, difficult=difficult)


def random_task_mission(rng, players: int, tasks: int, owners: str = "draft", tokens: tuple[Token, ...] = (),
                        space: Space = TRAIN, difficult: bool = False) -> Dealt:
    """Deal a random Planet Nine task mission from `rng`: the deal (on `space`), then `tasks` task cards,
    then for `random` owners a seat per task (`draft`: drafted; `dealt`: task j to seat Commander + j);
    the first tasks carry `tokens`."""
    if owners not in OWNERS:
        raise ValueError(f"owners are one of {', '.join(OWNERS)}, not {owners!r}")
    deal, stage = stage_deal(space, players, rng, PLANET_NINE, difficult)
    cards = random_tasks(tasks, rng)
    seats = None  # draft
    if owners == "dealt":
        seats = [(deal.commander + j) % players for j in range(tasks)]
    elif owners == "random":
        seats = [int(seat) for seat in rng.integers(0, players, size=tasks)]
    task_tokens = list(tokens) + [None] * (tasks - len(tokens))
    return Dealt(deal, stage, task_setup=Setup("", make_task_mission(deal, cards, task_tokens, seats)))


def lay_out(deal: Deal, display: tuple[int, ...], mission: Mission, space: Space, seed: int,
            difficult: bool = False, cards: list[int] | None = None) -> Dealt:
    """Return a given deal of `mission` on `space` (two players: the Ghost's `display`), drawing from
    `seed` what the deal does not say: the task cards (unless given), the chance, the space's draws
    and a special stage's redeal."""
    check_pass_space(mission, space)
    stage = stage_of(space, deal, deal_rng(seed, 0, SPACE_DRAW), display, difficult)
    if cards is None:
        cards = random_tasks(mission.tasks, deal_rng(seed, 0, TASK_DRAW), deal.cards)
    if mission.total:
        game = mission.id.split("/", 1)[0]
        mission = draw_cards(mission.total, deal.players, task_cards(built_in_missions(), game),
                             deal_rng(seed, 0, TASK_DRAW))
    reason = redeal_reason(mission, deal)
    if reason:
        raise InputError(f"{mission.id} deals this deal again: {reason}")
    if mission.pattern is not None:
        check_special_space(space)
        stage = dataclasses.replace(stage, redeal_order=draw_redeal(mission, deal.players, deal_rng(seed, 0, SPACE_DRAW)))
    return Dealt(deal, stage, mission, tuple(cards), draw_chance(mission, deal_rng(seed, 0, CHANCE_DRAW)),
                 game=mission.id.split("/", 1)[0])


def lay_out_tasks(deal: Deal, display: tuple[int, ...], setup: Setup, space: Space, seed: int,
                  difficult: bool = False, game: str = PLANET_NINE) -> Dealt:
    """Return a given deal of a task mission (its one setup) on `space`, the space's draws from `seed`; `game` the
    two-player rules it was read with."""
    stage = stage_of(space, deal, deal_rng(seed, 0, SPACE_DRAW), display, difficult)
    return Dealt(deal, stage, task_setup=setup, game=game)


def plain_deal(game: str, space: Space, players: int, seed: int, index: int, difficult: bool = False) -> Dealt:
    """Return deal `index` with no mission: the hands on `space` with its draws (two players: the display of
    `game`'s third seat, JARVIS or the Ghost), from `deal_rng(seed, index, PLAIN_KEY, players)`."""
    deal, stage = stage_deal(space, players, deal_rng(seed, index, PLAIN_KEY, players), game, difficult)
    return Dealt(deal, stage, game=game)


def dealt_record(game: Dealt) -> dict:
    """Return everything a deal is played with, as text: the deal's notation (two players: with the display),
    the task cards in draw order (and their owners when they are fixed, their tokens), fog's arrivals (card -> the trick
    after which it joins its hand), the jeep's shuffle, the special stage's redeal and mission 12's pass
    (after which trick, each seat's card order)."""
    deal, stage = game.deal, game.stage
    record: dict = {"deal": format_ghost_deal(deal, stage.display) if stage.display else format_deal(deal)}
    cards = game.cards if game.task_setup is None else game.task_setup.mission.cards
    if cards:
        record["tasks"] = " ".join(format_card(c) for c in cards)
    if game.mission is not None and game.mission.cards:  # Deep Sea's task cards, drafted
        record["task_cards"] = " ".join(card.split("/", 1)[1] for card in game.mission.cards)
    if game.task_setup is not None and game.task_setup.mission.owners is not None:
        record["owners"] = list(game.task_setup.mission.owners)
    if game.task_setup is not None and any(token is not None for token in game.task_setup.mission.tokens):
        record["tokens"] = [str(token) if token is not None else "-" for token in game.task_setup.mission.tokens]
    if any(stage.arrivals):
        record["arrivals"] = {format_card(c): after for c, after in enumerate(stage.arrivals) if after}
    if stage.jeep_order:
        record["jeep"] = list(stage.jeep_order)
    if stage.redeal_order:
        record["redeal"] = list(stage.redeal_order)
    if game.chance is not None:
        record["random_pass"] = {"after": game.chance.after, "order": " ".join(map(format_card, game.chance.order))}
    return record
