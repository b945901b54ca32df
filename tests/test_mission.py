"""Mission files: the built-in logbook against the BGA facts, and one-line errors for bad files."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from solver.core.cards import parse_cards
from solver.missions.mission import (
    LAST,
    BalancedRule,
    MissionError,
    OwnTrickRule,
    TaskInLastTrickRule,
    TricksRule,
    built_in_missions,
    find_mission,
    parse_missions,
)
from solver.missions.tasks import parse_token

FACTS = Path(__file__).parent / "data" / "planet_nine_facts.jsonl"  # from ../shared/missions/planet-nine.md
MISSIONS = {k: m for k, m in built_in_missions().items() if k.startswith("planet-nine/")}


def facts():
    return [json.loads(line) for line in FACTS.read_text().splitlines() if line.strip()]


@pytest.mark.parametrize("fact", facts(), ids=lambda f: str(f["id"]))
def test_logbook_mission_matches_the_bga_facts(fact):
    mission = MISSIONS[f"planet-nine/{fact['id']}"]
    assert mission.tasks == fact["tasks"]
    assert mission.tokens == tuple(parse_token(t) for t in fact["tokens"])
    if fact["assignment"] != "none":
        assert mission.assignment == fact["assignment"].replace("_", "-")
    assert mission.five_player_pass == fact["five_player_task_pass"]
    has_special = "special" in fact and fact["special"].get("solver_effect") != "none"
    assert bool(mission.rules or mission.options or mission.chance) == has_special


def test_all_fifty_missions_are_built_in():
    assert sorted(int(i.split("/")[1]) for i in MISSIONS) == list(range(1, 51))


def test_special_rules_read_as_written():
    # Mission 41: X wins trick 1 and the last, no middle trick, never with a trump.
    assert MISSIONS["planet-nine/41"].rules == (
        TricksRule("not X", tricks=((1, 1), (LAST, LAST)), at_most=0),
        TricksRule("X", tricks=((2, LAST - 1),), at_most=0),
        TricksRule("X", won_with=parse_cards("r1 r2 r3 r4"), at_most=0),
    )
    assert MISSIONS["planet-nine/26"].rules == (TricksRule(won_with=parse_cards("p1 b1 g1 y1"), at_least=2),)
    assert MISSIONS["planet-nine/29"].rules == (BalancedRule(1),)
    assert MISSIONS["planet-nine/44"].rules == (OwnTrickRule(parse_cards("r1 r2 r3 r4"), ordered=True),)
    assert MISSIONS["planet-nine/48"].rules == (TaskInLastTrickRule(parse_token("omega")),)
    assert [c.among for c in MISSIONS["planet-nine/50"].choose] == ["anyone", "not A"]


def mission_file(body: str) -> str:
    return 'game = "test"\n' + body


GOOD = """
[[mission]]
name = "variant-5"
tasks = 2
tokens = ["1"]
choose = [{ name = "X", by = "crew", among = "others" }]
rules = [{ rule = "tricks", who = "X", at_most = 1 }, { rule = "tricks", containing = "p9 b9", at_least = 1 }]
"""


def test_a_designer_variant_loads():
    mission = parse_missions(mission_file(GOOD), "variant.toml")["test/variant-5"]
    assert mission.rules[1] == TricksRule(containing=parse_cards("p9 b9"), at_least=1)


BAD = {
    "unknown field": ("[[mission]]\nnumber = 1\ntasks = 2\ncolour = 3\n", ["field 'colour'", "unknown field"]),
    "wrong type": ("[[mission]]\nnumber = 1\ntasks = \"two\"\n", ["field 'tasks'", "whole number"]),
    "token without tasks": ("[[mission]]\nnumber = 1\ntokens = [\"1\"]\n", ["field 'tokens'", "only 0 tasks"]),
    "impossible counts": (
        "[[mission]]\nnumber = 1\nrules = [{ rule = \"tricks\", at_least = 3, at_most = 1 }]\n",
        ["field 'rules'", "at_most 1 is below at_least 3"],
    ),
    "unknown rule": ("[[mission]]\nnumber = 1\nrules = [{ rule = \"fly\" }]\n", ["unknown rule 'fly'"]),
    "unknown player": (
        "[[mission]]\nnumber = 1\nrules = [{ rule = \"tricks\", who = \"Y\", at_most = 0 }]\n",
        ["who 'Y'"],
    ),
    "unknown token": ("[[mission]]\nnumber = 1\ntasks = 2\ntokens = [\"7\"]\n", ["unknown token '7'"]),
    "unknown card set": (
        "[[mission]]\nnumber = 1\nrules = [{ rule = \"tricks\", won_with = \"purple\", at_most = 0 }]\n",
        ["unknown card set 'purple'"],
    ),
    "bad trick range": (
        "[[mission]]\nnumber = 1\nrules = [{ rule = \"tricks\", tricks = [\"first\"], at_most = 0 }]\n",
        ["unknown trick number 'first'"],
    ),
    "no number": ("[[mission]]\ntasks = 1\n", ["mission #1", "'number'"]),
    "not toml": ("[[mission]\n", ["not valid TOML"]),
}


@pytest.mark.parametrize("body, words", list(BAD.values()), ids=list(BAD))
def test_bad_file_names_the_problem(body, words):
    with pytest.raises(MissionError) as caught:
        parse_missions(mission_file(body), "bad.toml")
    assert len(caught.value.problems) == 1
    line = caught.value.problems[0]
    assert "\n" not in line and line.startswith("bad.toml: ")
    for word in words:
        assert word in line


def test_every_problem_is_reported_once(tmp_path):
    path = tmp_path / "two.toml"
    path.write_text(mission_file("[[mission]]\nnumber = 1\ntasks = -1\n[[mission]]\nnumber = 2\ncolour = 1\n"))
    result = CliRunner().invoke(main, ["missions", "check", str(path)])
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 2 and all(line.startswith("crew: error: ") for line in lines)
    assert "mission test/1" in lines[0] and "mission test/2" in lines[1]


def test_check_accepts_a_good_file(tmp_path):
    path = tmp_path / "good.toml"
    path.write_text(mission_file(GOOD))
    result = CliRunner().invoke(main, ["missions", "check", str(path)])
    assert result.exit_code == 0 and "1 missions, all valid" in result.stdout


def test_check_a_missing_file_is_one_line():
    result = CliRunner().invoke(main, ["missions", "check", "/nonexistent/missions.toml"])
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1


def test_list_and_show():
    runner = CliRunner()
    listed = runner.invoke(main, ["missions", "list", "--game", "planet-nine"])
    assert listed.exit_code == 0 and len(listed.stdout.splitlines()) == 51
    shown = runner.invoke(main, ["missions", "show", "planet-nine/17"])
    assert shown.exit_code == 0 and "colour-9" in shown.stdout
    unknown = runner.invoke(main, ["missions", "show", "planet-nine/51"])
    assert unknown.exit_code == 2 and "unknown mission" in unknown.stderr
    short = runner.invoke(main, ["missions", "show", "17"])  # within the default game
    assert short.exit_code == 0 and short.stdout == shown.stdout
    journey = runner.invoke(main, ["missions", "show", "no-1-no-2", "--game", "journey"])
    assert journey.exit_code == 0 and journey.stdout.startswith("mission        journey/no-1-no-2")
    titled = runner.invoke(main, ["missions", "list", "--game", "journey"]).stdout.splitlines()
    assert any(line.endswith("; every crew member wins at least 1 yellow card") for line in titled)


def test_find_mission_in_a_file(tmp_path):
    path = tmp_path / "variant.toml"
    path.write_text(mission_file(GOOD))
    assert find_mission("variant-5", path).id == "test/variant-5"
