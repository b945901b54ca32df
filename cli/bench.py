"""`crew bench`: the benchmark suites, their report, and the regression gate against a baseline."""

from pathlib import Path

import click

from cli.status import StatusLine
from solver.api import BenchRequest, run_benchmarks
from solver.experiments.bench import CHANGED, DEFAULT_BASELINE, PASS, REGRESSION, SUITES

VERDICTS = {PASS: "PASS", REGRESSION: "REGRESSION", CHANGED: "ANSWERS CHANGED"}
SYMBOLS = {"changed": "CHANGED", "regression": "SLOWER", "improvement": "better", "ok": "ok", "info": "time"}


@click.command()
@click.option("--suite", "suite_name", type=click.Choice([*SUITES, "all"]), default="all", show_default=True,
              help="kernel: Planet Nine task sets on the DFS kernel; sweep: built-in mission cells as crew sweep "
                   "solves them; family: Family Adventure sets; loss: LOSS-heavy task deals and trick-condition "
                   "missions on the default engine.")
@click.option("--quick", is_flag=True, help="Fewer deals per set (CI: well under two minutes for all suites).")
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the report (versions, machine, every set's figures and answers) to this file.")
@click.option("--compare", "baseline_path", type=click.Path(dir_okay=False, path_type=Path),
              help=f"Compare with a baseline file (e.g. {DEFAULT_BASELINE}); exit 3 if an answer changed, 1 on a "
                   "regression.")
@click.option("--tolerance", default="25%", show_default=True,
              help="Node growth per set beyond which --compare fails.")
@click.option("--time-tolerance", default="50%", show_default=True,
              help="Growth of a suite's time relative to the calibration workload beyond which --compare fails; "
                   "off: report it only (CI gates time with benchmarks/bench_versus.py --gate instead).")
@click.option("--save-baseline", "save_path", is_flag=False, flag_value=DEFAULT_BASELINE,
              type=click.Path(dir_okay=False, path_type=Path),
              help=f"Store this run as the baseline of its mode (default file {DEFAULT_BASELINE}).")
def bench(suite_name, quick, json_path, baseline_path, tolerance, time_tolerance, save_path):
    """Benchmark the solvers on fixed seeded deal sets; compare with a baseline to catch regressions.

    Answers and node counts are deterministic: a changed answer is a correctness bug (exit 3),
    node growth beyond --tolerance a regression (exit 1). Times are compared as ratios to a
    calibration workload timed in the same run (exit 1 beyond --time-tolerance). Exit 2: bad
    input (an unreadable or mismatched baseline).
    """
    status = StatusLine()
    answer = run_benchmarks(
        BenchRequest(suite=suite_name, quick=quick, baseline=baseline_path, tolerance=tolerance,
                     time_tolerance=time_tolerance, save_baseline=save_path, json=json_path),
        lambda text: status.show(f"bench: {text}", force=True),
    )
    status.finish()
    click.echo(report_table(answer.report))
    if baseline_path:
        click.echo(f"\ncompared with {baseline_path} ({answer.report['mode']}; nodes within "
                   f"{answer.node_tolerance:.0%}, " + ("time reported only)" if answer.time_tolerance is None else
                   f"time within {answer.time_tolerance:.0%} after calibration)"))
        for finding in answer.findings:
            if finding.kind != "ok" or finding.where.endswith(" time"):
                click.echo(f"  {SYMBOLS[finding.kind]:8s} {finding.where}: {finding.text}")
        quiet = sum(f.kind == "ok" and not f.where.endswith(" time") for f in answer.findings)
        click.echo(f"  {quiet} more sets: same answers, nodes within tolerance")
        click.echo(f"bench: {VERDICTS[answer.code]}")
    if save_path:
        click.echo(f"saved the {answer.report['mode']} baseline in {save_path}")
    raise SystemExit(answer.code)


def report_table(report: dict) -> str:
    """Return the report as a table: one row per set, then each suite's totals and calibration."""
    machine = report["machine"]
    lines = [f"# crew-solver {machine['crew_solver']} ({machine['commit']}), python {machine['python']}, numba "
             f"{machine['numba']}, numpy {machine['numpy']}, ortools {machine['ortools']}; {machine['platform']}, "
             f"{machine['processor']}, {machine['cores']} cores; {report['mode']} run",
             f"{'suite':7s} {'set':56s} {'deals':>5s} {'win':>5s} {'loss':>5s} {'unkn':>5s} {'nodes':>13s} "
             f"{'median ms':>9s} {'p99 ms':>9s} {'deals/s':>9s}  {'WIN med/p99':>15s} {'LOSS med/p99':>15s}  engines"]
    for suite, part in report["suites"].items():
        for name, s in part["sets"].items():
            lines.append(f"{suite:7s} {name:56s} {s['deals']:5d} {s['win']:5d} {s['loss']:5d} {s['unknown']:5d} "
                         f"{s['nodes']:13,d} {s['median_ms']:9.3f} {s['p99_ms']:9.2f} {s['deals_per_s']:9.1f}  "
                         f"{apart(s, 'win')} {apart(s, 'loss')}  "
                         + ", ".join(f"{engine} {deals}" for engine, deals in s.get("engines", {}).items()))
        deals = sum(s["deals"] for s in part["sets"].values())
        lines.append(f"{suite:7s} {'(all sets)':56s} {deals:5d} {'':17s} "
                     f"{sum(s['nodes'] for s in part['sets'].values()):13,d} {'':19s} "
                     f"{deals / max(part['seconds'], 1e-9):9.1f}  {part['seconds']:.2f} s, calibration "
                     f"{part['calibration_ms']:.1f} ms")
    return "\n".join(lines)


def apart(figures: dict, outcome: str) -> str:
    """Return the median and p99 ms of a set's WIN or LOSS deals as `median/p99`, `-` without any
    (or in a report made before they were recorded)."""
    median, p99 = figures.get(f"{outcome}_median_ms"), figures.get(f"{outcome}_p99_ms")
    text = "-" if median is None else f"{median:.2f}/{p99:.1f}"
    return f"{text:>15s}"
