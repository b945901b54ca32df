"""What a player knows after the Vespa's swap (solver/engines/vespa_swap.py), by enumeration on small deals.

The rulebook's Vespa: "Whoever has the Vespa (blue 1) chooses, once, directly before the 1st trick and without
discussion, another crew member, and simultaneously and secretly exchanges any one card with them. The 4-heli may
not be exchanged." The table sees who swapped with whom, not the cards.

Random small deals holding the blue 1, a random swap, random legal play from the hands after it and random cards
shown (after the swap). For every seat, every pair (hands as dealt, swap) is enumerated by brute force and checked
against the rules themselves (the blue 1 dealt to the holder, the 4 rocket to the Commander and never swapped,
every play legal, every token true, the seat's own hand and, for the two who swapped, the cards they gave and got
as they were); the crew's samples are exactly the hands after the swap those leave possible, counted exactly and
drawn about equally often. The kernel, one table a game, plays the crew's game on the Vespa that the reference
plays, and `crew play` prints the swap.
"""

import itertools
import json
import random
from collections import Counter
from dataclasses import replace

from click.testing import CliRunner
from conftest import missions_for, small_deals
from hypothesis import given, settings
from hypothesis import strategies as st
from test_knowledge import (
    MOST_COUNTED,
    SAMPLES_PER_DEAL,
    assert_drawn_are_the_consistent,
    cards_shown,
    commander_holds_r4,
    shown_truly,
)
from test_skis_crew import distinct_orders, drawn_plays, replay

from cli.main import main
from solver.core.cards import CARD_COUNT, bit, card_set, format_card, parse_card, popcount, scan
from solver.core.deal import COMMANDER_CARD, Deal, make_deal, parse_deal
from solver.core.rules import legal_plays, trick_winner
from solver.core.solution import Limits
from solver.engines.crew import GameTables, decision_deals, knowledge_at, pass_gifts
from solver.engines.kernel import KernelSolver
from solver.engines.realistic import play_game
from solver.engines.reference import walk
from solver.engines.vespa_swap import VespaSwap
from solver.missions.knowledge import Placed
from solver.missions.position import Position
from solver.missions.setup import Setup
from solver.missions.tasks import make_task_mission
from solver.trick.chance import RandomPass
from solver.trick.spaces import parse_space
from solver.trick.spaces.vespa import VESPA_CARD, swap

KERNEL = KernelSolver(tt_bits=16)
NO_SKIS = 0


def with_vespa_card(deal: Deal, seat: int) -> Deal:
    """Return `deal` with the blue 1 dealt to `seat` (in place of its lowest card but the 4 rocket, when the deck
    lacks it)."""
    if deal.cards & bit(VESPA_CARD):
        return deal
    hands = list(deal.hands)
    lowest = min(scan(hands[seat] & ~bit(COMMANDER_CARD)))
    hands[seat] = hands[seat] & ~bit(lowest) | bit(VESPA_CARD)
    return make_deal(hands, deal.commander)


@st.composite
def vespa_games(draw):
    """A deal holding the blue 1 (3 players with 3-4 cards a hand, or 4 with 3: small enough to enumerate), a swap
    of it, plays from trick 1 after the swap (short of the last card) and up to two cards shown after it."""
    players = draw(st.sampled_from([3, 4]), label="players")
    dealt = draw(small_deals(min_players=players, max_players=players, min_cards=3, max_cards=7 - players,
                             extra_card=False))
    deal = with_vespa_card(dealt, draw(st.integers(0, players - 1), label="vespa seat"))
    holder = deal.holder(VESPA_CARD)
    partner = draw(st.sampled_from([s for s in range(players) if s != holder]), label="partner")
    given_card = draw(st.sampled_from(sorted(scan(deal.hands[holder] & ~bit(COMMANDER_CARD)))), label="given")
    taken = draw(st.sampled_from(sorted(scan(deal.hands[partner] & ~bit(COMMANDER_CARD)))), label="taken")
    swapped = swap(deal, (), holder, given_card, partner, taken)[1]
    plays = drawn_plays(draw, swapped, make_task_mission(swapped, [], owners=[]), 0)
    held, _, _ = replay(swapped.hands, plays, deal.commander, NO_SKIS)
    made = VespaSwap(holder, partner, given_card, taken, (), (), (), ())
    return deal, swapped, made, plays, cards_shown(draw, held, list(range(players)))


