"""What a player knows under fog after mission 12's random pass (solver/missions/fog_pass_worlds.py), by enumeration.

"Fog. In fog, you can't see everything. Deal out only X cards each (the 4-heli must be included), and after each
trick draw 1 of the remaining cards." Mission 12: "Right after trick 1 every player gives one card chosen uniformly
at random from his hand (his communicated card excluded) to the next player in turn order (left)"; the engines make
the pass before trick 1's draws, so a gift is a dealt card.

Random small fog deals, trick 1 played, each seat's gift drawn from its hand then (not the card it showed, unless
that is all it holds), random legal play on from the hands the pass left, cards shown with their true tokens. For
every seat, every world (each hand as it ends, each card's arrival, each seat's gift) is enumerated by brute force
and checked against the rules themselves (the seat's own cards and arrivals as it saw them, the card it gave and
the card it got, every play legal in the hand of its time, every token true of the hand it was shown from, every
gift one its giver could give, the Guide dealt the 4 rocket); `FogPassWorlds` draws only those, each about equally
often.
"""

import itertools
import random
from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from test_fog_worlds import commander_deal, fog_histories, plays_and_tokens_hold, show
from test_knowledge import MOST_COUNTED, SAMPLES_PER_DEAL, assert_drawn_are_the_consistent

from solver.core.cards import CARD_COUNT, bit, card_set, scan
from solver.core.deal import COMMANDER_CARD
from solver.core.rules import legal_plays, trick_winner
from solver.missions.fog_pass_worlds import FogPassWorlds
from solver.trick.spaces.fog import fog_arrivals


def hand_during(hands, arrivals, gifts, t: int, number: int, tricks) -> int:
    """Return seat t's hand during trick `number`: its cards (`hands`, as dealt and drawn) arrived by then and not
    played before, and after the pass (`gifts`, each seat's or -1) less the card it gave and with the card it got."""
    held = card_set(c for c in scan(hands[t]) if arrivals[c] <= number - 1)
    if number >= 2:
        gave, got = gifts[t], gifts[t - 1]
        held = (held & ~bit(gave) if gave >= 0 else held) | (bit(got) if got >= 0 else 0)
    return held & ~card_set(c for trick in tricks[: number - 1] for _, c in trick)


def can_give(dealt: int, first: int, showing: int) -> int:
    """Return the cards a seat may give in the pass: its hand after trick 1 (its `dealt` cards, the pass coming
    before trick 1's draws, less its card in trick 1 among `first`), less the card it showed before it, `showing`
    ("his communicated card excluded"), unless that is all it holds."""
    held = dealt & ~first
    return held & ~showing or held


def gift_options(hands, arrivals, first: int, showing) -> list[int]:
    """Return each seat's cards it may give in the pass (`can_give`), its hand dealt `hands` with `arrivals`, the
    cards of trick 1 `first` and each seat's card shown before it `showing`."""
    drawn = card_set(c for c, at in enumerate(arrivals) if at)
    return [can_give(hand & ~drawn, first, shows) for hand, shows in zip(hands, showing)]


def first_trick(tricks, shown, players: int) -> tuple[int, list[int]]:
    """Return trick 1's cards and each seat's card shown before it (or 0)."""
    return (card_set(c for _, c in tricks[0]),
            [card_set(s.card for s in shown if s.seat == t and s.trick == 1) for t in range(players)])


