"""What one player at the table knows, and deals of the unseen cards drawn uniformly among those it allows.

A player sees their own hand, every card played and by whom, how many cards each hand holds, who
the Commander is (the holder of the 4 rocket), and the cards the crew communicated with their token. From these follow, for every other seat, the
cards it must hold (a communicated card not yet played) and the cards it cannot hold:

- a seat that did not follow the suit led holds no card of that suit ("you must follow suit ...
  only a player who has no card of the type led may play any card of their choice");
- a communicated card "is the highest, only, or lowest card of that colour in hand": no higher
  card of its colour, no other one, no lower one (a card in a dead zone, with no token, says
  nothing more). Hands only shrink on the train, so what held when a card was shown holds after.
  A highest or lowest card is one of several (a lone card is shown as the only one), so its seat
  held another card of the colour then: unless it has played one since, it still holds one
  (`needs`: a need is not a group's split, so `count` adds and subtracts the deals that break
  some, and a draw that breaks one is drawn again, which leaves the others equally likely).

Chance nobody has seen is not known: the unseen cards are every card of the deck but the player's
own, those played, and those known to lie in another hand. A consistent deal gives each other seat
its known cards and exactly as many unseen ones as its hand lacks, none it cannot hold.

`Knowledge.sample` draws one uniformly (every consistent deal equally likely): the unseen cards
are grouped by the seats that may hold them (cards of a group are interchangeable for counting),
`count` is the exact number of consistent deals given the seats' remaining room (a sum over how
many cards of each group go to each seat, with multinomial weights), and each group's split is
drawn with probability proportional to the deals it leaves, then its cards shuffled into it. The
stage spaces that move cards between hands (skis, helicopter, jeep, fog's draws) invalidate what play
revealed; the crew that uses this module plays each with places of its own: fog (solver/missions/fog_worlds.py,
whose proposal is a Knowledge over the hands now and the pile), the jeep (solver/missions/jeep_worlds.py, whose
places are the cards each seat kept through the exchange and the two it took), the helicopter
(solver/missions/heli_worlds.py, whose places are the cards each seat kept through the last pass and the one it
passed then) and the skis, which move whole hands: there the "seats" are the hands as dealt, each a bundle of
cards that only shrinks, and a player knows every hand it has held (solver/engines/crew.py, `hands_moved`). The Vespa's swap, before any play, places cards no play shows
(`Placed`: what the two who swapped gave, and the blue 1 with one of them). On the hang glider a discard says
less: its seat may hold one card of the colour, the one it set aside (`caps`: at most so many of some cards;
`count` and `ways` carry each cap's room beside each seat's). The Ghost's face-down cards are a place of their own
(solver/missions/ghost_knowledge.py). Mission 12's pass
(solver/missions/pass_worlds.py) makes the places cards lie in the kept cards and gifts of the pass, and a five-player
special stage's redeal (solver/missions/redeal_worlds.py) the kept cards, the discards drawn and those left over.
"""

import bisect
import functools
import itertools
import math
import random
from dataclasses import dataclass

from solver.core.cards import COLOURS, DECK, SUIT_MASKS, bit, card_set, format_card, popcount, scan, suit_of
from solver.core.deal import COMMANDER_CARD
from solver.core.errors import InputError

HIGHEST, ONLY, LOWEST = "highest", "only", "lowest"
TOKENS = (HIGHEST, ONLY, LOWEST)


