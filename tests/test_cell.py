"""Sweep cells (solver/experiments/cell.py): a name read into typed fields and written back exactly.

Deals are seeded from a cell's name and the published results and the benchmark baseline name their
cells, so every name crew writes must read back to the same fields and be written back unchanged.
"""

import csv
import json
import pickle
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.core.errors import InputError
from solver.experiments.cell import OWNER_MODES, Cell, Kind, objective_cell, task_cell
from solver.trick.spaces import NO_EFFECT, PLAY_SPACES, TRAIN, parse_space

RESULTS = Path(__file__).parent.parent / "results"


@pytest.mark.parametrize("name, players, fields", [
    ("planet-nine/12", 4, (Kind.MISSION, "planet-nine/12", None, None, None, "train", False)),
    ("journey/no-1-no-2@skis", 3, (Kind.MISSION, "journey/no-1-no-2", None, None, None, "skis", False)),
    ("journey/no-1-no-2@fog=3@difficult-ghost", 2,
     (Kind.MISSION, "journey/no-1-no-2", None, None, None, "fog=3", True)),
    ("planet-nine/1@difficult-ghost", 2, (Kind.MISSION, "planet-nine/1", None, None, None, "train", True)),
    ("family/help", 3, (Kind.MISSION, "family/help", None, None, None, "train", False)),
    ("testgame/never", 4, (Kind.MISSION, "testgame/never", None, None, None, "train", False)),
    ("tasks/8/dealt@vespa", 4, (Kind.TASKS, None, 8, "dealt", None, "vespa", False)),
    ("tasks/10/draft", 5, (Kind.TASKS, None, 10, "draft", None, "train", False)),
    ("family/objectives/0", 3, (Kind.OBJECTIVES, None, None, None, 0, "train", False)),
    ("family/objectives/12", 5, (Kind.OBJECTIVES, None, None, None, 12, "train", False)),
])
def test_a_name_reads_into_its_fields_and_back(name, players, fields):
    cell = Cell(name, players)
    assert (cell.kind, cell.mission, cell.tasks, cell.owner_mode, cell.objectives, str(cell.space),
            cell.difficult) == fields
    assert cell.players == players
    assert str(cell) == name
    assert cell.subject == name.partition("@")[0] and cell.marks == name.partition("@")[2]


def published_names() -> set[str]:
    """Every cell name of the published results and of the benchmark baseline's sweep suite."""
    names = set()
    for summary in RESULTS.glob("*/summary.csv"):
        with summary.open() as rows:
            names |= {row["mission"] for row in csv.DictReader(rows)}
    baseline = json.loads((RESULTS / "bench-baseline.json").read_text())
    for mode in ("quick", "full"):
        names |= {name.rpartition("/")[0] for name in baseline[mode]["suites"]["sweep"]["sets"]}
    return names


def test_every_published_name_is_written_back_unchanged():
    names = published_names()
    assert len(names) > 150
    assert {"tasks/8/dealt@skis", "family/objectives/6", "journey/no-1-no-2@fog@difficult-ghost"} <= names
    for name in names:
        assert str(Cell(name, 3)) == name


def test_builders_name_cells_as_before():
    assert str(task_cell(8, "dealt", 4)) == "tasks/8/dealt"
    assert str(objective_cell(6, 3)) == "family/objectives/6"
    on_fog = Cell("journey/trick-call", 2).on_stage(parse_space("fog=3"), True)
    assert str(on_fog) == "journey/trick-call@fog=3@difficult-ghost" and on_fog.players == 2
    assert Cell("planet-nine/3", 3).on_stage(TRAIN, False) == Cell("planet-nine/3", 3)
    assert str(task_cell(2, "draft", 3).on_stage(parse_space("skis"), False)) == "tasks/2/draft@skis"


SPACE_NAMES = sorted(set(PLAY_SPACES) | set(NO_EFFECT) - {"train"}) + ["fog=2", "fog=6", "machete=p3 b5 g2"]
SUBJECTS = st.one_of(
    st.tuples(st.just(Kind.MISSION), st.sampled_from(["planet-nine", "journey", "family", "testgame"]),
              st.integers(1, 60).map(str) | st.from_regex(r"[a-z][a-z0-9-]{0,12}", fullmatch=True)),
    st.tuples(st.just(Kind.TASKS), st.integers(1, 36), st.sampled_from(OWNER_MODES)),
    st.tuples(st.just(Kind.OBJECTIVES), st.integers(0, 12)),
)


