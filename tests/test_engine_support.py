"""Every public engine entry on every rule family: the reference's answer, or an error naming the family.

Issue 17 item 7: an engine that cannot express a mission must say so. Each rule family a
TaskMission can carry is built here with the library's own constructors (the built-in mission
files through `mission_setups`, the stage spaces through `Stage` and `space_cases`, the Ghost's
display, table patterns, scored missions through `max_score`) on a few seeded small deals. Every
engine that models the family must give the answer of solver.engines.reference (the plain-Python
oracle), and a WIN's line of play must replay (conftest.check_witness); the CP-SAT model, which
models tasks, tokens, trick counters and balance, must raise UnsupportedMission naming any other
family instead. Each family's cases hold both a WIN and a LOSS (a scored mission: two different
event counts), and the reference with the family's rule left out (what an engine blind to it
answers) gets some case wrong, so the agreement tests the rule.

The Family Adventure engines (solver.family.engines.ENGINES, and CP-SAT's fewest-hammocks
optimisation) are checked the same way per objective kind, against the plain DFS.
"""

import dataclasses
import pickle
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

import numpy as np
import pytest
from conftest import check_witness

from solver.core.cards import (
    COLOUR_CARDS,
    SUIT_MASKS,
    SUITS,
    TRUMP,
    bit,
    card_set,
    format_card,
    parse_card,
    parse_card_list,
    scan,
)
from solver.core.deal import COMMANDER_CARD, Deal, make_deal, parse_deal
from solver.core.errors import InputError, UnsupportedMission
from solver.core.solution import Limits, Outcome
from solver.engines import cpsat, kernel, portfolio, protocol, reference
from solver.engines.cases import solve_setups
from solver.engines.distress import solve_with_distress
from solver.engines.kernel import KernelSolver
from solver.engines.portfolio import PortfolioSolver
from solver.engines.score import max_score
from solver.family.cards import CARD_COUNT as FAMILY_CARDS
from solver.family.deal import random_family_deal
from solver.family.engines import ENGINES as FAMILY_ENGINES
from solver.family.mission import ROW_RULES, CardCount, FamilyMission
from solver.family.model import cpsat_solve
from solver.family.objectives import unmet
from solver.family.search import dfs_solve
from solver.family.turns import replay
from solver.missions.conditions import Balanced, Sequence, TrickCounter
from solver.missions.mission import Mission, find_mission, parse_missions
from solver.missions.pattern import Clause, Pattern
from solver.missions.setup import Setup, mission_setups
from solver.missions.special import draw_redeal
from solver.missions.stage import ON_TRAIN, Stage, space_cases, stage_of
from solver.missions.tasks import ABSOLUTE, ANYONE, LAZY, OMEGA, RELATIVE, Token, make_task_mission
from solver.trick.chance import draw_random_pass
from solver.trick.ghost import parse_ghost_deal
from solver.trick.spaces import SKIS_CARD, VESPA_CARD, Space, parse_space
from solver.trick.variants import PlayRules

W, L = Outcome.WIN, Outcome.LOSS
CASES = 10  # seeded deals per family

# --- the engines ------------------------------------------------------------------------------

ENGINES: dict[str, Callable] = {
    "kernel.solve": kernel.solve,
    "KernelSolver.solve": KernelSolver(tt_bits=16).solve,
    "cpsat.solve": cpsat.solve,
    "portfolio.solve": portfolio.solve,
    "PortfolioSolver.solve": PortfolioSolver(tt_bits=16).solve,
    # A one-node DFS budget: the kernel leaves nearly every plain deal open, so CP-SAT answers it.
    "PortfolioSolver.solve>cpsat": PortfolioSolver(tt_bits=16, dfs_nodes=1).solve,
}
CPSAT_ENGINES = {"cpsat.solve"}  # the CP-SAT model alone: the missions cpsat.modelled names


# --- small seeded deals -----------------------------------------------------------------------


def small_deal(
    rng, players: int, size: int, must=(), extra: bool = False, commander: int | None = None, spread: bool = False
) -> Deal:
    """A deal of `size` cards a seat (one more for one seat with `extra`, 3 players) from a few
    suits, so following suit binds (from the whole deck with `spread`), holding the cards `must`;
    the Commander holds r4 if dealt."""
    total = players * size + extra
    must = list(must)
    suits = [int(s) for s in rng.permutation(SUITS)]
    pool = []
    for s in suits:
        if len(pool) >= total + 4 and not spread:
            break
        pool += list(scan(SUIT_MASKS[s]))
    pool = [c for c in pool if c not in must]
    dealt = must + [int(c) for c in rng.permutation(pool)[: total - len(must)]]
    dealt = [int(c) for c in rng.permutation(dealt)]
    hands = [0] * players
    for i, c in enumerate(dealt[: players * size]):
        hands[i % players] |= bit(c)
    if extra:
        hands[int(rng.integers(players))] |= bit(dealt[-1])
    if COMMANDER_CARD in dealt:
        commander = None
    elif commander is None:
        commander = int(rng.integers(players))
    return make_deal(hands, commander)


