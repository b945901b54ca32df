"""A sweep as one self-contained HTML page (`crew report OUT --html FILE`): nothing loaded from the network.

The page holds what summary.json says of how the results were made (command, seed, budget, versions and
commit), the cells' table (sortable: click a column's heading; a small inline script), the plots inline
as SVG, and per cell a few of its lost and won deals with their line of play and the `crew solve` command
that solves each again (`Example`, from the results database).
"""

import html
from dataclasses import dataclass

from solver.experiments.stats import CellSummary, percent
from solver.experiments.summary import critical_text, rows

EXAMPLES = 3  # lost and won deals shown per cell
COLUMNS = ("mission", "players", "deals", "wins", "losses", "unknowns", "win %", "95% interval", "median ms",
           "p99 ms")
CREW_COLUMNS = ("crew win %", "crew 95% interval", "crew tasks %", "crew lost, winnable", "critical")  # --crew realistic
SORTING = """
document.querySelectorAll("#cells th").forEach((heading, column) => heading.addEventListener("click", () => {
  const body = document.querySelector("#cells tbody");
  const key = row => { const text = row.children[column].dataset.key ?? row.children[column].textContent;
                       const number = parseFloat(text); return isNaN(number) ? text : number; };
  const rising = heading.dataset.order !== "up";
  document.querySelectorAll("#cells th").forEach(other => delete other.dataset.order);
  heading.dataset.order = rising ? "up" : "down";
  [...body.rows].sort((a, b) => (key(a) > key(b) ? 1 : key(a) < key(b) ? -1 : 0) * (rising ? 1 : -1))
    .forEach(row => body.appendChild(row));
}));
document.body.dataset.ready = "sortable";
"""
STYLE = """
body { font-family: sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; } th, td { padding: 0.2em 0.6em; border-bottom: 1px solid #ddd; }
th { cursor: pointer; background: #f3f3f3; } td.number { text-align: right; }
code, pre { font-size: 0.9em; } details { margin: 0.3em 0; } .figure svg { max-width: 100%; height: auto; }
"""


@dataclass(frozen=True)
class Example:
    """One stored deal of a cell, for the drill-down: its index, result, deal and line, and how to solve it."""

    index: int
    result: str
    deal: str
    line: str
    command: str


def page(summaries: list[CellSummary], details: dict, examples: dict, figure_svg: str | None, title: str) -> str:
    """Return the page: `details` (summary.json without its cells; may be empty), `examples` (cell -> [Example]),
    the figure as SVG text (None: no cell has a decided deal)."""
    parts = [f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title>",
             f"<style>{STYLE}</style></head><body>", f"<h1>{html.escape(title)}</h1>", made(details),
             table(summaries)]
    if figure_svg is not None:
        start = figure_svg.find("<svg")
        parts.append(f"<h2>Win rates</h2><div class=\"figure\">{figure_svg[start:]}</div>")
    parts.append("<h2>Deals</h2>")
    parts += [drill_down(summary, examples.get(summary.cell, [])) for summary in summaries]
    parts.append(f"<script>{SORTING}</script></body></html>\n")
    return "\n".join(parts)


def made(details: dict) -> str:
    """Return how the results were made, from summary.json (nothing known: say so)."""
    if not details:
        return "<p>No summary.json beside the database: how these results were made is not recorded.</p>"
    versions = details.get("versions", {})
    items = [("command", details.get("command")), ("seed", details.get("seed")),
             ("deals a cell", details.get("deals")), ("budget", f"{details.get('budget_seconds')} s of work a deal"),
             ("complete", "yes" if details.get("complete") else "no (interrupted: the same command resumes it)"),
             ("commit", versions.get("commit")),
             ("versions", ", ".join(f"{name} {value}" for name, value in versions.items() if name != "commit"))]
    return "<dl>" + "".join(f"<dt>{html.escape(name)}</dt><dd><code>{html.escape(str(value))}</code></dd>"
                            for name, value in items) + "</dl>"


def table(summaries: list[CellSummary]) -> str:
    crewed = any(s.crew is not None for s in summaries)
    heading = "".join(f"<th>{html.escape(column)}</th>" for column in COLUMNS + (CREW_COLUMNS if crewed else ()))
    body = []
    for row in rows(summaries):
        rate = "-" if row["win_rate"] is None else percent(row["win_rate"])
        interval = "-" if row["low"] is None else f"{percent(row['low'])} - {percent(row['high'])}"
        cells = [row["mission"], row["players"], row["deals"], row["wins"], row["losses"], row["unknowns"]]
        numbers = "".join(f"<td class=\"number\">{value}</td>" for value in cells[1:])
        low = "" if row["low"] is None else f" data-key=\"{row['low']}\""
        key = "" if row["win_rate"] is None else f" data-key=\"{row['win_rate']}\""
        body.append(f"<tr><td>{html.escape(str(cells[0]))}</td>{numbers}<td class=\"number\"{key}>{rate}</td>"
                    f"<td class=\"number\"{low}>{interval}</td><td class=\"number\">{row['median_ms']}</td>"
                    f"<td class=\"number\">{row['p99_ms']}</td>" + (crew_cells(row) if crewed else "") + "</tr>")
    return f"<table id=\"cells\"><thead><tr>{heading}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def crew_cells(row: dict) -> str:
    """Return a row's realistic-crew cells (dashes for a cell the crew did not play)."""
    if "crew_games" not in row:
        return "<td>-</td>" * len(CREW_COLUMNS)
    critical = critical_text(row)
    tasks = "-" if row["crew_task_share"] is None else percent(row["crew_task_share"])
    values = (percent(row["crew_win_rate"]), f"{percent(row['crew_low'])} - {percent(row['crew_high'])}", tasks,
              row["crew_lost_by_crew"], critical)
    return "".join(f"<td class=\"number\">{value}</td>" for value in values)


def drill_down(summary: CellSummary, examples: list[Example]) -> str:
    name = f"{summary.cell}, {summary.cell.players} players"
    if not examples:
        return f"<details><summary>{html.escape(name)}: no stored deal to show</summary></details>"
    shown = "".join(
        f"<h4>deal {e.index}: {e.result.upper()}</h4><pre>{html.escape(e.deal)}</pre>"
        + (f"<p>line: <code>{html.escape(e.line)}</code></p>" if e.line else "")
        + f"<p>solve it again: <code>{html.escape(e.command)}</code></p>"
        for e in examples)
    return f"<details><summary>{html.escape(name)}: {len(examples)} deals</summary>{shown}</details>"
