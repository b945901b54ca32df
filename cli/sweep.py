"""`crew sweep`, `crew report`, `crew plot`: win rates over many seeded deals, stored durably."""

import json
import shlex
import sys
import time

import click

from cli.status import StatusLine
from solver import api
from solver.api import SweepRequest
from solver.experiments.stats import CellSummary, percent
from solver.experiments.summary import critical_text, format_csv, rows

EXIT_INTERRUPTED = 130
FORMATS = ("table", "csv", "json")


class Progress(StatusLine):
    """The deals done of this run and the cells it completed, the rate, and an ETA once enough deals are done
    (`ETA_AFTER`); on a terminal with a bar."""

    ETA_AFTER = (20, 0.02, 5.0)  # deals, share of the run, seconds: before all three, an ETA means little
    BAR = 20

    def __init__(self, total: int, needed: dict, terminal: bool | None = None, clock=time.monotonic):
        super().__init__(terminal, clock)
        self.total, self.done = total, 0
        self.needed = dict(needed)  # cell -> deals still to solve in this run
        self.cells = len(self.needed)
        self.began = clock()

    def __call__(self, records) -> None:
        self.done += len(records)
        for record in records:
            self.needed[record.cell] -= 1
        complete = sum(1 for left in self.needed.values() if left <= 0)
        elapsed = max(self.clock() - self.began, 1e-9)
        rate = self.done / elapsed
        deals, share, seconds = self.ETA_AFTER
        if self.done == self.total:
            tail = f"took {format_duration(elapsed)}"
        elif self.done >= max(deals, share * self.total) and elapsed >= seconds:
            tail = f"ETA {format_duration((self.total - self.done) / rate)}"
        else:
            tail = f"ETA after {max(deals, int(share * self.total + 0.999)):,} deals"
        bar = ""
        if self.terminal:
            filled = self.BAR * self.done // max(self.total, 1)
            bar = f"[{'#' * filled}{'.' * (self.BAR - filled)}] "
        self.show(f"sweep: {bar}{self.done:,} / {self.total:,} deals, cells {complete:,} / {self.cells:,} complete, "
                  f"{rate:,.1f} deals/s, {tail}", force=self.done == self.total)


