"""Family Adventure missions as data: TOML files loaded into typed, validated objects.

The format follows the trick-taking missions (docs/family.md shows every field):

    game = "family"
    [[mission]]
    number = 1
    cards = 4                                          # exactly this many colour cards
    play = [{ cards = ["Titania", "Snake"], row = "white" }]

Objectives: `play` (cards in a row, or anywhere without `row`), `order` (cards
played in this relative order, not necessarily adjacent), `forbid`, `rows`
(a row's numbers strictly increasing or never increasing), `positions` (a card
at a position, 1-12), `count` (between at_least and at_most cards of a set,
optionally in given rows: the Tiger Shark and Pirate sets are written this way).
Also `row_length` (4, or 3 for nine-card missions), `hammocks` (one number, or
three for 3/4/5 players; two players use the 3-player number) and `specials`
(false: no special cards at all). Loading collects every problem, one line each.
"""

import re
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from pathlib import Path

import numpy as np

from solver.core.errors import InputError
from solver.core.mission_file import MissionError, Reader, parse_mission_table, read_mission_file, start_entry
from solver.family.cards import (
    CARD_COUNT,
    bit,
    card_label,
    format_cards,
    parse_card,
)

GAME = "family"
ROWS = ("white", "grey", "black")
ROW_SPELLINGS = {"white": 0, "grey": 1, "gray": 1, "black": 2}
INCREASING, NON_INCREASING = "increasing", "non-increasing"
ROW_RULES = (INCREASING, NON_INCREASING)
ROW_LENGTHS = (3, 4)
DEFAULT_HAMMOCKS = (4, 5, 6)  # for 3, 4, 5 players
BUILT_IN = "family.toml"
FIELDS = {
    "number", "name", "title", "players", "cards", "row_length", "hammocks", "specials",
    "play", "order", "forbid", "rows", "positions", "count",
}
COUNT_FIELDS = {"cards", "rows", "at_least", "at_most"}


@dataclass(frozen=True)
class CardCount:
    """Between `at_least` and `at_most` cards of the set `cards` are played (in `rows`; all rows if empty)."""

    cards: int
    rows: tuple[int, ...] = ()
    at_least: int = 0
    at_most: int | None = None


@dataclass(frozen=True)
class FamilyMission:
    """Play exactly `cards` colour cards in rows of `row_length`, meeting every objective."""

    id: str
    cards: int
    title: str = ""
    players: tuple[int, ...] = (2, 3, 4, 5)
    row_length: int = 4
    hammocks: tuple[int, int, int] = DEFAULT_HAMMOCKS
    specials: bool = True
    in_row: tuple[int, ...] = (0, 0, 0)  # per row: the cards that must be played in it
    anywhere: int = 0  # cards that must be played, in any row
    order: tuple[int, ...] = ()  # cards that must all be played in this relative order
    forbidden: int = 0
    row_rules: tuple[str | None, ...] = (None, None, None)
    positions: tuple[tuple[int, int], ...] = ()  # (position 1-12, card)
    counts: tuple[CardCount, ...] = ()

    def row_of(self, position: int) -> int:
        """Return the row (0 white, 1 grey, 2 black) of a 1-based position."""
        return (position - 1) // self.row_length

    def row_size(self, row: int) -> int:
        """Return how many positions row `row` (0 white, 1 grey, 2 black) has in this mission."""
        return max(0, min(self.row_length, self.cards - row * self.row_length))

    def hammocks_for(self, players: int) -> int:
        """Return the hammock tokens laid out for `players` real players (the Ghost's game counts as 3)."""
        return self.hammocks[max(players, 3) - 3]

    @cached_property
    def required(self) -> int:
        """Return every card some objective requires to be played."""
        return sum(self.in_row) | self.anywhere | card_set(self.order) | card_set(c for _, c in self.positions)

    def summary(self) -> str:
        """Return the objectives in a few words."""
        return "; ".join(describe_objectives(self)) or "-"


def card_set(cards) -> int:
    return sum(bit(c) for c in set(cards))


def describe_objectives(m: FamilyMission) -> list[str]:
    """Return one phrase per objective."""
    parts = [f"{format_cards(cards)} in the {ROWS[row]} row" for row, cards in enumerate(m.in_row) if cards]
    if m.anywhere:
        parts.append(f"{format_cards(m.anywhere)} played")
    if m.order:
        parts.append("in order " + " < ".join(card_label(c) for c in m.order))
    if m.forbidden:
        parts.append(f"{format_cards(m.forbidden)} not played")
    parts += [f"{ROWS[row]} row {rule}" for row, rule in enumerate(m.row_rules) if rule]
    parts += [f"{card_label(c)} at position {p}" for p, c in m.positions]
    for count in m.counts:
        where = " in the " + "/".join(ROWS[r] for r in count.rows) + " row" if count.rows else ""
        bounds = [f"at least {count.at_least}"] if count.at_least else []
        bounds += [] if count.at_most is None else [f"at most {count.at_most}"]
        parts.append(f"{' and '.join(bounds) or 'any number'} of {format_cards(count.cards)}{where}")
    return parts