def colour_tasks(rng, deal: Deal, count: int) -> list[int]:
    colour = list(scan(deal.cards & COLOUR_CARDS))
    return [int(c) for c in rng.permutation(colour)[:count]]


def seats(rng, deal: Deal, count: int) -> list[int]:
    return [int(s) for s in rng.integers(deal.players, size=count)]


# --- the rule families ------------------------------------------------------------------------


@dataclass
class Case:
    """A deal and its mission's setups on a stage; or a scored mission (its setups come from
    max_score); `distress`: solved with the distress signal."""

    deal: Deal
    setups: list[Setup]
    stage: Stage = ON_TRAIN
    scored: Mission | None = None
    distress: bool = False


def task_case(deal, cards, tokens=None, owners=None, **conditions) -> Case:
    return Case(deal, [Setup("", make_task_mission(deal, cards, tokens, owners, **conditions))])


def mission_case(name: str, deal: Deal, cards=(), chance=None, stage: Stage = ON_TRAIN) -> Case:
    return Case(deal, mission_setups(find_mission(name), deal, list(cards), chance), stage)


def fixed_owners(rng):
    deal = small_deal(rng, int(rng.integers(3, 6)), 3)
    cards = colour_tasks(rng, deal, 2)
    return task_case(deal, cards, owners=seats(rng, deal, 2))


def draft(rng):
    deal = small_deal(rng, 4, 3)
    return task_case(deal, colour_tasks(rng, deal, 3))


def tokens(rng):
    deal = small_deal(rng, 3, 4)
    cards = colour_tasks(rng, deal, 3)
    kinds = [
        [Token(ABSOLUTE, 1), Token(ABSOLUTE, 2), None],
        [Token(RELATIVE, 1), Token(RELATIVE, 2), None],
        [Token(OMEGA), None, None],
        [Token(ABSOLUTE, 1), None, Token(OMEGA)],
    ]
    order = kinds[int(rng.integers(len(kinds)))]
    return task_case(deal, cards, order, seats(rng, deal, 3) if rng.random() < 0.5 else None)


def extra_card(rng):
    deal = small_deal(rng, 3, 3, extra=True)
    return task_case(deal, colour_tasks(rng, deal, 2), owners=seats(rng, deal, 2))


def assignment(name: str, players: int, size: int):
    """A built-in mission whose rule is its assignment mode (draft, decision, distribution, pass)."""

    def build(rng):
        mission = find_mission(name)
        deal = small_deal(rng, players, size)
        return mission_case(name, deal, colour_tasks(rng, deal, mission.tasks))

    return build


def logbook(name: str, players: int, size: int, must=()):
    """A built-in mission on a small deal, its task cards drawn from the deal."""

    def build(rng):
        mission = find_mission(name)
        deal = small_deal(rng, players, size, parse_card_list(" ".join(must)))
        chance = draw_random_pass(rng) if mission.chance else None
        return mission_case(name, deal, colour_tasks(rng, deal, mission.tasks), chance)

    return build


def anyone_owners(rng):
    # Tasks any seat may win, no count limit (the own-trick rules' owner spec), without a counter.
    deal = small_deal(rng, 3, 3)
    cards = colour_tasks(rng, deal, 2)
    return Case(deal, [Setup("", make_task_mission(deal, cards, owners=[ANYONE, 0], specs=True))])


def value_counter(rng):
    # No trick may total 15 or more (a counter over trick values), one fixed task.
    deal = small_deal(rng, 3, 3)
    counter = TrickCounter(winners=0b111, min_value=15, at_most=0)
    return task_case(deal, colour_tasks(rng, deal, 1), owners=seats(rng, deal, 1), counters=[counter])


def trick_numbers_counter(rng):
    # Seat 0 wins exactly one of tricks 1 and 2 (a counter over trick numbers), one fixed task.
    deal = small_deal(rng, 3, 3)
    counter = TrickCounter(winners=1, tricks=0b11, at_least=1, at_most=1)
    return task_case(deal, colour_tasks(rng, deal, 1), owners=seats(rng, deal, 1), counters=[counter])