@st.composite
def fog_pass_games(draw):
    """A small fog deal, trick 1, mission 12's pass and the play since: (deal, arrivals, gifts, dealt, draws, tricks,
    shown)."""
    players = draw(st.integers(3, 4), label="players")
    size = draw(st.integers(3, 4) if players == 3 else st.integers(2, 3), label="size")
    cards = size - draw(st.integers(1, size - 1), label="draws")  # most dealt first: gifts of a choice
    deal = commander_deal(draw, players, size)
    guide = deal.commander
    arrivals = fog_arrivals(deal, cards, np.random.default_rng(draw(st.integers(0, 2**16), label="draws")))
    dealt = [cards + (t == guide) for t in range(players)]
    tricks, shown, leader, gifts = [], [], guide, ()
    for _ in range(draw(st.integers(players, players * size), label="plays")):
        if not tricks or len(tricks[-1]) == players:
            number = len(tricks) + 1
            if draw(st.booleans(), label="show"):
                said = show(draw, deal, arrivals, tricks, number, [s.seat for s in shown],
                            lambda t: hand_during(deal.hands, arrivals, gifts, t, number, tricks))
                shown += [said] if said is not None else []
            tricks.append([])
        trick, number = tricks[-1], len(tricks)
        seat = (leader + len(trick)) % players
        legal = legal_plays(hand_during(deal.hands, arrivals, gifts, seat, number, tricks), [c for _, c in trick])
        if not legal:  # fog=1: a hand trick 1 emptied gave nothing and got a card, so its right-hand neighbour's
            break  # hand runs out a trick early (the engines count such a line lost)
        c = draw(st.sampled_from(sorted(scan(legal))), label="card")
        trick.append((seat, c))
        if len(trick) == players:
            leader = trick_winner(leader, [c for _, c in trick], players)
            if number == 1:
                gifts = tuple(draw(st.sampled_from(sorted(scan(options))), label="gift") if options else -1
                              for options in gift_options(deal.hands, arrivals, *first_trick(tricks, shown, players)))
    draws = [size - d for d in dealt]
    return deal, arrivals, gifts, dealt, draws, [list(t) for t in tricks], shown


def consistent(final, arrival, gifts, options, tricks, shown, guide) -> bool:
    """Return True when the hands as they end, the arrivals and the gifts make every gift one its giver could give
    (`options`, each seat's: `gift_options` of the hands and arrivals), every play legal in the hand of its time and
    every token true of the hand it was shown from, the Guide dealt the 4 rocket."""
    if not final[guide] >> COMMANDER_CARD & 1 or arrival[COMMANDER_CARD] != 0:
        return False
    for gift, options in zip(gifts, options):
        if (gift < 0) != (options == 0) or gift >= 0 and not options >> gift & 1:
            return False
    return plays_and_tokens_hold(tricks, shown, lambda t, number: hand_during(final, arrival, gifts, t, number, tricks))


def worlds_by_brute_force(deal, arrivals, gifts, dealt, draws, tricks, shown, seat):
    """Return every (hands as they end, arrivals, gifts) the rules allow, seen from `seat` (its own cards and arrivals
    as they were, the card it gave and the card it got)."""
    players = deal.players
    first = [card_set(c for t, c in tricks[0] if t == other) for other in range(players)]
    found = set()
    trick_one = first_trick(tricks, shown, players)
    for final, arrival in fog_histories(deal, arrivals, dealt, draws, tricks, seat, first):
        if not final[deal.commander] >> COMMANDER_CARD & 1:  # not consistent: skip its gifts
            continue
        options = gift_options(final, arrival, *trick_one)
        given = [[gifts[t]] if t in (seat, (seat - 1) % players) else sorted(scan(options[t])) or [-1]
                 for t in range(players)]
        found.update((final, arrival, made) for made in itertools.product(*given)
                     if consistent(final, arrival, made, options, tricks, shown, deal.commander))
    return found


@settings(max_examples=25, deadline=None)  # each example enumerates every world for every seat: up to 5 s
@given(fog_pass_games(), st.integers(0, 2**16))
def test_fog_pass_worlds_are_the_consistent_ones_drawn_uniformly(game, seed):
    deal, arrivals, gifts, dealt, draws, tricks, shown = game
    players = deal.players
    after = sum(1 for trick in tricks if len(trick) == players)
    truth = (tuple(deal.hands), tuple(arrivals[c] if deal.cards >> c & 1 else 0 for c in range(CARD_COUNT)), gifts)
    for seat in range(players):
        expected = worlds_by_brute_force(deal, arrivals, gifts, dealt, draws, tricks, shown, seat)
        assert truth in expected
        seen = [(c, arrivals[c]) for c in scan(deal.hands[seat]) if arrivals[c] <= after]
        worlds = FogPassWorlds.of(seat, tricks, seen, gifts[seat], gifts[seat - 1], dealt, draws, shown, deal.cards,
                                  deal.commander)
        count = SAMPLES_PER_DEAL * len(expected) if len(expected) <= MOST_COUNTED else 40
        drawn = Counter(worlds.samples(random.Random(seed + seat), count))
        assert_drawn_are_the_consistent(drawn, expected)
