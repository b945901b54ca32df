"""What a player knows after the jeep's exchange, and the worlds it allows, drawn uniformly.

"Jeep. After the 3rd trick, each crew member places 2 cards face down in the middle of the table. Shuffle these
cards and each take 2 of them back. Communicated cards may not be taken this way." A player sees the two cards it
put in and the two it took, not the others'. A world is a whole history of the exchange: for every seat t the cards
it kept through it (slot K_t: its hand after the tricks before, but its two), the two it took (slot T_t), and which
seat put in each card of the middle. The pairs put in are choices, weighed alike (our reading, as for the Vespa's
swap: nothing makes one choice likelier than another), and the shuffle is chance, every way of dealing the middle
alike; so every history consistent with what the seat saw is equally likely, and one is drawn uniformly in two
steps:

1. the hands after the exchange, from a `Knowledge` over the 2 x players slots holding what is true of them whatever
   was put in by whom: the seat's own slots known; what play after the exchange revealed holds of K_t and T_t (a
   card played or shown, a void, a token); what play before it revealed holds of K_t (a void, a token's excluded
   cards; a shown card stays in K_t: "communicated cards may not be taken this way"); the cards the seat put in and
   did not take back lie in the others' T slots;
2. who put in the middle's other cards, two each: not a card of a colour the seat showed void in before the
   exchange, nor one its token excluded, and the 4 rocket only its Commander. The hands are kept with probability
   (the ways to put their middle in) / (the ways with no constraint), then one way drawn uniformly (`assignments`): a
   history comes out with probability proportional to one, as rejection sampling draws it. A highest or lowest
   token shown before the exchange needs another card of its colour in the hand then; a world without it is drawn
   again.

The ways to put the middle in are seldom constrained (only what the tricks before revealed), so most hands are
kept. The other order (the hands before from a Knowledge, then the taking) kept few, play after the exchange saying
much of who took what: on the tests' small 4-player deals two tricks past it, 2,400 worlds took 5-15 s against
0.2-0.5 s in this order.
"""

import functools
import random
from dataclasses import dataclass

from solver.core.cards import SUIT_MASKS, bit, card_set, scan, suit_of
from solver.core.deal import COMMANDER_CARD
from solver.missions.knowledge import Knowledge, Places, forbid_in, multinomial, played_by, seat_list

PROPOSALS = 8  # hands drawn at a time per world still wanted: Knowledge.samples counts the worlds and weighs its
# groups' splits once a call, 7-9 ms of its time; about 1 proposal in 5 is kept on 3-5 player logbook games past the
# exchange, so 16 worlds took 2.7 calls with 4 a world wanted, 1.8 with 8 (28 ms against 33 ms a decision)


