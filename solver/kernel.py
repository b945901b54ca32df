"""The Numba double-dummy kernel: an existential depth-first search over card plays.

The crew cooperates and sees every hand, so a position is won when any legal
play leads to a win. The search therefore only ever proves positions lost,
and a win ends it at once. It keeps an explicit stack (one ply per card play,
one frame per trick) so it can stop after a node budget and resume, and so
the stack holds the winning line when it stops on a win.

Machinery:
- transposition table of lost trick-boundary positions (see `tt_*`);
- lazy task assignment: a drafted task's owner is whoever wins its trick,
  within the seat's draft count, so one search covers every assignment;
- card equivalence: of cards of one suit in one hand with no other present
  card of that suit between them, only the highest is tried, unless the
  mission distinguishes them (task cards);
- early failure inside a trick: once a fixed owner must win the trick and has
  played without winning, nothing later can change that;
- order tokens checked on completion, early success when all tasks are done.

The position key is exact, not a hash: the cards still in hands (they fix
every hand, given the deal), the leader, and the per-seat counts of lazily
assigned tasks (the finished tasks are the task cards no longer in hands).
"""

import time

import numpy as np
from numba import njit

from solver.bitops import lowest_bit_index, popcount
from solver.cards import CARD_COUNT, COLOUR_RANKS, SUIT_MASKS, TRUMP
from solver.deal import MAX_PLAYERS, Deal
from solver.solution import Limits, Outcome, Solution, Trick
from solver.tasks import TaskMission
from solver.compiled import (
    compile_task_mission,
    ALL_DONE,
    BEFORE,
    CARD_TASK,
    COMMANDER,
    HANDS,
    DISTINCT,
    PLAYERS,
    QUOTA,
    RADIX,
    TASK_CARDS,
    TASK_OWNER,
    TRICKS,
)

# Search results.
RUNNING, WIN, LOSS = 0, 1, 2

MAX_TRICKS = 14
MAX_PLIES = CARD_COUNT + 1
MAX_MOVES = 16

# Per-trick frame columns: the position at the start of the trick.
LEAD, DONE, TAKEN, PRESENT, KEY, WORK = range(6)
FRAME_COLUMNS = 6
# Per-ply columns.
PLAYED, WIN_CARD, WIN_SEAT, NEED, TRICK_CARDS, MOVE_COUNT, NEXT_MOVE = range(7)
PLY_COLUMNS = 7
# Control cells.
DEPTH, NODES, STATUS, GENERATION, STARTED = range(5)
CONTROL_CELLS = 5

# No seat must win the trick yet / two different seats must: the trick fails.
NOBODY = -1

TT_WAYS = 4
KEY_LEADER_SHIFT = CARD_COUNT
KEY_TAKEN_SHIFT = CARD_COUNT + 3
HASH_MULTIPLIER = 0x9E3779B97F4A7C15 - (1 << 64)

