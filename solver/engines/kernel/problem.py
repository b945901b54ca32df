"""A deal and its mission compiled to one flat int64 array that the Numba kernel interprets.

The kernel never sees Python objects: scalars, per-seat and per-task values sit
at the offsets of the PROBLEM layout below (solver/engines/kernel/layout.py;
`python -m solver.engines.kernel` prints it). Order tokens become, per task j, the mask of tasks
that must be completed no later than j (`BEFORE`): completing a set C of tasks
in one trick, with F the tasks finished after it, breaks the order exactly when
some j in C has a task of BEFORE[j] outside F. This is the BGA reading of
tasks.order_broken, restated per completed task:

- an absolute token n must precede every task not carrying a smaller absolute token;
- a relative task with fewer arrows must precede one with more;
- every other task must precede omega.

Lazily assigned tasks: a seat's count sits in the mixed-radix code TAKEN (place
value RADIX[seat], at most MAX_COUNT[seat]); a second array, `feasible`, holds
for every code -1 when those counts cannot grow into an allowed final vector,
else the seats that may still take a task (`count_table`). Trick counters take
COUNTER_FIELDS cells each and sequence rules SEQUENCE_FIELDS (see conditions.py), and ALLOWED_WINNERS[t] holds the seats that may win trick t+1 at all (the counters
that forbid a winner outright, such as "X wins no trick"). A random pass
(chance.py) is its trick number and each card's place in its ordering. A stage
space (spaces.py) is its skis cards, hang-glider flag, dog-sled driver, for fog
the cards each seat draws at each trick boundary, the helicopter's trigger cards,
and the jeep's trick and the seats taking the middle's cards. Two players: the
Ghost's seat, display and variant. A special stage: the pattern flag (the
automaton is a second array, solver/missions/pattern.py) and the five-player redeal.
"""

import functools
import itertools

import numpy as np

from solver.core.cards import CARD_COUNT, DECK, card_set
from solver.core.deal import MAX_PLAYERS, Deal
from solver.core.errors import UnsupportedMission
from solver.core.rules import num_tricks
from solver.engines.capacity import MAX_COMPARISONS, MAX_RUNS, MAX_SEQUENCES, kernel_unsupported
from solver.engines.kernel.layout import Layout
from solver.missions.conditions import MAX_COUNTERS, NO_LIMIT, counter_kind
from solver.missions.tasks import (
    ANYONE,
    LAZY,
    TaskMission,
    allowed_counts,
    distinct_cards,
    order_prerequisites,
)
from solver.trick.variants import NO_RULES, PlayRules

MAX_TASKS = CARD_COUNT
MAX_TRICKS = 14
LAZY_OWNER = LAZY
ANY_OWNER = ANYONE

MAX_COLUMNS = 7
PASS_STEPS = 2 * MAX_PLAYERS  # the most cards passed between two tricks: the jeep's two a seat
MAX_DISCARDS = 16
MAX_PLAYS = CARD_COUNT + MAX_DISCARDS  # a game's card plays: every card once, and a redeal's discards again

# A trick counter's fields, at COUNTERS + k * COUNTER_FIELDS.
COUNTER = Layout("counter (at COUNTERS + k * COUNTER_FIELDS)")
C_WINNERS = COUNTER.field("C_WINNERS", 1, "seats whose won tricks count")
C_WON_WITH = COUNTER.field("C_WON_WITH", 1, "cards the trick must be won with (0: any)")
C_CONTAINING = COUNTER.field("C_CONTAINING", 1, "cards the trick must contain, see C_MIN/MAX_CONTAINING")
C_MIN_CONTAINING = COUNTER.field("C_MIN_CONTAINING", 1, "at least this many C_CONTAINING cards in the trick")
C_TRICKS = COUNTER.field("C_TRICKS", 1, "the trick numbers that count (bit t: trick t + 1)")
C_AT_LEAST = COUNTER.field("C_AT_LEAST", 1, "the count's lower bound")
C_AT_MOST = COUNTER.field("C_AT_MOST", 1, "the count's upper bound")
C_MAX_CONTAINING = COUNTER.field("C_MAX_CONTAINING", 1, "at most this many C_CONTAINING cards in the trick")
C_MIN_VALUE = COUNTER.field("C_MIN_VALUE", 1, "the trick's total value at least this")
C_MAX_VALUE = COUNTER.field("C_MAX_VALUE", 1, "the trick's total value at most this")
C_COUNT_CARDS = COUNTER.field("C_COUNT_CARDS", 1, "1: count the C_CONTAINING cards won, not the tricks")
C_AS_MANY = COUNTER.field("C_AS_MANY", 1, "cards the trick holds as many of as of C_CONTAINING (0: no such condition)")
COUNTER_FIELDS = COUNTER.size

