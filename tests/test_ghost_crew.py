"""What a player knows with the Ghost (JARVIS), two players (solver/missions/ghost_knowledge.py), by enumeration.

Journey's two-player game: "Lay 7 of them face down in a row next to each other. Lay the remaining 7 face up in a
row on top of the face-down cards"; "When Ghost must play a card to the trick, the Scout may only choose cards that
lie face up in Ghost's display. Face-down cards are treated as though they did not exist. After the trick, the
Scout reveals the face-down card underneath"; the set-aside card (the 4-heli; Planet Nine's rockets) is never in
the display. "The Scout controls Ghost and makes all decisions for him".

Random small deals with a display of two or four cards, a random set-aside set, random legal play and random cards
shown by the two players. For the player who decides (the Ghost's controller at his turn), every world (the other
player's hand and the card under each covered column) is enumerated by brute force and checked against the rules
themselves (every play legal, the Ghost playing face-up cards, every token true, no set-aside card in the
display); the crew's samples are exactly those worlds, counted exactly and drawn about equally often. The crew
then plays two-player games the kernel plays as the reference does, the Ghost never communicates, and `crew play`
shows the display.
"""

import itertools
import json
import math
import random
from collections import Counter
from dataclasses import dataclass, field, replace

import pytest
from click.testing import CliRunner
from conftest import small_deals
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from test_hang_glider_crew import legal_with_a_card_aside
from test_knowledge import (
    MOST_COUNTED,
    SAMPLES_PER_DEAL,
    assert_drawn_are_the_consistent,
    cards_shown,
    commander_holds_r4,
    shown_truly,
)
from test_vespa_crew import with_vespa_card

from cli.main import main
from solver.core.cards import CARD_COUNT, bit, card_set, parse_card, parse_card_list, popcount, scan
from solver.core.deal import COMMANDER_CARD, Deal
from solver.core.rules import legal_plays, num_tricks, trick_winner
from solver.core.solution import Limits
from solver.engines.crew import GameTables, decision_deals, ghost_moves, pass_gifts
from solver.engines.kernel import KernelSolver
from solver.engines.realistic import play_game
from solver.engines.reference import walk
from solver.engines.vespa_swap import VespaSwap
from solver.missions.ghost_knowledge import GhostSeat, covered_columns, knowledge_with_ghost
from solver.missions.knowledge import LOWEST, Communication, Placed
from solver.missions.position import Position, TrickChoices
from solver.missions.setup import Setup
from solver.missions.tasks import make_task_mission
from solver.trick.chance import RandomPass
from solver.trick.ghost import GHOST_SEAT, parse_ghost_deal
from solver.trick.spaces import parse_space
from solver.trick.spaces.vespa import VESPA_CARD, swap, swappable
from solver.trick.variants import PlayRules

KERNEL = KernelSolver(tt_bits=16)


def face_up(hand: int, display) -> int:
    """The Ghost's cards lying face up: a column's top while it is there, else the card under it."""
    columns = len(display) // 2
    return sum(bit(top if hand >> top & 1 else bottom) for top, bottom in zip(display[:columns], display[columns:])
               if hand >> top & 1 or hand >> bottom & 1)


def replay(hands, display, plays, leader: int, extra: PlayRules = PlayRules(), passes=None, gifts=()):
    """Play `plays` from `hands` (the Ghost's: his display) by the rules above (`extra`: on the hang glider, each
    player with a card set aside, test_hang_glider_crew.py; on the skis, after a trick holding a skis card the two
    players swap hands, his display staying; on the helicopter, after a trick holding a heli but the last, each seat
    passes its card of `passes[trick number]` to the left, the Ghost a face-up one, and the card he gets lies where
    his lay; likewise mission 12's random pass after trick 1; on the jeep, its exchange, `jeep_replayed`): the hands
    before each trick (and the one to come), or None when a play or a pass is not legal. With `passes` given, (those
    hands, his display now)."""
    hands, held, trick, tricks = list(hands), [], [], num_tricks(hands)
    for c in plays:
        if not trick:
            held.append(tuple(hands))
        seat = (leader + len(trick)) % 3
        if seat == GHOST_SEAT:
            allowed = legal_plays(face_up(hands[seat], display), trick)
        elif extra.hang_glider:
            allowed = legal_with_a_card_aside(hands[seat], trick, len(held) == tricks)
        else:
            allowed = legal_plays(hands[seat], trick)
        if not allowed >> c & 1:
            return None
        hands[seat] &= ~bit(c)
        trick.append(c)
        if len(trick) == 3:
            leader = (leader + trick_winner(0, trick, 3)) % 3
            if gifts and len(held) == 1:  # mission 12's random pass, before the skis and the crew's passes
                hands, display = passed_left(hands, display, gifts)
            if hands is not None and card_set(trick) & extra.skis:
                hands[0], hands[1] = hands[1], hands[0]
            if hands is not None and extra.jeep_after and len(held) == extra.jeep_after:
                hands, display = jeep_replayed(hands, display, passes[len(held)], extra.jeep_order)
            if hands is not None and card_set(trick) & extra.heli_pass and len(held) < tricks:
                hands, display = passed_left(hands, display, passes[len(held)])
            if hands is None:
                return None
            trick = []
    if not trick:
        held.append(tuple(hands))
    return held if passes is None else (held, display)


