"""What a player knows under fog, and the worlds it allows, drawn uniformly.

"Fog. In fog, you can't see everything. Deal out only X cards each (the 4-heli must be included), and after each
trick draw 1 of the remaining cards. X: the Guide receives 1 extra card right at the start" (the Journey rules;
solver/trick/spaces/fog.py: each seat draws after tricks 1, 2, ... until its hand is as large as usual). A player
sees its own draws, not the others' nor the pile's order, so what play revealed holds of a hand as it was then:
a seat that did not follow a suit in trick j held none of it during trick j, and a card shown with a token before
trick j says so of the hand then; a card of that suit it holds later arrived after trick j - 1 (its arrival, the
trick after which it was drawn, is at least j). A world is every hand as it ends (what each seat was dealt and
draws) and each card's arrival (0: dealt); each is equally likely before play (the deal and every hand's order of
draws are uniform), so the worlds consistent with what a player knows are drawn uniformly:

1. the other seats' hands now and the pile (`proposal`, a Knowledge over their "seats": a card cannot lie in a
   hand it could not have reached by now), drawn uniformly;
2. accepted with probability `history_count / most_histories`, per other seat: its arrival histories (each card
   of its hand now or played by it given a trick within its window, dealt cards at 0 and one card a drawn trick)
   over the most any hand now allows (every unseen card with no lower bound), so that a hand now is drawn in
   proportion to the histories it has: rejection, exact;
3. one history drawn uniformly per seat (`draw_history`), and the world drawn again when a highest or lowest token
   says its seat held another card of the colour then and the history gives it none (a need, as Knowledge's);
4. the pile shuffled into the draws to come, every seat's included (the deciding seat's own future draws are
   unknown to it too).

With the Ghost (two players; fog.py: his display is laid out whole and he draws nothing), his seat is one more
hand of the worlds: his face-up cards known, his covered face-down cards unseen, every card of it dealt (arrival
0), no set-aside card among them, and no void of his saying anything of them ("Face-down cards are treated as
though they did not exist"); solver/engines/crew.py lays the sampled cards under his covered columns.

The crew that uses this module (solver/engines/crew.py) plays fog alone or with the Ghost: no other space. After
mission 12's random pass (made after trick 1, before its draws), with the Ghost both players see every gift (his
face up, the one he gets lying where his lay, the one between them by its giver and its receiver): a gift is a card
its giver was dealt and gave up after trick 1, as if played then (`with_gifts`), every world makes the gifts made,
and a card got is no card of its receiver's own; without him, fog_pass_worlds.py (its seat histories and draws are
this module's).
"""

import functools
from dataclasses import dataclass

from solver.core.cards import CARD_COUNT, SUIT_MASKS, bit, card_set, popcount, scan, suit_of
from solver.core.deal import COMMANDER_CARD
from solver.core.errors import InputError
from solver.missions.knowledge import Knowledge

BATCH = 8  # proposals drawn at a time (Knowledge.samples computes its weights once a call)
MOST_PROPOSALS = 200_000  # a world wanted: past this, an error, as heli_worlds.py's (a model that admits no
# history rejected every proposal for ever)


@dataclass(frozen=True)
class SeatHistory:
    """What arrival histories one other seat may have had: its cards' windows (`windows`: (lowest, highest)
    arrival of each played or known card; `unseen_low`: card -> the lowest arrival an unseen card of its hand may
    have), `drawn` the tricks after which it has drawn so far (its other cards were dealt)."""

    windows: tuple[tuple[int, int, int], ...]  # (card, lowest, highest): its played cards and known held ones
    unseen_low: tuple[int, ...]  # per card of the deck: the lowest arrival it could have in this hand
    drawn: int

    def card_windows(self, hand_unseen: int) -> dict[int, tuple[int, int]]:
        """Return each card of the seat (its played and known ones, and `hand_unseen`, the unseen cards of its hand
        now) with its window."""
        windows = {c: (low, high) for c, low, high in self.windows}
        windows.update((c, (self.unseen_low[c], self.drawn)) for c in scan(hand_unseen))
        return windows

    def windows_of(self, cards: int) -> dict[int, tuple[int, int]]:
        """Return the window of each of `cards`: a known card's own, an unseen one's from its lowest arrival to the
        seat's last draw (fog_pass_worlds.py: a seat's cards differ from world to world, the card it got left out)."""
        known = {c: (low, high) for c, low, high in self.windows}
        return {c: known.get(c, (self.unseen_low[c], self.drawn)) for c in scan(cards)}

    def intervals(self, hand_unseen: int) -> tuple[tuple[int, int], ...]:
        """Return the windows of every card of the seat with `hand_unseen` the unseen cards of its hand now, sorted."""
        return tuple(sorted(self.card_windows(hand_unseen).values()))

    def count(self, hand_unseen: int) -> int:
        """Return how many arrival histories the seat may have had with `hand_unseen` in its hand."""
        return histories(self.intervals(hand_unseen), self.drawn)

    def most(self, unseen_in_hand: int) -> int:
        """Return the most histories any `unseen_in_hand` unseen cards in its hand can have (none bounded below)."""
        own = tuple(sorted([(low, high) for _, low, high in self.windows] + [(0, self.drawn)] * unseen_in_hand))
        return histories(own, self.drawn)