# A sequence rule's fields, at SEQUENCES + k * SEQUENCE_FIELDS.
SEQUENCE = Layout("sequence rule (at SEQUENCES + k * SEQUENCE_FIELDS)")
S_BEFORE = SEQUENCE.field("S_BEFORE", 1, "cards after which...")
S_AFTER = SEQUENCE.field("S_AFTER", 1, "...none of these cards may be played next")
S_ACROSS = SEQUENCE.field("S_ACROSS", 1, "1: also from one trick's last card to the next trick's first")
SEQUENCE_FIELDS = SEQUENCE.size

# A comparison's fields (the difference of two counters at the end), at COMPARISONS + k * COMPARISON_FIELDS.
COMPARISON = Layout("comparison (at COMPARISONS + k * COMPARISON_FIELDS)")
K_LEFT = COMPARISON.field("K_LEFT", 1, "the counter whose count...")
K_RIGHT = COMPARISON.field("K_RIGHT", 1, "...minus this counter's count...")
K_AT_LEAST = COMPARISON.field("K_AT_LEAST", 1, "...ends at least this...")
K_AT_MOST = COMPARISON.field("K_AT_MOST", 1, "...and at most this")
COMPARISON_FIELDS = COMPARISON.size

# A run rule's fields (the longest run of consecutive tricks a seat wins), at RUNS + k * RUN_FIELDS.
RUN = Layout("run rule (at RUNS + k * RUN_FIELDS)")
R_SEAT = RUN.field("R_SEAT", 1, "the seat whose runs of won tricks count")
R_AT_LEAST = RUN.field("R_AT_LEAST", 1, "the longest run's lower bound")
R_AT_MOST = RUN.field("R_AT_MOST", 1, "the longest run's upper bound")
RUN_FIELDS = RUN.size

# The compiled problem: one flat int64 array per (deal, mission).
PROBLEM = Layout("problem")
PLAYERS = PROBLEM.field("PLAYERS", 1, "seats in play")
TRICKS = PROBLEM.field("TRICKS", 1, "tricks in the deal (the redeal's included)")
COMMANDER = PROBLEM.field("COMMANDER", 1, "the seat that leads trick 1")
TASK_COUNT = PROBLEM.field("TASK_COUNT", 1, "task cards")
ALL_DONE = PROBLEM.field("ALL_DONE", 1, "the task mask with every task completed")
TASK_CARDS = PROBLEM.field("TASK_CARDS", 1, "card set of every task card")
DISTINCT = PROBLEM.field("DISTINCT", 1, "cards the mission tells apart: never pruned as equivalent")
EVERY_MOVE = PROBLEM.field("EVERY_MOVE", 1, "1: no move is pruned as equivalent to another (perft); 0: the search's "
                           "equivalences (cards, table cards)")
