"""The search loop: an existential depth-first search over card plays.

The crew cooperates and sees every hand, so a position is won when any legal play leads to a win.
The search therefore only ever proves positions lost, and a win ends it at once. It keeps an
explicit stack (one ply per card play or pass, one frame per trick) so it can stop after a node
budget and resume, and so the stack holds the winning line when it stops on a win. Lost positions
at trick boundaries go to the transposition table (solver/engines/kernel/table.py).
"""

import numpy as np
from numba import njit

from solver.core.bitops import unowned
from solver.core.deal import MAX_PLAYERS
from solver.engines.kernel.arrays import (
    COUNTER_VALUES,
    DEPTH,
    DONE,
    DUE,
    GENERATION,
    KEY,
    KEY2,
    LEAD,
    LEAVES,
    LOSS,
    MOVE_COUNT,
    MOVED,
    MOVER,
    NEXT_MOVE,
    NODES,
    ORDERING,
    PATTERN_STATE,
    PERFT,
    PLAYED,
    POS,
    PRESENT,
    QUOTA_SEATS,
    RUN_LONGEST,
    RUN_NOW,
    RUNNING,
    SEAT_AT,
    SLOTS,
    SPOILING,
    STARTED,
    STATUS,
    TABLE_POS,
    TABLED,
    TAKEN,
    TIGHT,
    TRICK_CARDS,
    TRICK_NO,
    WIN,
    WON,
    WORK,
)
from solver.engines.kernel.bounds import hands_settled, hopeless, keeps_room
from solver.engines.kernel.events import complete_pass, lay_on_table, undo_between_tricks, undo_redeal
from solver.engines.kernel.moves import expand, pass_steps, passes_before
from solver.engines.kernel.play import mission_won, play_into_trick, settle_trick
from solver.engines.kernel.problem import (
    ARRIVE,
    COMMANDER,
    DISPLAY,
    FORCED_COUNT,
    HANDS,
    JEEP_AFTER,
    LAST_ARRIVAL,
    MAX_COLUMNS,
    MAX_COUNTERS,
    MAX_RUNS,
    PATTERN,
    PLAYERS,
    REDEAL_AFTER,
    SLED,
    TRICKS,
)
from solver.engines.kernel.table import position_hash, tt_lost, tt_store


@njit(cache=True)
def start(problem, feasible, frames, plies, hands, control, table):
    """Set up the root position (lost at once when its trick is not worth entering: `open_trick`)."""
    players = problem[PLAYERS]
    present = np.int64(0)
    for seat in range(players):
        hands[seat] = problem[HANDS + seat]
        present |= hands[seat]
    for i in range(MAX_PLAYERS, MAX_PLAYERS * (problem[LAST_ARRIVAL] + 1)):  # fog: the cards still to be drawn
        present |= problem[ARRIVE + i]
    frames[0, LEAD] = problem[COMMANDER]
    frames[0, DUE] = problem[COMMANDER]
    frames[0, MOVED] = 0
    frames[0, DONE] = 0
    frames[0, TAKEN] = 0
    frames[0, PRESENT] = present
    frames[0, COUNTER_VALUES : COUNTER_VALUES + MAX_COUNTERS] = 0
    frames[0, RUN_NOW : RUN_NOW + MAX_RUNS] = 0
    frames[0, RUN_LONGEST : RUN_LONGEST + MAX_RUNS] = 0
    frames[0, WON : WON + MAX_PLAYERS] = 0
    frames[0, PATTERN_STATE] = 0
    frames[0, TABLED] = 0
    frames[0, TIGHT] = 0
    frames[0, SLOTS : SLOTS + 2 * MAX_COLUMNS] = problem[DISPLAY : DISPLAY + 2 * MAX_COLUMNS]
    position_hash(0, frames, hands, problem)
    frames[0, WORK] = 0
    frames[0, QUOTA_SEATS] = feasible[0]
    control[DEPTH] = 0
    control[NODES] = 0
    control[STARTED] = 1
    if control[PERFT] == 0 and mission_won(0, problem, frames, hands):
        control[STATUS] = WIN
        control[DEPTH] = -1
        return
    if control[PERFT] == 0 and not open_trick(0, problem, frames, hands, table, control[GENERATION], 0, control):
        control[STATUS] = LOSS
        return
    control[STATUS] = RUNNING
    set_ply(0, 0, 0, plies)


