"""What a player knows on the helicopter, and the worlds it allows, drawn uniformly.

"Helicopter. In the helicopter, the next steps can be planned. If at least 1 heli is in the trick, each crew member
passes 1 card to the left, simultaneously and face down, after the trick. A communicated card may only be passed on
by a player who has nothing but communicated cards left." A player sees, in every pass, the card it passed and the
one it got, not the others'. A world is a whole history: the hands dealt and every seat's card in every pass. The
cards passed are choices, weighed alike (our reading, as for the Vespa's swap and the jeep's pairs: nothing makes
one choice likelier than another), so every history consistent with what the seat saw is equally likely. One is
drawn uniformly by rejection, backwards from now:

1. the hands now, from a Knowledge (`proposal`) holding only what is true of them in every consistent history: the
   seat's own hand; what play since the last pass revealed (a void, a token, a card shown); where a card whose
   place was known then may lie now, each pass moving it one seat at most (the seat's own gifts, a card shown before
   the last pass, the 4 heli dealt to the Commander); and how many cards of a colour a seat that did not follow it
   may hold now, every card of it having come in a pass since, one a pass (`Knowledge.caps`; the seat on the left
   gets the seat's own gifts, known cards);
2. the tricks and passes undone back to the deal: each other seat's gift in a pass drawn uniformly from the hand it
   went to (whose size is known: the same in every world), and the history kept only when every play was legal in
   the hand of its time, every token true of the hand it was shown from, the seat's own gift in the hand it went to,
   no shown card passed from a hand holding another card, and the Commander dealt the 4 heli.

A consistent history is one hand now and one draw of gifts, each drawn with the same probability (the hands now
uniformly among the proposal's, each gift among a known number of cards), so the histories kept are uniform: exact.
Measured on logbook games with random play (4-5 players, seat 0 after 1-3 passes), 2-100% of the histories drawn
are kept, 10-30% typically.
"""

import functools
import operator
import random
from dataclasses import dataclass

from solver.core.cards import SUIT_MASKS, bit, card_set, popcount, scan, suit_of
from solver.core.deal import COMMANDER_CARD
from solver.core.errors import InputError
from solver.core.rules import legal_plays
from solver.missions.knowledge import Knowledge, Places, played_by

BATCH = 16  # hands now drawn at a time (Knowledge.samples weighs its groups' splits once a call)
MOST_PROPOSALS = 200_000  # a world wanted: past this, an error (never met on the tests' or the crew's games)

TRICK, SHOW, PASS = range(3)


