"""The results database (solver/experiments/store.py): its layout, its version, and old databases upgraded.

A database of version 0 (before the cells' parts and the scores had columns of their own) is built here
as that version's code made it, then opened: it must read as it did (the same `crew report` table, the
same resume) and hold the new columns, filled from the cells' names and the `score N` setups.
"""

import contextlib
import sqlite3

import pytest
from click.testing import CliRunner

from cli.main import main
from solver.core.errors import InputError
from solver.core.solution import BUDGET_UNIT
from solver.experiments.cell import Cell
from solver.experiments.stats import Score
from solver.experiments.store import CREW_NAMES, DATABASE, VERSION, ResultStore
from solver.experiments.sweep import CrewResult, Record

VERSION_0_SCHEMA = """
CREATE TABLE IF NOT EXISTS deals (
    mission TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    deal_index INTEGER NOT NULL,
    result TEXT NOT NULL CHECK (result IN ('win', 'loss', 'unknown')),
    nodes INTEGER NOT NULL,
    ms REAL NOT NULL,
    engine TEXT NOT NULL,
    setup TEXT NOT NULL,
    line TEXT NOT NULL,
    PRIMARY KEY (mission, players, seed, deal_index)
);
CREATE TABLE IF NOT EXISTS settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
# (cell name, players, index, result, ms, setup) as version 0 stored them; a special mission's score in setup.
VERSION_0_DEALS = [
    ("planet-nine/10", 3, 0, "win", 1.0, "X: p2"),
    ("planet-nine/10", 3, 1, "loss", 3.0, ""),
    ("planet-nine/2", 3, 0, "win", 2.0, ""),
    ("journey/no-1-no-2@skis@difficult-ghost", 2, 0, "win", 4.0, "score 3"),
    ("journey/no-1-no-2@skis@difficult-ghost", 2, 1, "win", 5.0, "score >=2"),
    ("journey/no-1-no-2@skis@difficult-ghost", 2, 2, "loss", 6.0, "score 0"),
    ("journey/no-1-no-2@skis@difficult-ghost", 2, 3, "win", 7.0, "score 3"),
    ("tasks/8/dealt@fog=3", 4, 0, "unknown", 8.0, ""),
    ("family/objectives/6", 3, 0, "win", 9.0, ""),
]
# What crew report printed from them before the upgrade (its code at 93a2e6f), and must print after it.
VERSION_0_TABLE = """\
mission                                players  deals   wins losses unknown  win %     95% interval median ms    p99 ms
family/objectives/6                          3      1      1      0       0  100.0     20.7 - 100.0      9.00      9.00
journey/no-1-no-2@skis@difficult-ghost       2      4      3      1       0   75.0     30.1 -  95.4      5.50      6.97
planet-nine/2                                3      1      1      0       0  100.0     20.7 - 100.0      2.00      2.00
planet-nine/10                               3      2      1      1       0   50.0      9.5 -  90.5      2.00      2.98
tasks/8/dealt@fog=3                          4      1      0      0       1      -                -      8.00      8.00

scores journey/no-1-no-2@skis@difficult-ghost 2p (mean >=2.00): 0: 1, >=2: 1, 3: 2
"""


def version_0_database(directory, deals=VERSION_0_DEALS):
    """Write a results database as version 0's code did (no user_version), with a settings row."""
    directory.mkdir(parents=True, exist_ok=True)
    with contextlib.closing(sqlite3.connect(directory / DATABASE)) as db:
        db.executescript(VERSION_0_SCHEMA)
        db.executemany("INSERT INTO deals VALUES (?, ?, 1, ?, ?, 100, ?, 'kernel', ?, 'line')", deals)
        db.execute("INSERT INTO settings VALUES ('budget', '10.0')")
        db.commit()


def query(directory, sql: str) -> list[tuple]:
    with contextlib.closing(sqlite3.connect(directory / DATABASE)) as db:
        return db.execute(sql).fetchall()


def version(directory) -> int:
    return query(directory, "PRAGMA user_version")[0][0]


def columns(directory) -> list[tuple]:
    return query(directory, "PRAGMA table_info(deals)")


def report(directory):
    return CliRunner().invoke(main, ["report", str(directory)])