def swapped_hands(deal: Deal, made: VespaSwap, seat: int):
    """Yield the hands after the swap of every deal of the cards `seat` did not see and every swap the holder and
    its member could have made there (the two who swapped: the one they made): the blue 1 dealt to the holder, the 4
    rocket to the Commander and never swapped."""
    holder, partner = made.holder, made.partner
    others = [s for s in range(deal.players) if s != seat]
    for split in distinct_orders(sorted(scan(deal.cards & ~deal.hands[seat])), [popcount(deal.hands[s]) for s in others]):
        dealt = list(deal.hands)
        for s, cards in zip(others, split):
            dealt[s] = cards
        if not dealt[holder] & bit(VESPA_CARD) or not commander_holds_r4(dealt, deal.commander):
            continue
        knows_swap = seat in (holder, partner)
        gives = [made.given] if knows_swap else scan(dealt[holder] & ~bit(COMMANDER_CARD))
        takes = [made.taken] if knows_swap else scan(dealt[partner] & ~bit(COMMANDER_CARD))
        for given_card, taken in itertools.product(gives, takes):
            if dealt[holder] >> given_card & 1 and dealt[partner] >> taken & 1:
                yield swap(Deal(tuple(dealt), deal.commander), (), holder, given_card, partner, taken)[1].hands


def brute_force(deal: Deal, made: VespaSwap, plays, shown, seat: int) -> set:
    """Return every hands-after-the-swap the rules allow, seen from `seat` (`swapped_hands`): every play legal, every
    token true."""
    found = set()
    for after in swapped_hands(deal, made, seat):
        replayed = replay(after, plays, deal.commander, NO_SKIS)
        if replayed is not None and shown_truly(replayed[0], shown):
            found.add(after)
    return found


@settings(max_examples=100, deadline=None)
@given(vespa_games(), st.data())
def test_samples_are_the_hands_the_swap_leaves_possible_each_about_as_often(game, data):
    deal, swapped, made, plays, shown = game
    mission = make_task_mission(swapped, [], owners=[])
    walked = walk(swapped, Position(plays).on(mission), to_the_end=True)
    shown = tuple(s for s in shown if s.trick <= len(walked.tricks) + 1)
    seat = data.draw(st.integers(0, deal.players - 1), label="seat")
    expected = brute_force(deal, made, plays, shown, seat)
    assert swapped.hands in expected
    known = knowledge_at(swapped, walked, plays, shown, seat=seat, placed=made.placed(seat))
    assert known.count() == len(expected)
    wanted = SAMPLES_PER_DEAL * min(len(expected), MOST_COUNTED)
    samples = decision_deals(swapped, mission, walked, plays, shown, wanted, random.Random(1), seat=seat,
                             placed=made.placed(seat))
    drawn = Counter(s.deal.hands for s in samples)
    assert_drawn_are_the_consistent(drawn, expected)


def replay_with_pass(dealt, plays, leader: int, gifts):
    """Play `plays` from the hands `dealt`, every seat giving its card of `gifts` to the seat on its left right after
    trick 1: the hands before each trick (and the one to come), or None when a play or a gift is not legal."""
    hands, held, trick = list(dealt), [tuple(dealt)], []
    for c in plays:
        seat = (leader + len(trick)) % len(hands)
        if not legal_plays(hands[seat], trick) >> c & 1:
            return None
        hands[seat] &= ~bit(c)
        trick.append(c)
        if len(trick) == len(hands):
            leader = trick_winner(leader, trick, len(hands))
            if len(held) == 1:
                if any(not hand >> gift & 1 for hand, gift in zip(hands, gifts)):
                    return None
                hands = [hand & ~bit(gift) | bit(gifts[seat - 1]) for seat, (hand, gift) in enumerate(zip(hands, gifts))]
            held.append(tuple(hands))
            trick = []
    return held