def across_sequence(rng):
    # No trump right after a card of the first suit dealt, also across tricks.
    deal = small_deal(rng, 3, 3, parse_card_list("r1 r2"))
    colour = next(s for s in SUITS if s != TRUMP and deal.cards & SUIT_MASKS[s])
    rule = Sequence(SUIT_MASKS[colour], SUIT_MASKS[TRUMP], across_tricks=True)
    return task_case(deal, colour_tasks(rng, deal, 1), owners=seats(rng, deal, 1), sequences=[rule])


def balanced_drafted(rng):
    deal = small_deal(rng, 3, 3)
    return task_case(deal, colour_tasks(rng, deal, 1), balanced=Balanced(1))


def on_space(space: str, players: int = 3, size: int = 3, must=(), tasks: int = 1, fog: int = 0):
    """Plain tasks with fixed owners on a stage space (its chance drawn with the deal)."""

    def build(rng):
        named = Space("fog", fog_cards=fog) if fog else parse_space(space)
        deal = small_deal(rng, players, size, parse_card_list(" ".join(must)))
        cards = colour_tasks(rng, deal, tasks)
        stage = stage_of(named, deal, rng)
        return Case(deal, [Setup("", make_task_mission(deal, cards, owners=seats(rng, deal, tasks)))], stage)

    return build


def ghost(difficult: bool, columns: int = 3):
    """Two players and the Ghost: his display of `columns` columns, a card more than each hand; a
    task of a player's and one of the display's."""

    def build(rng):
        size = 2 * columns - 1
        colours = SUIT_MASKS[0] | SUIT_MASKS[1] | SUIT_MASKS[2]
        pool = [int(c) for c in rng.permutation(list(scan(colours)))[: 2 * size + 2 * columns]]
        display = tuple(pool[2 * size :])
        hands = [card_set(pool[:size]), card_set(pool[size : 2 * size]), card_set(display)]
        deal = make_deal(hands, int(rng.integers(2)))
        cards = [pool[int(rng.integers(2 * size))], display[int(rng.integers(2 * columns))]]
        owners = [int(s) for s in rng.integers(2, size=len(cards))]
        mission = make_task_mission(deal, cards, owners=owners)
        return Case(deal, [Setup("", mission)], Stage(display=display, difficult=difficult))

    return build


def pattern(name: str, players: int, size: int, spread: bool = False, body: str = ""):
    """A pattern mission (built in, or the `[[mission]]` body of a Journey mission file)."""

    def build(rng):
        mission = find_mission(name) if not body else parse_missions(
            f'game = "journey"\n\n[[mission]]\nname = "{name}"\nkind = "pattern"\n{body}\n', "test")[f"journey/{name}"]
        deal = small_deal(rng, players, size, spread=spread)
        stage = Stage(redeal_order=draw_redeal(mission, players, rng))
        return Case(deal, mission_setups(mission, deal, []), stage)

    return build


def scored(name: str, players: int, size: int):
    def build(rng):
        mission = find_mission(name)
        deal = small_deal(rng, players, size)
        return Case(deal, [], scored=mission)

    return build


def distress(rng):
    deal = small_deal(rng, 3, 2)
    return Case(deal, [Setup("", make_task_mission(deal, colour_tasks(rng, deal, 1), owners=seats(rng, deal, 1)))],
                distress=True)


def omega_in_trick_3() -> Case:
    # Mission 48 (Ω completed in the last trick), found by a seeded search: without the rule the
    # reference completes b7, y7 and then the Ω task b2 in tricks 1-3 of 4.
    deal = parse_deal("b1 b5 y6 r3 | b2 y2 y7 r2 | b6 b7 y5 r1", commander=1)
    return mission_case("planet-nine/48", deal, parse_card_list("b2 b7 y7"))


def machete_15() -> Case:
    # One trick, seat 0's p8 (a machete card) over p2 and p5: it totals 15, so the machete fails
    # the mission that the train wins (tests/test_journey_spaces.py, machete totals).
    deal = parse_deal("p8 | p2 | p5")
    return Case(deal, [Setup("", make_task_mission(deal, parse_card_list("p8"), owners=[0]))],
                Stage(parse_space("machete")))


def not_beside_g9() -> Case:
    # tests/test_ghost.py "not-beside-g9", worked by hand there: WIN with the Ghost, LOSS with the
    # difficult Ghost (after winning trick 1 with g9 he may not lead y1, two columns away).
    deal, display = parse_ghost_deal("g2 g3 g4 g5 g6 g7 g8 | y2 y3 y4 y5 y6 y7 y9 | g9 p1 y1 b1 / g1 p2 y8 b2")
    mission = make_task_mission(deal, parse_card_list("y1 p1 b1"), owners=[1, 0, 0])
    return Case(deal, [Setup("", mission)], Stage(display=display, difficult=True))


