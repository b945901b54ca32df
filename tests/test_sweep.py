"""`crew sweep` and `crew report`: every option, the stored records, resume, bad input, kill -9 and Ctrl-C.

Most tests run the command in-process (CliRunner) on cheap cells (logbook
missions 1-4, a few deals, a tiny mission file); the kill -9 and Ctrl-C tests
run the installed `crew` script as a process group, as a terminal would.
A deal's stored identity is (mission, players, seed, deal index); its answer
is (result, setup, line): the node count is left out of comparisons, since a
worker's transposition table carries over from deal to deal.
"""

import csv
import io
import json
import math
import os
import shlex
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from contextlib import closing
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from cli.sweep import format_table
from solver import __version__
from solver.core.solution import BUDGET_UNIT, KERNEL_PLAYS_PER_SECOND
from solver.experiments.cell import Cell, task_cell
from solver.experiments.stats import (
    clopper_pearson_upper_at_zero,
    percent,
    percentile,
    summarize,
    wilson,
    win_interval,
)
from solver.experiments.sweep import Batch, dealt

CREW = Path(sys.executable).parent / "crew"  # cli/main.py has no `python -m` entry point

# A tiny mission file: mission 1 (one drafted task) is always won, `never` always lost
# (no trick may be won at all), both for 3 and 4 players only.
MISSION_FILE = textwrap.dedent("""\
    game = "testgame"

    [[mission]]
    number = 1
    tasks = 1
    players = [3, 4]

    [[mission]]
    name = "never"
    players = [3, 4]
    rules = [{ rule = "tricks", exactly = 0 }]
""")


