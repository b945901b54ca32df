"""A Family Adventure deal: hands, special cards, and the hammock chance, all drawn from one seed.

Setup (rulebook): the 21 colour cards are dealt as evenly as possible (7/7/7,
6/5/5/5, 5/4/4/4/4; here one at a time from seat 0, so low seats get the extra
cards); each player gets one of the 6 special cards, the rest lie face down
aside; the 6 hammock tokens are shuffled and a mission lays out the first N of
them, one hiding the shell. The holder of the coconut (G3) takes the first turn.

Chance is part of the deal, as the shuffle is: the order of the special cards
set aside (the shell yields the first of them not yet used) and the shell's
place among the shuffled hammocks. Face up, the hammocks look alike, so which
one a player turns over is a blind choice: we read it as the laid-out tokens
being turned in their shuffled order, so the shell is found on turn-over
`shell + 1` when `shell < N`, and never otherwise.
"""

from dataclasses import dataclass

import numpy as np

from solver.errors import InputError
from solver.family.cards import (
    CARD_COUNT,
    COCONUT,
    DECK,
    SPECIAL_CARDS,
    bit,
    format_cards,
    parse_cards,
)

MIN_PLAYERS, MAX_PLAYERS = 3, 5
HAMMOCKS = 6


class FamilyDealError(InputError):
    """A deal that breaks the setup rules."""


@dataclass(frozen=True)
class FamilyDeal:
    """Hands (card sets, seat 0 first), each seat's special card, the specials set aside in
    draw order, and the shell's place (0-5) among the shuffled hammock tokens."""

    hands: tuple[int, ...]
    specials: tuple[int, ...]
    aside: tuple[int, ...]
    shell: int

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def first(self) -> int:
        """Return the seat that takes the first turn: the coconut's holder."""
        return next(seat for seat, hand in enumerate(self.hands) if hand & bit(COCONUT))


def make_family_deal(hands, specials, aside, shell: int) -> FamilyDeal:
    """Return a checked deal: every colour card once, sizes as even as possible, 6 distinct specials."""
    hands = tuple(hands)
    if not MIN_PLAYERS <= len(hands) <= MAX_PLAYERS:
        raise FamilyDealError(f"a deal needs {MIN_PLAYERS} to {MAX_PLAYERS} hands, got {len(hands)}")
    seen = 0
    for hand in hands:
        if seen & hand:
            raise FamilyDealError(f"cards in two hands: {format_cards(seen & hand)}")
        seen |= hand
    if seen != DECK:
        raise FamilyDealError(f"every colour card must be dealt; missing {format_cards(DECK & ~seen)}")
    sizes = sorted(hand.bit_count() for hand in hands)
    if sizes[-1] - sizes[0] > 1:
        raise FamilyDealError(f"hand sizes {'/'.join(map(str, sizes))} are not as even as possible")
    specials, aside = tuple(specials), tuple(aside)
    if len(specials) != len(hands) or sorted(specials + aside) != sorted(SPECIAL_CARDS):
        raise FamilyDealError("each player holds one special card and the rest lie aside: 1-6, each once")
    if not 0 <= shell < HAMMOCKS:
        raise FamilyDealError(f"the shell lies under one of the {HAMMOCKS} hammocks (0-{HAMMOCKS - 1}), got {shell}")
    return FamilyDeal(hands, specials, aside, shell)


def random_family_deal(players: int, rng: np.random.Generator) -> FamilyDeal:
    """Deal the colour cards one at a time from seat 0, then the specials, then shuffle the hammocks."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise FamilyDealError(f"Family Adventure needs {MIN_PLAYERS} to {MAX_PLAYERS} players here, got {players}")
    hands = [0] * players
    for i, c in enumerate(rng.permutation(CARD_COUNT)):
        hands[i % players] |= bit(int(c))
    specials = [int(s) + 1 for s in rng.permutation(len(SPECIAL_CARDS))]
    shell = int(rng.integers(HAMMOCKS))
    return make_family_deal(hands, specials[:players], specials[players:], shell)


def parse_family_hands(text: str) -> tuple[int, ...]:
    """Return the hands written as card lists separated by `|`, seat 0 first."""
    return tuple(parse_cards(part) for part in text.split("|"))


def format_family_hands(deal: FamilyDeal) -> str:
    return " | ".join(format_cards(hand) for hand in deal.hands)
