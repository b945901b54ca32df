"""What a player knows after the jeep's exchange with mission 12's random pass before it (solver/missions/
jeep_worlds.py, `PassBefore`), by enumeration.

planet-nine.md, mission 12: "Right after trick 1 every player gives one card chosen uniformly at random from his
hand (his communicated card excluded) to the next player in turn order (left)". The rulebook's Jeep: "After the 3rd
trick, each crew member places 2 cards face down in the middle of the table. Shuffle these cards and each take 2 of
them back. Communicated cards may not be taken this way." A player sees the card it gave and the one it got, the two
it put in and the two it took.

Random small deals (the Commander dealt the 4 rocket), the pass after trick 1 (each seat's card drawn from its hand
less a card it showed), the exchange after trick 2 (the rules say 3; earlier keeps the enumeration small), random
legal play, cards shown with their true tokens before any trick. For 3 players, every history (the hands dealt,
every gift, every pair, the shuffle) is enumerated by brute force for every seat and checked against the rules
themselves; `JeepWorlds` draws only those, each about equally often. The gifts' chain alone (`PassBefore.draw`) is
checked against every assignment of gifts at 3-5 players. In crew games of 3-4 players, every sample at every
decision replays the game with its own pass and exchange and gives the player its hand, the gift it gave and got
and the pair it put in and took; the kernel, one table a game, plays the reference's game; `crew play` plays
mission 12 on the jeep with 3 and 4 players.
"""

import itertools
import random
from collections import Counter
from dataclasses import replace

import pytest
from click.testing import CliRunner
from crew_games import assert_the_kernel_plays_the_reference_game, every_sample, with_the_games_pass
from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_crew_passes import assert_the_exchange_seen, talk
from test_fog_worlds import commander_deal
from test_jeep_worlds import exchange, random_tricks, show, shuffles_giving
from test_knowledge import MOST_COUNTED, SAMPLES_PER_DEAL, assert_drawn_are_the_consistent, true_token
from test_pass_worlds import splits

from cli.main import main
from solver.core.cards import CARD_COUNT, COLOURS, SUIT_MASKS, bit, card_set, popcount, scan, suit_of
from solver.core.deal import COMMANDER_CARD, Deal
from solver.core.rules import legal_plays
from solver.core.solution import Limits
from solver.engines.crew import pass_gifts
from solver.engines.realistic import play_game
from solver.missions.jeep_worlds import JeepWorlds, PassBefore
from solver.missions.knowledge import LOWEST, Communication
from solver.missions.setup import Setup
from solver.missions.tasks import make_task_mission
from solver.trick.chance import RandomPass
from solver.trick.variants import PlayRules

AFTER = 2  # the exchange's trick here


@st.composite
def pass_jeep_games(draw):
    """A 3-player deal of 5-6 cards a hand played through the pass (after trick 1) and the exchange (after trick
    2): (deal, gifts, put, order, tricks, shown)."""
    deal = commander_deal(draw, 3, draw(st.integers(5, 6), label="size"))
    held, shown, made = list(deal.hands), [], {}

    def before_trick(tricks) -> None:
        number = len(tricks) + 1
        if number == 2:
            made["gifts"] = give(draw, held, shown)
        if number == AFTER + 1:
            made["exchange"] = exchange(draw, held, shown)
        if draw(st.booleans(), label="show"):
            said = show(draw, held, number, [s.seat for s in shown], AFTER >= number, popcount(held[0]) - AFTER)
            shown.extend([said] if said is not None else [])

    tricks = random_tricks(draw, held, deal.commander, draw(st.integers(AFTER * 3, 3 * popcount(deal.hands[0])),
                                                            label="plays"), before_trick)
    if "exchange" not in made:
        made["exchange"] = exchange(draw, held, shown)
    return deal, made["gifts"], *made["exchange"], tricks, shown


