"""`crew bench`'s regression gate: the comparison on synthetic reports, and the command on a real suite.

A synthetic set has four deals; its baseline searched 1,000 nodes in a suite timed at 2 s against a
100 ms calibration. The gate: a changed answer fails (exit 3), nodes beyond the tolerance are a
regression (exit 1), fewer nodes an improvement, and time counts only relative to the calibration.
"""

import copy
import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from solver.core.cards import parse_card
from solver.core.deal import parse_deal
from solver.core.errors import InputError
from solver.experiments import bench
from solver.experiments.bench import (
    CHANGED,
    PASS,
    REGRESSION,
    SWEEP_SETS,
    compare,
    parse_time_tolerance,
    parse_tolerance,
    verdict,
    with_report,
)
from solver.missions.tasks import make_task_mission

TOLERANCE, TIME_TOLERANCE = 0.25, 0.5


def report(nodes=1000, answers=("W", "W", "L", "U"), seconds=2.0, calibration=100.0, mode="quick", sets=("a", "b")):
    """A report of one kernel suite whose sets all have these figures."""
    figures = {"answers": " ".join(answers), "nodes": nodes, "deals": len(answers)}
    return {
        "mode": mode,
        "machine": {},
        "suites": {
            "kernel": {"calibration_ms": calibration, "seconds": seconds, "sets": {n: dict(figures) for n in sets}},
        },
    }


BASELINE = with_report(None, report())


def kinds(findings) -> dict:
    return {finding.where: finding.kind for finding in findings}


def test_same_run_passes():
    findings = compare(BASELINE, report(), TOLERANCE, TIME_TOLERANCE)
    assert kinds(findings) == {"kernel a": "ok", "kernel b": "ok", "kernel time": "ok"}
    assert verdict(findings) == PASS


def test_fewer_nodes_is_an_improvement_and_passes():
    findings = compare(BASELINE, report(nodes=600), TOLERANCE, TIME_TOLERANCE)
    assert kinds(findings)["kernel a"] == "improvement"
    assert verdict(findings) == PASS


def test_a_changed_answer_fails_whatever_the_nodes():
    for answers in (("W", "W", "L", "W"), ("W", "L", "L", "U"), ("W", "W", "L", "U2")):
        findings = compare(BASELINE, report(nodes=500, answers=answers), TOLERANCE, TIME_TOLERANCE)
        assert kinds(findings)["kernel a"] == "changed"
        assert verdict(findings) == CHANGED
    (finding,) = [f for f in compare(BASELINE, report(answers=("W", "W", "L", "W")), TOLERANCE, TIME_TOLERANCE)
                  if f.where == "kernel a"]
    assert "deal 3: U -> W" in finding.text


def test_node_growth_beyond_the_tolerance_is_a_regression():
    assert verdict(compare(BASELINE, report(nodes=1250), TOLERANCE, TIME_TOLERANCE)) == PASS  # exactly at 25%
    findings = compare(BASELINE, report(nodes=1251), TOLERANCE, TIME_TOLERANCE)
    assert kinds(findings)["kernel a"] == "regression"
    assert verdict(findings) == REGRESSION
    assert verdict(compare(BASELINE, report(nodes=1251), 0.5, TIME_TOLERANCE)) == PASS


def test_time_noise_within_the_tolerance_passes():
    assert verdict(compare(BASELINE, report(seconds=2.9), TOLERANCE, TIME_TOLERANCE)) == PASS  # x1.45
    assert verdict(compare(BASELINE, report(seconds=1.2), TOLERANCE, TIME_TOLERANCE)) == PASS  # faster


def test_time_is_judged_against_the_calibration():
    # Twice the time on a machine twice as slow (the calibration says so) is no regression...
    assert verdict(compare(BASELINE, report(seconds=4.0, calibration=200.0), TOLERANCE, TIME_TOLERANCE)) == PASS
    # ... but on the same machine it is.
    findings = compare(BASELINE, report(seconds=4.0), TOLERANCE, TIME_TOLERANCE)
    assert kinds(findings)["kernel time"] == "regression"
    assert verdict(findings) == REGRESSION


def test_time_off_reports_the_time_and_never_fails_on_it():
    # CI gates time against the baseline's commit run in the same job (benchmarks/bench_versus.py --gate).
    findings = compare(BASELINE, report(seconds=4.0), TOLERANCE, parse_time_tolerance("off"))
    assert kinds(findings)["kernel time"] == "info" and verdict(findings) == PASS
    assert parse_time_tolerance("50%") == 0.5


