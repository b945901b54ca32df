"""The Family Adventure command line end to end: `crew family solve`, `crew family missions`,
`crew missions list --game family`, `crew missions check`, `crew sweep --game family`, `crew report`, `crew plot`.

Most commands run in-process (click's CliRunner on cli.main.main); a few run the installed `crew` as a
real process, where the exit code and stderr are what a user sees. Every WIN is checked independently:
the turns of --json (and the compact lines stored by sweeps) are rebuilt as solver.family.turns objects,
replayed through the rules module, and the finished row is checked against the mission's objectives.
"""

import contextlib
import json
import re
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_sweep import assert_one_line_error, cells_of, table_rows

from cli.main import main
from solver.core.deal import deal_rng
from solver.experiments.sweep import Batch, Cell, family_case
from solver.family.cards import parse_card
from solver.family.deal import format_family_deal, parse_family_deal, random_family_deal
from solver.family.mission import built_in_family_missions, load_family_missions, random_objectives
from solver.family.objectives import unmet
from solver.family.search import DFS_POSITIONS_PER_SECOND
from solver.family.turns import Play, Trade, Turn, replay, special_item

CREW = Path(sys.executable).with_name("crew")
HANDS = "P1 P2 P3 P4 P5 P6 P7 | G1 G2 G3 G4 G5 G6 G7 | B1 B2 B3 B4 B5 B6 B7"
DEAL = f"{HANDS} ; specials 1 2 3 ; aside 4 5 6 ; shell 0"  # seat 1 holds the coconut (G3)
GHOST_DEAL = f"{HANDS} ; specials 1 2 3 ; aside 4 5 6 ; shell 0 ; ghost ; first 0"

# `three-only`: for 3 players only. `impossible`: no special cards, and P1 then B7 is no step: a LOSS.
# `no-titania`: 5 cards, Titania not played (a custom mission that a 3-player deal wins).
MISSION_FILE = textwrap.dedent("""\
    game = "family"

    [[mission]]
    name = "three-only"
    cards = 4
    players = [3]
    play = [{ cards = ["coconut"], row = "white" }]

    [[mission]]
    name = "impossible"
    cards = 4
    specials = false
    positions = { "1" = "P1", "2" = "B7" }

    [[mission]]
    number = 7
    cards = 5
    forbid = ["Titania"]
""")