def give(draw, held, shown) -> tuple[int, ...]:
    """Make the random pass in `held`: each seat's card drawn from its hand less the card it showed."""
    shown_cards = card_set(s.card for s in shown)
    gifts = tuple(draw(st.sampled_from(sorted(scan(hand & ~shown_cards))), label="gift") for hand in held)
    for t, c in enumerate(gifts):
        held[t] = held[t] & ~bit(c) | bit(gifts[t - 1])
    return gifts


def hands_before_trick(dealt, gifts, put, order, tricks, number: int):
    """Return the hands before trick `number` of a history (every play, gift and pair assumed held), or None when
    a play is not legal, a seat does not hold its gift or its pair, or gives or puts in a card shown before."""
    hands = list(dealt)
    for trick in tricks[: number - 1]:
        for k, (t, c) in enumerate(trick):
            if not legal_plays(hands[t], [card for _, card in trick[:k]]) >> c & 1:
                return None
            hands[t] &= ~bit(c)
        if trick is tricks[0]:
            if any(not hand >> gift & 1 for hand, gift in zip(hands, gifts)):
                return None
            hands = [hand & ~bit(gifts[t]) | bit(gifts[t - 1]) for t, hand in enumerate(hands)]
        if trick is tricks[AFTER - 1]:
            for t in range(len(hands)):
                pair = card_set(put[2 * t : 2 * t + 2])
                if pair & ~hands[t]:
                    return None
                hands[t] &= ~pair
            for c, t in zip(sorted(put), order):
                hands[t] |= bit(c)
    return hands


def history_consistent(dealt, gifts, put, order, tricks, shown, commander: int) -> bool:
    """Return True when the history makes every play legal in the hand of its time and every token true of the hand
    it was shown from, no shown card given or put in, the Commander dealt the r4."""
    if not dealt[commander] >> COMMANDER_CARD & 1:
        return False
    if set(gifts) & {s.card for s in shown if s.trick == 1} or set(put) & {s.card for s in shown if s.trick <= AFTER}:
        return False
    for number in range(1, len(tricks) + 2):
        hands = hands_before_trick(dealt, gifts, put, order, tricks, number)
        if hands is None:
            return False
        for s in shown:
            if s.trick == number and not (hands[s.seat] >> s.card & 1 and (s.token is None or
                                          true_token(hands[s.seat], s.card) == s.token)):
                return False
    return True


def worlds_by_brute_force(deal, gifts, put, order, tricks, shown, seat):
    """Return every (hands dealt, gifts, pairs put in, shuffle) the rules allow, seen from `seat` (its hand, its
    gift and the one it got, its pair and the two cards it took)."""
    players = deal.players
    took = card_set(c for c, t in zip(sorted(put), order) if t == seat)
    sizes = [popcount(h) for h in deal.hands]
    sizes[seat] = 0
    opening = {t: c for t, c in tricks[0]}
    found = set()
    holding = [0 if t == seat else bit(opening[t]) for t in range(players)]
    for split in splits(deal.cards & ~deal.hands[seat], sizes, holding):
        dealt = tuple(deal.hands[seat] if t == seat else split[t] for t in range(players))
        choices = [[gifts[t]] if t in (seat, (seat - 1) % players) else sorted(scan(dealt[t] & ~bit(opening[t])))
                   for t in range(players)]
        for guess in itertools.product(*choices):
            before = hands_before_trick(dealt, guess, (), (), tricks[:AFTER], AFTER + 1)  # the exchange's hands
            if before is None:
                continue
            pairs = [[put[2 * t : 2 * t + 2]] if t == seat else
                     [tuple(sorted(p, reverse=True)) for p in itertools.combinations(scan(before[t]), 2)]
                     for t in range(players)]
            for chosen in itertools.product(*pairs):
                pairs_put = tuple(c for pair in chosen for c in pair)
                for shuffle in shuffles_giving(seat, took, pairs_put, players):
                    if history_consistent(dealt, guess, pairs_put, shuffle, tricks, shown, deal.commander):
                        found.add((dealt, guess, pairs_put, shuffle))
    return found


