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

Lazily assigned tasks: a seat's count sits in the mixed-radix code TAKEN (place
value RADIX[seat], at most MAX_COUNT[seat]); a second array, `feasible`, says
for every code whether those counts can still grow into an allowed final
vector. Trick counters take COUNTER_FIELDS cells each (see conditions.py), and
ALLOWED_WINNERS[t] holds the seats that may win trick t+1 at all (the counters
that forbid a winner outright, such as "X wins no trick").
"""

import numpy as np

import itertools

from solver.cards import CARD_COUNT, card_set
from solver.deal import MAX_PLAYERS, Deal
from solver.rules import num_tricks
from solver.tasks import ABSOLUTE, ANYONE, LAZY, OMEGA, RELATIVE, TaskMission, allowed_counts, distinct_cards

MAX_TASKS = CARD_COUNT
MAX_COUNTERS = 8
MAX_TRICKS = 14
LAZY_OWNER = LAZY
ANY_OWNER = ANYONE

# Scalars.
PLAYERS = 0
TRICKS = 1
COMMANDER = 2
TASK_COUNT = 3
ALL_DONE = 4
TASK_CARDS = 5  # card set of every task card
DISTINCT = 6  # cards the mission tells apart: never pruned as equivalent
COUNTER_COUNT = 7
BALANCED_GAP = 8  # 0: no balance rule
# Per seat.
HANDS = 10
MAX_COUNT = HANDS + MAX_PLAYERS  # most lazily assigned tasks the seat may end with
RADIX = MAX_COUNT + MAX_PLAYERS  # place value of the seat's count in the taken code
# Per trick.
ALLOWED_WINNERS = RADIX + MAX_PLAYERS
# Per counter: fields at COUNTERS + k * COUNTER_FIELDS.
COUNTERS = ALLOWED_WINNERS + MAX_TRICKS
C_WINNERS, C_WON_WITH, C_CONTAINING, C_MIN_CONTAINING, C_TRICKS, C_AT_LEAST, C_AT_MOST = range(7)
COUNTER_FIELDS = 7
# Per card.
CARD_TASK = COUNTERS + MAX_COUNTERS * COUNTER_FIELDS  # task index of a card, or -1
# Per task.
TASK_CARD = CARD_TASK + CARD_COUNT
TASK_OWNER = TASK_CARD + MAX_TASKS  # fixed seat, LAZY_OWNER or ANY_OWNER
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


def compile_task_mission(deal: Deal, mission: TaskMission) -> tuple[np.ndarray, np.ndarray]:
    """Return the flat kernel array of a mission on a deal, and its table of feasible task counts."""
    if len(mission.counters) > MAX_COUNTERS:
        raise ValueError(f"at most {MAX_COUNTERS} trick counters per mission")
    problem = [0] * SIZE  # filled as a list: item writes to a numpy array cost more per deal
    count = len(mission.cards)
    tricks = num_tricks(deal.hands)
    problem[PLAYERS] = deal.players
    problem[TRICKS] = tricks
    problem[COMMANDER] = deal.commander
    problem[TASK_COUNT] = count
    problem[ALL_DONE] = (1 << count) - 1
    problem[TASK_CARDS] = card_set(mission.cards)
    problem[DISTINCT] = distinct_cards(mission)
    problem[COUNTER_COUNT] = len(mission.counters)
    problem[BALANCED_GAP] = mission.balanced.gap if mission.balanced is not None else 0
    problem[HANDS : HANDS + deal.players] = deal.hands
    counts = allowed_counts(mission, deal)
    maxima = [max(vector[seat] for vector in counts) for seat in range(deal.players)]
    place = 1
    for seat in range(deal.players):
        problem[MAX_COUNT + seat] = maxima[seat]
        problem[RADIX + seat] = place
        place *= maxima[seat] + 1
    feasible = np.zeros(place, dtype=np.int64)
    for vector in counts:
        for smaller in itertools.product(*(range(v + 1) for v in vector)):
            feasible[sum(c * problem[RADIX + seat] for seat, c in enumerate(smaller))] = 1
    everyone = (1 << deal.players) - 1
    problem[ALLOWED_WINNERS : ALLOWED_WINNERS + MAX_TRICKS] = [everyone] * MAX_TRICKS
    for k, counter in enumerate(mission.counters):
        base = COUNTERS + k * COUNTER_FIELDS
        problem[base : base + COUNTER_FIELDS] = [
            counter.winners, counter.won_with, counter.containing, counter.min_containing,
            counter.tricks, counter.at_least, counter.at_most,
        ]
        if counter.at_most == 0 and not counter.won_with and not counter.containing:
            for t in range(MAX_TRICKS):
                if counter.tricks >> t & 1:
                    problem[ALLOWED_WINNERS + t] &= ~counter.winners
    problem[CARD_TASK : CARD_TASK + CARD_COUNT] = [-1] * CARD_COUNT
    before = order_prerequisites(mission.tokens)
    owners = mission.owners if mission.owners is not None else (LAZY_OWNER,) * count
    for i, c in enumerate(mission.cards):
        problem[CARD_TASK + c] = i
        problem[TASK_CARD + i] = c
        problem[TASK_OWNER + i] = owners[i]
        problem[BEFORE + i] = before[i]
    return np.array(problem, dtype=np.int64), feasible
