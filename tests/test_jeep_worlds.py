"""What a player knows after the jeep's exchange (solver/missions/jeep_worlds.py), by enumeration.

"Jeep. After the 3rd trick, each crew member places 2 cards face down in the middle of the table. Shuffle these
cards and each take 2 of them back. Communicated cards may not be taken this way."

Random small deals (the Commander dealt the 4 rocket), random legal play before the exchange (here after trick 1 or
2, to keep the enumeration small; the rules put it after trick 3), each seat putting in two cards it has not shown,
the middle dealt out by a random shuffle, random legal play after it, cards shown with their true tokens before
any trick. For every seat, every history (the hands dealt, every seat's pair, which seat took each card of the
middle) is enumerated by brute force and checked against the rules themselves (the seat's own hand, pair and the
two it took as it saw them, every play legal in the hand of its time, every token true of the hand it was shown
from, no shown card put in); `JeepWorlds` draws only those, each about equally often.
"""

import functools
import itertools
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from test_fog_worlds import commander_deal
from test_knowledge import MOST_COUNTED, SAMPLES_PER_DEAL, assert_drawn_are_the_consistent, true_token
from test_pass_worlds import splits

from solver.core.cards import COLOURS, bit, card_set, parse_card_list, popcount, scan, suit_of
from solver.core.deal import COMMANDER_CARD, parse_deal
from solver.core.rules import legal_plays, trick_winner
from solver.missions.jeep_worlds import JeepWorlds, assignments, draw_assignment
from solver.missions.knowledge import HIGHEST, Communication


@st.composite
def jeep_games(draw):
    """A small deal and its play through an exchange: (deal, after, put, order, tricks, shown)."""
    players = draw(st.integers(3, 4), label="players")
    after = 1 if players == 4 else draw(st.integers(1, 2), label="after")
    size = after + (2 if players == 4 else draw(st.integers(2, 3), label="kept")) + (players == 3)
    deal = commander_deal(draw, players, size)
    held, shown, made = list(deal.hands), [], []

    def before_trick(tricks) -> None:
        number = len(tricks) + 1
        if number == after + 1:
            made.append(exchange(draw, held, shown))
        if draw(st.booleans(), label="show"):
            said = show(draw, held, number, [s.seat for s in shown], after >= number, size - after)
            shown.extend([said] if said is not None else [])

    tricks = random_tricks(draw, held, deal.commander, draw(st.integers(after * players, players * size),
                                                              label="plays"), before_trick)
    put, order = made[0] if made else exchange(draw, held, shown)
    return deal, after, put, order, tricks, shown


def random_tricks(draw, held, leader: int, plays: int, before_trick) -> list[list[tuple[int, int]]]:
    """Return the tricks of `plays` random legal cards from the hands `held` (played from them), `leader` leading
    trick 1, `before_trick(tricks)` called with the tricks so far before each trick begins."""
    players, tricks = len(held), []
    for _ in range(plays):
        if not tricks or len(tricks[-1]) == players:
            before_trick(tricks)
            tricks.append([])
        trick = tricks[-1]
        seat = (leader + len(trick)) % players
        c = draw(st.sampled_from(sorted(scan(legal_plays(held[seat], [c for _, c in trick])))), label="card")
        held[seat] &= ~bit(c)
        trick.append((seat, c))
        if len(trick) == players:
            leader = trick_winner(leader, [c for _, c in trick], players)
    return tricks


def exchange(draw, held, shown):
    """Make the exchange in `held`: each seat puts in two cards it has not shown, the middle dealt by a shuffle."""
    shown_cards = card_set(s.card for s in shown)
    put = []
    for seat, hand in enumerate(held):
        pair = draw(st.lists(st.sampled_from(sorted(scan(hand & ~shown_cards))), min_size=2, max_size=2, unique=True),
                    label="pair")
        put += sorted(pair, reverse=True)
        held[seat] &= ~card_set(pair)
    order = draw(st.permutations([t for t in range(len(held)) for _ in range(2)]), label="shuffle")
    for c, seat in zip(sorted(put), order):
        held[seat] |= bit(c)
    return tuple(put), tuple(order)


