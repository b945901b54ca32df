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

With mission 12's random pass after trick 1 ("every player gives one card chosen uniformly at random from his hand
(his communicated card excluded) to the next player in turn order (left)", planet-nine.md), a history also holds
every seat's gift, and the seat saw only its own gift and the one it got (`PassBefore`). The gifts are chance, each
uniform over a hand of known size, so every history is still equally likely, and a third step draws them:

3. the hands after the pass follow from the slots and who put what in (each seat's cards kept, put in and played
   before the exchange); seat t got one card x_t of its hand then from seat t - 1, and its hand before the pass was
   that hand less x_t with x_{t+1} (the card it gave); what play and tokens revealed of the hands before the pass
   (trick 1's voids, the tokens shown before it, the Commander's 4 rocket) binds each pair (x_t, x_{t+1}). The seat
   knows its own two, so the others form a chain, counted and drawn uniformly by dynamic programming (`PassBefore`);
   the history is kept with probability (its ways) / (the most a chain has: each card of a hand but its trick-1 card
   and a card it showed, one card where it played a card it lacked before the pass), as in step 2.
   What step 1 knows for sure of those hands it keeps (a card shown before trick 1 stays with its seat); the rest of
   what play before the pass revealed is the chain's to check.
"""

import functools
import random
from dataclasses import dataclass

from solver.core.cards import SUIT_MASKS, bit, card_set, popcount, scan, suit_of
from solver.core.deal import COMMANDER_CARD
from solver.core.errors import InputError
from solver.missions.knowledge import Communication, Knowledge, Places, forbid_in, multinomial, played_by, seat_list

MOST_PROPOSALS = 200_000  # a world wanted: past this, an error (as fog_worlds.py's), never a search without end. With
# mission 12's random pass the slowest 5-player game measured drew 293,000 for its 208 worlds after the exchange (99 s,
# where mission 11's games take 1-4 s): most are refused by who put what in and by the gifts, which slots cannot say
PROPOSALS = 8  # hands drawn at a time per world still wanted: Knowledge.samples counts the worlds and weighs its
# groups' splits once a call, 7-9 ms of its time; about 1 proposal in 5 is kept on 3-5 player logbook games past the
# exchange, so 16 worlds took 2.7 calls with 4 a world wanted, 1.8 with 8 (28 ms against 33 ms a decision)


@dataclass(frozen=True)
class JeepWorlds:
    """What `seat` knows after the exchange that followed trick `after`: `known` a Knowledge over 2 x players slots
    (slot t the cards seat t kept through it, players + t the two it took), and the facts of who put what in:
    `first` each seat's cards played before it, `put` the two the seat put in, `putters` (card, seats) a card only
    those seats (a mask) may have put in (the 4 rocket: its Commander, or the seat it gave it to in a random pass;
    the seat's gift in one: the seat it went to), `barred` per seat the cards it did not put in, `needs`
    (seat, cards): the seat held one of `cards` before the exchange (kept or put in); `random_pass`: mission 12's pass
    before it as the seat knows it (None: no such pass) and `most_ways` the most ways of its gifts any slots allow
    (`PassBefore.most_ways`)."""

    known: Knowledge
    seat: int
    first: tuple[int, ...]
    put: int
    putters: tuple[tuple[int, int], ...]
    barred: tuple[int, ...]
    needs: tuple[tuple[int, int], ...]
    random_pass: "PassBefore | None" = None
    most_ways: int = 1

    @property
    def players(self) -> int:
        return len(self.first)

    @staticmethod
    def of(seat: int, tricks, after: int, kept: int, put: int, took: int, sizes, communications=(), deck: int = 0,
           commander: int = -1, gifts: tuple[int, int] | None = None) -> "JeepWorlds":
        """Return what `seat` knows after the exchange that followed trick `after`: `tricks` the tricks so far (each
        a sequence of (seat, card) in play order, trick 1 first, the last maybe begun), `kept` its cards kept
        through the exchange (those played since included), `put` the two it put in the middle, `took` the two it
        took, `sizes` each hand's size as dealt, `communications` the cards shown (Communication, `trick` <= `after`
        before the exchange), `deck` the cards dealt and `commander` the seat dealt the 4 rocket; `gifts`: with
        mission 12's random pass after trick 1 (`after` > 1), the card the seat gave in it and the one it got."""
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
        putters: dict[int, int] = {}  # card -> the seats that may have put it in (a mask)
        barred = [0] * players
        needs, before_needs = [], []
        passing = PassFacts(players, tricks, after, gifts) if gifts else None

        def forbid(slot_mask: int, cards: int) -> None:
            forbid_in(cannot, slot_mask, cards)

        def lacked_before(t: int, cards: int) -> None:
            """Seat t held none of `cards` before the exchange: it kept none and put none in."""
            forbid(1 << kept_slot(t), cards)
            barred[t] |= cards

        def before_pass(number: int) -> bool:
            return passing is not None and number == 1

        places.place(put & ~took, taken_by_others)
        if commander >= 0 and commander != seat and not first[commander] >> COMMANDER_CARD & 1:
            holders = 1 << commander | (1 << (commander + 1) % players if passing else 0)  # given in the pass
            places.place(universe & bit(COMMANDER_CARD), sum(1 << kept_slot(t) for t in seat_list(holders))
                         | taken_by_others | 1 << took_slot(seat))
            putters[COMMANDER_CARD] = holders
        if passing:
            passing.commander_held(commander)
            if universe >> passing.gave & 1:  # with the seat on its left since, unless played: kept or put in by it
                places.place(bit(passing.gave) & ~took, 1 << kept_slot((seat + 1) % players) | taken_by_others)
                putters[passing.gave] = putters.get(passing.gave, -1) & 1 << (seat + 1) % players
        for t in range(players):
            if t != seat:
                places.place(played_by(tricks, t, after), after_slots(t))
        for number, trick in enumerate(tricks, 1):
            led = SUIT_MASKS[suit_of(trick[0][1])]
            for t, c in trick[1:]:
                if t != seat and not bit(c) & led:  # a void then
                    if before_pass(number):
                        passing.lacked(t, led)
                    elif number <= after:
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
                if before_pass(shown.trick):  # never given: in its hand before the pass
                    passing.shown(shown, colour)
                    continue
                lacked_before(t, shown.excludes())
                if shown.with_another() and not played_by(tricks, t, shown.trick - 1, after) & colour:
                    before_needs.append((t, colour & universe))
            else:  # from its hand then: kept or taken, less what it played since the exchange
                places.place(bit(shown.card), after_slots(t))
                forbid(after_slots(t), shown.excludes() & ~played_before(shown.trick))
                if shown.with_another():
                    needs.append((after_slots(t), colour & universe & ~played_before(shown.trick)))
        forced = passing.played_their_gift(first) if passing else set()
        if passing:  # what its hand before the pass lacked, its hand since held one card of at most: the one it got
            for t in sorted(forced - {seat}):
                lacked_before(t, passing.lacking[t])
            lacked_before((seat + 1) % players, passing.lacking[(seat + 1) % players] & ~bit(passing.gave))  # got it
        known_cards = kept | took
        places.forbid_elsewhere(cannot, known_cards)
        forbid(1 << kept_slot(seat) | 1 << took_slot(seat), universe)
        sizes_now = [0] * slots
        for t in range(players):
            sizes_now[kept_slot(t)], sizes_now[took_slot(t)] = sizes[t] - after - 2, 2
        cannot = [forbidden & ~must[slot] for slot, forbidden in enumerate(cannot)]
        unseen = universe & ~known_cards
        needs = [(mask, cards & unseen) for mask, cards in needs]  # never the seat's own cards; none left: no world
        if passing:
            needs += passing.relaxed_needs(seat, first, took, unseen, kept_slot, took_slot)
        lacking = passing.lacking if passing else (0,) * players
        caps = tuple((1 << kept_slot(t), cards, 1) for t in range(players) if t != seat
                     and popcount(cards := lacking[t] & unseen & ~cannot[kept_slot(t)]) > 1)
        known = Knowledge(seat, tuple(must), tuple(cannot), tuple(sizes_now), unseen, tuple(needs), caps)
        before = passing.before(seat, tuple(size - 1 for size in sizes)) if passing else None
        return JeepWorlds(known, seat, first, put, tuple(sorted(putters.items())), tuple(barred), tuple(before_needs),
                          before, before.most_ways(forced) if before else 1)

    def putters_allowed(self, rest: int, kept=()) -> tuple[int, ...]:
        """Return, for each card of `rest` (the middle's cards the seat did not put in) lowest first, the seats that
        may have put it in (a mask); `kept` each seat's cards kept through the exchange: with a random pass before
        it, a seat that kept a card its hand before the pass lacked (the one it got) put in none of those."""
        others = sum(1 << t for t in range(self.players) if t != self.seat)
        only = dict(self.putters)
        barred = self.barred
        if self.random_pass:
            barred = tuple(cards | (lacked if lacked & held else 0)
                           for cards, lacked, held in zip(barred, self.random_pass.lacking, kept))
        allowed = []
        for c in scan(rest):
            seats = others & ~sum(1 << t for t, cards in enumerate(barred) if cards >> c & 1)
            allowed.append(seats & only.get(c, seats))
        return tuple(allowed)

    def samples(self, rng: random.Random, count: int) -> list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...],
                                                                    tuple[int, ...]]]:
        """Return `count` worlds drawn uniformly with `rng`, each (the hands dealt, the cards each seat put in the
        middle seat by seat, each pair higher first, the seat taking each card of the middle, lowest first, and with
        the random pass the card each seat gave in it, else ())."""
        players = self.players
        room = tuple(0 if t == self.seat else 2 for t in range(players))
        most = multinomial(room)
        drawn, proposed = [], 0
        while len(drawn) < count:
            if proposed > MOST_PROPOSALS * count:
                raise InputError(f"no history of the jeep's exchange found for seat {self.seat} in {proposed} draws")
            proposed += PROPOSALS * (count - len(drawn))
            for slots in self.known.samples(rng, PROPOSALS * (count - len(drawn))):
                middle = card_set(c for t in range(players) for c in scan(slots[players + t]))
                allowed = self.putters_allowed(middle & ~self.put, slots[:players])
                if rng.randrange(most) >= assignments(allowed, room):
                    continue
                putters = draw_assignment(allowed, room, rng)
                gave = [self.put if t == self.seat else card_set(
                    c for c, putter in zip(scan(middle & ~self.put), putters) if putter == t) for t in range(players)]
                if any(not (slots[t] | gave[t]) & cards for t, cards in self.needs):
                    continue
                hands = tuple(slots[t] | gave[t] | self.first[t] for t in range(players))  # after the pass, if any
                gifts = ()
                if self.random_pass:
                    gifts = self.random_pass.draw(hands, rng, self.most_ways)
                    if gifts is None:
                        continue
                    hands = PassBefore.dealt(hands, gifts)
                drawn.append(self.world(slots, middle, gave, hands, gifts))
                if len(drawn) == count:
                    break
        return drawn

    def world(self, slots, middle: int, gave, hands, gifts):
        """Return (the hands dealt, the cards put in, the taking, the gifts) of one history (see `samples`)."""
        players = self.players
        put = tuple(c for t in range(players) for c in sorted(scan(gave[t]), reverse=True))
        order = tuple(next(t for t in range(players) if slots[players + t] >> c & 1) for c in scan(middle))
        return hands, put, order, gifts