SAME_NUMBER = 'pattern = [{ next = "same-number" }]'  # every rank its own card
PINK_1_AND_5 = 'pattern = [{ position = "1", cards = "pink" }, { position = "5", cards = "pink" }]'  # the redeal's 5


class Family(NamedTuple):
    """How to build a family's cases; the families cpsat.unsupported names in them (() when CP-SAT
    models it); and the rule an engine blind to the family would leave out (see `ignoring`)."""

    build: Callable
    lacking: tuple[str, ...]
    blind: str | None = None  # default: the last of `lacking`; "": none
    extra: tuple[Callable, ...] = ()  # cases beyond the seeded ones (builders without arguments)

    @property
    def ignored(self) -> str:
        return self.blind if self.blind is not None else self.lacking[-1] if self.lacking else ""


ASSIGN, COUNT = "assignment", "trick-counters"  # rules CP-SAT models: what a blind engine leaves out
FAMILIES = {
    "fixed-owners": Family(fixed_owners, ()),
    "draft": Family(draft, ()),
    "tokens": Family(tokens, (), "tokens"),
    "three-player-extra-card": Family(extra_card, ()),
    "vespa": Family(on_space("vespa", must=[format_card(VESPA_CARD)], tasks=3), (), "stage"),
    "distress": Family(distress, (), "distress"),
    "no-effect-space": Family(on_space("storm"), ()),  # storm: communication only
    # Assignment modes of the mission files: lazily assigned tasks within allowed counts.
    "draft-by-mission-file": Family(assignment("planet-nine/3", 3, 3), (), ASSIGN),
    "commander-decision": Family(assignment("planet-nine/20", 3, 3), (), ASSIGN),
    "commander-distribution": Family(assignment("planet-nine/24", 3, 4), (), ASSIGN),
    "five-player-pass": Family(assignment("planet-nine/27", 5, 2), (), ASSIGN),
    "anyone-owners": Family(anyone_owners, ()),  # no owner to leave out
    # Trick counters of every kind.
    "x-wins-no-trick": Family(logbook("planet-nine/5", 3, 3), (), COUNT),
    "won-with-counter": Family(logbook("planet-nine/9", 3, 3), (), COUNT),
    "tasks-and-counter": Family(logbook("planet-nine/17", 3, 3, must=["p9", "b9"]), (), COUNT),
    "own-trick": Family(logbook("planet-nine/13", 3, 2, must=["r1", "r2"]), (), COUNT),
    "task-in-last-trick": Family(logbook("planet-nine/48", 3, 4), (), COUNT, extra=(omega_in_trick_3,)),
    "won-cards-counter": Family(logbook("journey/yellow-for-everyone", 3, 3, must=["y1", "y2"]), (), COUNT),
    "value-counter": Family(value_counter, (), COUNT),
    "trick-numbers-counter": Family(trick_numbers_counter, (), COUNT),
    "machete": Family(on_space("machete", must=["p8", "b5", "g6", "y9"]), (), COUNT, extra=(machete_15,)),
    # Other trick conditions.
    "balanced": Family(logbook("planet-nine/29", 3, 3), (), "balanced"),
    "balanced-drafted": Family(balanced_drafted, (), "balanced"),
    "random-pass": Family(logbook("planet-nine/12", 3, 3), (), "random-pass"),
    "sequence": Family(logbook("journey/no-green-after-blue", 3, 3, must=["b1", "g1"]), (), "sequences"),
    "sequence-across-tricks": Family(across_sequence, (), "sequences"),
    # Scored (special) missions: the most scoring events, through max_score (its first call, for
    # 0 events, holds no counter yet: CP-SAT stops at the assignment).
    "score-tricks": Family(scored("journey/no-1-no-2", 3, 3), (), COUNT),
    "score-players": Family(scored("journey/pink-for-everyone", 3, 3), (), COUNT),
    # Stage spaces that change play.
    "skis": Family(on_space("skis", must=[format_card(SKIS_CARD)]), (), "skis"),
    "hang-glider": Family(on_space("hang-glider"), (), "hang-glider"),
    "dog-sled": Family(on_space("dog-sled"), (), "dog-sled"),
    "fog": Family(on_space("fog", size=4, must=["r4"], fog=1, tasks=2), (), "fog"),
    "helicopter": Family(on_space("helicopter", must=["r1", "r2"], tasks=3), (), "helicopter"),
    "jeep": Family(on_space("jeep", size=5, tasks=4), (), "jeep"),
    # Two players.
    "ghost": Family(ghost(False), (), "ghost"),
    "difficult-ghost": Family(ghost(True), (), "difficult-ghost", extra=(not_beside_g9,)),
    # Special stages: table patterns, and the five-player redeal.
    "pattern": Family(pattern("journey/table-pink-frame", 3, 3, spread=True), (), "pattern"),
    "pattern-ranks": Family(pattern("same-number", 3, 3, True, SAME_NUMBER), (), "pattern"),
    "pattern-redeal": Family(pattern("pink-1-and-5", 5, 3, body=PINK_1_AND_5), ("redeal",)),
}