@st.composite
def vespa_pass_games(draw):
    """Mission 12 on the Vespa: a deal of three or four players, three cards a hand, holding the blue 1, a swap of
    it, a random pass after trick 1, plays past it (short of the last card) and up to two cards shown (a card shown
    before trick 1 never given: "his communicated card excluded")."""
    players = draw(st.sampled_from([3, 4]), label="players")
    dealt = draw(small_deals(min_players=players, max_players=players, min_cards=3, max_cards=3, extra_card=False))
    deal = with_vespa_card(dealt, draw(st.integers(0, players - 1), label="vespa seat"))
    holder = deal.holder(VESPA_CARD)
    partner = draw(st.sampled_from([s for s in range(players) if s != holder]), label="partner")
    given_card, taken = (draw(st.sampled_from(sorted(scan(deal.hands[s] & ~bit(COMMANDER_CARD)))), label="swapped")
                         for s in (holder, partner))
    swapped = swap(deal, (), holder, given_card, partner, taken)[1]
    random_pass = RandomPass(1, tuple(draw(st.permutations(range(CARD_COUNT)), label="order")))
    mission = replace(make_task_mission(swapped, [], owners=[]), random_pass=random_pass)
    plays = ()
    for _ in range(draw(st.integers(players, 3 * players - 1), label="plays")):
        walked = walk(swapped, Position(plays).on(mission), to_the_end=True)
        plays += (draw(st.sampled_from(sorted(scan(walked.legal))), label="card"),)
    walked = walk(swapped, Position(plays).on(mission), to_the_end=True)
    gifts = pass_gifts(swapped, mission, walked)
    held = replay_with_pass(swapped.hands, plays, swapped.commander, gifts)
    shown = tuple(c for c in cards_shown(draw, held, list(range(players))) if c.trick > 1 or c.card != gifts[c.seat])
    return deal, swapped, VespaSwap(holder, partner, given_card, taken, (), (), (), ()), mission, plays, shown


def pass_brute_force(deal: Deal, made: VespaSwap, plays, shown, seat: int, gifts) -> set:
    """Return every (hands after the swap, gifts) the rules allow, seen from `seat`: over every hands after the swap
    (`swapped_hands`) and every gift of the other seats (not a card shown before trick 1), the seat's own and the one
    it got as they were; every play legal, every token true."""
    players = deal.players
    now = replay_with_pass(swap(deal, (), made.holder, made.given, made.partner, made.taken)[1].hands, plays,
                           deal.commander, gifts)[-1][seat]
    barred = [card_set(c.card for c in shown if c.seat == s and c.trick == 1) for s in range(players)]
    first = card_set(plays[:players])
    found = set()
    for after in swapped_hands(deal, made, seat):
        options = [[gifts[s]] if s in (seat, (seat - 1) % players) else scan(after[s] & ~first & ~barred[s])
                   for s in range(players)]
        for world_gifts in itertools.product(*options):
            held = replay_with_pass(after, plays, deal.commander, world_gifts)
            if held is not None and held[-1][seat] == now and shown_truly(held, shown):
                found.add((after, tuple(world_gifts)))
    return found


@settings(max_examples=60, deadline=None)
@given(vespa_pass_games(), st.data())
def test_after_the_swap_and_mission_12_s_pass_the_samples_are_the_worlds_each_about_as_often(game, data):
    # The Vespa's swap before trick 1, then "right after trick 1 every player gives one card chosen uniformly at
    # random from his hand (his communicated card excluded) to the next player": what the swap told a player of the
    # hands as dealt holds of the cards each kept or gave in the pass.
    deal, swapped, made, mission, plays, shown = game
    walked = walk(swapped, Position(plays).on(mission), to_the_end=True)
    shown = tuple(s for s in shown if s.trick <= len(walked.tricks) + 1)
    gifts = pass_gifts(swapped, mission, walked)
    seat = data.draw(st.integers(0, deal.players - 1), label="seat")
    expected = pass_brute_force(deal, made, plays, shown, seat, gifts)
    assert (swapped.hands, gifts) in expected
    wanted = SAMPLES_PER_DEAL * min(len(expected), MOST_COUNTED)
    samples = decision_deals(swapped, mission, walked, plays, shown, wanted, random.Random(1), seat=seat,
                             placed=made.placed(seat))
    drawn = Counter((s.deal.hands, s.random_pass.order[: deal.players]) for s in samples)
    assert_drawn_are_the_consistent(drawn, expected)


