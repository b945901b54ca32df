"""Check a row of played cards against a Family Adventure mission's objectives.

`broken` looks at a prefix (the cards played so far) and names an objective no
continuation can meet any more; `unmet` judges a finished mission. Both read
the mission's fields directly, card by card, so they serve as the plain
reference for the searches.
"""

from solver.family.cards import bit, card_label, format_cards, number_of
from solver.family.mission import INCREASING, ROWS, FamilyMission


def linking_rule(m: FamilyMission, position: int) -> str | None:
    """Return the row rule between positions `position` and `position + 1` (1-based), if any.

    It is the rule of the row of `position + 1`: inside a row, the row's rule; across a row
    boundary, the later row's ("the beginning of the gray row directly follows the end of the
    white row. The same goes for the gray and black rows": a row's rule also compares its first
    card with the last card of the row before it, whatever that row's own rule).
    """
    return m.row_rules[m.row_of(position + 1)]


def keeps_rule(rule: str, before: int, after: int) -> bool:
    if rule == INCREASING:
        return number_of(after) > number_of(before)
    return number_of(after) <= number_of(before)


def positions_left(m: FamilyMission, played: int, row: int) -> int:
    """Return how many positions of `row` are still free after `played` cards."""
    first, last = row * m.row_length + 1, min((row + 1) * m.row_length, m.cards)
    return max(0, last - max(first - 1, played))


def broken(m: FamilyMission, row: tuple[int, ...], checked: int = 0) -> str | None:
    """Return an objective that the played `row` breaks beyond repair, or None.

    The first `checked` cards are known to keep every card-by-card objective (the search checked
    that prefix before); counts and the room left are checked whole.
    """
    fixed = dict(m.positions)
    fixed_at = {c: p for p, c in m.positions}
    played = sum(bit(c) for c in row[:checked])
    for index in range(checked, len(row)):
        c, position = row[index], index + 1
        if m.forbidden & bit(c):
            return f"{card_label(c)} must not be played"
        for r, cards in enumerate(m.in_row):
            if cards & bit(c) and r != m.row_of(position):
                return f"{card_label(c)} must be in the {ROWS[r]} row"
        if position in fixed and fixed[position] != c or c in fixed_at and fixed_at[c] != position:
            return f"{card_label(fixed.get(position, c))} must be at position {fixed_at.get(c, position)}"
        if c in m.order and not all(bit(o) & played for o in m.order[: m.order.index(c)]):
            return f"{card_label(c)} played before an earlier card of the order"
        if index and (rule := linking_rule(m, index)) and not keeps_rule(rule, row[index - 1], c):
            return f"{card_label(c)} after {card_label(row[index - 1])} breaks the rule '{rule}'"
        played |= bit(c)
    for count in m.counts:
        if count.at_most is not None and counted(m, row, count) > count.at_most:
            return f"more than {count.at_most} of {format_cards(count.cards)}"
    return missing(m, row, played)


def counted(m: FamilyMission, row: tuple[int, ...], count) -> int:
    return sum(
        1 for i, c in enumerate(row) if count.cards & bit(c) and (not count.rows or m.row_of(i + 1) in count.rows)
    )


def missing(m: FamilyMission, row: tuple[int, ...], played: int) -> str | None:
    """Return a requirement that no longer fits into the positions left, or None."""
    left = m.cards - len(row)
    if (m.required & ~played).bit_count() > left:
        return f"{format_cards(m.required & ~played)} still to play with {left} position(s) left"
    for r, cards in enumerate(m.in_row):
        if (cards & ~played).bit_count() > positions_left(m, len(row), r):
            return f"{format_cards(cards & ~played)} no longer fit in the {ROWS[r]} row"
    for count in m.counts:
        rows = count.rows or range(len(ROWS))
        room = sum(positions_left(m, len(row), r) for r in rows)
        if counted(m, row, count) + min(room, (count.cards & ~played).bit_count()) < count.at_least:
            return f"fewer than {count.at_least} of {format_cards(count.cards)}"
    return None


def unmet(m: FamilyMission, row: tuple[int, ...]) -> str | None:
    """Return why a finished row fails the mission, or None when it wins."""
    if len(row) != m.cards:
        return f"{len(row)} cards played, the mission needs {m.cards}"
    return broken(m, row)
