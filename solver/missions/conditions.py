"""Trick conditions of a mission made concrete for one deal: counters over tricks, balance, sequences.

A `TrickCounter` counts the tricks that match (winner among `winners`, winning
card in `won_with`, between `min_containing` and `max_containing` cards of
`containing`, total value within [min_value, max_value], trick number in
`tricks`: bit t-1 for trick t, as many cards of `as_many` as of `containing`
when `as_many` is set) and bounds the count; with `count_cards` it counts the
cards of `containing` in the matching tricks instead (the cards a player wins).
A `Comparison` bounds the difference of two counters at the end of play
(Deep Sea's "more tricks than the captain", "more yellow than blue cards").
A `Run` bounds the longest run of consecutive tricks won by a seat, and a
`LeadRule` the cards a seat may lead. `Balanced` bounds the spread of the
players' trick counts after every trick. A `Sequence` forbids a card of
`after` played directly after a card of `before` (inside a trick, or also from
one trick's last card to the next trick's first with `across_tricks`). These
are the solver's view of mission rules (solver/missions/setup.py builds them);
every engine evaluates them with the functions below or their compiled twins.
"""

from dataclasses import dataclass, fields
from operator import attrgetter

from solver.core.cards import SUIT_MASKS, SUIT_NAMES, card_set, format_cards, popcount, rank_of, scan
from solver.core.rules import winning_card

NO_LIMIT = 99  # at_most of a counter without an upper bound
MAX_COUNTERS = 24  # trick counters per mission, as the kernel holds them (Deep Sea's comparisons take a seat's each)
FIRST_COUNTERS = 8  # the counters the kernel's hash keys were first drawn for (solver/engines/kernel/table.py)
ALL_TRICKS = (1 << 14) - 1


@dataclass(frozen=True)
class TrickCounter:
    """Count matching tricks (or cards); the mission fails when the count leaves [at_least, at_most]."""

    winners: int  # seat mask
    won_with: int = 0  # card set the winning card must be in; 0: any
    containing: int = 0  # card set the trick must hold min_containing..max_containing cards of; 0: any trick
    min_containing: int = 1
    tricks: int = ALL_TRICKS  # bit t-1 set: trick t counts
    at_least: int = 0
    at_most: int = NO_LIMIT
    max_containing: int = NO_LIMIT
    min_value: int = 0  # the trick's total value (sum of the numbers, trumps too)
    max_value: int = NO_LIMIT
    count_cards: bool = False  # count the cards of `containing` in matching tricks, not the tricks
    as_many: int = 0  # card set: a matching trick holds as many of these cards as of `containing`; 0: no such condition

    @property
    def plain_bounds(self) -> bool:
        """Return True when a trick matches by winner, winning card and a minimum of cards only."""
        return (self.max_containing >= NO_LIMIT and self.min_value == 0 and self.max_value >= NO_LIMIT
                and not self.as_many)


# counter_kind(counter): what it counts, every field but its bounds (counters of one kind always hold one count)
counter_kind = attrgetter(*(f.name for f in fields(TrickCounter) if f.name not in ("at_least", "at_most")))


@dataclass(frozen=True)
class Comparison:
    """At the end of play, counter `left`'s count minus counter `right`'s lies in [at_least, at_most]
    (indices into the mission's counters)."""

    left: int
    right: int
    at_least: int = -NO_LIMIT
    at_most: int = NO_LIMIT


@dataclass(frozen=True)
class Run:
    """The longest run of consecutive tricks won by `seat` ends within [at_least, at_most]."""

    seat: int
    at_least: int = 0
    at_most: int = NO_LIMIT


@dataclass(frozen=True)
class LeadRule:
    """Every trick `seat` leads is led with a card of `allowed`; a lead of any other card (even a
    forced one) fails the mission."""

    seat: int
    allowed: int


@dataclass(frozen=True)
class Balanced:
    """After every trick, the most and the fewest tricks won by any seat differ by at most `gap`."""

    gap: int = 1


