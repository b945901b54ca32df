"""Positions in the middle of a game: the plays so far checked by the reference's walk, and solved from.

Random small deals on every space (conftest's strategies), random legal plays so far (each card
drawn from the cards `walk` offers, each pass or table card from the reference's `choices_due`),
then for every legal card of the seat to move: the kernel and the reference agree (and CP-SAT, on the position and its
first legal card, where it models the mission), the position is winnable exactly when some card is, and every winning line starts with the plays and replays through the rules (conftest's
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
    plays_so_far,
    small_deals,
    space_rules,
    stage_problems,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.core.cards import SUIT_MASKS, TRUMP, parse_card_list, parse_cards, scan
from solver.core.deal import parse_deal
from solver.core.solution import Outcome
from solver.engines import cpsat
from solver.engines.analysis import analyze_position, case_solver, consistent_cases, line_position
from solver.engines.kernel import KernelSolver
from solver.engines.reference import choices_due, walk
from solver.engines.reference import solve as reference_solve
from solver.missions.position import Position, PositionError, format_played, parse_played, position_of
from solver.missions.tasks import make_task_mission
from solver.trick.variants import ANY_CARD, PlayRules, pass_agrees

KERNEL = KernelSolver(tt_bits=16)
EXAMPLES_PER_SPACE = 40
PASSING = ("helicopter", "jeep", "ghost-helicopter", "ghost-jeep")  # the spaces where the crew passes cards
EXAMPLES_PAST_A_CHOICE = 80  # about a third of them play on after a pass or table card (the others end before)


def check_position(deal, mission, position):
    """The kernel agrees with the reference on every legal card of the position, CP-SAT (where it models the
    mission: no choice between tricks) on the position and its first legal card, and the position is winnable
    exactly when some card is."""
    positioned = position.on(mission)
    walked = walk(deal, positioned)
    whole = reference_solve(deal, positioned)
    if cpsat.modelled(positioned):
        check_engine(cpsat.solve, deal, positioned, whole)
    if walked.ended:
        assert whole.outcome is (Outcome.WIN if walked.ended.startswith("won") else Outcome.LOSS), walked.ended
        return
    if walked.due:  # the position stops at the crew's choice: winnable exactly when some choice keeps it so
        made = list(choices_due(deal, positioned))
        after = [reference_solve(deal, position.choose(choice, len(walked.tricks)).on(mission)).outcome
                 for choice in made]
        assert whole.outcome is (Outcome.WIN if Outcome.WIN in after else Outcome.LOSS)
        assert KERNEL.solve(deal, positioned).outcome is whole.outcome
        if walked.due == "a pass":
            check_one_seats_pass(deal, mission, position, len(walked.tricks), dict(zip(made, after)))
        return
    outcomes = []
    for card in scan(walked.legal):
        after = position.then(card).on(mission)
        expected = reference_solve(deal, after)
        engines = [KERNEL.solve] + ([cpsat.solve] if not outcomes and cpsat.modelled(after) else [])
        for solve in engines:
            check_engine(solve, deal, after, expected)
        outcomes.append(expected.outcome)
    assert whole.outcome is (Outcome.WIN if Outcome.WIN in outcomes else Outcome.LOSS)


def check_one_seats_pass(deal, mission, position, trick: int, outcomes):
    """Each seat's pass fixed, the others' left to the crew (`?`): winnable exactly when some full pass that makes
    it is, by every engine (the hidden-information crew weighs its own pass so)."""
    if not outcomes:  # no pass can be made (the Ghost with no face-up card to give)
        return
    each = len(next(iter(outcomes)).passed) // deal.players
    for seat in range(deal.players):
        for own in {made.passed[seat * each : (seat + 1) * each] for made in outcomes}:
            fixed = (ANY_CARD,) * (seat * each) + own + (ANY_CARD,) * ((deal.players - seat - 1) * each)
            choice = replace(next(iter(outcomes)), passed=fixed)
            positioned = position.choose(choice, trick).on(mission)
            agreeing = [outcome for made, outcome in outcomes.items() if made.passed[seat * each : (seat + 1) * each] == own]
            expected = reference_solve(deal, positioned)
            assert expected.outcome is (Outcome.WIN if Outcome.WIN in agreeing else Outcome.LOSS)
            assert walk(deal, positioned).due == "a pass"
            check_engine(KERNEL.solve, deal, positioned, expected)
            if cpsat.modelled(positioned):
                check_engine(cpsat.solve, deal, positioned, expected)


def check_engine(solve, deal, positioned, expected):
    """`solve` answers the position as the reference did (`expected`), and every winning line of either
    begins with the position's plays and choices and replays through the rules (check_witness)."""
    got = solve(deal, positioned)
    assert got.outcome is expected.outcome, f"{got.engine} {got.outcome.value}, reference {expected.outcome.value}"
    for solution in (expected, got):
        if solution.outcome is Outcome.WIN:
            line = line_position(solution)
            assert line.plays[: len(positioned.played)] == positioned.played
            for made, fixed in zip(line.chosen, positioned.chosen, strict=False):  # the crew's choices so far, as made
                assert made.tabled == fixed.tabled
                assert len(made.passed) == len(fixed.passed) and pass_agrees(made.passed, fixed.passed)
            assert len(line.chosen) >= len(positioned.chosen)
            check_witness(deal, positioned, solution)


