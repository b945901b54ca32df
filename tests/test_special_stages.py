"""Special stages (table patterns): the automaton against the plain pattern, the kernel and CP-SAT against the
reference.

The reference lays every card of every trick on the table in turn and checks the
finished sequence with `Pattern.holds`; the kernel walks the pattern's automaton
and lays one card per state it leads to. The five-player redeal is drawn here over
small deals of 3-4 players too (after trick 1 or 2), with random shuffles.
"""

from dataclasses import replace

import pytest
from conftest import check_witness, patterns, stage_problems
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.core.cards import CARD_COUNT, SUIT_MASKS, parse_card, popcount, scan
from solver.core.deal import COMMANDER_CARD, deal_rng, parse_deal
from solver.core.errors import InputError
from solver.core.solution import Limits, Outcome
from solver.engines import cpsat
from solver.engines.analysis import line_position
from solver.engines.kernel import KernelSolver
from solver.engines.reference import solve as reference_solve
from solver.engines.reference import walk
from solver.missions.mission import LAST, find_mission, parse_missions
from solver.missions.pattern import Clause, Pattern
from solver.missions.position import TrickChoices
from solver.missions.setup import mission_setups
from solver.missions.stage import space_cases, special_stage_deal
from solver.missions.tasks import make_task_mission
from solver.trick.spaces import TRAIN, parse_space
from solver.trick.variants import PlayRules

KERNEL = KernelSolver(tt_bits=16)


def accepts(pattern: Pattern, table: list[int]) -> bool:
    """Run the pattern's automaton over a finished sequence of table cards."""
    transitions, alive = pattern.automaton(len(table))
    state = 0
    for c in table:
        state = transitions[state, c]
        if state < 0:
            return False
    return bool(alive[state, 0])


@settings(max_examples=400)
@given(patterns(), st.lists(st.integers(0, CARD_COUNT - 1), min_size=1, max_size=13, unique=True))
def test_automaton_accepts_exactly_the_sequences_that_hold(pattern, table):
    assert accepts(pattern, table) == pattern.holds(tuple(table))


@settings(max_examples=150)
@given(patterns(), st.lists(st.integers(0, CARD_COUNT - 1), min_size=2, max_size=6, unique=True), st.data())
def test_alive_means_some_continuation_holds(pattern, table, data):
    """alive[state, r]: some r more cards complete the pattern (the kernel prunes on it)."""
    length = len(table)
    cut = data.draw(st.integers(0, length - 1), label="cut")
    transitions, alive = pattern.automaton(length)
    state = 0
    for c in table[:cut]:
        state = transitions[state, c]
        if state < 0:
            return
    remaining = length - cut
    if pattern.holds(tuple(table)):
        assert alive[state, remaining], "a sequence that holds passes through a dead state"


def agree(deal, mission):
    """The kernel, and CP-SAT where it models the mission (a pattern without the redeal), answer as the reference;
    every winning line replays, its table cards forming the pattern (conftest.check_witness)."""
    reference = reference_solve(deal, mission)
    answers = [KERNEL.solve(deal, mission), reference]
    if cpsat.modelled(mission):
        answers.append(cpsat.solve(deal, mission))
    for answer in answers:
        assert answer.outcome == reference.outcome, (answer.engine, deal, mission)
        if answer.outcome is Outcome.WIN:
            check_witness(deal, mission, answer)
    return reference.outcome


@settings(max_examples=300)
@given(stage_problems())
def test_kernel_agrees_with_reference_on_table_patterns(problem):
    agree(*problem)


@settings(max_examples=150)
@given(stage_problems(redeal=True))
def test_kernel_agrees_with_reference_with_a_redeal(problem):
    deal, mission = problem
    assert mission.space.redeal_after == 2
    agree(deal, mission)


@settings(max_examples=60)
@given(stage_problems())
def test_reference_pruning_agrees_with_none(problem):
    deal, mission = problem
    assert reference_solve(deal, mission).outcome == reference_solve(deal, mission, equivalence=False).outcome


# --- hand-worked patterns ------------------------------------------------------------------

P1, P2, P5, B5, B9, Y1, R1 = (parse_card(c) for c in ("p1", "p2", "p5", "b5", "b9", "y1", "r1"))


