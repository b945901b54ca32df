"""Family Adventure move rules: which colour card may follow the last one played.

The plain rule is "number after number or colour after colour": on the
gameboard grid (a row per colour, a column per number) the next card shares
the last card's row or column. Special cards 5 and 6 allow other steps on the
grid. Our reading of their pictures, written down in the docs:

- card 5, "1 or 2 steps diagonally": the colour and the number both change
  by the same amount, 1 or 2 (from G5: P4 P6 B4 B6; from P5 also B3 B7);
- card 6, "1 step straight and 1 step diagonally": a knight's move, one
  coordinate changes by 1 and the other by 2 (from G5: P3 P7 B3 B7).

The first card of a mission may be any card.
"""

from functools import cache

from solver.family.cards import CARD_COUNT, bit, colour_of, number_of

ANY, STRAIGHT, DIAGONAL, KNIGHT = "any", "straight", "diagonal", "knight"


def steps(a: int, b: int) -> tuple[int, int]:
    """Return how far apart two cards lie on the grid: (colour rows, number columns)."""
    return abs(colour_of(a) - colour_of(b)), abs(number_of(a) - number_of(b))


def may_follow(last: int, c: int, move: str = STRAIGHT) -> bool:
    """Return True when card `c` may be played after card `last` with this kind of move."""
    if c == last:
        return False
    rows, columns = steps(last, c)
    if move == STRAIGHT:
        return rows == 0 or columns == 0
    if move == DIAGONAL:
        return rows == columns and rows in (1, 2)
    if move == KNIGHT:
        return {rows, columns} == {1, 2}
    return move == ANY


@cache
def followers(last: int | None, move: str = STRAIGHT) -> int:
    """Return the set of cards that may follow `last` (None: the first card, anything goes)."""
    if last is None:
        return (1 << CARD_COUNT) - 1
    return sum(bit(c) for c in range(CARD_COUNT) if may_follow(last, c, move))