# --- loading -------------------------------------------------------------------------------


def load_family_missions(path: str | Path) -> dict[str, FamilyMission]:
    """Return the missions of a family mission file by id; raise MissionError listing every problem."""
    return parse_family_missions(read_mission_file(path), str(path))


def parse_family_missions(text: str, source: str) -> dict[str, FamilyMission]:
    return parse_mission_table(text, source, read_mission, GAME)


def whole(value, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def read_mission(reader: Reader, game: str, index: int, entry: dict) -> FamilyMission | None:
    """Return one checked mission, or None after recording its problems."""
    started = start_entry(reader, game, index, entry, FIELDS)
    if started is None:
        return None
    mission_id, title, bad, before = started
    players = entry.get("players", [2, 3, 4, 5])
    if not isinstance(players, list) or not players or not all(whole(p, 2, 5) for p in players):
        bad("players", "must be a list of player counts from 2 to 5")
        players = [3]
    row_length = entry.get("row_length", 4)
    if row_length not in ROW_LENGTHS:
        bad("row_length", "must be 4, or 3 for missions of nine cards")
        row_length = 4
    cards = entry.get("cards")
    if not whole(cards, 1, 3 * row_length):
        bad("cards", f"must be the number of colour cards to play, 1 to {3 * row_length} (three rows of {row_length})")
        cards = 3 * row_length
    hammocks = read_hammocks(entry.get("hammocks", list(DEFAULT_HAMMOCKS)), bad)
    specials = entry.get("specials", True)
    if not isinstance(specials, bool):
        bad("specials", "must be true or false")
    rows = -(-cards // row_length)
    fields = {
        "in_row": [0, 0, 0],
        "anywhere": 0,
        "order": read_cards(entry.get("order", []), "order", bad),
        "forbidden": card_set(read_cards(entry.get("forbid", []), "forbid", bad)),
        "row_rules": read_row_rules(entry.get("rows", {}), rows, bad),
        "positions": read_positions(entry.get("positions", {}), cards, bad),
        "counts": tuple(read_count(c, rows, bad) for c in as_list(entry.get("count", []), "count", bad)),
    }
    for item in as_list(entry.get("play", []), "play", bad):
        read_play(item, rows, fields, bad)
    mission = FamilyMission(
        mission_id, cards, title, tuple(players), row_length, hammocks, specials,
        tuple(fields["in_row"]), fields["anywhere"], tuple(fields["order"]), fields["forbidden"],
        fields["row_rules"], fields["positions"], tuple(c for c in fields["counts"] if c is not None),
    )
    check_consistent(mission, bad)
    return mission if len(reader.problems) == before else None


def as_list(value, field_name: str, bad) -> list:
    if not isinstance(value, list):
        bad(field_name, "must be a list")
        return []
    return value


def read_cards(value, field_name: str, bad) -> list[int]:
    """Return the cards of a list of names or notations (`Titania`, `B7`)."""
    if isinstance(value, str) or not isinstance(value, list):
        bad(field_name, 'must be a list of cards, e.g. ["Titania", "G3"]')
        return []
    cards = []
    for word in value:
        try:
            c = parse_card(str(word))
        except InputError as error:
            bad(field_name, str(error))
            continue
        if c in cards:
            bad(field_name, f"{card_label(c)} listed twice")
        cards.append(c)
    return cards


def read_row(value, rows: int, field_name: str, bad) -> int | None:
    row = ROW_SPELLINGS.get(value) if isinstance(value, str) else None
    if row is None or row >= rows:
        bad(field_name, f"row must be one of {', '.join(ROWS[:rows])} (the mission has {rows} row(s)), got {value!r}")
        return None
    return row


def read_hammocks(value, bad) -> tuple[int, int, int]:
    if whole(value, 0, 6):
        return (value,) * 3
    if isinstance(value, list) and len(value) == 3 and all(whole(v, 0, 6) for v in value):
        return tuple(value)
    bad("hammocks", "must be a number 0-6, or three numbers for 3, 4 and 5 players")
    return DEFAULT_HAMMOCKS


def read_play(item, rows: int, fields: dict, bad) -> None:
    """Add one `play` entry: cards in a row, or anywhere."""
    if not isinstance(item, dict) or set(item) - {"cards", "row"} or "cards" not in item:
        bad("play", 'entries look like { cards = ["Titania"], row = "white" } (row optional)')
        return
    cards = card_set(read_cards(item["cards"], "play", bad))
    if "row" not in item:
        fields["anywhere"] |= cards
        return
    row = read_row(item["row"], rows, "play", bad)
    if row is not None:
        fields["in_row"][row] |= cards


def read_row_rules(value, rows: int, bad) -> tuple[str | None, ...]:
    rules: list[str | None] = [None, None, None]
    if not isinstance(value, dict):
        bad("rows", 'must be a table like { white = "increasing" }')
        return tuple(rules)
    for name, rule in value.items():
        row = read_row(name, rows, "rows", bad)
        if rule not in ROW_RULES:
            bad("rows", f"a row rule is {' or '.join(ROW_RULES)}, got {rule!r}")
        elif row is not None:
            rules[row] = rule
    return tuple(rules)


def read_positions(value, cards: int, bad) -> tuple[tuple[int, int], ...]:
    if not isinstance(value, dict):
        bad("positions", 'must be a table like { "4" = "Titania" }')
        return ()
    positions = []
    for key, word in value.items():
        if not (re.fullmatch(r"[1-9][0-9]?", key) and int(key) <= cards):
            bad("positions", f"a position is 1 to {cards} (the cards played), got {key!r}")
            continue
        try:
            positions.append((int(key), parse_card(str(word))))
        except InputError as error:
            bad("positions", str(error))
    return tuple(sorted(positions))


def read_count(item, rows: int, bad) -> CardCount | None:
    if not isinstance(item, dict) or set(item) - COUNT_FIELDS or "cards" not in item:
        bad("count", "entries look like { cards = [...], at_least = 2, at_most = 3, rows = [\"grey\"] }")
        return None
    cards = card_set(read_cards(item["cards"], "count", bad))
    count_rows = {read_row(r, rows, "count", bad) for r in as_list(item.get("rows", []), "count", bad)}
    at_least, at_most = item.get("at_least", 0), item.get("at_most")
    if not whole(at_least, 0, CARD_COUNT) or not (at_most is None or whole(at_most, 0, CARD_COUNT)):
        bad("count", "at_least and at_most must be whole numbers 0-21")
        return None
    if at_most is not None and at_most < at_least or at_least > cards.bit_count():
        bad("count", f"at_least {at_least} cannot be met with at_most {at_most} of {cards.bit_count()} cards")
        return None
    return None if None in count_rows else CardCount(cards, tuple(sorted(count_rows)), at_least, at_most)


def check_consistent(m: FamilyMission, bad) -> None:
    """Report objectives that contradict each other or do not fit the rows."""
    if m.forbidden & m.required:
        bad("forbid", f"{format_cards(m.forbidden & m.required)} also required")
    if m.required.bit_count() > m.cards:
        bad("cards", f"{m.required.bit_count()} cards are required but only {m.cards} are played")
    for row, cards in enumerate(m.in_row):
        if cards.bit_count() > m.row_size(row):
            bad("play", f"{cards.bit_count()} cards required in the {ROWS[row]} row, which holds {m.row_size(row)}")
        if cards & (m.anywhere | sum(m.in_row[:row])):
            bad("play", f"{format_cards(cards & (m.anywhere | sum(m.in_row[:row])))} required twice")
    for count in m.counts:
        room = sum(m.row_size(row) for row in count.rows or range(len(ROWS)))
        if count.at_least > room:
            bad("count", f"at least {count.at_least} of {format_cards(count.cards)} do not fit in {room} position(s)")
    seen = {}
    for position, c in m.positions:
        if c in seen.values():
            bad("positions", f"{card_label(c)} at two positions")
        seen[position] = c
        if any(cards & bit(c) and row != m.row_of(position) for row, cards in enumerate(m.in_row)):
            bad("positions", f"{card_label(c)} at position {position} is not in the row it is required in")


# --- built-in missions and the random-objective generator --------------------------------------


def built_in_family_missions() -> dict[str, FamilyMission]:
    source = resources.files("solver.family").joinpath(BUILT_IN)
    return parse_family_missions(source.read_text(encoding="utf-8"), f"built-in {BUILT_IN}")


OBJECTIVES = "objectives"
OBJECTIVE_CARDS = 12  # a random-objective mission fills the three rows of four


def random_objectives(count: int, rng: np.random.Generator) -> FamilyMission:
    """Return a mission of 12 cards with `count` random required cards, each in a random row or anywhere.

    A row takes at most four required cards; a card that finds its row full goes anywhere.
    """
    if not 0 <= count <= OBJECTIVE_CARDS:
        raise InputError(f"--objectives is 0 to {OBJECTIVE_CARDS} required cards, got {count}")
    in_row, anywhere = [0, 0, 0], 0
    for c in rng.permutation(CARD_COUNT)[:count]:
        row = int(rng.integers(len(ROWS) + 1)) - 1  # -1: anywhere
        if row >= 0 and in_row[row].bit_count() < 4:
            in_row[row] |= bit(int(c))
        else:
            anywhere |= bit(int(c))
    return FamilyMission(f"{GAME}/{OBJECTIVES}/{count}", OBJECTIVE_CARDS, in_row=tuple(in_row), anywhere=anywhere)


def find_family_mission(name: str, mission_file: str | Path | None = None) -> FamilyMission:
    """Return the mission named `name` (family/1, or 1 within a file) from a file or the built-in set."""
    missions = load_family_missions(mission_file) if mission_file else built_in_family_missions()
    full = name if name.startswith(f"{GAME}/") else f"{GAME}/{name}"
    if full in missions:
        return missions[full]
    raise MissionError([f"unknown mission {name!r} (for example {next(iter(missions), 'none')}; see crew family missions)"])
