"""The hidden-information crew on the dog sled (solver/engines/realistic.py, `SledWeighing`).

The rulebook's Dog sled: "Discuss who steers the dog sled. The chosen crew member decides, without discussion,
... and any communication requires their permission. They may also decide, before each trick, whether they want
to open it." The crew picks the driver as the Commander picks any setup (the most samples won, ties to the first);
before a trick another seat leads, the driver weighs its own cards against the leader's lead on its own samples
(some card of the leader's keeping the mission winnable in a sample), opens only when one of its cards wins in
more samples, and otherwise the leader chooses among its own cards. The kernel, one table a game, plays the games
the reference plays; `crew play` prints each weighing as its JSON has it.
"""

import json
from dataclasses import replace

from click.testing import CliRunner
from conftest import deals_and_missions
from hypothesis import given, settings
from hypothesis import strategies as st

from cli.main import main
from solver.core.solution import Limits
from solver.engines.crew import GameTables
from solver.engines.kernel import KernelSolver
from solver.engines.realistic import play_game
from solver.missions.setup import Setup
from solver.trick.variants import PlayRules

KERNEL = KernelSolver(tt_bits=16)


@settings(max_examples=30, deadline=None)
@given(deals_and_missions(max_players=4, max_cards=3, drafted=False), st.integers(0, 3), st.integers(0, 2**16))
def test_the_driver_opens_only_to_win_more_samples_and_the_kernel_plays_the_reference_s_game(case, driver, seed):
    deal, mission = case
    driver %= deal.players
    setups = [Setup("", replace(mission, space=PlayRules(sled=driver)))]
    reference = play_game(deal, setups, samples=3, seed=seed, limits=Limits())
    for decision, trick in zip(reference.decisions[:: deal.players], reference.walked.tricks):
        if decision.sled is None:
            continue
        assert decision.sled.driver == driver and trick.leader in (driver, decision.seat)
        opened = decision.seat == driver
        assert opened == (max(s.wins for s in decision.sled.shares) > decision.sled.leader_wins)
    assert play_game(deal, setups, samples=3, seed=seed, solve=GameTables(KERNEL), limits=Limits()) == reference


def test_crew_play_prints_the_driver_s_weighing_as_its_json_has_it():
    args = ["play", "--mission", "planet-nine/8", "--players", "4", "--seed", "3", "--samples", "2", "--space",
            "dog-sled"]
    text = CliRunner().invoke(main, args)
    assert text.exit_code == 0, text.output
    body = json.loads(CliRunner().invoke(main, [*args, "--json"]).stdout)
    weighed = [play["sled"] for play in body["plays"] if "sled" in play]
    lines = [line for line in text.stdout.splitlines() if line.startswith("  the driver, seat ")]
    assert len(weighed) == len(lines) >= 1
    for sled, line in zip(weighed, lines):
        assert line.startswith(f"  the driver, seat {sled['driver']}, ")
        assert line.endswith(f"the leader leading: {sled['leader_wins']}/2)")
    assert body["setup"].startswith("dog-sled driver = seat ")
