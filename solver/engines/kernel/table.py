"""The transposition table of lost trick-boundary positions, and the position's key.

The key: cards of one suit are interchangeable when they keep their order and holder, so the key
hashes, per suit, each present card's holder by its rank among the present cards of the suit (task
cards by identity), plus the leader and the per-seat counts of lazily assigned tasks, the counters,
the pattern state and the Ghost's display. Finished tasks are implied: they are the task cards no
longer present. Two independent 64-bit Zobrist words make a false match (which could turn a win
into a loss) a 2^-128 event per probe, far below the rate of hardware faults.
"""

import numpy as np
from numba import njit

from solver.core.bitops import lowest_bit_index, popcount
from solver.core.cards import CARD_COUNT
from solver.core.deal import MAX_PLAYERS
from solver.engines.kernel.arrays import (
    COUNTER_VALUES,
    DUE,
    KEY,
    KEY2,
    LAST,
    PATTERN_STATE,
    PRESENT,
    RUN_LONGEST,
    RUN_NOW,
    SLOTS,
    SUIT_MASK_OF_CARD,
    SUIT_OF_CARD,
    TABLED,
    TAKEN,
    WON,
    WON_WITH,
)
from solver.engines.kernel.moves import distinct_at
from solver.engines.kernel.problem import (
    ACROSS,
    BALANCED_GAP,
    COLUMNS,
    COUNTER_COUNT,
    DIFFICULT,
    GHOST,
    HELI_PASS,
    JEEP_AFTER,
    LAST_ARRIVAL,
    MAX_COLUMNS,
    MAX_COUNTERS,
    MAX_RUNS,
    MAX_TRICKS,
    PATTERN,
    PLAYERS,
    REDEAL_AFTER,
    RUN_COUNT,
)
from solver.missions.conditions import FIRST_COUNTERS
from solver.missions.pattern import MAX_STATES

TT_WAYS = 4
# A bucket is one row: its ways' first key words, then their second words, then their metas (generation << 32 |
# proof work). A probe that finds no match, the usual case, reads the first words alone: 32 bytes that never
# straddle a cache line, where rows of one entry (key, key2, meta) spread the four over two lines.
TT_KEY, TT_KEY2, TT_META = 0, TT_WAYS, 2 * TT_WAYS  # each a column block of TT_WAYS
TT_COLUMNS = 3 * TT_WAYS


@njit(cache=True)
def tt_bucket(key, table):
    """Return the row of `key`'s bucket."""
    return key & (table.shape[0] - 1)  # the key is a random Zobrist word already


@njit(cache=True)
def tt_lost(key, key2, table, generation):
    """Return True when the position is stored as lost in this generation."""
    row = tt_bucket(key, table)
    for way in range(TT_WAYS):
        if (table[row, TT_KEY + way] == key and table[row, TT_KEY2 + way] == key2
                and table[row, TT_META + way] >> 32 == generation):
            return True
    return False


@njit(cache=True)
def tt_store(key, key2, work, table, generation):
    """Store a lost position; replace a stale entry, else the one whose proof cost the fewest nodes."""
    row = tt_bucket(key, table)
    victim = 0
    for way in range(TT_WAYS):
        if table[row, TT_META + way] >> 32 != generation:
            victim = way
            break
        if table[row, TT_META + way] < table[row, TT_META + victim]:
            victim = way
    table[row, TT_KEY + victim] = key
    table[row, TT_KEY2 + victim] = key2
    table[row, TT_META + victim] = (generation << 32) | min(work, 2**32 - 1)