@njit(cache=True, inline="always")
def set_ply(depth, trick, pos, plies):
    """Open ply `depth` at (trick, pos); the search loop generates its moves next."""
    plies[depth, TRICK_NO] = trick
    plies[depth, POS] = pos
    plies[depth, MOVE_COUNT] = -1


@njit(cache=True)
def search(arrays, node_limit):
    """Search the `SearchArrays` until a win, a proof of loss, or `node_limit` total nodes; return the status.

    Between two tricks the crew may pass cards (helicopter, jeep): one ply per card
    passed; the position of the next trick (its key, the table) is the one after
    the pass. In a special stage one ply lays a card of each trick on the table
    right after it; the pattern is won with its last card laid.
    """
    problem, feasible, pattern, frames, plies, moves, hands, control, table = arrays
    # The arrays as views without reference counts (bitops.unowned): `arrays` keeps them alive.
    problem, feasible, pattern = unowned(problem), unowned(feasible), unowned(pattern)
    frames, plies, moves, hands = unowned(frames), unowned(plies), unowned(moves), unowned(hands)
    control, table = unowned(control), unowned(table)
    if control[STARTED] == 0:
        start(problem, feasible, frames, plies, hands, control, table)
    if control[STATUS] != RUNNING:
        return control[STATUS]
    players = problem[PLAYERS]
    tricks = problem[TRICKS]
    generation = control[GENERATION]
    perft = control[PERFT]  # a local: read once, the loop's tests of it cost nothing (measured: x1.2 when read each time)
    depth = control[DEPTH]
    nodes = control[NODES]
    while True:
        if plies[depth, MOVE_COUNT] < 0:
            expand(depth, problem, pattern, frames, plies, moves, hands, control[ORDERING])
        trick = plies[depth, TRICK_NO]
        pos = plies[depth, POS]
        index = plies[depth, NEXT_MOVE]
        if index < plies[depth, MOVE_COUNT]:
            if nodes >= node_limit:
                break
            nodes += 1
            card = moves[depth, index]
            plies[depth, NEXT_MOVE] = index + 1
            if plies[depth, SPOILING] >> card & 1:  # play_into_trick would cut it: counted, not played
                continue
            if pos == TABLE_POS:  # a card of the trick before `trick` laid on the table
                plies[depth, PLAYED] = card
                lay_on_table(trick, card, problem, pattern, frames, hands)
                if trick == tricks and not perft:  # the last card: the moves offered complete the pattern
                    control[DEPTH] = depth
                    control[NODES] = nodes
                    control[STATUS] = WIN
                    return WIN
                if open_trick(trick, problem, frames, hands, table, generation, perft, control):
                    frames[trick, WORK] = nodes
                    depth += 1
                    set_ply(depth, trick, 0, plies)
                elif trick == problem[REDEAL_AFTER]:
                    undo_redeal(trick, problem, frames, hands)
                continue
            if pos >= players:  # a card passed before `trick`
                depth = pass_card(depth, card, problem, frames, plies, hands, control, table, nodes)
                continue
            seat = SEAT_AT[players, frames[trick, LEAD], pos]
            if pos == 0 and problem[SLED] >= 0:  # the holder of the card opens the trick: due leader or driver
                seat = problem[SLED] if hands[problem[SLED]] >> card & 1 else frames[trick, DUE]
                frames[trick, LEAD] = seat
            hands[seat] &= ~(np.int64(1) << card)
            plies[depth, MOVER] = seat
            if play_into_trick(depth, card, seat, pos, trick, problem, frames, plies, hands):
                if pos < players - 1:
                    depth += 1
                    set_ply(depth, trick, pos + 1, plies)
                    continue
                if settle_trick(depth, trick, problem, feasible, frames, plies, hands):
                    nxt = trick + 1
                    if problem[PATTERN]:
                        depth += 1
                        set_ply(depth, nxt, TABLE_POS, plies)
                        continue
                    if not perft and mission_won(nxt, problem, frames, hands):
                        control[DEPTH] = depth
                        control[NODES] = nodes
                        control[STATUS] = WIN
                        return WIN
                    if passes_before(nxt, plies[depth, TRICK_CARDS], problem):
                        depth += 1
                        set_ply(depth, nxt, players, plies)
                        continue
                    enter = nxt < tricks or perft  # perft counts at the end of the deal too
                    if enter and open_trick(nxt, problem, frames, hands, table, generation, perft, control):
                        frames[nxt, WORK] = nodes
                        depth += 1
                        set_ply(depth, nxt, 0, plies)
                        continue
                    if frames[nxt, MOVED]:
                        undo_between_tricks(nxt, problem, frames, hands)
            hands[seat] |= np.int64(1) << card
        else:
            if pos == 0 and trick * players >= problem[FORCED_COUNT]:  # a forced trick's loss holds for its plays only
                tt_store(frames[trick, KEY], frames[trick, KEY2], nodes - frames[trick, WORK], table, generation)
            if depth == 0:
                control[STATUS] = LOSS
                control[NODES] = nodes
                return LOSS
            if pos == 0 and plies[depth - 1, POS] == TABLE_POS:  # back to the table: its card is in no hand
                if trick == problem[REDEAL_AFTER]:
                    undo_redeal(trick, problem, frames, hands)
                depth -= 1
                continue
            if pos == 0 and plies[depth - 1, POS] >= players:  # back into the pass before this trick
                complete_pass(depth - 1, problem, frames, plies, hands, -1)
            elif (pos == 0 or pos == players or pos == TABLE_POS) and frames[trick, MOVED]:
                undo_between_tricks(trick, problem, frames, hands)
            depth -= 1
            hands[plies[depth, MOVER]] |= np.int64(1) << plies[depth, PLAYED]
    control[DEPTH] = depth
    control[NODES] = nodes
    return RUNNING


