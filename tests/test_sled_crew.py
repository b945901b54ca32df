"""The hidden-information crew on the dog sled (solver/engines/realistic.py, `SledWeighing`).

The rulebook's Dog sled: "Discuss who steers the dog sled. The chosen crew member decides, without discussion,
... and any communication requires their permission. They may also decide, before each trick, whether they want
to open it." The crew picks the driver as the Commander picks any setup (the most samples won, ties to the first);
before a trick another seat leads, the driver weighs its own cards against the leader's lead on its own samples
(some card of the leader's keeping the mission winnable in a sample), opens only when one of its cards has the
larger credit (a sample won 2, open 1: crew.credit), and otherwise the leader chooses among its own cards. The kernel, one table a game, plays the games
the reference plays; `crew play` prints each weighing as its JSON has it.
"""

import json
from dataclasses import replace

from click.testing import CliRunner
from conftest import deals_and_missions
from hypothesis import given, settings
from hypothesis import strategies as st

from cli.main import main
from solver.core.solution import Limits, Outcome, Solution
from solver.engines.crew import LOST, OPEN, WON, CardShare, GameTables, Sample, leading_credit
from solver.engines.kernel import KernelSolver
from solver.engines.realistic import SledWeighing, play_game
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
        leading = 2 * decision.sled.leader_wins + decision.sled.leader_open  # a sample won 2, open 1
        assert opened == (max(2 * s.wins + s.open for s in decision.sled.shares) > leading)
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
        wins, unknown = sled["leader_wins"], sled["leader_open"]
        assert line.endswith(f"the leader leading: {wins}+{unknown}?/2)" if unknown else f"the leader leading: {wins}/2)")
    assert body["setup"].startswith("dog-sled driver = seat ")


def test_the_leader_s_lead_is_credited_as_a_card_is():
    # A sample where some card of the leader's keeps the mission winnable counts 2; where none does but one's solve
    # ran out of its budget, 1 (open); else 0. A stand-in engine answers each lead (a mission's index) in turn.
    def credit_of(outcomes):
        asked = []

        def stand_in(deal, lead, limits):
            asked.append(lead)
            return Solution(outcomes[lead], 0, 0.0, "stand-in")

        return leading_credit(Sample(None), stand_in, range(len(outcomes)), Limits()), len(asked)

    assert credit_of([Outcome.UNKNOWN, Outcome.LOSS]) == (OPEN, 2)
    assert credit_of([Outcome.LOSS, Outcome.WIN, Outcome.UNKNOWN]) == (WON, 2)  # no need to solve past a win
    assert credit_of([Outcome.LOSS, Outcome.LOSS]) == (LOST, 2)
    # The driver opens only when its best card's credit beats the leader's: 1 win and 1 open (3) against 3 is a tie.
    own = (CardShare(0, 1, 4, 1), CardShare(1, 0, 4, 2))
    assert not SledWeighing(0, own, leader_wins=1, leader_open=1).opens
    assert SledWeighing(0, own, leader_wins=0, leader_open=2).opens
    assert SledWeighing(0, (CardShare(0, 0, 4, 3),), leader_wins=1, leader_open=0).opens  # 3 open beat 1 win
