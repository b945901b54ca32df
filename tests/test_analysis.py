"""crew analyze (a position's cards, a game's post-mortem) and crew explain (an impossible core).

Post-mortems and cores are checked against the reference solved directly: every play's mark is the
reference's outcome of the game up to it, and every core is LOSS and becomes WIN when any one of its
demands is dropped (the reference has no budget: never undecided). The documented example games in
docs/games/ are read by the command line.
"""

import json
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import deal_options, deals_and_missions, missions_with_conditions, plays_so_far, small_deals, space_rules
from hypothesis import given, settings
from hypothesis import strategies as st

from cli.main import main
from solver.core.cards import scan
from solver.core.solution import Outcome
from solver.engines.analysis import case_solver, consistent_cases, post_mortem
from solver.engines.cases import TableSharing
from solver.engines.explain import demands_of, earliest_failure, explain_loss, reduced
from solver.engines.kernel import KernelSolver
from solver.engines.reference import solve as reference_solve
from solver.engines.reference import walk
from solver.missions.position import Position

GAMES = Path(__file__).resolve().parent.parent / "docs" / "games"
LOST_GAME = GAMES / "planet-nine-lost-in-trick-6.toml"
DEAL = ("p5 p7 b5 g5 g6 g9 y1 y9 r2 r4 | p1 p3 b2 b4 b9 g2 y2 y4 r1 r3 | p2 p6 b1 b3 b6 g1 g8 y6 y7 y8 | "
        "p4 p8 p9 b7 b8 g3 g4 g7 y3 y5")
BEFORE_PLAY_23 = "y1 y2 y8 y3 | b1 b7 b5 b2 | p9 p7 p3 p6 | b8 g9 b9 b6 | p1 p2 p4 p5 | r2 r1"


def crew(*args: str):
    return CliRunner().invoke(main, list(args))


def assert_one_line_error(result, *words):
    assert result.exit_code == 2, result.output
    assert result.stdout == "" and len(result.stderr.splitlines()) == 1, result.output
    for word in words:
        assert word in result.stderr, result.stderr


@pytest.mark.parametrize("engine", ["kernel", "reference"])
def test_analyze_the_position_before_the_losing_play(engine):
    # The example game's trick 6 after r2 r1: seat 2 holds b3 g1 g8 y6 y7, no trump: any card. The
    # reference, the oracle, and the kernel give every card the same verdict.
    result = crew("analyze", "--deal", DEAL, "--tasks", "b8 y9 p9 p1", "--owners", "1,2,3,0",
                  "--played", BEFORE_PLAY_23, "--engine", engine, "--json")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["to_move"] == 2 and answer["trick"] == 6 and answer["result"] == "win"
    assert {c["card"]: c["result"] for c in answer["cards"]} == {
        "b3": "win", "g1": "loss", "g8": "loss", "y6": "win", "y7": "win"}
    assert [t["done"] for t in answer["tasks"]] == [True, False, True, True]
    assert answer["line"]["tricks"][5]["cards"][:3] == ["r2", "r1", answer["best"]]


def test_analyze_text_names_the_seat_to_move_and_a_winning_line():
    result = crew("analyze", "--deal", DEAL, "--tasks", "b8 y9 p9 p1", "--owners", "1,2,3,0",
                  "--played", BEFORE_PLAY_23)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "position: trick 6, seat 2 to play (so far 0:r2 1:r1)"
    assert lines[1] == "tasks: b8 done (seat 1), y9 open (seat 2), p9 done (seat 3), p1 done (seat 0)"
    assert any(line.split()[:2] == ["g1", "LOSS"] for line in lines)
    start = lines.index(next(line for line in lines if line.startswith("a winning line after")))
    assert lines[start + 1].startswith("trick  6: 0:r2 1:r1 2:")
    assert lines[-1].endswith("done: y9") or "done: y9" in "\n".join(lines[start:])


