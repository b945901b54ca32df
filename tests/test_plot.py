"""`crew plot` and solver.experiments.plot: win rates with their intervals, headless, to .png or .svg."""

import contextlib
import sqlite3
import struct
import subprocess
import sys
import textwrap
from dataclasses import replace
from xml.etree import ElementTree

import pytest
from click.testing import CliRunner

from cli.main import main
from solver.core.errors import InputError
from solver.experiments.cell import Cell
from solver.experiments.plot import (
    category_ticks,
    mission_lines,
    plot_summaries,
    rate_floor,
    space_lines,
    sweep_figure,
    task_lines,
)
from solver.experiments.stats import CellSummary, Score
from solver.experiments.store import ResultStore
from solver.experiments.sweep import Record

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
SVG = "{http://www.w3.org/2000/svg}svg"


def crew(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def assert_one_line_error(result, *words):
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("crew: error: ")
    for word in words:
        assert word in lines[0], f"{word!r} not in {lines[0]!r}"


def png_size(path) -> tuple[int, int]:
    """Return (width, height) of a PNG file, checking its signature."""
    data = path.read_bytes()
    assert data[:8] == PNG_MAGIC
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def cell(name, players, wins, losses, unknowns=0) -> CellSummary:
    return CellSummary(Cell(name, players), wins + losses + unknowns, wins, losses, unknowns, 1.0, 2.0)


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """A small real sweep, missions 1-3 at 3 and 4 players, and a task experiment's deals added to its database
    (a sweep refuses other cells in its directory; databases from before that hold both kinds)."""
    out = tmp_path_factory.mktemp("plot") / "results"
    tasks_out = out.parent / "tasks"
    common = ["--deals", "3", "--jobs", "1"]
    missions_only = crew("sweep", "--missions", "1-3", "--players", "3,4", *common, "--out", out)
    assert missions_only.exit_code == 0, missions_only.output
    png = out / "missions.png"
    plotted = crew("plot", out, "-o", png)
    assert plotted.exit_code == 0, plotted.output
    tasks = crew("sweep", "--tasks", "1-3", "--owners", "draft,dealt", *common, "--out", tasks_out)
    assert tasks.exit_code == 0, tasks.output
    with contextlib.closing(sqlite3.connect(out / "results.db")) as db, db:
        db.execute("ATTACH DATABASE ? AS tasks", (str(tasks_out / "results.db"),))
        db.execute("INSERT INTO deals SELECT * FROM tasks.deals")
    return out, png


def test_plot_to_png(results):
    out, missions_png = results
    target = out / "both.png"
    result = crew("plot", out, "-o", target)
    assert result.exit_code == 0, result.output
    assert result.stdout == f"wrote {target}\n"
    width, height = png_size(target)
    one_width, one_height = png_size(missions_png)
    assert width == one_width and height == 2 * one_height  # a second panel for the task experiment
    assert width >= 600 and one_height >= 300


def test_plot_to_svg(results):
    out, _ = results
    target = out / "plots" / "both.svg"
    result = crew("plot", out, "--output", target)
    assert result.exit_code == 0, result.output
    root = ElementTree.parse(target).getroot()
    assert root.tag == SVG
    text = target.read_text()
    for words in ("Planet Nine: win rate per mission", "Planet Nine: win rate against the number of random tasks", "3 players",
                  "4 players", "draft, 4 players", "dealt, 4 players"):
        assert words in text  # matplotlib keeps each text as a comment next to its glyph paths


def test_plot_default_file(results):
    out, _ = results
    result = crew("plot", out)
    assert result.exit_code == 0, result.output
    png_size(out / "winrates.png")
    assert result.stdout == f"wrote {out / 'winrates.png'}\n"


def test_plot_without_results_exits_2(tmp_path):
    assert_one_line_error(crew("plot", tmp_path), "no sweep results")
    assert_one_line_error(crew("plot", tmp_path / "missing", "-o", tmp_path / "x.png"), "no sweep results")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["plot.pdf", "plot", "plot.PNG.txt"])
def test_plot_bad_suffix_exits_2(results, name):
    out, _ = results
    assert_one_line_error(crew("plot", out, "-o", out / name), ".png or .svg")
    assert not (out / name).exists()


def test_plot_unwritable_target_exits_2(results, tmp_path):
    out, _ = results
    regular = tmp_path / "file"
    regular.write_text("x")
    assert_one_line_error(crew("plot", out, "-o", regular / "plot.png"), "cannot write the plot")