def crew(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def ok(*args):
    """Run `crew ARGS` in-process; it must succeed with nothing on stderr."""
    result = crew(*args)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return result


def solve_json(*args) -> dict:
    return json.loads(ok("family", "solve", "--json", *args).stdout)


def process(*args) -> subprocess.CompletedProcess:
    return subprocess.run([str(CREW), *map(str, args)], check=False, capture_output=True, text=True, timeout=120)


@pytest.fixture
def mission_file(tmp_path) -> Path:
    path = tmp_path / "family-missions.toml"
    path.write_text(MISSION_FILE)
    return path


# --- checking a line of play independently -------------------------------------------------


def item(text: str) -> int:
    """Return the trade item of `S4` (a special card) or a colour card."""
    return special_item(int(text[1:])) if re.fullmatch(r"S[1-6]", text) else parse_card(text)


def turns_from_json(turns: list[dict]) -> list[Turn]:
    built = []
    for t in turns:
        if t.get("hammock"):
            assert set(t) <= {"seat", "hammock", "shell"}
            found = t.get("shell")
            card = int(found[1:]) if found else None
            built.append(Turn(t["seat"], hammock=True, shell="shell" in t, shell_card=card))
            continue
        trade = t.get("trade")
        swap = Trade(trade["partner"], item(trade["give"]), item(trade["receive"])) if trade else None
        plays = tuple(Play(parse_card(p["card"]), frozenset(p["specials"])) for p in t["plays"])
        built.append(Turn(t["seat"], False, swap, plays))
    return built


def turns_from_line(deal, line: str) -> list[Turn]:
    """Return the turns of a sweep's compact line (`-`, `-S4`, `B7*4`, `P7,P4`, `[P5>S4@3]G1`); seats go round."""
    turns = []
    for number, word in enumerate(line.split()):
        seat = (deal.first + number) % deal.seats
        if match := re.fullmatch(r"-(S([1-6])?)?", word):
            card = int(match[2]) if match[2] else None
            turns.append(Turn(seat, hammock=True, shell=bool(match[1]), shell_card=card))
            continue
        swap = None
        if match := re.fullmatch(r"\[(\w+)>(\w+)@(\d)\](.+)", word):
            swap, word = Trade(int(match[3]), item(match[1]), item(match[2])), match[4]
        plays = []
        for part in word.split(","):
            card, *specials = part.split("*")
            plays.append(Play(parse_card(card), frozenset(map(int, specials))))
        turns.append(Turn(seat, False, swap, tuple(plays)))
    return turns


def assert_wins(deal, mission, turns) -> list[int]:
    """Replay the turns through the rules module: legal, all cards played, every objective met. Return the row."""
    state = replay(deal, mission, turns)
    assert state.finished
    assert unmet(mission, state.row) is None
    return [p.card for t in turns for p in t.plays]


def hammocks(answer: dict) -> int:
    return sum(1 for t in answer["turns"] if t.get("hammock"))


def assert_json_wins(answer: dict, mission) -> None:
    deal = parse_family_deal(answer["deal"])
    assert answer["result"] == "win"
    row = assert_wins(deal, mission, turns_from_json(answer["turns"]))
    assert [parse_card(c) for c in answer["row"]] == row


# --- crew family solve ---------------------------------------------------------------------


def test_solve_text_shows_the_turns_and_rows():
    text = ok("family", "solve", "--deal", DEAL, "--mission", "family/25").stdout
    lines = text.splitlines()
    assert lines[0] == f"deal     {DEAL}"
    assert lines[1] == "mission  family/25: - (9 cards, 4 hammocks)"
    assert re.fullmatch(r"WIN  \((dfs|cp-sat), \d+ ms, [\d,]+ nodes\)", lines[2])
    turns = [line for line in lines if re.match(r"\s+\d+\. seat \d: ", line)]
    assert lines[3:3 + len(turns)] == turns  # the numbered turns, then the rows
    assert [line.split(":")[0].split() for line in lines[3 + len(turns):]] == [["white", "row"], ["grey", "row"],
                                                                                ["black", "row"]]
    rows = [line.split(":", 1)[1].split("  ") for line in lines[3 + len(turns):]]
    assert [len(cards) for cards in rows] == [3, 3, 3]  # nine cards in rows of three


def test_solve_json_replays_and_meets_the_objectives():
    answer = solve_json("--deal", DEAL, "--mission", "family/1")
    assert set(answer) == {"deal", "mission", "objectives", "result", "turns", "row", "nodes", "seconds", "engine"}
    assert answer["deal"] == DEAL
    assert (answer["mission"], answer["objectives"]) == ("family/1", "B6 B7 in the white row")
    mission = built_in_family_missions()["family/1"]
    assert_json_wins(answer, mission)
    assert {"B6", "B7"} <= set(answer["row"][:4])
    assert answer["turns"][0]["seat"] == 1  # the coconut's holder begins


def test_solve_text_and_json_give_the_same_line():
    answer = solve_json("--deal", DEAL, "--mission", "titania-4", "--engine", "dfs")
    text = ok("family", "solve", "--deal", DEAL, "--mission", "titania-4", "--engine", "dfs").stdout
    numbered = [line.split(". ", 1)[1] for line in text.splitlines() if re.match(r"\s+\d+\. seat", line)]
    assert len(numbered) == len(answer["turns"])
    for line, turn in zip(numbered, answer["turns"]):
        assert line.startswith(f"seat {turn['seat']}: ")
        assert ("hammock" in line) == bool(turn.get("hammock"))
    white = next(line for line in text.splitlines() if "white row:" in line)
    assert [word for word in white.split() if re.fullmatch(r"[PGB][1-7]", word)] == answer["row"]


ENGINE_CASES = [  # FILE: the test's mission file
    (["--deal", DEAL, "--mission", "family/1"], "win"),
    (["--deal", DEAL, "--mission", "tiger-sharks"], "win"),
    (["--seed", "1", "--players", "3", "--objectives", "5"], "win"),  # auto goes on to CP-SAT here
    (["--deal", DEAL, "--mission", "impossible", "--mission-file", "FILE"], "loss"),
]


@pytest.mark.parametrize("args, expected", ENGINE_CASES, ids=["family-1", "tiger-sharks", "objectives", "loss"])
def test_every_engine_gives_the_same_result(args, expected, mission_file):
    args = [mission_file if arg == "FILE" else arg for arg in args]
    answers = {engine: solve_json(*args, "--engine", engine) for engine in ("auto", "cpsat", "dfs")}
    assert {a["result"] for a in answers.values()} == {expected}
    assert answers["cpsat"]["engine"] == "cp-sat" and answers["dfs"]["engine"] == "dfs"
    assert answers["auto"]["engine"] in ("dfs", "cp-sat")
    assert len({a["deal"] for a in answers.values()}) == 1
    for answer in answers.values():
        if expected == "win":
            assert_json_wins(answer, missions_of(answer, mission_file))
        else:
            assert answer["turns"] == [] and answer["row"] == []


def missions_of(answer: dict, mission_file: Path):
    """Return the mission an answer was solved for (random objectives redrawn from seed 1, as the CLI does)."""
    if answer["mission"].startswith("family/objectives/"):
        rng = deal_rng(1, 0)
        deal = random_family_deal(3, rng)
        assert format_family_deal(deal) == answer["deal"]
        return random_objectives(int(answer["mission"].rpartition("/")[2]), rng)
    return {**built_in_family_missions(), **load_family_missions(mission_file)}[answer["mission"]]


def test_auto_answers_hard_cases_with_cpsat():
    answer = solve_json("--seed", "1", "--players", "3", "--objectives", "5")
    assert answer["engine"] == "cp-sat"  # the quick DFS did not settle it: the case covers the CP-SAT path


def test_loss_text(mission_file):
    text = ok("family", "solve", "--deal", DEAL, "--mission", "impossible", "--mission-file", mission_file).stdout
    lines = text.splitlines()
    assert lines[1] == "mission  family/impossible: P1 at position 1; B7 (Titania) at position 2 " \
                       "(4 cards, 4 hammocks, no special cards)"
    assert lines[2].startswith("LOSS  (")
    assert len(lines) == 3  # no turns, no rows


def timing_free(text: str) -> str:
    return re.sub(r"\d+ ms", "ms", text)


def test_seeded_drawing_is_reproducible():
    args = ["--seed", "11", "--players", "4", "--mission", "help"]
    first, second = ok("family", "solve", *args).stdout, ok("family", "solve", *args).stdout
    assert timing_free(first) == timing_free(second)
    answers = [solve_json(*args) for _ in range(2)]
    for answer in answers:
        del answer["seconds"]
    assert answers[0] == answers[1]
    assert answers[0]["deal"] == format_family_deal(random_family_deal(4, deal_rng(11, 0)))
    assert solve_json("--seed", "12", "--players", "4", "--mission", "help")["deal"] != answers[0]["deal"]
    assert_json_wins(answers[0], built_in_family_missions()["family/help"])


def test_default_players_is_four():
    answer = solve_json("--seed", "3")
    assert len(answer["deal"].split(";")[0].split("|")) == 4
    assert answer["mission"] == "family/1"


@pytest.mark.parametrize("players", [2, 3, 5])
def test_objectives_draw_a_twelve_card_mission(players):
    answer = solve_json("--objectives", "4", "--players", str(players), "--seed", "2")
    assert answer["mission"] == "family/objectives/4"
    rng = deal_rng(2, 0)
    deal = random_family_deal(players, rng)
    mission = random_objectives(4, rng)
    assert answer["deal"] == format_family_deal(deal)
    assert answer["objectives"] == mission.summary() != "-"
    assert len(answer["row"]) == 12
    assert_json_wins(answer, mission)
    again = solve_json("--objectives", "4", "--players", str(players), "--seed", "2")
    assert (again["objectives"], again["row"]) == (answer["objectives"], answer["row"])


def test_two_players_play_with_the_ghost():
    answer = solve_json("--players", "2", "--seed", "4", "--mission", "toolbox-grey")
    assert answer["deal"].endswith(("; ghost ; first 0", "; ghost ; first 1"))
    deal = parse_family_deal(answer["deal"])
    assert (deal.players, deal.seats, deal.ghost) == (2, 3, True)
    assert answer["turns"][0]["seat"] == deal.first
    assert_json_wins(answer, built_in_family_missions()["family/toolbox-grey"])
    text = ok("family", "solve", "--deal", GHOST_DEAL, "--mission", "family/1").stdout
    assert "(4 cards, 4 hammocks)" in text  # two players lay out the 3-player number
    assert "WIN" in text.splitlines()[2]


def test_hand_written_ghost_deal_replays(mission_file):
    answer = solve_json("--deal", GHOST_DEAL, "--mission", "7", "--mission-file", mission_file, "--engine", "cpsat")
    assert answer["deal"] == GHOST_DEAL
    assert_json_wins(answer, load_family_missions(mission_file)["family/7"])
    assert "B7" not in answer["row"]


def test_fewest_hammocks_with_cpsat():
    default = solve_json("--deal", DEAL, "--mission", "family/1")
    fewest = solve_json("--deal", DEAL, "--mission", "family/1", "--engine", "cpsat", "--fewest-hammocks")
    assert_json_wins(fewest, built_in_family_missions()["family/1"])
    assert hammocks(fewest) <= hammocks(default)
    assert hammocks(fewest) == 0  # seat 2 plays Snake and Titania in one turn with special card 3
    assert hammocks(default) >= 1  # so the comparison above says something


def test_json_trade_and_double_replay():
    """This line trades (special card 1) and plays two cards in one turn (3): both replay through the rules."""
    answer = solve_json("--players", "2", "--mission", "help", "--engine", "cpsat", "--fewest-hammocks")
    assert any("trade" in t for t in answer["turns"])
    assert any(len(t.get("plays", [])) == 2 for t in answer["turns"])
    assert_json_wins(answer, built_in_family_missions()["family/help"])


def test_fewest_hammocks_with_the_default_engine():
    """docs/family.md: `crew family solve --players 2 --mission help --fewest-hammocks` (no --engine)."""
    result = crew("family", "solve", "--players", "2", "--mission", "help", "--fewest-hammocks", "--json")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    plain = solve_json("--players", "2", "--mission", "help")
    assert answer["result"] == "win"
    assert hammocks(answer) <= hammocks(plain)


def test_fewest_hammocks_refuses_dfs():
    result = crew("family", "solve", "--deal", DEAL, "--engine", "dfs", "--fewest-hammocks")
    assert_one_line_error(result, "--fewest-hammocks")


def test_mission_file(mission_file):
    answer = solve_json("--deal", DEAL, "--mission", "family/7", "--mission-file", mission_file)
    assert (answer["mission"], answer["objectives"]) == ("family/7", "B7 not played")
    assert_json_wins(answer, load_family_missions(mission_file)["family/7"])
    assert len(answer["row"]) == 5
    three = solve_json("--deal", DEAL, "--mission", "three-only", "--mission-file", mission_file)
    assert "G3" in three["row"][:4]


def test_budget_leaves_a_long_search_unknown():
    """The plain DFS needs many seconds for never-increasing on this deal; with 0.2 s of work it is UNKNOWN, past
    the positions 0.2 s of work counts (search.DFS_POSITIONS_PER_SECOND; not wall time, which a loaded machine
    stretches: it took 2.2 s with four processes on two cores)."""
    result = ok("family", "solve", "--deal", DEAL, "--mission", "never-increasing", "--engine", "dfs",
                "--budget", "0.2", "--json")
    answer = json.loads(result.stdout)
    assert (answer["result"], answer["turns"]) == ("unknown", [])
    assert answer["nodes"] == round(0.2 * DFS_POSITIONS_PER_SECOND) + 1


# --- bad input -----------------------------------------------------------------------------

SIX_HANDS = "P1 P2 P3 P4 | P5 P6 P7 G1 | G2 G3 G4 | G5 G6 G7 | B1 B2 B3 B4 | B5 B6 B7 ; specials 1 2 3 4 5 6 ; " \
            "aside ; shell 0"
BAD_DEALS = [
    ("no fields", HANDS, "specials, aside, shell"),
    ("no shell", f"{HANDS} ; specials 1 2 3 ; aside 4 5 6", "shell"),
    ("empty shell", f"{HANDS} ; specials 1 2 3 ; aside 4 5 6 ; shell", "shell"),
    ("unknown card", DEAL.replace("P7", "X9"), "X9"),
    ("card twice", DEAL.replace("G1", "P1"), "P1"),
    ("card twice in a hand", DEAL.replace("P2", "P1"), "P1"),
    ("card missing", DEAL.replace("P7 ", ""), "P7"),
    ("uneven hands", DEAL.replace("P7 | G1", "P7 G1 |"), "6/7/8"),
    ("six hands", SIX_HANDS, "6"),
    ("special twice", DEAL.replace("aside 4 5 6", "aside 4 5 5"), "special"),
    ("shell 6", DEAL.replace("shell 0", "shell 6"), "shell"),
    ("unknown field", DEAL + " ; colour 3", "colour"),
    ("field twice", DEAL + " ; shell 1", "shell"),
    ("not the coconut", DEAL + " ; first 0", "coconut"),
    ("ghost coin", GHOST_DEAL.replace("first 0", "first 2"), "first turn"),
]


@pytest.mark.parametrize("deal, words", [c[1:] for c in BAD_DEALS], ids=[c[0] for c in BAD_DEALS])
def test_malformed_deal_is_one_line(deal, words):
    assert_one_line_error(crew("family", "solve", "--deal", deal), words)


def test_bad_missions_are_one_line(tmp_path, mission_file):
    assert_one_line_error(crew("family", "solve", "--deal", DEAL, "--mission", "nope"), "unknown mission", "nope")
    assert_one_line_error(crew("family", "solve", "--deal", DEAL, "--mission", "family/2"), "family/2")
    broken = tmp_path / "broken.toml"
    broken.write_text('game = "family"\n\n[[mission]]\nnumber = 3\ncards = 5\nforbid = ["Zorro"]\n')
    assert_one_line_error(crew("family", "solve", "--deal", DEAL, "--mission", "3", "--mission-file", broken),
                          "broken.toml", "Zorro")
    not_toml = tmp_path / "not.toml"
    not_toml.write_text('game = "family"\n[[mission]\n')
    assert_one_line_error(crew("family", "solve", "--mission", "1", "--mission-file", not_toml), "not valid TOML")
    assert_one_line_error(crew("family", "solve", "--mission", "1", "--mission-file", tmp_path / "missing.toml"),
                          "missing.toml")
    assert_one_line_error(crew("family", "solve", "--objectives", "3", "--mission-file", mission_file),
                          "--mission-file")


def test_mission_not_for_the_deals_players(mission_file):
    four = "P1 P2 P3 P4 P5 P6 | P7 G1 G2 G3 G4 | G5 G6 G7 B1 B2 | B3 B4 B5 B6 B7 ; specials 1 2 3 4 ; aside 5 6 ; " \
           "shell 2"
    assert_one_line_error(crew("family", "solve", "--deal", four, "--mission", "three-only", "--mission-file",
                               mission_file), "family/three-only is for 3 players", "the deal has 4")
    assert_one_line_error(crew("family", "solve", "--deal", GHOST_DEAL, "--mission", "three-only", "--mission-file",
                               mission_file), "the deal has 2")
    assert_one_line_error(crew("family", "solve", "--players", "5", "--mission", "three-only", "--mission-file",
                               mission_file), "the deal has 5")


@pytest.mark.parametrize("args, words", [
    (["--players", "7"], "--players"),
    (["--players", "1"], "--players"),
    (["--objectives", "13"], "--objectives"),
    (["--engine", "kernel"], "--engine"),
    (["--seed", "-1"], "--seed"),
    (["--budget", "0"], "--budget"),
])
def test_bad_options_are_one_line(args, words):
    assert_one_line_error(crew("family", "solve", *args), words)


def test_errors_of_the_real_command():
    """As a user sees them: exit 2, one stderr line, nothing on stdout, no traceback."""
    for args in (["--players", "7"], ["--deal", DEAL.replace("G1", "P1")]):
        done = process("family", "solve", *args)
        assert done.returncode == 2, done.stderr
        assert done.stdout == ""
        lines = done.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("crew: error: "), done.stderr
        assert "Traceback" not in done.stderr


# --- mission lists and checks --------------------------------------------------------------

BUILT_IN = ["family/1", "family/25", "family/toolbox-grey", "family/no-lifeboat", "family/riku-maite-stella",
            "family/up-then-down", "family/never-increasing", "family/titania-4", "family/help", "family/tiger-sharks"]


def test_family_missions_lists_the_built_in_missions():
    listed = ok("family", "missions").stdout
    lines = listed.splitlines()
    assert lines[0].split() == ["mission", "players", "cards", "hammocks", "objectives"]
    assert [line.split()[0] for line in lines[1:]] == BUILT_IN
    first = lines[1].split()
    assert first[:4] == ["family/1", "2,3,4,5", "4", "4/5/6"] and " ".join(first[4:]) == "B6 B7 in the white row"
    assert ok("missions", "list", "--game", "family").stdout == listed


def test_missions_show_prints_a_family_mission():
    shown = ok("missions", "show", "family/riku-maite-stella").stdout
    assert "8 in rows of 4" in shown and "in order P2 (Riku) < G2 (Maite) < B3 (Stella)" in shown


def test_family_missions_of_a_file(mission_file):
    listed = ok("family", "missions", "--mission-file", mission_file).stdout
    assert [line.split()[0] for line in listed.splitlines()[1:]] == ["family/three-only", "family/impossible",
                                                                       "family/7"]
    assert "no specials" in next(line for line in listed.splitlines() if "impossible" in line)
    assert ok("missions", "list", "--game", "family", "--mission-file", mission_file).stdout == listed


def test_missions_check_a_family_file(tmp_path, mission_file):
    result = ok("missions", "check", mission_file)
    assert result.stdout.strip() == f"{mission_file}: 3 missions, all valid"
    bad = tmp_path / "bad.toml"
    bad.write_text(MISSION_FILE.replace('forbid = ["Titania"]', 'forbid = ["Titania"]\nrows = { grey = "up" }'))
    assert_one_line_error(crew("missions", "check", bad), "family/7", "rows")
    two = tmp_path / "two.toml"
    two.write_text(MISSION_FILE.replace('"coconut"', '"Zorro"').replace('"Titania"', '"Titanic"'))
    result = crew("missions", "check", two)
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 2 and all(line.startswith("crew: error: ") for line in lines)  # one line per problem
    assert "Zorro" in lines[0] and "Titanic" in lines[1]


@pytest.mark.parametrize("game_line", ["game = 'family'", 'game\t= "family"', '"game" = "family"'],
                         ids=["literal string", "tab", "quoted key"])
def test_missions_check_knows_every_toml_spelling_of_the_game(tmp_path, game_line):
    """Each spelling is valid TOML for game = "family"; `crew family missions` reads the file fine."""
    path = tmp_path / "spelled.toml"
    path.write_text(MISSION_FILE.replace('game = "family"', game_line))
    assert len(ok("family", "missions", "--mission-file", path).stdout.splitlines()) == 4
    result = crew("missions", "check", path)
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == f"{path}: 3 missions, all valid"


# --- crew sweep --game family --------------------------------------------------------------

SWEEP = ["sweep", "--game", "family", "--missions", "1,titania-4", "--players", "3,4", "--deals", "6"]
SWEEP_CELLS = [("family/1", 3), ("family/1", 4), ("family/titania-4", 3), ("family/titania-4", 4)]
OBJECTIVES = ["sweep", "--game", "family", "--objectives", "0,6", "--players", "2", "--deals", "6"]
COLUMNS = "mission, players, seed, deal_index, result, nodes, engine, setup, line"


def records(out: Path) -> list[tuple]:
    """Every stored column but the time (ms)."""
    with contextlib.closing(sqlite3.connect(out / "results.db")) as db:
        return db.execute(f"SELECT {COLUMNS} FROM deals ORDER BY mission, players, seed, deal_index").fetchall()


def assert_lines_win(rows: list[tuple], missions: dict) -> None:
    """Each stored WIN line replays legally from the cell's deal and meets the deal's mission."""
    for mission_id, players, seed, index, result, _, engine, setup, line in rows:
        assert (result, setup) == ("win", "") and engine in ("dfs", "cp-sat")
        batch = Batch(Cell(mission_id, players), missions.get(mission_id), seed, (index,), 10.0)
        deal, mission = family_case(batch, index)
        assert deal.players == players
        assert_wins(deal, mission, turns_from_line(deal, line))


@pytest.fixture(scope="module")
def mission_sweep(tmp_path_factory):
    out = tmp_path_factory.mktemp("family-sweep") / "results"
    result = ok(*SWEEP, "--jobs", "1", "--out", out)
    return out, result


@pytest.fixture(scope="module")
def objective_sweep(tmp_path_factory):
    out = tmp_path_factory.mktemp("family-objectives") / "results"
    result = ok(*OBJECTIVES, "--jobs", "1", "--out", out)
    return out, result


def test_sweep_table_and_files(mission_sweep):
    out, result = mission_sweep
    assert cells_of(result.stdout) == SWEEP_CELLS
    stored = records(out)
    assert len(stored) == 4 * 6
    for row in table_rows(result.stdout):
        mine = [r for r in stored if (r[0], r[1]) == (row[0], int(row[1]))]
        assert row[2:6] == ["6", str(sum(r[4] == "win" for r in mine)), str(sum(r[4] == "loss" for r in mine)), "0"]
    assert sorted({(r[0], r[1], r[2]) for r in stored}) == [(m, p, 1) for m, p in SWEEP_CELLS]  # seed 1
    assert_lines_win(stored, built_in_family_missions())
    assert any("[" in r[8] for r in stored) and any("*" in r[8] for r in stored)  # the replays cover trades
    summary_csv = (out / "summary.csv").read_text().splitlines()
    assert summary_csv[0].startswith("mission,players,deals,wins")
    assert [tuple(line.split(",")[:3]) for line in summary_csv[1:]] == [(m, str(p), "6") for m, p in SWEEP_CELLS]
    summary = json.loads((out / "summary.json").read_text())
    assert [(c["mission"], c["players"], c["deals"]) for c in summary["cells"]] == [(m, p, 6) for m, p in SWEEP_CELLS]
    assert summary["complete"] is True and summary["seed"] == 1


def test_sweep_again_does_no_new_work(mission_sweep):
    out, first = mission_sweep
    before = records(out)
    again = ok(*SWEEP, "--jobs", "1", "--out", out)
    assert "deals/s" not in again.stderr  # nothing was solved
    assert again.stdout == first.stdout
    assert records(out) == before


def test_sweep_resumes_the_missing_deals(tmp_path, mission_sweep):
    out = tmp_path / "resume"
    short = [a if a != "6" else "3" for a in SWEEP]
    ok(*short, "--jobs", "1", "--out", out)
    assert len(records(out)) == 4 * 3
    resumed = ok(*SWEEP, "--jobs", "1", "--out", out)
    assert "/ 12 deals" in resumed.stderr  # 3 new deals in each of the 4 cells
    assert records(out) == records(mission_sweep[0])


def test_report_and_plot(mission_sweep, objective_sweep, tmp_path):
    for out, result in (mission_sweep, objective_sweep):
        report = ok("report", out)
        assert report.stdout == result.stdout
        png = tmp_path / f"{out.parent.name}.png"
        plotted = ok("plot", out, "-o", png)
        assert plotted.stdout.strip() == f"wrote {png}"
        data = png.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000
    ok("plot", mission_sweep[0])
    assert (mission_sweep[0] / "winrates.png").read_bytes()[:4] == b"\x89PNG"


def test_objectives_with_two_players(objective_sweep):
    out, result = objective_sweep
    assert cells_of(result.stdout) == [("family/objectives/0", 2), ("family/objectives/6", 2)]
    stored = records(out)
    assert len(stored) == 12
    assert {r[6] for r in stored} == {"dfs", "cp-sat"}  # both engines of auto took part
    assert_lines_win(stored, {})
    assert any("," in r[8] for r in stored)  # the replays cover two cards in one turn
    # the mission is drawn per deal: the six deals of the K = 6 cell require different cards
    summaries = {family_case(Batch(Cell("family/objectives/6", 2), None, 1, (i,), 10.0), i)[1].summary()
                 for i in range(6)}
    assert len(summaries) == 6


def test_jobs_2_gives_the_same_records(objective_sweep, mission_sweep, tmp_path):
    """Every column but the time, nodes included: the DFS and one-worker CP-SAT are deterministic."""
    for reference, command in ((objective_sweep[0], OBJECTIVES), (mission_sweep[0], SWEEP)):
        out = tmp_path / reference.parent.name
        ok(*command, "--jobs", "2", "--batch", "2", "--out", out)
        assert records(out) == records(reference)


BAD_SWEEPS = [
    (["--game", "planet-nine", "--objectives", "3"], "--objectives goes with --game family"),
    (["--objectives", "3"], "--objectives goes with --game family"),
    (["--game", "family", "--tasks", "3"], "--tasks"),
    (["--game", "family", "--owners", "dealt"], "--owners"),
    (["--game", "family", "--objectives", "3", "--missions", "1"], "leave out --missions"),
    (["--game", "family", "--missions", "nope"], "unknown mission family/nope"),
    (["--game", "family", "--missions", "2"], "unknown mission family/2"),
    (["--game", "family", "--objectives", "13"], "--objectives 13"),
    (["--game", "family", "--objectives", "x"], "--objectives"),
    (["--game", "family", "--players", "1"], "--players 1"),
    (["--game", "family", "--players", "6"], "--players 6"),
    (["--players", "1"], "--players 1"),
    (["--game", "family", "--players", "2", "--difficult-ghost"], "--difficult-ghost"),
]


@pytest.mark.parametrize("args, words", BAD_SWEEPS, ids=[" ".join(a) for a, _ in BAD_SWEEPS])
def test_bad_sweeps_are_one_line(tmp_path, args, words):
    out = tmp_path / "never-made"
    assert_one_line_error(crew("sweep", "--out", out, "--deals", "1", "--jobs", "1", *args), words)
    assert not out.exists()


def test_sweep_with_a_family_mission_file(tmp_path, mission_file):
    out = tmp_path / "file"
    result = ok("sweep", "--game", "family", "--mission-file", mission_file, "--players", "2,3", "--deals", "2",
                "--jobs", "1", "--out", out)
    assert cells_of(result.stdout) == [("family/7", 2), ("family/7", 3), ("family/impossible", 2),
                                       ("family/impossible", 3), ("family/three-only", 3)]
    rows = table_rows(result.stdout)
    assert [row[3:5] for row in rows if row[0] == "family/impossible"] == [["0", "2"], ["0", "2"]]
    missions = load_family_missions(mission_file)
    assert_lines_win([r for r in records(out) if r[4] == "win"], missions)
    assert all(r[8] == "" for r in records(out) if r[4] == "loss")
    assert_one_line_error(crew("sweep", "--game", "family", "--mission-file", mission_file, "--missions",
                               "three-only", "--players", "4", "--out", tmp_path / "none"), "4 players")


# --- a Dask cluster ------------------------------------------------------------------------


def test_cluster_gives_the_same_records(objective_sweep, tmp_path):
    """The objective sweep (DFS and CP-SAT deals) on a LocalCluster of two worker processes, run by the real `crew`."""
    distributed = pytest.importorskip("distributed")
    out = tmp_path / "cluster"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=2, processes=True,
                                  dashboard_address="127.0.0.1:0") as cluster:
        done = process(*OBJECTIVES, "--batch", "2", "--out", out, "--scheduler", cluster.scheduler_address)
    assert done.returncode == 0, done.stderr
    assert records(out) == records(objective_sweep[0])
    assert done.stdout.splitlines()[0].split()[:3] == ["mission", "players", "deals"]
    assert cells_of(done.stdout) == cells_of(objective_sweep[1].stdout)