def test_post_mortem_of_the_example_game_names_play_23():
    result = crew("analyze", "--game", str(LOST_GAME), "--json")
    assert result.exit_code == 0, result.output
    review = json.loads(result.stdout)
    assert review["start"] == "win" and review["first_loss"] == 22
    assert [p["result"] for p in review["plays"]] == ["win"] * 22 + ["loss"] * 18
    assert review["plays"][22] == {"card": "g1", "seat": 2, "result": "loss"}
    text = crew("analyze", "--game", str(LOST_GAME)).stdout.splitlines()
    assert "lost by play 23 (trick 6): seat 2's g1" in text


def test_post_mortem_says_when_the_pass_after_a_trick_lost_the_mission():
    # docs/games/journey-helicopter-lost-by-a-pass.toml: after trick 8 seat 3 passes its r4 instead of y7.
    game = str(GAMES / "journey-helicopter-lost-by-a-pass.toml")
    review = json.loads(crew("analyze", "--game", game, "--json").stdout)
    assert (review["first_loss"], review["lost_by"]) == (31, "the pass")
    assert [p["result"] for p in review["plays"]] == ["win"] * 31 + ["loss"] * 5
    text = crew("analyze", "--game", game).stdout.splitlines()
    assert "lost by play 32 (trick 8): the pass after it (seat 1's g4 kept the mission winnable)" in text
    # The same game with the pass the solver finds (y7 for r4) is still winnable after trick 8.
    played = tomllib.loads(Path(game).read_text())["played"].replace("r4 |", "y7 |").split("|")[:8]
    answer = json.loads(crew("analyze", "--cell", "journey/yellow-for-everyone@helicopter", "--players", "4",
                             "--seed", "3", "--played", "|".join(played), "--json").stdout)
    assert answer["result"] == "win" and answer["to_move"] == 3
    # "every crew member wins at least 1 yellow card": one counter a seat, named in the position's state.
    text = crew("analyze", "--cell", "journey/yellow-for-everyone@helicopter", "--players", "4", "--seed", "3",
                "--played", "|".join(played)).stdout.splitlines()
    assert "counts: seat 0: 0 (at least 1), seat 1: 0 (at least 1), seat 2: 5 (at least 1), seat 3: 1 (at least 1)" \
        in text


def test_post_mortem_of_a_won_game_marks_every_play_winnable():
    result = crew("analyze", "--game", str(GAMES / "planet-nine-won.toml"))
    assert result.exit_code == 0, result.output
    assert "every play kept the mission winnable" in result.stdout.splitlines()


@pytest.mark.parametrize("content, words", [
    ("deal = 'p1 | p2 | p3'\ntasks = 'p1'\n", ["no `played`"]),
    ("deal = 'p1 | p2 | p3'\ntasks = 'p1'\nplayed = 'p1 p3'\n", ["play 2 (p3)", "seat 1 does not hold it"]),
    ("deal = 'p1 | p2 | p3'\ntasks = 'p1'\nplayed = 'p1'\nspeed = 3\n", ["unknown key 'speed'"]),
    ("deal = 'p1 | p2 | p3\n", ["not TOML"]),
])
def test_bad_game_files_get_one_line(tmp_path, content, words):
    path = tmp_path / "game.toml"
    path.write_text(content)
    assert_one_line_error(crew("analyze", "--game", str(path)), *words)


@pytest.mark.parametrize("played, words", [
    ("p3", ["play 1 (p3)", "seat 0 does not hold it"]),
    ("p1 p3 p5 | p6", ["play 4 (p6)", "after the mission failed in trick 1"]),  # seat 2 won seat 0's p1
    ("p1 p3 | p5", ["trick 1", "has 2 cards"]),
])
def test_positions_refused_with_the_first_bad_play(played, words):
    assert_one_line_error(crew("analyze", "--deal", "p1 p2 | p3 p4 | p5 p6", "--tasks", "p1", "--played", played),
                          *words)