@dataclass(frozen=True)
class Communication:
    """A card a seat showed face up before trick `trick` (1-based), with its token's position (None: a dead
    zone, no token)."""

    seat: int
    card: int
    token: str | None
    trick: int = 1
    holds_none: int = 0  # cards its seat held none of when it showed it: the bicycle's ("only a player who has no
    # (more) bicycle card in hand may communicate")

    def __post_init__(self):
        if self.token is not None and self.token not in TOKENS:
            raise InputError(f"a communication token lies at the highest, only or lowest place, not {self.token!r}")
        if suit_of(self.card) not in COLOURS:
            raise InputError(f"rockets cannot be communicated ({format_card(self.card)})")

    def excludes(self) -> int:
        """Return the cards the token (and `holds_none`) says its seat does not hold."""
        suit = SUIT_MASKS[suit_of(self.card)]
        if self.token == HIGHEST:
            return self.holds_none | suit & ~((bit(self.card) << 1) - 1)
        if self.token == LOWEST:
            return self.holds_none | suit & (bit(self.card) - 1)
        if self.token == ONLY:
            return self.holds_none | suit & ~bit(self.card)
        return self.holds_none

    def with_another(self) -> bool:
        """Return True when the token says its seat held another card of the colour then: a highest or lowest
        card is one of several (a lone card is shown as the only one)."""
        return self.token in (HIGHEST, LOWEST)


