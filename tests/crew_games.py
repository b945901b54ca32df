"""What the realistic crew's tests share: the kernel, one table a game, plays the games the reference plays."""

from solver.core.solution import Limits
from solver.engines.crew import GameTables
from solver.engines.kernel import KernelSolver
from solver.engines.realistic import play_game

KERNEL = KernelSolver(tt_bits=16)


def assert_the_kernel_plays_the_reference_game(deal, setups, *args, **kwargs):
    """Fail unless the kernel, one table a game (GameTables), plays the crew's game of `deal` that the reference
    plays: play_game's `args` and `kwargs`, 3 samples a decision and no node limit unless they say otherwise; return
    the reference's game."""
    kwargs = {"samples": 3, "limits": Limits(), **kwargs}
    reference = play_game(deal, setups, *args, **kwargs)
    assert play_game(deal, setups, *args, solve=GameTables(KERNEL), **kwargs) == reference
    return reference