def indices(family: str) -> range:
    return range(CASES + len(FAMILIES[family].extra))


@cache
def case(family: str, index: int) -> Case:
    if index >= CASES:
        return FAMILIES[family].extra[index - CASES]()
    rng = np.random.default_rng([zlib.crc32(family.encode()), index])
    return FAMILIES[family].build(rng)


def answer(engine, c: Case, witness: bool = True):
    """The engine's answer on a case: the outcome (a WIN's line replayed, with `witness`), or a
    scored mission's (events, exact, score)."""
    if c.scored is not None:
        result = max_score(c.deal, c.scored, [], None, engine, stage=c.stage)
        return result.events, result.exact, result.score
    if c.distress:
        solution, passed = solve_with_distress(c.deal, c.setups, engine)[:2]  # (solution, deal, ...)
        if solution.outcome is W and witness:
            mission = next(s.mission for s in c.setups if solution.setup.startswith(s.label))
            check_witness(passed, mission, solution)
        return solution.outcome
    solution = solve_setups(c.deal, c.setups, engine, stage=c.stage)
    if solution.outcome is W and witness:
        won = [(d, m) for label, d, m in space_cases(c.stage, c.deal, c.setups) if label == solution.setup]
        assert len(won) == 1, f"no single case labelled {solution.setup!r}"
        check_witness(*won[0], solution)
    return solution.outcome


SPACE_FIELDS = {  # the PlayRules fields of each stage-space family, as without it
    "skis": {"skis": 0},
    "hang-glider": {"hang_glider": False},
    "dog-sled": {"sled": -1},
    "fog": {"arrivals": ()},
    "helicopter": {"heli_pass": 0},
    "jeep": {"jeep_after": 0, "jeep_order": ()},
    "ghost": {"ghost": -1, "display": (), "difficult": False},
    "difficult-ghost": {"difficult": False},
    "redeal": {"redeal_after": 0, "redeal_order": ()},
}
MISSION_FIELDS = {
    "trick-counters": {"counters": ()},
    "balanced": {"balanced": None},
    "random-pass": {"random_pass": None},
    "sequences": {"sequences": ()},
    "pattern": {"pattern": None},
}


def without(rule: str, mission):
    """The mission with the rule family `rule` left out (the Ghost's display: an ordinary hand;
    an assignment mode: tasks anyone may win)."""
    if rule == "tokens":
        return dataclasses.replace(mission, tokens=(None,) * len(mission.cards))
    if rule == "assignment":
        owners = mission.owners or (LAZY,) * len(mission.cards)
        return dataclasses.replace(mission, owners=tuple(ANYONE if o == LAZY else o for o in owners), counts=None)
    if rule in SPACE_FIELDS:
        return dataclasses.replace(mission, space=dataclasses.replace(mission.space, **SPACE_FIELDS[rule]))
    return dataclasses.replace(mission, **MISSION_FIELDS[rule])


def ignoring(rule: str, c: Case):
    """What an engine blind to `rule` answers: the reference with the rule left out."""
    if rule == "stage":
        return answer(reference.solve, dataclasses.replace(c, stage=ON_TRAIN), witness=False)
    if rule == "distress":
        return answer(reference.solve, dataclasses.replace(c, distress=False), witness=False)

    def blind(deal, mission, limits=Limits()):
        return reference.solve(deal, without(rule, mission), limits)

    return answer(blind, c, witness=False)


@cache
def expected(family: str, index: int):
    return answer(reference.solve, case(family, index))


def missions_of(c: Case):
    if c.scored is not None:
        return [s.mission for s in mission_setups(c.scored, c.deal, [], None, 1)]
    return [m for _, _, m in space_cases(c.stage, c.deal, c.setups)]


@pytest.mark.parametrize("engine", list(ENGINES))
@pytest.mark.parametrize("family", list(FAMILIES))
def test_engine_answers_or_names_what_it_does_not_model(family, engine):
    lacking = FAMILIES[family].lacking
    for index in indices(family):
        c = case(family, index)
        if engine in CPSAT_ENGINES and lacking:
            with pytest.raises(UnsupportedMission) as raised:
                answer(ENGINES[engine], c)
            assert raised.value.engine == "cpsat"
            assert set(lacking) <= set(raised.value.families), raised.value.families
            for name in lacking:
                assert cpsat.FAMILIES[name] in str(raised.value)
            continue
        assert answer(ENGINES[engine], c) == expected(family, index), f"case {index}: {c.deal}"


