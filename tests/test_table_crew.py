"""The realistic crew on a special stage's table (solver/engines/realistic.py, `table_card`).

The rulebook: "Usually you must place exactly 1 card from each trick onto the table and form a pattern with them."
Who places it the rules leave to the crew; our reading: the trick's winner, who takes the trick, from the samples
of what it knows (the table's cards are played cards: every player sees them). The kernel, one table a game,
plays the crew's game that the reference plays on random small deals and patterns; a game lays one card of each
trick, by its winner, and wins exactly when the table holds the pattern; `crew play` prints each table card as
its JSON says; five players (the redeal of the discards) and the Ghost are refused.
"""

import json
from dataclasses import replace

from click.testing import CliRunner
from conftest import stage_problems
from hypothesis import given, settings
from hypothesis import strategies as st

from cli.main import main
from solver.core.solution import Limits, Outcome
from solver.engines.crew import GameTables
from solver.engines.kernel import KernelSolver
from solver.engines.realistic import play_game
from solver.missions.setup import Setup
from solver.trick.variants import PlayRules

KERNEL = KernelSolver(tt_bits=16)


@settings(max_examples=40, deadline=None)
@given(stage_problems(), st.integers(0, 2**16))
def test_the_kernel_plays_the_table_game_the_reference_plays(problem, seed):
    deal, mission = problem
    setups = [Setup("", replace(mission, space=PlayRules(), owners=()))]  # no redeal: the crew refuses it
    reference = play_game(deal, setups, samples=3, seed=seed, limits=Limits())
    assert play_game(deal, setups, samples=3, seed=seed, solve=GameTables(KERNEL), limits=Limits()) == reference
    tricks = reference.walked.tricks
    assert [d.card for d in reference.tabled] == [t.tabled for t in tricks[: len(reference.tabled)]]
    assert all(d.seat == t.winner and d.card in t.cards for d, t in zip(reference.tabled, tricks))
    table = tuple(t.tabled for t in tricks)
    assert (reference.outcome is Outcome.WIN) == (len(tricks) == len(reference.tabled) and mission.pattern.holds(table))


def test_crew_play_prints_each_table_card():
    args = ["play", "--mission", "journey/table-rising", "--players", "4", "--seed", "1", "--samples", "4"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    laid = [line for line in result.stdout.splitlines() if " on the table (of " in line]
    body = json.loads(CliRunner().invoke(main, [*args, "--json"]).stdout)
    assert len(laid) == len(body["tabled"]) >= 1
    for line, choice in zip(laid, body["tabled"]):
        assert line.startswith(f"  then seat {choice['seat']} lays {choice['card']} on the table (of ")
        assert all(f"{card} {wins}/{tried}" in line if tried else f"{card} -" in line  # never solved: raced out
                   for card, (wins, tried) in choice["shares"].items())
        full = max(tried for _, tried in choice["shares"].values())
        best = max(wins for wins, tried in choice["shares"].values() if tried == full)
        first_best = next(card for card, (wins, tried) in choice["shares"].items() if tried == full and wins == best)
        assert choice["card"] == first_best  # the most samples won, ties to the first card of the trick


def test_the_crew_refuses_the_redeal_and_the_ghost():
    for players, why in (("5", "a special stage's redeal of the discards (five players)"),
                         ("2", "a special stage's table with the Ghost")):
        result = CliRunner().invoke(main, ["play", "--mission", "journey/table-rising", "--players", players,
                                           "--seed", "1"])
        assert result.exit_code == 2 and why in result.output, result.output