@dataclass(frozen=True)
class Placed:
    """Cards a player knows the place of from what no play shows (the Vespa's swap: solver/engines/vespa_swap.py),
    each until played: `held` (seat, cards) those a seat holds, `among` (seat mask, card) a card one of the seats of
    the mask holds."""

    held: tuple[tuple[int, int], ...] = ()
    among: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class Knowledge:
    """What `seat` knows: per seat the cards it must hold now (its own: its whole hand) and those it cannot,
    and how many it holds; `unseen` the cards whose place it does not know; `needs` (seats, cards): the seats
    of that mask hold at least one of these cards between them.

    The "seats" may be any places cards lie in: mission 12's pass (solver/missions/pass_worlds.py) makes
    them the cards each seat kept through the pass and the card each gave."""

    seat: int
    must: tuple[int, ...]
    cannot: tuple[int, ...]
    sizes: tuple[int, ...]
    unseen: int
    needs: tuple[tuple[int, int], ...] = ()
    caps: tuple[tuple[int, int, int], ...] = ()  # (seats, cards, most): the seats of that mask hold at most `most` of
    # these unseen cards between them (the hang glider's: a card set aside does not count for following suit)

    @staticmethod
    def of(seat: int, hand: int, sizes, tricks, communications=(), deck: int = DECK, seen=(),
           commander: int = -1, placed: Placed = Placed(), last_trick: int = -1, moves=()) -> "Knowledge":
        """Return what `seat` knows holding `hand` now, with `sizes` the cards each seat holds now, `tricks`
        the tricks played so far (each a sequence of (seat, card) in play order, the last maybe begun),
        `communications` the cards shown (Communication) and `deck` the cards dealt; `seen`: (seat, cards) of the
        other hands it knows whole (the skis: the hands it held before they moved on); `commander`: the seat that
        holds the 4 rocket ("Commander: the holder of the 4 rocket"), when the deck has it and until it is played;
        `placed`: cards whose place it knows from what no play shows (Placed); `last_trick`: on the hang glider,
        the last trick's index (0-based), before which a card set aside does not count for following suit
        (`set_aside_caps`; -1: no hang glider); `moves`: cards passed between seats that it saw, in the order passed,
        each (the number of tricks before the pass, giver, receiver, card): with the Ghost on the helicopter every
        pass is seen by both players (ghost_knowledge.py). A hand's void, and a token's bounds, still hold for its
        unseen cards: every card a hand got since is a seen one."""
        players = len(sizes)
        played = card_set(c for trick in tricks for _, c in trick)
        cannot = [0] * players
        discards = {}  # the hang glider: (seat, colour) -> the tricks it did not follow that colour in
        for t, trick in enumerate(tricks):
            led = SUIT_MASKS[suit_of(trick[0][1])]
            for other, c in trick[1:]:
                if bit(c) & led:
                    continue
                if last_trick < 0:
                    cannot[other] |= led
                elif t < last_trick:
                    discards.setdefault((other, led), []).append(t)
        must = [0] * players
        for shown in communications:
            cannot[shown.seat] |= shown.excludes()
            if not bit(shown.card) & played:
                must[shown.seat] |= bit(shown.card)
        if commander >= 0:
            must[commander] |= deck & bit(COMMANDER_CARD) & ~played
        for other, cards in placed.held:
            must[other] |= cards & ~played
        for _, giver, receiver, c in moves:
            must[giver] &= ~bit(c)
            must[receiver] |= bit(c) & deck & ~played  # a card the Ghost got lies face up, no card of his place
        for whole, cards in ((seat, hand), *seen):
            must[whole], cannot[whole] = cards, deck & ~cards
        known = 0
        for held in must:
            known |= held
        unseen = deck & ~played & ~known
        known_whole = {seat, *(whole for whole, _ in seen)}
        caps = set_aside_caps(discards, tricks, must, cannot, unseen, known_whole, moves)
        cannot = [forbidden & ~must[other] for other, forbidden in enumerate(cannot)]
        needs = tuple((1 << shown.seat, cards) for shown in communications
                      if shown.seat not in known_whole and shown.with_another()
                      for cards in [another_left(shown, tricks, must, unseen & ~cannot[shown.seat], moves)]
                      if cards >= 0)
        needs += tuple((seats, bit(c)) for seats, c in placed.among if bit(c) & unseen)  # played or known: no need
        return Knowledge(seat, tuple(must), tuple(cannot), tuple(sizes), unseen, needs, caps)

    @staticmethod
    def before_play(deal, seat: int, placed: Placed = Placed()) -> "Knowledge":
        """Return what `seat` of `deal` (a Deal) knows before trick 1: its hand, every hand's size, who holds the
        4 rocket, and the cards `placed` places (see `of`)."""
        sizes = tuple(popcount(hand) for hand in deal.hands)
        return Knowledge.of(seat, deal.hands[seat], sizes, (), deck=deal.cards, commander=deal.commander, placed=placed)

    def room(self) -> tuple[int, ...]:
        """Return how many unseen cards each seat holds."""
        return tuple(size - popcount(known) for size, known in zip(self.sizes, self.must))

    def groups(self) -> tuple[tuple[int, int, int], ...]:
        """Return the unseen cards grouped by the seats that may hold them and the `caps` they count in: (seat mask,
        cap mask, cards)."""
        by_seats: dict[tuple[int, int], int] = {}
        for c in scan(self.unseen):
            seats = sum(1 << other for other, forbidden in enumerate(self.cannot) if not forbidden >> c & 1)
            capped = sum(1 << k for k, (_, cards, _) in enumerate(self.caps) if cards >> c & 1)
            by_seats[seats, capped] = by_seats.get((seats, capped), 0) | bit(c)
        return tuple(sorted((seats, capped, cards) for (seats, capped), cards in by_seats.items()))

    def left(self) -> tuple[int, ...]:
        """Return what is left to fill before any unseen card is dealt: each seat's room, then each cap's most."""
        return self.room() + tuple(most for _, _, most in self.caps)

    def cap_seats(self) -> tuple[int, ...]:
        """Return each cap's seat mask."""
        return tuple(seats for seats, _, _ in self.caps)

    def consistent(self, hands) -> bool:
        """Return True when `hands` (now, seat by seat) agree with everything the seat knows."""
        if any(not held(hands, seats) & cards for seats, cards in self.needs):
            return False
        if any(popcount(held(hands, seats) & cards) > most for seats, cards, most in self.caps):
            return False
        unseen_held = 0
        for other, hand in enumerate(hands):
            if hand & self.must[other] != self.must[other] or hand & self.cannot[other]:
                return False
            if popcount(hand) != self.sizes[other]:
                return False
            unseen_held |= hand & ~self.must[other]
        return unseen_held == self.unseen

    def count(self) -> int:
        """Return the number of deals of the unseen cards consistent with what the seat knows: by inclusion and
        exclusion over the `needs` a deal breaks (breaking one: its seat holds none of its cards)."""
        total = 0
        for broken in range(1 << len(self.needs)):
            cannot = list(self.cannot)
            for k, (seats, cards) in enumerate(self.needs):
                if broken >> k & 1:
                    for other in seat_list(seats):
                        cannot[other] |= cards
            without = Knowledge(self.seat, self.must, tuple(cannot), self.sizes, self.unseen, (), self.caps)
            total += (-1) ** popcount(broken) * ways(without.groups(), 0, without.left(), self.cap_seats())
        return total

    def sample(self, rng: random.Random) -> tuple[int, ...]:
        """Return the hands now of one deal drawn uniformly among the consistent ones; InputError when none is."""
        return self.samples(rng, 1)[0]

    def samples(self, rng: random.Random, count: int) -> list[tuple[int, ...]]:
        """Return `count` deals drawn as `count` calls of `sample` would draw them, the weights of each group's
        splits computed once (`weighted_splits`, kept across calls)."""
        groups, start, capped = self.groups(), self.left(), self.cap_seats()
        if any(r < 0 for r in start) or self.count() == 0:
            raise InputError(f"no deal of the unseen cards agrees with what seat {self.seat} knows")
        weighted = {}  # (group index, what is left) -> weighted_splits: a key cheaper to hash for each draw
        seats_of = [seat_list(seats) for seats, _, _ in groups]
        cards_of = [list(scan(cards)) for _, _, cards in groups]
        drawn = []
        while len(drawn) < count:  # a deal that breaks a need is drawn again: the others stay equally likely
            hands, left = list(self.must), start
            for index, (seats, caps, cards) in enumerate(groups):
                found = weighted.get((index, left))
                if found is None:
                    found = weighted[index, left] = weighted_splits(groups, index, left, capped)
                sums, splits = found
                split, left = splits[bisect.bisect_right(sums, rng.randrange(sums[-1]))]
                shuffled = cards_of[index][:]
                rng.shuffle(shuffled)
                at = 0
                for other, share in zip(seats_of[index], split):
                    hands[other] |= card_set(shuffled[at : at + share])
                    at += share
            if all(held(hands, seats) & cards for seats, cards in self.needs):
                drawn.append(tuple(hands))
        return drawn


