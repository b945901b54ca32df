"""A Family Adventure deal: hands, special cards, and the hammock chance, all drawn from one seed.

Setup (rulebook): the 21 colour cards are dealt as evenly as possible (7/7/7,
6/5/5/5, 5/4/4/4/4; here one at a time from seat 0, so low seats get the extra
cards); each player gets one of the 6 special cards, the rest lie face down
aside; the 6 hammock tokens are shuffled and a mission lays out the first N of
them, one hiding the shell. The holder of the coconut (G3) takes the first turn.

Two players play with the Ghost, a third hand of seven cards (seat 2 here) with
its own special card; a coin (the shell token flipped) decides which of the two
players (seat 0 or 1) takes the first turn, not the coconut. Under perfect
information the Ghost's two face-down cards are known like every other card, so
the Ghost is an ordinary seat that the crew plays.

Chance is part of the deal, as the shuffle is: which special cards are set
aside, and the shell's place among the six shuffled hammock tokens. The mission
lays out the first N, so the shell is in the game iff `shell < N`. Under perfect
information the crew sees under the tokens and the set-aside cards: it may find
the shell on any hammock while the shell's token is face up, and its finder
chooses which set-aside card goes face up (solver.family.turns); the order of
`aside` is only the order the deal lists them in.

Text form (`format_family_deal`, `parse_family_deal`): the hands separated by
`|`, seat 0 first, then `;`-separated fields:

    P1 P5 G3 B7 B2 G6 P7 | ... | ... ; specials 3 1 5 ; aside 2 4 6 ; shell 1
    ... | ... | ... ; specials 3 1 5 ; aside 2 4 6 ; shell 1 ; ghost ; first 1
"""

from dataclasses import dataclass

import numpy as np

from solver.core.errors import InputError
from solver.family.cards import (
    CARD_COUNT,
    COCONUT,
    DECK,
    SPECIAL_CARDS,
    bit,
    format_cards,
    parse_cards,
)

MIN_PLAYERS, MAX_PLAYERS = 2, 5  # two players add the Ghost
MIN_SEATS = 3
HAMMOCKS = 6
GHOST_SEAT = 2


class FamilyDealError(InputError):
    """A deal that breaks the setup rules."""


@dataclass(frozen=True)
class FamilyDeal:
    """Hands (card sets, seat 0 first), each seat's special card, the specials set aside (in the
    order drawn; the order does not matter to the play), the shell's place (0-5) among the
    shuffled hammock tokens, the seat that takes the first turn, and whether the last seat is the
    two-player Ghost."""

    hands: tuple[int, ...]
    specials: tuple[int, ...]
    aside: tuple[int, ...]
    shell: int
    first: int
    ghost: bool = False

    @property
    def seats(self) -> int:
        return len(self.hands)

    @property
    def players(self) -> int:
        """Return the number of real players (the Ghost is not one)."""
        return self.seats - self.ghost


def coconut_holder(hands) -> int:
    return next(seat for seat, hand in enumerate(hands) if hand & bit(COCONUT))


def make_family_deal(hands, specials, aside, shell: int, first: int | None = None, ghost: bool = False) -> FamilyDeal:
    """Return a checked deal: every colour card once, sizes as even as possible, 6 distinct specials.

    The first seat is the coconut's holder; with the Ghost it is `first` (0 or 1, the coin).
    """
    hands = tuple(hands)
    if ghost and len(hands) != MIN_SEATS:
        raise FamilyDealError(f"a two-player deal has three hands (the last is the Ghost), got {len(hands)}")
    if not MIN_SEATS <= len(hands) <= MAX_PLAYERS:
        raise FamilyDealError(f"a deal needs {MIN_SEATS} to {MAX_PLAYERS} hands, got {len(hands)}")
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
    if ghost:
        if first not in (0, 1):
            raise FamilyDealError(f"with the Ghost the coin gives the first turn to seat 0 or 1, got {first}")
    elif first is None:
        first = coconut_holder(hands)
    elif first != coconut_holder(hands):
        raise FamilyDealError(f"the coconut's holder (seat {coconut_holder(hands)}) takes the first turn, not seat {first}")
    return FamilyDeal(hands, specials, aside, shell, first, ghost)


def random_family_deal(players: int, rng: np.random.Generator) -> FamilyDeal:
    """Deal the colour cards one at a time from seat 0, then the specials, then shuffle the hammocks."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise FamilyDealError(f"Family Adventure needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players}")
    ghost = players == 2
    seats = max(players, MIN_SEATS)
    hands = [0] * seats
    for i, c in enumerate(rng.permutation(CARD_COUNT)):
        hands[i % seats] |= bit(int(c))
    specials = [int(s) + 1 for s in rng.permutation(len(SPECIAL_CARDS))]
    shell = int(rng.integers(HAMMOCKS))
    first = int(rng.integers(2)) if ghost else None
    return make_family_deal(hands, specials[:seats], specials[seats:], shell, first, ghost)


def parse_family_hands(text: str) -> tuple[int, ...]:
    """Return the hands written as card lists separated by `|`, seat 0 first."""
    return tuple(parse_cards(part) for part in text.split("|"))


def format_family_hands(deal: FamilyDeal) -> str:
    return " | ".join(format_cards(hand) for hand in deal.hands)


def parse_numbers(words: list[str], field: str) -> list[int]:
    if not all(word.isdigit() for word in words):
        raise FamilyDealError(f"deal field {field!r} takes numbers, got {' '.join(words)!r}")
    return [int(word) for word in words]


DEAL_FIELDS = ("specials", "aside", "shell", "ghost", "first")


def parse_family_deal(text: str) -> FamilyDeal:
    """Return the deal written as `hands ; specials ... ; aside ... ; shell N [; ghost ; first N]`."""
    hands_text, *parts = text.split(";")
    fields: dict[str, list[int]] = {}
    for part in parts:
        words = part.split()
        if not words:
            continue
        name = words[0].lower()
        if name not in DEAL_FIELDS:
            raise FamilyDealError(f"unknown deal field {words[0]!r} (fields: {', '.join(DEAL_FIELDS)})")
        if name in fields:
            raise FamilyDealError(f"deal field {name!r} given twice")
        fields[name] = parse_numbers(words[1:], name)
    missing = [name for name in ("specials", "aside", "shell") if name not in fields]
    if missing:
        raise FamilyDealError(f"the deal needs {', '.join(missing)} (e.g. '; specials 3 1 5 ; aside 2 4 6 ; shell 1')")
    if len(fields["shell"]) != 1 or len(fields.get("first", [0])) != 1:
        raise FamilyDealError("deal fields 'shell' and 'first' take one number")
    if fields.get("ghost"):
        raise FamilyDealError("deal field 'ghost' takes no value")
    first = fields["first"][0] if "first" in fields else None
    return make_family_deal(
        parse_family_hands(hands_text), fields["specials"], fields["aside"], fields["shell"][0], first, "ghost" in fields
    )


def format_family_deal(deal: FamilyDeal) -> str:
    """Return the text form of a deal, which parse_family_deal reads back."""
    parts = [
        format_family_hands(deal),
        "specials " + " ".join(map(str, deal.specials)),
        "aside " + " ".join(map(str, deal.aside)),
        f"shell {deal.shell}",
    ]
    if deal.ghost:
        parts += ["ghost", f"first {deal.first}"]
    return " ; ".join(parts)
