"""The published JSON Schemas (docs/schemas/) hold for what crew writes: `crew solve --json` in every form
(task missions, tokens, drawn missions with their chance, the Ghost, the jeep's passes, fog, scores, the
distress signal, UNKNOWN), `crew solve --batch` answers and errors, batch input lines, summary.json."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from jsonschema import Draft202012Validator

from cli.main import BATCH_KEYS, main

SCHEMAS = Path(__file__).resolve().parent.parent / "docs" / "schemas"


def validator(name: str) -> Draft202012Validator:
    schema = json.loads((SCHEMAS / name).read_text())
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


ANSWER, BATCH_LINE, SUMMARY = (validator(f"{name}.schema.json") for name in ("answer", "batch-line", "summary"))


def crew(*args, input=None):
    result = CliRunner().invoke(main, [str(a) for a in args], input=input)
    assert result.exit_code == 0, result.output
    return result.stdout


SOLVES = {
    "tokens": ["--deal", "b8 b9 | b1 p1 | b2 p2", "--tasks", "b1 p1", "--owners", "0,0", "--tokens", "1,2"],
    "loss": ["--deal", "b8 b9 | b1 p1 | b2 p2", "--tasks", "b1 p1", "--owners", "0,0", "--tokens", "2,1"],
    "unknown": ["--deal", "b8 b9 | b1 p1 | b2 p2", "--tasks", "b1 p1", "--max-nodes", "1"],
    "mission 12 with JARVIS": ["--cell", "planet-nine/12", "--players", "2", "--seed", "1", "--index", "3"],
    "jeep": ["--cell", "journey/yellow-for-everyone@jeep", "--players", "3", "--seed", "1", "--index", "2"],
    "helicopter": ["--cell", "journey/yellow-for-everyone@helicopter", "--players", "4", "--seed", "1"],
    "fog": ["--cell", "journey/yellow-for-everyone@fog", "--players", "3", "--seed", "1"],
    "score": ["--cell", "journey/no-1-no-2", "--players", "4", "--seed", "1"],
    "pattern": ["--cell", "journey/table-chain", "--players", "3", "--seed", "1"],
    "distress": ["--deal", "p1 | p5 | p9 / y1", "--tasks", "p9", "--owners", "1", "--commander", "0", "--distress"],
}


@pytest.mark.parametrize("case", SOLVES)
def test_solve_json_holds_to_its_schema(case):
    answer = json.loads(crew("solve", *SOLVES[case], "--json"))
    errors = [error.message for error in ANSWER.iter_errors(answer)]
    assert errors == [], errors


def test_the_schema_sees_the_parts_a_case_is_chosen_for():
    answers = {case: json.loads(crew("solve", *args, "--json")) for case, args in SOLVES.items()}
    assert answers["tokens"]["dealt"]["tokens"] == ["1", "2"] and answers["unknown"]["result"] == "unknown"
    assert "random_pass" in answers["mission 12 with JARVIS"]["dealt"] and " / " in answers["mission 12 with JARVIS"]["dealt"]["deal"]
    assert "jeep" in answers["jeep"]["dealt"] and any("passed" in trick for trick in answers["jeep"]["tricks"])
    assert any("passed" in trick for trick in answers["helicopter"]["tricks"])
    assert "arrivals" in answers["fog"]["dealt"] and answers["score"]["exact"] is True
    assert all("table" in trick for trick in answers["pattern"]["tricks"]) and "with_distress" in answers["distress"]


def test_a_schema_refuses_what_crew_never_writes():
    answer = json.loads(crew("solve", *SOLVES["tokens"], "--json"))
    assert ANSWER.is_valid(answer)
    for broken in ({**answer, "result": "maybe"}, {k: v for k, v in answer.items() if k != "dealt"},
                   {**answer, "tricks": [{"leader": 0, "cards": ["x1"], "winner": 0}]}):
        assert not ANSWER.is_valid(broken)


def test_batch_answers_and_errors_hold_to_the_schema():
    lines = "\n".join([json.dumps({"deal": "b8 b9 | b1 p1 | b2 p2", "tasks": "b1 p1"}), "{not json",
                       json.dumps({"cell": "planet-nine/12", "players": 2, "seed": 1})])
    answers = [json.loads(line) for line in crew("solve", "--batch", "-", input=lines).splitlines()]
    assert [("error" in a, a["line"]) for a in answers] == [(False, 1), (True, 2), (False, 3)]
    assert all(ANSWER.is_valid(a) for a in answers), [e.message for a in answers for e in ANSWER.iter_errors(a)]


def test_the_batch_line_schema_is_the_batch_keys():
    properties = BATCH_LINE.schema["properties"]
    assert {key.replace("-", "_") for key in properties} == set(BATCH_KEYS)
    assert BATCH_LINE.is_valid({"deal": "p1 | p2 | p3", "tasks": "p1", "owners": [0], "max-nodes": 10, "seed": None})
    assert not BATCH_LINE.is_valid({"deal": "p1 | p2 | p3", "colour": "pink"})
    assert not BATCH_LINE.is_valid({"seed": "3"})


def test_summary_json_holds_to_its_schema(tmp_path):
    out = tmp_path / "sweep"
    crew("sweep", "--game", "journey", "--missions", "no-1-no-2,yellow-for-everyone", "--players", "3",
         "--deals", "2", "--jobs", "1", "--out", out)
    summary = json.loads((out / "summary.json").read_text())
    errors = [error.message for error in SUMMARY.iter_errors(summary)]
    assert errors == [] and any("scores" in cell for cell in summary["cells"])
    assert summary["versions"]["commit"]  # recorded now; the results published before it was lack it:
    older = json.loads(json.dumps(SUMMARY.schema))
    older["properties"]["versions"]["required"].remove("commit")
    for published in sorted((SCHEMAS.parent.parent / "results").glob("*/summary.json")):
        assert Draft202012Validator(older).is_valid(json.loads(published.read_text())), published


def test_crew_show_has_a_line_for_every_part_of_a_stored_deal():
    # The dealt record's parts, as the schema lists them, each printed by crew show and crew deal.
    from cli.deals import DRAWN

    assert set(ANSWER.schema["$defs"]["dealt"]["properties"]) == {"deal", *DRAWN}


ANALYSIS = validator("analysis.schema.json")
GAMES = Path(__file__).resolve().parent.parent / "docs" / "games"
ANALYSES = {
    "position": ["analyze", "--deal", "p1 p9 r4 g3 | b2 g5 y7 p3 | y1 b7 g1 p4", "--tasks", "g3 b7 y1",
                 "--played", "r4 p3 p4 | p1"],
    "ended": ["analyze", "--deal", "b8 b9 | b1 p1 | b2 p2", "--tasks", "b1", "--owners", "1", "--played", "b8 b1 b2"],
    "due": ["analyze", "--deal", "h1 g5 b3 | g2 b1 b4 | g3 b2 b5", "--tasks", "b3", "--owners", "1", "--space", "helicopter",
            "--played", "r1 g2 g3 pass ? b1 ?"],
    "score": ["analyze", "--cell", "journey/no-1-no-2", "--players", "3", "--seed", "2", "--budget", "20"],
    "post-mortem": ["analyze", "--game", GAMES / "planet-nine-lost-in-trick-6.toml"],
    "explain": ["explain", "--deal", "b1 b2 b3 | b4 b5 b6 | b7 b8 b9", "--mission", "planet-nine/29", "--commander", "0"],
}


@pytest.mark.parametrize("case", ANALYSES)
def test_analysis_json_holds_to_its_schema(case):
    answer = json.loads(crew(*ANALYSES[case], "--json"))
    errors = [error.message for error in ANALYSIS.iter_errors(answer)]
    assert errors == [], errors
    if "line" in answer:  # crew solve's answer, as answer.schema.json defines it
        line = Draft202012Validator({"$ref": "#/$defs/answer", "$defs": ANSWER.schema["$defs"]})
        assert [error.message for error in line.iter_errors(answer["line"])] == []