def passed_left(hands, display, given):
    """The hands and display after every seat passes its card of `given` to the seat on its left (the Ghost a
    face-up one; the card he gets lies where his lay), or (None, None) when a seat does not hold its card."""
    if not all(hands[s] & bit(g) for s, g in enumerate(given)) or not face_up(hands[2], display) & bit(
            given[GHOST_SEAT]):
        return None, None
    hands = [hands[s] & ~bit(g) | bit(given[(s - 1) % 3]) for s, g in enumerate(given)]
    return hands, tuple(given[1] if d == given[GHOST_SEAT] else d for d in display)


def jeep_replayed(hands, display, put, order):
    """The hands and display after the jeep's exchange (each seat's two cards of `put` in the middle, the Ghost's
    face up; the middle's cards, lowest first, to the seats of `order`; the two the Ghost takes, lowest first, where
    the cards he put in lay, in their order), or (None, None) when a seat does not hold its pair."""
    pairs = [put[2 * s : 2 * s + 2] for s in range(3)]
    if not all(hands[s] & card_set(pair) == card_set(pair) for s, pair in enumerate(pairs)) or \
            face_up(hands[GHOST_SEAT], display) & card_set(pairs[GHOST_SEAT]) != card_set(pairs[GHOST_SEAT]):
        return None, None
    hands = [hand & ~card_set(pair) for hand, pair in zip(hands, pairs)]
    for c, taker in zip(sorted(put), order):
        hands[taker] |= bit(c)
    took = [c for c, taker in zip(sorted(put), order) if taker == GHOST_SEAT]
    display = tuple(took[pairs[GHOST_SEAT].index(d)] if d in pairs[GHOST_SEAT] else d for d in display)
    return hands, display


@dataclass(frozen=True)
class GhostGame:
    """A two-player game (ghost_games'): the deal, the display, the cards never in it, the Ghost's controller, the
    plays, the cards shown, a space's rules (`extra`), the passes made ({trick: cards seat by seat}), the Vespa's
    swap made before trick 1 and mission 12's random pass."""

    deal: Deal
    display: tuple[int, ...]
    aside: int
    controller: int
    plays: tuple[int, ...]
    shown: tuple = ()
    extra: PlayRules = PlayRules()
    passes: dict = field(default_factory=dict)
    vespa: VespaSwap | None = None
    random_pass: RandomPass | None = None
    gifts: tuple[int, ...] = ()  # the random pass's, seat by seat (chance, not the crew's)

    def mission(self):
        return replace(ghost_mission(self.deal, self.display, self.extra), random_pass=self.random_pass)

    def position(self) -> Position:
        """The game's plays and the crew's passes."""
        return Position(self.plays, tuple(TrickChoices(passed=self.passes.get(after, ()))
                                          for after in range(1, max(self.passes, default=0) + 1)))


def ghost_mission(deal: Deal, display, extra: PlayRules = PlayRules()):
    """A mission of no task with the Ghost (and the `extra` rules of a stage space), walked to its last trick
    (`to_the_end`)."""
    return replace(make_task_mission(deal, [], owners=[]), space=replace(extra, ghost=GHOST_SEAT, display=display))