def test_plot_with_no_decided_deal_exits_2(tmp_path):
    store = ResultStore(tmp_path)
    store.add([Record(Cell("planet-nine/1", 4), 1, i, "unknown", 10, 5.0, "kernel", "", "") for i in range(3)])
    store.close()
    assert_one_line_error(crew("plot", tmp_path), "nothing to plot")
    assert not (tmp_path / "winrates.png").exists()


def test_mission_lines_place_numbered_missions_at_their_number_and_named_ones_in_order():
    numbered = [cell("g/1", 3, 5, 5), cell("g/2", 3, 0, 4), cell("g/10", 4, 3, 0)]
    lines, ticks = mission_lines(numbered)
    assert {label: [x for x, _ in points] for label, points in lines.items()} == {"3 players": [1, 2], "4 players": [10]}
    assert ticks == {1: "1", 2: "2", 10: "10"}
    summaries = [cell("g/1", 3, 5, 5), cell("g/2", 3, 0, 4), cell("g/variant", 3, 1, 1), cell("g/10", 4, 3, 0),
                 cell("g/extra", 4, 2, 2)]
    lines, ticks = mission_lines(summaries)  # some names: one place per mission, in the sweep's order
    assert {label: [x for x, _ in points] for label, points in lines.items()} == {
        "3 players": [1, 2, 3], "4 players": [4, 5]}
    assert ticks == {1: "1", 2: "2", 3: "variant", 4: "10", 5: "extra"}
    lines, _ = mission_lines([cell("a/1", 3, 1, 1), cell("b/1", 3, 1, 1)])
    assert list(lines) == ["a, 3 players", "b, 3 players"]  # two games: lines apart
    totals = [cell(f"deep-sea/difficulty-{n}", 4, 1, 1) for n in (1, 10, 11, 2, 3)]  # a store's order
    _, ticks = mission_lines(totals)  # every name ends in a number: in its order
    assert list(ticks.values()) == ["difficulty-1", "difficulty-2", "difficulty-3", "difficulty-10", "difficulty-11"]


def test_space_lines_one_panel_per_mission_the_train_first(tmp_path):
    summaries = [cell(f"j/a{space}", p, 3, 1) for space in ("", "@skis", "@fog") for p in (3, 4)]
    summaries += [cell("j/b@fog", 3, 1, 1), cell("j/b", 3, 2, 0)]
    panels, spaces = space_lines(summaries)
    assert spaces == ["train", "skis", "fog"]
    assert list(panels) == ["j/a", "j/b"]
    assert {label: [x for x, _ in points] for label, points in panels["j/a"].items()} == {
        "3 players": [1, 2, 3], "4 players": [1, 2, 3]}
    assert [x for x, _ in panels["j/b"]["3 players"]] == [3, 1]
    plot_summaries(summaries, tmp_path / "spaces.png")
    plot_summaries([s for s in summaries if s.cell.subject == "j/a"], tmp_path / "one.png")
    (w1, h1), (w2, h2) = png_size(tmp_path / "one.png"), png_size(tmp_path / "spaces.png")
    assert w1 == w2 and h2 == 2 * h1  # a panel per mission
    tasks = [cell("tasks/8/dealt", 4, 5, 1), cell("tasks/8/dealt@skis", 4, 6, 0)]
    assert list(space_lines(tasks)[0]) == ["tasks/8/dealt"]  # an experiment on spaces: its own panel
    plot_summaries(tasks + summaries, tmp_path / "three.png")
    assert png_size(tmp_path / "three.png")[1] == 3 * h1


def test_more_missions_than_spaces_a_panel_per_space_the_missions_along_it():
    summaries = [cell(f"g/{n}@{space}", 4, n, 1) for space in ("fog", "jeep") for n in (1, 2, 3)]
    figure = sweep_figure(summaries)
    assert [axes.get_title() for axes in figure.axes] == [
        "The Crew: win rate per mission on the fog", "The Crew: win rate per mission on the jeep"]
    assert all(list(axes.lines[0].get_xdata()) == [1, 2, 3] for axes in figure.axes)  # at the missions' numbers
    fewer = sweep_figure([s for s in summaries if s.cell.subject == "g/1"])  # one mission on two spaces: its panel
    assert [axes.get_title() for axes in fewer.axes] == ["g/1: win rate per stage space"]