@njit(cache=True)
def pass_card(depth, card, problem, frames, plies, hands, control, table, nodes):
    """Pass `card` at pass ply `depth`; return the depth the search goes on at (deeper, or the same
    when the pass ends in a position known lost)."""
    trick = plies[depth, TRICK_NO]
    pos = plies[depth, POS]
    step = pos - problem[PLAYERS]
    seat = step // 2 if problem[JEEP_AFTER] else step
    hands[seat] &= ~(np.int64(1) << card)
    each = pass_steps(problem) // problem[PLAYERS]
    if step % each == each - 1 and not keeps_room(seat, each, trick, problem, frames, hands):
        hands[seat] |= np.int64(1) << card
        return depth
    plies[depth, PLAYED] = card
    plies[depth, MOVER] = seat
    if step < pass_steps(problem) - 1:
        set_ply(depth + 1, trick, pos + 1, plies)
        return depth + 1
    complete_pass(depth, problem, frames, plies, hands, 1)
    position_hash(trick, frames, hands, problem)
    generation, perft = control[GENERATION], control[PERFT]
    if keeps_room(-1, 0, trick, problem, frames, hands) and open_trick(
        trick, problem, frames, hands, table, generation, perft, control
    ):
        frames[trick, WORK] = nodes
        set_ply(depth + 1, trick, 0, plies)
        return depth + 1
    complete_pass(depth, problem, frames, plies, hands, -1)
    hands[seat] |= np.int64(1) << card
    return depth


@njit(cache=True, inline="always")
def open_trick(trick, problem, frames, hands, table, generation, perft, control):
    """Return True when the search should enter `trick`: not stored as lost, not hopeless.

    Perft enters every trick before the counted boundary and counts a sequence at it, never entering.
    """
    frames[trick, TIGHT] = 0  # until hopeless finds it so
    if perft:
        if trick < perft:
            return True
        control[LEAVES] += 1
        return False
    unforced = trick * problem[PLAYERS] >= problem[FORCED_COUNT]
    if unforced and tt_lost(frames[trick, KEY], frames[trick, KEY2], table, generation):
        return False
    settled = hands_settled(trick + 1, frames[trick, PRESENT], problem)  # hopeless needs still hands
    return not (settled and hopeless(trick, problem, frames, hands))
