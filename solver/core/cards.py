"""The 40-card trick-taking deck as bit positions; a card set is one plain int.

Card `c` is bit `c` of a card set. Colours take nine bits each, rank 1 at the
lowest bit; trumps (rockets in Planet Nine, helis in Journey) are a fifth suit
of four cards at bits 36-39:

    pink 0-8, blue 9-17, green 18-26, yellow 27-35, trump 36-39

so within a suit a higher rank is a higher bit, and the deck fits in 40 bits
(an int64 in the search kernel).

Notation: a suit letter and a rank, `p5`, `b9`, `g1`, `y3`, trumps `r1`..`r4`
(`h1`..`h4` are accepted as the same cards under their Journey name). Letters
are case-insensitive; card lists are separated by spaces or commas.
"""

from collections.abc import Iterator

from solver.core.errors import InputError

PINK, BLUE, GREEN, YELLOW, TRUMP = range(5)
COLOURS = (PINK, BLUE, GREEN, YELLOW)
SUITS = (PINK, BLUE, GREEN, YELLOW, TRUMP)
SUIT_LETTERS = "pbgyr"
SUIT_NAMES = ("pink", "blue", "green", "yellow", "trump")
TRUMP_ALIAS = "h"

COLOUR_RANKS = 9
TRUMP_RANKS = 4
CARD_COUNT = 4 * COLOUR_RANKS + TRUMP_RANKS

DECK = (1 << CARD_COUNT) - 1
SUIT_MASKS = tuple(
    ((1 << (TRUMP_RANKS if suit == TRUMP else COLOUR_RANKS)) - 1) << (suit * COLOUR_RANKS)
    for suit in SUITS
)
TRUMPS = SUIT_MASKS[TRUMP]
COLOUR_CARDS = DECK & ~TRUMPS


class CardError(InputError):
    """A card, card list or deal that cannot be read."""


def card(suit: int, rank: int) -> int:
    """Return the card of `suit` and `rank` (1-based)."""
    top = TRUMP_RANKS if suit == TRUMP else COLOUR_RANKS
    if suit not in SUITS or not 1 <= rank <= top:
        raise CardError(f"no card of suit {suit} and rank {rank}")
    return suit * COLOUR_RANKS + rank - 1


def suit_of(c: int) -> int:
    """Return the suit of card `c`."""
    return c // COLOUR_RANKS


def rank_of(c: int) -> int:
    """Return the rank (1-9, trumps 1-4) of card `c`."""
    return c % COLOUR_RANKS + 1


def bit(c: int) -> int:
    """Return the card set holding only `c`."""
    return 1 << c


def card_set(cards) -> int:
    """Return the card set holding the given cards."""
    result = 0
    for c in cards:
        result |= 1 << c
    return result


def popcount(cards: int) -> int:
    """Return the number of cards in a set."""
    return cards.bit_count()


def lowest(cards: int) -> int:
    """Return the lowest-numbered card of a non-empty set."""
    return (cards & -cards).bit_length() - 1


def highest(cards: int) -> int:
    """Return the highest-numbered card of a non-empty set."""
    return cards.bit_length() - 1


def scan(cards: int) -> Iterator[int]:
    """Yield the cards of a set, lowest first."""
    while cards:
        low = cards & -cards
        yield low.bit_length() - 1
        cards ^= low


def parse_card(text: str) -> int:
    """Return the card written as `text` (e.g. `p5`, `r4`, `h4`)."""
    word = text.strip().lower()
    if len(word) == 2 and word[1] in "123456789":
        letter = TRUMP_ALIAS if word[0] == TRUMP_ALIAS else word[0]
        suit = TRUMP if letter == TRUMP_ALIAS else SUIT_LETTERS.find(letter)
        rank = int(word[1])
        top = TRUMP_RANKS if suit == TRUMP else COLOUR_RANKS
        if suit >= 0 and 1 <= rank <= top:
            return card(suit, rank)
    raise CardError(f"unknown card {text.strip()!r} (cards are p1-p9, b1-b9, g1-g9, y1-y9, r1-r4; "
                    "Journey's helis h1-h4 are r1-r4)")


def parse_card_list(text: str) -> list[int]:
    """Return the cards written in `text`, in order; a repeated card is an error."""
    cards = [parse_card(word) for word in text.replace(",", " ").split()]
    for i, c in enumerate(cards):
        if c in cards[:i]:
            raise CardError(f"duplicate card {format_card(c)}")
    return cards


def parse_cards(text: str) -> int:
    """Return the card set written in `text`."""
    return card_set(parse_card_list(text))


def format_card(c: int) -> str:
    """Return the notation of card `c`."""
    return f"{SUIT_LETTERS[suit_of(c)]}{rank_of(c)}"


def format_cards(cards: int) -> str:
    """Return the notation of a card set, ordered by suit then rank."""
    return " ".join(format_card(c) for c in scan(cards))
