"""What a player knows on the helicopter (solver/missions/heli_worlds.py), by enumeration.

"Helicopter. ... If at least 1 heli is in the trick, each crew member passes 1 card to the left, simultaneously and
face down, after the trick. A communicated card may only be passed on by a player who has nothing but communicated
cards left."

Random small deals (the Commander dealt the 4 rocket), random legal play, a pass after every trick holding a rocket
but the last (each seat passing a random card, not one it has shown unless it holds nothing else), cards shown with
their true tokens before a trick. For every seat, every history (the hands dealt and every pass) is enumerated by
brute force and checked against the rules themselves (the seat's own hand and the cards it passed and got as it saw
them, every play legal in the hand of its time, every token true of the hand it was shown from, no shown card passed
from a hand holding another); `HeliWorlds` draws only those, each about equally often.
"""

import itertools
import random
from collections import Counter

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from test_fog_worlds import commander_deal
from test_jeep_worlds import random_tricks, show
from test_knowledge import MOST_COUNTED, SAMPLES_PER_DEAL, assert_drawn_are_the_consistent, true_token
from test_pass_worlds import splits

from solver.core.cards import TRUMPS, bit, card_set, parse_card_list, parse_cards, popcount, scan
from solver.core.deal import COMMANDER_CARD, parse_deal, pass_cards
from solver.core.rules import legal_plays, trick_winner
from solver.missions.heli_worlds import HeliWorlds
from solver.missions.knowledge import ONLY, Communication


@st.composite
def heli_games(draw, random_pass: bool = False):
    """A small deal and its play with the helicopter's passes: (deal, tricks, passes, shown), `passes` (the trick it
    followed, each seat's card) in order; with `random_pass`, mission 12's after trick 1 first."""
    players = draw(st.integers(3, 4), label="players")
    size = 3 if players == 4 else draw(st.integers(3, 4), label="size")
    deal = commander_deal(draw, players, size, every_rocket=True)
    held, shown, passes = list(deal.hands), [], []

    def before_trick(tricks) -> None:
        if random_pass and len(tricks) == 1:  # "his communicated card excluded", as the helicopter's rule
            passes.append((1, heli_pass(draw, held, shown)))
        if tricks and card_set(c for _, c in tricks[-1]) & TRUMPS:
            passes.append((len(tricks), heli_pass(draw, held, shown)))
        if draw(st.booleans(), label="show"):
            said = show(draw, held, len(tricks) + 1, [s.seat for s in shown], False, 0)
            shown.extend([said] if said is not None else [])

    tricks = random_tricks(draw, held, deal.commander, draw(st.integers(players + 1, players * size), label="plays"),
                           before_trick)
    if len(tricks[-1]) == players and len(tricks) < size and card_set(c for _, c in tricks[-1]) & TRUMPS:
        if draw(st.booleans(), label="pass made"):  # a position may stop before the pass or after it
            passes.append((len(tricks), heli_pass(draw, held, shown)))
    return deal, [list(t) for t in tricks], passes, shown


def heli_pass(draw, held, shown) -> tuple[int, ...]:
    """Make a pass in `held`: each seat passes a card it has not shown, unless it holds nothing else."""
    showing = card_set(s.card for s in shown)
    gifts = tuple(draw(st.sampled_from(sorted(scan(hand & ~showing or hand))), label="gift") for hand in held)
    held[:] = pass_cards(held, gifts)
    return gifts


def histories(dealt, tricks, passes, shown, seat):
    """Yield every pass history (each pass's cards) the rules allow with the hands `dealt`, seen from `seat` (its own
    gift and the card it got in each pass as in `passes`)."""
    players = len(dealt)
    afters = {}
    for after, gifts in passes:
        afters.setdefault(after, []).append(gifts)

    def passed(hands, number, k):
        """Yield the histories from the k-th pass after trick `number` on, with `hands` then."""
        if k == len(afters.get(number, ())):
            yield from replay(hands, number + 1)
            return
        true = afters[number][k]
        showing = [card_set(s.card for s in shown if s.seat == t and s.trick <= number) for t in range(players)]
        options = [[true[t]] if t in (seat, (seat - 1) % players) else list(scan(hands[t])) for t in range(players)]
        for gifts in itertools.product(*options):
            if any(not hands[t] >> c & 1 or showing[t] >> c & 1 and hands[t] & ~showing[t]
                   for t, c in enumerate(gifts)):
                continue
            for rest in passed(pass_cards(hands, gifts), number, k + 1):
                yield (gifts, *rest)

    def replay(hands, number):
        """Yield the histories from the start of trick `number` (1-based) with `hands` then."""
        for s in shown:
            if s.trick == number and not (hands[s.seat] >> s.card & 1 and (
                    s.token is None or true_token(hands[s.seat], s.card) == s.token)):
                return
        if number > len(tricks):
            yield ()
            return
        hands = list(hands)
        trick = tricks[number - 1]
        for k, (t, c) in enumerate(trick):
            if not legal_plays(hands[t], [card for _, card in trick[:k]]) >> c & 1:
                return
            hands[t] &= ~bit(c)
        yield from passed(hands, number, 0)

    yield from replay(dealt, 1)


