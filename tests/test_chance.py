"""Chance drawn with the deal: mission 12's random pass after trick 1, on hand-worked deals."""

from dataclasses import replace

import pytest
from click.testing import CliRunner
from conftest import check_witness

from cli.main import main
from solver.core.cards import CARD_COUNT, parse_card, parse_card_list, parse_cards
from solver.core.deal import deal_rng, format_deal, parse_deal
from solver.core.errors import InputError
from solver.core.solution import Outcome
from solver.engines import cpsat, kernel, reference
from solver.engines.cases import solve_setups
from solver.missions.mission import find_mission
from solver.missions.setup import mission_setups
from solver.missions.tasks import make_task_mission
from solver.trick.chance import RandomPass, draw_random_pass

ENGINES = [reference.solve, kernel.solve, cpsat.solve]
MISSION_12 = find_mission("planet-nine/12")


def ordering(first: str) -> tuple[int, ...]:
    """Return a pass ordering that starts with the cards `first`, then the rest of the deck."""
    head = parse_card_list(first)
    return tuple(head + [c for c in range(CARD_COUNT) if c not in head])


def test_each_hand_gives_its_first_card_in_the_ordering_to_the_next_seat():
    chance = RandomPass(1, ordering("y3 p2 b1"))
    hands = (parse_cards("p2 b1"), parse_cards("y3 y4"), parse_cards("g1"))
    assert chance.given(hands) == (parse_card("p2"), parse_card("y3"), parse_card("g1"))
    assert chance.apply(hands) == ((
        parse_cards("b1 g1"),
        parse_cards("y4 p2"),
        parse_cards("y3"),
    ), ())
    assert chance.given((0, hands[1])) == (-1, parse_card("y3"))


def test_the_draw_is_a_deck_ordering_reproducible_from_the_seed():
    first = draw_random_pass(deal_rng(7, 3, 1))
    assert sorted(first.order) == list(range(CARD_COUNT))
    assert first == draw_random_pass(deal_rng(7, 3, 1))
    assert first != draw_random_pass(deal_rng(7, 4, 1))


# Seat 1 must win p9 and holds no pink and no trump; seat 2 holds only blues, so
# seat 1 wins trick 1 with a yellow whatever seat 0 leads (p9 led would win itself).
STEERING = "y1 y2 p9 | y9 y8 y7 | b1 b2 b3"


@pytest.mark.parametrize("solve", ENGINES)
def test_without_a_pass_seat_0_runs_out_of_yellow_and_discards_p9(solve):
    # WIN: seat 1 leads yellow three times; by trick 3 seat 0 is void and drops p9.
    deal = parse_deal(STEERING, commander=0)
    assert (
        solve(deal, make_task_mission(deal, parse_card_list("p9"), owners=[1])).outcome
        is Outcome.WIN
    )


@pytest.mark.parametrize("solve", ENGINES)
def test_trick_1_steers_the_pass(solve):
    # WIN only by steering: the ordering puts y2 before p9 before y1, so seat 0 plays y2
    # to trick 1 and then gives p9 (its first card left) to seat 1, who leads it to
    # trick 2: nobody else holds pink. (Playing y1 would make seat 0 give y2 and keep
    # p9: the losing case below.)
    deal = parse_deal(STEERING, commander=0)
    chance = RandomPass(1, ordering("y2 p9 y1 y9 y8 y7"))
    mission = make_task_mission(
        deal, parse_card_list("p9"), owners=[1], random_pass=chance
    )
    solution = solve(deal, mission)
    assert solution.outcome is Outcome.WIN
    assert solution.tricks[0].cards[0] == parse_card("y2")
    check_witness(deal, mission, solution)


@pytest.mark.parametrize("solve", ENGINES)
def test_a_pass_that_keeps_p9_and_gives_seat_2_the_top_yellow_loses(solve):
    # LOSS: seat 0 gives a yellow and keeps p9; seat 1 gives y9 (or else y8) to seat 2,
    # which then holds a higher yellow than seat 1 and wins trick 2; in trick 3 seat 2
    # leads a blue and p9, wherever seat 0 dropped it, goes to seat 2.
    deal = parse_deal(STEERING, commander=0)
    chance = RandomPass(1, ordering("y1 y2 y9 y8 y7"))
    assert (
        solve(
            deal,
            make_task_mission(
                deal, parse_card_list("p9"), owners=[1], random_pass=chance
            ),
        ).outcome
        is Outcome.LOSS
    )


