"""What a player knows after mission 12's random pass, and the worlds it allows, drawn uniformly.

"Right after trick 1 every player gives one card chosen uniformly at random from his hand (his communicated
card excluded) to the next player in turn order (left)" (planet-nine.md). A player sees the card it gave and
the card it got, not the others' gifts, so what play revealed before the pass says nothing of one card per
hand after it. A world is what the pass left unknown: for every seat t the cards it kept through the pass
(`kept` slot K_t, every card it held after trick 1 but its gift, those it played since included) and its gift
(slot g_t, one card, which lands with seat t + 1). The worlds are the slot contents consistent with what the
seat knows; each is equally likely (every hand after trick 1 has a known size, and each gift is uniform over
its hand less its shown card), so the slots are "seats" of `Knowledge` and its exact count and uniform draw
serve unchanged:

- the seat's own slots and the gift it got are known: K_s, g_s and g_{s-1};
- a card t played after the pass, or shows after it and has not played, lies in t's hand then: K_t or g_{t-1};
- a card t showed before trick 1 and did not play in it lies in K_t: a shown card is never given;
- trick 1's voids hold of t's hand before the pass (K_t and g_t), later ones of its hand then (K_t and
  g_{t-1}, but for the cards of the suit t played since the pass); on the hang glider a discard leaves those
  slots room for one card of the colour, the one set aside (`discard_caps`); a token likewise bounds the hand it was
  shown from, and a highest or lowest card's other card of its colour lies among those slots (a need) unless
  t played one from that hand.

A world is a deal again: seat t's hand was its trick-1 card, K_t and g_t, and a pass that lists the gifts first
(`RandomPass`: each seat gives the first card of the order it holds) makes the engines replay it.
"""

from dataclasses import dataclass

from solver.core.cards import CARD_COUNT, SUIT_MASKS, bit, suit_of
from solver.core.deal import COMMANDER_CARD
from solver.missions.knowledge import Communication, Knowledge, Placed, Places, forbid_in, played_by
from solver.trick.chance import RandomPass