def show(draw, held, number: int, spoke, before: bool, left: int) -> Communication | None:
    """A card shown before trick `number` by a seat that has not spoken, with its true token or none; before the
    exchange only when each hand then holds `left` >= 3 cards, two others to put in."""
    seats = [t for t in range(len(held)) if t not in spoke]
    if not seats or before and left < 3:
        return None
    seat = draw(st.sampled_from(seats), label="seat")
    colours = [c for c in scan(held[seat]) if suit_of(c) in COLOURS]
    if not colours:
        return None
    c = draw(st.sampled_from(colours), label="shown")
    return Communication(seat, c, true_token(held[seat], c) if draw(st.booleans(), label="token") else None, number)


def history_consistent(dealt, put, order, tricks, after: int, shown, commander: int) -> bool:
    """Return True when the hands dealt, the pairs put in and the shuffle make every play legal in the hand of its
    time and every token true of the hand it was shown from, no shown card put in, the Commander dealt the r4."""
    if not dealt[commander] >> COMMANDER_CARD & 1:
        return False
    players = len(dealt)
    hands = list(dealt)
    for number in range(1, len(tricks) + 2):
        for s in shown:
            if s.trick == number and not (hands[s.seat] >> s.card & 1 and (s.token is None or
                                          true_token(hands[s.seat], s.card) == s.token)):
                return False
        if number > len(tricks):
            break
        trick = tricks[number - 1]
        for k, (t, c) in enumerate(trick):
            if not legal_plays(hands[t], [card for _, card in trick[:k]]) >> c & 1:
                return False
            hands[t] &= ~bit(c)
        if number == after:
            shown_cards = card_set(s.card for s in shown if s.trick <= after)
            for t in range(players):
                pair = card_set(put[2 * t : 2 * t + 2])
                if pair & ~hands[t] or pair & shown_cards:
                    return False
                hands[t] &= ~pair
            for c, t in zip(sorted(put), order):
                hands[t] |= bit(c)
    return True


def worlds_by_brute_force(deal, after, put, order, tricks, shown, seat):
    """Return every (hands dealt, pairs put in, shuffle) the rules allow, seen from `seat` (its hand, its pair and
    the two cards it took)."""
    players = deal.players
    took = card_set(c for c, t in zip(sorted(put), order) if t == seat)
    own_pair = put[2 * seat : 2 * seat + 2]
    sizes = [popcount(h) for h in deal.hands]
    sizes[seat] = 0
    first = [card_set(c for trick in tricks[:after] for t, c in trick if t == other) for other in range(players)]
    found = set()
    holding = [0 if t == seat else first[t] for t in range(players)]
    for split in splits(deal.cards & ~deal.hands[seat], sizes, holding):
        dealt = tuple(deal.hands[seat] if t == seat else split[t] for t in range(players))
        pairs = [[own_pair] if t == seat else [tuple(sorted(p, reverse=True)) for p in
                                               itertools.combinations(scan(dealt[t] & ~first[t]), 2)]
                 for t in range(players)]
        for chosen in itertools.product(*pairs):
            pairs_put = tuple(c for pair in chosen for c in pair)
            for shuffle in shuffles_giving(seat, took, pairs_put, players):
                if history_consistent(dealt, pairs_put, shuffle, tricks, after, shown, deal.commander):
                    found.add((dealt, pairs_put, shuffle))
    return found


def shuffles_giving(seat: int, took: int, put, players: int) -> tuple[tuple[int, ...], ...]:
    """Return the shuffles of the middle `put` that give `seat` the cards `took` (the cards it took back)."""
    return shuffles_by_places(players, seat).get(sum(1 << i for i, c in enumerate(sorted(put)) if took >> c & 1), ())


@functools.cache
def shuffles_by_places(players: int, seat: int) -> dict[int, tuple[tuple[int, ...], ...]]:
    """Return every shuffle of the middle (the seat taking each card, two each) by the places in the middle (bit i:
    its i-th lowest card) it gives `seat`, worked out once: the brute forces filtered every shuffle in every history
    (tens of millions of card sets a test)."""
    found = {}
    for shuffle in sorted(set(itertools.permutations([t for t in range(players) for _ in range(2)]))):
        places = sum(1 << i for i, t in enumerate(shuffle) if t == seat)
        found[places] = found.get(places, ()) + (shuffle,)
    return found


