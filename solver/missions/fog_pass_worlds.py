"""What a player knows under fog after mission 12's random pass, and the worlds it allows, drawn uniformly.

Fog (fog_worlds.py) and mission 12's pass (pass_worlds.py) at once: "Right after trick 1 every player gives one card
chosen uniformly at random from his hand (his communicated card excluded) to the next player in turn order (left)".
The engines make the pass before trick 1's draws (reference.py, `between_tricks`), so a gift is a card its giver was
dealt; a seat that trick 1 left with no card (fog=1) gives none. A player sees its own cards as they arrive, the
card it gave and the card it got; not the others' gifts, draws or the pile. A world is, for every seat t, the cards
it has held since the pass (slot E_t: those it was dealt and kept, the one it got, those it has drawn since; trick
1's card aside), which of them it got, each card's arrival, and the pile. Each is equally likely before play (the
deal, the order of each hand's draws and each gift are uniform, and a gift is drawn from a hand of known size), so
the worlds consistent with what the seat knows are drawn uniformly:

1. the slots from a Knowledge over them (`proposal`): every card t played after trick 1 or showed and still holds
   lies in E_t; a card may lie in E_t only if it can have arrived in time, as a draw (fog_worlds.py's lowest
   arrivals: what a trick revealed of t's hand holds of the cards it held then) or as the card it got;
2. accepted with probability weight / most per other seat: its `weight`, the arrival histories of E_t summed over the
   card it got (one of E_t in its hand from trick 2 on, and one its giver could give: not of a colour trick 1 showed
   the giver void in, nor excluded by its token), over the most any E_t allows (`most_histories`): exact;
3. the card each seat got drawn in proportion to its histories, then one history, and the world drawn again when a
   highest or lowest token says its seat held another card of the colour then and the world gives it none (a need);
4. the pile shuffled into the draws to come, the deciding seat's own included.

Counting the card a seat got inside its own histories keeps the bound tight: with the gifts as slots of their own
(a card played after the pass its seat's own or the gift it got), the most a slot of the pass allowed was 10-40
times a typical proposal's histories, and a 4-player game of mission 12 drew 2,600 proposals a world (52-140 s a
game). The world is a deal again: each seat's hand is its trick-1 card, E_t but the card it got, its gift and the
draws to come, and a pass that lists the gifts first (`RandomPass`: each seat gives the first card of the order it
holds) makes the engines replay it. The crew plays it without the Ghost.
"""

from dataclasses import dataclass

from solver.core.cards import CARD_COUNT, SUIT_MASKS, bit, card_set, popcount, scan, suit_of
from solver.core.deal import COMMANDER_CARD
from solver.core.errors import InputError
from solver.missions.fog_worlds import (
    BATCH,
    MOST_PROPOSALS,
    SeatHistory,
    absences,
    deal_draws_to_come,
    draw_history,
    histories,
    lowest_arrival,
)
from solver.missions.knowledge import Knowledge, Places