@pytest.mark.parametrize("clause, table, holds", [
    (Clause("next", relation="same-type-or-number"), (P1, P5, B5, B9), True),  # pink, pink; 5 and 5; blue, blue
    (Clause("next", relation="same-type-or-number"), (P1, B9), False),
    (Clause("next", relation="one-apart"), (P1, P2, R1, Y1), False),  # 1 2 1 1: the last step is no step
    (Clause("next", relation="one-apart"), (P1, P2, R1), True),
    (Clause("next", relation="not-lower"), (R1, P1, P5, B5, B9), True),  # helis count by their numbers
    (Clause("position", cards=1 << P5, position=LAST), (P1, P5), True),
    (Clause("position", cards=1 << P5, position=LAST - 1), (P1, P5), False),
    (Clause("position", cards=1 << P1, position=3), (P1, P5), False),  # no third card: the pattern cannot hold
    (Clause("count", cards=SUIT_MASKS[0], at_least=2, at_most=2), (P1, B5, P5), True),
    (Clause("count", cards=SUIT_MASKS[0], at_least=2, at_most=2), (P1, B5), False),
    (Clause("none", cards=SUIT_MASKS[4]), (P1, R1), False),
])
def test_clauses_by_hand(clause, table, holds):
    pattern = Pattern((clause,))
    assert pattern.holds(table) == holds
    assert accepts(pattern, list(table)) == holds


def pattern_mission(deal, clauses, rules=PlayRules()):
    return replace(make_task_mission(deal, []), pattern=Pattern(tuple(clauses)), space=rules)


ALL_PINK = [Clause("all", cards=SUIT_MASKS[0])]


def test_all_pink_lost_when_following_suit_puts_both_pinks_in_one_trick():
    # Seat 0 leads: p1 draws p2 from seat 1, b1 draws b2; either way one trick has no pink to lay.
    deal = parse_deal("p1 b1 | p2 b2 | b3 b4", commander=0)
    assert agree(deal, pattern_mission(deal, ALL_PINK)) is Outcome.LOSS


def test_all_pink_won_when_a_void_seat_discards_its_pink():
    # Seat 1 has no blue: on b1 it throws p2 (laid), and p1 leads the second trick (laid).
    deal = parse_deal("p1 b1 | p2 y1 | b3 b4", commander=0)
    assert agree(deal, pattern_mission(deal, ALL_PINK)) is Outcome.WIN


# The redeal after trick 2 (4 discards: one each to seats 0, 1, none, 2, lowest first). The pattern
# wants p9 as the third table card, so p9 must be discarded and come back: it is the highest discard
# unless b1 is discarded too... and only b1 laid on the table leaves three pinks below p9, moving p9
# from the slot left out to seat 2's. Laying the lowest card of each trick (p1.., all "the same" to
# this pattern) loses: which card is laid changes the discards, so before the redeal none is pruned.
REDEAL_DEAL = "p1 p4 | p2 p9 | p3 b1"
REDEAL = PlayRules(redeal_after=2, redeal_order=(0, 1, -1, 2))
P9_THIRD = Clause("position", cards=1 << parse_card("p9"), position=3)


def test_redeal_won_only_by_laying_the_blue_card():
    deal = parse_deal(REDEAL_DEAL, commander=0)
    mission = pattern_mission(deal, [P9_THIRD], REDEAL)
    assert agree(deal, mission) is Outcome.WIN
    solution = KERNEL.solve(deal, mission)
    assert parse_card("b1") in [trick.tabled for trick in solution.tricks]
    assert solution.tricks[2].tabled == parse_card("p9")


def test_redeal_lost_when_the_pattern_forbids_the_blue_card():
    # The same deal, but every table card must be pink: b1 cannot be laid, so p9 is left out.
    deal = parse_deal(REDEAL_DEAL, commander=0)
    assert agree(deal, pattern_mission(deal, [P9_THIRD, *ALL_PINK], REDEAL)) is Outcome.LOSS