def format_duration(seconds: float) -> str:
    minutes, seconds = divmod(int(seconds + 0.5), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m" if hours else f"{minutes}m{seconds:02d}s"


def format_table(summaries: list[CellSummary]) -> str:
    width = max([22] + [len(str(s.cell)) for s in summaries])
    lines = [
        f"{'mission':{width}s} {'players':>7s} {'deals':>6s} {'wins':>6s} {'losses':>6s} {'unknown':>7s} "
        f"{'win %':>6s}  {'95% interval':>15s} {'median ms':>9s} {'p99 ms':>9s}"
    ]
    for row in rows(summaries):
        rate = "-" if row["win_rate"] is None else percent(row["win_rate"])
        interval = "-" if row["low"] is None else f"{percent(row['low']):>5s} - {percent(row['high']):>5s}"
        lines.append(
            f"{row['mission']:{width}s} {row['players']:7d} {row['deals']:6d} {row['wins']:6d} {row['losses']:6d} "
            f"{row['unknowns']:7d} {rate:>6s}  {interval:>15s} {milliseconds(row['median_ms'])} "
            f"{milliseconds(row['p99_ms'])}"
        )
    crewed = [row for row in rows(summaries) if "crew_games" in row]
    if crewed:
        lines += ["", *crew_table(crewed, width)]
    scored = [s for s in summaries if s.scores]
    if scored:  # special missions: how many deals reach each score (win % counts scores above 0), and the mean
        lines.append("")
        lines += [f"scores {s.cell} {s.cell.players}p (mean {score_mean(s)}): " + ", ".join(
            f"{score}: {deals}" for score, deals in s.scores) for s in scored]
        lines += [f"crew scores {s.cell} {s.cell.players}p (mean {s.crew.mean_score:.2f}): " + ", ".join(
            f"{score}: {games}" for score, games in s.crew.scores) for s in scored if s.crew and s.crew.scores]
    return "\n".join(lines)


def crew_table(table: list[dict], width: int) -> list[str]:
    """Return the realistic crew's table: its win rate and interval, the tasks it completed, its losses by the
    deal's perfect-information answer, the median trick of its losses, and the critical decisions of a winning
    line (a mean over the deals won with perfect information; +N: the perhaps critical ones)."""
    lines = ["realistic crew (each player sees its own hand; the table above: perfect information)",
             f"{'mission':{width}s} {'players':>7s} {'games':>6s} {'wins':>6s} {'win %':>6s}  {'95% interval':>15s} "
             f"{'tasks %':>7s} {'lost, winnable':>14s} {'lost, not':>9s} {'lost in trick':>13s} {'critical':>10s}"]
    for row in table:
        rate = "-" if row["crew_win_rate"] is None else percent(row["crew_win_rate"])
        interval = "-" if row["crew_low"] is None else f"{percent(row['crew_low']):>5s} - {percent(row['crew_high']):>5s}"
        tasks = "-" if row["crew_task_share"] is None else percent(row["crew_task_share"])
        lost_in = "-" if row["crew_median_lost_in"] is None else f"{row['crew_median_lost_in']:.1f}"
        critical = critical_text(row)
        lines.append(
            f"{row['mission']:{width}s} {row['players']:7d} {row['crew_games']:6d} {row['crew_wins']:6d} {rate:>6s}  "
            f"{interval:>15s} {tasks:>7s} {row['crew_lost_by_crew']:14d} {row['crew_not_winnable']:9d} {lost_in:>13s} "
            f"{critical:>10s}")
    return lines


def score_mean(summary: CellSummary) -> str:
    """Return a cell's mean best score as text, `>=` first when some deal's score is only a lower bound."""
    bounded = any(not score.exact for score, _ in summary.scores)
    return f"{'>=' if bounded else ''}{summary.mean_score:.2f}"


def milliseconds(value: float | None) -> str:
    return f"{'-':>9s}" if value is None else f"{value:9.2f}"


def render(summaries: list[CellSummary], output_format: str) -> str:
    if output_format == "csv":
        return format_csv(summaries)
    if output_format == "json":
        return json.dumps(rows(summaries), indent=1)
    return format_table(summaries)


@click.command()
@click.option("--game", help="The game of the missions: planet-nine, journey, deep-sea or family (default: the game "
              "--mission-file names, else planet-nine).")
@click.option("--missions", "missions_text", help="Mission numbers (1-50, 5,17) or names; Deep Sea also difficulty-1..12 (a difficulty total each) "
                   "and 12+44 (cards drafted together); default: all of the game.")
@click.option("--mission-file", type=click.Path(), help="Missions from this file instead of the built-in ones.")
@click.option("--tasks", "tasks_text", help="Random-task experiment: task counts, e.g. 1-12 or 5,10,12 (no tokens).")
@click.option(
    "--owners", "owners_text",
    help="With --tasks: draft (the crew drafts; the default), dealt (dealt blindly from the Commander), "
    "or draft,dealt.",
)
@click.option(
    "--objectives", "objectives_text",
    help="With --game family: random-objective experiment, numbers of required cards, e.g. 0-8 (12 cards played).",
)
@click.option(
    "--space", "space_text",
    help="Journey stage spaces to play every cell on, e.g. skis,vespa or fog=4 (all: the train and every space "
    "that changes play); one cell per space.",
)
@click.option("--players", "players_text", default="4", show_default=True,
              help="Player counts, e.g. 3,4,5; 2: two players with the Ghost (Journey, Family) or JARVIS "
              "(Planet Nine), played as three seats.")
@click.option("--difficult-ghost", is_flag=True,
              help="Two-player cells play the difficult Ghost (after winning a trick he leads below or beside his "
              "card); cells named MISSION@difficult-ghost.")
@click.option("--deals", type=click.IntRange(min=1), default=100, show_default=True, help="Deals per cell.")
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True, help="Seed of every deal.")
@click.option("--jobs", type=click.IntRange(min=1), help="Local worker processes (default: the cores).")
@click.option("--budget", type=click.FloatRange(min=0, min_open=True), default=10.0, show_default=True,
              help="Seconds of work per deal before UNKNOWN (counted in card plays and CP-SAT's deterministic time, "
              "so the same on any machine: docs/sweeps.md).")