@pytest.mark.parametrize("space", SPACES)
def test_every_legal_card_of_a_position_agrees_on_task_missions(space):
    @settings(max_examples=EXAMPLES_PER_SPACE, deadline=None)
    @given(deals_and_missions(**deal_options(space, max_cards=4 if space in BRANCHY else 5)).flatmap(
        lambda case: st.tuples(st.just(case), space_rules(case[0], space))
    ).flatmap(lambda drawn: st.tuples(st.just(drawn), plays_so_far(drawn[0][0], replace(drawn[0][1], space=drawn[1])))))
    def check(drawn):
        ((deal, mission), rules), position = drawn
        check_position(deal, replace(mission, space=rules), position)

    check()


@pytest.mark.parametrize("space", PASSING)
def test_every_legal_card_agrees_past_the_crews_passes(space):
    @settings(max_examples=EXAMPLES_PAST_A_CHOICE, deadline=None)
    @given(deals_and_missions(**deal_options(space, max_cards=4)).flatmap(
        lambda case: st.tuples(st.just(case), space_rules(case[0], space))
    ).flatmap(lambda drawn: st.tuples(st.just(drawn), plays_so_far(drawn[0][0], replace(drawn[0][1], space=drawn[1]),
                                                                   past_a_choice=True))))
    def check(drawn):
        ((deal, mission), rules), position = drawn
        check_position(deal, replace(mission, space=rules), position)

    check()


@settings(max_examples=EXAMPLES_PAST_A_CHOICE, deadline=None)
@given(stage_problems().flatmap(lambda problem: st.tuples(st.just(problem), plays_so_far(*problem, past_a_choice=True))))
def test_every_legal_card_agrees_past_table_cards(drawn):
    (deal, mission), position = drawn
    check_position(deal, mission, position)


@pytest.mark.parametrize("space", SPACES)
def test_every_legal_card_of_a_position_agrees_on_trick_conditions(space):
    @settings(max_examples=EXAMPLES_PER_SPACE, deadline=None)
    @given(small_deals(**deal_options(space, max_cards=3 if space in BRANCHY else 4)).flatmap(
        lambda deal: st.tuples(st.just(deal), missions_with_conditions(deal), space_rules(deal, space))
    ).flatmap(lambda drawn: st.tuples(st.just(drawn), plays_so_far(drawn[0], replace(drawn[1], space=drawn[2])))))
    def check(drawn):
        (deal, mission, rules), position = drawn
        check_position(deal, replace(mission, space=rules), position)

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
    position = position_of(parse_played(text), DEAL.players)
    analysis = analyze_position(consistent_cases([("", DEAL, MISSION)], position), case_solver(solve))
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
        walk(DEAL, position_of(parse_played(text), DEAL.players).on(mission))
    for word in words:
        assert word in str(error.value), str(error.value)


def test_a_position_where_the_mission_just_failed_is_lost():
    walked = walk(DEAL, replace(FIXED, played=tuple(parse_card_list("g3 g5 g1"))))
    assert walked.ended == "failed in trick 1" and walked.failed_in == 1 and walked.legal == 0
    assert walk(DEAL, replace(FIXED, played=tuple(parse_card_list("g3 g5")))).failed_in == 0  # play goes on
    assert reference_solve(DEAL, replace(FIXED, played=tuple(parse_card_list("g3 g5 g1")))).outcome is Outcome.LOSS


