"""The 21 colour cards of Family Adventure as bit positions; a card set is one plain int.

The gameboard is a grid with a row per colour (pink, green, blue) and a column per
number (1-7); card = colour * 7 + (number - 1). Notation: a colour letter and a
number, `P4`, `G3`, `B7` (case-insensitive), or a card's name from the rulebook
(Titania, coconut, ...). Special cards are numbered 1-6 as in the rulebook.
"""

from solver.core.cards import bit, scan  # plain-int bit-set helpers, the same for any deck
from solver.core.errors import InputError

PINK, GREEN, BLUE = range(3)
COLOURS = 3
NUMBERS = 7
CARD_COUNT = COLOURS * NUMBERS
DECK = (1 << CARD_COUNT) - 1
COLOUR_LETTERS = "PGB"

SPECIAL_CARDS = {
    1: "trade a card with a crew member",
    2: "receive a named playable colour card",
    3: "play two colour cards",
    4: "play any colour card",
    5: "play a card 1 or 2 steps diagonally away",
    6: "play a card 1 step straight and 1 step diagonally away",
}


class FamilyCardError(InputError):
    """A card that is not one of the 21 colour cards."""


def card(colour: int, number: int) -> int:
    """Return the card of `colour` (PINK, GREEN, BLUE) and `number` (1-7)."""
    return colour * NUMBERS + number - 1


def colour_of(c: int) -> int:
    return c // NUMBERS


def number_of(c: int) -> int:
    return c % NUMBERS + 1


# Named cards, from the rulebook (names of people and boats capitalized, as there).
NAMED = {
    "Titania": card(BLUE, 7),
    "Snake": card(BLUE, 6),
    "Island": card(BLUE, 1),
    "Rosso": card(GREEN, 1),
    "coconut": card(GREEN, 3),
    "toolbox": card(PINK, 4),
    "lifeboat": card(GREEN, 5),
    "Riku": card(PINK, 2),
    "Maite": card(GREEN, 2),
    "Stella": card(BLUE, 3),
    "Logan": card(BLUE, 4),
}
NAMES = {name.lower(): c for name, c in NAMED.items()}  # lookup, case-insensitive
DISPLAY_NAMES = {c: name for name, c in NAMED.items()}
COCONUT = NAMED["coconut"]  # its holder takes the first turn


def format_card(c: int) -> str:
    """Return the notation of a card, e.g. B7."""
    return f"{COLOUR_LETTERS[colour_of(c)]}{number_of(c)}"


def card_label(c: int) -> str:
    """Return a card's notation with its name, if it has one: `B7 (Titania)`."""
    return f"{format_card(c)} ({DISPLAY_NAMES[c]})" if c in DISPLAY_NAMES else format_card(c)


def parse_card(text: str) -> int:
    """Return the card written as `P1`-`B7` or by its name."""
    word = text.strip()
    lower = word.lower()
    if lower in NAMES:
        return NAMES[lower]
    if len(word) == 2 and word[0].upper() in COLOUR_LETTERS and word[1] in "1234567":
        return card(COLOUR_LETTERS.index(word[0].upper()), int(word[1]))
    raise FamilyCardError(f"unknown card {word!r} (cards are P1-P7, G1-G7, B1-B7, or names like Titania)")


def parse_cards(text: str) -> int:
    """Return the card set of a list of cards separated by spaces or commas; a card twice is an error."""
    cards = 0
    for word in text.replace(",", " ").split():
        c = parse_card(word)
        if cards & bit(c):
            raise FamilyCardError(f"card {format_card(c)} listed twice")
        cards |= bit(c)
    return cards


def format_cards(cards: int) -> str:
    return " ".join(format_card(c) for c in scan(cards))