@dataclass(frozen=True)
class PassWorlds:
    """What a seat knows after a random pass after trick 1, as `known`: a Knowledge over 2 x players slots, slot
    t the cards seat t kept through the pass and slot players + t the card it gave; `first` each seat's trick-1
    card; `after` the trick the pass follows."""

    known: Knowledge
    first: tuple[int, ...]
    after: int = 1

    @property
    def players(self) -> int:
        return len(self.first)

    def world(self, slots) -> tuple[tuple[int, ...], RandomPass]:
        """Return the hands dealt and the pass of one slot assignment (`Knowledge.samples`' tuples)."""
        players = self.players
        hands = tuple(bit(self.first[t]) | slots[t] | slots[players + t] for t in range(players))
        gifts = [slots[players + t].bit_length() - 1 for t in range(players)]
        return hands, RandomPass(self.after, (*gifts, *(c for c in range(CARD_COUNT) if c not in gifts)))

    @staticmethod
    def of(seat: int, tricks, kept: int, gave: int, got: int, sizes, communications=(), deck: int = 0,
           commander: int = -1, placed: Placed = Placed(), seen=(), last_trick: int = -1) -> "PassWorlds":
        """Return what `seat` knows after the pass that followed trick 1: `tricks` the tricks so far (each a
        sequence of (seat, card) in play order, trick 1 first, the last maybe begun), `kept` its cards after
        trick 1 but `gave`, its gift, `got` the card it got, `sizes` each hand's size as dealt,
        `communications` the cards shown, `deck` the cards dealt and `commander` the seat dealt the 4 rocket;
        `placed` what it knows of the hands as dealt from what no play shows (the Vespa's swap, Knowledge.of's):
        a card a seat held then it kept or gave in the pass, unless it played it in trick 1.

        On the skis, where whole hands move after the pass, every seat above (in `tricks`, `communications`,
        `seen`) is the seat dealt the hand that played or showed the card (crew.py, `hands_moved`), and `seen`
        lists the other hands `seat` has held since the pass, as (seat dealt it, its cards now): it saw each whole,
        so what that hand kept and got in the pass is its cards now and those it played since. On the hang glider
        (`last_trick`, the last trick's index; -1: none) a seat that did not follow a colour before the last trick
        held at most one card of it then, the one it had set aside (`discard_caps`)."""
        players = len(sizes)
        kept_slot, gift_slot = (lambda t: t), (lambda t: players + t)
        got_slot = gift_slot((seat - 1) % players)  # the gift that landed with `seat`

        def in_hand_after(t: int) -> int:
            """The slots of seat t's hand after the pass: what it kept and what it got."""
            return 1 << kept_slot(t) | 1 << gift_slot((t - 1) % players)

        def in_hand_before(t: int) -> int:
            return 1 << kept_slot(t) | 1 << gift_slot(t)

        first = tuple(next(c for s, c in tricks[0] if s == t) for t in range(players))

        every = [played_by(tricks, t, 1) for t in range(players)]  # played after the pass
        universe = deck & ~sum(bit(c) for c in first)
        slots = 2 * players
        must = [0] * slots
        must[kept_slot(seat)], must[gift_slot(seat)], must[got_slot] = kept, bit(gave), bit(got)
        places = Places(slots)
        place = places.place
        cannot = [0] * slots

        def forbid(slot_mask: int, cards: int) -> None:
            forbid_in(cannot, slot_mask, cards)

        for t in range(players):
            place(every[t], in_hand_after(t))
        for t, now in seen:  # a hand held since the pass: its cards then (which fill its two slots)
            place(now | every[t], in_hand_after(t))
        if commander >= 0 and first[commander] != COMMANDER_CARD:  # dealt to the Commander: kept or given
            place(deck & bit(COMMANDER_CARD), in_hand_before(commander))
        for other, cards in placed.held:
            place(cards & universe, in_hand_before(other))
        for seats, c in placed.among:  # one of the seats held it as dealt
            place(bit(c) & universe, sum(in_hand_before(t) for t in range(players) if seats >> t & 1))
        discards = {}  # the hang glider: (the slots of the hand then, the colour) -> the cards of it it may have held
        for number, trick in enumerate(tricks):
            led = SUIT_MASKS[suit_of(trick[0][1])]
            for t, c in trick[1:]:
                if bit(c) & led or t == seat or last_trick >= 0 and number >= last_trick:
                    continue
                hand = in_hand_before(t) if number == 0 else in_hand_after(t)
                held_then = led & ~played_by(tricks, t, 1, number)  # but the cards it played since the pass
                if last_trick >= 0:
                    discards.setdefault((hand, led), held_then)  # the first discard: the hand held the most then
                else:
                    forbid(hand, held_then)
        needs = []
        for shown in communications:
            t, colour = shown.seat, SUIT_MASKS[suit_of(shown.card)] & ~bit(shown.card)
            if shown.trick == 1:  # from its hand before trick 1, so before the pass
                if shown.card != first[t]:  # kept: a shown card is never given
                    place(bit(shown.card), 1 << kept_slot(t))
                forbid(in_hand_before(t), shown.excludes())
                if shown.with_another() and not bit(first[t]) & colour:
                    needs.append((in_hand_before(t), colour & universe))
            else:  # from its hand then: what it kept and got, less what it played since the pass
                gone = played_by(tricks, t, 1, shown.trick - 1)
                place(bit(shown.card), in_hand_after(t))
                forbid(in_hand_after(t), shown.excludes() & ~gone)
                # a colour card t played since lies in those slots, so the need holds: left out (each need
                # doubles `count`'s work)
                if shown.with_another() and not played_by(tricks, t, shown.trick - 1) & colour:
                    needs.append((in_hand_after(t), colour & universe & ~gone))
        known_cards = 0
        for held in must:
            known_cards |= held
        places.forbid_elsewhere(cannot, known_cards)
        own = (1 << kept_slot(seat)) | (1 << gift_slot(seat)) | (1 << got_slot)
        forbid(own, universe)
        sizes_now = [0] * slots
        for t in range(players):
            sizes_now[kept_slot(t)], sizes_now[gift_slot(t)] = sizes[t] - 2, 1
        unseen = universe & ~known_cards
        caps = discard_caps(discards, must, cannot, unseen)
        cannot = [forbidden & ~must[slot] for slot, forbidden in enumerate(cannot)]
        needs = [(mask, cards) for mask, cards in needs if cards and not any(
            must[slot] & cards for slot in range(slots) if mask >> slot & 1)]
        known = Knowledge(seat, tuple(must), tuple(cannot), tuple(sizes_now), unseen, tuple(needs), caps)
        return PassWorlds(known, first)

    def samples(self, rng, count: int) -> list[tuple[tuple[int, ...], RandomPass]]:
        """Return `count` worlds (the hands dealt, the pass) drawn uniformly with `rng`."""
        return [self.world(slots) for slots in self.known.samples(rng, count)]


def discard_caps(discards, must, cannot, unseen: int) -> tuple[tuple[int, int, int], ...]:
    """Return the caps (Knowledge.caps) of the hang glider's discards, and forbid in `cannot` the cards of a colour a
    hand held no more of. "Before the 1st trick, each crew member must place 1 of their own cards face down ... It is
    treated as though it did not exist. Before each trick, the card may be exchanged": a seat that did not follow a
    colour held at most one card of it then (`discards`: (the slots of its hand then, the colour) -> the cards of it
    the hand may have held then), a known one or one of the unseen cards of those slots (those it played since
    included)."""
    caps = []
    for (hand, colour), held_then in sorted(discards.items()):
        known = held_then & sum(must[slot] for slot in range(len(must)) if hand >> slot & 1)
        if known:
            forbid_in(cannot, hand, held_then & ~known)
        elif held_then & unseen:
            caps.append((hand, held_then & unseen, 1))
    return tuple(caps)


def shown_last(random_pass: RandomPass, shown: list[Communication]) -> RandomPass:
    """Return `random_pass` with the cards shown before it moved to the end of its order: "his communicated card
    excluded" from the draw, every other card as likely as before."""
    cards = {c.card for c in shown if c.trick <= random_pass.after}
    order = tuple(c for c in random_pass.order if c not in cards) + tuple(c for c in random_pass.order if c in cards)
    return RandomPass(random_pass.after, order)