class PassFacts:
    """What play before mission 12's random pass after trick 1 revealed of each hand then, gathered by
    `JeepWorlds.of`: the cards it lacked (trick 1's voids, a token's excluded cards), those it held (a card shown
    before trick 1, the Commander's 4 rocket) and the colours it held another card of (a highest or lowest token)."""

    def __init__(self, players: int, tricks, after: int, gifts: tuple[int, int]):
        if after < 2:
            raise ValueError("the jeep's exchange after the random pass's trick")
        self.gave, self.got = gifts
        self.opening = tuple(played_by(tricks, t, 0, 1) for t in range(players))  # each seat's trick-1 card
        self.lacking, self.holding, self.needs = [0] * players, [0] * players, []

    def lacked(self, t: int, cards: int) -> None:
        self.lacking[t] |= cards

    def shown(self, shown: Communication, colour: int) -> None:
        """Seat `shown.seat` showed a card before trick 1 (`colour`: the other cards of its colour)."""
        t = shown.seat
        self.lacking[t] |= shown.excludes()
        self.holding[t] |= bit(shown.card)
        if shown.with_another() and not self.opening[t] & colour:  # else its trick-1 card was the other
            self.needs.append((t, colour))

    def played_their_gift(self, first) -> set[int]:
        """Return the seats that played, after trick 1 and before the exchange (`first`: each seat's cards played
        before it), a card their hand before the pass lacked: the card each got."""
        return {t for t, cards in enumerate(first) if cards & self.lacking[t] & ~self.opening[t]}

    def commander_held(self, commander: int) -> None:
        if commander >= 0:
            self.holding[commander] |= bit(COMMANDER_CARD)

    def relaxed_needs(self, seat: int, first, took: int, unseen: int, kept_slot, took_slot) -> list[tuple[int, int]]:
        """Return Knowledge needs true of the slots whatever the gifts: a colour seat t's hand dealt held one card
        of lies in its hand since the pass or was its gift, in the next hand since (each hand since: its slots
        kept, the middle, its cards played before the exchange), unless one may lie there among the cards known
        (`first`: each seat's cards played before the exchange; the seat's own gift got and the two it `took`)."""
        players, every_taken = len(first), sum(1 << took_slot(t) for t in range(len(first)))
        needs = []
        for t, colour in self.needs:
            after = (t + 1) % players
            known = took | first[t] & ~self.opening[t] | (
                bit(self.got) if after == seat else first[after] & ~self.opening[after])
            if t != seat and not colour & known:
                needs.append((1 << kept_slot(t) | every_taken | (0 if after == seat else 1 << kept_slot(after)),
                              colour & unseen))
        return needs

    def before(self, seat: int, sizes: tuple[int, ...]) -> "PassBefore":
        """Return the facts seen from `seat`, `sizes` each hand's size after trick 1."""
        needs = tuple(tuple(cards for t, cards in self.needs if t == other) for other in range(len(sizes)))
        return PassBefore(seat, self.gave, self.got, self.opening, tuple(self.lacking), tuple(self.holding), needs,
                          sizes)