COUNTER_COUNT = PROBLEM.field("COUNTER_COUNT", 1, "trick counters")
BALANCED_GAP = PROBLEM.field("BALANCED_GAP", 1, "the balance rule's gap; 0: no balance rule")
PASS_AFTER = PROBLEM.field("PASS_AFTER", 1, "a random pass follows this trick (1-based); 0: no pass")
SEQUENCE_COUNT = PROBLEM.field("SEQUENCE_COUNT", 1, "sequence rules")
ACROSS = PROBLEM.field("ACROSS", 1, "1 when a sequence rule also links one trick's last card to the next's first")
SKIS = PROBLEM.field("SKIS", 1, "cards whose trick makes every hand pass whole to the left (skis)")
GLIDER = PROBLEM.field("GLIDER", 1, "1 under the hang glider")
SLED = PROBLEM.field("SLED", 1, "the dog-sled driver, who may open any trick; -1: none")
LAST_ARRIVAL = PROBLEM.field("LAST_ARRIVAL", 1, "fog: the last trick boundary where a card reaches a hand; 0: none")
HELI_PASS = PROBLEM.field("HELI_PASS", 1, "helicopter: a trick holding one of these cards is followed by a pass")
JEEP_AFTER = PROBLEM.field("JEEP_AFTER", 1, "jeep: the trick after which each hand puts 2 cards in the middle; 0: none")
GHOST = PROBLEM.field("GHOST", 1, "the Ghost's seat (two players); -1: none")
COLUMNS = PROBLEM.field("COLUMNS", 1, "the columns of the Ghost's display")
DIFFICULT = PROBLEM.field("DIFFICULT", 1, "1 for the difficult Ghost")
PATTERN = PROBLEM.field("PATTERN", 1, "1 when a card of each trick goes to the table, to form a pattern")
REDEAL_AFTER = PROBLEM.field("REDEAL_AFTER", 1, "special stage, 5 players: the trick after which the discards are redealt")
FORCED_COUNT = PROBLEM.field("FORCED_COUNT", 1, "a position: the plays so far, the search's only first moves; "
                             "no table entry is stored or read for a trick they open")
HANDS = PROBLEM.field("HANDS", MAX_PLAYERS, "per seat: the cards in hand before trick 1")
MAX_COUNT = PROBLEM.field("MAX_COUNT", MAX_PLAYERS, "per seat: most lazily assigned tasks it may end with")
RADIX = PROBLEM.field("RADIX", MAX_PLAYERS, "per seat: place value of its count in the taken code")
ALLOWED_WINNERS = PROBLEM.field("ALLOWED_WINNERS", MAX_TRICKS, "per trick: the seats the rules let win it")
COUNTERS = PROBLEM.field("COUNTERS", MAX_COUNTERS * COUNTER_FIELDS, "the trick counters (COUNTER layout)")
SEQUENCES = PROBLEM.field("SEQUENCES", MAX_SEQUENCES * SEQUENCE_FIELDS, "the sequence rules (SEQUENCE layout)")
CARD_TASK = PROBLEM.field("CARD_TASK", CARD_COUNT, "per card: its task index, or -1")
TASK_CARD = PROBLEM.field("TASK_CARD", MAX_TASKS, "per task: its card")
TASK_OWNER = PROBLEM.field("TASK_OWNER", MAX_TASKS, "per task: fixed seat, LAZY_OWNER or ANY_OWNER")
OWNED = PROBLEM.field("OWNED", MAX_PLAYERS, "per seat: the cards of the tasks it owns as their fixed owner")
BEFORE = PROBLEM.field("BEFORE", MAX_TASKS, "per task j: the tasks to complete no later than j (order tokens)")
PASS_RANK = PROBLEM.field("PASS_RANK", CARD_COUNT, "per card: its place in the random pass's ordering")
ARRIVE = PROBLEM.field("ARRIVE", (MAX_TRICKS + 1) * MAX_PLAYERS,
                       "fog, at ARRIVE + t * MAX_PLAYERS + seat: the cards the seat draws before trick t + 1")
