"""`crew missions check` reads what rules mean (solver/missions/lint.py): counts out of reach, bounds that
exclude each other, the Commander told to win no trick; warnings, or errors with --strict. Every mission it
flags is lost on deals the solver plays out (the default engine: the kernel alone takes minutes to see that
the Commander holding r4 must win a trick); every built-in mission passes."""

import pytest
from click.testing import CliRunner

from cli.main import main
from solver.core.solution import Limits, Outcome
from solver.engines.cases import TableSharing, solve_setups
from solver.engines.portfolio import PortfolioSolver
from solver.missions.dealer import deal_mission
from solver.missions.lint import findings
from solver.missions.mission import built_in_missions, parse_missions
from solver.trick.spaces import TRAIN

FILE = """game = "test"

[[mission]]
name = "pinks"
rules = [{ rule = "won-cards", cards = "pink", at_least = 11 }]

[[mission]]
name = "both"
rules = [{ rule = "tricks", won_with = "colour-9", at_most = 0 }, { rule = "tricks", won_with = "colour-9", at_least = 1 }]

[[mission]]
name = "humble"
rules = [{ rule = "tricks", who = "commander", at_most = 0 }]

[[mission]]
name = "eleven"
rules = [{ rule = "tricks", at_least = 11 }]

[[mission]]
name = "three-yellows-each"
rules = [{ rule = "won-cards", who = "each", cards = "yellow", at_least = 3 }]

[[mission]]
name = "fine"
tasks = 2
rules = [{ rule = "tricks", who = "commander", tricks = ["1"], at_most = 0 }, { rule = "tricks", at_least = 8 }]
"""
EXPECTED = {
    # "win at least 11 pink cards": the pink set has 9.
    "test/pinks": (1, (3, 4, 5), "at least 11 cards of its set, but at most 9"),
    # No trick won by a 9, and at least one trick won by a 9: the same count, bounds that exclude each other.
    "test/both": (2, (3, 4, 5), "its bounds and rule 1's, on the same count, exclude each other"),
    # "the Commander wins no trick", who holds rocket 4: every card is played with 4 or 5 players.
    "test/humble": (1, (4, 5), "the Commander holds r4"),
    "test/eleven": (1, (4, 5), "at least 11 tricks, but at most 10"),
    # Each of 4 players wins three yellow cards: 12 of a 9-card set.
    "test/three-yellows-each": (1, (4, 5), "at least 3 cards of its set each, but at most 2"),
}


@pytest.fixture(scope="module")
def missions():
    return parse_missions(FILE, "lint.toml")


def test_findings_name_the_rule_the_players_and_why(missions):
    found = {m: findings(mission) for m, mission in missions.items()}
    assert found["test/fine"] == []
    for mission, (rule, players, reason) in EXPECTED.items():
        [finding] = found[mission]
        assert (finding.rule, finding.players) == (rule, players) and reason in finding.reason, finding


# Not "three yellows each": the default engine leaves its 4-player deals open for over a minute (noted on issue 19:
# the kernel has no bound over the counters of several seats on one card set).
@pytest.mark.parametrize("mission_id", [m for m in EXPECTED if m != "test/three-yellows-each"])
def test_a_flagged_mission_is_lost_at_its_player_counts(missions, mission_id):
    mission = missions[mission_id]
    for players in EXPECTED[mission_id][1]:
        for index in range(3):
            game = deal_mission(mission, TRAIN, players, 1, index)
            answer = solve_setups(game.deal, game.setups(), TableSharing(PortfolioSolver(16)), Limits(max_work=60))
            assert answer.outcome is Outcome.LOSS, (mission_id, players, index)


def test_every_built_in_mission_passes():
    assert [str(f) for mission in built_in_missions().values() for f in findings(mission)] == []


def test_crew_missions_check_warns_or_with_strict_fails(tmp_path):
    path = tmp_path / "lint.toml"
    path.write_text(FILE)
    warned = CliRunner().invoke(main, ["missions", "check", str(path)])
    assert warned.exit_code == 0 and warned.stdout == f"{path}: 6 missions, 5 rules no deal can satisfy\n"
    lines = warned.stderr.splitlines()
    assert len(lines) == 5 and all(line.startswith(f"crew: warning: {path}: test/") for line in lines)
    strict = CliRunner().invoke(main, ["missions", "check", "--strict", str(path)])
    assert strict.exit_code == 2 and strict.stdout == ""
    assert [line.replace("crew: error: ", "crew: warning: ") for line in strict.stderr.splitlines()] == lines
    built_in = tmp_path / "fine.toml"
    built_in.write_text(FILE.split("[[mission]]")[0] + "[[mission]]" + FILE.split("[[mission]]")[-1])
    assert CliRunner().invoke(main, ["missions", "check", "--strict", str(built_in)]).stdout.endswith("all valid\n")