def crew(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def sweep(out, *args):
    """Run `crew sweep --out OUT ARGS` in-process; it must succeed."""
    result = crew("sweep", "--out", out, *args)
    assert result.exit_code == 0, result.output
    return result


def assert_one_line_error(result, *words):
    """Exit 2, nothing on stdout, exactly one stderr line `crew: error: ...` naming the problem."""
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("crew: error: ")
    assert "Traceback" not in result.output
    for word in words:
        assert word in lines[0], f"{word!r} not in {lines[0]!r}"


def answers(out: Path) -> dict:
    """Return every stored deal: (mission, players, seed, index) -> (result, setup, line)."""
    with closing(sqlite3.connect(out / "results.db")) as db:
        rows = db.execute("SELECT mission, players, seed, deal_index, result, setup, line FROM deals").fetchall()
    return {row[:4]: row[4:] for row in rows}


def stored_rows(out: Path) -> list[tuple]:
    with closing(sqlite3.connect(out / "results.db")) as db:
        return db.execute("SELECT * FROM deals ORDER BY mission, players, seed, deal_index").fetchall()


def table_rows(text: str) -> list[list[str]]:
    """Return the rows of a printed table (without its header) as lists of words."""
    lines = text.strip().splitlines()
    assert lines[0].split()[:3] == ["mission", "players", "deals"]
    return [line.split() for line in lines[1:]]


def cells_of(text: str) -> list[tuple[str, int]]:
    return [(row[0], int(row[1])) for row in table_rows(text)]


@pytest.fixture
def mission_file(tmp_path) -> Path:
    path = tmp_path / "tiny.toml"
    path.write_text(MISSION_FILE)
    return path


# --- statistics ---------------------------------------------------------------------------


def test_wilson_interval_of_8_in_10():
    # By hand: p = 0.8, z^2/n = 0.38415, centre = (0.8 + 0.19207) / 1.38415 = 0.71674,
    # half = 1.95996 / 1.38415 * sqrt(0.016 + 0.0096036) = 0.22658.
    low, high = wilson(8, 10)
    assert low == pytest.approx(0.49016, abs=1e-5)
    assert high == pytest.approx(0.94332, abs=1e-5)


def test_wilson_interval_edges():
    low, high = wilson(5, 5)
    assert (round(low, 4), high) == (0.5655, 1.0)  # the table's 56.6 - 100.0
    assert wilson(0, 10)[0] == 0.0
    assert wilson(50, 100) == pytest.approx((0.40383, 0.59617), abs=1e-5)


def test_win_interval_contains_the_win_rate():
    """Every 95% interval holds its point estimate: at 10 wins of 10 Wilson's upper bound must be 1, not 1 - 1e-16."""
    outside = [(wins, n) for n in range(1, 61) for wins in range(n + 1)
               if not win_interval(wins, n)[0] <= wins / n <= win_interval(wins, n)[1]]
    assert outside == []


def test_clopper_pearson_upper_bound_with_no_win():
    assert clopper_pearson_upper_at_zero(10) == pytest.approx(1 - 0.025 ** 0.1)
    assert clopper_pearson_upper_at_zero(10) == pytest.approx(0.30850, abs=1e-5)
    assert clopper_pearson_upper_at_zero(1) == pytest.approx(0.975)
    assert clopper_pearson_upper_at_zero(100) == pytest.approx(0.03622, abs=1e-5)
    assert win_interval(0, 10) == (0.0, clopper_pearson_upper_at_zero(10))
    assert win_interval(8, 10) == wilson(8, 10)
    assert win_interval(0, 0) is None


def test_percentiles_and_cell_summary():
    assert percentile([1.0, 2.0, 3.0, 4.0], 0.5) == 2.5
    assert percentile([float(n) for n in range(101)], 0.99) == pytest.approx(99.0)
    assert percentile([7.0], 0.99) == 7.0
    assert math.isnan(percentile([], 0.5))
    s = summarize(Cell("planet-nine/1", 4), ["win", "loss", "unknown", "win"], [4.0, 1.0, 3.0, 2.0])
    assert (s.deals, s.wins, s.losses, s.unknowns) == (4, 2, 1, 1)
    assert s.rate == pytest.approx(2 / 3)  # unknowns are neither wins nor losses
    assert s.interval == wilson(2, 3)
    assert s.median_ms == 2.5
    assert summarize(Cell("planet-nine/1", 4), ["unknown"], [9.0]).rate is None


def test_table_numbers_on_a_known_case(tmp_path, mission_file):
    """10 wins of 10: Wilson 72.2 - 100.0; 0 wins of 10: 0.0 - 30.8 (Clopper-Pearson)."""
    out = tmp_path / "known"
    result = sweep(out, "--game", "testgame", "--mission-file", mission_file, "--players", "3,4", "--deals", "10",
                   "--jobs", "1")
    rows = {(row[0], int(row[1])): row for row in table_rows(result.stdout)}
    assert list(rows) == [("testgame/1", 3), ("testgame/1", 4), ("testgame/never", 3), ("testgame/never", 4)]
    for players in (3, 4):
        assert rows["testgame/1", players][2:10] == ["10", "10", "0", "0", "100.0", "72.2", "-", "100.0"]
        assert rows["testgame/never", players][2:10] == ["10", "0", "10", "0", "0.0", "0.0", "-", "30.8"]
    cells = json.loads((out / "summary.json").read_text())["cells"]
    never = next(c for c in cells if c["mission"] == "testgame/never")
    assert (never["win_rate"], never["low"], never["high"]) == (0.0, 0.0, 1 - 0.025 ** 0.1)
    won = next(c for c in cells if c["mission"] == "testgame/1")
    assert won["low"] == wilson(10, 10)[0] and won["high"] == 1.0  # the rate 1.0 is inside its interval


@pytest.mark.parametrize("share, text", [
    (1.0, "100.0"), (0.0, "0.0"), (0.5, "50.0"), (0.9996, "99.96"), (19_323 / 19_325, "99.99"),
    (0.999996, "99.9996"), (1 - 1e-7, ">99.9999"), (0.00004, "0.004"), (1e-7, "<0.0001"),
])
def test_a_percentage_never_hides_a_loss_or_a_win(share, text):
    assert percent(share) == text


def test_the_table_shows_two_losses_among_19_325_deals():
    # 19,323 wins and 2 losses printed as 100.0 with the interval 100.0 - 100.0.
    summary = summarize(Cell("planet-nine/1", 4), ["win"] * 19_323 + ["loss"] * 2, [1.0] * 19_325)
    row = table_rows(format_table([summary]))[0]
    assert row[6:10] == ["99.99", "99.96", "-", "99.997"]


# --- the options --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "missions, expected",
    [("1-3", [1, 2, 3]), ("4,2", [2, 4]), ("1-2,4", [1, 2, 4]), ("3", [3]), ("2,1-2", [1, 2])],
)
def test_missions_as_ranges_and_lists(tmp_path, missions, expected):
    # Rows come in mission order, as `crew report` prints them, whatever the order asked.
    result = sweep(tmp_path / "m", "--missions", missions, "--deals", "2", "--jobs", "1")
    assert cells_of(result.stdout) == [(f"planet-nine/{n}", 4) for n in expected]


def test_defaults_and_named_missions(tmp_path, mission_file):
    result = sweep(tmp_path / "a", "--missions", "1", "--deals", "1", "--jobs", "1")
    assert cells_of(result.stdout) == [("planet-nine/1", 4)]  # 4 players by default
    assert list(answers(tmp_path / "a")) == [("planet-nine/1", 4, 1, 0)]  # seed 1 by default
    result = sweep(tmp_path / "b", "--game", "testgame", "--mission-file", mission_file, "--missions", "never,1",
                   "--deals", "2", "--jobs", "1")
    assert cells_of(result.stdout) == [("testgame/1", 4), ("testgame/never", 4)]  # numbers first, then names


def test_mission_file_default_is_all_its_missions(tmp_path, mission_file):
    result = sweep(tmp_path / "f", "--game", "testgame", "--mission-file", mission_file, "--deals", "2", "--jobs", "1")
    assert cells_of(result.stdout) == [("testgame/1", 4), ("testgame/never", 4)]