def test_redeal_with_another_shuffle_needs_no_blue_card():
    # Here the third discard goes to seat 2 and the fourth is left out: with two pinks laid, p9 is the third.
    deal = parse_deal(REDEAL_DEAL, commander=0)
    mission = pattern_mission(deal, [P9_THIRD, *ALL_PINK], PlayRules(redeal_after=2, redeal_order=(0, 1, 2, -1)))
    assert agree(deal, mission) is Outcome.WIN


# --- the special stages' deals ---------------------------------------------------------------


def table_mission(adjustments=True):
    text = f'game = "journey"\n[[mission]]\nname = "m"\nkind = "pattern"\nadjustments = {str(adjustments).lower()}\n'
    return parse_missions(text + 'pattern = [{ next = "same-type" }]\n', "test")["journey/m"]


@pytest.mark.parametrize("seed", range(5))
def test_three_players_put_seven_cards_back_but_never_the_4_heli(seed):
    deal, stage = special_stage_deal(table_mission(), TRAIN, 3, deal_rng(seed, 0))
    assert [popcount(hand) for hand in deal.hands] == [11, 11, 11]
    assert deal.holder(COMMANDER_CARD) == deal.commander
    assert stage.redeal_order == ()
    full, _ = special_stage_deal(table_mission(adjustments=False), TRAIN, 3, deal_rng(seed, 0))
    assert popcount(full.cards) == CARD_COUNT


@pytest.mark.parametrize("seed", range(5))
def test_five_players_draw_the_redeal_with_the_deal(seed):
    deal, stage = special_stage_deal(table_mission(), TRAIN, 5, deal_rng(seed, 0))
    assert popcount(deal.cards) == CARD_COUNT
    assert sorted(stage.redeal_order) == [-1, -1] + sorted(list(range(5)) * 2)
    assert special_stage_deal(table_mission(), TRAIN, 5, deal_rng(seed, 0)) == (deal, stage)
    assert special_stage_deal(table_mission(adjustments=False), TRAIN, 5, deal_rng(seed, 0))[1].redeal_order == ()


def test_five_player_special_stage_plays_ten_tricks():
    chain = find_mission("journey/table-chain")
    deal, stage = special_stage_deal(chain, TRAIN, 5, deal_rng(3, 0))
    (label, staged, mission), = space_cases(stage, deal, mission_setups(chain, deal, []))
    solution = KERNEL.solve(staged, mission, Limits(max_work=60))
    assert solution.outcome is Outcome.WIN
    assert len(solution.tricks) == 10
    check_witness(staged, mission, solution)


@pytest.mark.parametrize("name", ["journey/table-chain", "journey/table-rising"])
def test_five_players_positions_past_the_fortieth_play_agree(name):
    # Ten tricks of five cards: the redeal's discards are played twice, so a position holds up to 50 plays. Along
    # the kernel's winning line, from play 36 on, every legal card and every table card: the kernel answers as the
    # reference does (a kernel that kept only 40 forced plays lost every position past the 40th).
    special = find_mission(name)
    deal, stage = special_stage_deal(special, TRAIN, 5, deal_rng(3, 0))
    (_, staged, mission), = space_cases(stage, deal, mission_setups(special, deal, []))
    line = line_position(KERNEL.solve(staged, mission, Limits(max_work=60)))
    assert len(line.plays) == 50
    for k in range(36, 50):
        position = line.prefix(k, 5)
        walked = walk(staged, position.on(mission))
        if walked.due:  # the table card of the trick just played: each of its cards
            after = [position.choose(TrickChoices(tabled=c), len(walked.tricks)) for c in walked.tricks[-1].cards]
        else:
            after = [position.then(c) for c in scan(walked.legal)]
        for case in after:
            expected = reference_solve(staged, case.on(mission)).outcome
            assert KERNEL.solve(staged, case.on(mission)).outcome is expected, (k, case.plays[-1])


def test_a_special_stage_refuses_a_stage_space():
    deal, stage = special_stage_deal(table_mission(), TRAIN, 4, deal_rng(0, 0))
    with pytest.raises(InputError, match="not played on a stage space"):
        special_stage_deal(table_mission(), parse_space("skis"), 4, deal_rng(0, 0))
    with pytest.raises(InputError, match="not played on a stage space"):
        space_cases(replace(stage, space=parse_space("skis")), deal, mission_setups(table_mission(), deal, []))
