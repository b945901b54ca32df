"""A sweep's durable results: one SQLite database per output directory.

Every solved deal is a row keyed by its identity (cell name, players, seed,
deal index); rows of one batch go in in one transaction, and a row already
there is ignored, so a re-run (after Ctrl-C or kill -9 at any moment) resumes
without losing or counting anything twice. WAL journaling keeps readers
(`crew report`) and the writer apart. The settings that change answers
(budget, engine) are stored once: a re-run with other settings is refused,
since it would mix results of different searches. So is a run of other cells
(`check_definition`): a directory holds one sweep, so that its summary files and
`crew report`, which reads the whole database, always show the same cells; its
deals per cell may only grow.

Beside the cell's name a row holds the cell's parts in columns of their own (kind, mission id,
task count and owner mode, objective count, stage space, difficult Ghost) and a special
mission's best score (`score`, `score_exact`), for queries in SQL, (layout 2) the deal itself as
JSON (`dealt`: its notation, task cards, owners and draws; solver.missions.dealer.dealt_record), so that
`crew show` prints it, and (layout 3) the realistic crew's game of the deal (`crew_*`, the slack of
the winning line `slack_*`; NULL in a perfect-information sweep; layout 4 adds the perhaps critical
decisions, layout 5 a special mission's score in the crew's game, `crew_score`). The layout's version is
`PRAGMA user_version`: a database of version 0 (the name only, the score as `score N` or `score >=N` in
`setup`), 1 (no `dealt`: such rows are dealt again from their seed, cell and index when shown), 2 (no crew),
3 (no perhaps critical decisions) or 4 (no crew score) is upgraded in place when opened; one of a newer
crew-solver is refused. Whether a sweep
plays the realistic crew (and with how many samples) is one of its stored settings.
"""

import dataclasses
import json
import re
import sqlite3
from pathlib import Path

from solver.core.errors import InputError
from solver.experiments.cell import Cell
from solver.experiments.stats import CellSummary, Score, summarize, summarize_crew
from solver.experiments.sweep import CrewResult, Record
from solver.trick.spaces import TRAIN

DATABASE = "results.db"
VERSION = 5
FIRST_LAYOUT = (  # version 0; a new database is made as this, then upgraded like an old one
    """CREATE TABLE IF NOT EXISTS deals (
        mission TEXT NOT NULL,  -- the cell's name: planet-nine/12@skis, tasks/8/draft, family/objectives/6
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
    )""",
    "CREATE TABLE IF NOT EXISTS settings (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
)
CELL_AND_SCORE_COLUMNS = (  # version 1; every row has its cell's, filled from its name
    "kind TEXT CHECK (kind IN ('mission', 'tasks', 'objectives'))",
    "mission_id TEXT",  # kind mission: GAME/NAME
    "tasks INTEGER",  # kind tasks: the number of random task cards
    "owner_mode TEXT CHECK (owner_mode IN ('draft', 'dealt'))",  # kind tasks
    "objectives INTEGER",  # kind objectives: the number of random required cards
    "space TEXT",  # the stage space as named; NULL on the train
    "difficult_ghost INTEGER CHECK (difficult_ghost IN (0, 1))",
    "score INTEGER",  # special missions: the best score, or at least it when not exact
    "score_exact INTEGER CHECK (score_exact IN (0, 1))",
)
DEALT_COLUMN = "dealt TEXT"  # version 2: the deal as JSON (NULL in rows of before)
CREW_COLUMNS = (  # version 3: the realistic crew's game of the deal (NULL: a perfect-information sweep)
    "crew_result TEXT CHECK (crew_result IN ('win', 'loss'))",
    "crew_tasks_done INTEGER",
    "crew_tasks INTEGER",
    "crew_lost_in INTEGER",  # the trick the crew's game failed in (NULL: won)
    "crew_ms REAL",
    "crew_line TEXT",  # the crew's plays, tricks separated by "/"
    "slack_decisions INTEGER",  # along the solver's winning line: plays with two legal cards or more
    "slack_critical INTEGER",  # and those where one card alone kept the mission winnable (every other lost it)
)
PERHAPS_CRITICAL_COLUMN = "slack_perhaps_critical INTEGER"  # version 4: and those where no other card was proved
# winnable but some was undecided (NULL in rows of before, whose slack_critical counts them)
CREW_SCORE_COLUMN = "crew_score INTEGER"  # version 5: a special mission's score in the crew's game (NULL: none)
CREW_NAMES = [column.split()[0] for column in (*CREW_COLUMNS, PERHAPS_CRITICAL_COLUMN, CREW_SCORE_COLUMN)]
INSERT = (
    "INSERT OR IGNORE INTO deals (mission, players, seed, deal_index, result, nodes, ms, engine, setup, line, kind, "
    f"mission_id, tasks, owner_mode, objectives, space, difficult_ghost, score, score_exact, dealt, {', '.join(CREW_NAMES)}) "
    f"VALUES ({', '.join('?' * (20 + len(CREW_NAMES)))})"
)
SET_CELL = ("UPDATE deals SET kind = ?, mission_id = ?, tasks = ?, owner_mode = ?, objectives = ?, space = ?, "
            "difficult_ghost = ? WHERE mission = ? AND players = ?")
