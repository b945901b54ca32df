"""The public Python API (solver/api.py): the same answers as `crew solve`, typed."""

import json

import pytest
from click.testing import CliRunner
from conftest import check_witness

from cli.main import main
from solver import api
from solver.api import FamilySolveRequest, SolveRequest, SweepRequest, read_sweep, run_sweep, solve, solve_family
from solver.core.cards import parse_card_list
from solver.core.deal import parse_deal
from solver.core.errors import InputError
from solver.core.solution import Limits, Outcome
from solver.engines.quick import Allowance
from solver.experiments.cell import Cell
from solver.family.deal import format_family_deal
from solver.missions.tasks import make_task_mission

THREE = "p1 p2 p3 | b1 b2 b3 | g1 g2 g3"


def cli_json(*args) -> dict:
    result = CliRunner().invoke(main, ["solve", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_a_task_mission_wins_with_its_line_of_play():
    # Seat 0 leads trick 1 and holds the only pinks: it wins p3 by leading it.
    answer = solve(SolveRequest(THREE, tasks="p3", owners=(0,), commander=0))
    assert answer.solution.outcome is Outcome.WIN
    check_witness(answer.deal, answer.setups[0].mission, answer.solution)
    # Seat 1 cannot win p3: nobody else holds a pink and there is no trump. LOSS.
    assert solve(SolveRequest(THREE, tasks="p3", owners=(1,), commander=0)).solution.outcome is Outcome.LOSS


@pytest.mark.parametrize("engine", ["auto", "kernel", "cpsat", "reference"])
def test_the_api_answers_as_the_cli(engine):
    args = ["--deal", THREE, "--tasks", "p3 b3", "--commander", "0", "--engine", engine]
    answer = solve(SolveRequest(THREE, tasks="p3 b3", commander=0, engine=engine))
    assert answer.solution.outcome.value == cli_json(*args)["result"]


def test_the_first_look_hands_what_it_leaves_open_to_the_kernel(monkeypatch):
    # The default engine looks with the plain search first (solver/engines/quick.py); what that leaves open
    # the kernel decides, and the answer counts both searches' plays.
    kernel = solve(SolveRequest(THREE, tasks="p3", commander=0, engine="kernel")).solution
    first = solve(SolveRequest(THREE, tasks="p3", commander=0)).solution
    assert first.engine == "reference" and first.outcome is kernel.outcome
    monkeypatch.setattr(api, "Allowance", lambda: Allowance(2))
    handed_on = solve(SolveRequest(THREE, tasks="p3", commander=0)).solution
    assert handed_on.engine == "reference>kernel" and handed_on.outcome is kernel.outcome is Outcome.WIN
    assert handed_on.nodes == kernel.nodes + 3  # the allowance stops at its third play
    check_witness(parse_deal(THREE, 0), make_task_mission(parse_deal(THREE, 0), parse_card_list("p3")), handed_on)


def test_a_special_mission_s_score_is_redone_when_the_first_look_leaves_it_inexact(monkeypatch):
    exact = solve(SolveRequest(THREE, mission="journey/pink-for-everyone", commander=0, engine="kernel")).score
    monkeypatch.setattr(api, "Allowance", lambda: Allowance(2))
    redone = solve(SolveRequest(THREE, mission="journey/pink-for-everyone", commander=0))
    assert redone.score.exact and redone.score.score == exact.score
    assert redone.solution.engine.startswith("reference>")


def test_a_logbook_mission_with_its_draws():
    deal = ("b4 b5 b6 b8 g2 g4 g5 y1 y5 r1 r2 r3 r4 | p1 p5 b2 b3 b7 b9 g3 g7 g9 y2 y4 y7 y9 | "
            "y8 y3 b1 g8 p3 p7 p9 / p4 y6 p6 p8 p2 g6 g1")
    answer = solve(SolveRequest(deal, mission="planet-nine/12", seed=9, difficult_ghost=True,
                                limits=Limits(max_work=20)))
    expected = cli_json("--deal", deal, "--mission", "planet-nine/12", "--seed", "9", "--difficult-ghost")
    assert answer.solution.outcome.value == expected["result"] == "win"
    assert answer.mission.id == "planet-nine/12" and answer.stage.display and answer.stage.difficult


def test_the_distress_signal_and_a_score():
    answer = solve(SolveRequest("p1 | p5 | p9 / y1", tasks="p9", owners=(1,), commander=0, distress=True))
    assert answer.solution.outcome is Outcome.LOSS and answer.distress.solution.outcome is Outcome.WIN
    assert answer.distress.stage.display != answer.stage.display  # JARVIS's display after the pass
    scored = solve(SolveRequest(THREE, mission="journey/pink-for-everyone", commander=0))
    assert scored.score is not None and scored.score.exact
    assert scored.score.score == cli_json("--deal", THREE, "--mission", "journey/pink-for-everyone",
                                          "--commander", "0")["score"]


@pytest.mark.parametrize("request_, words", [
    (SolveRequest(THREE), "--tasks"),
    (SolveRequest(THREE, tasks="p3", engine="fast"), "unknown engine"),
    (SolveRequest(THREE, tasks="z9"), "z9"),
    (SolveRequest(THREE, mission="planet-nine/99"), "planet-nine/99"),
    (SolveRequest(THREE, tasks="p3", difficult_ghost=True), "display"),
    (SolveRequest(THREE, tasks="p3", mission="planet-nine/1", owners=(0,)), "--owners"),
])
def test_bad_requests_raise_one_line_errors(request_, words):
    with pytest.raises(InputError) as error:
        solve(request_)
    assert words in str(error.value) and "\n" not in str(error.value)


def test_a_sweep_from_python_is_the_cli_s(tmp_path):
    # The same request through the API and through crew sweep gives the same cells and counts; a
    # second run resumes (nothing left to solve) and read_sweep reads the database back.
    request = SweepRequest(missions="1,2", players="3", deals=6, jobs=1, budget=5, out=str(tmp_path / "api"))
    totals = []
    result = run_sweep(request, make_progress=lambda total, needed: totals.append((total, needed)) or (lambda _: None))
    assert totals == [(12, {Cell("planet-nine/1", 3): 6, Cell("planet-nine/2", 3): 6})] and not result.interrupted
    assert [(str(s.cell), s.cell.players, s.deals) for s in result.summaries] == [("planet-nine/1", 3, 6),
                                                                                ("planet-nine/2", 3, 6)]
    cli = CliRunner().invoke(main, ["sweep", "--missions", "1,2", "--players", "3", "--deals", "6", "--jobs", "1",
                                    "--budget", "5", "--out", str(tmp_path / "cli"), "--format", "json"])
    assert cli.exit_code == 0, cli.output
    rows = json.loads(cli.stdout)
    assert [(row["wins"], row["losses"]) for row in rows] == [(s.wins, s.losses) for s in result.summaries]
    again = []
    run_sweep(request, make_progress=lambda total, needed: again.append(total) or (lambda records: None))
    assert again == [0]
    assert [s.wins for s in read_sweep(tmp_path / "api")] == [s.wins for s in result.summaries]
    # Both write the summary files; each records how it was asked for, and the commit.
    from_python, from_cli = (json.loads((tmp_path / name / "summary.json").read_text()) for name in ("api", "cli"))
    assert from_python["command"] == repr(request) and from_cli["command"].split()[0] == "crew"  # its argv
    counts = [[(c["mission"], c["wins"], c["losses"]) for c in summary["cells"]] for summary in (from_python, from_cli)]
    assert counts[0] == counts[1] and len(counts[0]) == 2
    assert from_python["versions"]["commit"] != "" and (tmp_path / "api" / "summary.csv").is_file()


def test_a_bad_sweep_request_is_a_one_line_error(tmp_path):
    with pytest.raises(InputError) as error:
        run_sweep(SweepRequest(game="family", tasks="1-3", out=str(tmp_path)))
    assert "--objectives" in str(error.value)
    with pytest.raises(InputError):
        read_sweep(tmp_path / "nothing")


@pytest.mark.parametrize("seed, engine", [(3, "auto"), (7, "dfs"), (11, "cpsat")])
def test_a_family_deal_from_python_is_the_cli_s(seed, engine):
    answer = solve_family(FamilySolveRequest(mission="family/toolbox-grey", players=4, seed=seed, engine=engine))
    result = CliRunner().invoke(main, ["family", "solve", "--mission", "family/toolbox-grey", "--seed", str(seed),
                                       "--engine", engine, "--json"])
    assert result.exit_code == 0, result.output
    printed = json.loads(result.output)
    assert (answer.solution.outcome.value, format_family_deal(answer.deal)) == (printed["result"], printed["deal"])


@pytest.mark.parametrize("request_, words", [
    (FamilySolveRequest(mission="family/1", objectives=3), "--objectives draws a random mission"),
    (FamilySolveRequest(engine="dfs", fewest_hammocks=True), "leave out --engine dfs"),
    (FamilySolveRequest(engine="fast"), "unknown engine 'fast'"),
    (FamilySolveRequest(mission="family/nowhere"), "family/nowhere"),
])
def test_bad_family_requests_raise_one_line_errors(request_, words):
    with pytest.raises(InputError, match=words) as error:
        solve_family(request_)
    assert "\n" not in str(error.value)


def test_an_interrupted_sweep_has_deals_of_every_cell(tmp_path):
    # Cells go in rounds, a batch of each in turn: stopped after three batches, each of the three cells has one.
    batches = []

    def make_progress(total, needed):
        def progress(records):
            batches.append({record.cell for record in records})
            if len(batches) == 3:
                raise KeyboardInterrupt
        return progress

    request = SweepRequest(missions="1-3", players="3", deals=4, batch=2, jobs=1, out=str(tmp_path / "stopped"))
    result = run_sweep(request, make_progress)
    assert result.interrupted and [len(cells) for cells in batches] == [1, 1, 1]
    assert [(str(s.cell), s.deals) for s in result.summaries] == [(f"planet-nine/{n}", 2) for n in (1, 2, 3)]
