"""Plots of a sweep's win rates with their 95% intervals (`crew plot`), headless.

Mission cells (`game/N`): win % per mission, one line per player count; when
cells carry marks (`game/NAME@SPACE`, `@difficult-ghost`): one panel per mission or
experiment, win % per marks as named (the train first), one line per player count.
Task experiments (`tasks/K/MODE`): win % against the number of tasks K, one
line per owner mode and player count. Family Adventure random-objective cells
(`family/objectives/K`): win % against K, one line per player count. One panel
per kind present. Special missions also get a panel of their mean best score (a
deal left at `>=N` counted at N). A sweep with the realistic crew gets a panel of both win
rates (perfect information and the crew) per mission or against the number of tasks, and for
task experiments the share of tasks the crew completed. Cells with no decided deal (no win, no loss)
have no rate and are left out. The figure is a plain matplotlib Figure (no
pyplot), so no display is needed.

For a reader: the win-rate axis is zoomed to the data (`rate_floor`: the published panels of
near-100% rates were flat lines at the top of 0-100), categories (stage spaces, named missions)
get markers and intervals but no lines joining them, long category labels are turned, a panel of
one cell keeps a sane x range, and titles name the game.
"""

import dataclasses
import math
import re
from pathlib import Path

from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from solver.core.errors import InputError
from solver.experiments.cell import Kind
from solver.experiments.stats import CellSummary
from solver.family.mission import GAME as FAMILY

Point = tuple[float, CellSummary]  # x, cell
DODGE = 0.08  # sideways step between the lines of a panel, in x units
MANY_TICKS = 60  # categories beyond which only some are labelled (category_ticks)
GAMES = {"planet-nine": "Planet Nine", "journey": "Journey", FAMILY: "Family Adventure", "tasks": "Planet Nine"}
TURN_LABELS = 6  # category labels longer than this many characters are turned, so they never overlap


def mission_lines(summaries: list[CellSummary]) -> tuple[dict[str, list[Point]], dict[float, str]]:
    """Return the mission cells as {line label: [(x, cell)]} and {x: mission name}.

    x is the mission number when every mission has one; otherwise missions take places 1, 2, ...
    in the sweep's order, or by their numbers where every name ends in one (Deep Sea's difficulty-1 ..
    difficulty-12, not difficulty-1, difficulty-10, ...).
    """
    numbers = [int(name) for _, name in map(split_id, (s.cell.mission for s in summaries)) if name.isdigit()]
    all_numbered = len(numbers) == len(summaries)
    endings = [re.fullmatch(r"(.*\D)(\d+)", split_id(s.cell.mission)[1]) for s in summaries]
    if not all_numbered and all(endings):
        summaries = [s for _, s in sorted(zip(endings, summaries), key=lambda pair: (pair[0][1], int(pair[0][2])))]
    named: dict[str, float] = {}
    games = {split_id(s.cell.mission)[0] for s in summaries}
    lines: dict[str, list[Point]] = {}
    for s in summaries:
        game, name = split_id(s.cell.mission)
        if all_numbered:
            x = float(name)
        else:  # some missions have names: one place per mission, in the sweep's order
            x = named.setdefault(s.cell.mission, float(len(named) + 1))
        label = f"{s.cell.players} players" if len(games) == 1 else f"{game}, {s.cell.players} players"
        lines.setdefault(label, []).append((x, s))
    ticks = {x: split_id(s.cell.mission)[1] for points in lines.values() for x, s in points}
    return lines, ticks


def space_lines(summaries: list[CellSummary]) -> tuple[dict[str, dict[str, list[Point]]], list[str]]:
    """Return {mission or experiment: {line label: [(x, cell)]}} with x the place of the cell's marks (its stage
    space, and the difficult Ghost, as named), and the marks."""
    spaces: list[str] = []
    panels: dict[str, dict[str, list[Point]]] = {}
    for s in summaries:
        space = s.cell.marks or "train"
        if space not in spaces:
            spaces.append(space)
        label = f"{s.cell.players} players"
        panels.setdefault(s.cell.subject, {}).setdefault(label, []).append((spaces.index(space) + 1.0, s))
    return panels, spaces


def task_lines(summaries: list[CellSummary]) -> dict[str, list[Point]]:
    """Return the task-experiment cells as {line label: [(K, cell)]}, one line per (owner mode, players)."""
    lines: dict[str, list[Point]] = {}
    for s in summaries:
        lines.setdefault(f"{s.cell.owner_mode}, {s.cell.players} players", []).append((float(s.cell.tasks), s))
    return lines


def objective_lines(summaries: list[CellSummary]) -> dict[str, list[Point]]:
    """Return the random-objective cells as {line label: [(K, cell)]}, one line per player count."""
    lines: dict[str, list[Point]] = {}
    for s in summaries:
        lines.setdefault(f"{s.cell.players} players", []).append((float(s.cell.objectives), s))
    return lines


