"""Table patterns of Journey's special stages: a predicate over the cards laid on the table.

In a special stage the crew lays one card of each trick on the table, its
choice of any card of the trick, and the task is a pattern those cards form in
the order they were laid. A designer writes the pattern as clauses that must
all hold (docs/missions.md, "Special stages"):

- `{ all = SET }`: every table card is in SET; `{ none = SET }`: none is;
- `{ position = P, cards = SET }`: the card at position P (1, 2, ..., last,
  last-1, ...) is in SET; a pattern naming a position beyond the last table
  card cannot hold;
- `{ next = RELATION }`: every table card but the first stands in RELATION to
  the card laid before it (`RELATIONS`: types are pink, blue, green, yellow,
  heli; numbers are the printed ones, helis 1-4 included);
- `{ count = SET, at_least/at_most/exactly = N }`: how many table cards are in SET.

`Pattern.holds` checks a finished sequence plainly (the reference solver's
reading). The kernel reads the same clauses as a finite automaton over cards
(`Pattern.automaton`): a state remembers only what the clauses still need
(the position, the previous card's class under the `next` relations, the
counts so far), a transition is -1 where a card breaks a clause at once, and
`alive[state, r]` says whether r more cards can still complete the pattern.
"""

import functools
from dataclasses import dataclass

import numpy as np

from solver.core.cards import CARD_COUNT, COLOUR_RANKS
from solver.core.errors import InputError

MAX_STATES = 1 << 14  # automaton states the kernel's position keys hold


def suit(c: int) -> int:
    return c // COLOUR_RANKS


def number(c: int) -> int:
    return c % COLOUR_RANKS + 1


RELATIONS = {  # relation(previous card, card) of a `next` clause
    "same-type": lambda a, b: suit(a) == suit(b),
    "other-type": lambda a, b: suit(a) != suit(b),
    "same-number": lambda a, b: number(a) == number(b),
    "other-number": lambda a, b: number(a) != number(b),
    "same-type-or-number": lambda a, b: suit(a) == suit(b) or number(a) == number(b),
    "higher": lambda a, b: number(b) > number(a),
    "lower": lambda a, b: number(b) < number(a),
    "not-higher": lambda a, b: number(b) <= number(a),
    "not-lower": lambda a, b: number(b) >= number(a),
    "one-higher": lambda a, b: number(b) == number(a) + 1,
    "one-lower": lambda a, b: number(b) == number(a) - 1,
    "one-apart": lambda a, b: abs(number(b) - number(a)) == 1,
}
RANK_RELATIONS = {name for name in RELATIONS if "type" not in name} | {"same-type-or-number"}


@dataclass(frozen=True)
class Clause:
    """One condition of a pattern (see the module docstring); unused fields keep their defaults."""

    kind: str  # all, none, position, next, count
    cards: int = 0
    position: int = 0  # 1-based, or solver.missions.mission.LAST - k counted from the end
    relation: str = ""
    at_least: int = 0
    at_most: int | None = None


@dataclass(frozen=True)
class Pattern:
    """A table pattern: clauses that must all hold for the sequence of table cards."""

    clauses: tuple[Clause, ...]

    def holds(self, table: tuple[int, ...]) -> bool:
        """Return True when the finished sequence `table` (in the order laid) forms the pattern."""
        return all(clause_holds(clause, table) for clause in self.clauses)

    def broken(self, laid: tuple[int, ...], length: int) -> bool:
        """Return True when the first cards `laid` of `length` break a clause whatever follows them."""
        return not all(clause_open(clause, laid, length) for clause in self.clauses)

    def named_sets(self) -> list[int]:
        """Return the card sets the clauses name (cards inside and outside one tell suits apart)."""
        return [clause.cards for clause in self.clauses if clause.kind != "next"]

    @property
    def ranks_matter(self) -> bool:
        """Return True when a `next` relation compares numbers: every card is then itself."""
        return any(clause.relation in RANK_RELATIONS for clause in self.clauses)

    def automaton(self, length: int) -> tuple[np.ndarray, np.ndarray]:
        """Return (transitions, alive) of the pattern over `length` table cards (cached)."""
        return build_automaton(self, length)


def resolve_position(position: int, length: int) -> int:
    """Return a 1-based position among `length` table cards (LAST - k counts from the end; LAST is 0)."""
    return position if position > 0 else length + position