@pytest.mark.parametrize("args, words", [
    (["explain", "--deal", "p7 b5 | p2 b7 | b2 b8", "--tasks", "b7 b2", "--seed", "-1"], ["seed", "-1"]),
    (["analyze", "--deal", "p7 b5 | p2 b7 | b2 b8", "--tasks", "b7 b2", "--seed", "-1"], ["seed", "-1"]),
    (["analyze", "--deal", "p7 b5 | p2 b7 | b2 b8", "--tasks", "b7 b2", "--played", "p7 zz"], ["zz"]),
    (["analyze", "--game", "/no/such/game.toml"], ["cannot read the game file"]),
])
def test_bad_options_of_analyze_and_explain_get_one_line(args, words):
    assert_one_line_error(crew(*args), *words)


def test_a_game_file_goes_without_played():
    assert_one_line_error(crew("analyze", "--game", str(LOST_GAME), "--played", "y1"), "leave out --played")


def test_unknown_choice_lists_the_choices():
    result = crew("analyze", "--deal", DEAL, "--mission", "planet-nine/33", "--choice", "X = seat 9")
    assert_one_line_error(result, "no choice 'X = seat 9'", "X = seat 1")


# --- post-mortem and explain against the reference, on random small deals ---


@st.composite
def games(draw, deal, mission):
    """A random whole game: legal plays (from walk) until the mission ends or the cards run out."""
    plays = ()
    while True:
        walked = walk(deal, replace(mission, played=plays))
        if walked.ended or not walked.legal:
            return plays
        plays += (draw(st.sampled_from(list(scan(walked.legal))), label="card"),)


@settings(max_examples=100, deadline=None)
@given(deals_and_missions(max_cards=4).flatmap(lambda case: st.tuples(st.just(case), games(*case))))
def test_post_mortem_marks_are_the_reference_outcomes_of_each_prefix(drawn):
    (deal, mission), plays = drawn
    consistent = consistent_cases([("", deal, mission)], Position(plays))
    review = post_mortem(consistent, case_solver(reference_solve))
    expected = [reference_solve(deal, replace(mission, played=plays[:k])).outcome for k in range(len(plays) + 1)]
    assert review.start is expected[0]
    assert [mark.outcome for mark in review.marks] == expected[1:]
    losses = [k for k in range(len(plays)) if expected[k] is Outcome.WIN and expected[k + 1] is Outcome.LOSS]
    assert review.first_loss == (losses[0] if losses else None)


def check_core(deal, mission):
    if reference_solve(deal, mission).outcome is not Outcome.LOSS:
        return
    found = explain_loss([("", deal, mission)], reference_solve)
    keys = {(d.kind, d.index) for d in found.core}
    assert reference_solve(deal, reduced(mission, deal, keys)).outcome is Outcome.LOSS
    for key in keys:
        assert reference_solve(deal, reduced(mission, deal, keys - {key})).outcome is Outcome.WIN, key
        assert found.needed[key] is Outcome.WIN
    assert len(found.demands) == len(demands_of(mission, deal.players))


@settings(max_examples=120, deadline=None)
@given(deals_and_missions(max_cards=4, max_tasks=4))
def test_every_core_of_a_task_mission_is_lost_and_needs_each_demand(drawn):
    check_core(*drawn)


@settings(max_examples=200, deadline=None)
@given(small_deals(max_cards=3).flatmap(lambda deal: st.tuples(st.just(deal), missions_with_conditions(deal))))
def test_every_core_with_trick_conditions_is_lost_and_needs_each_demand(drawn):
    check_core(*drawn)