def crew_summaries(cells: list[CellSummary]) -> list[CellSummary]:
    """Return the realistic crew's games of the cells that have them as summaries of their own (its wins and
    losses), so that they draw as any cell's rates."""
    return [dataclasses.replace(s, wins=s.crew.wins, losses=s.crew.losses, unknowns=0, crew=None)
            for s in cells if s.crew is not None]


def both_lines(lines: dict[str, list[Point]], crew: dict[str, list[Point]]) -> dict[str, list[Point]]:
    """Return perfect-information and realistic-crew lines in one legend."""
    return {**{f"{label}, perfect information": points for label, points in lines.items()},
            **{f"{label}, realistic crew": points for label, points in crew.items()}}


def draw_task_shares(axes, lines: dict[str, list[Point]]) -> None:
    """Draw the share of tasks the realistic crew completed against the number of tasks, a line per label."""
    for shift, label, points in dodged(lines):
        axes.plot([x + shift for x, _ in points], [100 * s.crew.task_share for _, s in points], marker="o",
                  markersize=4, label=label)
    finish(axes, "Planet Nine, realistic crew: tasks completed before the mission ended", "tasks",
           "tasks completed, % of all", lines)
    axes.set_ylim(0, 103)


def split_id(mission: str) -> tuple[str, str]:
    """Return (game, name) of a mission id `game/name`."""
    game, _, name = mission.rpartition("/")
    return game, name


def draw(axes, lines: dict[str, list[Point]], title: str, xlabel: str, categories: bool = False) -> None:
    """Draw one panel: markers and interval bars per label, each shifted a little sideways, joined by a line
    unless x is a category; the rate axis from `rate_floor` to 100."""
    for shift, label, points in dodged(lines):
        rates = [100 * s.rate for _, s in points]
        below = [100 * max(0.0, s.rate - s.interval[0]) for _, s in points]  # 0, not -1e-16, when they meet
        above = [100 * max(0.0, s.interval[1] - s.rate) for _, s in points]
        axes.errorbar([x + shift for x, _ in points], rates, yerr=[below, above], marker="o", markersize=4, capsize=3,
                      label=label, linestyle="none" if categories else "-")
    finish(axes, title, xlabel, "win % (decided deals), 95% interval", lines)
    floor = rate_floor([s for points in lines.values() for _, s in points])
    axes.set_ylim(floor - (100 - floor) * 0.03, 100 + (100 - floor) * 0.03)


def rate_floor(cells: list[CellSummary]) -> float:
    """Return the bottom of the rate axis: the lowest interval bound shown, rounded down to a step of 1, 5, 10
    or 20 points, so near-100% panels are not flat lines at the top of 0-100."""
    lowest = min(100 * s.interval[0] for s in cells)
    for step in (1, 5, 10, 20):
        if 100 - lowest <= 5 * step:
            return max(0.0, step * math.floor(lowest / step) - step)
    return 0.0


def draw_scores(axes, lines: dict[str, list[Point]], title: str, xlabel: str, categories: bool = False) -> None:
    """Draw one panel of special missions' mean best scores, markers per label (joined unless categories)."""
    for shift, label, points in dodged(lines):
        axes.plot([x + shift for x, _ in points], [s.mean_score for _, s in points], marker="o", markersize=4,
                  label=label, linestyle="none" if categories else "-")
    finish(axes, title, xlabel, "mean best score (a deal left at >=N counts N)", lines)
    axes.set_ylim(0, 1.08 * max(s.mean_score for points in lines.values() for _, s in points) or 1)  # no point on the edge


def dodged(lines: dict[str, list[Point]]):
    """Yield (sideways shift, label, points sorted by x) per line, so that equal values do not hide each other."""
    for number, (label, points) in enumerate(lines.items()):
        yield DODGE * (number - (len(lines) - 1) / 2), label, sorted(points, key=lambda point: point[0])


def finish(axes, title: str, xlabel: str, ylabel: str, lines: dict[str, list[Point]]) -> None:
    """Title, label and grid a panel, with integer x ticks, an x range of at least 2 (one cell sits in the
    middle), and a legend."""
    axes.set_title(title)
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    xs = [x for points in lines.values() for x, _ in points]
    axes.set_xlim(min(min(xs) - 0.5, max(xs) - 1), max(max(xs) + 0.5, min(xs) + 1))
    axes.grid(True, alpha=0.4)
    axes.legend()


def category_ticks(axes, ticks: dict[float, str]) -> None:
    """Label the categories at their places, turned when any is long; of more than MANY_TICKS, every fifth
    and the named ones (Deep Sea's 100 cards: 1, 5, 10, ..., 46-colour-only), the others ticked unlabelled."""
    if len(ticks) > MANY_TICKS:
        ticks = {x: name if not name.isdigit() or int(name) == 1 or int(name) % 5 == 0 else "" for x, name in ticks.items()}
    turned = max(map(len, ticks.values())) > TURN_LABELS
    axes.set_xticks(list(ticks), list(ticks.values()), rotation=40 if turned else 0, ha="right" if turned else "center")