def test_a_mission_file_names_its_game(tmp_path, mission_file):
    # `crew sweep --mission-file F` plays the game F names, as `crew solve` does, without --game.
    result = sweep(tmp_path / "g", "--mission-file", mission_file, "--deals", "2", "--jobs", "1")
    assert cells_of(result.stdout) == [("testgame/1", 4), ("testgame/never", 4)]
    other = crew("sweep", "--out", tmp_path / "o", "--game", "journey", "--mission-file", mission_file, "--deals", "1")
    assert_one_line_error(other, "no missions for game 'journey'")


def test_player_counts_a_mission_is_not_for_are_named(tmp_path):
    # A mission declaring `players = [4]`, swept with --players 3,4, leaves out its 3-player cell and says so.
    path = tmp_path / "four.toml"
    path.write_text('game = "testgame"\n\n[[mission]]\nname = "four"\ntasks = 1\nplayers = [4]\n\n'
                    '[[mission]]\nname = "any"\ntasks = 1\n')
    result = sweep(tmp_path / "n", "--mission-file", path, "--players", "3,4", "--deals", "1", "--jobs", "1")
    assert cells_of(result.stdout) == [("testgame/any", 3), ("testgame/any", 4), ("testgame/four", 4)]
    notes = [line for line in result.stderr.splitlines() if line.startswith("crew: note: ")]
    assert notes == ["crew: note: left out, as not for these player counts: testgame/four at 3"]


def test_players(tmp_path):
    result = sweep(tmp_path / "p", "--missions", "1-2", "--players", "3,5", "--deals", "2", "--jobs", "1")
    assert cells_of(result.stdout) == [("planet-nine/1", 3), ("planet-nine/1", 5), ("planet-nine/2", 3),
                                       ("planet-nine/2", 5)]
    result = sweep(tmp_path / "q", "--missions", "1", "--players", "3-5", "--deals", "1", "--jobs", "1")
    assert cells_of(result.stdout) == [("planet-nine/1", 3), ("planet-nine/1", 4), ("planet-nine/1", 5)]


@pytest.mark.parametrize("owners", ["draft", "dealt", "draft,dealt"])
def test_tasks_with_owner_modes(tmp_path, owners):
    result = sweep(tmp_path / "t", "--tasks", "1-2,4", "--owners", owners, "--deals", "3", "--jobs", "1")
    modes = owners.split(",")
    assert sorted(cells_of(result.stdout)) == sorted((f"tasks/{k}/{mode}", 4) for mode in modes for k in (1, 2, 4))
    assert {row[2] for row in table_rows(result.stdout)} == {"3"}


def test_tasks_default_owner_mode_is_draft(tmp_path):
    result = sweep(tmp_path / "t", "--tasks", "3", "--players", "3,5", "--deals", "2", "--jobs", "1")
    assert sorted(cells_of(result.stdout)) == [("tasks/3/draft", 3), ("tasks/3/draft", 5)]


def test_deals_and_seed_are_stored(tmp_path):
    out = tmp_path / "d"
    sweep(out, "--missions", "1-2", "--deals", "4", "--seed", "77", "--jobs", "1")
    keys = answers(out)
    assert sorted(keys) == sorted(("planet-nine/" + m, 4, 77, i) for m in "12" for i in range(4))
    assert {result for result, _, _ in keys.values()} <= {"win", "loss"}


@pytest.mark.parametrize("output_format", ["table", "csv", "json"])
def test_formats_keep_progress_off_stdout(tmp_path, output_format):
    out = tmp_path / output_format
    args = ["--missions", "1-3", "--players", "3,4", "--deals", "3", "--jobs", "1", "--batch", "1"]
    result = sweep(out, *args, "--format", output_format)
    assert "sweep:" not in result.stdout and "deals/s" not in result.stdout and "ETA" not in result.stdout
    assert "deals/s" in result.stderr and "cells 6 / 6 complete" in result.stderr and "took" in result.stderr
    assert "\r" not in result.stderr  # stderr is no terminal here: plain lines
    assert f"results: {out}" in result.stderr
    expected = [(f"planet-nine/{m}", p) for m in (1, 2, 3) for p in (3, 4)]
    if output_format == "table":
        assert cells_of(result.stdout) == expected
    elif output_format == "csv":
        rows = list(csv.DictReader(io.StringIO(result.stdout)))
        assert [(row["mission"], int(row["players"])) for row in rows] == expected
        assert list(rows[0]) == ["mission", "players", "deals", "wins", "losses", "unknowns", "win_rate", "low",
                                 "high", "median_ms", "p99_ms"]
        assert all(int(row["deals"]) == 3 for row in rows)
    else:
        rows = json.loads(result.stdout)
        assert [(row["mission"], row["players"]) for row in rows] == expected
        for row in rows:
            assert row["deals"] == row["wins"] + row["losses"] + row["unknowns"] == 3
            assert row["low"] <= row["win_rate"] <= row["high"]