@given(SUBJECTS, st.sampled_from(["train", *SPACE_NAMES]), st.booleans(), st.integers(2, 5))
def test_round_trip_of_any_cell(subject, space_name, difficult, players):
    kind, *parts = subject
    if kind is Kind.MISSION:
        plain = Cell(f"{parts[0]}/{parts[1]}", players)
    elif kind is Kind.TASKS:
        plain = task_cell(*parts, players)
    else:
        plain = objective_cell(*parts, players)
    space = parse_space(space_name)
    cell = plain.on_stage(space, difficult)
    expected = {
        Kind.MISSION: lambda: (f"{parts[0]}/{parts[1]}", None, None, None),
        Kind.TASKS: lambda: (None, parts[0], parts[1], None),
        Kind.OBJECTIVES: lambda: (None, None, None, parts[0]),
    }[kind]()
    assert (cell.kind, cell.mission, cell.tasks, cell.owner_mode, cell.objectives) == (kind, *expected)
    assert (cell.space, cell.difficult, cell.players) == (space, difficult, players)
    assert cell.subject == str(plain)
    marks = [str(space)] * (space != TRAIN) + ["difficult-ghost"] * difficult
    assert str(cell) == "@".join([str(plain), *marks])
    assert Cell(str(cell), players) == cell
    assert eval(repr(cell)) == cell  # the repr is the constructor call
    assert pickle.loads(pickle.dumps(cell)) == cell  # as a worker receives it


@pytest.mark.parametrize("name, words", [
    ("", "a mission id"),
    ("planet-nine", "a mission id"),
    ("planet-nine/", "a mission id"),
    ("/12", "a mission id"),
    ("tasks/x/draft", "'x' is not a number"),
    ("tasks/3/mine", "owner mode is draft or dealt"),
    ("tasks/03/draft", "crew names it 'tasks/3/draft'"),
    ("family/objectives/", "'' is not a number"),
    ("planet-nine/1@bogus", "unknown stage space 'bogus'"),
    ("planet-nine/1@", "unknown stage space ''"),
    ("planet-nine/1@train", "crew names it 'planet-nine/1'"),
    ("planet-nine/1@fog=4", "crew names it 'planet-nine/1@fog'"),  # fog's default count
    ("planet-nine/1@Skis", "crew names it 'planet-nine/1@skis'"),
    ("planet-nine/1@skis@fog", "one stage space at most"),
    ("planet-nine/1@difficult-ghost@skis", "one stage space at most"),
])
def test_a_malformed_name_is_a_one_line_error(name, words):
    with pytest.raises(InputError) as error:
        Cell(name, 3)
    message = str(error.value)
    assert message.startswith(f"bad sweep cell {name!r}: ") and "\n" not in message
    assert words in message


def test_table_order():
    names = [
        ("family/objectives/10", 3), ("family/objectives/2", 3), ("family/help", 3), ("family/25", 3),
        ("family/1", 4), ("family/1", 3), ("journey/no-1-no-2@skis@difficult-ghost", 2), ("journey/no-1-no-2@skis", 2),
        ("journey/no-1-no-2@difficult-ghost", 2), ("journey/no-1-no-2", 2), ("journey/no-1-no-2@dog-sled", 2),
        ("planet-nine/10@skis", 3), ("planet-nine/10", 3), ("planet-nine/2@skis", 3), ("planet-nine/2", 3),
        ("tasks/10/draft", 4), ("tasks/10/dealt", 4), ("tasks/2/draft@vespa", 4), ("tasks/2/draft", 4),
        ("deep-sea/difficulty-10", 4), ("deep-sea/difficulty-2", 4), ("deep-sea/12+44", 4), ("deep-sea/44", 4),
    ]
    ordered = sorted((Cell(name, players) for name, players in names), key=Cell.table_order)
    assert [(str(cell), cell.players) for cell in ordered] == [
        ("deep-sea/44", 4), ("deep-sea/12+44", 4), ("deep-sea/difficulty-2", 4), ("deep-sea/difficulty-10", 4),
        ("family/1", 3), ("family/1", 4), ("family/25", 3), ("family/help", 3), ("family/objectives/2", 3),
        ("family/objectives/10", 3),
        ("journey/no-1-no-2", 2), ("journey/no-1-no-2@difficult-ghost", 2), ("journey/no-1-no-2@dog-sled", 2),
        ("journey/no-1-no-2@skis", 2), ("journey/no-1-no-2@skis@difficult-ghost", 2),
        ("planet-nine/2", 3), ("planet-nine/2@skis", 3), ("planet-nine/10", 3), ("planet-nine/10@skis", 3),
        ("tasks/2/draft", 4), ("tasks/2/draft@vespa", 4), ("tasks/10/dealt", 4), ("tasks/10/draft", 4),
    ]


def test_family_cells():
    assert Cell("family/help", 3).family and Cell("family/objectives/4", 3).family
    assert not Cell("journey/trick-call", 3).family and not task_cell(3, "draft", 3).family