def test_explain_names_two_tasks_that_cannot_both_be_won():
    # Seat 0: p7 b5; seat 1: p2 b7; seat 2: b2 b8; no r4, so seat 0 leads ("The holder of r4 is the
    # Commander and leads trick 1", our --commander otherwise). b8 beats every other blue, so seat 1 wins b7
    # only when seat 2 plays b2 under it; seat 0 wins b2 only when seat 2 drops it on seat 0's p7. b2 is in
    # one of those tricks, not both: LOSS, and either task alone wins. The token on b7 is not needed.
    result = crew("explain", "--deal", "p7 b5 | p2 b7 | b2 b8", "--tasks", "b7 b2", "--owners", "1,0",
                  "--tokens", "1,-", "--engine", "reference", "--json")
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    assert [c["demand"] for c in found["core"]] == ["task b7 (seat 1)", "task b2 (seat 0)"]
    assert all(c["without_it"] == "win" for c in found["core"])
    assert found["demands"] == ["token 1 of task b7", "task b7 (seat 1)", "task b2 (seat 0)"]
    text = crew("explain", "--deal", "p7 b5 | p2 b7 | b2 b8", "--tasks", "b7 b2", "--owners", "1,0").stdout
    assert text.splitlines()[:4] == ["LOSS: 2 of the mission's 2 demands are already impossible together:",
                                     "  task b7 (seat 1)", "  task b2 (seat 0)",
                                     "without any one of them the deal is winnable"]


def test_explain_a_winnable_deal_is_one_line():
    assert_one_line_error(crew("explain", "--deal", "p7 b5 | p2 b7 | b2 b8", "--tasks", "b7", "--owners", "1"),
                          "winnable")


def test_special_mission_cards_carry_the_best_score_after_them():
    # journey/no-1-no-2 (a special mission: the highest score). At the start, the best card's score is the
    # deal's own highest score, as crew solve finds it on the whole deal.
    dealt = crew("deal", "--mission", "journey/no-1-no-2", "--players", "3", "--seed", "2").stdout.splitlines()[1]
    args = ["--deal", dealt, "--mission", "journey/no-1-no-2", "--budget", "20"]
    whole = json.loads(crew("solve", *args, "--json").stdout)
    answer = json.loads(crew("analyze", *args, "--json").stdout)
    scores = [card["score"] for card in answer["cards"]]
    assert max(scores) == whole["score"] == answer["score"] and whole["exact"]
    assert answer["best"] in [card["card"] for card in answer["cards"] if card["score"] == max(scores)]


SHARED_KERNEL = KernelSolver(tt_bits=16)


@settings(max_examples=150, deadline=None)
@given(deals_and_missions(max_cards=4, max_tasks=4))
def test_cores_found_by_the_kernel_sharing_its_table_are_cores(drawn):
    # crew explain's engine keeps one table for all its missions (TableSharing): each must keep its own
    # lost positions, however many missions it makes and drops.
    deal, mission = drawn
    if reference_solve(deal, mission).outcome is not Outcome.LOSS:
        return
    found = explain_loss([("", deal, mission)], TableSharing(SHARED_KERNEL))
    keys = {(d.kind, d.index) for d in found.core}
    assert reference_solve(deal, reduced(mission, deal, keys)).outcome is Outcome.LOSS
    for key in keys:
        assert reference_solve(deal, reduced(mission, deal, keys - {key})).outcome is Outcome.WIN, key