@settings(max_examples=12, deadline=None)  # each example enumerates every history for every seat: 1-8 s
@given(pass_jeep_games(), st.integers(0, 2**16))
@example(  # seat 2, void in trick 1's suit, gets seat 1's gift of it and keeps it, two others of the suit unseen
    (Deal((549755900928, 174592, 31), 0), (12, 11, 1), (16, 14, 15, 13, 4, 3), (0, 0, 1, 1, 2, 2),
     [[(0, 10), (1, 9), (2, 0)], [(0, 1), (1, 12), (2, 2)]], []), 0)
@example(  # seat 1, void in trick 1's suit, gets seat 0's gift of it and keeps it (found by hypothesis.find)
    (Deal((549755821568, 341, 8362), 0), (10, 2, 1), (12, 11, 8, 6, 5, 3), (0, 0, 1, 1, 2, 2),
     [[(0, 9), (1, 0), (2, 13)], [(2, 2), (0, 1), (1, 4)]], []), 0)
@example(  # seat 1 gives the 0 that seat 2, void in trick 1's suit, gets and plays (found by hypothesis.find)
    (Deal((549755814500, 68719477897, 137438955794), 0), (5, 0, 1), (39, 6, 7, 5, 8, 4), (0, 0, 1, 1, 2, 2),
     [[(0, 9), (1, 10), (2, 11)], [(2, 0), (0, 1), (1, 3)]], [Communication(0, 2, LOWEST, 1)]), 0)
@example(  # seat 1 shows p6 as its lowest pink at trick 3, after the exchange, so another pink lies in its hand then;
    # seat 0 holds a pink, and its worlds dropped that need, drawing hands without it (found by hypothesis.find)
    (Deal((68719477156, 962072674322, 1609), 1), (2, 38, 3), (7, 5, 4, 2, 10, 9), (0, 0, 1, 1, 2, 2),
     [[(1, 37), (2, 0), (0, 36)], [(1, 1), (2, 6), (0, 3)], [(2, 9)]], [Communication(1, 5, LOWEST, 3)]), 0)
def test_jeep_worlds_after_a_random_pass_are_the_consistent_histories_drawn_uniformly(game, seed):
    deal, gifts, put, order, tricks, shown = game
    players = deal.players
    for seat in range(players):
        expected = worlds_by_brute_force(deal, gifts, put, order, tricks, shown, seat)
        assert (deal.hands, gifts, put, order) in expected
        own_pair = card_set(put[2 * seat : 2 * seat + 2])
        first = card_set(c for trick in tricks[:AFTER] for t, c in trick if t == seat)
        took = card_set(c for c, t in zip(sorted(put), order) if t == seat)
        kept = (deal.hands[seat] & ~bit(gifts[seat]) | bit(gifts[seat - 1])) & ~first & ~own_pair
        worlds = JeepWorlds.of(seat, tricks, AFTER, kept, own_pair, took, [popcount(h) for h in deal.hands], shown,
                               deal.cards, deal.commander, (gifts[seat], gifts[seat - 1]))
        for world in expected:  # what the worlds' first two steps hold true holds of every consistent history
            assert_the_steps_allow(worlds, world, tricks, own_pair)
        count = SAMPLES_PER_DEAL * len(expected) if len(expected) <= MOST_COUNTED else 40
        drawn = Counter((hands, made, pairs, shuffle) for hands, pairs, shuffle, made in
                        worlds.samples(random.Random(seed + seat), count))
        assert_drawn_are_the_consistent(drawn, expected)


def assert_the_steps_allow(worlds: JeepWorlds, world, tricks, own_pair: int) -> None:
    """Fail unless a consistent history's slots (each seat's cards kept through the exchange, those it took) agree
    with the Knowledge of `worlds` and each card of the middle may have been put in by the seat that put it in."""
    dealt, gifts, put, order = world
    players = len(dealt)
    after = hands_before_trick(dealt, gifts, put, order, tricks, AFTER + 1)  # its cards played since included
    taken = tuple(card_set(c for c, t in zip(sorted(put), order) if t == seat) for seat in range(players))
    slots = tuple(hand & ~took for hand, took in zip(after, taken)) + taken
    assert worlds.known.consistent(slots)
    putter = {c: t for t in range(players) for c in put[2 * t : 2 * t + 2]}
    rest = card_set(put) & ~own_pair
    for c, allowed in zip(scan(rest), worlds.putters_allowed(rest, slots[:players])):
        assert allowed >> putter[c] & 1


