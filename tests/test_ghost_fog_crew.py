"""What a player knows under fog with the Ghost (JARVIS), two players, by enumeration.

Journey's Fog: "Deal out only X cards each (the 4-heli must be included), and after each trick draw 1 of the remaining
cards. X: the Guide receives 1 extra card right at the start." With the Ghost (docs/missions.md, our reading: the
rulebook is silent): his display is laid out whole and he draws nothing; the two players are dealt as fog says.
"Face-down cards are treated as though they did not exist. After the trick, the Scout reveals the face-down card
underneath".

Random small deals (the Ghost's display of one or two columns, two or four cards a hand), fog's draws, random legal
play (a player's card once it has arrived, the Ghost's face up) and cards shown by the players with their true
tokens, some with mission 12's random pass ("Right after trick 1 every player gives one card chosen uniformly at
random from his hand (his communicated card excluded) to the next player in turn order (left)", planet-nine.md; the
Ghost a face-up card, and the card he gets lies where his lay: docs/missions.md). For each player, every world (both
hands as they end, when each card arrived, the cards under the covered columns) is enumerated by brute force and
checked against the rules themselves, the gifts as made (both players see each: his face up, the one between them
by its giver and its receiver); the crew's samples are exactly those worlds, counted exactly and drawn about equally
often, and each replays the game with the same gifts. The kernel plays the crew's fog game with the Ghost that the
reference plays.
"""

import itertools
import random
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from test_fog_worlds import arrival_functions, commander_deal, in_hand
from test_ghost_crew import face_up, ghost_mission
from test_knowledge import MOST_COUNTED, SAMPLES_PER_DEAL, assert_drawn_are_the_consistent, true_token
from test_pass_worlds import splits

from cli.main import main
from solver.core.cards import CARD_COUNT, COLOURS, bit, card_set, popcount, scan, suit_of
from solver.core.deal import COMMANDER_CARD
from solver.core.rules import legal_plays
from solver.core.solution import Limits
from solver.engines.crew import GameTables, decision_deals, pass_gifts
from solver.engines.kernel import KernelSolver
from solver.engines.realistic import play_game
from solver.engines.reference import walk
from solver.missions.ghost_knowledge import GhostSeat, covered_columns
from solver.missions.knowledge import Communication
from solver.missions.position import Position
from solver.missions.setup import Setup
from solver.missions.tasks import make_task_mission
from solver.trick.chance import RandomPass
from solver.trick.ghost import GHOST_SEAT
from solver.trick.spaces.fog import fog_arrivals
from solver.trick.variants import PlayRules

KERNEL = KernelSolver(tt_bits=16)


@st.composite
def ghost_fog_games(draw):
    """A deal of two or four cards a hand (the Guide, a player, dealt the 4 rocket), fog's draws with X cards dealt,
    the Ghost's display, the cards never in it (`aside`), maybe mission 12's random pass (four cards a hand, two or
    three dealt: fog=1 is refused with it), plays short of the last card and up to two cards shown by the players
    (none before trick 1 that its seat gave in the pass: "his communicated card excluded"): (deal, arrivals, display,
    aside, plays, shown, the random pass or None)."""
    passing = draw(st.booleans(), label="random pass")
    size = 4 if passing else draw(st.sampled_from([2, 4]), label="size")
    deal = commander_deal(draw, 3, size)
    assume(deal.commander != GHOST_SEAT)
    cards = draw(st.integers(1 + passing, size - 1), label="fog cards")
    arrivals = fog_arrivals(deal, cards, np.random.default_rng(draw(st.integers(0, 2**16), label="draws")), GHOST_SEAT)
    display = tuple(draw(st.permutations(sorted(scan(deal.hands[GHOST_SEAT]))), label="display"))
    players = sorted(scan(deal.hands[0] | deal.hands[1]))
    aside = card_set(draw(st.lists(st.sampled_from(players), unique=True, max_size=2), label="aside"))
    random_pass = RandomPass(1, tuple(draw(st.permutations(range(CARD_COUNT)), label="order"))) if passing else None
    mission = replace(ghost_mission(deal, display, PlayRules(arrivals=arrivals)), random_pass=random_pass)
    position, shown = Position(), []
    for _ in range(draw(st.integers(0, 3 * size - 1), label="plays")):
        walked = walk(deal, position.on(mission), to_the_end=True)
        if not walked.trick and len(shown) < 2 and draw(st.booleans(), label="show"):
            seat = draw(st.sampled_from([s for s in (0, 1) if s not in [c.seat for c in shown]]), label="seat")
            colours = [c for c in scan(walked.hands[seat]) if suit_of(c) in COLOURS]
            if colours:
                c = draw(st.sampled_from(colours), label="shown")
                token = true_token(walked.hands[seat], c) if draw(st.booleans(), label="token") else None
                shown.append(Communication(seat, c, token, len(walked.tricks) + 1))
        position = position.then(draw(st.sampled_from(sorted(scan(walked.legal))), label="card"))
    gifts = pass_gifts(deal, mission, walk(deal, position.on(mission), to_the_end=True))
    shown = tuple(c for c in shown if c.trick > 1 or c.card not in gifts)
    return deal, arrivals, display, aside, position.plays, shown, random_pass