@pytest.mark.parametrize("family", list(FAMILIES))
def test_each_family_has_a_win_and_a_loss(family):
    """The cases tell a right engine from one ignoring the family's rule."""
    answers = [expected(family, index) for index in indices(family)]
    if case(family, 0).scored is not None:
        assert len({events for events, _, _ in answers}) > 1, answers
        assert all(exact for _, exact, _ in answers)
    else:
        assert W in answers and L in answers, answers


@pytest.mark.parametrize("family", [name for name, family in FAMILIES.items() if family.ignored])
def test_an_engine_blind_to_the_family_would_give_a_wrong_answer(family):
    """Left out, the family's rule changes some case's answer: the agreement above tests the rule."""
    truth = [expected(family, index) for index in indices(family)]
    assert [ignoring(FAMILIES[family].ignored, case(family, index)) for index in indices(family)] != truth


def test_a_space_without_effect_changes_no_answer():
    family = "no-effect-space"
    truth = [expected(family, index) for index in indices(family)]
    assert [ignoring("stage", case(family, index)) for index in indices(family)] == truth


@pytest.mark.parametrize("family", list(FAMILIES))
def test_cpsat_names_exactly_what_it_does_not_model(family):
    lacking = FAMILIES[family].lacking
    for index in indices(family):
        for mission in missions_of(case(family, index)):
            found = cpsat.unsupported(mission)
            assert (not found) == cpsat.modelled(mission)
            assert "other" not in found
            assert set(lacking) <= set(found), found
            assert bool(found) == bool(lacking)


# --- the cases: what CP-SAT used to answer wrongly, then refused, and now models ---------


def test_cpsat_models_the_trick_counter_that_ignoring_gets_wrong():
    # Mission 17 (from test_special_missions): one-suit deal; seat 0's g8 takes g1 and seat 1's
    # b6 takes b1, so both tasks are done after two tricks, but no 9 may win a trick and the pink
    # trick goes to seat 2's p9: LOSS. Without the counter (what CP-SAT modelled) it is a WIN.
    deal = parse_deal("b5 g8 p2 | b6 g1 p1 | b1 g2 p9")
    tasks = parse_card_list("b1 g1")
    [setup] = mission_setups(find_mission("planet-nine/17"), deal, tasks)
    assert reference.solve(deal, setup.mission).outcome is L
    with_counter = make_task_mission(deal, tasks, counters=setup.mission.counters)  # a draft: otherwise plain
    without = dataclasses.replace(with_counter, counters=())
    assert reference.solve(deal, with_counter).outcome is L
    assert cpsat.solve(deal, without).outcome is W
    for mission in (with_counter, setup.mission):
        assert cpsat.solve(deal, mission).outcome is L
    assert kernel.solve(deal, with_counter).outcome is L
    assert portfolio.solve(deal, with_counter).outcome is L


def test_cpsat_solves_a_counter_mission_without_tasks():
    # Mission 9 (from test_special_missions): the only colour 1 is p1 and seat 0 holds three
    # pinks for the three tricks, so p1 is beaten or discarded: LOSS. CP-SAT once answered every
    # mission without task cards WIN at once.
    deal = parse_deal("p2 p3 p4 | b5 b6 b7 | p1 g5 g6")
    [setup] = mission_setups(find_mission("planet-nine/9"), deal, [])
    assert reference.solve(deal, setup.mission).outcome is L
    counter_only = make_task_mission(deal, [], counters=setup.mission.counters)
    assert cpsat.solve(deal, counter_only).outcome is L
    assert cpsat.solve(deal, dataclasses.replace(counter_only, counters=())).outcome is W  # no tasks: won at once


def test_unsupported_mission_is_a_one_line_input_error():
    deal = parse_deal("p1 p9 | b2 b7 | g1 g5")
    rules = dataclasses.replace(
        make_task_mission(deal, parse_card_list("p9"), owners=[0], counters=[TrickCounter(1, at_most=1)],
                          balanced=Balanced(1), sequences=[Sequence(1, 2)]),
        space=PlayRules(skis=bit(SKIS_CARD), sled=1, heli_pass=bit(parse_card("r1"))),
        pattern=Pattern((Clause("next", relation="not-lower"),)),
    )
    with pytest.raises(InputError) as raised:
        cpsat.solve(deal, rules)
    error = raised.value
    assert isinstance(error, UnsupportedMission)
    assert error.families == ("moves-combined", "pattern")
    assert "\n" not in str(error)
    assert str(error) == (
        "the cpsat engine does not model cards moving in more than one way (fog, the skis, passes; but mission 12's "
        "pass on the skis, and without the Ghost with the helicopter's or before the jeep's), table patterns with "
        "tasks, trick conditions or passes; use the auto, kernel or reference engine"
    )
    with pytest.raises(UnsupportedMission):
        cpsat.TaskModel(deal, rules)
    copy = pickle.loads(pickle.dumps(error))  # sweeps send errors back from worker processes
    assert (str(copy), copy.families, copy.engine) == (str(error), error.families, error.engine)