class Acceptance(random.Random):
    """A generator whose first `randrange` (PassBefore.draw's acceptance) returns `value` and records its bound."""

    def __init__(self, value: int):
        super().__init__(1)
        self.value, self.bound = value, None

    def randrange(self, *args):
        if self.bound is None:
            self.bound = args[0]
            return min(self.value, self.bound - 1)
        return super().randrange(*args)


@st.composite
def gift_chains(draw):
    """Hands since a random pass (each with its trick-1 card) of 3-5 players, a seat that knows its own gift and the
    one it got, and random facts of the hands dealt: (PassBefore, hands)."""
    players = draw(st.integers(3, 5), label="players")
    size = draw(st.integers(2, 4), label="size")
    cards = draw(st.permutations(range(12 if players * size <= 12 else 20)), label="cards")[: players * size]
    hands = [card_set(cards[t * size : (t + 1) * size]) for t in range(players)]
    opening = tuple(bit(cards[t * size]) for t in range(players))
    seat = draw(st.integers(0, players - 1), label="seat")
    got = draw(st.sampled_from(sorted(scan(hands[seat] & ~opening[seat]))), label="got")
    gave = draw(st.sampled_from(sorted(scan(hands[(seat + 1) % players] & ~opening[(seat + 1) % players]))),
                label="gave")
    lacking = tuple(draw(st.sampled_from([0, *(SUIT_MASKS[c] for c in COLOURS)]), label="lacking") & ~h & ~gift
                    for h, gift in zip(hands, [0] * players))
    holding = tuple(draw(st.sampled_from([0, *scan(h & ~o)]), label="holding") and bit(draw(
        st.sampled_from(sorted(scan(h & ~o))), label="held")) for h, o in zip(hands, opening))
    needs = tuple(tuple(draw(st.lists(st.sampled_from([SUIT_MASKS[c] for c in COLOURS]), max_size=1), label="needs"))
                  for _ in range(players))
    facts = PassBefore(seat, gave, got, opening, lacking, holding, needs, tuple(size - 1 for _ in range(players)))
    return facts, tuple(hands)


def chains_by_brute_force(facts: PassBefore, hands) -> set:
    """Return every tuple of gifts (seat t's card to t + 1) the hands allow: each seat's gift a card of its hand
    dealt but its trick-1 card, the seat's own gift and the one it got as it saw them, every other hand dealt as the
    facts say."""
    players, seat = len(hands), facts.seat
    found = set()
    for got in itertools.product(*[sorted(scan(hand & ~o)) for hand, o in zip(hands, facts.opening)]):  # t got got[t]
        gifts = tuple(got[(t + 1) % players] for t in range(players))
        if gifts[seat] != facts.gave or got[seat] != facts.got:
            continue
        dealt = PassBefore.dealt(hands, gifts)
        if all(t == seat or (not dealt[t] & facts.lacking[t] and dealt[t] & facts.holding[t] == facts.holding[t]
                             and all(dealt[t] & cards for cards in facts.needs[t])) for t in range(players)):
            found.add(gifts)
    return found