def test_special_missions_add_a_panel_of_mean_scores(tmp_path):
    scores = ((Score(3), 2), (Score(4, exact=False), 1), (Score(5), 1))
    scored = CellSummary(Cell("j/s", 3), 4, 4, 0, 0, 1.0, 2.0, scores)
    assert scored.mean_score == (3 + 3 + 4 + 5) / 4  # the deal left at >=4 counts 4
    assert cell("j/a", 3, 3, 1).mean_score is None
    plot_summaries([cell("j/a", 3, 3, 1), cell("j/a@skis", 3, 3, 1)], tmp_path / "one.png")
    spaces = [scored, replace(scored, cell=Cell("j/s@skis", 3)), cell("j/a", 3, 3, 1), cell("j/a@skis", 3, 3, 1)]
    plot_summaries(spaces, tmp_path / "spaces.png")
    plot_summaries([scored, cell("j/a", 3, 3, 1)], tmp_path / "missions.png")
    (w1, h1), (w2, h2), (w3, h3) = (png_size(tmp_path / name) for name in ("one.png", "spaces.png", "missions.png"))
    assert w1 == w2 == w3 and h2 == 3 * h1 and h3 == 2 * h1  # win rates, then the special mission's scores


def test_task_lines_one_line_per_owner_mode_and_player_count():
    summaries = [cell(f"tasks/{k}/{mode}", p, 3, k) for mode in ("draft", "dealt") for p in (3, 4) for k in (2, 5)]
    lines = task_lines(summaries)
    assert list(lines) == ["draft, 3 players", "draft, 4 players", "dealt, 3 players", "dealt, 4 players"]
    assert all([x for x, _ in points] == [2, 5] for points in lines.values())


def test_plot_summaries_skips_undecided_cells(tmp_path):
    summaries = [cell("g/1", 4, 3, 1), cell("g/2", 4, 0, 0, unknowns=3), cell("g/3", 4, 0, 5),
                 cell("tasks/4/dealt", 4, 0, 0, unknowns=2)]
    assert summaries[1].interval is None and summaries[3].interval is None
    plot_summaries(summaries, tmp_path / "one.png")
    plot_summaries(summaries[:3] + [cell("tasks/4/dealt", 4, 1, 2)], tmp_path / "two.png")
    (w1, h1), (w2, h2) = png_size(tmp_path / "one.png"), png_size(tmp_path / "two.png")
    assert w1 == w2 and h2 == 2 * h1  # the undecided task cell gave no panel
    with pytest.raises(InputError, match="nothing to plot"):
        plot_summaries([summaries[1], summaries[3]], tmp_path / "none.png")
    with pytest.raises(InputError, match=".png or .svg"):
        plot_summaries(summaries, tmp_path / "plot.jpg")


