"""Perft: counts of legal move sequences on fixed deals, as in python-chess's perft files.

perft.txt holds plain play, counted by the tiny walker below, which every engine's perft must
match. perft-spaces.txt holds the stage spaces that change play, mission 12's random pass, a
special stage's table and the Ghost, each line counted by every engine's own move generation
(`PERFT_ENGINES`: engine name -> perft(deal, mission, tricks)); its header says what a move is.
"""

from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from solver.core.cards import CARD_COUNT, bit, parse_card, parse_card_list, scan
from solver.core.deal import parse_deal
from solver.core.rules import legal_plays, trick_winner
from solver.engines import kernel, reference
from solver.missions.pattern import Pattern
from solver.missions.setup import Setup
from solver.missions.stage import Stage, space_cases
from solver.missions.tasks import make_task_mission
from solver.trick.chance import RandomPass
from solver.trick.ghost import parse_ghost_deal
from solver.trick.spaces import parse_space

DATA = Path(__file__).parent / "data"
PERFT_FILE = DATA / "perft.txt"
SPACES_FILE = DATA / "perft-spaces.txt"
PERFT_ENGINES = {"reference": reference.perft, "kernel": kernel.perft}
GHOSTS = ("-", "ghost", "difficult")
DRAWS = ("driver", "late", "jeep", "pass", "table", "redeal")  # the draws column's items (perft-spaces.txt)
NO_CLAUSES = Pattern(())  # a table to lay, whatever is laid on it


def read_cases():
    for line in PERFT_FILE.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            commander, tricks, count, deal = (field.strip() for field in line.split(";"))
            yield int(commander), int(tricks), int(count), deal


def play_sequences(hands, leader, tricks, trick=()):
    """Count the legal ways to play the next `tricks` tricks."""
    if tricks == 0:
        return 1
    players = len(hands)
    if len(trick) == players:
        return play_sequences(hands, trick_winner(leader, trick, players), tricks - 1)
    seat = (leader + len(trick)) % players
    total = 0
    for c in scan(legal_plays(hands[seat], trick)):
        after = hands[:seat] + (hands[seat] & ~bit(c),) + hands[seat + 1 :]
        total += play_sequences(after, leader, tricks, trick + (c,))
    return total


def plain_deal(commander, deal_text):
    deal = parse_deal(deal_text, None if "r4" in deal_text else commander)
    assert deal.commander == commander
    return deal


@pytest.mark.parametrize("commander, tricks, count, deal_text", list(read_cases()))
def test_perft(commander, tricks, count, deal_text):
    deal = plain_deal(commander, deal_text)
    assert play_sequences(deal.hands, deal.commander, tricks) == count


@pytest.mark.parametrize("engine", PERFT_ENGINES)
@pytest.mark.parametrize("commander, tricks, count, deal_text", list(read_cases()))
def test_engine_perft_of_plain_play_agrees_with_the_walker(engine, commander, tricks, count, deal_text):
    deal = plain_deal(commander, deal_text)
    counted = PERFT_ENGINES[engine](deal, make_task_mission(deal, []), tricks)
    assert counted == play_sequences(deal.hands, deal.commander, tricks) == count


@pytest.mark.parametrize("engine", PERFT_ENGINES)
def test_engine_perft_ignores_the_mission(engine):
    # perft counts play, not missions: seat 2 must win p1, which seat 0 holds, and most lines of
    # the first case of perft.txt lose that task at once; all 180 still count.
    commander, tricks, count, deal_text = next(read_cases())
    deal = plain_deal(commander, deal_text)
    mission = make_task_mission(deal, [parse_card("p1")], owners=[2])
    assert PERFT_ENGINES[engine](deal, mission, tricks) == count


@pytest.mark.parametrize("engine", PERFT_ENGINES)
def test_engine_perft_counts_the_tricks_a_deal_has(engine):
    commander, _, _, deal_text = next(read_cases())
    deal = plain_deal(commander, deal_text)
    mission = make_task_mission(deal, [])
    assert PERFT_ENGINES[engine](deal, mission, 0) == 1
    with pytest.raises(ValueError, match="0 to 4 tricks"):
        PERFT_ENGINES[engine](deal, mission, 5)


