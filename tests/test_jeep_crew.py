"""The realistic crew on the jeep (solver/engines/jeep_exchange.py, crew.py's `worlds_after_jeep`).

"Jeep. After the 3rd trick, each crew member places 2 cards face down in the middle of the table. Shuffle these
cards and each take 2 of them back. Communicated cards may not be taken this way." At every decision of a crew game
(here the exchange follows trick 1 or 2, to keep the deals small), each sample's deal, exchange and shuffle replay
the plays so far by the rules and give the deciding player exactly its hand, and after the exchange the pair it put
in and the two it took; before the exchange the samples' shuffles are their own (chance to come). No seat puts in a
card it has shown. The kernel, one table a game, plays the crew's jeep game that the reference plays; `crew play`
plays on the jeep and prints the exchange; the jeep with the Ghost is refused.
"""

import random
from dataclasses import replace

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from test_jeep_worlds import jeep_games

from cli.main import main
from solver.core.cards import COLOURS, card_set, scan, suit_of
from solver.core.solution import Limits
from solver.engines.crew import GameTables, decision_deals
from solver.engines.kernel import KernelSolver
from solver.engines.realistic import play_game
from solver.engines.reference import walk
from solver.missions.position import Position
from solver.missions.setup import Setup
from solver.missions.tasks import make_task_mission
from solver.trick.variants import PlayRules

KERNEL = KernelSolver(tt_bits=16)


@st.composite
def jeep_missions(draw):
    """A small deal with its exchange after trick 1 or 2 and its shuffle (test_jeep_worlds' `jeep_games`, its play
    dropped), and a mission of 1-2 tasks with owners."""
    deal, after, _, order, *_ = draw(jeep_games())
    cards = sorted(c for c in scan(deal.cards) if suit_of(c) in COLOURS)
    tasks = draw(st.lists(st.sampled_from(cards), min_size=1, max_size=2, unique=True), label="tasks")
    owners = [draw(st.integers(0, deal.players - 1), label="owner") for _ in tasks]
    return deal, replace(make_task_mission(deal, tasks, owners=owners),
                         space=PlayRules(jeep_after=after, jeep_order=order))


def talk(deal, mission) -> str:
    """The crew's communication rule in these small deals: normal where every hand keeps three cards or more to the
    exchange (a shown card and two to put in; the rules' deals keep five), else none before it."""
    left = min(bin(hand).count("1") for hand in deal.hands) - mission.space.jeep_after
    return "normal" if left >= 3 else f"silent-until-trick-{mission.space.jeep_after + 1}"


def took(passed, order, seat: int) -> int:
    """The cards `seat` took from the middle of an exchange (`passed` seat by seat) dealt by `order`."""
    return card_set(c for c, taker in zip(sorted(passed), order) if taker == seat)


@settings(max_examples=20, deadline=None)
@given(jeep_missions(), st.integers(0, 2**16))
def test_every_sample_of_a_jeep_game_replays_it_and_keeps_what_the_player_saw(problem, seed):
    deal, mission = problem
    space = mission.space
    game = play_game(deal, [Setup("", mission)], talk(deal, mission), samples=2, seed=seed, limits=Limits())
    line = Position.of(game.mission)
    for choice in game.exchange:  # "communicated cards may not be taken this way"
        before = card_set(s.card for s in game.shown if s.seat == choice.seat and s.trick <= space.jeep_after)
        assert not card_set(choice.pair) & before
    own_shuffles = []
    for k in range(len(line.plays) + 1):
        position = line.prefix(k, deal.players)
        walked = walk(deal, position.on(mission))
        if walked.ended:
            break
        shown = [s for s in game.shown if s.trick <= len(walked.tricks) + 1]  # those shown so far
        for seat in range(deal.players) if walked.due else [walked.to_move]:  # the exchange: every seat decides
            for sample in decision_deals(deal, mission, walked, position.plays, shown, 3, random.Random(k), seat=seat):
                replayed = walk(sample.deal, sample.on(position.on(mission)))  # the sample's exchange, not the true one
                assert replayed.hands[seat] == walked.hands[seat]
                if sample.jeep_put:
                    true = walked.tricks[space.jeep_after - 1].passed
                    assert sample.jeep_put[2 * seat : 2 * seat + 2] == true[2 * seat : 2 * seat + 2]
                    assert took(sample.jeep_put, sample.jeep_order, seat) == took(true, space.jeep_order, seat)
                else:
                    assert len(walked.tricks) <= space.jeep_after and sorted(sample.jeep_order) == sorted(
                        space.jeep_order)
                    own_shuffles.append(sample.jeep_order != space.jeep_order)
    assert any(own_shuffles)  # a shuffle of 6 or 8 cards the samples draw anew: all right has odds under 90^-6


@settings(max_examples=12, deadline=None)
@given(jeep_missions(), st.integers(0, 2**16))
def test_the_kernel_plays_the_jeep_game_the_reference_plays(problem, seed):
    # one table a game (GameTables): each sample's shuffle is in its mission's rules, so a table generation each
    deal, mission = problem
    setups = [Setup("", mission)]
    rule = talk(deal, mission)
    reference = play_game(deal, setups, rule, samples=3, seed=seed, limits=Limits())
    assert play_game(deal, setups, rule, samples=3, seed=seed, solve=GameTables(KERNEL), limits=Limits()) == reference


def test_crew_play_on_the_jeep_and_not_with_the_ghost():
    args = ["play", "--mission", "planet-nine/10", "--players", "4", "--space", "jeep", "--seed", "3", "--samples", "4"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    exchange = next(line for line in result.stdout.splitlines() if line.startswith("  then the jeep: "))
    assert all(f"seat {seat} puts " in exchange for seat in range(4)), exchange
    result = CliRunner().invoke(main, ["play", "--mission", "journey/no-1-no-2", "--players", "2", "--space", "jeep"])
    assert result.exit_code == 2 and "the jeep's exchange beside the Ghost's display" in result.output, result.output