_RNG = np.random.default_rng(0xC5E7)
ZOBRIST_RUN = _RNG.integers(-(2**63), 2**63 - 1, size=(2, 5, 16, 5), dtype=np.int64)
ZOBRIST_DISTINCT = _RNG.integers(-(2**63), 2**63 - 1, size=(2, CARD_COUNT, 16, MAX_PLAYERS), dtype=np.int64)
ZOBRIST_LEADER = _RNG.integers(-(2**63), 2**63 - 1, size=(2, 5), dtype=np.int64)
TAKEN_MULTIPLIERS = _RNG.integers(1, 2**62, size=2, dtype=np.int64) | 1
ZOBRIST_COUNTER = _RNG.integers(-(2**63), 2**63 - 1, size=(2, FIRST_COUNTERS, CARD_COUNT + 1), dtype=np.int64)
ZOBRIST_WON = _RNG.integers(-(2**63), 2**63 - 1, size=(2, MAX_PLAYERS, 16), dtype=np.int64)
ZOBRIST_LAST = _RNG.integers(-(2**63), 2**63 - 1, size=(2, CARD_COUNT), dtype=np.int64)
ZOBRIST_TRICK = _RNG.integers(-(2**63), 2**63 - 1, size=(2, MAX_TRICKS + 1), dtype=np.int64)
ZOBRIST_GHOST_LEAD = _RNG.integers(-(2**63), 2**63 - 1, size=(2, CARD_COUNT), dtype=np.int64)
ZOBRIST_PATTERN = _RNG.integers(-(2**63), 2**63 - 1, size=(2, MAX_STATES), dtype=np.int64)
ZOBRIST_TABLED = _RNG.integers(-(2**63), 2**63 - 1, size=(2, CARD_COUNT), dtype=np.int64)
ZOBRIST_DISPLAY = _RNG.integers(-(2**63), 2**63 - 1, size=(2, 2 * MAX_COLUMNS, CARD_COUNT), dtype=np.int64)
# per run rule, its (current run, longest run), each at most MAX_TRICKS: index current * (MAX_TRICKS + 1) + longest
ZOBRIST_RUN_STATE = _RNG.integers(-(2**63), 2**63 - 1, size=(2, MAX_RUNS, (MAX_TRICKS + 1) ** 2), dtype=np.int64)
# the keys of the counters beyond the first ones, drawn last so that every earlier key stays as it was
ZOBRIST_COUNTER = np.concatenate([ZOBRIST_COUNTER, _RNG.integers(
    -(2**63), 2**63 - 1, size=(2, MAX_COUNTERS - FIRST_COUNTERS, CARD_COUNT + 1), dtype=np.int64)], axis=1)