def worlds_by_brute_force(deal, tricks, passes, shown, seat):
    """Return every (hands dealt, passes) the rules allow, seen from `seat`."""
    sizes = [popcount(h) for h in deal.hands]
    sizes[seat] = 0
    found = set()
    opening = [0 if t == seat else card_set(c for s, c in tricks[0] if s == t) if tricks else 0
               for t in range(deal.players)]  # played before any pass: in the hands dealt
    for split in splits(deal.cards & ~deal.hands[seat], sizes, opening):
        dealt = tuple(deal.hands[seat] if t == seat else split[t] for t in range(deal.players))
        if dealt[deal.commander] >> COMMANDER_CARD & 1:
            found.update((dealt, made) for made in histories(dealt, tricks, passes, shown, seat))
    return found


def heli_worlds(deal, tricks, passes, shown, seat) -> HeliWorlds:
    players = deal.players
    hands = list(deal.hands)
    for number, trick in enumerate(tricks, 1):
        for t, c in trick:
            hands[t] &= ~bit(c)
        for gifts in (gifts for after, gifts in passes if after == number):
            hands = list(pass_cards(hands, gifts))
    return HeliWorlds.of(seat, tricks, tuple(after for after, _ in passes), hands[seat],
                         tuple(g[seat] for _, g in passes), tuple(g[(seat - 1) % players] for _, g in passes),
                         [popcount(h) for h in deal.hands], shown, deal.cards, deal.commander)


@settings(max_examples=80, deadline=None)  # each example enumerates every history for every seat: 0.01-1 s
@given(heli_games(), st.integers(0, 2**16))
def test_heli_worlds_are_the_consistent_histories_drawn_uniformly(game, seed):
    assert_heli_worlds_are_the_histories(game, seed)


@settings(max_examples=60, deadline=None)
@given(heli_games(random_pass=True), st.integers(0, 2**16))
def test_with_mission_12_s_random_pass_heli_worlds_are_the_consistent_histories(game, seed):
    # planet-nine.md, mission 12: "Right after trick 1 every player gives one card chosen uniformly at random from
    # his hand (his communicated card excluded) to the next player in turn order (left)": a pass like the
    # helicopter's, made before the helicopter's after trick 1 (the engines': reference.py, `between_tricks`)
    assert_heli_worlds_are_the_histories(game, seed)


def assert_heli_worlds_are_the_histories(game, seed: int):
    deal, tricks, passes, shown = game
    assume(passes)  # before the first pass, a player knows what Knowledge says (test_knowledge.py)
    true = tuple(gifts for _, gifts in passes)
    for seat in range(deal.players):
        expected = worlds_by_brute_force(deal, tricks, passes, shown, seat)
        assert (deal.hands, true) in expected
        count = SAMPLES_PER_DEAL * len(expected) if len(expected) <= MOST_COUNTED else 40
        drawn = Counter(heli_worlds(deal, tricks, passes, shown, seat).samples(random.Random(seed + seat), count))
        assert_drawn_are_the_consistent(drawn, expected)


def test_a_void_after_the_pass_says_the_seat_passed_its_pink_on():
    # Trick 1 holds rockets, so each seat passes a card to its left: seat 0 gives the b1 to seat 1 and gets the b3
    # from seat 2. Trick 2: seat 0 leads the p1 and seat 1 plays the b2: "only a player who has no card of the type
    # led may play any card of their choice", so seat 1 held no pink after the pass: it passed on the pink it was
    # dealt (the b2 it played was dealt to it: the only card it got was the b1).
    deal = parse_deal("r4 p1 b1 | r1 p2 b2 | r2 p3 b3", 0)
    card = {name: parse_card_list(name)[0] for name in "r4 r1 r2 p1 p2 p3 b1 b2 b3".split()}
    tricks = [[(0, card["r4"]), (1, card["r1"]), (2, card["r2"])], [(0, card["p1"]), (1, card["b2"])]]
    passes = [(1, (card["b1"], card["p2"], card["b3"]))]
    expected = worlds_by_brute_force(deal, tricks, passes, [], 0)
    assert len(expected) == 2 and (deal.hands, (passes[0][1],)) in expected
    assert all(made[0][1] in (card["p2"], card["p3"]) and dealt[1] >> made[0][1] & 1 for dealt, made in expected)
    drawn = Counter(heli_worlds(deal, tricks, passes, [], 0).samples(random.Random(3), SAMPLES_PER_DEAL * 2))
    assert_drawn_are_the_consistent(drawn, expected)