@settings(max_examples=200, deadline=None)
@given(gift_chains())
def test_the_gifts_are_counted_and_drawn_uniformly_among_those_the_hands_allow(chain):
    facts, hands = chain
    expected = chains_by_brute_force(facts, hands)
    # a seat holding a card its hand dealt lacked got that card: one way for it (`most_ways`)
    forced = {t for t, (hand, lacked, o) in enumerate(zip(hands, facts.lacking, facts.opening)) if hand & lacked & ~o}
    most = facts.most_ways(forced)
    assert len(expected) <= most <= facts.most_ways()  # a bound below the ways would draw some chains less often
    accepted = Acceptance(max(len(expected) - 1, 0))
    drawn = facts.draw(hands, accepted, most)
    assert accepted.bound in (None, most)  # None: the seat's gift is not in the next hand, nothing is drawn
    if expected:
        assert drawn in expected
        if len(expected) < most:  # accepted with probability (the ways) / (the most)
            refused = Acceptance(len(expected))
            assert facts.draw(hands, refused, most) is None and refused.bound == most
        rng = random.Random(1)
        every = Counter()
        while sum(every.values()) < SAMPLES_PER_DEAL * len(expected):
            every[facts.draw(hands, rng, most)] += 1
        del every[None]
        assert_drawn_are_the_consistent(every, expected)
    else:
        assert drawn is None


@st.composite
def pass_jeep_missions(draw):
    """A deal of 3-4 players and 4-5 cards a hand, a mission of 1-2 tasks with owners, mission 12's random pass after
    trick 1 and the jeep's exchange after trick 2 with its shuffle."""
    players = draw(st.integers(3, 4), label="players")
    deal = commander_deal(draw, players, draw(st.integers(AFTER + 2, AFTER + 3), label="size"))
    cards = sorted(c for c in scan(deal.cards) if suit_of(c) in COLOURS)
    tasks = draw(st.lists(st.sampled_from(cards), min_size=1, max_size=2, unique=True), label="tasks")
    owners = [draw(st.integers(0, players - 1), label="owner") for _ in tasks]
    order = draw(st.permutations([t for t in range(players) for _ in range(2)]), label="shuffle")
    return deal, replace(make_task_mission(deal, tasks, owners=owners), space=PlayRules(jeep_after=AFTER,
                                                                                       jeep_order=tuple(order)),
                         random_pass=RandomPass(1, tuple(draw(st.permutations(range(CARD_COUNT)), label="order"))))


@settings(max_examples=20, deadline=None)
@given(pass_jeep_missions(), st.integers(0, 2**16))
def test_every_sample_of_a_jeep_game_with_a_random_pass_replays_it_and_keeps_what_the_player_saw(problem, seed):
    deal, mission = problem
    space = mission.space
    game = play_game(deal, [Setup("", mission)], talk(deal, mission), samples=2, seed=seed, limits=Limits())
    mission = with_the_games_pass(mission, game)
    own_passes = []
    for walked, seat, sample in every_sample(deal, mission, game):
        true_gifts = pass_gifts(deal, mission, walked)
        if true_gifts:  # the seat gave and got its cards
            gifts = pass_gifts(sample.deal, sample.on(mission), walked)
            assert (gifts[seat], gifts[seat - 1]) == (true_gifts[seat], true_gifts[seat - 1])
        else:
            own_passes.append(sample.random_pass != mission.random_pass)
        assert_the_exchange_seen(walked, seat, sample, space)
    assert any(own_passes)  # before the pass each sample draws its own


@settings(max_examples=12, deadline=None)
@given(pass_jeep_missions(), st.integers(0, 2**16))
def test_the_kernel_plays_the_jeep_game_with_a_random_pass_the_reference_plays(problem, seed):
    deal, mission = problem
    assert_the_kernel_plays_the_reference_game(deal, [Setup("", mission)], talk(deal, mission), seed=seed)


@pytest.mark.parametrize("players, seed", [(3, 1), (4, 4)])  # games that reach the exchange; 5 players took 27 s
def test_crew_play_makes_mission_12_s_random_pass_and_the_jeep_s_exchange(players, seed):
    args = ["play", "--mission", "planet-nine/12", "--players", str(players), "--space", "jeep", "--seed", str(seed),
            "--samples", "2"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    moves = [line.split(":")[0] for line in result.stdout.splitlines() if line.startswith("  then the ")]
    assert moves == ["  then the random pass", "  then the jeep"]