def jeep_worlds(deal, after, put, order, tricks, shown, seat) -> JeepWorlds:
    own_pair = card_set(put[2 * seat : 2 * seat + 2])
    first = card_set(c for trick in tricks[:after] for t, c in trick if t == seat)
    took = card_set(c for c, t in zip(sorted(put), order) if t == seat)
    kept = deal.hands[seat] & ~first & ~own_pair
    return JeepWorlds.of(seat, tricks, after, kept, own_pair, took, [popcount(h) for h in deal.hands], shown,
                         deal.cards, deal.commander)


@settings(max_examples=25, deadline=None)  # each example enumerates every history for every seat: about 1-5 s
@given(jeep_games(), st.integers(0, 2**16))
def test_jeep_worlds_are_the_consistent_histories_drawn_uniformly(game, seed):
    deal, after, put, order, tricks, shown = game
    for seat in range(deal.players):
        expected = worlds_by_brute_force(deal, after, put, order, tricks, shown, seat)
        assert (deal.hands, put, order) in expected
        count = SAMPLES_PER_DEAL * len(expected) if len(expected) <= MOST_COUNTED else 40
        worlds = jeep_worlds(deal, after, put, order, tricks, shown, seat)
        drawn = Counter(world[:3] for world in worlds.samples(random.Random(seed + seat), count))  # no gifts: ()
        assert_drawn_are_the_consistent(drawn, expected)


@given(st.lists(st.integers(1, 15), min_size=0, max_size=6), st.integers(0, 2**16))
def test_assignments_count_and_draw_every_way_once(allowed, seed):
    # Cards each with the seats that may take it (a mask of 4 seats), each seat taking as many as its room.
    cards = len(allowed)
    room = [0, 0, 0, 0]
    for k in range(cards):
        room[k % 4] += 1
    expected = {taken for taken in itertools.product(range(4), repeat=cards)
                if all(allowed[k] >> t & 1 for k, t in enumerate(taken))
                and all(taken.count(t) == room[t] for t in range(4))}
    assert assignments(tuple(allowed), tuple(room)) == len(expected)
    if expected:
        rng = random.Random(seed)
        assert {draw_assignment(tuple(allowed), tuple(room), rng) for _ in range(20 * len(expected))} == expected


def test_a_void_after_the_exchange_says_which_card_of_the_middle_a_seat_took():
    # After trick 1 (here; the rules say 3), seat 0 puts in b1 b2 and takes back the b2 and seat 2's b3. Trick 2:
    # seat 0 leads the b2 and seat 1 plays a pink: "only a player who has no card of the type led may play any card
    # of their choice", so the b1 that seat 0 put in went to seat 2, never to seat 1; seat 2 showed its g9 as its
    # highest green before trick 2, so it holds another green then (here the g2 it took back).
    deal = parse_deal("r4 b1 b2 p1 | p2 p3 p4 g1 | p5 g9 g2 b3", 0)
    card = {name: parse_card_list(name)[0] for name in "r4 p2 p5 b1 b2 b3 g1 g2 g9 p3 p4".split()}
    tricks = [[(0, card["r4"]), (1, card["p2"]), (2, card["p5"])], [(0, card["b2"]), (1, card["p3"])]]
    pairs = [(card["b1"], card["b2"]), (card["p4"], card["g1"]), (card["g2"], card["b3"])]
    put = tuple(c for pair in pairs for c in sorted(pair, reverse=True))  # each pair higher first
    takers = {card["b1"]: 2, card["b2"]: 0, card["b3"]: 0, card["g1"]: 1, card["g2"]: 2, card["p4"]: 1}
    order = tuple(takers[c] for c in sorted(put))
    shown = [Communication(2, card["g9"], HIGHEST, 2)]
    expected = worlds_by_brute_force(deal, 1, put, order, tricks, shown, 0)
    assert (deal.hands, put, order) in expected
    assert all(shuffle[sorted(pairs).index(card["b1"])] == 2 for _, pairs, shuffle in expected)
    worlds = jeep_worlds(deal, 1, put, order, tricks, shown, 0)
    drawn = Counter(world[:3] for world in worlds.samples(random.Random(7), SAMPLES_PER_DEAL * len(expected)))
    assert_drawn_are_the_consistent(drawn, expected)