@dataclass(frozen=True)
class JeepWorlds:
    """What `seat` knows after the exchange that followed trick `after`: `known` a Knowledge over 2 x players slots
    (slot t the cards seat t kept through it, players + t the two it took), and the facts of who put what in:
    `first` each seat's cards played before it, `put` the two the seat put in, `putters` (card, seat) a card only
    that seat may have put in (the 4 rocket: its Commander), `barred` per seat the cards it did not put in, `needs`
    (seat, cards): the seat held one of `cards` before the exchange (kept or put in)."""

    known: Knowledge
    seat: int
    first: tuple[int, ...]
    put: int
    putters: tuple[tuple[int, int], ...]
    barred: tuple[int, ...]
    needs: tuple[tuple[int, int], ...]

    @property
    def players(self) -> int:
        return len(self.first)

    @staticmethod
    def of(seat: int, tricks, after: int, kept: int, put: int, took: int, sizes, communications=(), deck: int = 0,
           commander: int = -1) -> "JeepWorlds":
        """Return what `seat` knows after the exchange that followed trick `after`: `tricks` the tricks so far (each
        a sequence of (seat, card) in play order, trick 1 first, the last maybe begun), `kept` its cards kept
        through the exchange (those played since included), `put` the two it put in the middle, `took` the two it
        took, `sizes` each hand's size as dealt, `communications` the cards shown (Communication, `trick` <= `after`
        before the exchange), `deck` the cards dealt and `commander` the seat dealt the 4 rocket."""
        players = len(sizes)
        kept_slot, took_slot = (lambda t: t), (lambda t: players + t)
        after_slots = (lambda t: 1 << kept_slot(t) | 1 << took_slot(t))
        taken_by_others = sum(1 << took_slot(t) for t in range(players) if t != seat)

        def played_before(number: int) -> int:
            """Every card played before trick `number` (1-based)."""
            return card_set(c for trick in tricks[: number - 1] for _, c in trick)

        first = tuple(played_by(tricks, t, 0, after) for t in range(players))
        universe = deck & ~played_before(after + 1)
        slots = 2 * players
        must, cannot = [0] * slots, [0] * slots
        must[kept_slot(seat)], must[took_slot(seat)] = kept, took
        places = Places(slots)
        putters: dict[int, int] = {}
        barred = [0] * players
        needs, before_needs = [], []

        def forbid(slot_mask: int, cards: int) -> None:
            forbid_in(cannot, slot_mask, cards)

        def lacked_before(t: int, cards: int) -> None:
            """Seat t held none of `cards` before the exchange: it kept none and put none in."""
            forbid(1 << kept_slot(t), cards)
            barred[t] |= cards

        places.place(put & ~took, taken_by_others)
        if commander >= 0 and commander != seat and not first[commander] >> COMMANDER_CARD & 1:
            places.place(deck & bit(COMMANDER_CARD), 1 << kept_slot(commander) | taken_by_others | 1 << took_slot(seat))
            putters[COMMANDER_CARD] = commander
        for t in range(players):
            if t != seat:
                places.place(played_by(tricks, t, after), after_slots(t))
        for number, trick in enumerate(tricks, 1):
            led = SUIT_MASKS[suit_of(trick[0][1])]
            for t, c in trick[1:]:
                if t != seat and not bit(c) & led:  # a void then
                    if number <= after:
                        lacked_before(t, led)
                    else:
                        forbid(after_slots(t), led & ~played_before(number))
        for shown in communications:
            t, colour = shown.seat, SUIT_MASKS[suit_of(shown.card)] & ~bit(shown.card)
            if t == seat:
                continue
            if shown.trick <= after:  # from its hand before the exchange, and kept through it unless played
                if not first[t] >> shown.card & 1:
                    places.place(bit(shown.card), 1 << kept_slot(t))
                lacked_before(t, shown.excludes())
                if shown.with_another() and not played_by(tricks, t, shown.trick - 1, after) & colour:
                    before_needs.append((t, colour & universe))
            else:  # from its hand then: kept or taken, less what it played since the exchange
                places.place(bit(shown.card), after_slots(t))
                forbid(after_slots(t), shown.excludes() & ~played_before(shown.trick))
                if shown.with_another():
                    needs.append((after_slots(t), colour & universe & ~played_before(shown.trick)))
        known_cards = kept | took
        places.forbid_elsewhere(cannot, known_cards)
        forbid(1 << kept_slot(seat) | 1 << took_slot(seat), universe)
        sizes_now = [0] * slots
        for t in range(players):
            sizes_now[kept_slot(t)], sizes_now[took_slot(t)] = sizes[t] - after - 2, 2
        cannot = [forbidden & ~must[slot] for slot, forbidden in enumerate(cannot)]
        needs = [(mask, cards) for mask, cards in needs if cards and not known_cards & cards]
        known = Knowledge(seat, tuple(must), tuple(cannot), tuple(sizes_now), universe & ~known_cards, tuple(needs))
        return JeepWorlds(known, seat, first, put, tuple(sorted(putters.items())), tuple(barred), tuple(before_needs))

    def putters_allowed(self, rest: int) -> tuple[int, ...]:
        """Return, for each card of `rest` (the middle's cards the seat did not put in) lowest first, the seats that
        may have put it in (a mask)."""
        others = sum(1 << t for t in range(self.players) if t != self.seat)
        only = dict(self.putters)
        allowed = []
        for c in scan(rest):
            seats = others & ~sum(1 << t for t, cards in enumerate(self.barred) if cards >> c & 1)
            allowed.append(seats & (1 << only[c]) if c in only else seats)
        return tuple(allowed)

    def samples(self, rng: random.Random, count: int) -> list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]]:
        """Return `count` worlds drawn uniformly with `rng`, each (the hands dealt, the cards each seat put in the
        middle seat by seat, each pair higher first, and the seat taking each card of the middle, lowest first)."""
        players = self.players
        room = tuple(0 if t == self.seat else 2 for t in range(players))
        most = multinomial(room)
        drawn = []
        while len(drawn) < count:
            for slots in self.known.samples(rng, PROPOSALS * (count - len(drawn))):
                middle = card_set(c for t in range(players) for c in scan(slots[players + t]))
                allowed = self.putters_allowed(middle & ~self.put)
                if rng.randrange(most) >= assignments(allowed, room):
                    continue
                putters = draw_assignment(allowed, room, rng)
                gave = [self.put if t == self.seat else card_set(
                    c for c, putter in zip(scan(middle & ~self.put), putters) if putter == t) for t in range(players)]
                if any(not (slots[t] | gave[t]) & cards for t, cards in self.needs):
                    continue
                drawn.append(self.world(slots, middle, gave))
                if len(drawn) == count:
                    break
        return drawn

    def world(self, slots, middle: int, gave):
        """Return (the hands dealt, the cards put in, the taking) of one history (see `samples`)."""
        players = self.players
        hands = tuple(slots[t] | gave[t] | self.first[t] for t in range(players))
        put = tuple(c for t in range(players) for c in sorted(scan(gave[t]), reverse=True))
        order = tuple(next(t for t in range(players) if slots[players + t] >> c & 1) for c in scan(middle))
        return hands, put, order


@functools.lru_cache(maxsize=65536)
def assignments(allowed: tuple[int, ...], room: tuple[int, ...]) -> int:
    """Return the ways to give each card one of its `allowed` seats (a mask each), seat t taking exactly room[t]."""
    if not allowed:
        return int(not any(room))
    total = 0
    for t in seat_list(allowed[0]):
        if room[t]:
            total += assignments(allowed[1:], room[:t] + (room[t] - 1,) + room[t + 1 :])
    return total


def draw_assignment(allowed: tuple[int, ...], room: tuple[int, ...], rng: random.Random) -> tuple[int, ...]:
    """Return the seat given each card, drawn uniformly among the `assignments`."""
    taken = []
    for k, seats in enumerate(allowed):
        options = [(t, assignments(allowed[k + 1 :], room[:t] + (room[t] - 1,) + room[t + 1 :]))
                   for t in seat_list(seats) if room[t]]
        pick = rng.randrange(sum(weight for _, weight in options))
        for t, weight in options:
            if pick < weight:
                break
            pick -= weight
        taken.append(t)
        room = room[:t] + (room[t] - 1,) + room[t + 1 :]
    return tuple(taken)