@dataclass(frozen=True)
class Sequence:
    """No card of `after` is played directly after a card of `before`."""

    before: int
    after: int
    across_tricks: bool = False


def trick_value(cards: int) -> int:
    """Return a trick's total value: the sum of its cards' numbers."""
    return sum(rank_of(c) for c in scan(cards))


def counts_trick(counter: TrickCounter, number: int, cards: int, winner: int, winning_card: int) -> int:
    """Return what trick `number` (1-based) holding `cards`, won by `winner`, adds to the counter."""
    held = popcount(cards & counter.containing)
    matches = (
        counter.winners >> winner & 1 == 1
        and counter.tricks >> (number - 1) & 1 == 1
        and (not counter.won_with or counter.won_with >> winning_card & 1 == 1)
        and (not counter.containing or counter.min_containing <= held <= counter.max_containing)
        and counter.min_value <= trick_value(cards) <= counter.max_value
        and (not counter.as_many or popcount(cards & counter.as_many) == held)
    )
    return (held if counter.count_cards else 1) if matches else 0


def counter_values(counters, tricks) -> list[tuple[int, ...]]:
    """Return every counter's value after each trick of a line of play (`tricks`: each with its `cards` in
    play order and its `winner`, trick 1 first)."""
    values, after = [0] * len(counters), []
    for number, trick in enumerate(tricks, 1):
        cards, best = card_set(trick.cards), winning_card(trick.cards)
        values = [value + counts_trick(counter, number, cards, trick.winner, best)
                  for counter, value in zip(counters, values)]
        after.append(tuple(values))
    return after


def bounds_text(counter: TrickCounter) -> str:
    """Return the counts a counter allows, as words: "exactly 1", "at least 2", "at most 0", "2-3"."""
    if counter.at_least == counter.at_most:
        return f"exactly {counter.at_least}"
    if counter.at_most >= NO_LIMIT:
        return f"at least {counter.at_least}"
    if counter.at_least == 0:
        return f"at most {counter.at_most}"
    return f"{counter.at_least}-{counter.at_most}"


def describe_counter(counter: TrickCounter, players: int) -> str:
    """Return a counter in words: "exactly 0 tricks won by seat 2 with r1 r2 r3 r4"."""
    seats = [seat for seat in range(players) if counter.winners >> seat & 1]
    who = "any seat" if len(seats) == players else "seat " + ", ".join(map(str, seats))
    what = f"cards of {cards_words(counter.containing)}" if counter.count_cards else "tricks"
    parts = [f"{bounds_text(counter)} {what} won by {who}"]
    if counter.won_with:
        parts.append(f"with {cards_words(counter.won_with)}")
    if counter.containing and not counter.count_cards:
        held = (f"{counter.min_containing}+" if counter.max_containing >= NO_LIMIT
                else f"{counter.min_containing}-{counter.max_containing}")
        parts.append(f"holding {held} of {cards_words(counter.containing)}")
    if counter.as_many:
        parts.append(f"and as many of {cards_words(counter.as_many)}")
    if counter.tricks & ALL_TRICKS != ALL_TRICKS:
        parts.append("in trick " + ", ".join(str(t + 1) for t in range(14) if counter.tricks >> t & 1))
    if counter.min_value or counter.max_value < NO_LIMIT:
        parts.append(f"worth {counter.min_value}-{counter.max_value}" if counter.max_value < NO_LIMIT
                     else f"worth {counter.min_value}+")
    return " ".join(parts)


def cards_words(cards: int) -> str:
    """Return a card set as words: whole suits by name ("trump", "pink and blue"), else its cards."""
    suits = [name for name, mask in zip(SUIT_NAMES, SUIT_MASKS) if cards & mask == mask]
    if suits and sum(mask for name, mask in zip(SUIT_NAMES, SUIT_MASKS) if name in suits) == cards:
        return " and ".join(suits) + " cards"
    return format_cards(cards)