def test_the_versus_time_gate_sums_the_sets_best_times():
    sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))
    import bench_versus

    assert bench_versus.gate({"old": 2.0, "new": 2.5}, 0.30) == 0  # x1.25
    assert bench_versus.gate({"old": 2.0, "new": 2.7}, 0.30) == 1  # x1.35
    assert bench_versus.gate({"old": 0.0, "new": 0.0}, 0.30) == 0  # the search changed: nothing timed
    assert bench_versus.baseline_commit() == json.loads(
        (Path(__file__).parent.parent / "results" / "bench-baseline.json").read_text()
    )["quick"]["machine"]["commit"].removesuffix("-dirty")


def test_the_versus_script_by_deal_reports_win_and_loss_apart():
    sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))
    import bench_versus

    deals = [{"old": ("WIN", 1.0), "new": ("WIN", 2.0)}, {"old": ("WIN", 3.0), "new": ("WIN", 1.0)},
             {"old": ("LOSS", 10.0), "new": ("LOSS", 8.0)}, {"old": ("LOSS", 30.0), "new": ("LOSS", 16.0)},
             {"old": ("UNKNOWN", 99.0), "new": ("LOSS", 50.0)}]  # decided by the new search alone: apart
    assert bench_versus.by_deal_line("4p-fixed-12", deals) == (
        "4p-fixed-12      | WIN 2 median 2.0/1.5 total 4/3 ms x0.75 | LOSS 2 median 20.0/12.0 total 40/24 ms x0.60"
        " | decided by one only 0/1"
    )
    with pytest.raises(SystemExit, match="deal 1: WIN .old. against LOSS .new."):
        bench_versus.by_deal_line("4p-fixed-12", [deals[0], {"old": ("WIN", 1.0), "new": ("LOSS", 1.0)}])


def test_importing_the_versus_script_leaves_numba_s_cache_alone():
    # As a script it compiles both kernels afresh in a directory of its own; imported (as above), it once
    # set that directory for the rest of the test worker, and every crew process the worker started
    # after it compiled the whole kernel again (26-63 s).
    sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))
    import bench_versus

    before = os.environ.get("NUMBA_CACHE_DIR")
    importlib.reload(bench_versus)  # runs the module's top level again, as a first import does
    assert os.environ.get("NUMBA_CACHE_DIR") == before


def test_mismatched_baselines_are_bad_input():
    with pytest.raises(InputError, match="no full run"):
        compare(BASELINE, report(mode="full"), TOLERANCE, TIME_TOLERANCE)
    with pytest.raises(InputError, match="sets differ"):
        compare(BASELINE, report(sets=("a", "c")), TOLERANCE, TIME_TOLERANCE)
    with pytest.raises(InputError, match="3 deals against the baseline's 4"):
        compare(BASELINE, report(answers=("W", "W", "L")), TOLERANCE, TIME_TOLERANCE)
    sweep_only = report()
    sweep_only["suites"] = {"sweep": sweep_only["suites"]["kernel"]}
    with pytest.raises(InputError, match="no sweep suite"):
        compare(BASELINE, sweep_only, TOLERANCE, TIME_TOLERANCE)


def test_a_saved_baseline_keeps_the_other_mode_and_suites():
    full = report(mode="full", nodes=5)
    both = with_report(BASELINE, full)
    assert both["quick"] == BASELINE["quick"] and both["full"]["suites"] == full["suites"]
    sweep = report(nodes=7)
    sweep["suites"] = {"sweep": sweep["suites"]["kernel"]}
    merged = with_report(both, sweep)
    assert set(merged["quick"]["suites"]) == {"kernel", "sweep"} and merged["full"] == both["full"]


@pytest.mark.parametrize("text, fraction", [("25%", 0.25), ("0.25", 0.25), ("100%", 1.0), ("0", 0.0)])
def test_tolerances(text, fraction):
    assert parse_tolerance(text) == pytest.approx(fraction)


@pytest.mark.parametrize("text", ["many", "-5%", ""])
def test_bad_tolerances(text):
    with pytest.raises(InputError, match="tolerance"):
        parse_tolerance(text)


# --- the command -------------------------------------------------------------------------------