JEEP_ORDER = PROBLEM.field("JEEP_ORDER", 2 * MAX_PLAYERS, "per card of the jeep's middle, lowest first: its taker")
DISPLAY = PROBLEM.field("DISPLAY", 2 * MAX_COLUMNS, "the Ghost's display: each column's face-up card, then the face-down ones")
REDEAL_ORDER = PROBLEM.field("REDEAL_ORDER", MAX_DISCARDS, "per discard of the redeal, lowest first: its taker, -1: none")
FORCED = PROBLEM.field("FORCED", MAX_PLAYS, "per card ply t * PLAYERS + pos (trick t, pos-th card): the card played")
FORCED_CHOICES = PROBLEM.field("FORCED_CHOICES", 1, "a position: the tricks t < this whose table card and pass "
                               "after them are the search's only moves there")
FORCED_TABLED = PROBLEM.field("FORCED_TABLED", MAX_TRICKS, "per trick t: the card laid on the table after it; -1: none")
FORCED_PASSED = PROBLEM.field("FORCED_PASSED", MAX_TRICKS * PASS_STEPS,
                              "at FORCED_PASSED + t * PASS_STEPS + step: the card passed at that step after trick t; "
                              "negative (none written, or variants.ANY_CARD): any card the seat may pass")
COMPARISON_COUNT = PROBLEM.field("COMPARISON_COUNT", 1, "comparisons of two counters (Deep Sea)")
COMPARISONS = PROBLEM.field("COMPARISONS", MAX_COMPARISONS * COMPARISON_FIELDS, "the comparisons (COMPARISON layout)")
APART = PROBLEM.field("APART", 1, "bit k: counter k counts tricks (not cards) won by seats no other such counter "
                      "counts, so what they still need adds up to tricks left (comparisons)")
CARD_APART = PROBLEM.field("CARD_APART", 1, "bit k: counter k counts the cards of its set won by seats no other "
                           "such counter counts, and needs some: each card left adds to one of them at most")
CARD_APART_CARDS = PROBLEM.field("CARD_APART_CARDS", 1, "the cards the counters of CARD_APART count")
RUN_COUNT = PROBLEM.field("RUN_COUNT", 1, "run rules (Deep Sea)")
RUNS = PROBLEM.field("RUNS", MAX_RUNS * RUN_FIELDS, "the run rules (RUN layout)")
LEAD_RULES = PROBLEM.field("LEAD_RULES", 1, "1 when a lead rule bars a seat from leading some cards (Deep Sea)")
LEAD_ALLOWED = PROBLEM.field("LEAD_ALLOWED", MAX_PLAYERS, "per seat: the cards it may lead (every card without a rule)")
SPARSE = PROBLEM.field("SPARSE", 1, "bit k: counter k needs tricks holding at most C_MAX_CONTAINING < PLAYERS of "
                       "C_CONTAINING, so a trick past that wastes the room its other cards take (moves.room_wasted)")
WANTING = PROBLEM.field("WANTING", 1, "bit k: counter k counts some seats' (not everyone's) tricks or cards holding "
                        "C_CONTAINING, with no other condition on the trick, and no comparison reads it apart: its "
                        "seats want those cards until it reaches C_AT_LEAST (moves.wanted)")
SIZE = PROBLEM.size
LAYOUTS = (PROBLEM, COUNTER, SEQUENCE, COMPARISON, RUN)

# The table pattern's automaton, a second array: per state, the state after each card (-1: broken),
# then at ALIVE + r whether r more cards can still complete the pattern.
ALIVE = CARD_COUNT
NO_PATTERN = np.zeros((1, ALIVE + MAX_TRICKS + 1), dtype=np.int64)


