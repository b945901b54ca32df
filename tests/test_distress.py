"""The distress signal: every pass of one non-trump card per player to one side, as a crew choice."""


import pytest
from click.testing import CliRunner
from conftest import check_witness, missions_with_conditions, small_deals
from hypothesis import given, settings
from hypothesis import strategies as st

from cli.main import main
from solver.core.cards import TRUMPS, parse_card_list, popcount
from solver.core.deal import parse_deal
from solver.core.solution import Outcome
from solver.engines import reference
from solver.engines.cases import TableSharing
from solver.engines.distress import distress_passes, solve_with_distress
from solver.engines.kernel import KernelSolver
from solver.missions.conditions import TrickCounter
from solver.missions.setup import Setup
from solver.missions.tasks import make_task_mission

ENGINES = {"reference": lambda: reference.solve, "kernel": lambda: TableSharing(KernelSolver(tt_bits=14))}


def test_passes_cover_both_sides_and_every_choice_of_non_trump_cards():
    deal = parse_deal("p1 p2 r1 | b1 r2 r3 | g1 g2 g3", commander=0)
    passes = list(distress_passes(deal))
    assert len(passes) == 2 * 2 * 1 * 3
    assert len({p.hands for _, p, _ in passes}) == len(passes)
    for description, passed, display in passes:
        assert display == ()
        assert [popcount(h) for h in passed.hands] == [3, 3, 3]
        assert [h & TRUMPS for h in passed.hands] == [h & TRUMPS for h in deal.hands]
        assert passed.commander == deal.commander
    description, passed, _ = passes[0]
    assert description == "distress signal to the left: seat 0 gives p1, seat 1 gives b1, seat 2 gives g1"
    assert passed.hands == tuple(map(sum, ([1 << c for c in parse_card_list(h)] for h in ["p2 r1 g1", "p1 r2 r3", "g2 g3 b1"])))


def test_no_signal_when_a_player_holds_only_trumps():
    assert list(distress_passes(parse_deal("p1 p2 | r1 r2 | g1 g2", commander=0))) == []


def solve_both_ways(deal_text, task, owner, engine):
    deal = parse_deal(deal_text, commander=0)
    setups = [Setup("", make_task_mission(deal, parse_card_list(task), owners=[owner]))]
    without = ENGINES[engine]()(deal, setups[0].mission)
    with_signal, passed, _ = solve_with_distress(deal, setups, ENGINES[engine]())
    return without, with_signal, passed, setups[0].mission


@pytest.mark.parametrize("engine", ENGINES)
def test_the_signal_can_hand_the_task_card_to_its_owner(engine):
    # Without: seat 2 must win p9 but holds no pink and no trump, and whoever holds p9 can
    # keep it from seat 2's only winning lead (b1). LOSS.
    # With: to the left, seat 0 gives p9 to seat 1, seat 1 p1 to seat 2, seat 2 b1 to seat 0;
    # seat 0 wins trick 1 with b1, leads y1, seat 1 (void) drops p9 and seat 2 wins with y2.
    without, with_signal, passed, mission = solve_both_ways("p9 y1 | y9 p1 | y2 b1", "p9", 2, engine)
    assert without.outcome is Outcome.LOSS
    assert with_signal.outcome is Outcome.WIN
    assert with_signal.setup.startswith("distress signal to the ")
    check_witness(passed, mission, with_signal)


@pytest.mark.parametrize("engine", ENGINES)
def test_the_right_side_hands_p9_from_the_commander_to_seat_2(engine):
    # Each player holds one pink and one trump, and only pinks can move: the pink trick
    # holds all three pinks and p9 wins it for its holder. To the right, seat 0 gives p9
    # to seat 2 (3 players): WIN; without the signal seat 0 keeps it: LOSS.
    without, with_signal, passed, mission = solve_both_ways("p9 r3 | p1 r2 | p2 r1", "p9", 2, engine)
    assert without.outcome is Outcome.LOSS
    assert with_signal.outcome is Outcome.WIN and "to the right: seat 0 gives p9" in with_signal.setup
    check_witness(passed, mission, with_signal)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_pass_moves_a_card_one_seat_only(engine):
    # As above with 4 players: p9 can reach seat 1 or seat 3, never seat 2 opposite. LOSS.
    _, with_signal, _, _ = solve_both_ways("p9 r4 | p1 r3 | p2 r1 | p3 r2", "p9", 2, engine)
    assert with_signal.outcome is Outcome.LOSS


@pytest.mark.parametrize("players", [3, 4])
def test_kernel_sharing_its_table_across_passes_agrees_with_reference(players):
    # The passes of one deal share the kernel's table of lost positions.
    @settings(max_examples=60)
    @given(
        small_deals(min_players=players, max_players=players, max_cards=3, capped=False).flatmap(
            lambda deal: st.tuples(st.just(deal), missions_with_conditions(deal))
        )
    )
    def check(case):
        deal, mission = case
        setups = [Setup("", mission)]
        expected, _, _ = solve_with_distress(deal, setups, reference.solve)
        got, passed, _ = solve_with_distress(deal, setups, TableSharing(KernelSolver(tt_bits=14)))
        assert got.outcome is expected.outcome
        if got.outcome is Outcome.WIN:
            check_witness(passed, mission, got)

    check()


def test_crew_solve_reports_with_and_without_the_signal():
    args = ["solve", "--deal", "p9 y1 | y9 p1 | y2 b1", "--tasks", "p9", "--owners", "2", "--commander", "0"]
    result = CliRunner().invoke(main, [*args, "--distress"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0].startswith("without distress signal: LOSS")
    assert lines[1].startswith("with distress signal: WIN")
    assert lines[2].startswith("choices: distress signal to the left")
    won = CliRunner().invoke(main, ["solve", "--deal", "p9 y1 | y9 p1 | y2 b1", "--tasks", "p9", "--owners", "0",
                                    "--commander", "0", "--distress"])
    assert won.output.splitlines()[-1] == "with distress signal: WIN  (not needed)"


def test_a_shared_table_tells_apart_who_holds_a_distinct_card():
    # Regression: the position key hashed a card the mission tells apart by card and rank only,
    # not by holder; passes of one deal move cards between hands, so a position lost in one pass
    # was taken as lost in another where the same cards sit with other players. Seat 0 must win
    # tricks 2 and 3 with at most 12 points each: only the pass "to the left: seat 0 gives p1,
    # seat 1 gives p5, seat 2 gives p6" wins (all cards told apart: a trick's value needs ranks).
    deal = parse_deal("p1 p4 p7 | p2 p5 p8 | p3 p6 p9")
    mission = make_task_mission(deal, [], counters=[TrickCounter(1, tricks=0b110, at_least=2, max_value=12)],
                                specs=True)
    setups = [Setup("", mission)]
    expected, _, _ = solve_with_distress(deal, setups, reference.solve)
    got, passed, _ = solve_with_distress(deal, setups, TableSharing(KernelSolver(tt_bits=14)))
    assert expected.outcome is got.outcome is Outcome.WIN
    check_witness(passed, mission, got)

