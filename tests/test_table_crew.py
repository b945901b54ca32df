"""The realistic crew on a special stage's table (solver/engines/realistic.py, `table_card`).

The rulebook: "Usually you must place exactly 1 card from each trick onto the table and form a pattern with them."
Who places it the rules leave to the crew; our reading: the trick's winner, who takes the trick, from the samples
of what it knows (the table's cards are played cards: every player sees them). The kernel, one table a game,
plays the crew's game that the reference plays on random small deals and patterns; a game lays one card of each
trick, by its winner, and wins exactly when the table holds the pattern; `crew play` prints each table card as
its JSON says; with five players the crew plays on after the redeal of the discards; with two players the Ghost's
controller lays the card of a trick he wins.
"""

import json
from collections import Counter
from dataclasses import replace

import pytest
from click.testing import CliRunner
from conftest import patterns, small_deals, stage_problems
from crew_games import assert_the_kernel_plays_the_reference_game, every_sample
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cli.main import main
from solver.core.cards import scan
from solver.core.solution import Limits, Outcome
from solver.engines.realistic import play_game
from solver.missions.ghost_knowledge import GhostSeat
from solver.missions.setup import Setup
from solver.missions.tasks import make_task_mission
from solver.trick.ghost import GHOST_SEAT
from solver.trick.variants import PlayRules


@settings(max_examples=40, deadline=None)
@given(st.one_of(stage_problems(), stage_problems(redeal=True)), st.integers(0, 2**16))
def test_the_kernel_plays_the_table_game_the_reference_plays(problem, seed):
    # With a redeal (conftest's: after trick 2), before it each sample draws the redeal to come, after it a player
    # knows the discards it drew (redeal_worlds.py); the game's tricks go on after it with the cards drawn.
    deal, mission = problem
    setups = [Setup("", replace(mission, owners=()))]
    reference = assert_the_kernel_plays_the_reference_game(deal, setups, seed=seed)
    tricks = reference.walked.tricks
    assert [d.card for d in reference.tabled] == [t.tabled for t in tricks[: len(reference.tabled)]]
    assert all(d.seat == t.winner and d.card in t.cards for d, t in zip(reference.tabled, tricks))
    table = tuple(t.tabled for t in tricks)
    assert (reference.outcome is Outcome.WIN) == (len(tricks) == len(reference.tabled) and mission.pattern.holds(table))


@st.composite
def ghost_stage_problems(draw):
    """A small two-player deal (seat 2 the Ghost, his hand his display), a random pattern, and the Ghost's
    controller."""
    size = draw(st.sampled_from([2, 4]), label="hand size")  # a display: face-down cards under as many face up
    deal = draw(small_deals(min_players=3, max_players=3, min_cards=size, max_cards=size, extra_card=False))
    assume(deal.commander != GHOST_SEAT)  # the 4-heli (Planet Nine's 4 rocket) is never in the Ghost's display
    display = tuple(sorted(scan(deal.hands[GHOST_SEAT])))
    rules = PlayRules(ghost=GHOST_SEAT, display=display)
    return deal, replace(make_task_mission(deal, []), pattern=draw(patterns(deal.cards)), space=rules), draw(st.integers(0, 1))


@settings(max_examples=30, deadline=None)
@given(ghost_stage_problems(), st.integers(0, 2**16))
def test_with_the_ghost_his_controller_lays_his_table_cards_and_the_kernel_plays_the_reference_s_game(problem, seed):
    # Journey's two-player game: "The Scout controls Ghost and makes all decisions for him": a trick the Ghost wins,
    # his controller lays its table card, from its own samples (what it knows; test_ghost_crew.py checks them).
    deal, mission, controller = problem
    ghost = GhostSeat(controller, 0)
    reference = assert_the_kernel_plays_the_reference_game(deal, [Setup("", replace(mission, owners=()))], seed=seed,
                                                           ghost=ghost)
    tricks = reference.walked.tricks
    assert all(d.seat == t.winner and d.card in t.cards for d, t in zip(reference.tabled, tricks))
    table = tuple(t.tabled for t in tricks)
    assert (reference.outcome is Outcome.WIN) == (len(tricks) == len(reference.tabled) and mission.pattern.holds(table))