@dataclass(frozen=True)
class PassBefore:
    """Mission 12's random pass after trick 1 as `seat` knows it after the exchange: the card it gave and the one it
    got; per seat its trick-1 card (a set), the cards its hand as dealt lacked and held, the colours it held one card
    of (each a set) and its size after trick 1."""

    seat: int
    gave: int
    got: int
    opening: tuple[int, ...]
    lacking: tuple[int, ...]
    holding: tuple[int, ...]
    needs: tuple[tuple[int, ...], ...]
    sizes: tuple[int, ...]

    def dealt_agrees(self, t: int, hand: int, got: int, gave: int) -> bool:
        """Return True when seat t's hand dealt agrees with what play revealed of it: `hand` its cards since the pass
        (its trick-1 card with them) less the card it `got` and with the one it `gave`."""
        dealt = hand & ~bit(got) | bit(gave)
        return (not dealt & self.lacking[t] and dealt & self.holding[t] == self.holding[t]
                and all(dealt & cards for cards in self.needs[t]))

    def most_ways(self, forced=frozenset()) -> int:
        """Return the most ways (`draw`) hands since the pass allow in which each seat of `forced` holds a card its
        hand dealt lacked. Seat t's card got is one of its hand but its trick-1 card and a card it showed (a card
        shown stays: "his communicated card excluded"), and the card lacked when it holds one; the seat knows the
        card the seat on its left got (its own gift)."""
        players, most = len(self.sizes), 1
        for t in ((self.seat + k) % players for k in range(2, players)):
            shown = self.holding[t] & ~self.opening[t] & ~bit(COMMANDER_CARD)  # the 4 rocket may be given
            most *= 1 if t in forced else self.sizes[t] - popcount(shown)
        return most

    def draw(self, hands, rng: random.Random, most: int) -> tuple[int, ...] | None:
        """Return the card each seat gave, drawn uniformly among the ways the `hands` since the pass (each with its
        trick-1 card and every card it played or put in since) allow, with probability (the ways) / `most` (at
        least the ways any hands allow, `most_ways`); None otherwise (the hands are drawn again)."""
        players, seat = len(hands), self.seat
        chain = [(seat + 1 + k) % players for k in range(players - 1)]  # x_t: the card t got, x_{seat+1} the gift
        if not hands[chain[0]] >> self.gave & 1:
            return None
        layers = [{self.gave: 1}]  # per seat of the chain, x_t -> the ways to reach it from the seat's gift
        for giver, taker in zip(chain, chain[1:]):
            layers.append({x: total for x in scan(hands[taker] & ~self.opening[taker])
                           if (total := sum(ways for got, ways in layers[-1].items()
                                            if self.dealt_agrees(giver, hands[giver], got, x)))})
        ending = {x: ways for x, ways in layers[-1].items() if self.dealt_agrees(chain[-1], hands[chain[-1]], x, self.got)}
        ways = sum(ending.values())
        if not ways or rng.randrange(most) >= ways:
            return None
        got = {seat: self.got}
        weights = ending
        for k in range(len(chain) - 1, 0, -1):
            got[chain[k]] = pick(weights, rng)
            weights = {x: ways for x, ways in layers[k - 1].items()
                       if self.dealt_agrees(chain[k - 1], hands[chain[k - 1]], x, got[chain[k]])}
        got[chain[0]] = self.gave
        return tuple(got[(t + 1) % players] for t in range(players))

    @staticmethod
    def dealt(hands, gifts) -> tuple[int, ...]:
        """Return the hands dealt of the `hands` since the pass (see `draw`) and the `gifts`."""
        return tuple(hand & ~bit(gifts[t - 1]) | bit(gifts[t]) for t, hand in enumerate(hands))


def pick(weights: dict[int, int], rng: random.Random) -> int:
    """Return a key of `weights` drawn with probability proportional to its weight."""
    chosen = rng.randrange(sum(weights.values()))
    for key, weight in weights.items():
        if chosen < weight:
            return key
        chosen -= weight
    raise AssertionError("weights changed while drawn")


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