@dataclass(frozen=True)
class HeliWorlds:
    """What `seat` knows after the helicopter's passes so far: `proposal` a Knowledge over the hands now (necessary
    conditions only), `events` the game forward ((TRICK, (seat, card) pairs), (SHOW, Communication), (PASS, (its
    index, the cards each seat had shown before it)), `gave` and `got` the seat's own gift and the card it got in
    each pass."""

    proposal: Knowledge
    seat: int
    events: tuple
    gave: tuple[int, ...]
    got: tuple[int, ...]
    commander: int
    deck: int

    @property
    def players(self) -> int:
        return len(self.proposal.sizes)

    @staticmethod
    def of(seat: int, tricks, afters, hand: int, gave, got, sizes, communications=(), deck: int = 0,
           commander: int = -1) -> "HeliWorlds":
        """Return what `seat` knows holding `hand` now, with `tricks` the tricks so far (each a sequence of (seat,
        card) in play order, trick 1 first, the last maybe begun), `afters` the tricks (1-based) after which the
        crew passed, `gave` and `got` the card it passed and the one it got in each pass, `sizes` each hand's size
        as dealt, `communications` the cards shown, `deck` the cards dealt and `commander` the seat dealt the 4
        heli."""
        players = len(sizes)
        played = card_set(c for trick in tricks for _, c in trick)
        passes = len(afters)

        def since(number: int) -> int:
            """Return the passes made since a play in trick `number` or a card shown before it."""
            return sum(1 for after in afters if after >= number)

        def reach(held_by: int, moves: int) -> int:
            """Return the seats a card `held_by` had before `moves` passes may hold now (a seat mask)."""
            return sum(1 << (held_by + k) % players for k in range(min(moves, players - 1) + 1))

        must, cannot, places = [0] * players, [0] * players, Places(players)
        must[seat] = hand
        for k, c in enumerate(gave):
            places.place(bit(c), reach((seat + 1) % players, passes - k - 1) & ~(1 << seat))
        if commander >= 0:
            places.place(deck & bit(COMMANDER_CARD), reach(commander, passes))
        for shown in communications:
            if shown.seat == seat:
                continue
            moved = moved_since(shown, afters, sizes, communications)
            if since(shown.trick) == 0:
                cannot[shown.seat] |= shown.excludes()
            if moved is None:
                must[shown.seat] |= bit(shown.card) & ~played
            else:
                places.place(bit(shown.card), reach(shown.seat, since(moved)))
        voids = {}  # (seat, colour) -> the last trick it did not follow the colour in
        for number, trick in enumerate(tricks, 1):
            led = SUIT_MASKS[suit_of(trick[0][1])]
            for t, c in trick[1:]:
                if t != seat and not bit(c) & led:
                    voids[t, led] = number
        caps = []
        for (t, led), number in sorted(voids.items()):
            moves = since(number)
            came = played_by(tricks, t, number)  # cards of the colour it played since came in a pass since
            if t == (seat - 1) % players:
                came |= card_set(c for c, after in zip(got, afters) if after >= number)
            if moves == 0:
                cannot[t] |= led
            elif t == (seat + 1) % players:  # what came to it came from the seat
                cannot[t] |= led & ~card_set(c for c, after in zip(gave, afters) if after >= number)
            elif moves - popcount((came | must[t]) & led) <= 0:
                cannot[t] |= led
            else:
                caps.append((t, led, moves - popcount((came | must[t]) & led)))
        known = functools.reduce(operator.or_, must)
        unseen = deck & ~played & ~known
        places.forbid_elsewhere(cannot, 0)
        cannot[seat] = deck & ~hand
        cannot = [forbidden & ~must[t] for t, forbidden in enumerate(cannot)]
        caps = tuple((t, led & unseen & ~cannot[t], most) for t, led, most in caps if led & unseen & ~cannot[t])
        sizes_now = tuple(size - popcount(played_by(tricks, t, 0)) for t, size in enumerate(sizes))
        proposal = Knowledge(seat, tuple(must), tuple(cannot), sizes_now, unseen, (), caps)
        return HeliWorlds(proposal, seat, game_events(tricks, afters, communications, players), tuple(gave),
                          tuple(got), commander, deck)

    def samples(self, rng: random.Random, count: int) -> list[tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]]:
        """Return `count` worlds drawn uniformly with `rng`, each (the hands dealt, every pass's cards seat by seat)."""
        drawn, proposed = [], 0
        while len(drawn) < count:
            for now in self.proposal.samples(rng, BATCH):
                world = self.history(now, rng)
                if world is not None:
                    drawn.append(world)
                    if len(drawn) == count:
                        break
            proposed += BATCH
            if proposed > MOST_PROPOSALS * count:
                raise InputError(f"no history of the helicopter's passes found for seat {self.seat} in {proposed} draws")
        return drawn

    def history(self, now, rng: random.Random):
        """Return (the hands dealt, the passes) of the history behind the hands `now` with gifts drawn with `rng`,
        or None when it breaks what the seat saw (see the module's step 2)."""
        players, seat = self.players, self.seat
        hands, made = list(now), [()] * len(self.gave)
        for kind, event in reversed(self.events):
            if kind == TRICK:
                for k in range(len(event) - 1, -1, -1):
                    t, c = event[k]
                    hands[t] |= bit(c)
                    if not legal_plays(hands[t], [card for _, card in event[:k]]) >> c & 1:
                        return None
            elif kind == SHOW:
                held = hands[event.seat]
                if not held >> event.card & 1 or held & event.excludes():
                    return None
                if event.with_another() and not held & SUIT_MASKS[suit_of(event.card)] & ~bit(event.card):
                    return None
            else:
                index, shown = event
                gifts = [self.gave[index] if t == seat else self.got[index] if t == (seat - 1) % players
                         else nth_card(hands[(t + 1) % players], rng) for t in range(players)]
                if not hands[(seat + 1) % players] >> self.gave[index] & 1:
                    return None
                for t, c in enumerate(gifts):
                    hands[(t + 1) % players] &= ~bit(c)
                for t, c in enumerate(gifts):
                    hands[t] |= bit(c)
                if any(shown[t] >> c & 1 and hands[t] & ~shown[t] for t, c in enumerate(gifts)):
                    return None  # "a communicated card may only be passed on by a player who has nothing but ..."
                made[index] = tuple(gifts)
        if self.commander >= 0 and self.deck >> COMMANDER_CARD & 1 and not hands[self.commander] >> COMMANDER_CARD & 1:
            return None
        return tuple(hands), tuple(made)


def game_events(tricks, afters, communications, players: int) -> tuple:
    """Return the game forward as HeliWorlds.events: before each trick the cards shown, then the trick, then the
    pass after it, if one was made."""
    events = []
    for number in range(1, len(tricks) + 2):
        events += [(SHOW, shown) for shown in communications if shown.trick == number]
        if number <= len(tricks):
            events.append((TRICK, tuple(tricks[number - 1])))
        if number in afters:
            shown = tuple(card_set(s.card for s in communications if s.seat == t and s.trick <= number)
                          for t in range(players))
            events.append((PASS, (afters.index(number), shown)))
    return tuple(events)


def moved_since(shown, afters, sizes, communications) -> int | None:
    """Return the first trick (1-based) after which `shown`'s card may have been passed on (its seat then holding
    only cards it had shown: "a communicated card may only be passed on by a player who has nothing but
    communicated cards left"), or None when it never may have."""
    for after in afters:
        shown_then = sum(1 for s in communications if s.seat == shown.seat and s.trick <= after)
        if after >= shown.trick and sizes[shown.seat] - after <= shown_then:
            return after
    return None


def nth_card(cards: int, rng: random.Random) -> int:
    """Return a card of `cards` drawn uniformly with `rng`."""
    k = rng.randrange(popcount(cards))
    for c in scan(cards):
        if k == 0:
            return c
        k -= 1
    raise AssertionError("unreachable")