def classes_of(intervals) -> tuple[tuple[tuple[int, int], int], ...]:
    """Return the intervals as (interval, how many cards have it)."""
    counted: dict[tuple[int, int], int] = {}
    for window in intervals:
        counted[window] = counted.get(window, 0) + 1
    return tuple(sorted(counted.items()))


def histories(intervals, drawn: int) -> int:
    """Return the arrival histories of cards with these (lowest, highest) windows: each drawn trick 1..`drawn` one
    card within its window, the rest dealt (arrival 0, a card whose window starts above 0 cannot be)."""
    classes = classes_of(intervals)
    return arrivals_left(tuple(window for window, _ in classes), tuple(n for _, n in classes), drawn)


@functools.lru_cache(maxsize=65536)
def arrivals_left(windows, left, trick: int) -> int:
    """Return in how many ways the cards `left` of each window fill the drawn tricks 1..`trick` (one card each,
    from the latest down) and the dealt cards (the rest, at 0)."""
    if any(n and low > trick for (low, _), n in zip(windows, left)):
        return 0  # a card that must arrive after every trick still open
    if trick == 0:
        return 1
    total = 0
    for k, ((low, high), n) in enumerate(zip(windows, left)):
        if n and low <= trick <= high:
            total += n * arrivals_left(windows, left[:k] + (n - 1,) + left[k + 1 :], trick - 1)
    return total


def draw_history(intervals_by_card, drawn: int, rng) -> dict[int, int]:
    """Return card -> arrival for cards with (lowest, highest) windows (`intervals_by_card`: card -> window), drawn
    uniformly among the histories (`histories`)."""
    classes = classes_of(intervals_by_card.values())
    windows = tuple(window for window, _ in classes)
    left = [n for _, n in classes]
    members = {window: sorted(c for c, w in intervals_by_card.items() if w == window) for window in windows}
    arrival = {}
    for trick in range(drawn, 0, -1):
        pick = rng.randrange(arrivals_left(windows, tuple(left), trick))
        for k, (low, high) in enumerate(windows):
            if not (left[k] and low <= trick <= high):
                continue
            after = tuple(left[:k]) + (left[k] - 1,) + tuple(left[k + 1 :])
            weight = left[k] * arrivals_left(windows, after, trick - 1)
            if pick < weight:
                c = members[windows[k]].pop(rng.randrange(len(members[windows[k]])))
                arrival[c] = trick
                left[k] -= 1
                break
            pick -= weight
    for cards in members.values():
        arrival.update((c, 0) for c in cards)
    return arrival


def absences(tricks, communications, ghost: int = -1) -> list[tuple[int, int, int]]:
    """Return what play and the tokens said of the hands, as (seat, trick, cards): the seat held none of these cards
    during that trick (1-based), but those it had played before: a seat that did not follow the colour led, and the
    cards a token excludes. The Ghost's (seat `ghost`) say nothing of his face-down cards."""
    events = [(t, number, SUIT_MASKS[suit_of(trick[0][1])]) for number, trick in enumerate(tricks, 1)
              for t, c in trick[1:] if not bit(c) & SUIT_MASKS[suit_of(trick[0][1])] and t != ghost]
    return events + [(shown.seat, shown.trick, shown.excludes()) for shown in communications]


def lowest_arrival(events, played_at, t: int, c: int) -> int:
    """Return the lowest arrival card c can have in seat t's hand: past every trick it was known absent from it
    (`events`: `absences`; `played_at`: card -> (seat, trick) of each card played)."""
    gone = played_at.get(c)
    return max([number for other, number, cards in events
                if other == t and cards >> c & 1 and not (gone and gone[0] == t and gone[1] < number)], default=0)