def test_a_task_card_left_unplayed_fails_in_the_last_trick():
    # "With three players, one card is left unplayed after the final trick": seat 0's b9 is that card here, so
    # seat 1's task is never won, and the mission fails in the last trick (no trick before failed it). Leading b9
    # instead gives it to seat 0: lost either way.
    deal = parse_deal("g1 b9 | g2 | g3", 0)
    mission = make_task_mission(deal, parse_card_list("b9"), owners=[1])
    walked = walk(deal, replace(mission, played=tuple(parse_card_list("g1 g2 g3"))))
    assert walked.ended == "failed in trick 1 (the last, with a task not done)" and walked.failed_in == 1
    assert reference_solve(deal, mission).outcome is Outcome.LOSS


# --- positions past the crew's passes and table cards, by hand ---

# "Helicopter. If at least 1 heli is in the trick, each crew member passes 1 card to the left,
# simultaneously and face down, after the trick." Seat 0 leads h1 and wins trick 1; then seat 0 passes
# b3 to seat 1, seat 1 b1 to seat 2, seat 2 b2 to seat 0.
HELI_DEAL = parse_deal("h1 g5 b3 | g2 b1 b4 | g3 b2 b5", 0)
HELI = replace(make_task_mission(HELI_DEAL, parse_card_list("b3"), owners=[1]), space=PlayRules(heli_pass=SUIT_MASKS[TRUMP]))


def heli_position(text: str):
    return position_of(parse_played(text), HELI_DEAL.players).on(HELI)


def test_a_pass_on_the_helicopter_moves_the_cards_to_the_left():
    walked = walk(HELI_DEAL, heli_position("h1 g2 g3 pass b3 b1 b2"))
    assert walked.hands == (parse_cards("g5 b2"), parse_cards("b4 b3"), parse_cards("b5 b1"))
    assert (walked.to_move, walked.legal, walked.due) == (0, parse_cards("g5 b2"), "")
    assert walked.tricks[0].passed == tuple(parse_card_list("b3 b1 b2"))
    # Task b3 for seat 1, who now holds b3 b4. If seat 0 leads b2, seat 1 plays b3 and seat 2 b1. If seat 0
    # leads g5 (nobody else has green: it wins), seat 1 keeps b3 with b4 and seat 2 throws b5; then b2 is
    # led and seat 1's b3 beats it and b1. Both cards keep the mission winnable, by both engines.
    for card in parse_card_list("g5 b2"):
        after = Position.of(heli_position("h1 g2 g3 pass b3 b1 b2")).then(card).on(HELI)
        for solve in (reference_solve, KERNEL.solve):
            assert solve(HELI_DEAL, after).outcome is Outcome.WIN


def test_a_position_stopping_at_a_pass_leaves_it_to_the_crew():
    positioned = heli_position("h1 g2 g3")
    walked = walk(HELI_DEAL, positioned)
    assert (walked.due, walked.legal) == ("a pass", 0)
    assert len(list(choices_due(HELI_DEAL, positioned))) == 2 * 2 * 2  # each seat passes one of its 2 cards
    # No card to analyse: the choice's own verdict (some pass keeps it winnable), and a line with it.
    analysis = analyze_position(consistent_cases([("", HELI_DEAL, HELI)], position_of(parse_played("h1 g2 g3"), 3)),
                                case_solver(reference_solve))
    assert (analysis.verdicts, analysis.outcome) == ((), Outcome.WIN)
    assert analysis.line.solution.tricks[0].passed in {made.passed for made in choices_due(HELI_DEAL, positioned)}