class Places:
    """Where cards lie among the slots of a Knowledge whose "seats" are places (mission 12's pass, a redeal), where
    known to be fewer than all: `place` narrows a card's slots, `forbid_elsewhere` forbids it every other one."""

    def __init__(self, slots: int):
        self.every = (1 << slots) - 1
        self.where: dict[int, int] = {}  # card -> the slots it may lie in

    def place(self, cards: int, slot_mask: int) -> None:
        """Record that each of `cards` lies in one of the slots of `slot_mask`."""
        for c in scan(cards):
            self.where[c] = self.where.get(c, self.every) & slot_mask

    def forbid_elsewhere(self, cannot: list[int], known: int) -> None:
        """Forbid in `cannot` (per slot) each placed card's other slots, but for the `known` cards (a slot must
        hold them)."""
        for c, allowed in self.where.items():
            if not known >> c & 1:
                for slot in seat_list(self.every & ~allowed):
                    cannot[slot] |= bit(c)


def played_by(tricks, seat: int, start: int, stop: int | None = None) -> int:
    """Return the cards `seat` played in tricks[start:stop] (0-based; each trick a sequence of (seat, card))."""
    return card_set(c for trick in tricks[start:stop] for s, c in trick if s == seat)


def forbid_in(cannot: list[int], slot_mask: int, cards: int) -> None:
    """Forbid `cards` in `cannot` (per slot) to every slot of `slot_mask`."""
    for slot in seat_list(slot_mask):
        cannot[slot] |= cards


