"""What a player knows on the helicopter, and the worlds it allows, drawn uniformly.

"Helicopter. In the helicopter, the next steps can be planned. If at least 1 heli is in the trick, each crew member
passes 1 card to the left, simultaneously and face down, after the trick. A communicated card may only be passed on
by a player who has nothing but communicated cards left." A player sees, in every pass, the card it passed and the
one it got, not the others'. A world is a whole history: the hands dealt and every seat's card in every pass. The
cards passed are choices, weighed alike (our reading, as for the Vespa's swap and the jeep's pairs: nothing makes
one choice likelier than another), so every history consistent with what the seat saw is equally likely. One is
drawn uniformly by rejection, backwards from now:

1. the hands around the last pass, from a Knowledge (`proposal`) over 2 x players slots, as for mission 12's pass
   (pass_worlds.py): slot t the cards seat t kept through the last pass (those it played since included), slot
   players + t the card it passed then. It holds only what is true in every consistent history: the seat's own
   slots and the card it got; what play since the last pass revealed of each hand after it (a card played or shown,
   a void, a token) and what play between the last two passes revealed of each hand before it; where a card whose
   place was known earlier may lie, each pass moving it one seat at most (the seat's earlier gifts, a card shown,
   which stays with its seat while it holds another card, the 4 heli dealt to the Commander); and, of what play
   revealed before that, how many of some cards a hand may hold before the last pass, every one of them having
   come in a pass between, one a pass (`Knowledge.caps`; the seat on the left gets the seat's own gifts, known);
2. the tricks and passes undone back to the deal: the last pass's cards are the slots', each other seat's gift in
   an earlier pass is drawn uniformly from the hand it went to (whose size is known: the same in every world), and
   the history kept only when every play was legal in the hand of its time, every token true of the hand it was
   shown from, the seat's own gift in the hand it went to, no shown card passed from a hand holding another card,
   and the Commander dealt the 4 heli.

A consistent history is one draw of the slots and one of the earlier gifts, each drawn with the same probability
(the slots uniformly among the proposal's, each gift among a known number of cards), so the histories kept are
uniform: exact. Measured on the logbook's first 20 deals at 5 players (`benchmarks/bench_crew.py`'s helicopter-5p,
the crew's 247 draws of worlds): half of the draws keep every history proposed, a tenth keep under 27%, the worst
0.3%; drawing the hands now instead (the last pass undone by chance too) kept 15% at the median and 0.04% at worst,
the worst game spending 11.6 s of its 13.4 s drawing worlds (3.4 s of 5.1 s now).

"""

import functools
import operator
import random
from dataclasses import dataclass

from solver.core.cards import SUIT_MASKS, bit, card_set, popcount, scan, suit_of
from solver.core.deal import COMMANDER_CARD
from solver.core.errors import InputError
from solver.core.rules import legal_plays
from solver.missions.knowledge import Knowledge, Places, forbid_in, played_by

BATCH = 16  # slots drawn at a time (Knowledge.samples weighs its groups' splits once a call)
MOST_PROPOSALS = 200_000  # a world wanted: past this, an error (never met on the tests' or the crew's games)

TRICK, SHOW, PASS = range(3)


