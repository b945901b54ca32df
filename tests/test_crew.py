"""The hidden-information player (solver/engines/crew.py): each legal card's share of sampled deals.

Where what the seat knows fixes every hand (one consistent deal), the shares are the perfect-
information verdicts; on random small deals, a card's share is the fraction of the consistent deals
sampled in which the reference finds it winning, and the same seed gives the same shares.
"""

import random
from dataclasses import replace

import pytest
from conftest import deals_and_missions, plays_so_far
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.core.cards import parse_card, parse_card_list
from solver.core.deal import Deal, parse_deal
from solver.core.errors import InputError
from solver.core.solution import Limits, Outcome, Solution
from solver.engines.analysis import analyze_position, case_solver, consistent_cases
from solver.engines.crew import best_card, card_shares, decision_deals, shares_on, task_shares
from solver.engines.kernel import KernelSolver
from solver.engines.reference import solve as reference_solve
from solver.engines.reference import walk
from solver.missions.knowledge import HIGHEST, Communication, Knowledge
from solver.missions.position import Position
from solver.missions.tasks import make_task_mission
from solver.trick.variants import PlayRules

KERNEL = KernelSolver(tt_bits=16)

# Seat 1 showed y7 as its highest yellow ("the highest ... card of that colour in hand"): its other card
# is not y8 or y9, so it is y6, and seat 0 knows every hand (one consistent deal). Task y6 for seat 0:
# leading p1, which nobody can follow, lets seat 1 throw y6 under it (WIN); leading y5 gives the trick
# to seat 2's yellow (LOSS). The shares are those verdicts.
DEAL = parse_deal("y5 p1 | y6 y7 | y8 y9", 0)
MISSION = make_task_mission(DEAL, parse_card_list("y6"), owners=[0])


def test_shares_are_the_verdicts_where_the_seat_knows_every_hand():
    shown = (Communication(1, parse_card("y7"), HIGHEST),)
    known = Knowledge.of(0, DEAL.hands[0], (2, 2, 2), [], shown, deck=DEAL.cards)
    assert known.count() == 1
    shares = {s.card: s.share for s in card_shares(DEAL, MISSION, Position(), shown, samples=3)}
    analysis = analyze_position(consistent_cases([("", DEAL, MISSION)], Position()), case_solver(reference_solve))
    assert shares == {v.card: float(v.outcome is Outcome.WIN) for v in analysis.verdicts}
    assert shares == {parse_card("p1"): 1.0, parse_card("y5"): 0.0}


def test_an_open_sample_counts_half_a_win():
    # A sample whose solve ran out of its budget (UNKNOWN) is neither won nor proven lost: a card to play counts it
    # as half a win (crew.credit). Seat 0 leads p1, b1 or g1; a stand-in engine answers per (sample, card): p1 wins
    # in one sample and is lost in three, b1 is open in `open_b1` samples and lost in the rest, g1 lost in all.
    deal = parse_deal("p1 b1 g1 r4 | p2 p3 b2 b3 | g2 g3 y1 y2", 0)
    mission = make_task_mission(deal, parse_card_list("y2"), owners=[0])
    walked = walk(deal, mission)
    p1, b1, g1 = parse_card_list("p1 b1 g1")
    deals = decision_deals(deal, mission, walked, (), (), 4, random.Random(1))
    for open_b1, chosen in ((3, b1), (2, p1)):  # 3 open (credit 3) beat 1 win (2); 2 open tie, the cheaper wins
        outcomes = {}
        for k, sample in enumerate(deals):
            outcomes[id(sample.deal), p1] = Outcome.WIN if k == 0 else Outcome.LOSS
            outcomes[id(sample.deal), b1] = Outcome.UNKNOWN if k < open_b1 else Outcome.LOSS
            outcomes[id(sample.deal), g1] = Outcome.LOSS

        def stand_in(sampled, after, limits, outcomes=outcomes):
            return Solution(outcomes.get((id(sampled), after.played[-1]), Outcome.LOSS), 0, 0.0, "stand-in")

        for race in (False, True):
            shares = {s.card: s for s in shares_on(deals, mission, Position(), walked, stand_in, Limits(), race)}
            assert best_card(shares.values()) == chosen
        shares = {s.card: s for s in shares_on(deals, mission, Position(), walked, stand_in, Limits())}
        assert (shares[p1].wins, shares[p1].open, shares[p1].credit) == (1, 0, 2)
        assert (shares[b1].wins, shares[b1].open, shares[b1].credit) == (0, open_b1, open_b1)
        assert (shares[g1].wins, shares[g1].open, shares[g1].samples) == (0, 0, 4)