def consistent(final, arrival, display, tricks, shown, guide: int, gifts=()) -> bool:
    """Return True when the hands as they end, the arrivals and the display make every play legal (a player's from
    the cards arrived by then, the Ghost's from his face-up cards) and every token true, the Guide dealt the 4
    rocket; with mission 12's `gifts` (seat by seat), each one its giver held after trick 1 (before the draws), not
    a card it showed before trick 1 unless its only one, the Ghost's face up, and the hands and display after it as
    the pass leaves them."""
    if not final[guide] >> COMMANDER_CARD & 1 or arrival[COMMANDER_CARD] != 0:
        return False
    ghost_left = card_set(display)

    def hand_of(t: int, number: int) -> int:  # a player's hand during trick `number`
        hand = in_hand(final[t], arrival, tricks, number)
        if gifts and number > 1:
            gone = card_set(c for trick in tricks[: number - 1] for _, c in trick)
            hand = hand & ~bit(gifts[t]) | bit(gifts[t - 1]) & ~gone
        return hand

    for number, trick in enumerate(tricks, 1):
        for s in shown:
            hand = hand_of(s.seat, number)
            if s.trick == number and (not hand >> s.card & 1 or s.token is not None and true_token(hand, s.card) != s.token):
                return False
        for k, (t, c) in enumerate(trick):
            led = [card for _, card in trick[:k]]
            if t == GHOST_SEAT:
                hand = face_up(ghost_left, display)
                ghost_left &= ~bit(c)
            else:
                hand = hand_of(t, number) & ~card_set(led)
            if not legal_plays(hand, led) >> c & 1:
                return False
        if gifts and number == 1 and len(trick) == 3:  # the pass, before the draws: from the cards dealt
            trick_1 = card_set(c for _, c in trick)
            kept = [card_set(c for c in scan(final[t]) if arrival[c] == 0) & ~trick_1 for t in (0, 1)]
            kept.append(face_up(ghost_left, display))
            if any(not kept[t] >> gifts[t] & 1 for t in range(3)):
                return False
            if any(s.trick == 1 and s.card == gifts[s.seat] and kept[s.seat] != bit(s.card) for s in shown):
                return False
            display = tuple(gifts[1] if d == gifts[GHOST_SEAT] else d for d in display)
            ghost_left = ghost_left & ~bit(gifts[GHOST_SEAT]) | bit(gifts[1])
    return True


def worlds_by_brute_force(deal, arrivals, display, aside: int, tricks, shown, seat: int, gifts=()) -> set:
    """Return every world seen from player `seat`, as (both players' hands as they end, the display, each card's
    arrival): its own cards arrived so far with their arrivals, the Ghost's face-up cards and every face-down card
    turned up where they lie, no `aside` card under a column; mission 12's `gifts` made, every one seen."""
    after = sum(1 for trick in tricks if len(trick) == 3)
    other = 1 - seat
    columns = len(display) // 2
    played = card_set(c for trick in tricks for _, c in trick)
    now = tuple(gifts[1] if d == gifts[GHOST_SEAT] else d for d in display) if gifts else display
    ghost_now = card_set(now) & ~played
    covered = covered_columns(ghost_now | card_set(c for t, c in tricks[-1] if t == GHOST_SEAT) if tricks and len(
        tricks[-1]) < 3 else ghost_now, now)
    seen = {c: arrivals[c] for c in scan(deal.hands[seat]) if arrivals[c] <= after}
    hidden = card_set(display[columns + column] for column in covered)
    rest = deal.cards & ~card_set(seen) & ~card_set(display) | hidden
    dealt = [sum(1 for c in scan(hand) if arrivals[c] == 0) for hand in deal.hands]
    draws = [popcount(hand) - count for hand, count in zip(deal.hands, dealt)]
    sizes = [0, 0]
    sizes[seat], sizes[other] = popcount(deal.hands[seat]) - len(seen), popcount(deal.hands[other])
    found = set()
    for split in splits(rest, [*sizes, len(covered)]):
        if split[2] & aside:
            continue
        mine = [{**seen, **dict(zip(order, range(after + 1, draws[seat] + 1)))}
                for order in itertools.permutations(sorted(scan(split[seat])))]
        theirs = list(arrival_functions(sorted(scan(split[other])), dealt[other], draws[other]))
        for under in itertools.permutations(sorted(scan(split[2]))):
            world = list(display)
            for column, c in zip(covered, under):
                world[columns + column] = c
            for own, history in itertools.product(mine, theirs):
                arrival = [0] * CARD_COUNT
                for c, at in (*own.items(), *history.items()):
                    arrival[c] = at
                final = [0, 0, card_set(world)]
                final[seat], final[other] = split[seat] | card_set(seen), split[other]
                if consistent(final, arrival, tuple(world), tricks, shown, deal.commander, gifts):
                    found.add((tuple(final[:2]), tuple(world), tuple(arrival)))
    return found