def test_budget_leaves_a_hard_deal_unknown(tmp_path):
    """Deal 6 of mission 12 with two players and the difficult Ghost (seed 1) takes more than 5,000 card plays, the
    other nine under 1,000: with 0.001 s of work (5,000 plays) the kernel's first turn spends it all, CP-SAT gets
    none, and the deal is UNKNOWN after exactly those plays. (CP-SAT models the Ghost's random pass, the difficult
    Ghost's too, since this test moved here; with 0.1 s it proves the deal lost, and no sweep cell is left whose
    deals only the kernel answers but the five-player special stages' redeal, where none takes it 100,000 plays.)"""
    out = tmp_path / "budget"
    result = sweep(out, "--missions", "12", "--players", "2", "--difficult-ghost", "--deals", "10", "--budget", "0.001",
                   "--jobs", "1", "--format", "json")
    (row,) = json.loads(result.stdout)
    assert (row["deals"], row["wins"], row["losses"], row["unknowns"]) == (10, 9, 0, 1)
    assert row["win_rate"] == 1.0  # unknowns count neither way
    assert (row["low"], row["high"]) == wilson(9, 9)
    with closing(sqlite3.connect(out / "results.db")) as db:
        unknown = db.execute("SELECT deal_index, nodes FROM deals WHERE result = 'unknown' ORDER BY deal_index").fetchall()
        settings = dict(db.execute("SELECT name, value FROM settings"))
    assert unknown == [(6, 0.001 * KERNEL_PLAYS_PER_SECOND)]
    assert (settings["budget"], settings["budget_unit"]) == ("0.001", json.dumps(BUDGET_UNIT))
    assert json.loads((out / "summary.json").read_text())["budget_seconds"] == 0.001


def test_default_out_directory_is_named_after_the_options(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = crew("sweep", "--missions", "1-2", "--players", "3", "--deals", "1", "--seed", "5", "--jobs", "1")
    assert result.exit_code == 0, result.output
    out = Path("sweeps") / "planet-nine-1-2-p3-seed5"
    assert (tmp_path / out / "results.db").is_file()
    assert f"results: {out}" in result.stderr
    result = crew("sweep", "--tasks", "1,3", "--owners", "draft,dealt", "--deals", "1", "--jobs", "1")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "sweeps" / "tasks-1_3-draft_dealt-p4-seed1" / "results.db").is_file()


def test_jobs_and_batch_do_not_change_the_records(tmp_path):
    args = ["--missions", "1-4", "--players", "3,4", "--deals", "4", "--seed", "9"]
    sweep(tmp_path / "serial", *args, "--jobs", "1", "--batch", "25")
    sweep(tmp_path / "pool", *args, "--jobs", "2", "--batch", "1")
    sweep(tmp_path / "pool3", *args, "--jobs", "2", "--batch", "3")
    serial = answers(tmp_path / "serial")
    assert len(serial) == 4 * 2 * 4
    assert answers(tmp_path / "pool") == serial
    assert answers(tmp_path / "pool3") == serial


def test_scheduler_gives_the_same_records(tmp_path):
    """--scheduler: the batches run on a Dask cluster (a one-worker local cluster here)."""
    script = textwrap.dedent("""\
        import sys
        from click.testing import CliRunner
        from distributed import LocalCluster
        from cli.main import main

        if __name__ == "__main__":
            with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
                args = sys.argv[1:] + ["--scheduler", cluster.scheduler_address]
                result = CliRunner().invoke(main, args)
            print(result.stdout, end="")
            sys.exit(result.exit_code)
    """)
    args = ["sweep", "--missions", "1-2", "--deals", "3", "--format", "csv"]
    done = subprocess.run([sys.executable, "-c", script, *args, "--out", str(tmp_path / "dask")],
                          check=False, capture_output=True, text=True, timeout=120, cwd=Path(__file__).parent.parent)
    assert done.returncode == 0, done.stderr[-2000:]
    local = sweep(tmp_path / "local", *args[1:], "--jobs", "1")
    assert answers(tmp_path / "dask") == answers(tmp_path / "local")
    assert [row.split(",")[:9] for row in done.stdout.splitlines()] == [
        row.split(",")[:9] for row in local.stdout.splitlines()
    ]


# --- reproducibility ----------------------------------------------------------------------


def test_same_seed_same_deals_other_seed_other_deals(tmp_path):
    args = ["--missions", "1-3", "--players", "3,5", "--deals", "4", "--jobs", "1"]
    sweep(tmp_path / "a", *args, "--seed", "3")
    sweep(tmp_path / "b", *args, "--seed", "3")
    sweep(tmp_path / "c", *args, "--seed", "4")
    a, b, c = answers(tmp_path / "a"), answers(tmp_path / "b"), answers(tmp_path / "c")
    assert a == b
    lines_a = [answer[2] for _, answer in sorted(a.items())]
    lines_c = [answer[2] for _, answer in sorted(c.items())]
    assert sum(x != y for x, y in zip(lines_a, lines_c)) >= len(lines_a) // 2  # other deals, other lines