@click.option("--out", type=click.Path(), help="Results directory (default: sweeps/ and a name from the options).")
@click.option("--scheduler", help="A Dask scheduler, tcp://HOST:PORT: run the batches on its cluster.")
@click.option("--batch", type=click.IntRange(min=1), default=25, show_default=True, help="Deals per task sent to a worker.")
@click.option("--crew", type=click.Choice(api.CREWS), default="perfect", show_default=True,
              help="perfect: the solver sees every hand; realistic: also play each deal with a crew whose players each "
              "see only their own hand (crew play), and report both.")
@click.option("--samples", type=click.IntRange(min=1), default=16, show_default=True,
              help="With --crew realistic: deals each decision samples from what its player knows.")
@click.option("--crew-nodes", type=click.IntRange(min=1), default=api.CREW_NODES, show_default=True,
              help="With --crew realistic: card plays a sample's solve may take (past them: open, half a win for a card).")
@click.option("--format", "output_format", type=click.Choice(FORMATS), default="table", show_default=True,
              help="The results on stdout: a table, CSV or JSON (progress and notes go to stderr).")
def sweep(game, missions_text, mission_file, tasks_text, owners_text, objectives_text, space_text, players_text,
          difficult_ghost, deals, seed, jobs, budget, out, scheduler, batch, crew, samples, crew_nodes, output_format):
    """Solve many seeded deals per mission and player count; print each cell's win rate.

    Every deal is stored in OUT/results.db as it is solved; running the same command
    again resumes where it stopped. Deal i of a cell depends only on the seed, the
    cell and i, so --jobs and --scheduler never change the results.
    """
    request = SweepRequest(
        game=game, missions=missions_text, mission_file=mission_file, tasks=tasks_text, owners=owners_text,
        objectives=objectives_text, space=space_text, players=players_text, difficult_ghost=difficult_ghost,
        deals=deals, seed=seed, jobs=jobs, budget=budget, out=out, scheduler=scheduler, batch=batch,
        command=shlex.join(["crew", *sys.argv[1:]]), crew=crew, samples=samples, crew_nodes=crew_nodes,
    )
    shown = []

    def make_progress(total: int, needed: dict) -> Progress:
        shown.append(Progress(total, needed))
        return shown[0]

    try:
        result = api.run_sweep(request, make_progress, note=lambda text: click.echo(f"crew: note: {text}", err=True))
    finally:
        for progress in shown:
            progress.finish()
    out_dir, summaries, interrupted = result.out, result.summaries, result.interrupted
    click.echo(render(summaries, output_format))
    click.echo(f"results: {out_dir}" + (" (interrupted: run the same command to resume)" if interrupted else ""),
               err=True)
    if interrupted:
        sys.exit(EXIT_INTERRUPTED)


@click.command()
@click.argument("directory", type=click.Path())
@click.option("--format", "output_format", type=click.Choice(FORMATS), default="table", show_default=True,
              help="The cells' results as a table, CSV or JSON.")
@click.option("--html", "html_file", type=click.Path(),
              help="Also write one self-contained HTML page here: the sortable table, the plots, how the results "
              "were made, and a few lost and won deals per cell with the commands that solve them again.")
def report(directory, output_format, html_file):
    """Print the table of a sweep's results directory, from its database."""
    click.echo(render(api.read_sweep(directory), output_format))
    if html_file is not None:
        click.echo(f"wrote {api.report_html(directory, html_file)}", err=True)


@click.command()
@click.argument("directory", type=click.Path())
@click.option("-o", "--output", type=click.Path(), help="Image file, .png or .svg (default: DIRECTORY/winrates.png).")
def plot(directory, output):
    """Plot a sweep's win rates with their 95% intervals."""
    click.echo(f"wrote {api.plot_sweep(directory, output)}")