# --- stage spaces, mission 12's pass, the special stage's table, the Ghost -------------------------


@dataclass(frozen=True)
class SpaceLine:
    """A line of perft-spaces.txt: the space as str(space), the deal and its draws, and the count."""

    number: int
    space: str
    players: int
    ghost: str  # "-" (none), "ghost" or "difficult"
    tricks: int
    count: int
    deal: str
    draws: dict[str, str]  # item -> its text ("" for `table`)

    @property
    def id(self) -> str:
        ghost = [] if self.ghost == "-" else [self.ghost]
        return "-".join([f"line{self.number}", self.space, *ghost, *self.draws, f"{self.tricks}-tricks"])


def read_space_lines(path: Path = SPACES_FILE) -> list[SpaceLine]:
    numbered = enumerate(path.read_text().splitlines(), 1)
    return [read_space_line(number, text) for number, text in numbered if text.strip() and not text.startswith("#")]


def read_space_line(number: int, text: str) -> SpaceLine:
    space, players, ghost, tricks, count, deal, draws = (field.strip() for field in text.split(";"))
    return SpaceLine(number, space, int(players), ghost, int(tricks), int(count), deal, read_draws(draws))


def read_draws(text: str) -> dict[str, str]:
    """Return the draws column's items, `NAME=VALUE` or `NAME`, separated by commas (`-`: none)."""
    if text == "-":
        return {}
    draws = {}
    for item in text.split(","):
        name, _, value = (part.strip() for part in item.partition("="))
        assert name in DRAWS, f"unknown draw {name!r}"
        draws[name] = value
    return draws


def fog_arrivals(text: str) -> tuple[int, ...]:
    """Return fog's schedule from `CARD@TRICK` words: the card reaches its holder after that trick;
    every other card is dealt."""
    schedule = [0] * CARD_COUNT
    for word in text.split():
        name, after = word.split("@")
        schedule[parse_card(name)] = int(after)
    return tuple(schedule)


def seats(text: str) -> tuple[int, ...]:
    return tuple(int(word) for word in text.split())


def random_pass(text: str) -> RandomPass:
    """Return mission 12's pass after trick 1 where each hand gives the first card it holds in `text`."""
    named = parse_card_list(text)
    return RandomPass(1, (*named, *(c for c in range(CARD_COUNT) if c not in named)))


def line_case(line: SpaceLine):
    """Return the (deal, mission) of a line: a mission with no task, made a case of its stage as the
    engines get it (missions/stage.py: `space_cases`), the dog-sled's with the line's driver."""
    draws = line.draws
    deal, display = parse_ghost_deal(line.deal) if line.ghost != "-" else (parse_deal(line.deal), ())
    assert line.ghost in GHOSTS and deal.players == line.players + (line.ghost != "-")  # the Ghost has a seat
    space = parse_space(line.space)
    assert str(space) == line.space
    stage = Stage(
        space,
        arrivals=fog_arrivals(draws["late"]) if "late" in draws else (),
        jeep_order=seats(draws.get("jeep", "")),
        display=display,
        difficult=line.ghost == "difficult",
        redeal_order=seats(draws.get("redeal", "")),
    )
    mission = make_task_mission(deal, [], random_pass=random_pass(draws["pass"]) if "pass" in draws else None)
    if "table" in draws:
        mission = replace(mission, pattern=NO_CLAUSES)
    cases = space_cases(stage, deal, [Setup("", mission)])
    if "driver" in draws:
        cases = [case for case in cases if case[2].space.sled == int(draws["driver"])]
    assert len(cases) == 1, f"line {line.number} makes {len(cases)} cases, not one"
    _, case_deal, case_mission = cases[0]
    return case_deal, case_mission


SPACE_LINES = read_space_lines()


@pytest.mark.parametrize("engine", PERFT_ENGINES)
@pytest.mark.parametrize("line", SPACE_LINES, ids=[line.id for line in SPACE_LINES])
def test_engine_perft_on_stage_spaces(engine, line):
    deal, mission = line_case(line)
    assert PERFT_ENGINES[engine](deal, mission, line.tricks) == line.count
