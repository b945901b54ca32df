"""`crew sweep --crew realistic`, `crew play` and the slack of a winning line.

A realistic sweep stores beside each deal's perfect-information answer the crew's game of it, which
`crew play` replays exactly from the deal's cell, index and crew seed; the results do not depend on
the job count; the crew's table, summary.json (against its schema) and `crew report` agree; a sweep
of another crew on the same --out, and cells the crew does not play, are refused in one line. The
slack of a line is checked by hand on one deal and against the reference on random small deals, special stages included.
"""

import json
import re
import shlex
import sqlite3
from contextlib import closing
from dataclasses import replace
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner
from conftest import deals_and_missions, stage_problems
from hypothesis import given, settings
from hypothesis import strategies as st

from cli.main import main
from solver import api
from solver.core.cards import format_card, parse_card, popcount, scan
from solver.core.deal import parse_deal
from solver.core.solution import Limits, Outcome
from solver.engines.analysis import DecisionSlack, line_position, slack
from solver.engines.kernel import KernelSolver
from solver.engines.reference import solve as reference_solve
from solver.engines.reference import walk
from solver.experiments.stats import percent
from solver.experiments.sweep import crew_seed
from solver.missions.position import Position
from solver.missions.tasks import make_task_mission
from solver.trick.spaces.fog import FOG
from solver.trick.variants import PlayRules

SCHEMA = json.loads((Path(__file__).parent.parent / "docs" / "schemas" / "summary.schema.json").read_text())
KERNEL = KernelSolver(tt_bits=16)
CELL = ["--tasks", "2", "--owners", "draft", "--players", "3", "--deals", "3", "--samples", "2"]


def crew(*args):
    return CliRunner().invoke(main, list(map(str, args)))


def stored(out: Path):
    with closing(sqlite3.connect(out / "results.db")) as db:
        return db.execute("SELECT deal_index, result, crew_result, crew_tasks_done, crew_tasks, crew_lost_in, "
                          "crew_line, slack_decisions, slack_critical, slack_perhaps_critical FROM deals "
                          "ORDER BY deal_index").fetchall()


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    out = tmp_path_factory.mktemp("crew") / "out"
    result = crew("sweep", *CELL, "--crew", "realistic", "--jobs", "1", "--out", out)
    assert result.exit_code == 0, result.output
    return out, result.stdout


def test_a_realistic_sweep_stores_and_reports_the_crew_beside_perfect_information(swept):
    out, table = swept
    rows = stored(out)
    assert len(rows) == 3 and all(row[2] in ("win", "loss") and row[4] == 2 for row in rows)
    for index, perfect, result, done, tasks, lost_in, line, decisions, critical, perhaps in rows:
        assert (result == "win") == (done == tasks) and (lost_in is None) == (result == "win")
        assert (decisions is None) == (perfect != "win") == (critical is None) == (perhaps is None)
        assert critical is None or 0 <= critical + perhaps <= decisions
    summary = json.loads((out / "summary.json").read_text())
    assert list(jsonschema.Draft202012Validator(SCHEMA).iter_errors(summary)) == []
    assert summary["crew"] == "realistic, 2 samples, 5000 nodes"
    cell = summary["cells"][0]
    assert cell["crew_games"] == 3 and cell["crew_wins"] == sum(row[2] == "win" for row in rows)
    assert cell["crew_tasks_done"] == sum(row[3] for row in rows)
    assert cell["crew_lost_by_crew"] == sum(row[2] == "loss" and row[1] == "win" for row in rows)
    assert cell["slack_critical"] == sum(row[8] or 0 for row in rows)
    assert cell["slack_perhaps_critical"] == sum(row[9] or 0 for row in rows)
    assert "realistic crew" in table and "lost, winnable" in table
    assert crew("report", out).stdout == table  # the database reads back as the run printed it