# Mission 12 (4 tasks, the first drawn carries omega, drafted 2/1/1 from seat 0):
# tasks b9 [omega], p1, p2, y3. Trick 1: seat 0 leads p9 and takes p1 and p2 (its two
# tasks); then seat 1 must take y3 and seat 2 b9, in that order. Seat 0 leading y1
# gives y3 to seat 1 at once; leading b5 makes seat 2 take omega first and fail.
MISSION_12_DEAL = "p9 y1 b5 | p1 y9 b1 | p2 y3 b9"
MISSION_12_TASKS = "b9 p1 p2 y3"


def solve_mission_12(solve, chance):
    deal = parse_deal(MISSION_12_DEAL, commander=0)
    return solve_setups(
        deal,
        mission_setups(MISSION_12, deal, parse_card_list(MISSION_12_TASKS), chance),
        solve,
    )


@pytest.mark.parametrize("solve", ENGINES)
def test_mission_12_won_when_each_hand_passes_the_card_the_crew_can_spare(solve):
    # WIN: after p9 p1 p2, the hands give b5, b1 and y3 (first in the ordering): seat 0
    # holds y1 y3, seat 1 y9 b5, seat 2 b9 b1. Seat 0 leads y3, seat 1 wins it with y9,
    # then leads b5, and seat 2 wins b9 last.
    solution = solve_mission_12(
        solve, RandomPass(1, ordering("b5 b1 y3 p9 p1 p2 y1 y9 b9"))
    )
    assert solution.outcome is Outcome.WIN
    assert [c for trick in solution.tricks for c in trick.completed] == parse_card_list(
        "p1 p2 y3 b9"
    )


@pytest.mark.parametrize("solve", ENGINES)
def test_mission_12_lost_when_the_pass_takes_omega_from_seat_2(solve):
    # LOSS: b9 comes first in the ordering, so after any trick 1 that does not play b9,
    # seat 2 gives b9 (its omega task) to seat 0, and nobody can beat the top blue from
    # seat 2's hand; leading b5 to trick 1 makes seat 2 take omega first.
    assert (
        solve_mission_12(
            solve, RandomPass(1, ordering("b9 y1 y9 p9 p1 p2 y3 b5 b1"))
        ).outcome
        is Outcome.LOSS
    )


def test_mission_12_without_its_draw_is_refused():
    deal = parse_deal(MISSION_12_DEAL, commander=0)
    with pytest.raises(InputError, match="chance"):
        mission_setups(MISSION_12, deal, parse_card_list(MISSION_12_TASKS))


def test_crew_solve_mission_12_shows_the_pass_and_repeats_with_the_seed():
    deal = format_deal(parse_deal(MISSION_12_DEAL, commander=0))
    args = [
        "solve",
        "--mission",
        "planet-nine/12",
        "--deal",
        deal,
        "--tasks",
        MISSION_12_TASKS,
        "--commander",
        "0",
    ]
    runs = [
        CliRunner().invoke(main, [*args, "--seed", str(seed)]) for seed in range(12)
    ]
    assert all(run.exit_code == 0 for run in runs)
    won = [run.output for run in runs if run.output.startswith("WIN")]
    assert won and all("random pass: seat 0 gives" in output for output in won)
    again = CliRunner().invoke(main, [*args, "--seed", "0"])
    assert again.output.split("\n", 1)[1] == runs[0].output.split("\n", 1)[1]


def test_the_random_pass_makes_a_mission_not_plain():
    deal = parse_deal(MISSION_12_DEAL, commander=0)
    mission = make_task_mission(deal, parse_card_list("p1"))
    assert (
        mission.plain
        and not replace(mission, random_pass=RandomPass(1, ordering(""))).plain
    )