def test_one_seats_pass_with_the_others_left_to_the_crew():
    # Seat 1 weighs its own card (`?` for the others'): it must win the b3 and holds the only blue above it, the
    # b4. Keeping it (passing b1) wins as above, seat 0 passing the b3 on (or keeping it to lead it under the b4);
    # passing it loses, as then every blue
    # above the b3 lies with seat 0 or 2, whatever they pass: seat 1 cannot win a trick holding the b3.
    for passed, outcome in (("? b1 ?", Outcome.WIN), ("? b4 ?", Outcome.LOSS)):
        positioned = heli_position(f"h1 g2 g3 pass {passed}")
        assert walk(HELI_DEAL, positioned).due == "a pass"
        for solve in (reference_solve, KERNEL.solve, cpsat.solve):
            solution = solve(HELI_DEAL, positioned)
            assert solution.outcome is outcome, (passed, solution.engine)
            if outcome is Outcome.WIN:
                assert solution.tricks[0].passed[1] == parse_card_list("b1")[0]  # seat 1's, as fixed
    assert format_played(position_of(parse_played("r1 g2 g3 pass ? b1 ?"), 3), 3) == "r1 g2 g3 pass ? b1 ?"


@pytest.mark.parametrize("text, words", [
    ("h1 g2 g3 | g5", ["after trick 1 the crew passes", "write `pass`"]),
    ("h1 g2 g3 pass ? b1 ? | g5", ["`?` only in the last trick"]),
    ("h1 g2 g3 pass h1 b1 b2", ["the pass after trick 1", "seat 0 does not hold r1"]),  # h1 is r1
    ("h1 g2 g3 pass b3 b1", ["3 cards, not 2"]),
    ("h1 g2 g3 table g2", ["no card goes on the table"]),
    ("g5 g2 g3 pass b3 b1 b2", ["no pass is made after trick 1"]),
    ("h1 g2 pass b3 b1 b2", ["trick 1 is not complete"]),
    ("h1 g2 g3 pass", ["`pass` is followed by the cards passed"]),
])
def test_bad_passes_name_the_trick(text, words):
    with pytest.raises(PositionError) as error:
        walk(HELI_DEAL, heli_position(text))
    for word in words:
        assert word in str(error.value), str(error.value)


# "Jeep. After the 3rd trick, each crew member places 2 cards face down in the middle of the table.
# Shuffle these cards and each take 2 of them back." Here after trick 1, with a shuffle that deals the
# middle's cards, lowest first, to seats 2, 2, 0, 0, 1, 1: seat 2 takes g1 g2, seat 0 g3 g4, seat 1 g5 g6.
JEEP_DEAL = parse_deal("b9 g1 g2 | b1 g3 g4 | b2 g5 g6", 0)
JEEP = replace(make_task_mission(JEEP_DEAL, parse_card_list("g6"), owners=[1]),
               space=PlayRules(jeep_after=1, jeep_order=(2, 2, 0, 0, 1, 1)))


def test_the_jeep_deals_the_middle_by_its_shuffle_whatever_order_a_pair_is_written_in():
    for written in ("g1 g2 g3 g4 g5 g6", "g2 g1 g4 g3 g6 g5"):
        positioned = position_of(parse_played(f"b9 b1 b2 pass {written}"), 3).on(JEEP)
        walked = walk(JEEP_DEAL, positioned)
        assert walked.hands == (parse_cards("g3 g4"), parse_cards("g5 g6"), parse_cards("g1 g2"))
        assert positioned.chosen[0].passed == tuple(parse_card_list("g2 g1 g4 g3 g6 g5"))  # each pair higher first
        # seat 0 leads g3 or g4, seat 1 wins it with g6: both engines find the win.
        for solve in (reference_solve, KERNEL.solve):
            assert solve(JEEP_DEAL, positioned).outcome is Outcome.WIN


def test_a_jeep_seat_names_both_its_cards_or_neither():
    with pytest.raises(PositionError, match="seat 0 passes 2 cards: name both or leave both to the crew"):
        walk(JEEP_DEAL, position_of(parse_played("b9 b1 b2 pass g1 ? ? ? ? ?"), 3).on(JEEP))
    with pytest.raises(PositionError, match="seat 0 passes g1 twice"):
        walk(JEEP_DEAL, position_of(parse_played("b9 b1 b2 pass g1 g1 g3 g4 g5 g6"), 3).on(JEEP))


def test_positions_read_back_as_written():
    for text in ("r4 p3 p4 | p1", "r1 g2 g3 pass b3 b1 b2 | g5", "g1 g2 g3 table g2 pass b1 b2 b3 | b4"):
        assert format_played(position_of(parse_played(text), 3), 3) == text