def set_aside_caps(discards, tricks, must, cannot, unseen: int, known_whole, moves=()) -> tuple[tuple[int, int, int], ...]:
    """Return the caps (Knowledge.caps) of the hang glider's discards, and forbid in `cannot` the colours a seat
    holds no more of. "Before the 1st trick, each crew member must place 1 of their own cards face down ... It is
    treated as though it did not exist. Before each trick, the card may be exchanged": a seat that did not follow
    a colour (`discards`: (seat, colour) -> those tricks, 0-based) held at most one card of it then, the one it
    had set aside; a card of it played or passed (`moves`, Knowledge.of's) since, or known in its hand, was that one
    unless it got the card since without holding it then (`got_first`), and it holds no other. Where cards change
    hands a later trick can say more than the first: a card of the colour got in between and held then leaves no
    room (`held_at_most`)."""
    caps = []
    for (seat, colour), at in sorted(discards.items()):
        if seat in known_whole:
            continue
        most = min(held_at_most(seat, colour, trick, tricks, must, moves) for trick in at)
        if most <= 0:
            cannot[seat] |= colour
        elif colour & unseen & ~cannot[seat]:
            caps.append((1 << seat, colour & unseen, most))
    return tuple(caps)


def held_at_most(seat: int, colour: int, trick: int, tricks, must, moves) -> int:
    """Return how many unseen cards of `colour` `seat` may hold, having held at most one card of it at `trick`
    (0-based; the hang glider's discard): one less for each card of it it held then that is seen, played or passed
    since or known in its hand now, but not one it got since without holding it then (`got_first`)."""
    since = card_set(c for later in tricks[trick + 1 :] for other, c in later if other == seat)
    since |= card_set(c for before, giver, _, c in moves if giver == seat and before > trick)
    return 1 - popcount((since | must[seat]) & ~got_first(seat, moves, trick + 1) & colour)


def got_first(seat: int, moves, since: int) -> int:
    """Return the cards `seat` got in a pass after `since` tricks (`moves`, Knowledge.of's) without having held
    them then: their first move to or from it since is to it (a card it passed on and got back it held then)."""
    got, seen = 0, 0
    for before, giver, receiver, c in moves:
        if before >= since and seat in (giver, receiver) and not seen >> c & 1:
            seen |= bit(c)
            got |= bit(c) if receiver == seat else 0
    return got


def another_left(shown: Communication, tricks, must, may: int, moves=()) -> int:
    """Return the cards of which `shown`'s seat must still hold one (`may`: the unseen cards it may hold), or -1
    when nothing is left to say: it played or passed (`moves`, Knowledge.of's) another card of the colour it held
    when showing, or holds a known one it held then (not one it got since without holding it then, `got_first`)."""
    colour = SUIT_MASKS[suit_of(shown.card)] & ~bit(shown.card)
    played_after = card_set(c for trick in tricks[shown.trick - 1 :] for other, c in trick if other == shown.seat)
    played_after |= card_set(c for before, giver, _, c in moves if giver == shown.seat and before >= shown.trick)
    if (played_after | must[shown.seat]) & ~got_first(shown.seat, moves, shown.trick) & colour:
        return -1
    return may & colour


def held(hands, seats: int) -> int:
    """Return the cards the seats of mask `seats` hold between them."""
    cards = 0
    for other in seat_list(seats):
        cards |= hands[other]
    return cards


def seat_list(seats: int) -> list[int]:
    """Return the seats of a seat mask, lowest first."""
    return [other for other in range(seats.bit_length()) if seats >> other & 1]


def splits_of(count: int, seats: int, room):
    """Yield every way to split `count` cards among the seats of mask `seats`, each within its room."""
    order = seat_list(seats)
    after = [0] * (len(order) + 1)  # the room of the seats from each place in `order` on
    for at in range(len(order) - 1, -1, -1):
        after[at] = after[at + 1] + room[order[at]]

    def split(k: int, at: int):
        if at == len(order) - 1:
            yield (k,)  # within its room: the shares before left no more
            return
        # no share that leaves more than the seats after can take: on the 8-10 place Knowledges of the jeep and the
        # helicopter most splits tried were such dead ends; crew games, old and new taking turns (8 games a set, 2
        # rounds, beside a sweep): jeep-4p 0.84x, helicopter-5p 0.70x the time; logbook-4p/5p 1.00x/0.99x
        for share in range(max(0, k - after[at + 1]), min(k, room[order[at]]) + 1):
            for rest in split(k - share, at + 1):
                yield (share, *rest)

    if order and count <= after[0]:
        yield from split(count, 0)