def test_a_version_0_database_reads_as_before_and_is_upgraded_in_place(tmp_path):
    version_0_database(tmp_path)
    assert version(tmp_path) == 0
    result = report(tmp_path)
    assert result.exit_code == 0, result.output
    assert result.stdout == VERSION_0_TABLE
    assert version(tmp_path) == VERSION
    assert query(tmp_path, "SELECT COUNT(*) FROM deals WHERE dealt IS NULL AND crew_result IS NULL") == [(len(VERSION_0_DEALS),)]
    assert query(tmp_path, "SELECT mission, players, deal_index, kind, mission_id, tasks, owner_mode, objectives, "
                           "space, difficult_ghost, setup, score, score_exact FROM deals ORDER BY rowid") == [
        ("planet-nine/10", 3, 0, "mission", "planet-nine/10", None, None, None, None, 0, "X: p2", None, None),
        ("planet-nine/10", 3, 1, "mission", "planet-nine/10", None, None, None, None, 0, "", None, None),
        ("planet-nine/2", 3, 0, "mission", "planet-nine/2", None, None, None, None, 0, "", None, None),
        ("journey/no-1-no-2@skis@difficult-ghost", 2, 0, "mission", "journey/no-1-no-2", None, None, None, "skis", 1,
         "", 3, 1),
        ("journey/no-1-no-2@skis@difficult-ghost", 2, 1, "mission", "journey/no-1-no-2", None, None, None, "skis", 1,
         "", 2, 0),
        ("journey/no-1-no-2@skis@difficult-ghost", 2, 2, "mission", "journey/no-1-no-2", None, None, None, "skis", 1,
         "", 0, 1),
        ("journey/no-1-no-2@skis@difficult-ghost", 2, 3, "mission", "journey/no-1-no-2", None, None, None, "skis", 1,
         "", 3, 1),
        ("tasks/8/dealt@fog=3", 4, 0, "tasks", None, 8, "dealt", None, "fog=3", 0, "", None, None),
        ("family/objectives/6", 3, 0, "objectives", None, None, None, 6, None, 0, "", None, None),
    ]
    assert report(tmp_path).stdout == VERSION_0_TABLE  # and again, from the upgraded layout


def test_an_upgraded_database_resumes_and_keeps_its_settings(tmp_path):
    version_0_database(tmp_path)
    store = ResultStore(tmp_path)
    scored = Cell("journey/no-1-no-2@skis@difficult-ghost", 2)
    assert store.done(scored, 1) == {0, 1, 2, 3} and store.done(scored, 2) == set()
    with pytest.raises(InputError, match="budget 10.0, not 5"):
        store.check_settings({"budget": 5})
    store.check_settings({"budget": 10.0})
    store.add([Record(scored, 1, 3, "win", 1, 1.0, "kernel", "", "other line", Score(9)),  # stored: ignored
               Record(scored, 1, 4, "win", 1, 1.0, "kernel", "", "line", Score(4, exact=False))])
    assert store.done(scored, 1) == {0, 1, 2, 3, 4}
    assert store.summary(scored).scores == ((Score(0), 1), (Score(2, False), 1), (Score(3), 2), (Score(4, False), 1))
    store.close()
    assert query(tmp_path, "SELECT line, score FROM deals WHERE deal_index = 3 AND players = 2") == [("line", 3)]


def test_a_database_of_wall_clock_budgets_does_not_resume(tmp_path):
    # Its UNKNOWNs are the ones a wall-clock budget left, not the ones a budget of seconds of work leaves.
    version_0_database(tmp_path)
    store = ResultStore(tmp_path)
    with pytest.raises(InputError, match='budget_unit "wall-clock seconds", not "seconds of work"'):
        store.check_settings({"budget": 10.0, "budget_unit": BUDGET_UNIT})
    store.close()


def test_a_new_database_has_the_upgraded_layout(tmp_path):
    version_0_database(tmp_path / "old")
    ResultStore(tmp_path / "old").close()
    ResultStore(tmp_path / "new").close()
    assert version(tmp_path / "new") == VERSION
    assert [column[1] for column in columns(tmp_path / "new")[-1 - len(CREW_NAMES):]] == ["dealt", *CREW_NAMES]
    assert columns(tmp_path / "new") == columns(tmp_path / "old")