@dataclass(frozen=True)
class FogWorlds:
    """What `seat` knows under fog: `proposal` the hands now (seat t at t) and the pile (last) as a Knowledge,
    `seats` each other seat's SeatHistory (None: the deciding seat), `played` the cards each seat has played,
    `known` the deciding seat's cards with their arrivals, `draws` each seat's draws in all, `after` the tricks
    played in full, `play_tricks` when each card played was, `needs` (seat, trick, cards): the seat held one of
    these cards during that trick."""

    seat: int
    proposal: Knowledge
    seats: tuple[SeatHistory | None, ...]
    played: tuple[int, ...]
    known: tuple[tuple[int, int], ...]
    draws: tuple[int, ...]
    after: int
    play_tricks: tuple[tuple[int, int], ...]  # (card, the trick it was played in) of every card played
    needs: tuple[tuple[int, int, int], ...] = ()

    @staticmethod
    def of(seat: int, tricks, arrivals_seen, dealt, draws, communications=(), deck: int = 0,
           commander: int = -1, ghost: int = -1, face_up: int = 0, aside: int = 0, gifts=()) -> "FogWorlds":
        """Return what `seat` knows: `tricks` the tricks so far (each a sequence of (seat, card) in play order, the
        last maybe begun), `arrivals_seen` its own cards (held now or played) with their arrivals, `dealt` and
        `draws` how many cards each seat was dealt and draws in all, `communications` the cards shown, `deck` the
        cards dealt and drawn, `commander` the Guide (the holder of the 4 rocket, dealt it); `ghost` the Ghost's
        seat (-1: none), `face_up` his cards lying face up, `aside` the cards never in his display; `gifts`: with
        the Ghost, the card each seat gave in mission 12's random pass, made (every one seen: `with_gifts`)."""
        players = len(dealt)
        after = sum(1 for trick in tricks if len(trick) == players)
        played_at = with_gifts({c: (t, number) for number, trick in enumerate(tricks, 1) for t, c in trick}, gifts)
        played = [card_set(c for c, (t, _) in played_at.items() if t == other) for other in range(players)]
        own = dict(arrivals_seen)
        events = absences(tricks, communications, ghost)
        must = [0] * (players + 1)
        if ghost >= 0:
            must[ghost] = face_up & ~card_set(played_at)
        highest_for = {}  # (seat, card) -> the latest arrival the card may have: it was in hand then
        for shown in communications:
            if shown.card not in played_at:
                must[shown.seat] |= bit(shown.card)
            key = (shown.seat, shown.card)
            highest_for[key] = min(highest_for.get(key, CARD_COUNT), shown.trick - 1)
        if commander >= 0 and COMMANDER_CARD not in played_at and deck >> COMMANDER_CARD & 1:
            must[commander] |= bit(COMMANDER_CARD)
        for c, (t, number) in played_at.items():
            highest_for[t, c] = min(highest_for.get((t, c), CARD_COUNT), number - 1)

        drawn = [min(after, draws[t]) for t in range(players)]
        histories_of: list[SeatHistory | None] = []
        for t in range(players):
            if t == seat:
                histories_of.append(None)
                continue
            windows = [(c, lowest_arrival(events, played_at, t, c) if c != COMMANDER_CARD else 0,
                        min(highest_for.get((t, c), drawn[t]), drawn[t]) if c != COMMANDER_CARD else 0)
                       for c in scan(played[t] | must[t])]
            unseen_low = tuple(lowest_arrival(events, played_at, t, c) for c in range(CARD_COUNT))
            histories_of.append(SeatHistory(tuple(windows), unseen_low, drawn[t]))
        every_played = card_set(played_at)
        own_cards = card_set(own)
        must[seat] = own_cards & ~every_played
        known_cards = 0
        for held in must:
            known_cards |= held
        unseen = deck & ~every_played & ~known_cards
        pile = players
        sizes = [dealt[t] + drawn[t] - popcount(played[t]) for t in range(players)]
        sizes.append(popcount(deck) - sum(dealt[t] + drawn[t] for t in range(players)))
        cannot = [0] * (players + 1)
        for t, history in enumerate(histories_of):
            if history is None:
                cannot[t] = deck & ~must[t]
            else:
                cannot[t] = card_set(c for c in scan(unseen) if history.unseen_low[c] > history.drawn)
        if ghost >= 0:
            cannot[ghost] = aside & unseen
        cannot[pile] = known_cards
        got = {(t + 1) % players: c for t, c in enumerate(gifts) if c >= 0}
        needs = tuple((shown.seat, shown.trick, colour) for shown in communications
                      if shown.with_another() and shown.seat != seat
                      for colour in [SUIT_MASKS[suit_of(shown.card)] & ~bit(shown.card)]
                      if not held_got(got.get(shown.seat, -1), colour, shown, tricks))
        proposal = Knowledge(seat, tuple(must), tuple(cannot), tuple(sizes), unseen)
        play_tricks = tuple(sorted((c, number) for c, (_, number) in played_at.items()))
        return FogWorlds(seat, proposal, tuple(histories_of), tuple(played), tuple(sorted(own.items())), tuple(draws),
                         after, play_tricks, needs)

    def samples(self, rng, count: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
        """Return `count` worlds (every hand as it ends, every card's arrival) drawn uniformly with `rng`."""
        worlds, most, proposed = [], {}, 0
        while len(worlds) < count:
            for hands in self.proposal.samples(rng, BATCH):
                world = self.accepted(hands, most, rng)
                if world is not None and len(worlds) < count:
                    worlds.append(world)
            proposed += BATCH
            if proposed > MOST_PROPOSALS * count:
                raise InputError(f"no history of fog's draws found for seat {self.seat} in {proposed} draws")
        return worlds

    def accepted(self, hands, most: dict, rng):
        """Return the world of proposal `hands` (the hands now, the pile last), or None when rejected."""
        players = len(self.seats)
        count = best = 1
        for t, history in enumerate(self.seats):
            if history is not None:
                unseen = hands[t] & self.proposal.unseen
                count *= history.count(unseen)
                size = popcount(unseen)
                if (t, size) not in most:
                    most[t, size] = history.most(size)
                best *= most[t, size]
        if count == 0 or rng.randrange(best) >= count:
            return None
        arrival = [0] * CARD_COUNT
        for c, at in self.known:
            arrival[c] = at
        for t, history in enumerate(self.seats):
            if history is None:
                continue
            windows = history.card_windows(hands[t] & self.proposal.unseen)
            for c, at in draw_history(windows, history.drawn, rng).items():
                arrival[c] = at
        played_in = dict(self.play_tricks)
        for t, trick, cards in self.needs:  # a card of the colour in t's hand during that trick
            if not any(arrival[c] < trick and played_in.get(c, trick) >= trick for c in scan(cards & (hands[t] | self.played[t]))):
                return None
        final = [hands[t] | self.played[t] for t in range(players)]
        deal_draws_to_come(hands[players], final, arrival, self.after, self.draws, rng)
        return tuple(final), tuple(arrival)


def with_gifts(played_at: dict[int, tuple[int, int]], gifts) -> dict[int, tuple[int, int]]:
    """Return `played_at` (card -> (seat, trick) of each card played) with mission 12's `gifts` (each seat's card,
    made after trick 1 before its draws) as cards their givers played in trick 1: a gift was dealt to its giver and
    left it after trick 1, whoever plays it since. A world is the hands as dealt and drawn; the pass, every card of
    it seen, is the sample's (solver/engines/crew.py, `made_pass`)."""
    return {**played_at, **{c: (t, 1) for t, c in enumerate(gifts) if c >= 0}}


def held_got(got: int, colour: int, shown, tricks) -> bool:
    """Return True when the card `got` in mission 12's random pass (-1: none) is of `colour` and in `shown`'s seat's
    hand when it showed its card after the pass: the other card of the colour a highest or lowest token needs."""
    played = card_set(c for trick in tricks[: shown.trick - 1] for t, c in trick if t == shown.seat)
    return got >= 0 and shown.trick > 1 and bool(colour >> got & 1) and not played >> got & 1


def deal_draws_to_come(pile: int, final: list[int], arrival: list[int], after: int, draws, rng) -> None:
    """Shuffle the `pile` into the draws to come after trick `after` (`draws`: each seat's in all, clockwise from the
    Guide's left as the seats come), adding each card to its seat's hand in `final` and its trick to `arrival`."""
    cards = list(scan(pile))
    rng.shuffle(cards)
    for trick in range(after + 1, max(draws) + 1):
        for t in range(len(final)):
            if draws[t] >= trick:
                c = cards.pop()
                final[t] |= bit(c)
                arrival[c] = trick
