"""Deals on demand: `crew deal` draws a sweep cell's deal (or one for a task mission), `crew solve` without
--deal solves it, and `crew show` prints a stored deal of a sweep with its answer and how to solve it again."""

import json
import shlex
import sqlite3
from contextlib import closing

import pytest
from click.testing import CliRunner

from cli.main import main
from solver.api import DealRequest, SolveRequest, deal, solve
from solver.core.cards import parse_card_list
from solver.core.rules import trick_winner

# Cells of every kind a record can hold: a mission with a drawn task and mission 12's pass, a special
# mission, fog's arrivals, the jeep's shuffle, the Ghost, a random-task experiment with dealt owners.
SWEEPS = [
    ["--missions", "12", "--players", "2,4"],
    ["--game", "journey", "--missions", "no-1-no-2,yellow-for-everyone", "--space", "fog,jeep", "--players", "3"],
    ["--tasks", "4", "--owners", "dealt", "--players", "4"],
]
DEALS = 3


def crew(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def ok(*args) -> str:
    result = crew(*args)
    assert result.exit_code == 0, result.output
    return result.stdout


def assert_one_line_error(result, *words):
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("crew: error: "), result.stderr
    for word in words:
        assert word in lines[0], f"{word!r} not in {lines[0]!r}"


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    """Small real sweeps, and every stored row: (out, cell, players, index) -> (result, score, dealt)."""
    rows = {}
    for number, options in enumerate(SWEEPS):
        out = tmp_path_factory.mktemp(f"sweep{number}")
        ok("sweep", *options, "--deals", DEALS, "--seed", "5", "--jobs", "1", "--out", out)
        with closing(sqlite3.connect(out / "results.db")) as db:
            for cell, players, index, result, score, dealt in db.execute(
                    "SELECT mission, players, deal_index, result, score, dealt FROM deals"):
                rows[out, cell, players, index] = (result, score, json.loads(dealt))
    assert len(rows) == DEALS * (2 + 4 + 1)
    return rows


def test_crew_deal_draws_the_deal_a_sweep_stored(swept):
    for (_, cell, players, index), (_, _, dealt) in swept.items():
        drawn = json.loads(ok("deal", "--cell", cell, "--players", players, "--seed", "5", "--index", index, "--json"))
        assert {key: value for key, value in drawn.items() if key in dealt} == dealt
        assert drawn["solve"] == f"crew solve --cell {cell} --players {players} --seed 5 --index {index}"
    kinds = {key for _, _, dealt in swept.values() for key in dealt}
    assert kinds == {"deal", "tasks", "owners", "arrivals", "jeep", "random_pass"}  # every draw is covered
    assert any(" / " in dealt["deal"] for _, _, dealt in swept.values())  # and the Ghost's display


def test_crew_show_solves_again_what_the_sweep_stored(swept):
    for (out, cell, players, index), (result, score, dealt) in swept.items():
        if index:
            continue  # one deal a cell is enough here
        shown = json.loads(ok("show", out, cell, index, "--players", players, "--json"))
        assert (shown["result"], shown["dealt"]) == (result, dealt)
        assert shown["score"] == (None if score is None else {"score": score, "exact": True})
        command = shlex.split(shown["solve"])
        assert command[:2] == ["crew", "solve"] and "--budget" in command
        again = json.loads(ok(*command[1:], "--json"))
        assert again["result"] == result and again.get("score") == score


def test_show_prints_the_deal_its_answer_and_line(swept):
    (out, cell, players, index), (result, _, dealt) = next(
        (key, value) for key, value in swept.items() if key[1] == "planet-nine/12" and key[2] == 4)
    text = ok("show", out, cell, index, "--players", players).splitlines()
    assert text[0] == f"deal {index} of planet-nine/12, 4 players, seed 5:"
    assert text[1] == dealt["deal"] and text[2] == f"tasks: {dealt['tasks']}"
    assert text[4].startswith(result.upper())
    assert text[-1].startswith("solve it: crew solve --cell planet-nine/12 --players 4 --seed 5")


def test_show_seats_every_stored_line(swept):
    # "Readable lines of play: each card with its seat": crew show replays a stored line by the rules (the
    # reference's walk) to seat it, the crew's passes (the jeep's) included.
    seated = passing = 0
    for (out, cell, players, index), (result, _, _) in swept.items():
        shown = json.loads(ok("show", out, cell, index, "--players", players, "--json"))
        if result != "win":
            assert "tricks" not in shown
            continue
        tricks = shown["tricks"]
        stored = [" ".join(t["cards"]) + (" passed " + " ".join(t["passed"]) if "passed" in t else "") for t in tricks]
        assert stored == shown["line"].split("/")
        for trick, after in zip(tricks, tricks[1:]):
            cards = parse_card_list(" ".join(trick["cards"]))
            assert trick["winner"] == trick_winner(trick["leader"], cards, len(cards)) == after["leader"]
        text = ok("show", out, cell, index, "--players", players).splitlines()
        first = next(line for line in text if line.startswith("trick  1: "))
        assert first.split(": ", 1)[1].startswith(f"{tricks[0]['leader']}:{tricks[0]['cards'][0]} ")
        if any("passed" in t for t in tricks):
            assert any(line.startswith("passed: seat 0 ") for line in text)
            passing += 1
        seated += 1
    assert seated >= 10 and passing >= 1


def test_a_row_of_before_the_deals_were_stored_is_dealt_again(swept, tmp_path):
    (out, cell, players, index), (_, _, dealt) = next(
        (key, value) for key, value in swept.items() if key[1].endswith("@fog"))
    with closing(sqlite3.connect(out / "results.db")) as db, db:
        db.execute("UPDATE deals SET dealt = NULL WHERE mission = ?", (cell,))
    assert json.loads(ok("show", out, cell, index, "--json"))["dealt"] == dealt  # one player count: no --players


def test_solve_without_a_deal_solves_the_drawn_one():
    by_mission = solve(SolveRequest(mission="planet-nine/12", players=4, seed=5, index=1))
    by_cell = solve(SolveRequest(cell="planet-nine/12", players=4, seed=5, index=1))
    drawn = deal(DealRequest(mission="planet-nine/12", players=4, seed=5, index=1))
    assert by_mission.deal == by_cell.deal == drawn.dealt.deal
    assert by_mission.solution.outcome is by_cell.solution.outcome
    assert [s.mission.cards for s in by_mission.setups] == [s.mission.cards for s in by_cell.setups]
    own = solve(SolveRequest(tasks="p1 b2", players=3, seed=5, index=2))
    assert own.deal == deal(DealRequest(players=3, seed=5, index=2)).dealt.deal
    assert own.setups[0].mission.cards == (0, 10)  # p1 b2: the task mission given, on the drawn deal


def test_crew_deal_alone_and_its_solve_command():
    text = ok("deal", "--players", "3", "--seed", "5", "--index", "2").splitlines()
    assert text[0] == "deal 2 for a task mission, 3 players, seed 5:"
    assert text[-1] == 'solve it: crew solve --players 3 --seed 5 --index 2 --tasks "YOUR TASK CARDS"'
    assert text[1] == deal(DealRequest(players=3, seed=5, index=2)).record["deal"]
    ghost = ok("deal", "--players", "2", "--space", "fog", "--seed", "1").splitlines()
    assert " / " in ghost[1] and ghost[2].startswith("fog: ")


@pytest.mark.parametrize("args, words", [
    (["deal", "--cell", "planet-nine/99"], ["unknown mission"]),
    (["deal", "--cell", "nonsense"], ["bad sweep cell"]),
    (["deal", "--cell", "planet-nine/12", "--mission", "planet-nine/12"], ["leave out --mission"]),
    (["deal", "--cell", "family/1"], ["Family Adventure cell"]),
    (["deal", "--players", "6"], ["2 to 5 players", "6"]),
    (["deal", "--mission", "planet-nine/12", "--players", "3", "--difficult-ghost"], ["--players 2"]),
    (["solve", "--cell", "planet-nine/12", "--tasks", "p1"], ["drawn with its deal", "leave out --tasks"]),
    (["solve", "--seed", "3"], ["give --deal, or --seed with --mission, --cell or --tasks"]),
])
def test_bad_requests_are_one_line_errors(args, words):
    assert_one_line_error(crew(*args), *words)


def test_show_names_what_it_cannot_find(swept):
    out = next(key[0] for key in swept if key[1] == "planet-nine/12")
    assert_one_line_error(crew("show", out, "planet-nine/13", 0), "no cell 'planet-nine/13'", "planet-nine/12")
    assert_one_line_error(crew("show", out, "planet-nine/12", 0), "2, 4 players", "give --players")
    assert_one_line_error(crew("show", out, "planet-nine/12", DEALS, "--players", 4), f"no deal {DEALS}",
                          f"{DEALS} deals stored")
    assert_one_line_error(crew("show", out.parent / "nowhere", "planet-nine/12", 0), "no sweep results")


def test_a_record_s_line_holds_the_crew_s_passes(swept):
    # The jeep's trick: every seat's two cards into the middle, written after the trick as Trick.passed.
    out = next(key[0] for key in swept if key[1].endswith("@jeep"))
    with closing(sqlite3.connect(out / "results.db")) as db:
        lines = [line for (line,) in db.execute("SELECT line FROM deals WHERE mission LIKE '%@jeep' AND result = 'win'")]
    assert lines and all(line.count(" passed ") == 1 for line in lines)
    passed = next(trick for trick in lines[0].split("/") if " passed " in trick).split(" passed ")[1].split()
    assert len(passed) == 2 * 3  # two cards from each of the three seats