SUIT_OF_CARD = np.array([c // COLOUR_RANKS for c in range(CARD_COUNT)], dtype=np.int64)
SUIT_MASK_OF_CARD = np.array([SUIT_MASKS[c // COLOUR_RANKS] for c in range(CARD_COUNT)], dtype=np.int64)


@njit(cache=True, inline="always")
def beats(card, best):
    """Return True when `card` takes the lead of a trick whose winning card so far is `best`."""
    if SUIT_OF_CARD[card] == SUIT_OF_CARD[best]:
        return card > best
    return SUIT_OF_CARD[card] == TRUMP


@njit(cache=True)
def representatives(legal, present, distinct):
    """Return the legal cards worth trying: the highest of each run of equivalent cards."""
    plain = legal & ~distinct
    reps = legal & distinct
    rest = plain
    while rest:
        c = lowest_bit_index(rest)
        rest &= rest - 1
        above = present & SUIT_MASK_OF_CARD[c] & ~((np.int64(2) << c) - 1)
        if above & plain & -above:
            continue
        reps |= np.int64(1) << c
    return reps


@njit(cache=True)
def tt_slot(key, tt_keys):
    """Return the first entry of the bucket of `key`."""
    buckets = tt_keys.shape[0] // TT_WAYS
    return (((key * HASH_MULTIPLIER) >> 24) & (buckets - 1)) * TT_WAYS


@njit(cache=True)
def tt_lost(key, tt_keys, tt_gen, generation):
    """Return True when `key` is stored as lost in this generation."""
    slot = tt_slot(key, tt_keys)
    for i in range(slot, slot + TT_WAYS):
        if tt_keys[i] == key and tt_gen[i] == generation:
            return True
    return False


@njit(cache=True)
def tt_store(key, work, tt_keys, tt_gen, tt_work, generation):
    """Store `key` as lost; replace a stale entry, else the one that cost the least work."""
    slot = tt_slot(key, tt_keys)
    victim = slot
    for i in range(slot, slot + TT_WAYS):
        if tt_gen[i] != generation:
            victim = i
            break
        if tt_work[i] < tt_work[victim]:
            victim = i
    tt_keys[victim] = key
    tt_gen[victim] = generation
    tt_work[victim] = min(work, 2**31 - 1)


@njit(cache=True)
def move_score(card, seat, pos, prev, problem, plies, hands, present):
    """Score a candidate play: higher is tried first."""
    task = problem[CARD_TASK + card]
    rank = card % COLOUR_RANKS
    if pos == 0:
        if task >= 0:
            owner = problem[TASK_OWNER + task]
            above = present & SUIT_MASK_OF_CARD[card] & ~((np.int64(2) << card) - 1)
            if (owner == seat or owner < 0) and above == 0:
                return 100
            return 40 - rank
        return 30 - rank
    wins = beats(card, plies[prev, WIN_CARD])
    need = plies[prev, NEED]
    if task >= 0:
        owner = problem[TASK_OWNER + task]
        if owner == seat or (owner < 0 and need < 0):
            return 90 if wins else 5
        if not wins and plies[prev, WIN_SEAT] == owner:
            return 80
        return 10 - rank
    if need >= 0:
        if seat == need:
            return 70 - rank if wins else 20 - rank
        return 5 - rank if wins else 60 + rank
    return 5 - rank if wins else 30 - rank


@njit(cache=True)
def expand(depth, problem, frames, plies, moves, hands):
    """Generate the candidate plays at `depth`, best first."""
    players = problem[PLAYERS]
    trick = depth // players
    pos = depth - trick * players
    seat = (frames[trick, LEAD] + pos) % players
    hand = hands[seat]
    present = frames[trick, PRESENT]
    legal = hand
    if pos > 0:
        follow = hand & SUIT_MASK_OF_CARD[plies[depth - pos, PLAYED]]
        if follow:
            legal = follow
    reps = representatives(legal, present, problem[DISTINCT])
    scores = np.empty(MAX_MOVES, dtype=np.int64)
    count = 0
    while reps:
        card = lowest_bit_index(reps)
        reps &= reps - 1
        score = move_score(card, seat, pos, depth - 1, problem, plies, hands, present)
        i = count
        while i > 0 and scores[i - 1] < score:
            scores[i] = scores[i - 1]
            moves[depth, i] = moves[depth, i - 1]
            i -= 1
        scores[i] = score
        moves[depth, i] = card
        count += 1
    plies[depth, MOVE_COUNT] = count
    plies[depth, NEXT_MOVE] = 0


@njit(cache=True)
def play_into_trick(depth, card, seat, pos, leader, problem, plies):
    """Record `card` at `depth`; return False when the trick can no longer succeed."""
    players = problem[PLAYERS]
    plies[depth, PLAYED] = card
    if pos == 0:
        plies[depth, WIN_CARD] = card
        plies[depth, WIN_SEAT] = seat
        plies[depth, NEED] = NOBODY
        plies[depth, TRICK_CARDS] = np.int64(1) << card
    else:
        prev = depth - 1
        plies[depth, TRICK_CARDS] = plies[prev, TRICK_CARDS] | (np.int64(1) << card)
        plies[depth, NEED] = plies[prev, NEED]
        if beats(card, plies[prev, WIN_CARD]):
            plies[depth, WIN_CARD] = card
            plies[depth, WIN_SEAT] = seat
        else:
            plies[depth, WIN_CARD] = plies[prev, WIN_CARD]
            plies[depth, WIN_SEAT] = plies[prev, WIN_SEAT]
    task = problem[CARD_TASK + card]
    if task >= 0:
        owner = problem[TASK_OWNER + task]
        if owner >= 0:
            need = plies[depth, NEED]
            if need != NOBODY and need != owner:
                return False
            plies[depth, NEED] = owner
    need = plies[depth, NEED]
    if need != NOBODY and (need - leader) % players <= pos and plies[depth, WIN_SEAT] != need:
        return False
    return True


@njit(cache=True)
def settle_trick(depth, trick, problem, frames, plies):
    """Fill frame `trick + 1` after the last card of `trick`; return False when the mission fails."""
    winner = plies[depth, WIN_SEAT]
    cards = plies[depth, TRICK_CARDS]
    done = frames[trick, DONE]
    taken = frames[trick, TAKEN]
    tasks = cards & problem[TASK_CARDS]
    completed = np.int64(0)
    lazy = 0
    while tasks:
        card = lowest_bit_index(tasks)
        tasks &= tasks - 1
        task = problem[CARD_TASK + card]
        owner = problem[TASK_OWNER + task]
        if owner < 0:
            lazy += 1
        elif owner != winner:
            return False
        completed |= np.int64(1) << task
    if lazy:
        radix = problem[RADIX + winner]
        count = (taken // radix) % (problem[QUOTA + winner] + 1)
        if count + lazy > problem[QUOTA + winner]:
            return False
        taken += lazy * radix
    finished = done | completed
    rest = completed
    while rest:
        task = lowest_bit_index(rest)
        rest &= rest - 1
        if problem[BEFORE + task] & ~finished:
            return False
    nxt = trick + 1
    frames[nxt, LEAD] = winner
    frames[nxt, DONE] = finished
    frames[nxt, TAKEN] = taken
    frames[nxt, PRESENT] = frames[trick, PRESENT] & ~cards
    frames[nxt, KEY] = (
        frames[nxt, PRESENT]
        | (np.int64(winner) << KEY_LEADER_SHIFT)
        | (taken << KEY_TAKEN_SHIFT)
    )
    return True


@njit(cache=True)
def hopeless(trick, problem, frames, hands):
    """Return True when a static check shows an open task can never be completed."""
    present = frames[trick, PRESENT]
    tasks = present & problem[TASK_CARDS]
    while tasks:
        card = lowest_bit_index(tasks)
        tasks &= tasks - 1
        owner = problem[TASK_OWNER + problem[CARD_TASK + card]]
        if owner < 0 or hands[owner] & (np.int64(1) << card):
            continue
        # The owner must beat the task card with a trump, a higher card of its
        # suit, or a card of a suit its holder can discard it on: none left.
        lower_same_suit = SUIT_MASK_OF_CARD[card] & ((np.int64(1) << card) - 1)
        if hands[owner] & ~lower_same_suit == 0:
            return True
    return False


@njit(cache=True)
def start(problem, frames, plies, moves, hands, control):
    """Set up the root position."""
    players = problem[PLAYERS]
    present = np.int64(0)
    for seat in range(players):
        hands[seat] = problem[HANDS + seat]
        present |= hands[seat]
    frames[0, LEAD] = problem[COMMANDER]
    frames[0, DONE] = 0
    frames[0, TAKEN] = 0
    frames[0, PRESENT] = present
    frames[0, KEY] = present | (problem[COMMANDER] << KEY_LEADER_SHIFT)
    frames[0, WORK] = 0
    control[DEPTH] = 0
    control[NODES] = 0
    control[STARTED] = 1
    if problem[ALL_DONE] == 0:
        control[STATUS] = WIN
        control[DEPTH] = -1
        return
    control[STATUS] = RUNNING
    expand(0, problem, frames, plies, moves, hands)


@njit(cache=True)
def search(problem, frames, plies, moves, hands, control, tt_keys, tt_gen, tt_work, node_limit):
    """Search until a win, a proof of loss, or `node_limit` total nodes; return the status."""
    if control[STARTED] == 0:
        start(problem, frames, plies, moves, hands, control)
    if control[STATUS] != RUNNING:
        return control[STATUS]
    players = problem[PLAYERS]
    tricks = problem[TRICKS]
    generation = control[GENERATION]
    depth = control[DEPTH]
    nodes = control[NODES]
    while True:
        trick = depth // players
        pos = depth - trick * players
        leader = frames[trick, LEAD]
        seat = (leader + pos) % players
        index = plies[depth, NEXT_MOVE]
        if index < plies[depth, MOVE_COUNT]:
            if nodes >= node_limit:
                break
            nodes += 1
            card = moves[depth, index]
            plies[depth, NEXT_MOVE] = index + 1
            hands[seat] &= ~(np.int64(1) << card)
            if play_into_trick(depth, card, seat, pos, leader, problem, plies):
                if pos < players - 1:
                    depth += 1
                    expand(depth, problem, frames, plies, moves, hands)
                    continue
                if settle_trick(depth, trick, problem, frames, plies):
                    nxt = trick + 1
                    if frames[nxt, DONE] == problem[ALL_DONE]:
                        control[DEPTH] = depth
                        control[NODES] = nodes
                        control[STATUS] = WIN
                        return WIN
                    if nxt < tricks and not tt_lost(frames[nxt, KEY], tt_keys, tt_gen, generation):
                        if not hopeless(nxt, problem, frames, hands):
                            frames[nxt, WORK] = nodes
                            depth += 1
                            expand(depth, problem, frames, plies, moves, hands)
                            continue
            hands[seat] |= np.int64(1) << card
        else:
            if pos == 0:
                tt_store(frames[trick, KEY], nodes - frames[trick, WORK], tt_keys, tt_gen, tt_work, generation)
            if depth == 0:
                control[STATUS] = LOSS
                control[NODES] = nodes
                return LOSS
            depth -= 1
            prev_trick = depth // players
            prev_seat = (frames[prev_trick, LEAD] + depth - prev_trick * players) % players
            hands[prev_seat] |= np.int64(1) << plies[depth, PLAYED]
    control[DEPTH] = depth
    control[NODES] = nodes
    return RUNNING


class TranspositionTable:
    """Lost trick-boundary positions, 4-way buckets, generation-stamped: a new deal bumps the stamp
    instead of clearing. A bucket replaces an entry of an older generation first, else the one whose
    proof cost the fewest nodes."""

    def __init__(self, bits: int = 20):
        size = 1 << bits
        self.keys = np.zeros(size, dtype=np.int64)
        self.generations = np.zeros(size, dtype=np.int64)
        self.work = np.zeros(size, dtype=np.int64)
        self.generation = 0

    def next_generation(self) -> int:
        self.generation += 1
        return self.generation


ENGINE = "kernel"
SLICE_NODES = 1 << 20  # nodes between wall-clock checks


class KernelSolver:
    """Solves deals one after another, reusing its transposition table and stacks."""

    def __init__(self, tt_bits: int = 20):
        self.table = TranspositionTable(tt_bits)
        self.frames = np.zeros((MAX_TRICKS, FRAME_COLUMNS), dtype=np.int64)
        self.plies = np.zeros((MAX_PLIES, PLY_COLUMNS), dtype=np.int64)
        self.moves = np.zeros((MAX_PLIES, MAX_MOVES), dtype=np.int64)
        self.hands = np.zeros(MAX_PLAYERS, dtype=np.int64)
        self.control = np.zeros(CONTROL_CELLS, dtype=np.int64)

    def solve(self, deal: Deal, mission: TaskMission, limits: Limits = Limits()) -> Solution:
        """Decide whether the crew can complete every task of `mission` in `deal`."""
        problem = compile_task_mission(deal, mission)
        self.control[:] = 0
        self.control[GENERATION] = self.table.next_generation()
        began = time.perf_counter()
        deadline = None if limits.max_seconds is None else began + limits.max_seconds
        max_nodes = limits.max_nodes if limits.max_nodes is not None else np.iinfo(np.int64).max
        while True:
            limit = min(max_nodes, int(self.control[NODES]) + SLICE_NODES)
            status = search(
                problem, self.frames, self.plies, self.moves, self.hands, self.control,
                self.table.keys, self.table.generations, self.table.work, limit,
            )
            nodes = int(self.control[NODES])
            seconds = time.perf_counter() - began
            if status == WIN:
                tricks = self.witness(problem, deal.players)
                assignment = {c: t.winner for t in tricks for c in t.completed}
                ordered = {c: assignment[c] for c in mission.cards}
                return Solution(Outcome.WIN, nodes, seconds, ENGINE, tricks, ordered)
            if status == LOSS:
                return Solution(Outcome.LOSS, nodes, seconds, ENGINE)
            if nodes >= max_nodes or (deadline is not None and time.perf_counter() > deadline):
                return Solution(Outcome.UNKNOWN, nodes, seconds, ENGINE)

    def witness(self, problem: np.ndarray, players: int) -> list[Trick]:
        """Return the winning line held in the stack after a WIN."""
        plays = [int(self.plies[d, PLAYED]) for d in range(int(self.control[DEPTH]) + 1)]
        task_cards = int(problem[TASK_CARDS])
        tricks = []
        for t in range(len(plays) // players):
            cards = tuple(plays[t * players : (t + 1) * players])
            completed = tuple(c for c in cards if task_cards >> c & 1)
            tricks.append(Trick(int(self.frames[t, LEAD]), cards, int(self.frames[t + 1, LEAD]), completed))
        return tricks


def solve(deal: Deal, mission: TaskMission, limits: Limits = Limits()) -> Solution:
    """Solve one deal with a fresh kernel solver (sweeps keep one `KernelSolver` per worker)."""
    return KernelSolver().solve(deal, mission, limits)