@settings(max_examples=30, deadline=None)
@given(stage_problems(redeal=True), st.integers(0, 2**16))
def test_every_sample_of_a_redeal_game_replays_it(problem, seed):
    # What a player knows is true of its samples: at every decision of the game, before the redeal, at its table
    # card and after it, each sample's deal and redeal replay the plays and table cards so far by the rules and give
    # the player the hand it holds (the Knowledge's own counts: tests/test_redeal_worlds.py).
    deal, mission = problem
    mission = replace(mission, owners=())
    game = play_game(deal, [Setup("", mission)], samples=2, seed=seed, limits=Limits())

    def deciders(walked):  # a table card: its trick's winner lays it
        return [walked.tricks[-1].winner if walked.due else walked.to_move]

    for _ in every_sample(deal, mission, game, 4, deciders):
        pass  # each sample is checked as it is drawn


@pytest.mark.parametrize("players", [4, 2])
def test_crew_play_prints_each_table_card(players):
    args = ["play", "--mission", "journey/table-rising", "--players", str(players), "--seed", "1", "--samples", "4"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    laid = [line for line in result.stdout.splitlines() if " on the table (of " in line]
    body = json.loads(CliRunner().invoke(main, [*args, "--json"]).stdout)
    assert len(laid) == len(body["tabled"]) >= 1
    if players == 2:  # a trick the Ghost wins: his card is laid by his controller, who decides for him
        assert any(choice["seat"] == GHOST_SEAT for choice in body["tabled"])
    for line, choice in zip(laid, body["tabled"]):
        ghost = players == 2 and choice["seat"] == GHOST_SEAT
        decider = f" (the Ghost: seat {body['ghost_controller']} decides)" if ghost else ""
        assert line.startswith(f"  then seat {choice['seat']}{decider} lays {choice['card']} on the table (of ")
        assert all(unknown == 0 for _, _, unknown in choice["shares"].values())  # a table card weighs wins alone
        assert all(f"{card} {wins}/{tried}" in line if tried else f"{card} -" in line  # never solved: raced out
                   for card, (wins, tried, _) in choice["shares"].items())
        full = max(tried for _, tried, _ in choice["shares"].values())
        best = max(wins for wins, tried, _ in choice["shares"].values() if tried == full)
        first_best = next(card for card, (wins, tried, _) in choice["shares"].items()
                          if tried == full and wins == best)
        assert choice["card"] == first_best  # the most samples won, ties to the first card of the trick


def test_the_crew_plays_five_players_redeal():
    # "5 players: ... After the 3rd trick ... Shuffle those 12 cards and draw 2 of them each. This way, after the 3rd
    # trick you all have 7 cards in hand again." Ten tricks: 8 dealt cards and 2 drawn.
    args = ["play", "--mission", "journey/table-rising", "--players", "5", "--seed", "1", "--samples", "2"]
    body = json.loads(CliRunner().invoke(main, [*args, "--json"]).stdout)
    assert len(body["tabled"]) >= 3  # the three table cards before the redeal, at least
    assert len(body["plays"]) == 50 or body["result"] == "loss"  # a won pattern is laid over all ten tricks
    played = Counter(play["card"] for play in body["plays"])
    assert max(played.values()) <= 2 and sum(n == 2 for n in played.values()) <= 10  # a drawn discard, played again
    # The redeal as it fell: the 12 discards of tricks 1-3 (their cards but the three on the table), 2 to each seat
    # and 2 left over, as the text says too.
    redeal = body["redeal"]
    first = {play["card"] for play in body["plays"][:15]} - {choice["card"] for choice in body["tabled"][:3]}
    assert sorted(len(cards) for cards in redeal.values()) == [2] * 6 and set(sum(redeal.values(), [])) == first
    text = CliRunner().invoke(main, args).stdout
    assert f"seat 0 draws {' '.join(redeal['0'])}" in text and f"left over {' '.join(redeal['left'])}" in text