def compile_rules(problem: list, deal: Deal, space: PlayRules) -> None:
    """Fill in what a stage space or the Ghost changes (solver/trick/variants.py)."""
    space.check(deal)
    problem[SKIS] = space.skis
    problem[GLIDER] = space.hang_glider
    problem[SLED] = space.sled
    problem[HANDS : HANDS + deal.players] = space.arriving(deal, 0)
    problem[LAST_ARRIVAL] = max(space.arrivals, default=0)
    for after in range(1, problem[LAST_ARRIVAL] + 1):
        base = ARRIVE + after * MAX_PLAYERS
        problem[base : base + deal.players] = space.arriving(deal, after)
    problem[HELI_PASS] = space.heli_pass
    problem[JEEP_AFTER] = space.jeep_after
    if space.jeep_after:
        problem[JEEP_ORDER : JEEP_ORDER + 2 * deal.players] = space.jeep_order
    problem[GHOST] = space.ghost
    problem[COLUMNS] = len(space.display) // 2
    problem[DIFFICULT] = space.difficult
    PROBLEM.fill(problem, DISPLAY, space.display)
    problem[REDEAL_AFTER] = space.redeal_after
    problem[TRICKS] += space.redeal_draws()
    PROBLEM.fill(problem, REDEAL_ORDER, space.redeal_order)


def compile_pattern(problem: list, mission: TaskMission) -> np.ndarray:
    """Return the table pattern's automaton over the deal's tricks (NO_PATTERN without one)."""
    if mission.pattern is None:
        return NO_PATTERN
    problem[PATTERN] = 1
    return automaton_table(mission.pattern, problem[TRICKS])


@functools.lru_cache(maxsize=64)
def automaton_table(pattern, length: int) -> np.ndarray:
    """Return a pattern's automaton over `length` table cards as one array (cached: a sweep meets one)."""
    transitions, alive = pattern.automaton(length)
    automaton = np.zeros((len(transitions), ALIVE + MAX_TRICKS + 1), dtype=np.int64)
    automaton[:, :ALIVE] = transitions
    automaton[:, ALIVE : ALIVE + alive.shape[1]] = alive
    return automaton


@functools.lru_cache(maxsize=1024)
@functools.lru_cache(maxsize=256)
def count_table(counts: frozenset[tuple[int, ...]]) -> tuple[list[int], list[int], np.ndarray]:
    """Return per-seat maximum counts, place values, and the table of count codes.

    The table holds, per code, -1 when those counts cannot grow into an allowed
    vector, else the mask of seats that may still take a task.

    Cached: a sweep meets the same few count sets (a draft's, per Commander seat) on
    every deal, and building the table costs more than solving an easy deal.
    """
    players = len(next(iter(counts)))
    maxima = [max(vector[seat] for vector in counts) for seat in range(players)]
    radix = [1] * players
    for seat in range(1, players):
        radix[seat] = radix[seat - 1] * (maxima[seat - 1] + 1)
    codes = set()
    for vector in counts:
        for smaller in itertools.product(*(range(v + 1) for v in vector)):
            codes.add(sum(c * r for c, r in zip(smaller, radix)))
    feasible = np.full(radix[-1] * (maxima[-1] + 1), -1, dtype=np.int64)
    for code in codes:
        feasible[code] = sum(
            1 << seat
            for seat in range(players)
            if code // radix[seat] % (maxima[seat] + 1) < maxima[seat] and code + radix[seat] in codes
        )
    return maxima, radix, feasible


def check_supported(mission: TaskMission) -> None:
    """Raise UnsupportedMission naming what of `mission` the kernel cannot hold."""
    missing = kernel_unsupported(mission)
    if missing:
        raise UnsupportedMission("kernel", tuple(missing), tuple(missing.values()), "use the reference engine")


def bounds_of_equal_counters(counters) -> list[tuple[int, int]]:
    """Return each counter's (at_least, at_most), narrowed by the other counters that always hold the same count
    (of one `counter_kind`: "win all four 9s" and "win exactly two 9s", both cards held by one player). No count
    meets an empty intersection: at_most -1 then fails the counter at its first trick. Grouped by kind in one pass:
    comparing every pair took 45% of compiling a Deep Sea total's cases (difficulty-20, 11 counters, 25,200 cases)."""
    kinds = [counter_kind(counter) for counter in counters]
    narrowed = {}
    for counter, kind in zip(counters, kinds):
        at_least, at_most = narrowed.get(kind, (counter.at_least, counter.at_most))
        narrowed[kind] = max(at_least, counter.at_least), min(at_most, counter.at_most)
    return [(at_least, at_most if at_least <= at_most else -1) for at_least, at_most in map(narrowed.get, kinds)]


