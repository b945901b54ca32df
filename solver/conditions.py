"""Trick conditions of a mission made concrete for one deal: counters over tricks, balance.

A `TrickCounter` counts the tricks that match (winner among `winners`, winning
card in `won_with`, at least `min_containing` cards of `containing`, trick
number in `tricks`: bit t-1 for trick t) and bounds the count. `Balanced` bounds the
spread of the players' trick counts after every trick. These are the solver's
view of mission rules (solver/mission.py builds them); every engine evaluates
them with the functions below or their compiled twins.
"""

from dataclasses import dataclass

from solver.cards import popcount

NO_LIMIT = 99  # at_most of a counter without an upper bound
ALL_TRICKS = (1 << 14) - 1


@dataclass(frozen=True)
class TrickCounter:
    """Count matching tricks; the mission fails when the count leaves [at_least, at_most]."""

    winners: int  # seat mask
    won_with: int = 0  # card set the winning card must be in; 0: any
    containing: int = 0  # card set the trick must hold `min_containing` cards of; 0: any trick
    min_containing: int = 1
    tricks: int = ALL_TRICKS  # bit t-1 set: trick t counts
    at_least: int = 0
    at_most: int = NO_LIMIT


@dataclass(frozen=True)
class Balanced:
    """After every trick, the most and the fewest tricks won by any seat differ by at most `gap`."""

    gap: int = 1


def counts_trick(counter: TrickCounter, number: int, cards: int, winner: int, winning_card: int) -> bool:
    """Return True when trick `number` (1-based) holding `cards`, won by `winner`, matches."""
    return (
        counter.winners >> winner & 1 == 1
        and counter.tricks >> (number - 1) & 1 == 1
        and (not counter.won_with or counter.won_with >> winning_card & 1 == 1)
        and (not counter.containing or popcount(cards & counter.containing) >= counter.min_containing)
    )


def tricks_from(counter: TrickCounter, next_number: int, tricks: int) -> int:
    """Return how many of the counter's tricks are numbered `next_number`..`tricks`."""
    return popcount(counter.tricks & ((1 << tricks) - 1) & ~((1 << (next_number - 1)) - 1))


def can_still_count(counter: TrickCounter, next_number: int, tricks: int, in_hands: int) -> bool:
    """Return True when some trick from `next_number` on could still match, given the cards in hands."""
    if not tricks_from(counter, next_number, tricks):
        return False
    if counter.won_with and not counter.won_with & in_hands:
        return False
    return not counter.containing or popcount(counter.containing & in_hands) >= counter.min_containing


def counter_failed(counter: TrickCounter, value: int, next_number: int, tricks: int) -> bool:
    """Return True when the count is over its maximum or can no longer reach its minimum."""
    return value > counter.at_most or value + tricks_from(counter, next_number, tricks) < counter.at_least


def counter_settled(counter: TrickCounter, value: int, next_number: int, tricks: int, in_hands: int) -> bool:
    """Return True when the counter can no longer fail: its minimum is reached and no more
    matching trick could break its maximum."""
    if value < counter.at_least:
        return False
    return counter.at_most >= NO_LIMIT or not can_still_count(counter, next_number, tricks, in_hands)


def unbalanced(balanced: Balanced | None, won: tuple[int, ...]) -> bool:
    """Return True when the players' trick counts spread beyond the allowed gap."""
    return balanced is not None and max(won) - min(won) > balanced.gap
