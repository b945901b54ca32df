"""What a player knows on the skis (solver/engines/crew.py, `hands_moved`), by enumeration on small deals.

The rulebook's Skis: "If the skis (blue 7) are in the trick, each crew member passes all of their own cards
(including communicated cards) to the left after the trick. Whoever won the trick opens the next trick as
normal." Hands move whole, so a player knows every hand it has held, and what play revealed of a hand (a void, a
token) goes with it to its next holder.

Random small deals with a random skis card, random legal play (the hands passed on after each trick holding the
skis card) and random cards shown. For every seat to move, every deal is enumerated by brute force and checked
against the rules themselves (every play legal in the hand its seat held at the time, every token true of the
hand it was shown from, the seat's own hand at every trick as it was); the crew's samples are exactly those deals,
counted exactly and drawn about equally often (every deal gives the 4 rocket to the Commander). The kernel, one table a game, plays the crew's game on the skis
that the reference plays, and `crew play` says when the hands move.
"""

import itertools
import random
from collections import Counter
from dataclasses import replace

from click.testing import CliRunner
from conftest import deals_and_missions, small_deals
from crew_games import assert_the_kernel_plays_the_reference_game
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

from cli.main import main
from solver.core.cards import bit, parse_card, parse_card_list, popcount, scan
from solver.core.deal import Deal, parse_deal
from solver.core.rules import legal_plays, trick_winner
from solver.engines.crew import decision_deals, knowledge_at
from solver.engines.reference import walk
from solver.missions.knowledge import ONLY, Communication
from solver.missions.position import Position
from solver.missions.setup import Setup
from solver.missions.tasks import make_task_mission
from solver.trick.variants import PlayRules


def skis_mission(deal: Deal, skis: int):
    """A mission of no task on the skis, walked to its last trick (`to_the_end`)."""
    return replace(make_task_mission(deal, [], owners=[]), space=PlayRules(skis=skis))


def replay(dealt, plays, leader: int, skis: int):
    """Play `plays` from the hands `dealt` by the rules above: return the hands each seat held before each trick
    (and the one to come), the tricks as (seat, card) lists, the hands now; None when a play is not legal."""
    hands, players = list(dealt), len(dealt)
    held, tricks, trick = [tuple(hands)], [], []
    for c in plays:
        seat = (leader + len(trick)) % players
        if not legal_plays(hands[seat], [card for _, card in trick]) >> c & 1:
            return None
        hands[seat] &= ~bit(c)
        trick.append((seat, c))
        if len(trick) == players:
            leader = trick_winner(leader, [card for _, card in trick], players)
            if any(bit(card) & skis for _, card in trick):
                hands = hands[-1:] + hands[:-1]  # seat s + 1 gets seat s's hand
            tricks.append(trick)
            held.append(tuple(hands))
            trick = []
    return held, tricks + ([trick] if trick else []), tuple(hands)


@st.composite
def skis_games(draw):
    """A deal, its skis card, plays from trick 1 (short of the last card) and up to two cards shown, each by a
    different seat before a trick up to the next one, with its true token (or none)."""
    deal = draw(small_deals(min_players=3, max_players=4, min_cards=3, max_cards=4, extra_card=False))
    skis = bit(draw(st.sampled_from(sorted(scan(deal.cards))), label="skis"))
    plays = drawn_plays(draw, deal, skis_mission(deal, skis), deal.players)
    held, _, _ = replay(deal.hands, plays, deal.commander, skis)
    return deal, skis, plays, cards_shown(draw, held, list(range(deal.players)))


def drawn_plays(draw, deal: Deal, mission, least: int) -> tuple[int, ...]:
    """Random legal plays of `mission` on `deal` from trick 1, at least `least` of them and short of the last card."""
    plays = ()
    for _ in range(draw(st.integers(least, popcount(deal.cards) - 1), label="plays")):
        legal = walk(deal, Position(plays).on(mission), to_the_end=True).legal
        plays += (draw(st.sampled_from(list(scan(legal))), label="card"),)
    return plays


def brute_force(deal: Deal, skis: int, plays, shown, seat: int) -> set:
    """Return every deal (hands as dealt) that the rules allow, seen from `seat`: every play legal, every token
    true, and `seat` holding before every trick so far the hand it truly held.

    Only deals where each card played was dealt to the hand that played it are tried (and `seat`'s hand now is its
    own): the hands move after the same tricks in every deal, those holding a skis card, so in any deal the rules
    allow, a play comes from the same hand as dealt."""
    players = deal.players
    true_held, tricks, now = replay(deal.hands, plays, deal.commander, skis)
    moves = 0
    from_hand = [0] * players  # the cards played from each hand as dealt
    for trick in tricks:
        for s, c in trick:
            from_hand[(s - moves) % players] |= bit(c)
        moves += len(trick) == players and any(bit(c) & skis for _, c in trick)
    mine = (seat - moves) % players
    rest = [d for d in range(players) if d != mine]
    left = deal.cards & ~sum(from_hand) & ~now[seat]
    found = set()
    for split in distinct_orders(sorted(scan(left)), [popcount(deal.hands[d] & ~from_hand[d]) for d in rest]):
        dealt = [0] * players
        dealt[mine] = now[seat] | from_hand[mine]
        for d, cards in zip(rest, split):
            dealt[d] = cards | from_hand[d]
        replayed = replay(tuple(dealt), plays, deal.commander, skis)
        if replayed is None or not commander_holds_r4(dealt, deal.commander):
            continue
        held = replayed[0]
        if any(then[seat] != truly[seat] for then, truly in zip(held, true_held)):
            continue
        if shown_truly(held, shown):
            found.add(tuple(dealt))
    return found


