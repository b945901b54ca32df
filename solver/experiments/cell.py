"""A sweep's cell: what it sweeps, on which stage space, with which Ghost, at how many players.

A cell is known everywhere by its name and its player count: a deal's generator is seeded from the
name (crc32), the results database keys its rows by it, and tables, summary files, plots and the
benchmark baseline print it. The name is what is swept, then its marks:

    MISSION-ID             a mission of a game or a mission file: planet-nine/12, journey/no-1-no-2, family/help
    tasks/K/MODE           a random-task experiment: K task cards, owners drafted (draft) or dealt blindly (dealt)
    family/objectives/K    a Family Adventure random-objective experiment: K required cards
    then @SPACE            on a Journey stage space other than the train: @skis, @fog=3
    then @difficult-ghost  two players with the difficult Ghost

`Cell(name, players)` reads a name into typed fields, once; `str(cell)` writes them back, and a name
crew would write otherwise (`tasks/08/draft`, `@train`) is refused, so that a cell has one name.
"""

import re
from dataclasses import InitVar, dataclass, field
from enum import Enum

from solver.core.errors import InputError
from solver.family.mission import GAME as FAMILY
from solver.family.mission import OBJECTIVES
from solver.missions.dealer import TASK_EXPERIMENT
from solver.trick.spaces import TRAIN, Space, SpaceError, parse_space

TASKS = TASK_EXPERIMENT
OWNER_MODES = ("draft", "dealt")
SPACE_MARK = "@"
DIFFICULT_GHOST = "difficult-ghost"
GRAMMAR = "a cell is a mission id (GAME/NAME), tasks/K/MODE or family/objectives/K, then @SPACE, then @difficult-ghost"


class Kind(Enum):
    """What a cell sweeps (the value is stored in the results database)."""

    MISSION = "mission"
    TASKS = "tasks"
    OBJECTIVES = "objectives"


@dataclass(frozen=True, repr=False)
class Cell:
    """One row of a sweep: a mission or an experiment, its stage space and Ghost, its player count."""

    name: InitVar[str]
    players: int
    kind: Kind = field(init=False)
    mission: str | None = field(init=False)  # MISSION: the mission id, GAME/NAME
    tasks: int | None = field(init=False)  # TASKS: the number of random task cards
    owner_mode: str | None = field(init=False)  # TASKS: draft or dealt
    objectives: int | None = field(init=False)  # OBJECTIVES: the number of random required cards
    space: Space = field(init=False)  # TRAIN: no stage space named
    difficult: bool = field(init=False)  # two players: the difficult Ghost

    def __post_init__(self, name: str) -> None:
        for part, value in parse_name(name).items():
            object.__setattr__(self, part, value)  # frozen: set once, here
        if str(self) != name:
            raise InputError(f"bad sweep cell {name!r}: crew names it {str(self)!r}")

    @property
    def subject(self) -> str:
        """What the cell sweeps, as named: the mission id, `tasks/K/MODE` or `family/objectives/K`."""
        if self.kind is Kind.MISSION:
            return self.mission
        if self.kind is Kind.TASKS:
            return tasks_name(self.tasks, self.owner_mode)
        return objectives_name(self.objectives)

    @property
    def marks(self) -> str:
        """The name's marks after the subject: `skis`, `skis@difficult-ghost`, `difficult-ghost`; "" for none."""
        return stage_marks(self.space, self.difficult)

    def __str__(self) -> str:
        return joined(self.subject, self.marks)

    def __repr__(self) -> str:
        return f"Cell({str(self)!r}, {self.players})"

    @property
    def family(self) -> bool:
        """Family Adventure cells (its missions and random objectives), solved by its own engines."""
        return self.kind is Kind.OBJECTIVES or (self.kind is Kind.MISSION and self.mission.startswith(f"{FAMILY}/"))

    def on_stage(self, space: Space, difficult: bool) -> "Cell":
        """Return this cell (on the train, with the plain Ghost) on `space`, with the difficult Ghost or not."""
        return Cell(joined(self.subject, stage_marks(space, difficult)), self.players)

    def table_order(self) -> tuple:
        """Tables list cells by game, then mission (numbers as numbers, before names) or experiment (its count,
        then the owner mode), then the train before the spaces (by name), the plain Ghost before the difficult
        one, then by players."""
        if self.kind is Kind.MISSION:
            game, _, name = self.mission.partition("/")
            what = (game, number_or_name(name))
        elif self.kind is Kind.TASKS:
            what = (TASKS, number_or_name(self.tasks), self.owner_mode)
        else:
            what = (FAMILY, number_or_name(OBJECTIVES), self.objectives)
        return what, "" if self.space == TRAIN else str(self.space), self.difficult, self.players


def task_cell(tasks: int, owner_mode: str, players: int) -> Cell:
    return Cell(tasks_name(tasks, owner_mode), players)


def objective_cell(objectives: int, players: int) -> Cell:
    return Cell(objectives_name(objectives), players)


def tasks_name(tasks: int, owner_mode: str) -> str:
    return f"{TASKS}/{tasks}/{owner_mode}"


def objectives_name(objectives: int) -> str:
    return f"{FAMILY}/{OBJECTIVES}/{objectives}"


def stage_marks(space: Space, difficult: bool) -> str:
    """Return the marks of a stage space (none for the train) and of the difficult Ghost, joined."""
    return SPACE_MARK.join(([] if space == TRAIN else [str(space)]) + ([DIFFICULT_GHOST] if difficult else []))


def joined(subject: str, marks: str) -> str:
    return f"{subject}{SPACE_MARK}{marks}" if marks else subject


def parse_name(name: str) -> dict:
    """Return the typed parts of a cell's name, as Cell's fields; InputError (one line) if it is none."""
    subject, *marks = name.split(SPACE_MARK)
    difficult = marks[-1:] == [DIFFICULT_GHOST]
    if difficult:
        marks.pop()
    if len(marks) > 1:
        raise InputError(f"bad sweep cell {name!r}: one stage space at most ({GRAMMAR})")
    try:
        space = parse_space(marks[0]) if marks else TRAIN
    except SpaceError as error:
        raise InputError(f"bad sweep cell {name!r}: {error}") from None
    parts = {"kind": Kind.MISSION, "mission": None, "tasks": None, "owner_mode": None, "objectives": None,
             "space": space, "difficult": difficult}
    words = subject.split("/")
    if words[0] == TASKS and len(words) == 3:
        parts.update(kind=Kind.TASKS, tasks=count(words[1], name), owner_mode=words[2])
        if words[2] not in OWNER_MODES:
            raise InputError(f"bad sweep cell {name!r}: the owner mode is {' or '.join(OWNER_MODES)}")
    elif words[:2] == [FAMILY, OBJECTIVES] and len(words) == 3:
        parts.update(kind=Kind.OBJECTIVES, objectives=count(words[2], name))
    elif len(words) >= 2 and all(words):
        parts.update(mission=subject)
    else:
        raise InputError(f"bad sweep cell {name!r}: {GRAMMAR}")
    return parts


def count(word: str, name: str) -> int:
    if not word.isdecimal():
        raise InputError(f"bad sweep cell {name!r}: {word!r} is not a number of cards")
    return int(word)


def number_or_name(word: str | int) -> tuple:
    """Return a sort key that puts numbers first, in numeric order, then names, those ending in a number in its
    order (deep-sea/difficulty-2 before difficulty-10)."""
    if isinstance(word, int) or word.isdecimal():
        return 0, "", int(word)
    ending = re.fullmatch(r"(.*\D)(\d+)", word)
    return (1, ending[1], int(ending[2])) if ending else (1, word, -1)