def test_dealt_and_draft_cells_see_the_same_deals(tmp_path):
    for index in range(5):
        draft, blind = (dealt(Batch(task_cell(8, mode, 4), None, 1, (index,), None), index) for mode in ("draft", "dealt"))
        (draft_setup,), (blind_setup,) = draft.setups(), blind.setups()
        assert draft.deal == blind.deal  # the same hands and Commander
        assert draft_setup.mission.cards == blind_setup.mission.cards  # the same task cards
        assert draft_setup.mission.owners is None and len(set(blind_setup.mission.owners)) == 4
    out = tmp_path / "paired"
    sweep(out, "--tasks", "8", "--owners", "dealt,draft", "--deals", "8", "--jobs", "1")
    stored = answers(out)
    blindly = {key[3]: answer[0] for key, answer in stored.items() if key[0] == "tasks/8/dealt"}
    draft = {key[3]: answer[0] for key, answer in stored.items() if key[0] == "tasks/8/draft"}
    assert sorted(blindly) == sorted(draft) == list(range(8))
    assert "loss" in blindly.values()  # blind owners lose some deals the draft wins
    for index, result in blindly.items():
        if result == "win":
            assert draft[index] == "win", f"deal {index}: dealt owners win, the draft does not"


# --- resume, report, summary files --------------------------------------------------------


def test_resume_adds_the_missing_deals_only(tmp_path):
    out = tmp_path / "resume"
    args = ["--missions", "1-2", "--players", "3,4", "--jobs", "1", "--batch", "2"]
    sweep(out, *args, "--deals", "5")
    first = stored_rows(out)
    assert len(first) == 4 * 5
    result = sweep(out, *args, "--deals", "10")
    assert "/ 20 deals" in result.stderr  # 5 new deals in each of the 4 cells, nothing redone
    assert {row[2] for row in table_rows(result.stdout)} == {"10"}
    rows = stored_rows(out)
    assert len(rows) == 4 * 10
    with closing(sqlite3.connect(out / "results.db")) as db:
        counts = db.execute("SELECT mission, players, COUNT(*), COUNT(DISTINCT deal_index), MIN(deal_index), "
                            "MAX(deal_index) FROM deals GROUP BY mission, players").fetchall()
    assert sorted(counts) == [(f"planet-nine/{m}", p, 10, 10, 0, 9) for m in (1, 2) for p in (3, 4)]
    assert [row for row in rows if row[3] < 5] == first  # the first run's rows are kept as they were
    again = sweep(out, *args, "--deals", "10")
    assert "deals/s" not in again.stderr  # nothing left to do
    assert again.stdout == result.stdout
    assert stored_rows(out) == rows


def test_report_reprints_the_sweep_table(tmp_path):
    out = tmp_path / "report"
    printed = {}
    for output_format in ("table", "csv", "json"):
        printed[output_format] = sweep(out, "--missions", "1-3", "--players", "3,4", "--deals", "3", "--jobs", "1",
                                       "--format", output_format).stdout
    for output_format, text in printed.items():
        args = ["report", out] + (["--format", output_format] if output_format != "table" else [])
        result = crew(*args)
        assert result.exit_code == 0, result.output
        assert result.stdout == text
        assert result.stderr == ""


def test_report_keeps_the_row_order_of_a_task_experiment(tmp_path):
    """The issue's own experiment (`--tasks K --owners draft,dealt`) over two player counts."""
    out = tmp_path / "tasks"
    printed = sweep(out, "--tasks", "1-2", "--owners", "draft,dealt", "--players", "3,4", "--deals", "2",
                    "--jobs", "1").stdout
    result = crew("report", out)
    assert result.exit_code == 0, result.output
    assert result.stdout == printed


def test_owner_modes_listed_twice_count_once(tmp_path):
    out = tmp_path / "twice"
    result = sweep(out, "--tasks", "2", "--owners", "draft,draft", "--deals", "3", "--jobs", "1")
    assert cells_of(result.stdout) == [("tasks/2/draft", 4)]
    assert "/ 3 deals" in result.stderr  # each deal solved once


def test_summary_files(tmp_path, monkeypatch):
    out = tmp_path / "summary"
    args = ["sweep", "--missions", "1-2", "--players", "3,4", "--deals", "3", "--seed", "42", "--budget", "7.5",
            "--jobs", "1", "--out", str(out), "--format", "csv"]
    monkeypatch.setattr(sys, "argv", [str(CREW), *args])  # as the console script sees its command line
    result = crew(*args)
    assert result.exit_code == 0, result.output
    assert (out / "summary.csv").read_text() == result.stdout
    summary = json.loads((out / "summary.json").read_text())
    assert summary["command"] == "crew " + " ".join(args)
    assert (summary["seed"], summary["deals"], summary["budget_seconds"], summary["complete"]) == (42, 3, 7.5, True)
    assert set(summary["versions"]) >= {"crew-solver", "python", "numba", "numpy", "ortools", "platform"}
    assert summary["versions"]["crew-solver"] == __version__
    assert summary["versions"]["python"] == ".".join(map(str, sys.version_info[:3]))
    csv_rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [(c["mission"], c["players"], c["deals"]) for c in summary["cells"]] == [
        (row["mission"], int(row["players"]), int(row["deals"])) for row in csv_rows
    ]


