"""The search's arrays, declared once: a frame per trick, a ply per card played or passed, the
control cells, and the card lookup tables every part of the search reads.

Each layout is a `Layout` (solver/engines/kernel/layout.py): fields in order, offsets and sizes
computed, the documentation printed by `python -m solver.engines.kernel`. `SearchArrays`
bundles the arrays one search works on (the deal's three, its stack's five, and the table), so the
search loop takes them as one typed value.
"""

from typing import NamedTuple

import numpy as np

from solver.core.cards import CARD_COUNT, COLOUR_RANKS, SUIT_MASKS, TRUMP
from solver.core.deal import MAX_PLAYERS
from solver.engines.kernel.layout import Layout
from solver.engines.kernel.problem import MAX_COLUMNS, MAX_COUNTERS, MAX_RUNS

# Search results.
RUNNING, WIN, LOSS = 0, 1, 2

MAX_PLIES = CARD_COUNT + 32  # card plays, and the cards passed between tricks (helicopter, jeep)
MAX_MOVES = 32  # a hand's cards, or two hands' when the dog-sled driver may open the trick

# A frame per trick: the position at the start of the trick.
FRAME = Layout("frame (one row per trick)")
LEAD = FRAME.field("LEAD", 1, "the seat that led it (the dog-sled driver may lead for DUE)")
DONE = FRAME.field("DONE", 1, "the tasks completed (bit i: task i)")
TAKEN = FRAME.field("TAKEN", 1, "the lazily assigned tasks per seat, in the mixed-radix code of RADIX")
PRESENT = FRAME.field("PRESENT", 1, "the cards still in play")
KEY = FRAME.field("KEY", 1, "the position's hash, first word")
WORK = FRAME.field("WORK", 1, "nodes searched below this trick boundary (the table keeps the costly proofs)")
QUOTA_SEATS = FRAME.field("QUOTA_SEATS", 1, "the seats that may still take a drafted task")
KEY2 = FRAME.field("KEY2", 1, "the position's hash, second word")
DUE = FRAME.field("DUE", 1, "the seat the rules have lead it (the previous winner)")
MOVED = FRAME.field("MOVED", 1, "which of PASSED, SKIED, DRAWN moved cards right before it")
WON_WITH = FRAME.field("WON_WITH", 1, "the card that won the previous trick (the difficult Ghost leads next to it)")
COUNTER_VALUES = FRAME.field("COUNTER_VALUES", MAX_COUNTERS, "per trick counter: its count so far")
WON = FRAME.field("WON", MAX_PLAYERS, "per seat: tricks won (the balance rule)")
GIVEN = FRAME.field("GIVEN", MAX_PLAYERS, "per seat: the card it gave in a random pass before this trick")
LAST = FRAME.field("LAST", 1, "the card that ended the previous trick (sequence rules across tricks)")
PATTERN_STATE = FRAME.field("PATTERN_STATE", 1, "special stage: the pattern automaton's state, the last card laid")
TABLED = FRAME.field("TABLED", 1, "special stage: the cards on the table")
REDRAWN = FRAME.field("REDRAWN", 1, "special stage: the discards the five-player redeal gave back before it")
SLOTS = FRAME.field("SLOTS", 2 * MAX_COLUMNS, "two players: the Ghost's display, as DISPLAY in the problem, "
                                               "the cards passed to him in the places of those he passed")
COUNTER_ROOM = FRAME.field("COUNTER_ROOM", MAX_COUNTERS, "per trick counter: the most it could still add (comparisons)")
RUN_NOW = FRAME.field("RUN_NOW", MAX_RUNS, "per run rule: the tricks its seat has won in a row up to this trick")
RUN_LONGEST = FRAME.field("RUN_LONGEST", MAX_RUNS, "per run rule: its seat's longest run of won tricks so far")
TIGHT = FRAME.field("TIGHT", 1, "1 when the fixed owners need every trick left, each holding one of their open tasks "
                    "(bounds.hopeless sets it; 0 where it does not look)")
OWNER_NEED = FRAME.field("OWNER_NEED", MAX_PLAYERS, "per seat: the fewest tricks it must still win for its tasks "
                         "(bounds.fewest_owner_tricks; set with TIGHT, read where it is 1)")
FRAME_COLUMNS = FRAME.size
PASSED, SKIED, DRAWN = 1, 2, 4  # the MOVED flags

