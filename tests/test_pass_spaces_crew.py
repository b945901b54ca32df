"""What a player knows on the skis and the hang glider after mission 12's random pass (solver/engines/crew.py,
`worlds_after_pass`), by enumeration on small deals.

planet-nine.md, mission 12: "Right after trick 1 every player gives one card chosen uniformly at random from his
hand (his communicated card excluded) to the next player in turn order (left)". The rulebook's Skis: "If the skis
(blue 7) are in the trick, each crew member passes all of their own cards (including communicated cards) to the
left after the trick." After trick 1 the engines make the pass first, then the skis (reference.py,
`between_tricks`): a hand passed on holds the card its holder got. A player sees the card it gave and the one it
got, and every hand it holds whole, so it knows what each hand it held since the pass kept and got. The Hang
glider: "Before the 1st trick, each crew member must place 1 of their own cards face down in front of themselves. It
is treated as though it did not exist. Before each trick, the card may be exchanged for a different one of your own
cards. The last trick consists of the face-down cards. Communication is forbidden.": a seat that does not follow a
colour may hold one card of it, before the pass or after it.

Random small deals with a random skis card (or the hang glider) and pass, random legal play from trick 1 and
random cards shown on the skis (none given in the pass: "his communicated card excluded"). For the seat to move,
every world (the hands dealt and every seat's gift) is enumerated by brute force and checked against the rules
themselves (every play legal in the hand its seat held then, with some card set aside on the hang glider but in the
last trick, every token true of the hand it was shown from, the seat holding before every trick the hand it truly
held, and giving and getting the cards it truly gave and got); the crew's samples are exactly those worlds, drawn
about equally often. The kernel, one table a game, plays the crew's game the reference plays.
"""

import itertools
import random
from collections import Counter
from dataclasses import replace

import pytest
from click.testing import CliRunner
from conftest import deals_and_missions, small_deals
from crew_games import assert_the_kernel_plays_the_reference_game
from hypothesis import given, settings
from hypothesis import strategies as st
from test_hang_glider_crew import GLIDER, legal_with_a_card_aside
from test_knowledge import (
    MOST_COUNTED,
    SAMPLES_PER_DEAL,
    assert_drawn_are_the_consistent,
    cards_shown,
    commander_holds_r4,
    shown_truly,
)
from test_skis_crew import distinct_orders, drawn_plays

from cli.main import main
from solver.core.cards import CARD_COUNT, bit, card_set, popcount, scan
from solver.core.rules import legal_plays, num_tricks, trick_winner
from solver.engines.crew import decision_deals
from solver.engines.reference import walk
from solver.missions.position import Position
from solver.missions.setup import Setup
from solver.missions.tasks import make_task_mission
from solver.trick.chance import RandomPass
from solver.trick.variants import PlayRules


def replay(dealt, plays, leader: int, space: PlayRules, gifts):
    """Play `plays` from the hands `dealt` by the rules above (`space`: the skis' cards, or the hang glider), each
    seat giving its card of `gifts` after trick 1: return the hands each seat held before each trick (and the one to
    come) and the tricks as (seat, card) lists; None when a play is not legal or a seat does not hold its gift then."""
    hands, players = list(dealt), len(dealt)
    held, tricks, trick, last = [tuple(hands)], [], [], num_tricks(dealt) - 1 if space.hang_glider else -1
    for c in plays:
        seat = (leader + len(trick)) % players
        before = [card for _, card in trick]
        allowed = legal_with_a_card_aside(hands[seat], before, len(tricks) == last) if space.hang_glider else (
            legal_plays(hands[seat], before))
        if not allowed >> c & 1:
            return None
        hands[seat] &= ~bit(c)
        trick.append((seat, c))
        if len(trick) == players:
            leader = trick_winner(leader, [card for _, card in trick], players)
            if not tricks:  # the pass first, then the skis
                if not all(hand >> gift & 1 for hand, gift in zip(hands, gifts)):
                    return None
                hands = [hand & ~bit(gifts[t]) | bit(gifts[t - 1]) for t, hand in enumerate(hands)]
            if any(bit(card) & space.skis for _, card in trick):
                hands = hands[-1:] + hands[:-1]  # seat s + 1 gets seat s's hand
            tricks.append(trick)
            held.append(tuple(hands))
            trick = []
    return held, tricks + ([trick] if trick else [])


