"""A sweep's summary files: summary.csv and summary.json next to its database, and their rows.

summary.json records how the results were made (the command line or the Python request, the seed,
the deal count, the budget, the commit and versions, whether the run completed) and one row per
cell; summary.csv holds the rows alone. Rates and interval bounds are fractions.
"""

import csv
import io
import json
import math
import platform
import subprocess
from pathlib import Path

from solver import __version__
from solver.experiments.cell import Cell
from solver.experiments.stats import CellSummary, CrewSummary, Score

SUMMARY_JSON = "summary.json"


def rows(summaries: list[CellSummary]) -> list[dict]:
    """Return the table rows as plain values (rates and bounds as fractions)."""
    out = []
    for s in summaries:
        interval = s.interval
        out.append({
            "mission": str(s.cell), "players": s.cell.players, "deals": s.deals, "wins": s.wins,
            "losses": s.losses, "unknowns": s.unknowns, "win_rate": s.rate,
            "low": interval[0] if interval else None, "high": interval[1] if interval else None,
            "median_ms": round(s.median_ms, 3) if s.deals else None,
            "p99_ms": round(s.p99_ms, 3) if s.deals else None,
            **({"scores": {str(score): deals for score, deals in s.scores}} if s.scores else {}),
            **(crew_row(s.crew) if s.crew is not None else {}),
        })
    return out


def crew_row(crew: CrewSummary) -> dict:
    """Return the realistic crew's columns of a row: its counts (every CrewSummary field, `crew_lost_in` as
    {trick: games}) and the rates they give."""
    interval = crew.interval
    lost_in = {}
    for trick in crew.lost_in:
        lost_in[str(trick)] = lost_in.get(str(trick), 0) + 1
    return {
        "crew_games": crew.games, "crew_wins": crew.wins, "crew_win_rate": crew.rate,
        "crew_low": interval[0] if interval else None, "crew_high": interval[1] if interval else None,
        "crew_tasks_done": crew.tasks_done, "crew_tasks": crew.tasks, "crew_task_share": crew.task_share,
        "crew_lost_by_crew": crew.lost_by_crew, "crew_not_winnable": crew.not_winnable,
        "crew_undecided": crew.undecided, "crew_median_lost_in": crew.median_lost_in, "crew_lost_in": lost_in,
        "slack_deals": crew.slack_deals, "slack_decisions": crew.decisions, "slack_critical": crew.critical,
        "critical_per_deal": crew.critical_per_deal, "slack_perhaps_critical": crew.perhaps_critical,
        "perhaps_critical_per_deal": crew.perhaps_critical_per_deal,
        **({"crew_scores": {str(score): games for score, games in crew.scores}} if crew.scores else {}),
    }


def critical_text(row: dict) -> str:
    """Return a crew row's critical decisions a deal as text: "1.25", and "1.25+0.10" when some decisions are
    perhaps critical (no other card proved winnable, some undecided); "-" with no winning line."""
    if row["critical_per_deal"] is None:
        return "-"
    perhaps = row.get("perhaps_critical_per_deal")
    return f"{row['critical_per_deal']:.2f}" + (f"+{perhaps:.2f}" if perhaps else "")


def crew_from_row(row: dict) -> CrewSummary | None:
    """Return the CrewSummary `crew_row` wrote, or None for a perfect-information row."""
    if "crew_games" not in row:
        return None
    lost_in = tuple(sorted(int(trick) for trick, games in row["crew_lost_in"].items() for _ in range(games)))
    return CrewSummary(row["crew_games"], row["crew_wins"], row["crew_tasks_done"], row["crew_tasks"],
                       row["crew_lost_by_crew"], row["crew_not_winnable"], row["crew_undecided"], lost_in,
                       row["slack_deals"], row["slack_decisions"], row["slack_critical"],
                       row.get("slack_perhaps_critical", 0),  # 0 in a summary of before they were counted
                       tuple((int(score), games) for score, games in row.get("crew_scores", {}).items()))


def from_rows(table: list[dict]) -> list[CellSummary]:
    """Return the summaries `rows` wrote (summary.json's cells), for plotting a published sweep whose database
    is not at hand."""
    summaries = []
    for row in table:
        scores = tuple((Score(int(text.removeprefix(">=")), not text.startswith(">=")), deals)
                       for text, deals in row.get("scores", {}).items())
        summaries.append(CellSummary(
            Cell(row["mission"], row["players"]), row["deals"], row["wins"], row["losses"], row["unknowns"],
            math.nan if row["median_ms"] is None else row["median_ms"],
            math.nan if row["p99_ms"] is None else row["p99_ms"], scores, crew_from_row(row)))
    return summaries


def format_csv(summaries: list[CellSummary]) -> str:
    buffer = io.StringIO()
    table = rows(summaries)
    if any("scores" in row for row in table):
        for row in table:
            row["scores"] = " ".join(f"{score}:{deals}" for score, deals in row.get("scores", {}).items())
    if any("crew_scores" in row for row in table):
        for row in table:
            row["crew_scores"] = " ".join(f"{score}:{games}" for score, games in row.get("crew_scores", {}).items())
    for row in table:
        if "crew_lost_in" in row:
            row["crew_lost_in"] = " ".join(f"{trick}:{games}" for trick, games in row["crew_lost_in"].items())
    fields = max((list(row) for row in table), key=len, default=["mission"])
    writer = csv.DictWriter(buffer, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    writer.writerows(table)
    return buffer.getvalue().rstrip("\n")


def git_commit() -> str:
    """Return the commit of the code running (`git describe --always --dirty`), or "unknown" outside a checkout."""
    try:
        described = subprocess.run(["git", "describe", "--always", "--dirty"], capture_output=True, text=True,
                                   cwd=Path(__file__).parent, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        described = ""
    return described or "unknown"


def versions() -> dict:
    import numba
    import numpy
    import ortools

    return {
        "crew-solver": __version__, "commit": git_commit(), "python": platform.python_version(), "numba": numba.__version__,
        "numpy": numpy.__version__, "ortools": ortools.__version__, "platform": platform.platform(),
    }


def write_summary(out: Path, summaries: list[CellSummary], details: dict) -> None:
    """Write summary.csv and summary.json (with `details`: how the results were made) next to the database."""
    (out / "summary.csv").write_text(format_csv(summaries) + "\n")
    (out / SUMMARY_JSON).write_text(json.dumps({**details, "cells": rows(summaries)}, indent=1) + "\n")