def test_crew_play_replays_a_stored_game(swept):
    out, _ = swept
    for index, perfect, result, done, _, lost_in, line, *_ in stored(out):
        answer = api.play(api.PlayRequest(api.SolveRequest(cell="tasks/2/draft", players=3, seed=1, index=index),
                                          samples=2, crew_seed=crew_seed(1, index)))
        plays = answer.game.mission.played
        assert " ".join(format_card(c) for c in plays) == line.replace("/", " ")
        assert (answer.game.outcome.value, answer.game.tasks_done, answer.game.lost_in) == (result, done, lost_in)
        assert answer.perfect.outcome.value == perfect


def test_crew_show_prints_the_stored_game_and_the_command_that_plays_it_again(swept):
    out, _ = swept
    index, _, result, done, tasks, _, line, *_ = stored(out)[0]
    shown = crew("show", out, "tasks/2/draft", index).stdout.splitlines()
    assert shown[-1].startswith("play it: crew play ")
    crew_lines = [text for text in shown if text.startswith("crew trick")]
    assert [text.split(": ", 1)[1] for text in crew_lines] == line.split("/")
    assert any(text.startswith(f"realistic crew: {result.upper()} (") and f"{done} of {tasks} tasks" in text
               for text in shown)
    again = crew(*shlex.split(shown[-1].removeprefix("play it: crew ")))
    assert again.exit_code == 0, again.output
    seated = [text.split("  ->")[0].split(": ", 1)[1] for text in again.stdout.splitlines() if text.startswith("trick")]
    assert [re.sub(r"\d:", "", trick) for trick in seated] == line.split("/")  # "0:p1 1:p3 2:p5" as "p1 p3 p5"
    body = json.loads(crew("show", out, "tasks/2/draft", index, "--json").stdout)
    assert body["crew"]["line"] == line and body["play"] == shown[-1].removeprefix("play it: ")


def test_the_crew_does_not_depend_on_the_jobs(swept, tmp_path):
    out, _ = swept
    again = crew("sweep", *CELL, "--crew", "realistic", "--jobs", "2", "--batch", "1", "--out", tmp_path / "two")
    assert again.exit_code == 0, again.output
    assert stored(tmp_path / "two") == stored(out)


def test_another_crew_on_the_same_out_is_refused(swept, tmp_path):
    out, _ = swept
    for other in (["--crew", "perfect"], ["--crew", "realistic", "--samples", "3"]):
        result = crew("sweep", *CELL[:-2], *other, "--out", out)
        assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1 and "crew" in result.stderr
    perfect = crew("sweep", *CELL[:-2], "--jobs", "1", "--out", tmp_path / "perfect")
    assert perfect.exit_code == 0 and "realistic crew" not in perfect.stdout
    realistic = crew("sweep", *CELL, "--crew", "realistic", "--out", tmp_path / "perfect")
    assert realistic.exit_code == 2 and "crew \"perfect\", not \"realistic, 2 samples, 5000 nodes\"" in realistic.stderr