def test_plotting_needs_no_display_and_no_pyplot(tmp_path):
    script = textwrap.dedent(f"""\
        import sys
        from pathlib import Path
        from solver.experiments.plot import plot_summaries
        from solver.experiments.cell import Cell
        from solver.experiments.stats import CellSummary
        summary = CellSummary(Cell("planet-nine/1", 4), 10, 7, 3, 0, 1.0, 2.0)
        plot_summaries([summary], Path({str(tmp_path / 'p.svg')!r}))
        assert "matplotlib.pyplot" not in sys.modules
    """)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "MPLBACKEND": "TkAgg"}  # no DISPLAY; a GUI default
    done = subprocess.run([sys.executable, "-c", script], check=False, capture_output=True, text=True, env=env,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert ElementTree.parse(tmp_path / "p.svg").getroot().tag == SVG


def test_plot_cells_whose_interval_ends_at_their_rate(tmp_path):
    """10 wins of 10: Wilson's upper bound is 1 - 1e-16 in floating point, just below the rate."""
    summaries = [cell("g/1", 4, 10, 0), cell("g/2", 4, 0, 10), cell("g/3", 4, 13, 0), cell("g/4", 4, 25, 0)]
    plot_summaries(summaries, tmp_path / "edges.png")
    png_size(tmp_path / "edges.png")


def test_a_rate_axis_is_zoomed_to_the_data():
    # Near-100% panels were flat lines at the top of 0-100: the axis starts below the lowest interval bound.
    near = [cell("g/1", 4, 998, 2), cell("g/2", 4, 1000, 0)]
    low = min(100 * s.interval[0] for s in near)
    floor = rate_floor(near)
    assert 95 <= floor < low and floor == int(floor)
    bottom, top = sweep_figure(near).axes[0].get_ylim()
    assert floor - 1 < bottom < floor and 100 < top < 101
    assert rate_floor([cell("g/1", 4, 1, 9)]) == 0.0  # a wide spread keeps 0-100


def test_categories_are_not_joined_by_lines_and_long_labels_turn():
    spaces = [cell(f"journey/a{space}", p, 3, 1) for space in ("", "@skis", "@hang-glider@difficult-ghost")
              for p in (2, 3)]
    axes = sweep_figure(spaces).axes[0]
    assert axes.get_title() == "journey/a: win rate per stage space"
    assert {line.get_linestyle() for line in axes.get_lines() if len(line.get_xdata()) > 1} == {"None"}
    assert [label.get_rotation() for label in axes.get_xticklabels()] == [40.0] * 3
    numbered = sweep_figure([cell("planet-nine/1", 4, 3, 1), cell("planet-nine/2", 4, 2, 2)]).axes[0]
    assert "-" in {line.get_linestyle() for line in numbered.get_lines()}  # mission numbers: a line
    assert numbered.get_title() == "Planet Nine: win rate per mission"


def test_one_cell_gets_a_sane_panel():
    axes = sweep_figure([cell("journey/b", 3, 5, 5)]).axes[0]
    low, high = axes.get_xlim()
    assert high - low >= 2 and low < 1 < high  # the named mission in the middle, not at an edge
    assert axes.get_title() == "Journey: win rate per mission"


def test_a_published_sweep_plots_from_its_summary(tmp_path):
    # The results database is not in git: crew plot reads summary.json when it is absent, to the same figure.
    out = tmp_path / "published"
    crew("sweep", "--missions", "1-3", "--players", "3,4", "--deals", "3", "--jobs", "1", "--out", out)
    crew("plot", out, "-o", tmp_path / "from-db.png")
    (out / "results.db").rename(tmp_path / "elsewhere.db")
    for suffix in ("-wal", "-shm"):
        (out / f"results.db{suffix}").unlink(missing_ok=True)
    result = crew("plot", out, "-o", tmp_path / "from-summary.png")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "from-summary.png").read_bytes() == (tmp_path / "from-db.png").read_bytes()


def test_the_realistic_crew_adds_panels_of_both_rates_and_of_tasks_completed():
    from solver.experiments.stats import CrewSummary

    def crewed(name, players, wins, losses, crew_wins, tasks_done, tasks):
        games = wins + losses
        return replace(cell(name, players, wins, losses),
                       crew=CrewSummary(games, crew_wins, tasks_done, tasks, games - crew_wins, 0, 0, (), 0, 0, 0))

    missions = sweep_figure([crewed("planet-nine/1", 4, 10, 0, 8, 8, 10), crewed("planet-nine/2", 4, 9, 1, 5, 12, 20)])
    assert [axes.get_title() for axes in missions.axes] == [
        "Planet Nine: win rate per mission",
        "Planet Nine: win rate per mission, perfect information and the realistic crew"]
    both = missions.axes[1]
    assert [text.get_text() for text in both.get_legend().get_texts()] == [
        "4 players, perfect information", "4 players, realistic crew"]
    rates = {round(y, 6) for line in both.get_lines() if line.get_marker() == "o" for y in line.get_ydata()}
    assert rates == {100.0, 90.0, 80.0, 50.0}  # perfect information 10/10 and 9/10, the crew 8/10 and 5/10
    tasks = sweep_figure([crewed("tasks/1/dealt", 4, 10, 0, 9, 9, 10), crewed("tasks/5/dealt", 4, 8, 2, 3, 27, 50)])
    assert len(tasks.axes) == 3
    shares = tasks.axes[2]
    assert shares.get_title() == "Planet Nine, realistic crew: tasks completed before the mission ended"
    assert [round(y, 6) for y in shares.get_lines()[0].get_ydata()] == [90.0, 54.0]


def test_a_hundred_categories_label_every_fifth_and_the_named():
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots()
    ticks = {float(n): str(n) for n in range(1, 97)} | {97.0: "46-colour-only"}
    category_ticks(axes, ticks)
    labels = [label.get_text() for label in axes.get_xticklabels()]
    plt.close(figure)
    assert len(labels) == 97 and [label for label in labels if label][:4] == ["1", "5", "10", "15"]
    assert labels[-1] == "46-colour-only" and labels[1] == ""