@st.composite
def ghost_games(draw, space: str = "train"):
    """A deal (the Ghost's hand laid out in two or four columns), the cards never in the display, the Ghost's
    controller, plays short of the last card, up to two cards shown by the two players (none on the hang glider:
    "Communication is forbidden"), and the rules of the `space` (the skis: a card of the players' their card;
    "random-pass": mission 12's on the train, "helicopter-random-pass" on the helicopter), as a GhostGame."""
    cards = 4 if "jeep" in space else draw(st.sampled_from([2, 4]), label="cards a hand")
    dealt = draw(small_deals(min_players=3, max_players=3, min_cards=cards, max_cards=cards, extra_card=False))
    assume(not dealt.hands[GHOST_SEAT] & bit(COMMANDER_CARD))  # set aside when the display is laid out
    r4 = [seat for seat in (0, 1) if dealt.hands[seat] & bit(COMMANDER_CARD)]
    deal = Deal(dealt.hands, r4[0] if r4 else draw(st.integers(0, 1), label="commander"))
    if space == "vespa":
        deal = with_vespa_card(deal, draw(st.integers(0, 2), label="vespa seat"))
    ghost = list(scan(deal.hands[GHOST_SEAT]))
    display = tuple(draw(st.permutations(ghost), label="display"))
    vespa = None
    if space == "vespa":  # the swap, made before trick 1: the game is played from the deal and display after it
        deal, display, vespa = vespa_swapped(draw, deal, display)
    players = sorted(scan(deal.hands[0] | deal.hands[1]))
    aside = sum(bit(c) for c in draw(st.lists(st.sampled_from(players), unique=True, max_size=3), label="aside"))
    extra = {"train": PlayRules(), "hang-glider": PlayRules(hang_glider=True),
             "skis": PlayRules(skis=bit(draw(st.sampled_from(players), label="skis"))),
             "skis-random-pass": PlayRules(skis=bit(draw(st.sampled_from(players), label="skis"))),
             "hang-glider-random-pass": PlayRules(hang_glider=True),
             "helicopter": PlayRules(heli_pass=card_set(draw(st.lists(st.sampled_from(sorted(scan(deal.cards))),
                                                                      min_size=1, max_size=3), label="helis"))),
             "helicopter-random-pass": PlayRules(heli_pass=card_set(draw(st.lists(
                 st.sampled_from(sorted(scan(deal.cards))), min_size=1, max_size=3), label="helis"))),
             "jeep-random-pass": PlayRules(jeep_after=1, jeep_order=tuple(draw(st.permutations([0, 0, 1, 1, 2, 2]),
                                                                               label="shuffle"))),
             "jeep": PlayRules(jeep_after=1, jeep_order=tuple(draw(st.permutations([0, 0, 1, 1, 2, 2]),
                                                                   label="shuffle"))),
             "vespa": PlayRules(), "random-pass": PlayRules()}[space]
    random_pass = RandomPass(1, tuple(draw(st.permutations(range(CARD_COUNT)), label="order"))) if (
        space.endswith("random-pass")) else None
    mission, position = replace(ghost_mission(deal, display, extra), random_pass=random_pass), Position()
    each = 2 if extra.jeep_after else 1

    def passed(walked):  # the pass due: any card (the jeep: two) of each hand, the Ghost's face up
        hands = (*walked.hands[:GHOST_SEAT], face_up(walked.hands[GHOST_SEAT], walked.display))
        cards = tuple(c for hand in hands for c in draw(st.lists(st.sampled_from(sorted(scan(hand))), min_size=each,
                                                                 max_size=each, unique=True), label="pass"))
        return position.choose(TrickChoices(passed=cards), len(walked.tricks))

    for _ in range(draw(st.integers(0, 3 * cards - 1), label="plays")):
        walked = walk(deal, position.on(mission), to_the_end=True)
        if walked.due:
            position = passed(walked)
            walked = walk(deal, position.on(mission), to_the_end=True)
        if not walked.legal:
            break
        position = position.then(draw(st.sampled_from(list(scan(walked.legal))), label="card"))
    walked = walk(deal, position.on(mission), to_the_end=True)
    if walked.due:
        position = passed(walked)
    passes = {after: made.passed for after, made in enumerate(position.chosen, 1) if made.passed}
    gifts = pass_gifts(deal, mission, walked)
    held, _ = replay(deal.hands, display, position.plays, deal.commander, extra, passes, gifts)
    shown = () if extra.hang_glider else cards_shown(draw, held, [0, 1])
    # the jeep: "Communicated cards may not be taken this way"; the random pass: "his communicated card excluded"
    shown = tuple(c for c in shown if c.trick > extra.jeep_after or c.card not in passes.get(extra.jeep_after, ()))
    shown = tuple(c for c in shown if c.trick > 1 or c.card not in gifts)
    controller = draw(st.integers(0, 1), label="controller")
    return GhostGame(deal, display, aside, controller, position.plays, shown, extra, passes, vespa, random_pass, gifts)


