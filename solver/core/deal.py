"""Deals: one card set per seat, seats in clockwise order, and the Commander.

Notation: hands separated by `|`, seat 0 first, e.g. `p1 p9 r4 | b2 g5 | y7 y8`.

Random deals are pure functions of their key: `deal_rng(seed, index, ...)`
derives a generator from a numpy `SeedSequence`, so deal `index` of a sweep is
the same whichever worker, job count or order produces it.
"""

from dataclasses import dataclass

import numpy as np

from solver.core.cards import (
    CARD_COUNT,
    COLOUR_CARDS,
    TRUMP,
    TRUMP_RANKS,
    bit,
    card,
    card_set,
    format_card,
    format_cards,
    lowest,
    parse_card_list,
    popcount,
    scan,
)
from solver.core.errors import InputError

MIN_PLAYERS = 3
MAX_PLAYERS = 5
COMMANDER_CARD = card(TRUMP, TRUMP_RANKS)


class DealError(InputError):
    """A deal that breaks the dealing rules."""


@dataclass(frozen=True)
class Deal:
    """Hands by seat (card sets) and the Commander's seat, who leads trick 1."""

    hands: tuple[int, ...]
    commander: int

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def cards(self) -> int:
        """Return every card in the deal."""
        cards = 0
        for hand in self.hands:
            cards |= hand
        return cards

    def holder(self, c: int) -> int | None:
        """Return the seat holding card `c`, or None."""
        for seat, hand in enumerate(self.hands):
            if hand & bit(c):
                return seat
        return None


def make_deal(hands, commander: int | None = None) -> Deal:
    """Return a checked deal; the Commander is the holder of r4 when it is dealt.

    Without r4 (reduced test decks) the Commander is `commander`, default seat 0.
    """
    hands = tuple(hands)
    players = len(hands)
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise DealError(f"a deal needs {MIN_PLAYERS} to {MAX_PLAYERS} hands, got {players}")
    seen = 0
    for seat, hand in enumerate(hands):
        if not hand:
            raise DealError(f"hand {seat} is empty")
        if seen & hand:
            c = format_card(lowest(seen & hand))
            raise DealError(f"card {c} is in more than one hand (again in hand {seat})")
        seen |= hand
    check_hand_sizes(hands)
    holder = next((s for s, hand in enumerate(hands) if hand & bit(COMMANDER_CARD)), None)
    if holder is not None:
        if commander is not None and commander != holder:
            raise DealError(f"the commander is seat {holder}, the holder of r4, not seat {commander}")
        return Deal(hands, holder)
    commander = 0 if commander is None else commander
    if not 0 <= commander < players:
        raise DealError(f"commander seat {commander} is not a seat of this {players}-player deal")
    return Deal(hands, commander)


def check_hand_sizes(hands: tuple[int, ...]) -> None:
    """Raise unless all hands are equal, or (3 players) one hand holds one extra card."""
    sizes = [popcount(hand) for hand in hands]
    smallest = min(sizes)
    extra = [size - smallest for size in sizes]
    if all(e == 0 for e in extra):
        return
    if len(hands) == 3 and sorted(extra) == [0, 0, 1]:
        return
    shown = "/".join(map(str, sizes))
    raise DealError(
        f"hand sizes {shown} are unequal (only with 3 players may one hand hold one extra card)"
    )


def pass_cards(hands, given, step: int = 1) -> tuple[int, ...]:
    """Return the hands after every seat gives its card in `given` (-1: none) to the seat `step` on."""
    after = list(hands)
    for seat, c in enumerate(given):
        if c >= 0:
            after[seat] &= ~bit(c)
            after[(seat + step) % len(hands)] |= bit(c)
    return tuple(after)


def parse_deal(text: str, commander: int | None = None) -> Deal:
    """Return the deal written as hands separated by `|`, seat 0 first."""
    return make_deal([card_set(parse_card_list(part)) for part in text.split("|")], commander)


def format_deal(deal: Deal) -> str:
    """Return the notation of a deal."""
    return " | ".join(format_cards(hand) for hand in deal.hands)


def deal_rng(seed: int, index: int, *key: int) -> np.random.Generator:
    """Return the generator of deal `index` of a sweep with `seed` (and extra key ints)."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index, *key)))


def random_deal(players: int, rng: np.random.Generator) -> Deal:
    """Deal the whole deck one card at a time from seat 0: 14/13/13, 10x4 or 8x5 cards.

    With three players seat 0 gets the 14th card. Seats are only names: who holds
    r4 (the Commander) is random, so the extra card is as likely to sit anywhere
    relative to the Commander as in a real deal.
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise DealError(f"a deal needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players}")
    order = rng.permutation(CARD_COUNT)
    hands = [0] * players
    for i, c in enumerate(order):
        hands[i % players] |= bit(int(c))
    return make_deal(hands)


def random_tasks(count: int, rng: np.random.Generator, cards: int = COLOUR_CARDS) -> list[int]:
    """Draw `count` distinct task cards from the colour cards in `cards`, in draw order."""
    pool = list(scan(cards & COLOUR_CARDS))
    if not 0 <= count <= len(pool):
        raise DealError(f"cannot draw {count} tasks from {len(pool)} colour cards")
    return [pool[int(i)] for i in rng.choice(len(pool), size=count, replace=False)]