def test_every_player_knows_the_blue_1_lies_with_one_of_the_two():
    # Seat 0 holds the blue 1 and swaps with seat 1 (everyone sees it choose seat 1): seat 2, before trick 1,
    # finds b1 in seat 0's or seat 1's hand in every sample, in both; seat 1, which got p1 for g1, finds g1 and b1
    # with seat 0; seat 0, which gave p1, finds it with seat 1.
    deal = parse_deal("b1 p1 y1 r4 | g1 g2 g3 p2 | b2 b3 y2 y3 | p3 y4 g4 b4", 0)
    made = VespaSwap(0, 1, parse_card("p1"), parse_card("g1"), (), (), (), ())
    swapped = swap(deal, (), 0, made.given, 1, made.taken)[1]
    mission = make_task_mission(swapped, [], owners=[])
    walked = walk(swapped, Position().on(mission))
    holders = {s: Counter() for s in range(3)}
    for seat in range(3):
        for sample in decision_deals(swapped, mission, walked, (), (), 60, random.Random(seat), seat=seat,
                                     placed=made.placed(seat)):
            holders[seat][sample.deal.holder(VESPA_CARD)] += 1
            if seat == 1:
                assert sample.deal.hands[0] >> made.taken & 1
            if seat == 0:
                assert sample.deal.hands[1] >> made.given & 1
    assert set(holders[2]) == {0, 1} and set(holders[1]) == {0} and set(holders[0]) == {0}
    assert made.placed(2) == Placed(among=((0b011, VESPA_CARD),))


def test_the_member_given_the_blue_1_knows_only_the_card_it_gave():
    # Seat 0 gives seat 1 the blue 1 itself for g1: seat 1 knows g1 lies with seat 0 and nothing more of its hand;
    # the hands it leaves possible are those of the brute force.
    deal = parse_deal("b1 p1 y1 r4 | g1 g2 g3 p2 | b2 b3 y2 y3", 0)
    made = VespaSwap(0, 1, VESPA_CARD, parse_card("g1"), (), (), (), ())
    swapped = swap(deal, (), 0, made.given, 1, made.taken)[1]
    walked = walk(swapped, Position().on(make_task_mission(swapped, [], owners=[])))
    assert made.placed(1) == Placed(held=((0, bit(made.taken)),))
    known = knowledge_at(swapped, walked, (), (), seat=1, placed=made.placed(1))
    assert known.count() == len(brute_force(deal, made, (), (), 1)) == 15  # 2 of p1 y1 b2 b3 y2 y3 beside r4 and g1


@st.composite
def vespa_deals_and_missions(draw):
    """A small deal holding the blue 1 and a mission of fixed owners on it."""
    deal = draw(small_deals(min_players=3, max_players=4, max_cards=3))
    deal = with_vespa_card(deal, draw(st.integers(0, deal.players - 1), label="vespa seat"))
    return deal, draw(missions_for(deal, drafted=False))


@settings(max_examples=20, deadline=None)
@given(vespa_deals_and_missions(), st.integers(0, 2**16))
def test_the_kernel_plays_the_vespa_game_the_reference_plays(drawn, seed):
    # one table a game (GameTables) over every sampled deal, the swap's solves included
    deal, mission = drawn
    setups, space = [Setup("", mission)], parse_space("vespa")
    reference = play_game(deal, setups, samples=3, seed=seed, limits=Limits(), space=space)
    kernel = play_game(deal, setups, samples=3, seed=seed, solve=GameTables(KERNEL), limits=Limits(), space=space)
    assert kernel == reference
    made = reference.vespa
    assert made.holder == deal.holder(VESPA_CARD) and made.partner != made.holder
    after = swap(deal, (), made.holder, made.given, made.partner, made.taken)[1]
    assert walk(after, reference.mission).hands == reference.walked.hands  # the game plays the deal after the swap


def test_crew_play_prints_the_swap():
    args = ["play", "--mission", "planet-nine/8", "--players", "4", "--seed", "0", "--space", "vespa", "--samples",
            "4"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    line = next(line for line in result.stdout.splitlines() if line.startswith("the Vespa: "))
    answer = json.loads(CliRunner().invoke(main, [*args, "--json"]).stdout)["vespa"]
    assert line.startswith(f"the Vespa: seat {answer['holder']} gives {answer['given']} to seat {answer['partner']} "
                           f"for {answer['taken']} (seat {answer['holder']}'s offers: ")
    assert answer["given"] != format_card(COMMANDER_CARD) != answer["taken"]  # "The 4-heli may not be exchanged."


def test_crew_play_makes_the_swap_before_mission_12_s_random_pass():
    args = ["play", "--mission", "planet-nine/12", "--players", "4", "--seed", "1", "--space", "vespa", "--samples",
            "2"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    swapped = next(k for k, line in enumerate(lines) if line.startswith("the Vespa: "))
    passed = next(k for k, line in enumerate(lines) if line.startswith("  then the random pass: "))
    assert swapped < passed
