"""Positions in the middle of a game: the plays so far checked by the reference's walk, and solved from.

Random small deals on every space (conftest's strategies), random legal plays so far (each card
drawn from the cards `walk` offers, stopping before a crew's pass), then for every legal card of
the seat to move: the kernel and the reference agree, the position is winnable exactly when some
card is, and every winning line starts with the plays and replays through the rules (conftest's
check_witness, by hand). Hand-worked positions, and bad positions' one-line errors, below.
"""

from dataclasses import replace

import pytest
from conftest import (
    BRANCHY,
    SPACES,
    check_witness,
    deal_options,
    deals_and_missions,
    missions_with_conditions,
    small_deals,
    space_rules,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.core.cards import parse_card_list, scan
from solver.core.deal import parse_deal
from solver.core.solution import Outcome
from solver.engines.analysis import analyze_position, case_solver, consistent_cases
from solver.engines.kernel import KernelSolver
from solver.engines.reference import solve as reference_solve
from solver.engines.reference import walk
from solver.missions.position import PositionError, flat_plays, parse_played
from solver.missions.tasks import make_task_mission

KERNEL = KernelSolver(tt_bits=16)
EXAMPLES_PER_SPACE = 40


@st.composite
def plays_so_far(draw, deal, mission):
    """Random legal plays from trick 1 (each drawn from `walk`'s legal cards), stopping where the mission
    ended or before a play that brings a crew's pass (positions stop before those)."""
    plays = ()
    for _ in range(draw(st.integers(0, sum(bin(hand).count("1") for hand in deal.hands)), label="plays")):
        walked = walk(deal, replace(mission, played=plays))
        if walked.ended or not walked.legal:
            break
        card = draw(st.sampled_from(list(scan(walked.legal))), label="card")
        try:
            walk(deal, replace(mission, played=plays + (card,)))
        except PositionError:
            break
        plays += (card,)
    return plays


def check_position(deal, mission, plays):
    positioned = replace(mission, played=plays)
    walked = walk(deal, positioned)
    whole = reference_solve(deal, positioned)
    if walked.ended:
        assert whole.outcome is (Outcome.WIN if walked.ended.startswith("won") else Outcome.LOSS), walked.ended
        return
    outcomes = []
    for card in scan(walked.legal):
        after = replace(mission, played=plays + (card,))
        expected, got = reference_solve(deal, after), KERNEL.solve(deal, after)
        assert got.outcome is expected.outcome, f"card {card}: kernel {got.outcome.value}, reference {expected.outcome.value}"
        for solution in (expected, got):
            if solution.outcome is Outcome.WIN:
                assert tuple(c for t in solution.tricks for c in t.cards)[: len(plays) + 1] == plays + (card,)
                check_witness(deal, after, solution)
        outcomes.append(expected.outcome)
    assert whole.outcome is (Outcome.WIN if Outcome.WIN in outcomes else Outcome.LOSS)


@pytest.mark.parametrize("space", SPACES)
def test_every_legal_card_of_a_position_agrees_on_task_missions(space):
    @settings(max_examples=EXAMPLES_PER_SPACE, deadline=None)
    @given(deals_and_missions(**deal_options(space, max_cards=4 if space in BRANCHY else 5)).flatmap(
        lambda case: st.tuples(st.just(case), space_rules(case[0], space))
    ).flatmap(lambda drawn: st.tuples(st.just(drawn), plays_so_far(drawn[0][0], replace(drawn[0][1], space=drawn[1])))))
    def check(drawn):
        ((deal, mission), rules), plays = drawn
        check_position(deal, replace(mission, space=rules), plays)

    check()


@pytest.mark.parametrize("space", SPACES)
def test_every_legal_card_of_a_position_agrees_on_trick_conditions(space):
    @settings(max_examples=EXAMPLES_PER_SPACE, deadline=None)
    @given(small_deals(**deal_options(space, max_cards=3 if space in BRANCHY else 4)).flatmap(
        lambda deal: st.tuples(st.just(deal), missions_with_conditions(deal), space_rules(deal, space))
    ).flatmap(lambda drawn: st.tuples(st.just(drawn), plays_so_far(drawn[0], replace(drawn[1], space=drawn[2])))))
    def check(drawn):
        (deal, mission, rules), plays = drawn
        check_position(deal, replace(mission, space=rules), plays)

    check()


# --- hand-worked positions ---

# Seat 0: p1 p9 r4 g3; seat 1: b2 g5 y7 p3; seat 2: y1 b7 g1 p4. Tasks g3, b7, y1 drafted: one each
# ("Commander first, then clockwise, one task each until none is left", tasks.py). Trick 1 r4 p3 p4
# goes to seat 0, who leads p1; nobody else has pink. If seat 1 plays y7, seat 2 drops y1 to seat 0,
# seat 0 leads g3 to seat 1's g5, and seat 1 leads b2 to seat 2's b7: a task each, WIN. If seat 1
# plays b2 or g5, the three tasks can no longer go to three different seats (worked through each
# answer of seat 2 and each lead of seat 0 after it): LOSS.
DEAL = parse_deal("p1 p9 r4 g3 | b2 g5 y7 p3 | y1 b7 g1 p4", None)
MISSION = make_task_mission(DEAL, parse_card_list("g3 b7 y1"))


def verdicts(text: str, solve) -> dict[str, Outcome]:
    plays = flat_plays(parse_played(text), DEAL.players)
    analysis = analyze_position(consistent_cases([("", DEAL, MISSION)], plays), case_solver(solve))
    return {v.card: v.outcome for v in analysis.verdicts}, analysis


@pytest.mark.parametrize("solve", [reference_solve, KERNEL.solve], ids=["reference", "kernel"])
def test_only_y7_keeps_the_drafted_tasks_apart(solve):
    found, analysis = verdicts("r4 p3 p4 | p1", solve)
    y7, b2, g5 = parse_card_list("y7 b2 g5")
    assert found == {y7: Outcome.WIN, b2: Outcome.LOSS, g5: Outcome.LOSS}
    assert analysis.outcome is Outcome.WIN and analysis.best == y7
    assert analysis.walked.to_move == 1 and analysis.walked.trick == (parse_card_list("p1")[0],)
    line = [c for t in analysis.line.solution.tricks for c in t.cards]
    assert line[:5] == parse_card_list("r4 p3 p4 p1 y7")


FIXED = make_task_mission(DEAL, parse_card_list("g3 b7 y1"), owners=[0, 0, 0])


@pytest.mark.parametrize("mission, text, words", [
    (MISSION, "r4 p3 b2", ["play 3 (b2)", "seat 2 does not hold it"]),
    (MISSION, "p1 b2", ["play 2 (b2)", "seat 1 may not play it", "legal cards: p3"]),  # seat 1 must follow pink
    (FIXED, "g3 g5 g1 | b2", ["play 4 (b2)", "after the mission failed in trick 1"]),  # seat 1 won seat 0's g3
    (MISSION, "r4 p3 | p1", ["trick 1", "has 2 cards", "3 seats"]),
    (MISSION, "r4 p3 p4 |", ["trick 2", "empty"]),
])
def test_bad_positions_name_the_first_bad_play(mission, text, words):
    with pytest.raises(PositionError) as error:
        walk(DEAL, replace(mission, played=flat_plays(parse_played(text), DEAL.players)))
    for word in words:
        assert word in str(error.value), str(error.value)


def test_a_position_where_the_mission_just_failed_is_lost():
    walked = walk(DEAL, replace(FIXED, played=tuple(parse_card_list("g3 g5 g1"))))
    assert walked.ended == "failed in trick 1" and walked.legal == 0
    assert reference_solve(DEAL, replace(FIXED, played=tuple(parse_card_list("g3 g5 g1")))).outcome is Outcome.LOSS