def clause_holds(clause: Clause, table: tuple[int, ...]) -> bool:
    """Return True when the finished sequence `table` keeps `clause`."""
    inside = [clause.cards >> c & 1 for c in table]
    if clause.kind == "all":
        return all(inside)
    if clause.kind == "none":
        return not any(inside)
    if clause.kind == "position":
        place = resolve_position(clause.position, len(table))
        return 1 <= place <= len(table) and inside[place - 1] == 1
    if clause.kind == "next":
        return all(RELATIONS[clause.relation](a, b) for a, b in zip(table, table[1:]))
    count = sum(inside)
    return clause.at_least <= count and (clause.at_most is None or count <= clause.at_most)


def clause_open(clause: Clause, laid: tuple[int, ...], length: int) -> bool:
    """Return True when the cards `laid` so far (of `length`) may still end in a sequence keeping `clause`."""
    if clause.kind == "position":
        place = resolve_position(clause.position, length)
        return place > len(laid) or place >= 1 and clause.cards >> laid[place - 1] & 1 == 1
    if clause.kind == "count":
        return clause.at_most is None or sum(clause.cards >> c & 1 for c in laid) <= clause.at_most
    return clause_holds(clause, laid)  # all, none, next: every prefix of a sequence keeping them keeps them


def follows_mask(relation: str, previous: int) -> int:
    """Return the cards that may come right after `previous` under `relation`."""
    return sum(1 << c for c in range(CARD_COUNT) if RELATIONS[relation](previous, c))


@functools.lru_cache(maxsize=64)
def build_automaton(pattern: Pattern, length: int) -> tuple[np.ndarray, np.ndarray]:
    """Return (transitions[state, card] -> state or -1, alive[state, remaining] in 0/1); state 0 is the start.

    A state is (position or 0 when no clause needs it, the cards the `next` clauses allow
    next, the counts of each `count` clause, capped where a higher count changes nothing).
    """
    clauses = pattern.clauses
    positioned = {}  # place -> the cards allowed there, every position clause on it at once
    for clause in clauses:
        if clause.kind == "position":
            place = resolve_position(clause.position, length)
            positioned[place] = positioned.get(place, -1) & clause.cards
    needs_position = bool(positioned)
    everywhere = (1 << CARD_COUNT) - 1
    for clause in clauses:
        if clause.kind == "all":
            everywhere &= clause.cards
        elif clause.kind == "none":
            everywhere &= ~clause.cards
    relations = [c.relation for c in clauses if c.kind == "next"]
    counts = [c for c in clauses if c.kind == "count"]
    caps = [c.at_least if c.at_most is None else c.at_most for c in counts]
    next_masks = [functools.reduce(int.__and__, (follows_mask(r, c) for r in relations), everywhere)
                  for c in range(CARD_COUNT)]

    def step(state, c):
        place, allowed, tallies = state
        place += 1
        if not allowed >> c & 1 or place > length or not positioned.get(place, everywhere) >> c & 1:
            return None
        grown = []
        for clause, cap, tally in zip(counts, caps, tallies):
            tally += clause.cards >> c & 1
            if clause.at_most is not None and tally > clause.at_most:
                return None
            grown.append(min(tally, cap))
        return (place if needs_position else 0, next_masks[c], tuple(grown))

    start = (0, everywhere, (0,) * len(counts))
    index = {start: 0}
    states = [start]
    rows = []
    while len(rows) < len(states):
        row = []
        for c in range(CARD_COUNT):
            nxt = step(states[len(rows)], c)
            if nxt is None:
                row.append(-1)
                continue
            if nxt not in index:
                if len(states) == MAX_STATES:
                    raise InputError(f"the table pattern needs more than {MAX_STATES} automaton states")
                index[nxt] = len(states)
                states.append(nxt)
            row.append(index[nxt])
        rows.append(row)
    transitions = np.array(rows, dtype=np.int64)
    beyond = any(place > length or place < 1 for place in positioned)
    alive = np.zeros((len(states), length + 1), dtype=np.int64)
    for s, (_, _, tallies) in enumerate(states):
        alive[s, 0] = not beyond and all(t >= c.at_least for t, c in zip(tallies, counts))
    for remaining in range(1, length + 1):
        for s in range(len(states)):
            targets = transitions[s][transitions[s] >= 0]
            alive[s, remaining] = bool(alive[targets, remaining - 1].any())
    return transitions, alive