# A row per ply: a card played to trick TRICK_NO at POS (0: the lead), a card passed before trick
# TRICK_NO (POS = players + the pass step), or the card of the trick before TRICK_NO laid on the
# table (POS = TABLE_POS).
PLY = Layout("ply (one row per card played or passed)")
PLAYED = PLY.field("PLAYED", 1, "the card")
WIN_CARD = PLY.field("WIN_CARD", 1, "the card winning the trick so far")
WIN_SEAT = PLY.field("WIN_SEAT", 1, "the seat winning the trick so far")
ALLOWED = PLY.field("ALLOWED", 1, "the seats that may still win the trick, given its task cards")
SEATS_PLAYED = PLY.field("SEATS_PLAYED", 1, "the seats that have played to the trick")
TRICK_CARDS = PLY.field("TRICK_CARDS", 1, "the trick's cards so far")
TRICK_TASKS = PLY.field("TRICK_TASKS", 1, "the trick's task cards so far")
MOVE_COUNT = PLY.field("MOVE_COUNT", 1, "the moves generated at this ply")
NEXT_MOVE = PLY.field("NEXT_MOVE", 1, "the next of them to try")
TRICK_NO = PLY.field("TRICK_NO", 1, "the trick (0-based)")
POS = PLY.field("POS", 1, "the place in the trick, a pass step (players + step) or TABLE_POS")
MOVER = PLY.field("MOVER", 1, "the seat that played or passed the card")
SPOILING = PLY.field("SPOILING", 1, "the moves generated that spoil the trick: counted, never played "
                     "(moves.spoiling_plays)")
PLY_COLUMNS = PLY.size
TABLE_POS = 3 * MAX_PLAYERS  # beyond every play and pass step
SCORES = MAX_MOVES  # per ply, the moves then as many scratch cells for move ordering, in `moves`

CONTROL = Layout("control cells")
DEPTH = CONTROL.field("DEPTH", 1, "the ply the search stands at")
NODES = CONTROL.field("NODES", 1, "card plays searched")
STATUS = CONTROL.field("STATUS", 1, "RUNNING, WIN or LOSS")
GENERATION = CONTROL.field("GENERATION", 1, "the table generation of this mission")
STARTED = CONTROL.field("STARTED", 1, "1 once the root is set up (a search resumes after a node budget)")
ORDERING = CONTROL.field("ORDERING", 1, "HEURISTIC_ORDER or CARD_ORDER")
PERFT = CONTROL.field("PERFT", 1, "perft: count the move sequences up to this trick boundary instead of searching; "
                      "0: search")
LEAVES = CONTROL.field("LEAVES", 1, "perft: the move sequences counted so far")
CONTROL_CELLS = CONTROL.size
HEURISTIC_ORDER, CARD_ORDER = 0, 1
LAYOUTS = (FRAME, PLY, CONTROL)


class SearchArrays(NamedTuple):
    """Everything one search reads and writes, as one typed value (Numba compiles it as a tuple).

    The deal's three arrays come from `problem.compile_task_mission`; the stack's five belong to one
    `SearchStack`; the table is shared by the searches of a `KernelSolver`.
    """

    problem: np.ndarray  # int64[PROBLEM.size]: the deal and its mission (problem.PROBLEM)
    feasible: np.ndarray  # int64[codes]: per TAKEN code, the seats that may still take a task, or -1
    pattern: np.ndarray  # int64[states, CARD_COUNT]: the table pattern's automaton (special stages)
    frames: np.ndarray  # int64[MAX_TRICKS, FRAME.size]
    plies: np.ndarray  # int64[MAX_PLIES, PLY.size]
    moves: np.ndarray  # int64[MAX_PLIES, 2 * MAX_MOVES]: per ply, its moves then their ordering scores
    hands: np.ndarray  # int64[MAX_PLAYERS]: the cards in each hand now
    control: np.ndarray  # int64[CONTROL.size]
    table: np.ndarray  # int64[2^bits, 3]: the transposition table's entries (table.TranspositionTable)


TRUMP_MASK = SUIT_MASKS[TRUMP]
TRUMP_CARD_BASE = TRUMP * COLOUR_RANKS  # cards below are colour cards
SEAT_AT = np.array(
    [[[(lead + pos) % max(n, 1) for pos in range(MAX_PLAYERS)] for lead in range(MAX_PLAYERS)] for n in range(MAX_PLAYERS + 1)],
    dtype=np.int64,
)
SUIT_OF_CARD = np.array([c // COLOUR_RANKS for c in range(CARD_COUNT)], dtype=np.int64)
SUIT_MASK_OF_CARD = np.array([SUIT_MASKS[c // COLOUR_RANKS] for c in range(CARD_COUNT)], dtype=np.int64)