def card_to_choose(deal, mission, position):
    """Return the walked position, or None where it has no card to choose (the mission ended, or the crew chooses)."""
    walked = walk(deal, position.on(mission))
    return None if walked.ended or walked.due or not walked.legal else walked


@settings(max_examples=40, deadline=None)
@given(deals_and_missions(max_players=4, max_cards=3).flatmap(
    lambda case: st.tuples(st.just(case), plays_so_far(*case))), st.integers(0, 2**16))
def test_a_share_counts_the_samples_the_card_wins(drawn, seed):
    (deal, mission), position = drawn
    walked = card_to_choose(deal, mission, position)
    if walked is None:
        return
    shares = card_shares(deal, mission, position, samples=4, seed=seed, solve=KERNEL.solve)
    assert shares == card_shares(deal, mission, position, samples=4, seed=seed, solve=KERNEL.solve)
    assert sum(1 << s.card for s in shares) == walked.legal
    # Replay the samples: the same seed draws the same deals; each card's wins are the reference's.
    seat, players = walked.to_move, deal.players
    seated = list(zip(walked.seats, position.plays))
    tricks = [seated[k : k + players] for k in range(0, len(seated), players)]
    known = Knowledge.of(seat, walked.hands[seat], tuple(bin(h).count("1") for h in walked.hands), tricks,
                         deck=deal.cards, commander=deal.commander)
    rng = random.Random(seed)
    wins = {s.card: 0 for s in shares}
    for _ in range(4):
        now = known.sample(rng)
        played = [sum(1 << c for s, c in seated if s == other) for other in range(players)]
        sampled = Deal(tuple(h | p for h, p in zip(now, played)), deal.commander)
        for card in wins:
            wins[card] += reference_solve(sampled, position.then(card).on(mission)).outcome is Outcome.WIN
    assert {s.card: s.wins for s in shares} == wins


@settings(max_examples=40, deadline=None)
@given(deals_and_missions(max_players=4, max_cards=3, drafted=False).flatmap(
    lambda case: st.tuples(st.just(case), plays_so_far(*case))), st.integers(0, 2**16))
def test_a_race_chooses_the_card_solving_every_card_chooses(drawn, seed):
    (deal, mission), position = drawn
    walked = card_to_choose(deal, mission, position)
    if walked is None:
        return
    deals = decision_deals(deal, mission, walked, position.plays, (), 5, random.Random(seed))
    for shares_of, per_sample in ((shares_on, 1), (task_shares, len(mission.cards) - bin(walked.done).count("1"))):
        full = shares_of(deals, mission, position, walked, reference_solve, Limits())
        raced = shares_of(deals, mission, position, walked, reference_solve, Limits(), race=True)
        assert best_card(raced) == best_card(full)
        for share in raced:  # its wins on the samples it was solved on, the first ones
            solved = shares_of(deals[: share.samples // per_sample], mission, position, walked, reference_solve,
                               Limits())
            assert share.wins == sum(s.wins for s in solved if s.card == share.card)


def test_stage_spaces_together_are_refused():
    with pytest.raises(InputError, match="does not model the helicopter with another rule of play"):
        card_shares(DEAL, replace(MISSION, space=PlayRules(heli_pass=1, skis=2)), Position())
    with pytest.raises(InputError, match="does not model the jeep with another rule of play or a table"):
        card_shares(DEAL, replace(MISSION, space=PlayRules(jeep_after=1, jeep_order=(0, 0, 1, 1, 2, 2), skis=2)),
                    Position())
    with pytest.raises(InputError, match="does not model fog with another rule of play"):
        card_shares(DEAL, replace(MISSION, space=PlayRules(arrivals=(0,) * 40, skis=2)), Position())


@settings(max_examples=30, deadline=None)
@given(deals_and_missions(max_players=4, max_cards=3, drafted=False).flatmap(
    lambda case: st.tuples(st.just(case), plays_so_far(*case))), st.integers(0, 2**16))
def test_task_shares_count_the_open_tasks_still_winnable_alone(drawn, seed):
    (deal, mission), position = drawn
    walked = card_to_choose(deal, mission, position)
    if walked is None:
        return
    deals = decision_deals(deal, mission, walked, position.plays, (), 3, random.Random(seed))
    shares = task_shares(deals, mission, position, walked, KERNEL.solve, Limits())
    open_tasks = [i for i in range(len(mission.cards)) if not walked.done >> i & 1]
    for share in shares:
        wins = 0
        for sampled in (sample.deal for sample in deals):
            for i in open_tasks:  # task i alone: its card and owner, no token
                single = make_task_mission(sampled, [mission.cards[i]], owners=[mission.owners[i]])
                wins += reference_solve(sampled, position.then(share.card).on(single)).outcome is Outcome.WIN
        assert (share.wins, share.samples) == (wins, 3 * len(open_tasks))