def vespa_swapped(draw, deal: Deal, display):
    """Return the deal and display after a swap drawn on the Vespa, and the swap (a VespaSwap of no weighing): "This
    applies to Ghost only if the Vespa card is face up in his display before the 1st trick. If Ghost gives up a card,
    the received card is placed in the vacated spot"; "The 4-heli may not be exchanged"."""
    holder = deal.holder(VESPA_CARD)
    assume(holder != GHOST_SEAT or VESPA_CARD in display[: len(display) // 2])
    partner = draw(st.sampled_from([seat for seat in range(3) if seat != holder]), label="member")
    given, taken = (draw(st.sampled_from(sorted(scan(swappable(deal, seat, display)))), label="swapped")
                    for seat in (holder, partner))
    _, after, shown = swap(deal, display, holder, given, partner, taken)
    return after, shown, VespaSwap(holder, partner, given, taken, (), (), (), (), shown)


def brute_force(deal: Deal, display, aside: int, plays, shown, seat: int, extra: PlayRules = PlayRules(),
                passes=None, vespa=None, gifts=()) -> set:
    """Return every world seen from player `seat`, as (the other player's hand as dealt, the display): its own hand
    as dealt and now, every card of the display it has seen face up where it lay, every play and pass legal
    (`extra`: a space's rules; `passes`, the helicopter's, and `gifts`, the random pass's, which both players see),
    every token true, no `aside` card in the display."""
    columns = len(display) // 2
    true_held, now_display = replay(deal.hands, display, plays, deal.commander, extra, passes or {}, gifts)
    true_now = true_held[-1]
    covered = covered_columns(true_now[GHOST_SEAT], now_display)  # its face-down card never seen
    turned = [column for column in range(columns) if column not in covered]
    other = 1 - seat
    unseen = deal.cards & ~deal.hands[seat] & ~card_set(display[:columns]) & ~card_set(
        display[columns + column] for column in turned)
    found = set()
    for kept in itertools.combinations(sorted(scan(unseen)), popcount(deal.hands[other])):
        rest = unseen & ~card_set(kept)
        for under in itertools.permutations(sorted(scan(rest))):
            if any(bit(c) & aside for c in under):
                continue
            world = list(display)
            for column, c in zip(covered, under):
                world[columns + column] = c
            world = tuple(world)
            hands_then = [0, 0, card_set(world)]
            hands_then[seat], hands_then[other] = deal.hands[seat], card_set(kept)
            if not commander_holds_r4(hands_then, deal.commander) or not swap_seen(vespa, other, hands_then[other]):
                continue
            for seen_passes, rules in histories(passes or {}, extra, seat, hands_then[other] | card_set(gifts), shown):
                replayed = replay(hands_then, world, plays, deal.commander, rules, seen_passes, gifts)
                if replayed is not None and replayed[0][-1][seat] == true_now[seat] and shown_truly(replayed[0], shown):
                    found.add((hands_then[other], world))
    return found


def swap_seen(vespa, other: int, hand: int) -> bool:
    """Whether the `other` player's `hand` after the Vespa's swap (`vespa`, seen whole by both players: between
    them, or with the Ghost's display) agrees with it: it holds the card it got, and before the swap it held the
    card it gave and, as the holder, the blue 1."""
    if vespa is None or other not in (vespa.holder, vespa.partner):
        return True
    got, gave = (vespa.taken, vespa.given) if other == vespa.holder else (vespa.given, vespa.taken)
    before = hand & ~bit(got) | bit(gave)
    return bool(hand & bit(got)) and (other != vespa.holder or bool(before & bit(VESPA_CARD)))


def histories(passes, extra: PlayRules, seat: int, other_hand: int, shown):
    """Yield (passes, rules) of every history of the passes that `seat` cannot tell from the true one: on the jeep,
    any pair the other player may have put in (not a card it had shown) and a shuffle that gave `seat` and the Ghost
    the cards they took; every other pass is seen whole."""
    after = extra.jeep_after
    if not after or after not in passes:
        yield passes, extra
        return
    put, other = passes[after], 1 - seat
    took = {taker: {c for c, t in zip(sorted(put), extra.jeep_order) if t == taker} for taker in (seat, GHOST_SEAT)}
    barred = card_set(c.card for c in shown if c.seat == other and c.trick <= after)
    for pair in itertools.combinations(sorted(scan(other_hand & ~barred)), 2):
        history = [*put]
        history[2 * other : 2 * other + 2] = pair
        middle = sorted(history)
        order = tuple(taker for c in middle for taker in [next((t for t in took if c in took[t]), other)])
        if took[seat] | took[GHOST_SEAT] <= set(middle) and order.count(other) == 2:
            yield {**passes, after: tuple(history)}, replace(extra, jeep_order=order)


def assert_samples_are_the_worlds(game: GhostGame):
    """The crew's samples for the player deciding at the end of `game` are exactly the worlds the brute force finds,
    counted exactly and drawn about equally often."""
    deal, display, aside, controller, plays, shown, extra, passes, vespa = (
        game.deal, game.display, game.aside, game.controller, game.plays, game.shown, game.extra, game.passes,
        game.vespa)
    mission = game.mission()
    walked = walk(deal, game.position().on(mission), to_the_end=True)
    shown = tuple(s for s in shown if s.trick <= len(walked.tricks) + 1)
    ghost = GhostSeat(controller, aside)
    seat = ghost.decider(walked.to_move)
    expected = brute_force(deal, display, aside, plays, shown, seat, extra, passes, vespa, game.gifts)
    assert (deal.hands[1 - seat], display) in expected
    wanted = SAMPLES_PER_DEAL * min(len(expected), MOST_COUNTED)
    placed = vespa.placed(seat) if vespa is not None else Placed()
    samples = decision_deals(deal, mission, walked, plays, shown, wanted, random.Random(1), ghost, placed=placed)
    assert all(s.deal.hands[seat] == deal.hands[seat] for s in samples)
    for sample in samples:  # each replays the game: the seat's hand, the Ghost's face-up cards, the random pass's
        replayed = walk(sample.deal, sample.on(game.position().on(mission)), to_the_end=True)
        assert replayed.hands[seat] == walked.hands[seat]
        assert walked.trick or face_up(replayed.hands[GHOST_SEAT], replayed.display) == face_up(
            walked.hands[GHOST_SEAT], walked.display)  # within a trick his card still covers its face-down card
        assert pass_gifts(sample.deal, sample.on(mission), replayed) == pass_gifts(deal, mission, walked)
    drawn = Counter((s.deal.hands[1 - seat], s.display) for s in samples)
    assert_drawn_are_the_consistent(drawn, expected)
    tricks = [list(zip(walked.seats[k : k + 3], plays[k : k + 3])) for k in range(0, len(plays), 3)]
    last_trick = num_tricks(deal.hands) - 1 if extra.hang_glider else -1
    swapped = any(len(trick) == 3 and card_set(c for _, c in trick) & extra.skis for trick in tricks)
    seen = ((1 - seat, walked.hands[1 - seat]),) if swapped else ()
    begun = [c for s, c in tricks[-1] if s == GHOST_SEAT] if tricks and len(tricks[-1]) < 3 else []
    hands = (*walked.hands[:GHOST_SEAT], walked.hands[GHOST_SEAT] | card_set(begun))  # his card covers till the trick ends
    known = knowledge_with_ghost(seat, hands, walked.display, tricks, shown, deal.cards, aside, deal.commander,
                                 last_trick, seen, ghost_moves(deal, mission, walked), placed)
    covered = len(covered_columns(hands[GHOST_SEAT], walked.display))
    assert known.count() * math.factorial(covered) == len(expected)


@settings(max_examples=100, deadline=None)
@given(ghost_games())
def test_samples_are_the_worlds_the_display_leaves_possible_each_about_as_often(game):
    assert_samples_are_the_worlds(game)


@settings(max_examples=60, deadline=None)
@given(ghost_games("hang-glider"))
def test_on_the_hang_glider_a_player_s_discard_leaves_room_for_its_card_set_aside_the_ghost_s_none(game):
    # The rulebook's Hang glider: "Before the 1st trick, each crew member must place 1 of their own cards face down
    # ... It is treated as though it did not exist ... The last trick consists of the face-down cards." A player
    # that does not follow a colour may hold one card of it; the Ghost sets none aside (docs/missions.md: it leaves
    # him alone), and his not following suit says nothing of his face-down cards, as on the train.
    assert_samples_are_the_worlds(game)


@settings(max_examples=60, deadline=None)
@given(ghost_games("skis"))
def test_on_the_skis_a_player_knows_both_hands_once_they_swapped(game):
    # docs/missions.md, with the Ghost: "Skis: only the two players' hands change places; the Ghost's display stays."
    # Each player has then held both hands: what is left unknown is the cards still face down.
    assert_samples_are_the_worlds(game)


@settings(max_examples=150, deadline=None)
@given(ghost_games("helicopter"))
def test_on_the_helicopter_both_players_see_every_card_passed(game):
    # docs/missions.md, with the Ghost: "Helicopter: the Ghost passes a face-up card to seat 0 and the card seat 1
    # passes him lies where his lay, so a face-down card under it stays face down until that card is played." The
    # Ghost's card and the one he gets lie face up; the card between the players is seen by its giver and its
    # receiver: the two players see every pass, and a face-down card never moves while covered.
    assert_samples_are_the_worlds(game)


@settings(max_examples=150, deadline=None)
@given(ghost_games("jeep"))
def test_on_the_jeep_both_players_see_where_every_card_went(game):
    # docs/missions.md, with the Ghost: "Jeep: the Ghost puts two face-up cards in the middle; the two he draws lie
    # in their places". The rules: "each crew member places 2 cards face down in the middle of the table. Shuffle
    # these cards and each take 2 of them back. Communicated cards may not be taken this way." Each player sees its
    # pair, the two it takes and the Ghost's: of the other player's pair, the cards it did not take back.
    assert_samples_are_the_worlds(game)


@settings(max_examples=150, deadline=None)
@given(ghost_games("vespa"))
def test_on_the_vespa_both_players_see_the_swap(game):
    # The rulebook's Vespa with the Ghost: "This applies to Ghost only if the Vespa card is face up in his display
    # before the 1st trick. If Ghost gives up a card, the received card is placed in the vacated spot." A swap
    # between the two players is seen by both; one with the Ghost leaves or joins his display face up.
    assert_samples_are_the_worlds(game)


@pytest.mark.parametrize("space", ["random-pass", "helicopter-random-pass", "jeep-random-pass", "skis-random-pass",
                                   "hang-glider-random-pass"])
@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_after_mission_12_s_random_pass_both_players_see_every_gift(space, data):
    # planet-nine.md, mission 12: "Right after trick 1 every player gives one card chosen uniformly at random from
    # his hand (his communicated card excluded) to the next player in turn order (left)"; the Ghost gives a face-up
    # card and the one he gets lies where his lay (docs/missions.md): both players see his, the one he gets, and
    # the one between them, which its giver and its receiver see; on the helicopter and the jeep (after trick 1
    # too), their passes after it; on the skis, the players' hands swap after it; on the hang glider a discard before
    # the pass bounds the hand then, not the card got in it.
    assert_samples_are_the_worlds(data.draw(ghost_games(space), label="game"))


# "put the token at its top, middle, or bottom to mean respectively that it is the highest, only, or lowest card of
# that colour in hand": a lowest card says its seat held another card of the colour then. A pass the two players
# both see may take that card away, or bring a card of the colour that is not it.
@pytest.mark.parametrize("hands, shower, heli, passed, plays", [
    # seat 0 shows p1, then passes its other pink, p6, to seat 1 after trick 1: seat 1, to play in trick 2, may no
    # longer take seat 0 to hold a pink (in the true world it holds none)
    ("p1 p6 b1 b2 | p2 p4 p7 p9 | b3 p5 / p8 p3", 0, "p1", "p6 p4 b3", "p1 p2 p5 p3 b1"),
    # seat 1 shows p1, then gets p6 from seat 0: seat 0, to lead trick 2, knows seat 1 holds p6, a pink it did not
    # hold when it showed p1, so the other pink is still among the unseen cards (p9, not the card under b4)
    ("p6 b5 b2 b3 | p1 p9 b1 b4 | g1 g2 / g3 g4", 1, "b5", "p6 b4 g2", "b5 b1 g1"),
    # the same, and seat 1 plays p6 on b2 in trick 2: a card it got since, not the other pink it held when it
    # showed p1, so the Ghost, whose turn it is, cannot hold p9 under b4 (found reading the hang glider's fix)
    ("p6 b5 b2 b3 | p1 p9 b1 b4 | g1 g2 / g3 g4", 1, "b5", "p6 b4 g2", "b5 b1 g1 b2 p6"),
], ids=["its-other-card-passed-on", "a-card-got-after-showing", "a-card-got-after-showing-then-played"])
def test_a_lowest_card_s_other_card_of_its_colour_over_a_pass(hands, shower, heli, passed, plays):
    deal, display = parse_ghost_deal(hands, commander=0)
    shown = (Communication(shower, parse_card("p1"), LOWEST, 1),)
    helicopter = PlayRules(heli_pass=bit(parse_card(heli)))
    game = GhostGame(deal, display, 0, 0, parse_card_list(plays), shown, helicopter, {1: tuple(parse_card_list(passed))})
    assert_samples_are_the_worlds(game)


def test_on_the_hang_glider_the_ghost_s_discard_caps_none_of_his_face_down_cards():
    # Trick 1: seat 0 leads y5, seat 1 follows with y7, the Ghost has no face-up yellow and plays g1; y1 turns up.
    # Both cards still face down are yellow (y2 under g2, y3 under g3): a cap on his face-down cards, as if he had
    # set a card aside, would leave the true world out.
    deal, display = parse_ghost_deal("y5 y6 p1 p2 p3 p4 | y7 y8 b1 b2 b3 b4 | g1 g2 g3 / y1 y2 y3", commander=0)
    assert_samples_are_the_worlds(GhostGame(deal, display, 0, 1, parse_card_list("y5 y7 g1"), (),
                                            PlayRules(hang_glider=True)))


@pytest.mark.parametrize("hands, plays, gift", [
    # seat 1 discards p2 on y1 holding no yellow, gets y3 in the pass, and discards p5 on y4: it held y3 then, the
    # card it set aside, so y2 (under p1) cannot be in its hand; a cap read at trick 1 alone left it room for one
    ("b5 y1 y3 y4 | p2 p3 p5 r1 | p1 p4 / y2 p6", "y1 p2 p4 y4 p5", "p3"),
    # seat 1 discards p2 on y1 (setting y8 aside), gets y3 in the pass and plays it on y4: y3 was not the card set
    # aside at trick 1, so y8 may still be its (counting y3 left no yellow for it, and no world at all)
    ("b5 y1 y3 y4 | p2 p3 p5 y8 | p1 p4 / y2 p6", "y1 p2 p4 y4 y3", "p3"),
    ("b5 y1 y3 y4 | p2 p4 p6 y8 | p1 p3 / p7 p5", "y1 p2 p3 y4 y3", "p4"),
], ids=["a-card-got-then-held", "a-card-got-then-played", "a-card-got-then-played-face-down-pinks"])
def test_on_the_hang_glider_a_card_got_in_the_pass_counts_at_a_later_discard_not_an_earlier_one(hands, plays, gift):
    # journey rules, Hang glider: "Before the 1st trick, each crew member must place 1 of their own cards face down
    # in front of themselves. It is treated as though it did not exist. Before each trick, the card may be exchanged
    # for a different one of your own cards." Mission 12's pass after trick 1 (seat 0 gives y3, seat 1 `gift`, the
    # Ghost p1): a discard bounds the hand as it is at that trick. Found by a hunt (seed 103).
    deal, display = parse_ghost_deal(hands, commander=0)
    gifts = (parse_card("y3"), parse_card(gift), parse_card("p1"))
    order = sorted(range(CARD_COUNT), key=lambda c: (c not in gifts, c))  # each hand's first card: its gift
    game = GhostGame(deal, display, 0, 0, parse_card_list(plays), extra=PlayRules(hang_glider=True),
                     random_pass=RandomPass(after=1, order=tuple(order)), gifts=gifts)
    assert pass_gifts(deal, game.mission(), walk(deal, game.position().on(game.mission()), to_the_end=True)) == gifts
    assert_samples_are_the_worlds(game)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([2, 4]).flatmap(lambda n: small_deals(min_players=3, max_players=3, min_cards=n,
                                                             max_cards=n, extra_card=False)),
       st.integers(0, 2**16), st.integers(0, 1), st.sampled_from(["train", "hang-glider", "skis", "helicopter"]))
def test_the_kernel_plays_the_two_player_game_the_reference_plays(dealt, seed, controller, space):
    # one table a game (GameTables) over every sampled display; the Ghost never shows a card; on the train, the
    # hang glider, the skis or the helicopter (the lowest card of the players' its card; the helicopter's passes
    # chosen by the crew, the Ghost's by his controller)
    assert_the_kernel_plays_as_the_reference(dealt, seed, controller, space)


@pytest.mark.parametrize("space", ["jeep", "vespa", "random-pass", "helicopter-random-pass", "jeep-random-pass",
                                   "skis-random-pass", "hang-glider-random-pass"])
@settings(max_examples=25, deadline=None)
@given(small_deals(min_players=3, max_players=3, min_cards=4, max_cards=4, extra_card=False), st.integers(0, 2**16),
       st.integers(0, 1))
def test_the_kernel_plays_the_jeep_the_vespa_and_the_random_pass_with_the_ghost_as_the_reference(space, dealt, seed,
                                                                                                 controller):
    # the jeep after trick 1; the Vespa with the blue 1 dealt to a seat the seed names: the pairs and the swap chosen
    # by the crew, the Ghost's by his controller, who also places the two cards he takes from the jeep; mission 12's
    # random pass drawn from the seed
    game = assert_the_kernel_plays_as_the_reference(dealt, seed, controller, space)
    made = game.vespa
    deal = with_vespa_card(Deal(dealt.hands, dealt.commander), seed % 3)
    display = tuple(sorted(scan(deal.hands[GHOST_SEAT])))
    if made is not None:  # "If Ghost gives up a card, the received card is placed in the vacated spot"
        assert made.holder == deal.holder(VESPA_CARD)
        assert swappable(deal, made.holder, display) & bit(made.given) and swappable(deal, made.partner, display) & bit(
            made.taken)
        assert made.display == swap(deal, display, made.holder, made.given, made.partner, made.taken)[2]
        assert game.mission.space.display == made.display  # the game goes on from the display after the swap
    elif space == "vespa":  # "only if the Vespa card is face up in his display before the 1st trick"
        assert deal.holder(VESPA_CARD) == GHOST_SEAT and VESPA_CARD not in display[: len(display) // 2]


def assert_the_kernel_plays_as_the_reference(dealt, seed: int, controller: int, space: str):
    """Play a one-task game of `dealt` (the Ghost's hand his display, in card order) on `space` with the reference
    and the kernel, 3 samples a decision from `seed`, and check they play it alike; return the reference's."""
    assume(dealt.commander != GHOST_SEAT)  # the 4 rocket is set aside before the display is laid out
    deal = Deal(dealt.hands, dealt.commander)
    if space == "vespa":
        deal = with_vespa_card(deal, seed % 3)
    display = tuple(sorted(scan(deal.hands[GHOST_SEAT])))
    task = min(scan(deal.hands[0] | deal.hands[1]))
    mission = make_task_mission(deal, [task], owners=None)
    jeep_order = tuple(random.Random(seed).sample([0, 0, 1, 1, 2, 2], 6)) if "jeep" in space else ()
    stage = space.removesuffix("random-pass").removesuffix("-") or "train"  # mission 12's pass on a space
    extra = PlayRules(hang_glider=stage == "hang-glider", skis=bit(task) if stage == "skis" else 0,
                      heli_pass=bit(task) if stage == "helicopter" else 0, jeep_after=1 if jeep_order else 0,
                      jeep_order=jeep_order)
    random_pass = RandomPass(1, tuple(random.Random(seed).sample(range(CARD_COUNT), CARD_COUNT))) if (
        space.endswith("random-pass")) else None
    setups = [Setup("", replace(mission, space=replace(extra, ghost=GHOST_SEAT, display=display),
                                random_pass=random_pass))]
    ghost = GhostSeat(controller, 0)
    stage_space = parse_space(stage)
    reference = play_game(deal, setups, samples=3, seed=seed, limits=Limits(), ghost=ghost, space=stage_space)
    assert all(s.seat != GHOST_SEAT for s in reference.shown)
    kernel = play_game(deal, setups, samples=3, seed=seed, solve=GameTables(KERNEL), limits=Limits(), ghost=ghost,
                       space=stage_space)
    assert kernel == reference
    return reference


def test_crew_play_shows_the_display_and_who_plays_it():
    # Planet Nine: "The Commander chooses JARVIS's tasks and plays one of its face-up cards on its turns"; Journey:
    # "Whoever of you draws the 4-heli is, as usual, your Guide. We call the other person the Scout. The Scout
    # controls Ghost"
    for mission, controls in (("planet-nine/8", "commander"), ("journey/yellow-for-everyone", "scout")):
        args = ["play", "--mission", mission, "--players", "2", "--seed", "3", "--samples", "2"]
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, result.output
        first = result.stdout.splitlines()[0]
        body = json.loads(CliRunner().invoke(main, [*args, "--json"]).stdout)
        commander = int(first.split("(Commander: seat ")[1][0])
        assert body["ghost_controller"] == (commander if controls == "commander" else 1 - commander)
        assert first.startswith("deal: ") and first.count("|") == 2 and " / " in first
        assert f"; seat 2's display played by seat {body['ghost_controller']}; " in first


def test_the_ghost_drafts_deep_sea_cards_and_tasks_through_his_controller():
    # "The Scout controls Ghost and makes all decisions for him": the Ghost's picks are made, not refused
    for args in (["--mission", "deep-sea/12+44+1"], ["--tasks", "p3 g5 b2"]):
        result = CliRunner().invoke(main, ["play", *args, "--players", "2", "--seed", "3", "--samples", "2", "--json"])
        assert result.exit_code == 0, result.output
        assert GHOST_SEAT in [pick["chooser"] for pick in json.loads(result.stdout)["picks"]]


def test_crew_play_rides_the_vespa_with_the_ghost_only_with_the_blue_1_face_up():
    # The rulebook's Vespa with the Ghost: "This applies to Ghost only if the Vespa card is face up in his display
    # before the 1st trick. If Ghost gives up a card, the received card is placed in the vacated spot": a card he
    # gives lies face up; the blue 1 under one of his columns, nobody swaps.
    ridden = set()
    for seed in range(1, 7):
        args = ["play", "--mission", "planet-nine/1", "--players", "2", "--space", "vespa", "--seed", str(seed),
                "--samples", "1"]
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, result.output
        top, bottom = result.stdout.splitlines()[0].split(" (")[0].split(" | ")[2].split(" / ")
        swap_made = json.loads(CliRunner().invoke(main, [*args, "--json"]).stdout).get("vespa")
        assert (swap_made is None) == ("b1" in bottom.split())
        if swap_made is not None and GHOST_SEAT in (swap_made["holder"], swap_made["partner"]):
            his = swap_made["given"] if swap_made["holder"] == GHOST_SEAT else swap_made["taken"]
            assert his in top.split()
            ridden.add(swap_made["holder"] == GHOST_SEAT)
    assert ridden == {True, False}  # he gave as the holder and as the member chosen


def test_on_the_hang_glider_a_card_given_in_the_pass_was_the_one_set_aside():
    # Trick 1: seat 0 leads y1; seat 1, holding y5 as its only yellow, sets it aside and throws g1 ("It is treated
    # as though it did not exist"); the Ghost plays b1 and y3 turns up. In mission 12's pass seat 1 gives y5 (to the
    # Ghost, face up where b1 lay): it was the one yellow seat 1 could hold in trick 1, so seat 0, to lead trick 2,
    # knows seat 1 holds no other: y4, still unseen, lies under b2.
    deal, display = parse_ghost_deal("y1 y2 p1 p2 | g1 y5 p3 p4 | b1 b2 / y3 y4", commander=0)
    order = tuple(parse_card_list("p1 y5 b2")) + tuple(c for c in range(CARD_COUNT)
                                                      if c not in parse_card_list("p1 y5 b2"))
    random_pass = RandomPass(1, order)
    plays = tuple(parse_card_list("y1 g1 b1"))
    gifts = tuple(parse_card_list("p1 y5 b2"))
    game = GhostGame(deal, display, 0, 0, plays, (), PlayRules(hang_glider=True), random_pass=random_pass, gifts=gifts)
    assert_samples_are_the_worlds(game)