def test_cells_the_crew_does_not_play_keep_perfect_information_with_a_note(tmp_path, monkeypatch):
    # the realistic crew plays every built-in space (mission 12's random pass with the Ghost under fog too:
    # test_ghost_fog_crew.py); a space whose unit says the crew does not model it (StageSpace.crew_refusal), here fog
    # as if it were one, keeps perfect information in its cells, with a note
    monkeypatch.setattr(FOG, "crew_refusal", "its draws, in what a player knows")
    result = crew("sweep", "--missions", "11", "--players", "4", "--space", "train,fog", "--deals", "1",
                  "--samples", "1", "--crew", "realistic", "--jobs", "1", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert ("crew: note: the realistic crew does not play planet-nine/11@fog (4 players): the fog (its draws, in what "
            "a player knows);" in result.stderr), result.stderr
    cells = {cell["mission"]: cell for cell in json.loads((tmp_path / "out" / "summary.json").read_text())["cells"]}
    assert "crew_games" in cells["planet-nine/11"] and "crew_games" not in cells["planet-nine/11@fog"]


@pytest.mark.parametrize("args, words", [
    (["--missions", "12", "--players", "2", "--space", "fog"],
     "planet-nine/12@fog (2 players): the fog (its draws, in what a player knows)"),
    (["--game", "family", "--missions", "1"], "Family Adventure"),
])
def test_cells_the_crew_does_not_play_are_refused(tmp_path, monkeypatch, args, words):
    monkeypatch.setattr(FOG, "crew_refusal", "its draws, in what a player knows")  # as above
    result = crew("sweep", *args, "--deals", "1", "--crew", "realistic", "--out", tmp_path / "out")
    assert result.exit_code == 2 and words in result.stderr and len(result.stderr.splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_crew_play_prints_the_game_and_its_json(tmp_path):
    args = ["play", "--tasks", "p3", "--owners", "0", "--players", "3", "--seed", "2", "--samples", "2"]
    text = crew(*args)
    assert text.exit_code == 0, text.output
    lines = text.stdout.splitlines()
    assert lines[0].startswith("deal: ") and lines[1] == "tasks: p3 -> seat 0"
    assert lines[-1].startswith("result: ") and "perfect information: " in lines[-1]
    body = json.loads(crew(*args, "--json").stdout)
    assert body["tasks"] == 1 and body["owners"] == {"p3": 0} and body["result"] in ("win", "loss")
    assert all(0 <= wins <= wins + unknown <= tried <= 2
               for play in body["plays"] for wins, tried, unknown in play["shares"].values())
    bad = crew("play", "--mission", "planet-nine/12", "--players", "4", "--space", "fog=1")
    assert bad.exit_code == 2 and "fog=1" in bad.stderr and len(bad.stderr.splitlines()) == 1
    on_foot = crew(*args, "--space", "on-foot")
    assert on_foot.exit_code == 0 and on_foot.stdout.splitlines()[0] == lines[0].replace("; 2 samples", "; on the on-foot; 2 samples")
    assert on_foot.stdout.splitlines()[1:] == lines[1:]  # a space without effect plays as the train
    assert json.loads(crew(*args, "--space", "machete", "--json").stdout)["space"] == "machete"
    storm = ["play", "--mission", "planet-nine/8", "--players", "4", "--seed", "2", "--samples", "2", "--space", "storm"]
    flicked = [line for line in crew(*storm).stdout.splitlines() if line.startswith("  communication tile flicked red")]
    assert len(flicked) == len(json.loads(crew(*storm, "--json").stdout)["tiles_lost"]) >= 1


def test_the_crew_sweeps_the_machete_the_skis_the_vespa_the_hang_glider_fog_the_jeep_and_the_helicopter(tmp_path):
    # the Vespa's winning lines (the slack's) are of the deal after their swap
    result = crew("sweep", "--game", "journey", "--missions", "no-green-after-blue", "--space",
                  "machete,skis,vespa,hang-glider,fog,jeep,helicopter",
                  "--players", "3", "--deals", "2", "--samples", "1", "--crew", "realistic", "--jobs", "1",
                  "--out", tmp_path / "out")
    assert result.exit_code == 0 and "does not play" not in result.stderr, result.output
    cells = {cell["mission"]: cell for cell in json.loads((tmp_path / "out" / "summary.json").read_text())["cells"]}
    assert [cells[f"journey/no-green-after-blue@{space}"]["crew_games"]
            for space in ("machete", "skis", "vespa", "hang-glider", "fog", "jeep", "helicopter")] == [2] * 7


def test_crew_play_prints_the_five_player_task_pass():
    args = ["play", "--mission", "planet-nine/31", "--players", "5", "--seed", "2", "--samples", "2"]
    text = crew(*args)
    assert text.exit_code == 0, text.output
    weighed = [line for line in text.stdout.splitlines() if " keeps its tasks (keeping " in line or " hands " in line]
    body = json.loads(crew(*args, "--json").stdout)
    assert len(weighed) == len(body["handovers"]) >= 1
    for line, handover in zip(weighed, body["handovers"]):
        assert line.startswith(f"seat {handover['seat']} ") and f"(keeping {handover['keep']}/2; " in line
        assert handover["options"] and all(re.search(rf"{o['task']}( \[\S+\])? -> seat {o['to']} {o['wins']}/2", line)
                                           for o in handover["options"])  # the text writes a task's token
    assert all(h["made"] == -1 for h in body["handovers"][:-1])  # at most one transfer, by the last seat weighing
    for line, handover in zip(weighed, body["handovers"]):
        assert ("on fresh samples" in line) == (handover["best"] >= 0) == bool(handover["confirmed"])


def test_the_slack_of_a_hand_worked_line():
    # Seat 0 must win y6. Play 1: of y5 and p1, only p1 keeps it winnable (nobody can follow it, and seat 1 throws y6
    # under it; y5 loses the trick to a higher yellow). Play 2: seat 1 must throw y6 now (keeping it, seat 2's
    # last yellow takes it in trick 2): critical. Play 3: seat 2's y8 and y9 both win.
    deal = parse_deal("y5 p1 | y6 y7 | y8 y9", 0)
    mission = make_task_mission(deal, [parse_card("y6")], owners=[0])
    line = Position(tuple(parse_card(c) for c in ("p1", "y6", "y8")))
    assert slack(deal, mission, line, reference_solve) == ((1, 0), (1, 0), (2, 0))
    # Within one card play a solve decides nothing: every other card is undecided, so no decision is proved
    # critical, and the two of slack 1 are perhaps critical. Play 3 needs no solve: y8 and y9 touch (no card in
    # play between them), so y9 wins as the line's y8 does.
    starved = slack(deal, mission, line, KERNEL.solve, Limits(max_nodes=1))
    assert starved == ((1, 1), (1, 1), (2, 0))
    assert [(d.critical, d.perhaps_critical) for d in starved] == [(False, True)] * 2 + [(False, False)]


@settings(max_examples=40, deadline=None)
@given(st.one_of(deals_and_missions(max_players=4, max_cards=3),
                 stage_problems().map(lambda p: (p[0], replace(p[1], space=PlayRules())))))  # a table: no redeal
def test_the_slack_counts_the_winning_cards_of_each_decision(case):
    # on a special stage the line's table cards are played as the line laid them, before each decision
    deal, mission = case
    solution = reference_solve(deal, mission)
    if solution.outcome is not Outcome.WIN:
        return
    line = line_position(solution)
    counts = slack(deal, mission, line, reference_solve)
    assert slack(deal, mission, line, KERNEL.solve) == counts
    expected = []
    for k in range(len(line.plays)):
        before = Position(line.plays[:k], line.chosen[: k // deal.players])
        legal = walk(deal, before.on(mission)).legal
        if popcount(legal) > 1:
            expected.append((sum(reference_solve(deal, before.then(c).on(mission)).outcome is Outcome.WIN
                                 for c in scan(legal)), 0))
    assert counts == tuple(expected) and all(decision.winning >= 1 for decision in counts)
    # What a sweep keeps: each decision critical or not, perhaps critical or not, stopping at a second winning card.
    flags = slack(deal, mission, line, KERNEL.solve, critical_only=True)
    assert flags == tuple(DecisionSlack(min(winning, 2), undecided if winning == 1 else 0)
                          for winning, undecided in counts)
    starved = slack(deal, mission, line, KERNEL.solve, Limits(max_nodes=1))  # every solve undecided: no early stop
    assert slack(deal, mission, line, KERNEL.solve, Limits(max_nodes=1), critical_only=True) == tuple(
        DecisionSlack(2) if s.winning > 1 else s for s in starved)


def test_the_html_report_has_the_crew_columns(swept, tmp_path):
    out, _ = swept
    page = tmp_path / "report.html"
    assert crew("report", out, "--html", page).exit_code == 0
    text = page.read_text()
    cell = json.loads((out / "summary.json").read_text())["cells"][0]
    assert "<th>crew win %</th>" in text and "<th>critical</th>" in text
    row = text[text.index("<tr><td>tasks/2/draft</td>"):]
    row = row[: row.index("</tr>")]
    assert f"<td class=\"number\">{percent(cell['crew_win_rate'])}</td>" in row