def take(left, seats: int, split, caps: int = 0, cap_seats=()) -> tuple[int, ...]:
    """Return `left` (each seat's room, then each cap's most: Knowledge.left) after the seats of mask `seats` take
    `split` cards each, cards that count in the caps of mask `caps` (`cap_seats`: each cap's seat mask)."""
    left, players = list(left), len(left) - len(cap_seats)
    for other, share in zip(seat_list(seats), split):
        left[other] -= share
        for k, capped in enumerate(cap_seats):
            if caps >> k & 1 and capped >> other & 1:
                left[players + k] -= share
    return tuple(left)


def room_within(left, seats: int, caps: int, cap_seats) -> tuple[int, ...]:
    """Return each seat's room for cards that count in the caps of mask `caps` (Knowledge.left's `left`): at most
    each cap's most, which its seats share (`splits_within` checks their sum)."""
    room = list(left[: len(left) - len(cap_seats)])
    for k, capped in enumerate(cap_seats):
        if caps >> k & 1:
            for seat in seat_list(seats & capped):
                room[seat] = min(room[seat], left[len(room) + k])
    return tuple(room)


def splits_within(count: int, seats: int, left, caps: int, cap_seats):
    """Yield (split, what is left after it) of every way to split `count` cards that count in the caps of mask `caps`
    among the seats of mask `seats`, within each seat's room and each cap's most (Knowledge.left's `left`)."""
    players = len(left) - len(cap_seats)
    for split in splits_of(count, seats, room_within(left, seats, caps, cap_seats)):
        after = take(left, seats, split, caps, cap_seats)
        if min(after[players:], default=0) >= 0:
            yield split, after


def multinomial(split) -> int:
    """Return the number of ways to deal sum(split) distinct cards into piles of these sizes."""
    return math.factorial(sum(split)) // math.prod(math.factorial(share) for share in split)


@functools.lru_cache(maxsize=4096)
def weighted_splits(groups, index: int, left, cap_seats=()) -> tuple[tuple[int, ...], tuple]:
    """Return the running sums of the weights of the splits of groups[index] (Knowledge.groups) with `left`
    (Knowledge.left's), and the splits with what each leaves (`splits_within`): a split's weight is the deals of
    the groups after it that it leaves possible. Kept across calls: the worlds of the jeep and the helicopter make
    a Knowledge a proposal, most alike (a five-player jeep game after mission 12's random pass, profiled: 6,424
    calls of `Knowledge.samples`, 230 of their 250 s computing these weights again). A split is found by bisection."""
    seats, caps, cards = groups[index]
    splits = tuple(splits_within(popcount(cards), seats, left, caps, cap_seats))
    sums = tuple(itertools.accumulate(multinomial(split) * ways(groups, index + 1, after, cap_seats)
                                      for split, after in splits))
    return sums, splits


@functools.lru_cache(maxsize=4096)
def ways(groups, index: int, left, cap_seats=()) -> int:
    """Return the number of ways to deal groups[index:] (Knowledge.groups) so that every seat's room is filled
    exactly and no cap is passed (`left`: Knowledge.left's, `cap_seats` the caps' seats)."""
    players = len(left) - len(cap_seats)
    if index == len(groups):
        return int(not any(left[:players]))
    seats, caps, cards = groups[index]
    return sum(multinomial(split) * ways(groups, index + 1, after, cap_seats)
               for split, after in splits_within(popcount(cards), seats, left, caps, cap_seats))

