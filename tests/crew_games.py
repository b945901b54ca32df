"""What the realistic crew's tests share: the kernel, one table a game, plays the games the reference plays; every
sample at every decision of a game replays it."""

import random
from dataclasses import replace

from solver.core.solution import Limits
from solver.engines.crew import GameTables, decision_deals
from solver.engines.kernel import KernelSolver
from solver.engines.realistic import play_game
from solver.engines.reference import walk
from solver.missions.position import Position

KERNEL = KernelSolver(tt_bits=16)


def assert_the_kernel_plays_the_reference_game(deal, setups, *args, **kwargs):
    """Fail unless the kernel, one table a game (GameTables), plays the crew's game of `deal` that the reference
    plays: play_game's `args` and `kwargs`, 3 samples a decision and no node limit unless they say otherwise; return
    the reference's game."""
    kwargs = {"samples": 3, "limits": Limits(), **kwargs}
    reference = play_game(deal, setups, *args, **kwargs)
    assert play_game(deal, setups, *args, solve=GameTables(KERNEL), **kwargs) == reference
    return reference


def every_sample(deal, mission, game, samples: int = 3, deciders=None):
    """Yield (walked, seat, sample) for `samples` samples at every decision of `game` (`deciders(walked)`: the seats
    deciding at a walked position; default, at a pass every seat, else the seat to move), each sample checked to
    replay the plays and choices so far with its own chance and passes and give the seat its hand."""
    mission = with_the_games_pass(mission, game)
    line = Position.of(game.mission)
    for k in range(len(line.plays) + 1):
        position = line.prefix(k, deal.players)
        walked = walk(deal, position.on(mission))
        if walked.ended:
            break
        shown = [s for s in game.shown if s.trick <= len(walked.tricks) + 1]  # those shown so far
        seats = deciders(walked) if deciders else range(deal.players) if walked.due else [walked.to_move]
        for seat in seats:
            for sample in decision_deals(deal, mission, walked, position.plays, shown, samples, random.Random(k),
                                         seat=seat):
                replayed = walk(sample.deal, sample.on(position.on(mission)))  # the sample's, not the true ones
                assert replayed.hands[seat] == walked.hands[seat]
                yield walked, seat, sample


def with_the_games_pass(mission, game):
    """Return `mission` with mission 12's random pass as the crew's `game` made it: the cards shown before trick 1
    moved to the end of its order ("his communicated card excluded"), so a replay gives the cards the game gave."""
    return mission if mission.random_pass is None else replace(mission, random_pass=game.mission.random_pass)
