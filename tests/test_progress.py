"""The status line of long commands (cli/status.py) and a sweep's progress (cli/sweep.py's Progress):
in place on a terminal, plain lines elsewhere, an ETA only once it means something, cells completed."""

from types import SimpleNamespace

import click
import pytest
from click.testing import CliRunner

from cli.status import INTERVAL, PLAIN_INTERVAL, StatusLine
from cli.sweep import Progress
from solver.experiments.cell import Cell


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def captured(run) -> str:
    """Return what `run()` writes to stderr."""
    runner = CliRunner()

    @click.command()
    def command():
        run()

    return runner.invoke(command, []).stderr


@pytest.mark.parametrize("terminal", [True, False])
def test_lines_in_place_on_a_terminal_and_plain_elsewhere(terminal):
    clock = Clock()

    def run():
        status = StatusLine(terminal, clock)
        for step in range(40):
            clock.now = step * 1.0
            status.show(f"step {step}")
        status.show("last", force=True)
        status.finish()

    text = captured(run)
    if terminal:
        assert "\n" not in text.rstrip("\n") and text.count("\r") == 40  # every second, in place, then ended
        assert text.endswith("\rlast\n")  # (click drops the clear-to-end-of-line code off a terminal)
    else:
        assert "\r" not in text
        assert text.splitlines() == ["step 10", "step 20", "step 30", "last"]  # every PLAIN_INTERVAL seconds
    assert INTERVAL < 1.0 < PLAIN_INTERVAL == 10.0


def records(cell: Cell, count: int) -> list:
    return [SimpleNamespace(cell=cell)] * count


def test_a_sweep_s_progress_names_cells_and_waits_for_its_eta():
    clock, lines = Clock(), []
    one, two = Cell("planet-nine/1", 4), Cell("planet-nine/2", 4)
    progress = Progress(200, {one: 100, two: 100}, terminal=False, clock=clock)
    progress.show = lambda text, force=False: lines.append(text)
    clock.now = 1.0
    progress(records(one, 10))  # 10 deals after 1 s: too few, too soon for an ETA
    clock.now = 6.0
    progress(records(one, 90))  # 100 deals after 6 s: cell one is complete, the ETA is the rest at this rate
    clock.now = 12.0
    progress(records(two, 100))
    assert lines == [
        "sweep: 10 / 200 deals, cells 0 / 2 complete, 10.0 deals/s, ETA after 20 deals",
        "sweep: 100 / 200 deals, cells 1 / 2 complete, 16.7 deals/s, ETA 0m06s",
        "sweep: 200 / 200 deals, cells 2 / 2 complete, 16.7 deals/s, took 0m12s",
    ]


def test_a_terminal_gets_a_bar():
    clock, lines = Clock(), []
    progress = Progress(40, {Cell("planet-nine/1", 4): 40}, terminal=True, clock=clock)
    progress.show = lambda text, force=False: lines.append(text)
    clock.now = 2.0
    progress(records(Cell("planet-nine/1", 4), 10))
    assert lines == ["sweep: [#####...............] 10 / 40 deals, cells 0 / 1 complete, 5.0 deals/s, "
                     "ETA after 20 deals"]