def compile_deep_sea_rules(problem: list, deal: Deal, mission: TaskMission) -> None:
    """Fill in the comparisons, run rules and lead rules (conditions.py)."""
    problem[COMPARISON_COUNT] = len(mission.comparisons)
    seats, apart = 0, 0
    for k, counter in enumerate(mission.counters):
        if not counter.count_cards and not counter.winners & seats:
            apart |= 1 << k
            seats |= counter.winners
    problem[APART] = apart if apart & (apart - 1) or mission.comparisons else 0  # one alone: its own bounds suffice
    seats, apart, counted = 0, 0, 0
    for k, counter in enumerate(mission.counters):
        if counter.count_cards and counter.at_least > 0 and not counter.winners & seats:
            apart |= 1 << k
            seats |= counter.winners
            counted |= counter.containing
    if apart & (apart - 1):  # "win all four 9s" and "win exactly two 9s", held by two players
        problem[CARD_APART], problem[CARD_APART_CARDS] = apart, counted
    for k, comparison in enumerate(mission.comparisons):
        base = COMPARISONS + k * COMPARISON_FIELDS
        problem[base : base + COMPARISON_FIELDS] = [comparison.left, comparison.right, comparison.at_least,
                                                    comparison.at_most]
    problem[RUN_COUNT] = len(mission.runs)
    for k, run in enumerate(mission.runs):
        base = RUNS + k * RUN_FIELDS
        problem[base : base + RUN_FIELDS] = [run.seat, run.at_least, run.at_most]
    problem[LEAD_RULES] = bool(mission.leads)
    problem[LEAD_ALLOWED : LEAD_ALLOWED + MAX_PLAYERS] = [DECK] * MAX_PLAYERS
    for rule in mission.leads:
        problem[LEAD_ALLOWED + rule.seat] &= rule.allowed


HANDS_APART = 128  # missions on the train whose compiled arrays are kept, the hands apart (`compile_task_mission`)
_without_hands: dict = {}
_last_compiled: list = [None, None]  # the last key and its arrays: the crew solves one mission object on its samples
# in a row, and hashing the mission for the dict took most of a copy's time (tasks-5 and -10 crew games: 5% of them)