@st.composite
def pass_games(draw, space: str):
    """A deal, a mission of no task with a random pass after trick 1 on the skis (a random skis card) or the hang
    glider, plays from trick 1 into trick 2 at least (short of the last card), and on the skis up to two cards shown
    with their true tokens, none given in the pass."""
    deal = draw(small_deals(min_players=3, max_players=4, min_cards=3, max_cards=4, extra_card=False))
    rules = GLIDER if space == "hang-glider" else PlayRules(skis=bit(draw(st.sampled_from(sorted(scan(deal.cards))),
                                                                          label="skis")))
    random_pass = RandomPass(1, tuple(draw(st.permutations(range(CARD_COUNT)), label="order")))
    mission = replace(make_task_mission(deal, [], owners=[]), space=rules, random_pass=random_pass)
    plays = drawn_plays(draw, deal, mission, deal.players + 1)
    first = card_set(plays[: deal.players])
    gifts = random_pass.given(tuple(hand & ~first for hand in deal.hands))
    held, _ = replay(deal.hands, plays, deal.commander, rules, gifts)
    shown = () if rules.hang_glider else cards_shown(draw, held, list(range(deal.players)))
    return deal, mission, plays, tuple(s for s in shown if s.trick > 1 or s.card not in gifts), gifts


def brute_force(deal, space: PlayRules, plays, shown, seat: int, gifts) -> set:
    """Return every world (hands dealt, every seat's gift) the rules allow, seen from `seat` (see the module)."""
    players = deal.players
    true_held, tricks = replay(deal.hands, plays, deal.commander, space, gifts)
    first = {s: c for s, c in tricks[0]}
    shown_first = [card_set(s.card for s in shown if s.trick == 1 and s.seat == t) for t in range(players)]
    found = set()
    rest = [t for t in range(players) if t != seat]
    for split in distinct_orders(sorted(scan(deal.cards & ~deal.hands[seat])), [popcount(deal.hands[t]) for t in rest]):
        dealt = list(deal.hands)
        for t, cards in zip(rest, split):
            dealt[t] = cards
        if not commander_holds_r4(dealt, deal.commander) or any(not dealt[t] >> c & 1 for t, c in first.items()):
            continue
        after_first = [hand & ~bit(first[t]) for t, hand in enumerate(dealt)]
        for guess in itertools.product(*[sorted(scan(hand & ~shown_first[t])) for t, hand in enumerate(after_first)]):
            if guess[seat] != gifts[seat] or guess[seat - 1] != gifts[seat - 1]:
                continue
            replayed = replay(tuple(dealt), plays, deal.commander, space, guess)
            if replayed is None or any(then[seat] != truly[seat] for then, truly in zip(replayed[0], true_held)):
                continue
            if shown_truly(replayed[0], shown):
                found.add((tuple(dealt), guess))
    return found


@pytest.mark.parametrize("space", ["skis", "hang-glider"])
@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_samples_are_the_worlds_the_pass_and_the_space_leave_possible_each_about_as_often(space, data):
    deal, mission, plays, shown, gifts = data.draw(pass_games(space), label="game")
    walked = walk(deal, Position(plays).on(mission), to_the_end=True)
    seat = walked.to_move
    expected = brute_force(deal, mission.space, plays, shown, seat, gifts)
    assert (deal.hands, gifts) in expected
    wanted = SAMPLES_PER_DEAL * min(len(expected), MOST_COUNTED)
    drawn = Counter()
    for sample in decision_deals(deal, mission, walked, plays, shown, wanted, random.Random(1)):
        hands = sample.deal.hands
        drawn[hands, sample.random_pass.given(tuple(hand & ~card_set(plays[: deal.players]) for hand in hands))] += 1
    assert_drawn_are_the_consistent(drawn, expected)


@settings(max_examples=30, deadline=None)
@given(deals_and_missions(max_players=4, max_cards=3, drafted=False).flatmap(
    lambda case: st.tuples(st.just(case), st.sampled_from(sorted(scan(case[0].cards))))),
    st.permutations(range(CARD_COUNT)), st.integers(0, 2**16), st.booleans())
def test_the_kernel_plays_the_game_with_a_pass_the_reference_plays(drawn, order, seed, glider):
    # on the skis (a card of the deal the skis) or the hang glider
    (deal, mission), skis = drawn
    space = GLIDER if glider else PlayRules(skis=bit(skis))
    setups = [Setup("", replace(mission, space=space, random_pass=RandomPass(1, tuple(order))))]
    assert_the_kernel_plays_the_reference_game(deal, setups, seed=seed)


def test_crew_play_prints_the_random_pass_before_the_skis():
    # seed 18: the skis card falls in trick 1, after which the engines make the random pass, then turn the hands
    args = ["play", "--mission", "planet-nine/12", "--space", "skis", "--players", "4", "--seed", "18", "--samples", "1"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    tricks = [k for k, line in enumerate(lines) if line.startswith("trick ")]
    after_first = lines[tricks[0] + 1 : tricks[1]]
    moves = [line for line in after_first if line.startswith("  then the ")]
    assert [line.split(":")[0] for line in moves] == ["  then the random pass", "  then the skis"]