def game_of(cells: list[CellSummary]) -> str:
    """Return the name of the game(s) of the cells, for titles."""
    names = dict.fromkeys(GAMES.get(str(s.cell.subject).split("/", 1)[0], "") for s in cells)
    return " and ".join(name for name in names if name) or "The Crew"


def draw_missions(axes, missions: list[CellSummary], on: str) -> None:
    """Draw on the next panels of `axes` the mission cells' win rates (`on`: the space, for the titles), the special
    missions' scores, and the realistic crew's rates beside perfect information's."""
    scored = [s for s in missions if s.scores]  # special missions: their scores too
    crewed = crew_summaries(missions)
    for cells, drawing, title in ((missions, draw, "win rate per mission"),
                                  (scored, draw_scores, "mean best score per special mission")):
        if cells:
            lines, ticks = mission_lines(cells)
            named = not all(name.isdigit() for name in ticks.values())  # then a category per mission
            panel = next(axes)
            drawing(panel, lines, f"{game_of(cells)}: {title}{on}", "mission", categories=named)
            if named:
                category_ticks(panel, ticks)
    if crewed:
        lines, ticks = mission_lines([s for s in missions if s.crew is not None])
        crew, _ = mission_lines(crewed)
        named = not all(name.isdigit() for name in ticks.values())
        panel = next(axes)
        draw(panel, both_lines(lines, crew), f"{game_of(missions)}: win rate per mission{on}, perfect information and "
             "the realistic crew", "mission", categories=named)
        if named:
            category_ticks(panel, ticks)


def plot_summaries(summaries: list[CellSummary], target: Path) -> None:
    """Plot the win rates of a sweep's cells into `target` (.png or .svg)."""
    target = Path(target)
    if target.suffix not in (".png", ".svg"):
        raise InputError(f"the plot file must end in .png or .svg, got {target.name}")
    figure = sweep_figure(summaries)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        figure.savefig(target)
    except OSError as error:
        raise InputError(f"cannot write the plot to {target}: {error}") from None


def sweep_figure(summaries: list[CellSummary]) -> Figure:
    """Return the figure of a sweep's cells: a panel per kind of cell (see above)."""
    decided = [s for s in summaries if s.interval is not None]
    objectives = [s for s in decided if s.cell.kind is Kind.OBJECTIVES]
    trick_cells = [s for s in decided if s not in objectives]
    if not decided:
        raise InputError("nothing to plot: no cell has a decided deal (a win or a loss)")
    on_spaces = any(s.cell.marks for s in trick_cells)  # then a panel per mission or experiment
    by_space, spaces = space_lines(trick_cells) if on_spaces else ({}, [])
    tasks = [] if on_spaces else [s for s in trick_cells if s.cell.kind is Kind.TASKS]
    missions = [] if on_spaces else [s for s in trick_cells if s not in tasks]
    groups = [("", missions)] if missions else []  # (the space named in the titles, its mission cells)
    if on_spaces and len(by_space) > len(spaces) and all(s.cell.kind is Kind.MISSION for s in trick_cells):
        # more missions than spaces (the logbook on a space or two): a panel per space, the missions along it
        groups = [(f" on the {space}", [s for s in trick_cells if (s.cell.marks or "train") == space]) for space in spaces]
        by_space = {}
    scored_spaces = [mission for mission, lines in by_space.items()
                     if any(s.scores for points in lines.values() for _, s in points)]
    crewed_tasks = crew_summaries(tasks)
    panels = (
        len(by_space) + len(scored_spaces) + (1 if tasks else 0) + (1 if objectives else 0) + (2 if crewed_tasks else 0)
        + sum(1 + any(s.scores for s in cells) + bool(crew_summaries(cells)) for _, cells in groups)
    )
    figure = Figure(figsize=(10, 4.5 * panels), layout="constrained")
    axes = iter(figure.subplots(panels, 1, squeeze=False)[:, 0])
    space_ticks = {place: space for place, space in enumerate(spaces, 1)}
    for mission, lines in by_space.items():
        panel = next(axes)
        draw(panel, lines, f"{mission}: win rate per stage space", "stage space", categories=True)
        category_ticks(panel, space_ticks)
        if mission in scored_spaces:
            panel = next(axes)
            draw_scores(panel, lines, f"{mission}: mean best score per stage space", "stage space", categories=True)
            category_ticks(panel, space_ticks)
    for on, missions in groups:
        draw_missions(axes, missions, on)
    if tasks:
        draw(next(axes), task_lines(tasks), "Planet Nine: win rate against the number of random tasks (no tokens)",
             "tasks")
    if crewed_tasks:
        draw(next(axes), both_lines(task_lines([s for s in tasks if s.crew is not None]), task_lines(crewed_tasks)),
             "Planet Nine: win rate against the number of random tasks, perfect information and the realistic crew",
             "tasks")
        draw_task_shares(next(axes), task_lines([s for s in tasks if s.crew is not None]))
    if objectives:
        draw(next(axes), objective_lines(objectives), "Family Adventure: win rate against the number of random "
             "required cards (12 cards played)", "required cards")
    return figure