@dataclass(frozen=True)
class HeliWorlds:
    """What `seat` knows after the helicopter's passes so far: `proposal` a Knowledge over the cards each seat kept
    through the last pass (slot t) and the card it passed then (slot players + t), necessary conditions only;
    `events` the game forward ((TRICK, (seat, card) pairs), (SHOW, Communication), (PASS, (its index, the cards
    each seat had shown before it))); `gave` and `got` the seat's own gift and the card it got in each pass."""

    proposal: Knowledge
    seat: int
    events: tuple
    gave: tuple[int, ...]
    got: tuple[int, ...]
    commander: int
    deck: int
    since_last: tuple[int, ...]  # the cards each seat played since the last pass

    @property
    def players(self) -> int:
        return len(self.since_last)

    @staticmethod
    def of(seat: int, tricks, afters, hand: int, gave, got, sizes, communications=(), deck: int = 0,
           commander: int = -1) -> "HeliWorlds":
        """Return what `seat` knows holding `hand` now, with `tricks` the tricks so far (each a sequence of (seat,
        card) in play order, trick 1 first, the last maybe begun), `afters` the tricks (1-based) after which the
        crew passed, in order (mission 12's random pass is one more, after trick 1, before the helicopter's there:
        each seat gives a card it has not shown unless it holds nothing else, as on the helicopter), `gave` and `got`
        the card it passed and the one it got in each pass, `sizes` each hand's size
        as dealt, `communications` the cards shown, `deck` the cards dealt and `commander` the seat dealt the 4
        heli."""
        players, passes, last = len(sizes), len(afters), afters[-1]
        kept, given = (lambda t: t), (lambda t: players + t)
        before = (lambda t: 1 << kept(t) | 1 << given(t))  # the slots of t's hand right before the last pass
        after = (lambda t: 1 << kept(t) | 1 << given((t - 1) % players))  # and right after it

        def since(number: int) -> int:
            """Return the passes made since a play in trick `number` or a card shown before it."""
            return sum(1 for a in afters if a >= number)

        def played_before(number: int) -> int:
            """Return every card played before trick `number`."""
            return card_set(c for trick in tricks[: number - 1] for _, c in trick)

        def reach(held_by: int, moves: int) -> int:
            """Return the slots a card `held_by` held `moves` passes before the last may lie in before it."""
            return sum(before((held_by + k) % players) for k in range(min(moves, players - 1) + 1))

        universe = deck & ~played_before(last + 1)
        slots = 2 * players
        must, cannot, places, caps = [0] * slots, [0] * slots, Places(slots), {}
        must[kept(seat)] = (hand | played_by(tricks, seat, last)) & ~bit(got[-1])
        must[given(seat)], must[given((seat - 1) % players)] = bit(gave[-1]), bit(got[-1])
        for t in range(players):
            if t != seat:
                places.place(played_by(tricks, t, last), after(t))
        for k, c in enumerate(gave[:-1]):
            places.place(bit(c) & universe, reach((seat + 1) % players, passes - k - 2))
        if commander >= 0:
            places.place(universe & bit(COMMANDER_CARD), reach(commander, passes - 1))

        def lacked(t: int, cards: int, number: int) -> None:
            """Record that seat t held none of `cards` at trick `number` (a void then, a token's excluded cards)."""
            moves = since(number)
            if moves == 0:
                forbid_in(cannot, after(t), cards & ~played_before(number))
            elif moves == 1:
                forbid_in(cannot, before(t), cards)
            elif t == (seat + 1) % players:  # what came to it came from the seat
                forbid_in(cannot, before(t), cards & ~card_set(c for c, a in zip(gave[:-1], afters) if a >= number))
            else:  # what it held of them before the last pass came in the passes between, one a pass
                came = played_by(tricks, t, number - 1, last) | (card_set(
                    c for c, a in zip(got[:-1], afters) if a >= number) if t == (seat - 1) % players else 0)
                most = moves - 1 - popcount(came & cards)
                if most <= 0:
                    forbid_in(cannot, before(t), cards)
                caps[kept(t), cards] = min(most, caps.get((kept(t), cards), most))

        for shown in communications:
            t = shown.seat
            if t == seat:
                continue
            if since(shown.trick) == 0:
                places.place(bit(shown.card), after(t))
            else:
                moved = moved_since(shown, afters, sizes, communications)
                places.place(bit(shown.card) & universe, 1 << kept(t) if moved is None else reach(t, since(moved) - 1))
            lacked(t, shown.excludes(), shown.trick)
        for number, trick in enumerate(tricks, 1):
            led = SUIT_MASKS[suit_of(trick[0][1])]
            for t, c in trick[1:]:
                if t != seat and not bit(c) & led:
                    lacked(t, led, number)
        known = functools.reduce(operator.or_, must)
        places.forbid_elsewhere(cannot, known)
        forbid_in(cannot, before(seat) | 1 << given((seat - 1) % players), universe)
        cannot = [forbidden & ~must[slot] for slot, forbidden in enumerate(cannot)]
        unseen = universe & ~known
        capped = tuple((1 << slot, cards & unseen & ~cannot[slot], most) for (slot, cards), most in sorted(caps.items())
                       if most > 0 and cards & unseen & ~cannot[slot])
        slot_sizes = [0] * slots
        for t, size in enumerate(sizes):
            slot_sizes[kept(t)], slot_sizes[given(t)] = size - popcount(played_by(tricks, t, 0, last)) - 1, 1
        proposal = Knowledge(seat, tuple(must), tuple(cannot), tuple(slot_sizes), unseen, (), capped)
        return HeliWorlds(proposal, seat, game_events(tricks, afters, communications, players), tuple(gave),
                          tuple(got), commander, deck,
                          tuple(played_by(tricks, t, last) for t in range(players)))

    def samples(self, rng: random.Random, count: int) -> list[tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]]:
        """Return `count` worlds drawn uniformly with `rng`, each (the hands dealt, every pass's cards seat by seat)."""
        players = self.players
        drawn, proposed = [], 0
        while len(drawn) < count:
            for slots in self.proposal.samples(rng, BATCH):
                now = tuple((slots[t] | slots[players + (t - 1) % players]) & ~self.since_last[t] for t in range(players))
                gifts = tuple(slots[players + t].bit_length() - 1 for t in range(players))
                world = self.history(now, gifts, rng)
                if world is not None:
                    drawn.append(world)
                    if len(drawn) == count:
                        break
            proposed += BATCH
            if proposed > MOST_PROPOSALS * count:
                raise InputError(f"no history of the helicopter's passes found for seat {self.seat} in {proposed} draws")
        return drawn

    def history(self, now, last_gifts, rng: random.Random):
        """Return (the hands dealt, the passes) of the history behind the hands `now` and the last pass's cards
        `last_gifts`, with the earlier passes' gifts drawn with `rng`, or None when it breaks what the seat saw (see
        the module's step 2)."""
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
                gifts = list(last_gifts) if index == len(self.gave) - 1 else [
                    self.gave[index] if t == seat else self.got[index] if t == (seat - 1) % players
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
    passes after it, if any were made (mission 12's random pass before the helicopter's after trick 1)."""
    events = []
    for number in range(1, len(tricks) + 2):
        events += [(SHOW, shown) for shown in communications if shown.trick == number]
        if number <= len(tricks):
            events.append((TRICK, tuple(tricks[number - 1])))
        shown = tuple(card_set(s.card for s in communications if s.seat == t and s.trick <= number)
                      for t in range(players))
        events += [(PASS, (index, shown)) for index, after in enumerate(afters) if after == number]
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
