"""What a player knows after a special stage's redeal of the discards, and the worlds it allows, drawn uniformly.

"5 players: you start normally with all 40 playing cards. After the 3rd trick you have played 15 cards, of which
3 went onto the table and 12 were discarded. Shuffle those 12 cards and draw 2 of them each" (the Journey
rules, special stages). Every discard was played face up, so a player knows which cards were shuffled, sees the
two it drew, and not who drew the others or which were left over. A world is what the redeal left unknown: for
every seat t the cards it kept from its dealt hand (slot K_t: its hand right after the last trick before the
redeal) and the discards it drew (slot D_t), and the discards nobody drew (slot OUT). Each is equally likely
(the dealt hands were, and the shuffle is uniform whatever they were), so the slots are "seats" of `Knowledge`
and its exact count and uniform draw serve unchanged:

- the seat's own slots are known: K_s, and D_s the discards it drew;
- a kept slot holds no discard, a drawn slot and OUT nothing but discards, each as many as the redeal gives;
- a card t played after the redeal lies in K_t or D_t, and the Commander's 4 rocket, unless played before it, in
  the Commander's K;
- a void before the redeal holds of t's hand then (K_t: what it kept of it), a void after it of its hand then
  (K_t and D_t, but for the cards of the suit t played since the redeal).

The crew that uses this module communicates only to show where a task lies (solver/engines/crew.py), and a
special stage has no tasks, so no card is shown: `of` refuses communications. A world is a deal again: seat t's
hand was the cards it played before the redeal and K_t, and the redeal gives each discard, lowest first, to the
seat whose D holds it (-1: OUT), as the engines replay it (`PlayRules.redeal_order`).
"""

from dataclasses import dataclass

from solver.core.cards import SUIT_MASKS, bit, card_set, scan, suit_of
from solver.core.deal import COMMANDER_CARD
from solver.core.errors import InputError
from solver.missions.knowledge import Knowledge, Places, played_by


@dataclass(frozen=True)
class RedealWorlds:
    """What a seat knows after the redeal that followed trick `after`, as `known`: a Knowledge over 2 x players + 1
    slots (K_t at t, D_t at players + t, OUT last); `before` the cards each seat played before the redeal and
    `discards` the cards shuffled."""

    known: Knowledge
    before: tuple[int, ...]
    discards: int

    def world(self, slots) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Return the hands dealt and the redeal's order (each discard's taker, lowest first; -1: none) of one slot
        assignment (`Knowledge.samples`' tuples)."""
        players = len(self.before)
        hands = tuple(self.before[t] | slots[t] for t in range(players))
        taker = {c: t for t in range(players) for c in scan(slots[players + t])}
        return hands, tuple(taker.get(c, -1) for c in scan(self.discards))

    @staticmethod
    def of(seat: int, tricks, tabled: int, held: int, order: tuple[int, ...], after: int, sizes, communications=(),
           deck: int = 0, commander: int = -1) -> "RedealWorlds":
        """Return what `seat` knows after the redeal that followed trick `after`: `tricks` the tricks so far (each a
        sequence of (seat, card) in play order, trick 1 first, the last maybe begun), `tabled` the cards laid on
        the table before the redeal, `held` its hand now, `order` the redeal's (what the seat knows of it: how
        many discards each seat drew, how many were left over), `sizes` each hand's size as dealt, `deck` the cards
        dealt and `commander` the seat dealt the 4 rocket."""
        if communications:
            raise InputError("a redeal's worlds know no communicated card (the crew shows none on a special stage)")
        players = len(sizes)
        out = 2 * players
        slots = out + 1

        before = tuple(played_by(tricks, t, 0, after) for t in range(players))
        played_before = card_set(c for trick in tricks[:after] for _, c in trick)
        discards = played_before & ~tabled
        drawn = (held | played_by(tricks, seat, after)) & discards
        must = [0] * slots
        must[seat], must[players + seat] = (held | played_by(tricks, seat, after)) & ~drawn, drawn
        cannot = [0] * slots
        universe = deck & ~played_before | discards
        for t in range(players):
            cannot[t] |= discards
            cannot[players + t] |= universe & ~discards
        cannot[out] |= universe & ~discards
        places = Places(slots)
        place = places.place
        for t in range(players):
            place(played_by(tricks, t, after), 1 << t | 1 << (players + t))
        if commander >= 0 and not played_before & bit(COMMANDER_CARD):
            place(deck & bit(COMMANDER_CARD), 1 << commander)
        for number, trick in enumerate(tricks):
            led = SUIT_MASKS[suit_of(trick[0][1])]
            for t, c in trick[1:]:
                if not bit(c) & led:
                    if number < after:
                        cannot[t] |= led
                    else:
                        since = played_by(tricks, t, after, number)
                        cannot[t] |= led & ~since
                        cannot[players + t] |= led & ~since
        known_cards = must[seat] | must[players + seat]
        places.forbid_elsewhere(cannot, known_cards)
        cannot[seat] |= universe
        cannot[players + seat] |= universe
        room = [0] * slots
        for t in range(players):
            room[t], room[players + t] = sizes[t] - after, order.count(t)
        room[out] = order.count(-1)
        cannot = [forbidden & ~must[slot] for slot, forbidden in enumerate(cannot)]
        known = Knowledge(seat, tuple(must), tuple(cannot), tuple(room), universe & ~known_cards, ())
        return RedealWorlds(known, before, discards)

    def samples(self, rng, count: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
        """Return `count` worlds (the hands dealt, the redeal's order) drawn uniformly with `rng`."""
        return [self.world(slots) for slots in self.known.samples(rng, count)]