# settings a database of before them was made with (budgets were wall-clock seconds before solver/core/solution.py's
# seconds of work: such a store's UNKNOWNs are not the ones a run now leaves, so it does not resume)
SETTING_DEFAULTS = {"crew": "perfect", "budget_unit": "wall-clock seconds"}
OLD_SCORE = re.compile(r"score (>=)?(\d+)")  # version 0's setup of a special mission's deal


class ResultStore:
    """The results database of one output directory."""

    def __init__(self, directory: str | Path, create: bool = True):
        self.directory = Path(directory)
        self.settings: list[tuple[str, str]] = []  # written with the first records (check_settings)
        path = self.directory / DATABASE
        if not create and not path.is_file():
            raise InputError(f"{self.directory}: no sweep results here ({DATABASE} is missing)")
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(path, timeout=60)
            self.db.execute("PRAGMA journal_mode=WAL")
            version = self.version()
        except (OSError, sqlite3.Error) as error:
            doing = f"write results to {self.directory}" if create else f"read {path}"
            raise InputError(f"cannot {doing}: {error}") from None
        if version > VERSION:
            raise InputError(f"{path} was written by a newer crew-solver (layout {version}, this one reads up to "
                             f"{VERSION}): use that version, or another --out")
        if version < VERSION:
            self.upgrade()

    def version(self) -> int:
        return self.db.execute("PRAGMA user_version").fetchone()[0]

    def upgrade(self) -> None:
        """Bring a new or version-0 database to this layout, in one transaction (other processes wait)."""
        old = self.db.execute("SELECT 1 FROM sqlite_master WHERE name = 'deals'").fetchone() is not None
        try:
            with self.db:
                self.db.execute("BEGIN IMMEDIATE")
                if self.version() < VERSION:  # not upgraded meanwhile by another process
                    for statement in FIRST_LAYOUT:
                        self.db.execute(statement)
                    if self.version() < 1:
                        self.add_cell_and_score_columns()
                    if self.version() < 2:
                        self.db.execute(f"ALTER TABLE deals ADD COLUMN {DEALT_COLUMN}")
                    if self.version() < 3:
                        for column in CREW_COLUMNS:
                            self.db.execute(f"ALTER TABLE deals ADD COLUMN {column}")
                    if self.version() < 4:
                        self.db.execute(f"ALTER TABLE deals ADD COLUMN {PERHAPS_CRITICAL_COLUMN}")
                    self.db.execute(f"ALTER TABLE deals ADD COLUMN {CREW_SCORE_COLUMN}")
                    self.db.execute(f"PRAGMA user_version = {VERSION}")
        except sqlite3.Error as error:
            if not old:
                raise InputError(f"cannot write results to {self.directory}: {error}") from None
            raise InputError(f"{self.directory}: cannot upgrade {DATABASE} to this crew-solver's layout in place "
                             f"({error}): copy the directory somewhere writable first") from None
        except InputError as error:  # a name or score version 0 never wrote
            raise InputError(f"{self.directory}: cannot upgrade {DATABASE} ({error}): rebuild it by running the "
                             "sweep's command (summary.json) again with another --out") from None

    def add_cell_and_score_columns(self) -> None:
        """Version 0 -> 1: the cells' parts from their names; scores out of `setup` into their columns."""
        for column in CELL_AND_SCORE_COLUMNS:
            self.db.execute(f"ALTER TABLE deals ADD COLUMN {column}")
        for name, players in self.db.execute("SELECT DISTINCT mission, players FROM deals").fetchall():
            self.db.execute(SET_CELL, (*cell_columns(Cell(name, players)), name, players))
        for (setup,) in self.db.execute("SELECT DISTINCT setup FROM deals WHERE setup GLOB 'score *'").fetchall():
            match = OLD_SCORE.fullmatch(setup)
            if not match:
                raise InputError(f"a deal's setup {setup!r} is no score")
            self.db.execute("UPDATE deals SET score = ?, score_exact = ?, setup = '' WHERE setup = ?",
                            (int(match[2]), int(not match[1]), setup))

    def close(self) -> None:
        self.db.close()

    def check_settings(self, settings: dict) -> None:
        """Refuse a run whose settings differ from the stored ones; store them with the first records. A setting
        added since a database was written holds its default there (`SETTING_DEFAULTS`)."""
        stored = dict(self.db.execute("SELECT name, value FROM settings"))
        if self.db.execute("SELECT 1 FROM deals LIMIT 1").fetchone() is not None:
            stored = {**{name: json.dumps(value) for name, value in SETTING_DEFAULTS.items()}, **stored}
        for name, value in settings.items():
            text = json.dumps(value)
            if name in stored and stored[name] != text:
                raise InputError(
                    f"{self.directory} holds results made with {name} {stored[name]}, not {text}: "
                    "use the same setting or another --out"
                )
        self.settings = [(name, json.dumps(value)) for name, value in settings.items()]

    def check_definition(self, cells: list[Cell], deals: int) -> None:
        """Refuse a run of other cells than the stored sweep's, or of fewer deals per cell (the summary would
        show part of what `crew report` shows); store the definition with the first records."""
        names = sorted(f"{cell} {cell.players}p" for cell in cells)
        stored = dict(self.db.execute("SELECT name, value FROM settings"))
        held = json.loads(stored["cells"]) if "cells" in stored else sorted(
            f"{cell} {cell.players}p" for cell in self.cells())  # a database of before the definition was stored
        if held and held != names:
            other = sorted(set(held) - set(names)) or sorted(set(names) - set(held))
            which = "holds" if set(held) - set(names) else "lacks"
            raise InputError(f"{self.directory} holds another sweep ({len(held)} cells; it {which} {other[0]}"
                             f"{f' and {len(other) - 1} more' if len(other) > 1 else ''}): ask for the same missions, "
                             "spaces and players, or use another --out")
        if "deals" in stored and deals < json.loads(stored["deals"]):
            raise InputError(f"{self.directory} holds {stored['deals']} deals a cell, more than --deals {deals}: "
                             f"ask for {stored['deals']} or more, or use another --out")
        self.settings += [("cells", json.dumps(names)), ("deals", json.dumps(deals))]

    def setting(self, name: str):
        """Return a stored setting's value (None when it was never stored)."""
        found = self.db.execute("SELECT value FROM settings WHERE name = ?", (name,)).fetchone()
        return None if found is None else json.loads(found[0])

    def deal_record(self, name: str, index: int, players: int | None = None) -> Record:
        """Return the stored record of deal `index` of the cell named `name` (at `players`, which may be left
        out when the cell has one player count here); InputError, in one line, when there is none."""
        counts = [p for (p,) in self.db.execute("SELECT DISTINCT players FROM deals WHERE mission = ? ORDER BY players",
                                                (name,))]
        if not counts:
            cells = ", ".join(sorted({str(cell) for cell in self.cells()})[:5])
            raise InputError(f"{self.directory} has no cell {name!r} (it has {cells or 'none'})")
        if players is None:
            if len(counts) > 1:
                raise InputError(f"{name} has {', '.join(map(str, counts))} players in {self.directory}: give --players")
            players = counts[0]
        found = self.db.execute(
            f"SELECT seed, result, nodes, ms, engine, setup, line, score, score_exact, dealt, {', '.join(CREW_NAMES)} "
            "FROM deals WHERE mission = ? AND players = ? AND deal_index = ? ORDER BY seed LIMIT 1",
            (name, players, index)).fetchone()
        if found is None:
            held = self.db.execute("SELECT COUNT(*) FROM deals WHERE mission = ? AND players = ?", (name, players))
            raise InputError(f"{self.directory} has no deal {index} of {name} at {players} players "
                             f"({held.fetchone()[0]} deals stored, from index 0)")
        seed, result, nodes, ms, engine, setup, line, score, exact, dealt = found[:10]
        crew = None if found[10] is None else CrewResult(*found[10:])
        return Record(Cell(name, players), seed, index, result, nodes, ms, engine, setup, line,
                      None if score is None else Score(score, bool(exact)), None if dealt is None else json.loads(dealt),
                      crew)

    def examples(self, cell: Cell, result: str, limit: int) -> list[Record]:
        """Return up to `limit` stored deals of `cell` with `result`, lowest index first (the drill-down of an
        HTML report)."""
        found = self.db.execute(
            "SELECT seed, deal_index, nodes, ms, engine, setup, line, dealt FROM deals WHERE mission = ? AND "
            "players = ? AND result = ? ORDER BY deal_index, seed LIMIT ?", (str(cell), cell.players, result, limit))
        return [Record(cell, seed, index, result, nodes, ms, engine, setup, line,
                       dealt=None if dealt is None else json.loads(dealt))
                for seed, index, nodes, ms, engine, setup, line, dealt in found]

    def done(self, cell: Cell, seed: int) -> set[int]:
        """Return the deal indices of a cell already stored."""
        rows = self.db.execute("SELECT deal_index FROM deals WHERE mission = ? AND players = ? AND seed = ?",
                               (str(cell), cell.players, seed))
        return {index for (index,) in rows}

    def add(self, records: list[Record]) -> None:
        """Store one batch in one transaction; rows already stored are kept as they are."""
        with self.db:
            self.db.executemany("INSERT OR REPLACE INTO settings VALUES (?, ?)", self.settings)
            self.db.executemany(INSERT, [row(r) for r in records])

    def cells(self) -> list[Cell]:
        """Return every cell with results, in table order."""
        rows = self.db.execute("SELECT DISTINCT mission, players FROM deals")
        return sorted((Cell(name, players) for name, players in rows), key=Cell.table_order)

    def summary(self, cell: Cell, limit: int | None = None) -> CellSummary:
        """Summarize a cell over all its seeds (or its first `limit` deal indices)."""
        query = f"SELECT result, ms, score, score_exact, {', '.join(CREW_NAMES)} FROM deals WHERE mission = ? AND players = ?"
        arguments: tuple = (str(cell), cell.players)
        if limit is not None:
            query += " AND deal_index < ?"
            arguments += (limit,)
        rows = self.db.execute(query, arguments).fetchall()
        scores = [Score(score, bool(exact)) for _, _, score, exact, *_ in rows if score is not None]
        games = [(result, CrewResult(*crew)) for result, _, _, _, *crew in rows if crew[0] is not None]
        summary = summarize(cell, [result for result, *_ in rows], [ms for _, ms, *_ in rows], scores)
        return dataclasses.replace(summary, crew=summarize_crew(games)) if games else summary

    def summaries(self, cells=None) -> list[CellSummary]:
        """Summarize the given cells (default: every cell with results)."""
        return [self.summary(cell) for cell in (cells or self.cells())]


def cell_columns(cell: Cell) -> tuple:
    """Return the cell's parts as stored: kind, mission id, tasks, owner mode, objectives, space, difficult Ghost."""
    space = None if cell.space == TRAIN else str(cell.space)
    return cell.kind.value, cell.mission, cell.tasks, cell.owner_mode, cell.objectives, space, int(cell.difficult)


def row(record: Record) -> tuple:
    """Return a record as the columns of INSERT."""
    score, crew = record.score, record.crew
    return (
        str(record.cell), record.players, record.seed, record.index, record.result, record.nodes, record.ms,
        record.engine, record.setup, record.line, *cell_columns(record.cell),
        None if score is None else score.value, None if score is None else int(score.exact),
        None if record.dealt is None else json.dumps(record.dealt),
        *(dataclasses.astuple(crew) if crew is not None else (None,) * len(CREW_NAMES)),
    )