@pytest.mark.parametrize("space", ["helicopter", "jeep", "ghost-jeep"])
def test_post_mortems_past_the_crews_passes_mark_the_reference_outcomes(space):
    @settings(max_examples=40, deadline=None)
    @given(deals_and_missions(**deal_options(space, max_cards=4)).flatmap(
        lambda case: st.tuples(st.just(case), space_rules(case[0], space))).flatmap(
        lambda drawn: st.tuples(st.just(drawn), plays_so_far(drawn[0][0], replace(drawn[0][1], space=drawn[1]),
                                                             whole_game=True))))
    def check(drawn):
        ((deal, mission), rules), game = drawn
        mission = replace(mission, space=rules)
        consistent = consistent_cases([("", deal, mission)], game)
        review = post_mortem(consistent, case_solver(TableSharing(SHARED_KERNEL)))
        prefixes = [game.prefix(k, deal.players) for k in range(1, len(game.plays) + 1)]
        expected = [reference_solve(deal, prefix.on(mission)).outcome for prefix in prefixes]
        assert [mark.outcome for mark in review.marks] == expected
        if review.lost_by:  # the card alone, every choice after its trick open, keeps the mission winnable
            loss = review.first_loss
            alone = Position(game.plays[: loss + 1], game.chosen[: loss // deal.players])
            assert reference_solve(deal, alone.on(mission)).outcome is Outcome.WIN

    check()


@settings(max_examples=100, deadline=None)
@given(deals_and_missions(max_cards=4).flatmap(lambda case: st.tuples(st.just(case), games(*case))))
def test_post_mortems_by_the_kernel_sharing_its_table_agree_with_the_reference(drawn):
    (deal, mission), plays = drawn
    consistent = consistent_cases([("", deal, mission)], Position(plays))
    review = post_mortem(consistent, case_solver(TableSharing(SHARED_KERNEL)))
    expected = [reference_solve(deal, replace(mission, played=plays[:k])).outcome for k in range(1, len(plays) + 1)]
    assert [mark.outcome for mark in review.marks] == expected


def test_explain_names_the_trick_by_which_every_line_has_failed():
    # Seat 2 holds b7 b8 b9 and every card is blue, so seat 2 wins every trick. Mission 29: "after every
    # trick, (max tricks won) - (min tricks won) over all players <= 1. Fail at once when it reaches 2":
    # after trick 2 seat 2 has 2 tricks and seat 0 none, on every line.
    result = crew("explain", "--deal", "b1 b2 b3 | b4 b5 b6 | b7 b8 b9", "--mission", "planet-nine/29",
                  "--commander", "0", "--json")
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    assert (found["fails_by"], found["fails_by_known"]) == (2, True)
    assert [c["demand"] for c in found["core"]] == ["tricks won within 1 of each other after every trick"]
    # The two tasks above: seat 2 can hold b2 back to the last trick, so a line lasts that long.
    text = crew("explain", "--deal", "p7 b5 | p2 b7 | b2 b8", "--tasks", "b7 b2", "--owners", "1,0").stdout
    assert "some line of play lasts to the last trick without failing" in text.splitlines()


@settings(max_examples=150, deadline=None)
@given(small_deals(max_cards=3).flatmap(lambda deal: st.tuples(st.just(deal), missions_with_conditions(deal))))
def test_the_earliest_failing_trick_is_the_first_no_line_survives(drawn):
    deal, mission = drawn
    if reference_solve(deal, mission).outcome is not Outcome.LOSS:
        return
    fails_by, known = earliest_failure([("", deal, mission)])
    assert known
    last = min(bin(hand).count("1") for hand in deal.hands)
    if fails_by is None:
        fails_by = last  # no line fails before the end: the full deal is the first horizon lost
    else:
        assert reference_solve(deal, mission, horizon=fails_by).outcome is Outcome.LOSS
    if fails_by > 1:
        survivor = reference_solve(deal, mission, horizon=fails_by - 1)
        assert survivor.outcome is Outcome.WIN
        plays = tuple(c for trick in survivor.tricks for c in trick.cards)
        assert len(survivor.tricks) == fails_by - 1
        ended = walk(deal, replace(mission, played=plays)).ended  # checked by the walk: no trick played failed
        # (a next trick whose first card every rule of play allows breaks a mission rule fails, that trick: fails_by)
        assert not ended.startswith("failed") or ended.startswith(f"failed in trick {fails_by} ("), ended


def test_special_mission_position_counts_its_scoring_events_so_far():
    # "one step for each trick containing no 1 and no 2": of r4 p2 r3, p8 p7 p6 and r1 g2 p1 only the second.
    dealt = crew("deal", "--mission", "journey/no-1-no-2", "--players", "3", "--seed", "2").stdout.splitlines()[1]
    result = crew("analyze", "--deal", dealt, "--mission", "journey/no-1-no-2", "--budget", "20",
                  "--played", "r4 p2 r3 | p8 p7 p6 | r1 g2 p1", "--json")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["events"] == 1 and answer["trick"] == 4