def cards_of(names: str) -> dict[str, int]:
    return {name: parse_card_list(name)[0] for name in names.split()}


def test_a_card_shown_stays_with_its_seat_while_it_holds_another():
    # Seat 1 shows its p3 as its only pink before trick 1, which holds rockets: "a communicated card may only be
    # passed on by a player who has nothing but communicated cards left", so seat 1, holding the p3 and one more
    # card after trick 1, passes that one; the token says it is not the p2, so it is the b2, and one world is left.
    deal = parse_deal("r4 p1 b1 | r1 p3 b2 | r2 b3 p2", 0)
    card = cards_of("r4 r1 r2 p3 b1 b2 b3")
    tricks = [[(0, card["r4"]), (1, card["r1"]), (2, card["r2"])]]
    passes = [(1, (card["b1"], card["b2"], card["b3"]))]
    shown = [Communication(1, card["p3"], ONLY, 1)]
    expected = worlds_by_brute_force(deal, tricks, passes, shown, 0)
    assert expected == {(deal.hands, (passes[0][1],))}
    worlds = heli_worlds(deal, tricks, passes, shown, 0)
    drawn = Counter(worlds.samples(random.Random(5), SAMPLES_PER_DEAL))
    assert_drawn_are_the_consistent(drawn, expected)
    # The history where seat 1 passed its p3 anyway (the proposal never draws it: a card shown stays with its seat,
    # solver/missions/heli_worlds.py), undone from the hands now, is none.
    now = (parse_cards("p1"), parse_cards("b1 b2"), parse_cards("p2 p3"))
    assert worlds.history(now, (card["b1"], card["p3"], card["b3"]), random.Random(0)) is None


def test_a_card_passed_may_be_passed_on():
    # Both tricks hold rockets: seat 0 passes the g7 to seat 1 after trick 1, then the g1 it got; seat 1 may have
    # passed the g7 on to seat 2 after trick 2 (nothing seat 0 saw says otherwise), but then not another card: the
    # worlds hold the g7 in one hand, seat 1's or seat 2's.
    deal = parse_deal("r4 g7 r1 r2 | g5 g6 g8 g9 | g1 g3 g4 r3", 0)
    card = cards_of("r4 r1 r3 g1 g3 g4 g5 g6 g7 g8 g9")
    tricks = [[(0, card["r4"]), (1, card["g8"]), (2, card["r3"])], [(0, card["r1"]), (1, card["g9"]), (2, card["g4"])]]
    passes = [(1, (card["g7"], card["g5"], card["g1"])), (2, (card["g1"], card["g6"], card["g3"]))]
    expected = worlds_by_brute_force(deal, tricks, passes, [], 0)
    assert {made[1][1] == card["g7"] for _, made in expected} == {True, False}  # seat 1 passed it on, or kept it
    assert (deal.hands, tuple(g for _, g in passes)) in expected
    drawn = Counter(heli_worlds(deal, tricks, passes, [], 0).samples(random.Random(9), SAMPLES_PER_DEAL * len(expected)))
    assert_drawn_are_the_consistent(drawn, expected)


@pytest.mark.parametrize("hands, tricks, passes", [
    # Seat 1 shows void in pink in trick 1; seat 0 then passes it the p2, which it keeps: "every pink seat 1 held
    # after trick 1 came from seat 0".
    ("r4 p1 p2 b1 | r1 r3 g1 g2 | r2 p3 b2 b3", "p1 r1 p3 / r3 r2 r4", "p2 g1 b2 / b1 g2 b3"),
    # Seat 2 shows void in green in trick 1; seat 1 then passes it the g3, which it keeps through the second pass:
    # "it held one green at most before the second pass, come in the first".
    ("r4 g1 p1 b1 | r1 g2 g3 p2 | r2 r3 b2 b3", "g1 g2 r2 / r3 r4 r1", "p1 g3 b2 / b1 p2 b3"),
])
def test_a_void_before_two_passes_bounds_the_hand_before_the_last(hands, tricks, passes):
    deal = parse_deal(hands, 0)
    played, leader = [], deal.commander
    for cards in tricks.split(" / "):
        trick = [((leader + k) % deal.players, c) for k, c in enumerate(parse_card_list(cards))]
        played.append(trick)
        leader = trick_winner(leader, [c for _, c in trick], deal.players)
    made = [(after, tuple(parse_card_list(gifts))) for after, gifts in enumerate(passes.split(" / "), 1)]
    expected = worlds_by_brute_force(deal, played, made, [], 0)
    assert (deal.hands, tuple(g for _, g in made)) in expected
    drawn = Counter(heli_worlds(deal, played, made, [], 0).samples(random.Random(4),
                                                                   SAMPLES_PER_DEAL * min(len(expected), MOST_COUNTED)))
    assert_drawn_are_the_consistent(drawn, expected)