# --- Family Adventure: both engines on every objective kind ------------------------------------

FAMILY_KINDS = ("none", "row", "anywhere", "forbid", "order", "rule", "position", "count", "count-in-row")
FAMILY_CASES = 8
DFS_NODES = 200_000


def family_mission(kind: str, rng) -> FamilyMission:
    """A small mission (4-6 cards in rows of 3 or 4, 0-1 hammocks) with one objective of `kind`,
    on fresh cards."""
    row_length = 3 if rng.random() < 0.4 else 4
    cards = int(rng.integers(4, 7) if kind != "none" else rng.integers(7, 3 * row_length + 1))  # none: a long row
    rows = -(-cards // row_length)
    fresh = iter(int(c) for c in rng.permutation(FAMILY_CARDS))
    fields = {}
    if kind == "row":
        in_row = [0, 0, 0]
        in_row[int(rng.integers(rows))] = bit(next(fresh))
        in_row[0] |= bit(next(fresh))
        fields["in_row"] = tuple(in_row)
    elif kind == "anywhere":
        fields["anywhere"] = bit(next(fresh)) | bit(next(fresh))
    elif kind == "forbid":
        fields["forbidden"] = sum(bit(next(fresh)) for _ in range(10))
    elif kind == "order":
        fields["order"] = (next(fresh), next(fresh))
    elif kind == "rule":
        fields["row_rules"] = tuple(ROW_RULES[int(rng.integers(2))] if row < rows else None for row in range(3))
    elif kind == "position":
        fields["positions"] = ((1, next(fresh)), (int(rng.integers(2, cards + 1)), next(fresh)))
    elif kind.startswith("count"):
        chosen = sum(bit(next(fresh)) for _ in range(5))
        fields["counts"] = (CardCount(chosen, (0,) if kind == "count-in-row" else (), 3, 3),)
    hammocks = int(rng.integers(0, 2))
    return FamilyMission(f"family/{kind}", cards, row_length=row_length, hammocks=(hammocks,) * 3,
                         specials=bool(rng.random() < 0.5), **fields)


@cache
def family_case(kind: str, index: int):
    rng = np.random.default_rng([zlib.crc32(kind.encode()), index, 7])
    deal = random_family_deal(int(rng.integers(2, 6)), rng)
    return deal, family_mission(kind, rng)


@cache
def family_expected(kind: str, index: int) -> Outcome:
    deal, mission = family_case(kind, index)
    outcome = dfs_solve(deal, mission, Limits(max_nodes=DFS_NODES)).outcome
    assert outcome is not Outcome.UNKNOWN
    return outcome


FAMILY_SOLVERS = {**FAMILY_ENGINES, "cpsat fewest hammocks": lambda d, m: cpsat_solve(d, m, fewest_hammocks=True)}


@pytest.mark.parametrize("engine", list(FAMILY_SOLVERS))
@pytest.mark.parametrize("kind", FAMILY_KINDS)
def test_family_engines_agree_on_every_objective_kind(kind, engine):
    for index in range(FAMILY_CASES):
        deal, mission = family_case(kind, index)
        solution = FAMILY_SOLVERS[engine](deal, mission)
        assert solution.outcome is family_expected(kind, index), f"case {index}: {deal} {mission}"
        if solution.outcome is W:
            state = replay(deal, mission, solution.turns)
            assert state.finished and unmet(mission, state.row) is None


@pytest.mark.parametrize("kind", [kind for kind in FAMILY_KINDS if kind != "none"])  # none: rarely lost
def test_family_kind_has_a_win_and_a_loss(kind):
    answers = [family_expected(kind, index) for index in range(FAMILY_CASES)]
    assert W in answers and L in answers, answers


FAMILY_FIELDS = {  # the FamilyMission fields of each objective kind, as without it
    "row": {"in_row": (0, 0, 0)},
    "anywhere": {"anywhere": 0},
    "forbid": {"forbidden": 0},
    "order": {"order": ()},
    "rule": {"row_rules": (None, None, None)},
    "position": {"positions": ()},
    "count": {"counts": ()},
    "count-in-row": {"counts": ()},
}


@pytest.mark.parametrize("kind", list(FAMILY_FIELDS))
def test_family_engine_blind_to_the_kind_would_give_a_wrong_answer(kind):
    truth = [family_expected(kind, index) for index in range(FAMILY_CASES)]
    blind = []
    for index in range(FAMILY_CASES):
        deal, mission = family_case(kind, index)
        without_it = dataclasses.replace(mission, **FAMILY_FIELDS[kind])
        blind.append(dfs_solve(deal, without_it, Limits(max_nodes=DFS_NODES)).outcome)
    assert blind != truth



def test_the_kernel_refuses_more_rules_than_its_arrays_hold(tmp_path):
    # The kernel holds at most MAX_SEQUENCES sequence rules; a mission file may name more. The
    # kernel (and so the default engine) refuses it with an error naming them; the reference answers.
    from click.testing import CliRunner

    from cli.main import main
    from solver.engines.capacity import MAX_SEQUENCES

    rules = ", ".join(f'{{ rule = "sequence", before = "p{n}", after = "b{n}" }}' for n in range(1, MAX_SEQUENCES + 2))
    text = f'game = "journey"\n\n[[mission]]\nname = "sequences"\nrules = [{rules}]\n'
    deal = parse_deal("p1 p2 p3 | b1 b2 b3 | g1 g2 g3", commander=0)
    [setup] = mission_setups(parse_missions(text, "test")["journey/sequences"], deal, [])
    for engine in (kernel.solve, KernelSolver(tt_bits=12).solve, portfolio.solve):
        with pytest.raises(UnsupportedMission) as error:
            engine(deal, setup.mission)
        assert "sequence rules" in str(error.value) and "kernel" in str(error.value)
    assert reference.solve(deal, setup.mission).outcome in (W, L)
    assert list(kernel.unsupported(setup.mission)) == list(portfolio.unsupported(setup.mission)) == ["sequences"]
    assert reference.unsupported(setup.mission) == {}
    path = tmp_path / "m.toml"
    path.write_text(text)
    result = CliRunner().invoke(main, ["solve", "--deal", "p1 p2 p3 | b1 b2 b3 | g1 g2 g3", "--commander", "0",
                                       "--mission", "journey/sequences", "--mission-file", str(path)])
    assert result.exit_code == 2 and "sequence rules" in result.output and "Traceback" not in result.output


def test_the_kernel_refuses_a_table_pattern_with_passes():
    pattern = find_mission("journey/table-chain").pattern
    deal = parse_deal("p1 p2 p3 | b1 b2 b3 | g1 g2 g3", commander=0)
    mission = dataclasses.replace(make_task_mission(deal, []), pattern=pattern,
                                  space=PlayRules(heli_pass=card_set(parse_card_list("p1"))))
    with pytest.raises(UnsupportedMission) as error:
        kernel.solve(deal, mission)
    assert "table pattern with passes" in str(error.value) and list(kernel.unsupported(mission)) == ["pattern"]
    assert reference.solve(deal, mission).outcome in (W, L)


@pytest.mark.parametrize("name", list(protocol.ENGINES))
@pytest.mark.parametrize("family", list(FAMILIES))
def test_each_engine_says_beforehand_what_it_refuses(family, name):
    # The engine protocol (solver/engines/protocol.py): `unsupported` is empty exactly when `solve`
    # answers, and otherwise names the families `solve` raises for.
    engine = protocol.engine(name)
    c = case(family, indices(family)[0])
    pairs = [(c.deal, m) for m in missions_of(c)] if c.scored is not None else [
        (d, m) for _, d, m in space_cases(c.stage, c.deal, c.setups)]
    for deal, mission in pairs[:3]:
        missing = engine.unsupported(mission)
        if missing:
            with pytest.raises(UnsupportedMission) as raised:
                engine.solve(deal, mission, Limits(max_nodes=10_000) if name != "cpsat" else Limits())
            assert set(raised.value.families) == set(missing), raised.value.families
        else:
            assert engine.solve(deal, mission, Limits(max_work=10)).outcome in (W, L, Outcome.UNKNOWN)


def test_the_protocol_engines_are_the_cli_s():
    from cli.main import solve as solve_command

    (option,) = [param for param in solve_command.params if param.name == "engine"]
    assert set(option.type.choices) == set(protocol.ENGINES) == {"auto", "kernel", "cpsat", "reference"}
    assert all(protocol.engine(name).ENGINE == name for name in protocol.ENGINES)
    with pytest.raises(InputError, match="unknown engine 'fast'"):
        protocol.engine("fast")