def tricks_from(counter: TrickCounter, next_number: int, tricks: int) -> int:
    """Return how many of the counter's tricks are numbered `next_number`..`tricks`."""
    return popcount(counter.tricks & ((1 << tricks) - 1) & ~((1 << (next_number - 1)) - 1))


def can_still_count(counter: TrickCounter, next_number: int, tricks: int, in_hands: int) -> bool:
    """Return True when some trick from `next_number` on could still add to the counter."""
    if not tricks_from(counter, next_number, tricks):
        return False
    if counter.won_with and not counter.won_with & in_hands:
        return False
    if not counter.containing or counter.min_containing == 0 and not counter.count_cards:
        return True
    return popcount(counter.containing & in_hands) >= max(counter.min_containing, 1)


def counter_room(counter: TrickCounter, next_number: int, tricks: int, in_hands: int) -> int:
    """Return the most the counter could still add from trick `next_number` on."""
    if counter.count_cards:
        return popcount(counter.containing & in_hands) if tricks_from(counter, next_number, tricks) else 0
    return tricks_from(counter, next_number, tricks)


def counter_failed(counter: TrickCounter, value: int, next_number: int, tricks: int, in_hands: int) -> bool:
    """Return True when the count is over its maximum or can no longer reach its minimum."""
    return value > counter.at_most or value + counter_room(counter, next_number, tricks, in_hands) < counter.at_least


def comparison_failed(comparison: Comparison, values, rooms) -> bool:
    """Return True when the difference of the two counts can no longer end within its bounds
    (`values`: the counts so far; `rooms`: what each counter could still add, counter_room)."""
    left, right = values[comparison.left], values[comparison.right]
    highest = left + rooms[comparison.left] - right
    lowest = left - right - rooms[comparison.right]
    return highest < comparison.at_least or lowest > comparison.at_most


def comparison_settled(comparison: Comparison, values, rooms) -> bool:
    """Return True when every way the counts could still grow keeps the difference within its bounds."""
    left, right = values[comparison.left], values[comparison.right]
    return left - right - rooms[comparison.right] >= comparison.at_least and \
        left + rooms[comparison.left] - right <= comparison.at_most


def run_after(run: Run, state: tuple[int, int], winner: int) -> tuple[int, int]:
    """Return a run rule's (current run, longest run) after a trick won by `winner`."""
    current, longest = state
    current = current + 1 if winner == run.seat else 0
    return current, max(longest, current)


def run_failed(run: Run, state: tuple[int, int], tricks_left: int) -> bool:
    """Return True when the longest run is too long, or can no longer become long enough."""
    current, longest = state
    return longest > run.at_most or max(longest, current + tricks_left) < run.at_least


def run_settled(run: Run, state: tuple[int, int], tricks_left: int) -> bool:
    """Return True when the longest run is long enough and no run can grow too long."""
    current, longest = state
    return longest >= run.at_least and (run.at_most >= NO_LIMIT or current + tricks_left <= run.at_most)


def lead_allowed(leads, seat: int, plays: int) -> int:
    """Return the leads of `plays` the lead rules allow `seat`."""
    for rule in leads:
        if rule.seat == seat:
            plays &= rule.allowed
    return plays


def counter_settled(counter: TrickCounter, value: int, next_number: int, tricks: int, in_hands: int) -> bool:
    """Return True when the counter can no longer fail: its minimum is reached and no more
    matching trick could break its maximum."""
    if value < counter.at_least:
        return False
    return counter.at_most >= NO_LIMIT or not can_still_count(counter, next_number, tricks, in_hands)


def breaks_sequence(sequences, previous: int | None, card: int, same_trick: bool) -> bool:
    """Return True when `card` played right after `previous` breaks a sequence rule."""
    return previous is not None and any(
        s.before >> previous & 1 and s.after >> card & 1 and (same_trick or s.across_tricks) for s in sequences
    )


def unbalanced(balanced: Balanced | None, won: tuple[int, ...]) -> bool:
    """Return True when the players' trick counts spread beyond the allowed gap."""
    return balanced is not None and max(won) - min(won) > balanced.gap
