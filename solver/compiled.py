"""A deal and its mission compiled to one flat int64 array that the Numba kernel interprets.

The kernel never sees Python objects: scalars, per-seat and per-task values sit
at the named offsets below. Order tokens become, per task j, the mask of tasks
that must be completed no later than j (`BEFORE`): completing a set C of tasks
in one trick, with F the tasks finished after it, breaks the order exactly when
some j in C has a task of BEFORE[j] outside F. This is the BGA reading of
tasks.order_broken, restated per completed task:

- an absolute token n must precede every task not carrying a smaller absolute token;
- a relative task with fewer arrows must precede one with more;
- every other task must precede omega.
"""

import numpy as np

from solver.cards import CARD_COUNT, card_set
from solver.deal import MAX_PLAYERS, Deal
from solver.rules import num_tricks
from solver.tasks import ABSOLUTE, OMEGA, RELATIVE, TaskMission, task_quotas

MAX_TASKS = 36
LAZY_OWNER = -1

# Scalars.
PLAYERS = 0
TRICKS = 1
COMMANDER = 2
TASK_COUNT = 3
ALL_DONE = 4
TASK_CARDS = 5  # card set of every task card
DISTINCT = 6  # cards the mission tells apart: never pruned as equivalent
# Per seat.
HANDS = 8
QUOTA = HANDS + MAX_PLAYERS  # lazily assigned tasks each seat may take
RADIX = QUOTA + MAX_PLAYERS  # place value of the seat's count in the taken code
# Per card.
CARD_TASK = RADIX + MAX_PLAYERS  # task index of a card, or -1
# Per task.
TASK_CARD = CARD_TASK + CARD_COUNT
TASK_OWNER = TASK_CARD + MAX_TASKS  # fixed seat, or LAZY_OWNER
BEFORE = TASK_OWNER + MAX_TASKS
SIZE = BEFORE + MAX_TASKS


def order_prerequisites(tokens) -> list[int]:
    """Return, per task, the mask of tasks that must be completed no later than it."""
    before = []
    for j, token_j in enumerate(tokens):
        mask = 0
        for i, token_i in enumerate(tokens):
            if i == j or token_i is None:
                continue
            absolute_first = token_i.kind == ABSOLUTE and not (
                token_j is not None and token_j.kind == ABSOLUTE and token_j.n < token_i.n
            )
            fewer_arrows = (
                token_j is not None
                and token_j.kind == RELATIVE
                and token_i.kind == RELATIVE
                and token_i.n < token_j.n
            )
            if absolute_first or fewer_arrows:
                mask |= 1 << i
        if token_j is not None and token_j.kind == OMEGA:
            mask = ((1 << len(tokens)) - 1) & ~(1 << j)
        before.append(mask)
    return before


def compile_task_mission(deal: Deal, mission: TaskMission) -> np.ndarray:
    """Return the flat kernel array of a task mission on a deal."""
    problem = [0] * SIZE  # filled as a list: item writes to a numpy array cost more per deal
    count = len(mission.cards)
    problem[PLAYERS] = deal.players
    problem[TRICKS] = num_tricks(deal.hands)
    problem[COMMANDER] = deal.commander
    problem[TASK_COUNT] = count
    problem[ALL_DONE] = (1 << count) - 1
    problem[TASK_CARDS] = problem[DISTINCT] = card_set(mission.cards)
    problem[HANDS : HANDS + deal.players] = deal.hands
    lazy = mission.owners is None
    quotas = task_quotas(mission, deal) if lazy else (0,) * deal.players
    place = 1
    for seat in range(deal.players):
        problem[QUOTA + seat] = quotas[seat]
        problem[RADIX + seat] = place
        place *= quotas[seat] + 1
    problem[CARD_TASK : CARD_TASK + CARD_COUNT] = [-1] * CARD_COUNT
    before = order_prerequisites(mission.tokens)
    for i, c in enumerate(mission.cards):
        problem[CARD_TASK + c] = i
        problem[TASK_CARD + i] = c
        problem[TASK_OWNER + i] = LAZY_OWNER if lazy else mission.owners[i]
        problem[BEFORE + i] = before[i]
    return np.array(problem, dtype=np.int64)