def test_summary_command_line_is_exact_with_spaces(tmp_path, monkeypatch):
    """The recorded command must run again as it is: an --out with a space needs quoting."""
    out = tmp_path / "my results"
    args = ["sweep", "--missions", "1", "--deals", "1", "--jobs", "1", "--out", str(out)]
    monkeypatch.setattr(sys, "argv", [str(CREW), *args])
    assert crew(*args).exit_code == 0
    command = json.loads((out / "summary.json").read_text())["command"]
    assert shlex.split(command) == ["crew", *args]


# --- bad input ----------------------------------------------------------------------------


BAD_INPUT = [
    (["--missions", "51"], "unknown mission planet-nine/51"),
    (["--missions", "nope"], "unknown mission"),
    (["--missions", "0"], "--missions"),
    (["--game", "nope"], "no missions for game"),
    (["--players", "7"], "--players"),
    (["--players", "1"], "--players"),
    (["--difficult-ghost"], "--difficult-ghost"),
    (["--players", "four"], "--players"),
    (["--deals", "0"], "--deals"),
    (["--deals", "-3"], "--deals"),
    (["--tasks", "3", "--owners", "bogus"], "--owners"),
    (["--tasks", "3", "--owners", "draft,bogus"], "--owners"),
    (["--tasks", "0"], "--tasks"),
    (["--owners", "dealt"], "--owners goes with --tasks"),
    (["--tasks", "3", "--missions", "1-3"], "leave out --missions"),
    (["--tasks", "40"], "--tasks"),
    (["--tasks", "1-40"], "--tasks"),
    (["--tasks", "x"], "--tasks"),
    (["--jobs", "0"], "--jobs"),
    (["--batch", "0"], "--batch"),
    (["--budget", "0"], "--budget"),
    (["--budget", "-1"], "--budget"),
    (["--budget", "inf"], "a budget is a finite number of seconds, got inf"),  # a worker failed on it: OverflowError
    (["--seed", "-1"], "--seed"),
    (["--format", "xml"], "--format"),
    (["--mission-file", "missing.toml"], "missing.toml"),
    (["--bogus-option"], "--bogus-option"),
]


@pytest.mark.parametrize("args, words", BAD_INPUT, ids=[" ".join(a) for a, _ in BAD_INPUT])
def test_bad_input_exits_2_with_one_line(tmp_path, args, words):
    out = tmp_path / "never-made"
    result = crew("sweep", "--out", out, "--deals", "1", "--jobs", "1", *args)
    assert_one_line_error(result, words)
    assert not out.exists()  # refused before anything is written


def test_no_mission_for_the_player_count(tmp_path, mission_file):
    result = crew("sweep", "--game", "testgame", "--mission-file", mission_file, "--players", "5",
                  "--out", tmp_path / "x")
    assert_one_line_error(result, "5 players")