def distinct_orders(cards, sizes):
    """Yield every way to deal `cards` into hands of `sizes` (as card masks)."""
    if not sizes:
        yield ()
        return
    for hand in itertools.combinations(cards, sizes[0]):
        rest = [c for c in cards if c not in hand]
        for others in distinct_orders(rest, sizes[1:]):
            yield (sum(bit(c) for c in hand), *others)


@settings(max_examples=100, deadline=None)
@given(skis_games())
def test_samples_are_the_deals_the_skis_leave_possible_each_about_as_often(game):
    deal, skis, plays, shown = game
    mission = skis_mission(deal, skis)
    walked = walk(deal, Position(plays).on(mission), to_the_end=True)
    held, tricks, now = replay(deal.hands, plays, deal.commander, skis)
    assert walked.hands == now and not walked.ended  # the reference plays the skis as the rules above do
    shown = tuple(s for s in shown if s.trick <= len(walked.tricks) + 1)
    expected = brute_force(deal, skis, plays, shown, walked.to_move)
    assert deal.hands in expected
    known = knowledge_at(deal, walked, plays, shown, skis)
    assert known.count() == len(expected)
    wanted = SAMPLES_PER_DEAL * min(len(expected), MOST_COUNTED)
    drawn = Counter(s.deal.hands for s in decision_deals(deal, mission, walked, plays, shown, wanted, random.Random(1)))
    assert_drawn_are_the_consistent(drawn, expected)


def test_a_hand_keeps_its_void_and_its_token_when_it_moves_on():
    # Seat 2 shows p3 as its only pink before trick 1 ("the highest, only, or lowest card of that colour in
    # hand"). Seat 0 leads b7, the skis; seat 1 throws g1 on it ("only a player who has no card of the type led
    # may play any card of their choice"): no blue. Seat 0 wins, and every hand passes to the left. Seat 0, to
    # lead trick 2, holds seat 3's old hand and knows its own old one (now seat 1's) whole; of p2 y2 g2 p3, p3
    # lies in seat 2's old hand (now seat 3's) with no other pink, so p2 in seat 1's old hand (now seat 2's), and
    # y2 and g2 one each: two deals.
    deal = parse_deal("b7 p1 y1 | g1 p2 y2 | b6 p3 g2 | b5 p4 g3", 0)
    skis = bit(parse_card("b7"))
    mission = skis_mission(deal, skis)
    plays = tuple(parse_card_list("b7 g1 b6 b5"))
    walked = walk(deal, Position(plays).on(mission), to_the_end=True)
    assert walked.to_move == 0 and walked.hands == tuple(deal.hands[s - 1] & ~bit(plays[s - 1]) for s in range(4))
    shown = (Communication(2, parse_card("p3"), ONLY, 1),)
    samples = decision_deals(deal, mission, walked, plays, shown, 40, random.Random(0))
    swapped = parse_deal("b7 p1 y1 | g1 p2 g2 | b6 p3 y2 | b5 p4 g3", 0)
    assert {s.deal.hands for s in samples} == {deal.hands, swapped.hands}
    assert knowledge_at(deal, walked, plays, shown, skis).count() == 2


@settings(max_examples=30, deadline=None)
@given(deals_and_missions(max_players=4, max_cards=3, drafted=False).flatmap(
    lambda case: st.tuples(st.just(case), st.sampled_from(sorted(scan(case[0].cards))))), st.integers(0, 2**16))
def test_the_kernel_plays_the_skis_game_the_reference_plays(drawn, seed):
    # one table a game (GameTables) over every sampled deal: a position's value does not depend on its deal
    (deal, mission), skis = drawn
    setups = [Setup("", replace(mission, space=PlayRules(skis=bit(skis))))]
    assert_the_kernel_plays_the_reference_game(deal, setups, seed=seed)


def test_crew_play_says_when_the_hands_move():
    args = ["play", "--mission", "journey/yellow-for-everyone", "--space", "skis", "--players", "4", "--seed", "5",
            "--samples", "2"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "; on the skis; " in lines[0]
    tricks = [k for k, line in enumerate(lines) if line.startswith("trick ")]
    skis_trick = next(k for k in tricks if ":b7 " in lines[k])  # trick 2 in this game, the game goes on
    after = tricks[tricks.index(skis_trick) + 1]
    assert lines[after - 1] == "  then the skis: every hand passes whole to the left"
    assert sum("then the skis" in line for line in lines) == 1
