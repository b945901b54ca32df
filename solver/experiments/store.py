"""A sweep's durable results: one SQLite database per output directory.

Every solved deal is a row keyed by its identity (mission, players, seed,
deal index); rows of one batch go in in one transaction, and a row already
there is ignored, so a re-run (after Ctrl-C or kill -9 at any moment) resumes
without losing or counting anything twice. WAL journaling keeps readers
(`crew report`) and the writer apart. The settings that change answers
(budget, engine) are stored once: a re-run with other settings is refused,
since it would mix results of different searches.
"""

import json
import sqlite3
from pathlib import Path

from solver.core.errors import InputError
from solver.experiments.stats import CellSummary, summarize
from solver.experiments.sweep import SCORE_PREFIX, Record

DATABASE = "results.db"
SCHEMA = """
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
            self.db.executescript(SCHEMA)
        except (OSError, sqlite3.Error) as error:
            raise InputError(f"cannot write results to {self.directory}: {error}") from None

    def close(self) -> None:
        self.db.close()

    def check_settings(self, settings: dict) -> None:
        """Refuse a run whose settings differ from the stored ones; store them with the first records."""
        stored = dict(self.db.execute("SELECT name, value FROM settings"))
        for name, value in settings.items():
            text = json.dumps(value)
            if name in stored and stored[name] != text:
                raise InputError(
                    f"{self.directory} holds results made with {name} {stored[name]}, not {text}: "
                    "use the same setting or another --out"
                )
        self.settings = [(name, json.dumps(value)) for name, value in settings.items()]

    def done(self, mission: str, players: int, seed: int) -> set[int]:
        """Return the deal indices of a cell already stored."""
        rows = self.db.execute(
            "SELECT deal_index FROM deals WHERE mission = ? AND players = ? AND seed = ?", (mission, players, seed)
        )
        return {index for (index,) in rows}

    def add(self, records: list[Record]) -> None:
        """Store one batch in one transaction; rows already stored are kept as they are."""
        with self.db:
            self.db.executemany("INSERT OR IGNORE INTO settings VALUES (?, ?)", self.settings)
            self.db.executemany(
                "INSERT OR IGNORE INTO deals VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (r.mission, r.players, r.seed, r.index, r.result, r.nodes, r.ms, r.engine, r.setup, r.line)
                    for r in records
                ],
            )

    def cells(self) -> list[tuple[str, int]]:
        """Return every (mission, players) with results, in table order."""
        rows = self.db.execute("SELECT DISTINCT mission, players FROM deals")
        return sorted(rows, key=lambda row: (cell_order(row[0]), row[1]))

    def summary(self, mission: str, players: int, limit: int | None = None) -> CellSummary:
        """Summarize a cell over all its seeds (or its first `limit` deal indices)."""
        query = "SELECT result, ms, setup FROM deals WHERE mission = ? AND players = ?"
        arguments: tuple = (mission, players)
        if limit is not None:
            query += " AND deal_index < ?"
            arguments += (limit,)
        rows = self.db.execute(query, arguments).fetchall()
        scores = [setup[len(SCORE_PREFIX):] for _, _, setup in rows if setup.startswith(SCORE_PREFIX)]
        return summarize(mission, players, [r for r, _, _ in rows], [ms for _, ms, _ in rows], scores)

    def summaries(self, cells=None) -> list[CellSummary]:
        """Summarize the given cells (default: every cell with results)."""
        return [self.summary(mission, players) for mission, players in (cells or self.cells())]


def cell_order(mission: str) -> tuple:
    """Order cells by game, then mission number (numbers sort as numbers), then the rest."""
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part) for part in mission.split("/"))