def test_bad_mission_file_exits_2(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "testgame"\n\n[[mission]]\nnumber = 1\ntasks = "many"\n')
    result = crew("sweep", "--game", "testgame", "--mission-file", bad, "--out", tmp_path / "x")
    assert_one_line_error(result, "tasks")


def test_unwritable_out_exits_2(tmp_path):
    regular = tmp_path / "file"
    regular.write_text("not a directory\n")
    for out in (regular / "sub", regular):
        result = crew("sweep", "--missions", "1", "--deals", "1", "--out", out)
        assert_one_line_error(result, "cannot write results", str(out))
    assert regular.read_text() == "not a directory\n"


@pytest.mark.parametrize("option, first, second", [("--budget", "10", "5"), ("--seed", "1", "2")])
def test_other_settings_on_an_existing_out_are_refused(tmp_path, option, first, second):
    out = tmp_path / "settings"
    args = ["--missions", "1", "--deals", "2", "--jobs", "1"]
    sweep(out, *args, option, first)
    before = stored_rows(out)
    result = crew("sweep", "--out", out, *args, option, second)
    assert_one_line_error(result, option.lstrip("-"), str(out))
    assert stored_rows(out) == before
    sweep(out, *args, option, first)  # the same setting is still welcome


@pytest.mark.parametrize("other, named", [
    (["--missions", "1,3", "--players", "3"], "planet-nine/2 3p"),  # holds mission 2, not asked for
    (["--missions", "1-2", "--players", "3,4"], "planet-nine/1 4p"),  # lacks the 4-player cells
    (["--missions", "1-2", "--players", "3", "--space", "skis"], "planet-nine/1"),
])
def test_an_out_holds_one_sweep_and_refuses_other_cells(tmp_path, other, named):
    # The database merged runs of other cells while summary.json kept only the last, so `crew report`
    # and the summary disagreed: a directory holds one sweep, and its summary and report are the same.
    out = tmp_path / "one"
    args = ["--deals", "2", "--jobs", "1"]
    sweep(out, "--missions", "1-2", "--players", "3", *args)
    before = stored_rows(out)
    result = crew("sweep", "--out", out, *other, *args)
    assert_one_line_error(result, "holds another sweep", named, "another --out")
    assert stored_rows(out) == before
    report = json.loads(crew("report", out, "--format", "json").stdout)
    assert report == json.loads((out / "summary.json").read_text())["cells"]


def test_a_database_from_before_the_sweep_definition_is_checked_by_its_cells(tmp_path):
    out = tmp_path / "old"
    sweep(out, "--missions", "1-2", "--players", "3", "--deals", "2", "--jobs", "1")
    with closing(sqlite3.connect(out / "results.db")) as db, db:
        db.execute("DELETE FROM settings WHERE name IN ('cells', 'deals')")
    assert_one_line_error(crew("sweep", "--out", out, "--missions", "1", "--players", "3", "--deals", "2"),
                          "holds another sweep", "planet-nine/2 3p")
    sweep(out, "--missions", "1-2", "--players", "3", "--deals", "3", "--jobs", "1")  # the same cells: resumed


def test_fewer_deals_than_an_out_holds_are_refused(tmp_path):
    out = tmp_path / "deals"
    args = ["--missions", "1", "--players", "3", "--jobs", "1"]
    sweep(out, *args, "--deals", "4")
    assert_one_line_error(crew("sweep", "--out", out, *args, "--deals", "3"), "holds 4 deals a cell", "--deals 3")
    sweep(out, *args, "--deals", "5")  # more: the sweep grows
    assert_one_line_error(crew("sweep", "--out", out, *args, "--deals", "4"), "holds 5 deals a cell")


def test_report_without_results_exits_2(tmp_path):
    assert_one_line_error(crew("report", tmp_path), "no sweep results")
    assert_one_line_error(crew("report", tmp_path / "missing"), "no sweep results")
    assert not (tmp_path / "missing").exists()


def test_report_of_a_corrupt_database_says_it_cannot_read_it(tmp_path):
    (tmp_path / "results.db").write_bytes(b"not a database, " * 400)
    assert_one_line_error(crew("report", tmp_path), "cannot read", "results.db", "not a database")


# --- kill -9 and Ctrl-C -------------------------------------------------------------------

# About 300 deals, all decided well within the budget; a few seconds at --jobs 2.
# 600 deals, about 4 s on both cores: long enough for a signal to land mid-run on a loaded machine (300 deals, 2 s,
# once finished before a loaded machine let the test's poll see 40 stored)
PROCESS_SWEEP = ["sweep", "--missions", "1-50", "--players", "4", "--deals", "12", "--jobs", "2", "--batch", "5"]
PROCESS_DEALS = 50 * 12


def stored_count(out: Path) -> int:
    try:
        with closing(sqlite3.connect(f"file:{out / 'results.db'}?mode=ro", uri=True, timeout=1)) as db:
            return db.execute("SELECT COUNT(*) FROM deals").fetchone()[0]
    except sqlite3.Error:  # not created yet
        return 0


def run_crew(out: Path, *extra) -> subprocess.CompletedProcess:
    command = [str(CREW), *PROCESS_SWEEP, "--out", str(out), *extra]
    return subprocess.run(command, check=False, capture_output=True, text=True, timeout=300)


def interruptible() -> None:
    """Give the process about to start Ctrl-C's default action: a job a shell starts in the background (`make test
    &`) starts with SIGINT ignored, Python leaves it so, and the sweep ran to its end (exit 0, 600 / 600 deals)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_and_signal(out: Path, sig: int, rows: int = 40) -> tuple[subprocess.Popen, int]:
    """Start the sweep as its own process group, wait until `rows` deals are stored, signal the group."""
    process = subprocess.Popen([str(CREW), *PROCESS_SWEEP, "--out", str(out)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True, preexec_fn=interruptible)
    deadline = time.monotonic() + 120
    while stored_count(out) < rows:
        assert process.poll() is None, "the sweep ended before it could be interrupted"
        assert time.monotonic() < deadline, "no results stored in time"
        time.sleep(0.02)
    os.killpg(process.pid, sig)  # the parent and its workers, as a terminal signals its foreground group
    return process, stored_count(out)


def per_cell_counts(out: Path) -> list[tuple]:
    with closing(sqlite3.connect(out / "results.db")) as db:
        return db.execute("SELECT mission, players, COUNT(*), COUNT(DISTINCT deal_index), SUM(result = 'win'), "
                          "SUM(result = 'loss'), SUM(result = 'unknown') FROM deals GROUP BY mission, players "
                          "ORDER BY mission, players").fetchall()


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("uninterrupted")
    done = run_crew(out)
    assert done.returncode == 0, done.stderr
    assert stored_count(out) == PROCESS_DEALS
    return out


def test_kill_9_then_resume_equals_an_uninterrupted_run(tmp_path, uninterrupted):
    out = tmp_path / "killed"
    process, _ = start_and_signal(out, signal.SIGKILL)
    process.communicate(timeout=60)
    assert process.returncode == -signal.SIGKILL
    assert 0 < stored_count(out) < PROCESS_DEALS, "the kill did not land mid-run"
    assert not (out / "summary.json").exists()
    resumed = run_crew(out)
    assert resumed.returncode == 0, resumed.stderr
    assert per_cell_counts(out) == per_cell_counts(uninterrupted)
    assert answers(out) == answers(uninterrupted)
    summary = json.loads((out / "summary.json").read_text())
    reference = json.loads((uninterrupted / "summary.json").read_text())
    strip = [{k: v for k, v in cell.items() if not k.endswith("_ms")} for cell in summary["cells"]]
    assert strip == [{k: v for k, v in cell.items() if not k.endswith("_ms")} for cell in reference["cells"]]
    assert summary["complete"] is True


def children_of(pid: int) -> list[int]:
    """Return the processes whose parent is `pid` (Linux: /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # ended meanwhile
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_kill_9_of_the_sweep_alone_ends_its_workers(tmp_path):
    # kill -9 of the parent only (not its process group, as a terminal would): its workers die with it
    # (solver/experiments/runner.py, `die_with`) instead of solving on as orphans.
    process = subprocess.Popen([str(CREW), *PROCESS_SWEEP, "--out", str(tmp_path / "out")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 120
    while stored_count(tmp_path / "out") < 20 or len(workers := children_of(process.pid)) < 2:
        assert process.poll() is None and time.monotonic() < deadline, "the sweep ended before it could be killed"
        time.sleep(0.02)
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=30)
    deadline = time.monotonic() + 20
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [pid for pid in workers if alive(pid)] == []


CP_SAT_SOLVES = {
    "trick": "from solver.core.cards import parse_card_list\n"
             "from solver.core.deal import parse_deal\n"
             "from solver.engines.cpsat import solve\n"
             "from solver.missions.tasks import make_task_mission\n"
             "deal = parse_deal('b1 g3 | b2 g4 | b3 g5', 0)\n"
             "solve(deal, make_task_mission(deal, parse_card_list('b3'), owners=[2]))\n",
    "family": "sys.path.insert(0, 'tests')\n"
              "from family_cases import random_case\n"
              "from solver.family.model import cpsat_solve\n"
              "cpsat_solve(*random_case(1, 0))\n",
}


@pytest.mark.parametrize("game", sorted(CP_SAT_SOLVES))
def test_a_worker_still_ignores_ctrl_c_after_a_cp_sat_solve(game):
    # A sweep's workers ignore SIGINT (the main process stops the sweep); CP-SAT's own Ctrl-C handler used to
    # leave SIGINT at its default after a solve, so the next Ctrl-C killed the worker: "a worker failed".
    script = ("import os, signal, sys\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n" + CP_SAT_SOLVES[game]
              + "os.kill(os.getpid(), signal.SIGINT)\nprint('still here')\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).resolve().parent.parent)
    assert (done.returncode, done.stdout) == (0, "still here\n"), done.stderr


@pytest.fixture(scope="module")
def interrupted(tmp_path_factory):
    """A sweep stopped by Ctrl-C (SIGINT to its process group), then run again to the end."""
    out = tmp_path_factory.mktemp("interrupted")
    process, at_signal = start_and_signal(out, signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    partial_summary = (out / "summary.json").read_text() if (out / "summary.json").exists() else None
    stored_then = stored_count(out)
    rerun = run_crew(out)
    return {"out": out, "code": process.returncode, "stdout": stdout, "stderr": stderr, "stored": stored_then,
            "at_signal": at_signal, "summary": partial_summary, "rerun": rerun}


def test_ctrl_c_prints_the_partial_table_and_exits_130(interrupted):
    assert interrupted["code"] == 130, interrupted["stderr"]
    assert "Traceback" not in interrupted["stderr"] and "KeyboardInterrupt" not in interrupted["stderr"]
    assert "interrupted" in interrupted["stderr"].splitlines()[-1]
    assert interrupted["at_signal"] <= interrupted["stored"] < PROCESS_DEALS
    rows = table_rows(interrupted["stdout"])
    assert len(rows) == 50
    assert sum(int(row[2]) for row in rows) == interrupted["stored"]  # the table counts what is stored
    assert json.loads(interrupted["summary"], parse_constant=float)["complete"] is False


def test_ctrl_c_then_rerun_equals_an_uninterrupted_run(interrupted, uninterrupted):
    rerun = interrupted["rerun"]
    assert rerun.returncode == 0, rerun.stderr
    assert f"/ {PROCESS_DEALS - interrupted['stored']} deals" in rerun.stderr  # only the missing deals
    assert per_cell_counts(interrupted["out"]) == per_cell_counts(uninterrupted)
    assert answers(interrupted["out"]) == answers(uninterrupted)
    assert json.loads((interrupted["out"] / "summary.json").read_text())["complete"] is True


def test_interrupted_summary_is_strict_json(interrupted):
    """Cells with no deal yet have no median: summary.json must still be JSON (null, not NaN)."""

    def refuse(constant):
        raise ValueError(f"{constant} is not JSON")

    summary = json.loads(interrupted["summary"], parse_constant=refuse)
    assert summary["complete"] is False
