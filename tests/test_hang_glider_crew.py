"""What a player knows on the hang glider (solver/missions/knowledge.py, `set_aside_caps`), by enumeration.

The rulebook's Hang glider: "Before the 1st trick, each crew member must place 1 of their own cards face down in
front of themselves. It is treated as though it did not exist. Before each trick, the card may be exchanged for a
different one of your own cards. The last trick consists of the face-down cards. Communication is forbidden." So a
seat that does not follow a colour may still hold one card of it, the one it set aside.

Random small deals with random legal play on the hang glider. For every seat, every deal is enumerated by brute
force and checked against the rules themselves (every play legal with some card set aside, but in the last trick;
the 4 rocket with the Commander); the crew's samples are exactly those deals, counted exactly and drawn about
equally often. The kernel, one table a game, plays the crew's game on the hang glider that the reference plays.
"""

import random
from collections import Counter
from dataclasses import replace

from conftest import deals_and_missions, small_deals
from crew_games import assert_the_kernel_plays_the_reference_game
from hypothesis import given, settings
from hypothesis import strategies as st
from test_knowledge import (
    MOST_COUNTED,
    SAMPLES_PER_DEAL,
    assert_drawn_are_the_consistent,
    commander_holds_r4,
)
from test_skis_crew import distinct_orders, drawn_plays

from solver.core.cards import SUIT_MASKS, bit, parse_card, parse_card_list, popcount, scan, suit_of
from solver.core.deal import Deal, parse_deal
from solver.core.rules import legal_plays, num_tricks, trick_winner
from solver.engines.crew import decision_deals, knowledge_at
from solver.engines.reference import walk
from solver.missions.position import Position
from solver.missions.setup import Setup
from solver.missions.tasks import make_task_mission
from solver.trick.variants import PlayRules

GLIDER = PlayRules(hang_glider=True)


def glider_mission(deal: Deal):
    """A mission of no task on the hang glider, walked to its last trick (`to_the_end`)."""
    return replace(make_task_mission(deal, [], owners=[]), space=GLIDER)


def legal_with_a_card_aside(hand: int, trick, last: bool) -> int:
    """Return the cards `hand` may play: in the last trick its set-aside card (any: it chose which before the trick);
    before, a card legal in the hand without some other card, which was set aside."""
    if last:
        return hand
    return sum({bit(c) for aside in scan(hand) for c in scan(legal_plays(hand & ~bit(aside), trick)) if c != aside})


def replays(first, plays, leader: int) -> bool:
    """Return True when `plays` are legal on the hang glider from the hands `first`."""
    hands, players, last = list(first), len(first), num_tricks(first) - 1
    trick = []
    for k, c in enumerate(plays):
        seat = (leader + len(trick)) % players
        if not legal_with_a_card_aside(hands[seat], trick, k // players == last) >> c & 1:
            return False
        hands[seat] &= ~bit(c)
        trick.append(c)
        if len(trick) == players:
            leader, trick = trick_winner(leader, trick, players), []
    return True


def brute_force(deal: Deal, plays, seat: int) -> set:
    """Return every deal (hands as dealt) the rules allow, seen from `seat`: its hand as it is, the others as large
    as they are."""
    walked = walk(deal, Position(plays).on(glider_mission(deal)), to_the_end=True)
    gone = [0] * deal.players
    for s, c in zip(walked.seats, plays):
        gone[s] |= bit(c)
    others = [s for s in range(deal.players) if s != seat]
    found = set()
    for split in distinct_orders(sorted(scan(sum(walked.hands[s] for s in others))),
                                 [popcount(walked.hands[s]) for s in others]):
        now = list(walked.hands)
        for s, cards in zip(others, split):
            now[s] = cards
        first = tuple(hand | played for hand, played in zip(now, gone))
        if commander_holds_r4(first, deal.commander) and replays(first, plays, deal.commander):
            found.add(first)
    return found


@st.composite
def glider_games(draw):
    """A small deal, plays from trick 1 on the hang glider (short of the last card) and the seat that looks."""
    deal = draw(small_deals(min_players=3, max_players=4, min_cards=2, max_cards=4, extra_card=False))
    plays = drawn_plays(draw, deal, glider_mission(deal), 0)
    return deal, plays, draw(st.integers(0, deal.players - 1), label="seat")


@settings(max_examples=100, deadline=None)
@given(glider_games())
def test_samples_are_the_deals_the_hang_glider_leaves_possible_each_about_as_often(game):
    deal, plays, seat = game
    mission = glider_mission(deal)
    walked = walk(deal, Position(plays).on(mission), to_the_end=True)
    expected = brute_force(deal, plays, seat)
    assert deal.hands in expected
    assert knowledge_at(deal, walked, plays, seat=seat, hang_glider=True).count() == len(expected)
    wanted = SAMPLES_PER_DEAL * min(len(expected), MOST_COUNTED)
    drawn = Counter(s.deal.hands for s in decision_deals(deal, mission, walked, plays, (), wanted, random.Random(1),
                                                         seat=seat))
    assert_drawn_are_the_consistent(drawn, expected)


def test_a_discard_leaves_room_for_the_card_set_aside():
    # Seat 0 leads p5; seat 1 throws g1 though it holds p3, set aside ("It is treated as though it did not exist");
    # seat 2 follows with p2, seat 3 throws g2. Seat 0, to lead again, sees p3 p4 y1 y2 b2 b3 unseen, two in each
    # other hand, and seats 1 and 3 hold at most one pink each: of the 90 ways to deal them, the 6 giving seat 1
    # both pinks and the 6 giving them to seat 3 are out. On the train a discard says "no pink": 6 ways.
    deal = parse_deal("p5 p1 b1 | g1 p3 y1 | p2 p4 y2 | g2 b2 b3", 0)
    plays = tuple(parse_card_list("p5 g1 p2 g2"))
    mission = glider_mission(deal)
    walked = walk(deal, Position(plays).on(mission), to_the_end=True)
    assert walked.to_move == 0
    assert knowledge_at(deal, walked, plays, hang_glider=True).count() == len(brute_force(deal, plays, 0)) == 78
    assert knowledge_at(deal, walked, plays).count() == 6
    pink = SUIT_MASKS[suit_of(parse_card("p1"))]
    samples = decision_deals(deal, mission, walked, plays, (), 200, random.Random(0))
    assert {min(popcount(s.deal.hands[1] & pink), popcount(s.deal.hands[3] & pink)) for s in samples} == {0, 1}
    assert max(popcount(s.deal.hands[seat] & pink) for s in samples for seat in (1, 3)) == 1


@settings(max_examples=20, deadline=None)
@given(deals_and_missions(min_players=3, max_players=4, max_cards=3, drafted=False), st.integers(0, 2**16))
def test_the_kernel_plays_the_hang_glider_game_the_reference_plays(drawn, seed):
    # one table a game (GameTables) over every sampled deal
    deal, mission = drawn
    setups = [Setup("", replace(mission, space=GLIDER))]
    assert_the_kernel_plays_the_reference_game(deal, setups, seed=seed)