@njit(cache=True)
def position_hash(trick, frames, hands, problem):
    """Set the two 64-bit key words of frame `trick`: a hash of the position with ranks squeezed.

    Two positions whose suits hold the same holders in the same rank order (cards
    gone from play squeezed out), with the same task cards in the same places,
    the same leader, task counts and trick counter values are the same game.
    Under fog the cards still to be drawn are in play (they keep their places in
    the rank order) and the trick number fixes which they are and who draws them.
    """
    present = frames[trick, PRESENT]
    distinct = distinct_at(trick, problem)
    leader = frames[trick, DUE]
    h1 = ZOBRIST_LEADER[0, leader] ^ (frames[trick, TAKEN] * TAKEN_MULTIPLIERS[0])
    h2 = ZOBRIST_LEADER[1, leader] ^ (frames[trick, TAKEN] * TAKEN_MULTIPLIERS[1])
    for seat in range(problem[PLAYERS]):
        rest = hands[seat]
        while rest:
            card = lowest_bit_index(rest)
            rest &= rest - 1
            index = popcount(present & SUIT_MASK_OF_CARD[card] & ((np.int64(1) << card) - 1))
            if distinct >> card & 1:  # its holder too: cards move in a random pass, and between distress passes
                h1 ^= ZOBRIST_DISTINCT[0, card, index, seat]
                h2 ^= ZOBRIST_DISTINCT[1, card, index, seat]
            else:
                suit = SUIT_OF_CARD[card]
                h1 ^= ZOBRIST_RUN[0, suit, index, seat]
                h2 ^= ZOBRIST_RUN[1, suit, index, seat]
    for k in range(problem[COUNTER_COUNT]):
        value = frames[trick, COUNTER_VALUES + k]
        h1 ^= ZOBRIST_COUNTER[0, k, value]
        h2 ^= ZOBRIST_COUNTER[1, k, value]
    if problem[BALANCED_GAP]:
        for seat in range(problem[PLAYERS]):
            h1 ^= ZOBRIST_WON[0, seat, frames[trick, WON + seat]]
            h2 ^= ZOBRIST_WON[1, seat, frames[trick, WON + seat]]
    if problem[ACROSS] and trick > 0:
        h1 ^= ZOBRIST_LAST[0, frames[trick, LAST]]
        h2 ^= ZOBRIST_LAST[1, frames[trick, LAST]]
    if problem[LAST_ARRIVAL]:  # fog: the trick number says which cards are still to come
        h1 ^= ZOBRIST_TRICK[0, trick]
        h2 ^= ZOBRIST_TRICK[1, trick]
    if problem[DIFFICULT] and leader == problem[GHOST] and trick > 0:  # his leads depend on his winning card
        h1 ^= ZOBRIST_GHOST_LEAD[0, frames[trick, WON_WITH]]
        h2 ^= ZOBRIST_GHOST_LEAD[1, frames[trick, WON_WITH]]
    if problem[GHOST] >= 0 and (problem[HELI_PASS] or problem[JEEP_AFTER]):  # passes change his display
        ghost_hand = hands[problem[GHOST]]
        for place in range(2 * problem[COLUMNS]):
            card = frames[trick, SLOTS + place]
            if ghost_hand >> card & 1:
                h1 ^= ZOBRIST_DISPLAY[0, place, card]
                h2 ^= ZOBRIST_DISPLAY[1, place, card]
    for k in range(problem[RUN_COUNT]):
        state = frames[trick, RUN_NOW + k] * (MAX_TRICKS + 1) + frames[trick, RUN_LONGEST + k]
        h1 ^= ZOBRIST_RUN_STATE[0, k, state]
        h2 ^= ZOBRIST_RUN_STATE[1, k, state]
    if problem[PATTERN]:
        h1 ^= ZOBRIST_PATTERN[0, frames[trick, PATTERN_STATE]]
        h2 ^= ZOBRIST_PATTERN[1, frames[trick, PATTERN_STATE]]
        if trick < problem[REDEAL_AFTER]:  # the table's cards decide which are the discards to be redealt
            rest = frames[trick, TABLED]
            while rest:
                card = lowest_bit_index(rest)
                rest &= rest - 1
                h1 ^= ZOBRIST_TABLED[0, card]
                h2 ^= ZOBRIST_TABLED[1, card]
    frames[trick, KEY] = h1
    frames[trick, KEY2] = h2


PREFAULT_BITS = 22  # tables this large or larger get their pages written up front


class TranspositionTable:
    """Lost trick-boundary positions in 4-way buckets of (key, key2, generation << 32 | work) entries, a bucket a row.

    Generation-stamped: a new deal bumps the stamp instead of clearing the table. A bucket
    replaces an entry of an older generation first, else the one whose proof cost the fewest
    nodes, so expensive proofs survive. 2^bits entries of 24 bytes (2^22: 96 MiB).
    """

    def __init__(self, bits: int = 22):
        # A worker's table (2^22 entries) has every page written now: ~0.3 s once, where pages
        # faulted in at random during the search cost far more (measured: 0.26 s on one deal). A
        # smaller one is for one deal (`crew solve`), which mostly touches few of its pages:
        # writing 2^20 entries up front cost 70-96 ms in a fresh process, more than the solve.
        shape = ((1 << bits) // TT_WAYS, TT_COLUMNS)
        if bits >= PREFAULT_BITS:
            self.entries = np.full(shape, 0, dtype=np.int64)  # every page written now
        else:
            self.entries = np.zeros(shape, dtype=np.int64)  # pages arrive zeroed when first touched
        self.generation = 0

    def next_generation(self) -> int:
        self.generation += 1
        return self.generation
