"""Mission files of any game: TOML with a `game` name and `[[mission]]` tables, read into one
game's mission objects while every problem is collected.

Each game reads its own entries (solver.missions.mission for the trick-taking games,
solver.family.mission for Family Adventure) through `parse_mission_table` and `start_entry`;
a problem is one line naming the file, the mission, the field, what is wrong and what is allowed.
"""

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, NamedTuple

from solver.core.errors import InputError


class MissionError(InputError):
    """A mission file or mission name that cannot be used; `problems` lists every problem."""

    def __init__(self, problems: list[str]):
        super().__init__(problems[0] if len(problems) == 1 else f"{len(problems)} problems: " + "; ".join(problems))
        self.problems = problems


@dataclass
class Reader:
    """Collects problems while reading one file."""

    source: str
    problems: list[str] = field(default_factory=list)

    def problem(self, where: str, message: str) -> None:
        self.problems.append(f"{self.source}: {where}: {message}")


def read_mission_file(path: str | Path) -> str:
    """Return the text of a mission file; raise MissionError when it cannot be read."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise MissionError([f"{path}: cannot read: {error.strerror or error}"]) from None


def game_of_file(path: str | Path) -> str | None:
    """Return the `game` a mission file names (None when it names none, or is no TOML: its reader says why)."""
    try:
        named = tomllib.loads(read_mission_file(path)).get("game")
    except tomllib.TOMLDecodeError:
        return None
    return named if isinstance(named, str) and named else None


def parse_mission_table(text: str, source: str, read_entry, game: str | None = None) -> dict:
    """Return the missions of TOML `text` by id, each read by `read_entry(reader, game, index, entry)`.

    `game`: the game the file must name (None: any name). Raise MissionError listing every problem.
    """
    reader = Reader(source)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise MissionError([f"{source}: not valid TOML: {error}"]) from None
    for key in set(data) - {"game", "mission"}:
        reader.problem("top level", f"unknown field {key!r} (allowed: game, mission)")
    named = data.get("game")
    if game is not None and named != game:
        reader.problem("top level", f"field 'game' must be {game!r} in this mission file")
    elif not isinstance(named, str) or not named:
        reader.problem("top level", "field 'game' must be a name such as \"planet-nine\"")
    entries = data.get("mission", [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        reader.problem("top level", "missions must be [[mission]] tables")
        entries = []
    missions = {}
    for index, entry in enumerate(entries, 1):
        mission = read_entry(reader, game or (named if isinstance(named, str) and named else "?"), index, entry)
        if mission is None:
            continue
        if mission.id in missions:
            reader.problem(f"mission {mission.id}", "defined twice")
        missions[mission.id] = mission
    if reader.problems:
        raise MissionError(reader.problems)
    return missions


class Entry(NamedTuple):
    """A mission entry being read: its id and title, a `bad(field, message)` recorder, and the
    reader's problem count before it (the entry is valid if no problem was added)."""

    id: str
    title: str
    bad: Callable[[str, str], None]
    before: int


def start_entry(reader: Reader, game: str, index: int, entry: dict, fields: set[str]) -> Entry | None:
    """Check a [[mission]] entry's id (`number` or `name`), its unknown fields and its title."""
    number = entry.get("number")
    name = entry.get("name")
    if isinstance(number, int) and not isinstance(number, bool) and number >= 1:
        mission_id = f"{game}/{number}"
    elif isinstance(name, str) and name:
        mission_id = f"{game}/{name}"
    else:
        reader.problem(f"mission #{index}", "needs a 'number' (1, 2, ...) or a 'name'")
        return None
    before = len(reader.problems)

    def bad(field_name: str, message: str) -> None:
        reader.problem(f"mission {mission_id}: field {field_name!r}", message)

    for key in sorted(set(entry) - fields):
        bad(key, f"unknown field (allowed: {', '.join(sorted(fields))})")
    title = entry.get("title", "")
    if not isinstance(title, str):
        bad("title", "must be a string")
    return Entry(mission_id, title, bad, before)