def compile_task_mission(deal: Deal, mission: TaskMission) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return the flat kernel array of a mission on a deal, its table of feasible task counts
    and its table pattern's automaton.

    On the train the array depends on the deal only through its hands, its seats, its Commander and its
    number of tricks, so a mission met again on another deal (the crew's sampled deals: each position is
    solved on up to 16) is copied from the last `HANDS_APART` missions with the hands written in: for a
    mission of 10 dealt tasks at 4 players, 0.002-0.003 ms a deal against 0.04-0.06 ms compiling. The
    feasible-count table and the automaton are shared: the search only reads them."""
    if mission.space is not NO_RULES:
        return compiled(deal, mission)
    key = (mission, deal.players, deal.commander, num_tricks(deal.hands))
    last_key, kept = _last_compiled
    if last_key is None or last_key[0] is not mission or last_key[1:] != key[1:]:
        kept = _without_hands.get(key)
        if kept is None:
            if len(_without_hands) >= HANDS_APART:
                _without_hands.clear()
            kept = _without_hands[key] = compiled(deal, mission)
        _last_compiled[:] = key, kept
    problem, feasible, automaton = kept
    problem = problem.copy()
    problem[HANDS : HANDS + deal.players] = deal.hands
    return problem, feasible, automaton


def compiled(deal: Deal, mission: TaskMission) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return `compile_task_mission`'s arrays, built afresh."""
    check_supported(mission)
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
    problem[SLED] = problem[GHOST] = -1
    if mission.space is NO_RULES:
        problem[HANDS : HANDS + deal.players] = deal.hands
    else:
        compile_rules(problem, deal, mission.space)
    if mission.random_pass is not None:
        problem[PASS_AFTER] = mission.random_pass.after
        for place, c in enumerate(mission.random_pass.order):
            problem[PASS_RANK + c] = place
    maxima, radix, feasible = count_table(allowed_counts(mission, deal))
    problem[MAX_COUNT : MAX_COUNT + deal.players] = maxima
    problem[RADIX : RADIX + deal.players] = radix
    everyone = (1 << deal.players) - 1
    problem[ALLOWED_WINNERS : ALLOWED_WINNERS + MAX_TRICKS] = [everyone] * MAX_TRICKS
    for k, (counter, (at_least, at_most)) in enumerate(zip(mission.counters, bounds_of_equal_counters(mission.counters))):
        base = COUNTERS + k * COUNTER_FIELDS
        problem[base : base + COUNTER_FIELDS] = [
            counter.winners, counter.won_with, counter.containing, counter.min_containing,
            counter.tricks, at_least, at_most, counter.max_containing, counter.min_value,
            counter.max_value, counter.count_cards, counter.as_many,
        ]
        if (
            counter.at_most == 0 and not counter.won_with and not counter.containing and counter.plain_bounds
            and not counter.count_cards
        ):
            for t in range(MAX_TRICKS):
                if counter.tricks >> t & 1:
                    problem[ALLOWED_WINNERS + t] &= ~counter.winners
    problem[SPARSE] = sum(1 << k for k, counter in enumerate(mission.counters) if counter.containing
                          and counter.max_containing < deal.players and not counter.count_cards and counter.at_least > 0)
    problem[WANTING] = 0 if mission.comparisons else sum(
        1 << k for k, counter in enumerate(mission.counters) if counter.containing and counter.winners != everyone
        and not counter.won_with and counter.max_containing >= NO_LIMIT and not counter.as_many)
    compile_deep_sea_rules(problem, deal, mission)
    problem[SEQUENCE_COUNT] = len(mission.sequences)
    problem[ACROSS] = any(sequence.across_tricks for sequence in mission.sequences)
    for k, sequence in enumerate(mission.sequences):
        base = SEQUENCES + k * SEQUENCE_FIELDS
        problem[base : base + SEQUENCE_FIELDS] = [sequence.before, sequence.after, sequence.across_tricks]
    problem[CARD_TASK : CARD_TASK + CARD_COUNT] = [-1] * CARD_COUNT
    before = order_prerequisites(mission.tokens)
    owners = mission.owners if mission.owners is not None else (LAZY_OWNER,) * count
    for i, c in enumerate(mission.cards):
        problem[CARD_TASK + c] = i
        problem[TASK_CARD + i] = c
        problem[TASK_OWNER + i] = owners[i]
        if owners[i] >= 0:
            problem[OWNED + owners[i]] |= 1 << c
        problem[BEFORE + i] = before[i]
    problem[FORCED_COUNT] = len(mission.played)
    PROBLEM.fill(problem, FORCED, mission.played)
    problem[FORCED_CHOICES] = len(mission.chosen)
    problem[FORCED_TABLED : FORCED_TABLED + MAX_TRICKS] = [-1] * MAX_TRICKS
    problem[FORCED_PASSED : FORCED_PASSED + MAX_TRICKS * PASS_STEPS] = [-1] * (MAX_TRICKS * PASS_STEPS)
    for t, choices in enumerate(mission.chosen):  # passes as canonical_pass writes them, as expand_pass generates
        problem[FORCED_TABLED + t] = choices.tabled
        start = FORCED_PASSED + t * PASS_STEPS
        problem[start : start + len(choices.passed)] = choices.passed
    automaton = compile_pattern(problem, mission)
    return np.array(problem, dtype=np.int64), feasible, automaton