@settings(max_examples=60, deadline=None)
@given(ghost_fog_games(), st.integers(0, 2**16))
def test_fog_worlds_with_the_ghost_are_the_consistent_ones_drawn_uniformly(game, seed):
    deal, arrivals, display, aside, plays, shown, random_pass = game
    mission = replace(ghost_mission(deal, display, PlayRules(arrivals=arrivals)), random_pass=random_pass)
    walked = walk(deal, Position(plays).on(mission), to_the_end=True)
    tricks = [list(zip(walked.seats[k : k + 3], plays[k : k + 3])) for k in range(0, len(plays), 3)]
    shown = tuple(s for s in shown if s.trick <= len(walked.tricks) + 1)
    truth_arrivals = tuple(arrivals[c] if deal.cards >> c & 1 else 0 for c in range(CARD_COUNT))
    gifts = pass_gifts(deal, mission, walked)
    for seat in (0, 1):
        expected = worlds_by_brute_force(deal, arrivals, display, aside, tricks, shown, seat, gifts)
        assert (deal.hands[:2], display, truth_arrivals) in expected
        count = SAMPLES_PER_DEAL * len(expected) if len(expected) <= MOST_COUNTED else 40
        samples = decision_deals(deal, mission, walked, plays, shown, count, random.Random(seed + seat),
                                 GhostSeat(seat, aside), seat=seat)
        drawn = Counter((s.deal.hands[:2], s.display, s.arrivals) for s in samples)
        assert_drawn_are_the_consistent(drawn, expected)
        for sample in samples if gifts else ():  # each replays the plays, making the pass that was made
            played = sample.on(mission)
            assert pass_gifts(sample.deal, played, walk(sample.deal, Position(plays).on(played), to_the_end=True)) == gifts


@settings(max_examples=20, deadline=None)
@given(ghost_fog_games(), st.integers(0, 2**16), st.integers(0, 1))
def test_the_kernel_plays_the_fog_game_with_the_ghost_the_reference_plays(game, seed, controller):
    deal, arrivals, display, *_, random_pass = game
    task = min(scan(deal.hands[0] | deal.hands[1]))
    mission = make_task_mission(deal, [task], owners=None, random_pass=random_pass)
    setups = [Setup("", replace(mission, space=PlayRules(arrivals=arrivals, ghost=GHOST_SEAT, display=display)))]
    ghost = GhostSeat(controller, 0)
    reference = play_game(deal, setups, samples=3, seed=seed, limits=Limits(), ghost=ghost)
    kernel = play_game(deal, setups, samples=3, seed=seed, solve=GameTables(KERNEL), limits=Limits(), ghost=ghost)
    assert kernel == reference


@pytest.mark.parametrize("mission", ["3", "12"])
def test_crew_play_on_fog_with_the_ghost(mission):
    # "Deal out only X cards each": the players' first trick is played from the cards dealt; mission 12's random
    # pass follows it
    args = ["play", "--mission", f"planet-nine/{mission}", "--players", "2", "--space", "fog", "--seed", "2",
            "--samples", "2"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "on the fog; seat 2's display played by seat " in result.stdout and "trick  1:" in result.stdout
    assert ("then the random pass: seat 0 gives " in result.stdout) == (mission == "12")