@dataclass(frozen=True)
class FogPassWorlds:
    """What `seat` knows under fog after the random pass that followed trick 1: `proposal` a Knowledge over the
    slots (E_t at t, the pile last), `seats` each other seat's SeatHistory (its known cards in E_t with their windows,
    the 4 rocket among them while it may lie with the Guide or the seat he gave to; None: the deciding seat) and
    `most` the most weight its E_t allows, `first` each seat's trick-1 card, `got` each seat's card got if known
    (-1: unknown, or none given to it: `gets`), `gift_bans` the cards each seat's giver could not give it,
    `commander` the Guide, `known` the deciding seat's cards with their arrivals, `draws` each seat's draws in all,
    `after` the tricks played in full, `play_tricks` when each card played was, `needs` (seat, trick, cards): the
    seat held one of these cards during that trick."""

    seat: int
    proposal: Knowledge
    seats: tuple[SeatHistory | None, ...]
    most: tuple[int, ...]
    first: tuple[int, ...]
    gets: tuple[bool, ...]
    got: tuple[int, ...]
    gift_bans: tuple[int, ...]
    commander: int
    known: tuple[tuple[int, int], ...]
    draws: tuple[int, ...]
    after: int
    play_tricks: tuple[tuple[int, int], ...]
    needs: tuple[tuple[int, int, int], ...] = ()

    @property
    def players(self) -> int:
        return len(self.first)

    @staticmethod
    def of(seat: int, tricks, arrivals_seen, gave: int, got: int, dealt, draws, communications=(), deck: int = 0,
           commander: int = -1) -> "FogPassWorlds":
        """Return what `seat` knows after the pass: `tricks` the tricks so far (trick 1 complete; each a sequence of
        (seat, card) in play order, the last maybe begun), `arrivals_seen` its cards as dealt and drawn so far (its
        gift and trick 1's card included) with their arrivals, `gave` its gift and `got` the card it got (-1: none),
        `dealt` and `draws` how many cards each seat was dealt and draws in all, `communications` the cards shown,
        `deck` the cards dealt and drawn, `commander` the Guide (dealt the 4 rocket)."""
        players = len(dealt)
        after = sum(1 for trick in tricks if len(trick) == players)
        first = tuple(next(c for t, c in tricks[0] if t == other) for other in range(players))
        played_at = {c: (t, number) for number, trick in enumerate(tricks, 1) for t, c in trick}
        events = absences(tricks, communications)
        gives = [count >= 2 for count in dealt]  # trick 1 empties a hand dealt one card
        gets = tuple(gives[(t - 1) % players] for t in range(players))
        drawn = [min(after, draws[t]) for t in range(players)]
        universe = deck & ~card_set(first)
        must = [0] * (players + 1)
        must[seat] = card_set(c for c, _ in arrivals_seen) & ~bit(first[seat]) & ~card_or_none(gave) | card_or_none(got)
        must[(seat + 1) % players] |= card_or_none(gave)
        known_got = [-1] * players
        known_got[seat], known_got[(seat + 1) % players] = got, gave
        highest_for = {}  # (seat, card) -> the latest arrival the card may have in the seat's E_t: it held it then
        for c, (t, number) in played_at.items():
            if number > 1 and t != seat:
                highest_for[t, c] = 0 if (t, c) == (commander, COMMANDER_CARD) else number - 1  # the Guide was dealt it
                must[t] |= bit(c)
        for shown in communications:
            t, c = shown.seat, shown.card
            if t == seat or c == first[t]:
                continue
            if shown.trick == 1 and dealt[t] == 2:  # "his communicated card excluded", but trick 1 left it alone
                known_got[(t + 1) % players] = c
                must[(t + 1) % players] |= bit(c)
                continue
            highest_for[t, c] = min(highest_for.get((t, c), CARD_COUNT), shown.trick - 1)
            must[t] |= bit(c) & ~card_set(played_at)
        places = Places(players + 1)
        guide_holds = (commander not in (-1, seat) and deck >> COMMANDER_CARD & 1 and not must[seat] >> COMMANDER_CARD & 1
                       and first[commander] != COMMANDER_CARD and COMMANDER_CARD not in played_at)
        if guide_holds:  # dealt to the Guide: kept, or given to the seat on his left
            highest_for[commander, COMMANDER_CARD] = 0
            places.place(bit(COMMANDER_CARD), 1 << commander | 1 << (commander + 1) % players)
        optional = COMMANDER_CARD if guide_holds and (commander + 1) % players != seat else -1
        seats: list[SeatHistory | None] = []
        cannot = [0] * (players + 1)
        for t in range(players):
            if t == seat:
                seats.append(None)
                continue
            # not cut at its draws so far: a card it got arrives after trick 1 even where it has drawn nothing
            windows = tuple((c, lowest_arrival(events, played_at, t, c), high)
                            for (other, c), high in sorted(highest_for.items()) if other == t)
            unseen_low = tuple(lowest_arrival(events, played_at, t, c) for c in range(CARD_COUNT))
            seats.append(SeatHistory(windows, unseen_low, drawn[t]))
            late = max(drawn[t], 1 if gets[t] else 0)  # the card it got is in its hand from trick 2 on
            cannot[t] |= card_set(c for c in scan(universe) if unseen_low[c] > late)
        gift_bans = [0] * players  # what each seat's giver could not give it: what trick 1 showed of the giver's hand
        for t, number, cards in events:
            if number == 1:
                gift_bans[(t + 1) % players] |= cards
        known_cards = 0
        for held in must:
            known_cards |= held
        places.forbid_elsewhere(cannot, known_cards)
        cannot[seat] |= universe
        sizes = [dealt[t] - 1 - gives[t] + drawn[t] + gets[t] for t in range(players)]
        sizes.append(popcount(universe) - sum(sizes))
        cannot = [forbidden & ~must[slot] for slot, forbidden in enumerate(cannot)]
        proposal = Knowledge(seat, tuple(must), tuple(cannot), tuple(sizes), universe & ~known_cards)
        most = tuple(0 if history is None else
                     most_histories(history, sizes[t], gets[t], known_got[t], optional if t == commander else -1)
                     for t, history in enumerate(seats))
        needs = tuple((shown.seat, shown.trick, SUIT_MASKS[suit_of(shown.card)] & ~bit(shown.card))
                      for shown in communications if shown.with_another() and shown.seat != seat)
        play_tricks = tuple(sorted((c, number) for c, (_, number) in played_at.items()))
        return FogPassWorlds(seat, proposal, tuple(seats), most, first, gets, tuple(known_got), tuple(gift_bans),
                             commander, tuple(sorted(arrivals_seen)), tuple(draws), after, play_tricks, needs)

    def samples(self, rng, count: int) -> list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]]:
        """Return `count` worlds (every hand as it ends, every card's arrival, each seat's gift or -1) drawn uniformly
        with `rng`."""
        worlds, proposed = [], 0
        while len(worlds) < count:
            for slots in self.proposal.samples(rng, BATCH):
                world = self.accepted(slots, rng)
                if world is not None and len(worlds) < count:
                    worlds.append(world)
            proposed += BATCH
            if proposed > MOST_PROPOSALS * count:
                raise InputError(f"no history of fog's draws and the pass found for seat {self.seat} in {proposed} "
                                 "draws")
        return worlds

    def got_options(self, t: int, cards: int) -> list[tuple[int, int]]:
        """Return (card got, histories of the rest) for each card of E_t (`cards`) seat t may have got; one option,
        (-1, the histories of them all), when nobody gave it a card."""
        history = self.seats[t]
        windows = history.windows_of(cards)
        if not self.gets[t]:
            return [(-1, histories(tuple(sorted(windows.values())), history.drawn))]
        known_high = {c: high for c, _, high in history.windows}
        if self.got[t] >= 0:
            could = [self.got[t]]
        elif cards >> COMMANDER_CARD & 1 and t == (self.commander + 1) % self.players:
            could = [COMMANDER_CARD]  # the Guide's, dealt him: in the hand on his left, his gift
        else:  # in its hand from trick 2 on (not one it held in trick 1), and one its giver could give
            could = [c for c in scan(cards & ~self.gift_bans[t]) if windows[c][0] <= 1 and known_high.get(c, 1) >= 1]
        options = []
        for c in could:
            rest = tuple(sorted(window for other, window in windows.items() if other != c))
            options.append((c, histories(rest, history.drawn)))
        return options

    def accepted(self, slots, rng):
        """Return the world of proposal `slots` (Knowledge.samples'), or None when rejected."""
        players = self.players
        count = best = 1
        options = {}
        for t, history in enumerate(self.seats):
            if history is not None:
                options[t] = self.got_options(t, slots[t])
                count *= sum(weight for _, weight in options[t])
                best *= self.most[t]
        if count == 0 or rng.randrange(best) >= count:
            return None
        arrival = [0] * CARD_COUNT
        for c, at in self.known:
            arrival[c] = at
        got = list(self.got)
        for t, history in enumerate(self.seats):
            if history is None:
                continue
            pick = rng.randrange(sum(weight for _, weight in options[t]))
            for c, weight in options[t]:
                if pick < weight:
                    got[t] = c
                    break
                pick -= weight
            own = slots[t] & ~card_or_none(got[t])
            for c, at in draw_history(history.windows_of(own), history.drawn, rng).items():
                arrival[c] = at
        if not all(self.held_one(t, number, cards, slots, arrival, got) for t, number, cards in self.needs):
            return None
        gifts = tuple(got[(t + 1) % players] for t in range(players))
        final = [bit(self.first[t]) | slots[t] & ~card_or_none(got[t]) | card_or_none(gifts[t]) for t in range(players)]
        for c in gifts:
            if c >= 0:
                arrival[c] = 0  # a card its giver was dealt
        deal_draws_to_come(slots[players], final, arrival, self.after, self.draws, rng)
        return tuple(final), tuple(arrival), gifts

    def held_one(self, t: int, number: int, cards: int, slots, arrival, got) -> bool:
        """Return True when seat t held one of `cards` during trick `number` in a world (its slots, arrivals and the
        card each seat got): before the pass its trick-1 card, the dealt cards it kept and its gift; after it, its
        cards arrived by then and the card it got, each unless played before."""
        players = self.players
        gift = got[(t + 1) % players]
        if number == 1:
            hand = bit(self.first[t]) | slots[t] & ~card_or_none(got[t]) | card_or_none(gift)
        else:
            hand = slots[t]
        played_in = dict(self.play_tricks)
        return any(arrival[c] < number and played_in.get(c, number) >= number for c in scan(cards & hand))


def card_or_none(c: int) -> int:
    """Return the set of card `c`, empty for -1 (no card: a seat that gave or got none)."""
    return bit(c) if c >= 0 else 0


def most_histories(history: SeatHistory, size: int, gets: bool, got: int, optional: int) -> int:
    """Return the most weight (FogPassWorlds.got_options' histories summed) an E_t of `size` cards can have: its known
    cards (`history.windows`; the `optional` one, the 4 rocket, there or not), the rest unseen cards with no lower
    bound, each of which may be the card it got when that is not known (`got`, else its histories are those of the
    rest): a wider window never has fewer histories."""
    best = 0
    for leave_out in ((got,), (got, optional)) if optional >= 0 else ((got,),):
        known = [(low, high) for c, low, high in history.windows if c not in leave_out]
        windows = [*known, *[(0, history.drawn)] * (size - (got >= 0) - len(known))]
        if not gets or got >= 0:
            best = max(best, histories(tuple(sorted(windows)), history.drawn))
            continue
        total = 0
        for k, (low, high) in enumerate(windows):
            if low <= 1 <= max(high, 1) and (k >= len(known) or high >= 1):
                total += histories(tuple(sorted(windows[:k] + windows[k + 1 :])), history.drawn)
        best = max(best, total)
    return best