def crew(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(scope="module")
def sweep_run(tmp_path_factory):
    """A real quick run of the sweep suite, saved as a baseline."""
    path = tmp_path_factory.mktemp("bench") / "baseline.json"
    result = crew("bench", "--suite", "sweep", "--quick", "--save-baseline", path)
    assert result.exit_code == 0, result.output
    return path, json.loads(path.read_text())


def test_bench_reports_every_set(sweep_run):
    _, baseline = sweep_run
    sets = baseline["quick"]["suites"]["sweep"]["sets"]
    assert list(sets) == [deal_set.name for deal_set in SWEEP_SETS]
    for figures in sets.values():
        assert figures["deals"] == len(figures["answers"].split())
        assert figures["deals"] == figures["win"] + figures["loss"] + figures["unknown"]
        assert figures["median_ms"] <= figures["p99_ms"] and figures["deals_per_s"] > 0
    assert baseline["quick"]["machine"]["crew_solver"]


def test_a_second_run_gives_the_same_answers_and_nodes(sweep_run, tmp_path):
    path, baseline = sweep_run
    result = crew("bench", "--suite", "sweep", "--quick", "--compare", path, "--time-tolerance", "1000%",
                  "--json", tmp_path / "run.json")
    assert result.exit_code == PASS, result.output
    assert "bench: PASS" in result.output
    run = json.loads((tmp_path / "run.json").read_text())
    for name, figures in run["suites"]["sweep"]["sets"].items():
        saved = baseline["quick"]["suites"]["sweep"]["sets"][name]
        assert (figures["answers"], figures["nodes"]) == (saved["answers"], saved["nodes"])


def replayed(monkeypatch, baseline: dict):
    """Make `crew bench` report the baseline's own run instead of running the suites."""
    monkeypatch.setattr(bench, "run_bench", lambda suites, mode, progress: copy.deepcopy(baseline["quick"]))


def test_bench_exit_codes(sweep_run, tmp_path, monkeypatch):
    _, baseline = sweep_run
    replayed(monkeypatch, baseline)
    first = next(iter(baseline["quick"]["suites"]["sweep"]["sets"]))
    changed, slower = copy.deepcopy(baseline), copy.deepcopy(baseline)
    answers = changed["quick"]["suites"]["sweep"]["sets"][first]["answers"]
    changed["quick"]["suites"]["sweep"]["sets"][first]["answers"] = "L" + answers[1:]  # deal 0 was won
    slower["quick"]["suites"]["sweep"]["sets"][first]["nodes"] //= 2  # the run now searches twice as many
    for edited, code, word in ((changed, CHANGED, "ANSWERS CHANGED"), (slower, REGRESSION, "REGRESSION")):
        path = tmp_path / f"{code}.json"
        path.write_text(json.dumps(edited))
        result = crew("bench", "--suite", "sweep", "--quick", "--compare", path)
        assert result.exit_code == code, result.output
        assert f"bench: {word}" in result.output and first in result.output


@pytest.mark.parametrize("content, words", [
    (None, ["no baseline file"]),
    ("{not json", ["cannot read the baseline"]),
    ("[1, 2]", ["not a crew bench baseline"]),
    ('{"format": 1}', ["no quick run"]),
])
def test_bad_baselines_exit_2_with_one_line(tmp_path, content, words):
    path = tmp_path / "baseline.json"
    if content is not None:
        path.write_text(content)
    result = crew("bench", "--quick", "--compare", path)
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("crew: error: ")
    assert all(word in lines[0] for word in words)


def test_bad_tolerance_exits_2():
    result = crew("bench", "--quick", "--tolerance", "lots")
    assert result.exit_code == 2 and "tolerance" in result.stderr


def test_an_unwritable_report_exits_2_with_one_line(sweep_run, tmp_path, monkeypatch):
    _, baseline = sweep_run
    replayed(monkeypatch, baseline)
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = crew("bench", "--suite", "sweep", "--quick", "--json", blocker / "report.json")
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("crew: error: cannot write")


@pytest.mark.parametrize("script", sorted((Path(__file__).parent.parent / "benchmarks").glob("bench_*.py")), ids=lambda p: p.stem)
def test_every_benchmark_script_imports_and_answers_help(script):
    # bench_crew.py once imported a function its stop had removed, and nothing ran it until the next stop.
    run = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "usage:" in run.stdout


def test_the_sat_script_writes_a_deal_in_de_jong_s_game_format():
    # De Jong's format (games/example.game in his repository): "PLAYER COUNT" "STARTING PLAYER" "SUIT COUNT", "suit 0
    # the trump suit"; then the hands, "a list of cards per player, where a card is [suit, value]"; then the
    # objectives, a line per player.
    sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))
    import bench_sat

    deal = parse_deal("p1 b9 r1 | y3 g2 r4 | p9 y1 r2")
    mission = make_task_mission(deal, [parse_card("b9"), parse_card("y1"), parse_card("p9")], owners=[1, 1, 0])
    assert bench_sat.game_text(deal, mission) == (
        "3 1 5\n"
        "[1,1] [2,9] [0,1]\n"
        "[3,2] [4,3] [0,4]\n"
        "[1,9] [4,1] [0,2]\n"
        "[1,9]\n"
        "[2,9] [4,1]\n"
        "\n"
    )


def test_the_sat_script_refuses_a_missing_program_in_one_line():
    script = Path(__file__).parent.parent / "benchmarks" / "bench_sat.py"
    run = subprocess.run([sys.executable, str(script), "--sat", "/nonexistent/satisfiability"], capture_output=True,
                         text=True, cwd=Path(__file__).parent.parent)
    assert run.returncode == 2 and run.stderr.strip().endswith(
        "no SAT program at /nonexistent/satisfiability (build it as this script's help says)")