def test_a_version_3_database_gains_the_perhaps_critical_decisions_and_counts_them_as_critical(tmp_path):
    # Layout 3 counted a decision with an undecided card as critical: its rows keep their counts and read as
    # none perhaps critical.
    cell = Cell("tasks/2/draft", 3)
    store = ResultStore(tmp_path)
    store.add([Record(cell, 1, 0, "win", 5, 1.5, "kernel", "", "", crew=CrewResult("win", 2, 2, None, 9.0, "", 7, 3, 1))])
    store.close()
    with contextlib.closing(sqlite3.connect(tmp_path / DATABASE)) as db:  # as layout 3 was
        db.execute("ALTER TABLE deals DROP COLUMN slack_perhaps_critical")
        db.execute("ALTER TABLE deals DROP COLUMN crew_score")
        db.execute("PRAGMA user_version = 3")
        db.commit()
    store = ResultStore(tmp_path)
    assert version(tmp_path) == VERSION
    assert store.deal_record("tasks/2/draft", 0).crew == CrewResult("win", 2, 2, None, 9.0, "", 7, 3, None)
    crew = store.summary(cell).crew
    assert (crew.decisions, crew.critical, crew.perhaps_critical) == (7, 3, 0)
    store.add([Record(cell, 1, 1, "win", 5, 1.5, "kernel", "", "", crew=CrewResult("win", 2, 2, None, 9.0, "", 4, 1, 2))])
    crew = store.summary(cell).crew
    assert (crew.slack_deals, crew.decisions, crew.critical, crew.perhaps_critical) == (2, 11, 4, 2)
    store.close()


def test_a_version_4_database_gains_the_crew_s_scores(tmp_path):
    cell = Cell("journey/no-1-no-2", 3)
    store = ResultStore(tmp_path)
    store.add([Record(cell, 1, 0, "win", 5, 1.5, "kernel", "", "", crew=CrewResult("win", 0, 0, None, 9.0, ""))])
    store.close()
    with contextlib.closing(sqlite3.connect(tmp_path / DATABASE)) as db:  # as layout 4 was
        db.execute("ALTER TABLE deals DROP COLUMN crew_score")
        db.execute("PRAGMA user_version = 4")
        db.commit()
    store = ResultStore(tmp_path)
    assert version(tmp_path) == VERSION
    assert store.deal_record("journey/no-1-no-2", 0).crew.score is None and store.summary(cell).crew.scores == ()
    store.add([Record(cell, 1, 1, "win", 5, 1.5, "kernel", "", "", crew=CrewResult("win", 0, 0, None, 9.0, "",
                                                                                  score=3))])
    assert store.summary(cell).crew.scores == ((3, 1),)
    store.close()


def test_records_keep_their_cells_parts_and_scores(tmp_path):
    store = ResultStore(tmp_path)
    cells = [Cell("journey/table-chain@fog", 3), Cell("tasks/2/draft@difficult-ghost", 2), Cell("family/help", 4)]
    store.add([Record(cell, 7, 0, "win", 5, 1.5, "dfs", "", "") for cell in cells])
    store.add([Record(cells[0], 7, 1, "unknown", 5, 2.5, "kernel", "A: p1", "", Score(1, exact=False))])
    assert store.cells() == [cells[2], cells[0], cells[1]]
    assert [(s.cell, s.deals, s.scores) for s in store.summaries()] == [
        (cells[2], 1, ()), (cells[0], 2, ((Score(1, False), 1),)), (cells[1], 1, ())]
    store.close()
    assert query(tmp_path, "SELECT kind, mission_id, tasks, owner_mode, objectives, space, difficult_ghost, setup, "
                           "score, score_exact FROM deals ORDER BY rowid") == [
        ("mission", "journey/table-chain", None, None, None, "fog", 0, "", None, None),
        ("tasks", None, 2, "draft", None, None, 1, "", None, None),
        ("mission", "family/help", None, None, None, None, 0, "", None, None),
        ("mission", "journey/table-chain", None, None, None, "fog", 0, "A: p1", 1, 0),
    ]


def test_a_database_of_a_newer_version_is_refused(tmp_path):
    ResultStore(tmp_path).close()
    with contextlib.closing(sqlite3.connect(tmp_path / DATABASE)) as db:
        db.execute(f"PRAGMA user_version = {VERSION + 1}")
    for create in (True, False):
        with pytest.raises(InputError) as error:
            ResultStore(tmp_path, create=create)
        assert "newer crew-solver" in str(error.value) and "\n" not in str(error.value)
    result = report(tmp_path)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("crew: error: ") and f"layout {VERSION + 1}" in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_a_version_0_database_with_a_name_crew_never_wrote_is_refused_unchanged(tmp_path):
    version_0_database(tmp_path, [*VERSION_0_DEALS, ("tasks/eight/dealt", 4, 0, "win", 1.0, "")])
    before = query(tmp_path, "SELECT * FROM deals ORDER BY rowid")
    with pytest.raises(InputError) as error:
        ResultStore(tmp_path, create=False)
    message = str(error.value)
    assert "\n" not in message and "cannot upgrade" in message and "tasks/eight/dealt" in message
    assert "rebuild it" in message
    assert version(tmp_path) == 0 and query(tmp_path, "SELECT * FROM deals ORDER BY rowid") == before  # rolled back
