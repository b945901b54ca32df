"""The Numba double-dummy kernel: an existential depth-first search over card plays.

The crew cooperates and sees every hand, so a position is won when any legal
play leads to a win. The search therefore only ever proves positions lost,
and a win ends it at once. It keeps an explicit stack (one ply per card play,
one frame per trick) so it can stop after a node budget and resume, and so
the stack holds the winning line when it stops on a win.

Machinery:
- transposition table of lost trick-boundary positions (see `tt_*` and
  `TranspositionTable`), keyed by a 128-bit hash of the position with ranks
  squeezed (`position_hash`);
- lazy task assignment: a drafted task's owner is whoever wins its trick,
  within the seat's draft count, so one search covers every assignment;
- card equivalence: of cards of one suit in one hand with no other present
  card of that suit between them, only the highest is tried, unless the
  mission distinguishes them (task cards);
- early failure inside a trick: once the seats that may win it (task owners,
  seats with draft count left) have all played without winning, nothing
  later can change that; a task whose order needs another task no later
  fails at once when no seat still to play holds that task's card;
- static checks at trick boundaries (`hopeless`), once no card will move;
- cards move between tricks (`between_tricks`, undone on the way back): a
  random pass drawn with the deal (mission 12), before which no two cards are
  equivalent, since which card a hand gives depends on exactly what it holds;
  the skis (every hand to the left); fog's draws;
- stage spaces in the plays: the hang glider's looser following of suit, the
  dog-sled driver's cards offered at every lead;
- order tokens checked on completion, early success when all tasks are done;
- move ordering: a heuristic (win a trick when you may, duck when you must
  not, lead low), and a second search in plain card order taking turns with
  it and sharing its table (`KernelSolver`).

The position key: cards of one suit are interchangeable when they keep their
order and holder, so the key hashes, per suit, each present card's holder by
its rank among the present cards of the suit (task cards by identity), plus
the leader and the per-seat counts of lazily assigned tasks. Finished tasks
are implied: they are the task cards no longer present. Two independent
64-bit Zobrist words make a false match (which could turn a win into a loss)
a 2^-128 event per probe, far below the rate of hardware faults.
"""

import time

import numpy as np
from numba import njit

from solver.core.bitops import lowest_bit_index, popcount
from solver.core.cards import CARD_COUNT, COLOUR_RANKS, SUIT_MASKS, TRUMP
from solver.core.deal import MAX_PLAYERS, Deal
from solver.core.solution import Limits, Outcome, Solution, Trick
from solver.engines.compiled import (
    ACROSS,
    ALIVE,
    ALL_DONE,
    ALLOWED_WINNERS,
    ANY_OWNER,
    ARRIVE,
    BALANCED_GAP,
    BEFORE,
    C_AT_LEAST,
    C_AT_MOST,
    C_CONTAINING,
    C_COUNT_CARDS,
    C_MAX_CONTAINING,
    C_MAX_VALUE,
    C_MIN_CONTAINING,
    C_MIN_VALUE,
    C_TRICKS,
    C_WINNERS,
    C_WON_WITH,
    CARD_TASK,
    COLUMNS,
    COMMANDER,
    COUNTER_COUNT,
    COUNTER_FIELDS,
    COUNTERS,
    DIFFICULT,
    DISPLAY,
    DISTINCT,
    GHOST,
    GLIDER,
    HANDS,
    HELI_PASS,
    JEEP_AFTER,
    JEEP_ORDER,
    LAST_ARRIVAL,
    LAZY_OWNER,
    MAX_COLUMNS,
    MAX_COUNT,
    MAX_COUNTERS,
    MAX_TRICKS,
    PASS_AFTER,
    PASS_RANK,
    PATTERN,
    PLAYERS,
    RADIX,
    REDEAL_AFTER,
    REDEAL_ORDER,
    S_ACROSS,
    S_AFTER,
    S_BEFORE,
    SEQUENCE_COUNT,
    SEQUENCE_FIELDS,
    SEQUENCES,
    SKIS,
    SLED,
    TASK_CARD,
    TASK_CARDS,
    TASK_OWNER,
    TRICKS,
    compile_task_mission,
)
from solver.engines.compiled import unsupported as arrays_cannot_hold
from solver.engines.layout import Layout
from solver.missions.conditions import NO_LIMIT
from solver.missions.pattern import MAX_STATES
from solver.missions.tasks import TaskMission

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
CONTROL_CELLS = CONTROL.size
HEURISTIC_ORDER, CARD_ORDER = 0, 1
LAYOUTS = (FRAME, PLY, CONTROL)

# Move ordering, best first (`expand`). Leads: when only some seats may win the trick, the highest
# card of its suit still in play goes first if its leader is one of them (only a trump can beat it);
# otherwise low cards first, a restricted trick's before a free one's. Follows: win the trick when
# this seat may be the one to win it, duck (low first) when the trick is free, duck high when this
# seat must not win it, and winning such a trick last of all.
LEAD_TOP_CARD = 100
LEAD_RESTRICTED = 50  # minus the rank
LEAD_FREE = 30  # minus the rank
FOLLOW_MAY_WIN_WINNING = 80  # minus the rank
FOLLOW_MUST_NOT_WIN_DUCKING = 50  # plus the rank
FOLLOW_FREE_DUCKING = 40  # minus the rank
FOLLOW_FREE_WINNING = 20  # minus the rank
FOLLOW_MAY_WIN_DUCKING = 10  # minus the rank
FOLLOW_MUST_NOT_WIN_WINNING = 0  # minus the rank

TT_WAYS = 4
TT_KEY, TT_KEY2, TT_META = range(3)  # entry columns; META = generation << 32 | proof work

TRUMP_MASK = SUIT_MASKS[TRUMP]
TRUMP_CARD_BASE = TRUMP * COLOUR_RANKS  # cards below are colour cards
SEAT_AT = np.array(
    [[[(lead + pos) % max(n, 1) for pos in range(MAX_PLAYERS)] for lead in range(MAX_PLAYERS)] for n in range(MAX_PLAYERS + 1)],
    dtype=np.int64,
)
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
def tt_slot(key, table):
    """Return the first entry of the bucket of `key`."""
    buckets = table.shape[0] // TT_WAYS
    return (key & (buckets - 1)) * TT_WAYS  # the key is a random Zobrist word already


@njit(cache=True)
def tt_lost(key, key2, table, generation):
    """Return True when the position is stored as lost in this generation."""
    slot = tt_slot(key, table)
    for i in range(slot, slot + TT_WAYS):
        if table[i, TT_KEY] == key and table[i, TT_KEY2] == key2 and table[i, TT_META] >> 32 == generation:
            return True
    return False


@njit(cache=True)
def tt_store(key, key2, work, table, generation):
    """Store a lost position; replace a stale entry, else the one whose proof cost the fewest nodes."""
    slot = tt_slot(key, table)
    victim = slot
    for i in range(slot, slot + TT_WAYS):
        if table[i, TT_META] >> 32 != generation:
            victim = i
            break
        if table[i, TT_META] < table[victim, TT_META]:
            victim = i
    table[victim, TT_KEY] = key
    table[victim, TT_KEY2] = key2
    table[victim, TT_META] = (generation << 32) | min(work, 2**32 - 1)


@njit(cache=True)
def allowed_winners(card, allowed, problem, quota_seats):
    """Return the seats that may win a trick once `card` is in it."""
    task = problem[CARD_TASK + card]
    if task < 0:
        return allowed
    owner = problem[TASK_OWNER + task]
    if owner >= 0:
        return allowed & (np.int64(1) << owner)
    if owner == ANY_OWNER:
        return allowed
    return allowed & quota_seats


@njit(cache=True, inline="always")
def expand(depth, problem, pattern, frames, plies, moves, hands, ordering):
    """Generate the candidate plays at `depth`, best first."""
    players = problem[PLAYERS]
    trick = plies[depth, TRICK_NO]
    pos = plies[depth, POS]
    present = frames[trick, PRESENT]
    if pos == TABLE_POS:
        expand_table(depth, trick, problem, pattern, frames, plies, moves)
        return
    if pos >= players:
        expand_pass(depth, pos - players, trick, problem, frames, plies, moves, hands)
        return
    if pos == 0:
        seat = frames[trick, DUE]
        legal = hands[seat]
        if seat == problem[GHOST]:
            legal = ghost_playable(legal, trick, problem, frames)
            if problem[DIFFICULT] and trick > 0:
                legal &= ghost_leads(hands[seat], frames[trick, WON_WITH], trick, problem, frames)
    else:
        seat = SEAT_AT[players, frames[trick, LEAD], pos]
        hand = hands[seat]
        glider = problem[GLIDER] != 0
        if seat == problem[GHOST]:
            hand = ghost_playable(hand, trick, problem, frames)
            glider = False  # the Ghost sets no card aside
        legal = legal_plays(hand, plies[depth - pos, PLAYED], trick, glider, problem)
    forbidden = np.int64(0)
    if problem[SEQUENCE_COUNT] and pos > 0:
        forbidden = sequence_breakers(plies[depth - 1, PLAYED], True, problem)
    elif problem[SEQUENCE_COUNT] and problem[ACROSS] and trick > 0:
        forbidden = sequence_breakers(frames[trick, LAST], False, problem)
    distinct = distinct_at(trick, problem)
    reps = representatives(legal & ~forbidden, present, distinct)
    driver = problem[SLED]
    if pos == 0 and driver >= 0 and driver != seat:  # the dog-sled driver may open the trick instead
        reps |= representatives(hands[driver] & ~forbidden, present, distinct)
    if reps & (reps - 1) == 0 or ordering == CARD_ORDER:
        moves_in_card_order(depth, reps, plies, moves)
        return
    everyone = problem[ALLOWED_WINNERS + trick]  # no task in the trick: any seat the rules allow
    quota_seats = frames[trick, QUOTA_SEATS]
    if pos == 0:
        before = everyone
        winning = reps
    else:
        before = plies[depth - 1, ALLOWED]
        best = plies[depth - 1, WIN_CARD]
        winning = SUIT_MASK_OF_CARD[best] & ~((np.int64(2) << best) - 1)
        if SUIT_OF_CARD[best] != TRUMP:
            winning |= TRUMP_MASK
    scores = moves[depth, SCORES:]
    count = 0
    while reps:
        card = lowest_bit_index(reps)
        reps &= reps - 1
        rank = card % COLOUR_RANKS
        allowed = before
        if problem[CARD_TASK + card] >= 0:
            allowed = allowed_winners(card, before, problem, quota_seats)
        if pos == 0:
            mover = driver if driver >= 0 and hands[driver] >> card & 1 else seat
            if allowed == everyone:
                score = LEAD_FREE - rank
            elif allowed >> mover & 1 and present & SUIT_MASK_OF_CARD[card] & ~((np.int64(2) << card) - 1) == 0:
                score = LEAD_TOP_CARD
            else:
                score = LEAD_RESTRICTED - rank
        else:
            wins = winning >> card & 1
            if allowed == everyone:
                score = FOLLOW_FREE_WINNING - rank if wins else FOLLOW_FREE_DUCKING - rank
            elif allowed >> seat & 1:
                score = FOLLOW_MAY_WIN_WINNING - rank if wins else FOLLOW_MAY_WIN_DUCKING - rank
            else:
                score = FOLLOW_MUST_NOT_WIN_WINNING - rank if wins else FOLLOW_MUST_NOT_WIN_DUCKING + rank
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


@njit(cache=True, inline="always")
def legal_plays(hand, led, trick, glider, problem):
    """Return the cards of `hand` that may follow `led` in `trick` (0-based).

    Under the hang glider (`glider`) one card of the led suit can be set aside for the last
    trick, so only a hand holding two must follow; the last trick is the set-aside cards.
    """
    follow = hand & SUIT_MASK_OF_CARD[led]
    if follow == 0 or glider and (trick == problem[TRICKS] - 1 or follow & (follow - 1) == 0):
        return hand
    return follow


@njit(cache=True)
def ghost_playable(hand, trick, problem, frames):
    """Return the Ghost's face-up cards in `trick`: those of `hand` no other card of it lies on."""
    columns = problem[COLUMNS]
    for column in range(columns):
        if hand >> frames[trick, SLOTS + column] & 1:
            hand &= ~(np.int64(1) << frames[trick, SLOTS + columns + column])
    return hand


@njit(cache=True)
def ghost_leads(hand, won_with, trick, problem, frames):
    """Return the cards the difficult Ghost may lead in `trick` after winning with `won_with`: the card
    below it, and the face-up card of the nearest column with cards on either side (ends joined)."""
    columns = problem[COLUMNS]
    place = display_place(won_with, trick, frames)
    column = place % columns
    below = frames[trick, SLOTS + columns + column]
    leads = np.int64(0)
    if place < columns and hand >> below & 1:
        leads |= np.int64(1) << below
    for step in (columns - 1, 1):  # left, then right
        other = (column + step) % columns
        while other != column:
            top = frames[trick, SLOTS + other]
            bottom = frames[trick, SLOTS + columns + other]
            if hand >> top & 1:
                leads |= np.int64(1) << top
                break
            if hand >> bottom & 1:
                leads |= np.int64(1) << bottom
                break
            other = (other + step) % columns
    return leads


@njit(cache=True, inline="always")
def pass_steps(problem):
    """Return how many cards are passed between two tricks: one per seat (helicopter), two (jeep)."""
    return problem[PLAYERS] * (2 if problem[JEEP_AFTER] else 1)


@njit(cache=True, inline="always")
def passes_before(trick, cards, problem):
    """Return True when the crew passes cards before `trick`, after a trick of `cards`."""
    return trick < problem[TRICKS] and (cards & problem[HELI_PASS] != 0 or trick == problem[JEEP_AFTER])


@njit(cache=True)
def expand_pass(depth, step, trick, problem, frames, plies, moves, hands):
    """Generate the cards a seat may pass at pass step `step`, before `trick`.

    Helicopter: seat `step` passes any card. Jeep: seat step // 2 puts two cards in
    the middle, the higher first (the middle is shuffled: only the pair matters).
    Every card is tried: two cards that are equivalent in one hand are not once
    one of them goes to another hand, where they meet in tricks. The Ghost passes
    face-up cards, and in the jeep both orders of his two, as the first card he gets
    back takes the first one's place (`complete_pass`).
    """
    jeep = problem[JEEP_AFTER] != 0
    seat = step // 2 if jeep else step
    cards = hands[seat]
    if seat == problem[GHOST]:
        first = np.int64(0)
        if jeep and step % 2:  # face up before his first card left the display
            first = np.int64(1) << plies[depth - 1, PLAYED]
        cards = ghost_playable(cards | first, trick, problem, frames) & ~first
    elif jeep and step % 2:
        cards &= (np.int64(1) << plies[depth - 1, PLAYED]) - 1
    moves_in_card_order(depth, cards, plies, moves)


@njit(cache=True)
def expand_table(depth, trick, problem, pattern, frames, plies, moves):
    """Generate the cards of the trick before `trick` that may go on the table: those after which
    the pattern can still be completed, one per automaton state they lead to, since the state is
    all the pattern remembers; every card while the redeal is to come, as the discards it deals
    out depend on which card is laid."""
    state = frames[trick - 1, PATTERN_STATE]
    remaining = problem[TRICKS] - trick
    every_card = trick <= problem[REDEAL_AFTER]
    cards = plies[depth - 1, TRICK_CARDS]
    count = 0
    while cards:
        card = lowest_bit_index(cards)
        cards &= cards - 1
        after = pattern[state, card]
        if after < 0 or pattern[after, ALIVE + remaining] == 0:
            continue
        seen = False
        for i in range(count):
            seen = seen or not every_card and pattern[state, moves[depth, i]] == after
        if not seen:
            moves[depth, count] = card
            count += 1
    plies[depth, MOVE_COUNT] = count
    plies[depth, NEXT_MOVE] = 0


@njit(cache=True)
def lay_on_table(trick, card, problem, pattern, frames, hands):
    """Lay `card` of the trick before `trick` on the table: the pattern's next state, the
    five-player redeal when it is due, and the key of the position then."""
    frames[trick, PATTERN_STATE] = pattern[frames[trick - 1, PATTERN_STATE], card]
    frames[trick, TABLED] = frames[trick - 1, TABLED] | (np.int64(1) << card)
    if trick == problem[REDEAL_AFTER]:
        redeal(trick, problem, frames, hands)
    position_hash(trick, frames, hands, problem)


@njit(cache=True)
def redeal(trick, problem, frames, hands):
    """Deal the discards (the cards played so far but the table's) out before `trick`: lowest
    first, each to the seat drawn with the deal (-1: left out)."""
    discards = frames[0, PRESENT] & ~frames[trick, PRESENT] & ~frames[trick, TABLED]
    drawn = np.int64(0)
    slot = 0
    while discards:
        card = discards & -discards
        discards &= discards - 1
        seat = problem[REDEAL_ORDER + slot]
        slot += 1
        if seat >= 0:
            hands[seat] |= card
            drawn |= card
    frames[trick, REDRAWN] = drawn
    frames[trick, PRESENT] |= drawn


@njit(cache=True)
def undo_redeal(trick, problem, frames, hands):
    """Take the redealt discards back out of the hands before `trick`."""
    drawn = frames[trick, REDRAWN]
    for seat in range(problem[PLAYERS]):
        hands[seat] &= ~drawn
    frames[trick, PRESENT] &= ~drawn


@njit(cache=True, inline="always")
def moves_in_card_order(depth, cards, plies, moves):
    """Make `cards` the moves at `depth`, lowest first."""
    count = 0
    while cards:
        moves[depth, count] = lowest_bit_index(cards)
        cards &= cards - 1
        count += 1
    plies[depth, MOVE_COUNT] = count
    plies[depth, NEXT_MOVE] = 0


@njit(cache=True)
def complete_pass(depth, problem, frames, plies, hands, sign):
    """Give the passed cards of the pass ending at `depth` to their takers (sign 1), or take them back (-1).

    Helicopter: each to the next seat. Jeep: the middle's cards, lowest first, to the
    seats drawn with the deal. The cards the Ghost gets take the places of those he
    gave, in the order he gave them; taking them back restores his display.
    """
    players = problem[PLAYERS]
    steps = pass_steps(problem)
    first = depth - steps + 1
    trick = plies[depth, TRICK_NO]
    ghost = problem[GHOST]
    if ghost >= 0 and sign < 0:
        frames[trick, SLOTS : SLOTS + 2 * MAX_COLUMNS] = frames[trick - 1, SLOTS : SLOTS + 2 * MAX_COLUMNS]
        if trick == problem[PASS_AFTER]:  # the display as the random pass left it
            ghost_takes_passed_card(trick, problem, frames)
    if problem[JEEP_AFTER] == 0:
        for step in range(steps):
            card = np.int64(1) << plies[first + step, PLAYED]
            taker = (step + 1) % players
            hands[taker] = hands[taker] | card if sign > 0 else hands[taker] & ~card
            if taker == ghost and sign > 0:  # the card he gets lies where his lay
                place = display_place(plies[first + ghost, PLAYED], trick, frames)
                frames[trick, SLOTS + place] = plies[first + step, PLAYED]
        return
    middle = np.int64(0)
    for step in range(steps):
        middle |= np.int64(1) << plies[first + step, PLAYED]
    place, second_place = 0, 0  # where the Ghost's two cards lay, found before either place is filled
    if ghost >= 0 and sign > 0:
        place = display_place(plies[first + 2 * ghost, PLAYED], trick, frames)
        second_place = display_place(plies[first + 2 * ghost + 1, PLAYED], trick, frames)
    slot = 0
    while middle:
        card = middle & -middle
        middle &= middle - 1
        taker = problem[JEEP_ORDER + slot]
        hands[taker] = hands[taker] | card if sign > 0 else hands[taker] & ~card
        if taker == ghost and sign > 0:
            frames[trick, SLOTS + place] = lowest_bit_index(card)
            place = second_place
        slot += 1


@njit(cache=True)
def display_place(card, trick, frames):
    """Return the place of `card` in the Ghost's display in `trick` (a played card keeps its place)."""
    place = 0
    while frames[trick, SLOTS + place] != card:
        place += 1
    return place


@njit(cache=True)
def sequence_breakers(previous, same_trick, problem):
    """Return the cards a sequence rule forbids right after `previous` (in the same trick or across)."""
    forbidden = np.int64(0)
    for k in range(problem[SEQUENCE_COUNT]):
        base = SEQUENCES + k * SEQUENCE_FIELDS
        if problem[base + S_BEFORE] >> previous & 1 and (same_trick or problem[base + S_ACROSS]):
            forbidden |= problem[base + S_AFTER]
    return forbidden


@njit(cache=True)
def play_into_trick(depth, card, seat, pos, trick, problem, frames, plies, hands):
    """Record `card` at `depth`; return False when the trick can no longer succeed.

    ALLOWED holds the seats that may win the trick given its task cards; once
    none of them is winning and all have played, later cards cannot help.
    A task whose order needs another task no later must find that task's card
    in the hand of a seat still to play.
    """
    if pos == 0:
        plies[depth, WIN_CARD] = card
        plies[depth, WIN_SEAT] = seat
        allowed = problem[ALLOWED_WINNERS + trick]
        seats_played = np.int64(0)
        trick_cards = np.int64(0)
        trick_tasks = np.int64(0)
    else:
        prev = depth - 1
        if beats(card, plies[prev, WIN_CARD]):
            plies[depth, WIN_CARD] = card
            plies[depth, WIN_SEAT] = seat
        else:
            plies[depth, WIN_CARD] = plies[prev, WIN_CARD]
            plies[depth, WIN_SEAT] = plies[prev, WIN_SEAT]
        allowed = plies[prev, ALLOWED]
        seats_played = plies[prev, SEATS_PLAYED]
        trick_cards = plies[prev, TRICK_CARDS]
        trick_tasks = plies[prev, TRICK_TASKS]
    allowed = allowed_winners(card, allowed, problem, frames[trick, QUOTA_SEATS])
    seats_played |= np.int64(1) << seat
    task = problem[CARD_TASK + card]
    if task >= 0:
        trick_tasks |= np.int64(1) << task
    plies[depth, PLAYED] = card
    plies[depth, ALLOWED] = allowed
    plies[depth, SEATS_PLAYED] = seats_played
    plies[depth, TRICK_CARDS] = trick_cards | (np.int64(1) << card)
    plies[depth, TRICK_TASKS] = trick_tasks
    if not allowed >> plies[depth, WIN_SEAT] & 1 and allowed & ~seats_played == 0:
        return False
    if trick_tasks:
        return prerequisites_reachable(trick_tasks, frames[trick, DONE], seats_played, problem, hands)
    return True


@njit(cache=True)
def prerequisites_reachable(trick_tasks, done, seats_played, problem, hands):
    """Return False when a task in the trick needs an open task no seat still to play holds."""
    finished = done | trick_tasks
    missing = np.int64(0)
    rest = trick_tasks
    while rest:
        task = lowest_bit_index(rest)
        rest &= rest - 1
        missing |= problem[BEFORE + task]
    missing &= ~finished
    if missing == 0:
        return True
    later = np.int64(0)
    for seat in range(problem[PLAYERS]):
        if not seats_played >> seat & 1:
            later |= hands[seat]
    while missing:
        task = lowest_bit_index(missing)
        missing &= missing - 1
        if not later >> problem[TASK_CARD + task] & 1:
            return False
    return True


@njit(cache=True)
def settle_trick(depth, trick, problem, feasible, frames, plies, hands):
    """Fill frame `trick + 1` after the last card of `trick`; return False when the mission fails.

    Token order needs no check here: play_into_trick has already refused a last
    card that leaves a prerequisite of a task in the trick open.
    """
    winner = plies[depth, WIN_SEAT]
    cards = plies[depth, TRICK_CARDS]
    taken = frames[trick, TAKEN]
    tasks = cards & problem[TASK_CARDS]
    completed = np.int64(0)
    lazy = 0
    while tasks:
        card = lowest_bit_index(tasks)
        tasks &= tasks - 1
        task = problem[CARD_TASK + card]
        owner = problem[TASK_OWNER + task]
        if owner == LAZY_OWNER:
            lazy += 1
        elif owner >= 0 and owner != winner:
            return False
        completed |= np.int64(1) << task
    if lazy:
        radix = problem[RADIX + winner]
        count = (taken // radix) % (problem[MAX_COUNT + winner] + 1)
        if count + lazy > problem[MAX_COUNT + winner]:
            return False
        taken += lazy * radix
        if feasible[taken] < 0:
            return False
    nxt = trick + 1
    conditions = problem[COUNTER_COUNT] or problem[BALANCED_GAP]  # none in plain task missions
    if conditions and not count_trick(trick, winner, cards, plies[depth, WIN_CARD], problem, frames, hands):
        return False
    frames[nxt, LEAD] = winner
    frames[nxt, DUE] = winner
    frames[nxt, WON_WITH] = plies[depth, WIN_CARD]
    frames[nxt, DONE] = frames[trick, DONE] | completed
    frames[nxt, TAKEN] = taken
    frames[nxt, PRESENT] = frames[trick, PRESENT] & ~cards
    frames[nxt, QUOTA_SEATS] = feasible[taken]
    frames[nxt, LAST] = plies[depth, PLAYED]
    if problem[GHOST] >= 0:
        frames[nxt, SLOTS : SLOTS + 2 * MAX_COLUMNS] = frames[trick, SLOTS : SLOTS + 2 * MAX_COLUMNS]
    if nxt == problem[PASS_AFTER] or cards & problem[SKIS] or nxt <= problem[LAST_ARRIVAL]:
        between_tricks(nxt, cards, problem, frames, hands)
    else:
        frames[nxt, MOVED] = 0
    if not problem[PATTERN]:  # else once the trick's table card is laid
        position_hash(nxt, frames, hands, problem)
    return True


@njit(cache=True)
def between_tricks(trick, cards, problem, frames, hands):
    """Move cards before `trick` as the rules say: the random pass, the skis, fog's draws.

    `cards`: the previous trick's. Records what moved in MOVED for `undo_between_tricks`.
    """
    players = problem[PLAYERS]
    moved = 0
    if trick == problem[PASS_AFTER]:
        random_pass(trick, problem, frames, hands)
        moved |= PASSED
    if cards & problem[SKIS]:  # every hand goes to the next seat
        ski(problem, hands, 1)
        moved |= SKIED
    if trick <= problem[LAST_ARRIVAL]:
        for seat in range(players):
            hands[seat] |= problem[ARRIVE + trick * MAX_PLAYERS + seat]
        moved |= DRAWN
    frames[trick, MOVED] = moved


@njit(cache=True)
def undo_between_tricks(trick, problem, frames, hands):
    """Undo `between_tricks` before `trick`, last change first."""
    players = problem[PLAYERS]
    moved = frames[trick, MOVED]
    if moved & DRAWN:
        for seat in range(players):
            hands[seat] &= ~problem[ARRIVE + trick * MAX_PLAYERS + seat]
    if moved & SKIED:
        ski(problem, hands, -1)
    if moved & PASSED:
        undo_random_pass(trick, problem, frames, hands)


@njit(cache=True)
def ski(problem, hands, step):
    """Pass every hand whole to the next seat (`step` 1) or back (-1), the Ghost's display skipped."""
    players = problem[PLAYERS]
    seat = 0 if step > 0 else players - 1
    if seat == problem[GHOST]:
        seat += step
    moving = hands[(seat - step) % players]  # the hand coming round to `seat` from the far end
    if (seat - step) % players == problem[GHOST]:
        moving = hands[(seat - 2 * step) % players]
    for _ in range(players - (problem[GHOST] >= 0)):
        moving, hands[seat] = hands[seat], moving
        seat += step
        if seat == problem[GHOST]:
            seat += step


@njit(cache=True, inline="always")
def hands_settled(trick, present, problem):
    """Return True when no card changes hands or reaches one at the boundary before `trick` or later.

    `present`: the cards in play then (the skis and helicopter move cards only while their cards are).
    """
    return (
        trick > problem[PASS_AFTER]
        and trick > problem[LAST_ARRIVAL]
        and trick > problem[JEEP_AFTER]
        and trick > problem[REDEAL_AFTER]
        and present & (problem[SKIS] | problem[HELI_PASS]) == 0
    )


@njit(cache=True)
def most_given_away(trick, cards, left, problem):
    """Return the most cards one hand can still give away after trick `trick` (0-based) and the
    later ones, or -1 when hands change more than that.

    `cards`: the trick's cards once it is complete (else 0); `left`: the cards in play after it
    (or in it, when incomplete). One card in the random pass, two in the jeep, one in each
    helicopter pass: after a trick holding a heli, never after the last. The skis move whole
    hands and fog's draws join a seat's hand, but not both at once; the redeal of a special
    stage mixes hands.
    """
    if trick < problem[REDEAL_AFTER] or trick < problem[LAST_ARRIVAL] and (cards | left) & problem[SKIS]:
        return -1
    later = max(0, problem[TRICKS] - trick - 1 - (cards != 0))  # the tricks a pass may follow, after `cards`
    helicopter = (cards & problem[HELI_PASS] != 0) + min(popcount(left & problem[HELI_PASS]), later)
    return (trick < problem[PASS_AFTER]) + 2 * (trick < problem[JEEP_AFTER]) + helicopter


@njit(cache=True, inline="always")
def distinct_at(trick, problem):
    """Return the cards no other may stand in for in `trick` (0-based).

    Before a random pass every card is itself: which card a hand gives depends
    on exactly which cards it still holds; so before the redeal of a special stage,
    where who draws a discard depends on exactly which cards were discarded.
    """
    if trick < problem[PASS_AFTER] or trick < problem[REDEAL_AFTER]:
        return np.int64(-1)
    return problem[DISTINCT]


@njit(cache=True)
def random_pass(trick, problem, frames, hands):
    """Move each seat's first card in the pass ordering to the next seat, before `trick`.

    The Ghost gives his first face-up card, and the card he gets takes its place in his
    display (solver/trick/chance.py).
    """
    players = problem[PLAYERS]
    ghost = problem[GHOST]
    for seat in range(players):
        given = np.int64(-1)
        rest = hands[seat] if seat != ghost else ghost_playable(hands[seat], trick, problem, frames)
        while rest:
            card = lowest_bit_index(rest)
            rest &= rest - 1
            if given < 0 or problem[PASS_RANK + card] < problem[PASS_RANK + given]:
                given = card
        frames[trick, GIVEN + seat] = given
    for seat in range(players):
        given = frames[trick, GIVEN + seat]
        if given >= 0:
            hands[seat] &= ~(np.int64(1) << given)
            hands[(seat + 1) % players] |= np.int64(1) << given
    if ghost >= 0:
        ghost_takes_passed_card(trick, problem, frames)


@njit(cache=True)
def ghost_takes_passed_card(trick, problem, frames):
    """Lay the card the Ghost got in the random pass before `trick` where the one he gave lay."""
    ghost = problem[GHOST]
    gave = frames[trick, GIVEN + ghost]
    got = frames[trick, GIVEN + (ghost - 1) % problem[PLAYERS]]
    if gave >= 0 and got >= 0:  # else the place keeps the card he gave, as a played card's does
        frames[trick, SLOTS + display_place(gave, trick, frames)] = got


@njit(cache=True)
def undo_random_pass(trick, problem, frames, hands):
    """Give every card of the random pass before `trick` back. (The Ghost's display in `trick` needs
    no undoing: settle_trick copies it afresh before the next pass.)"""
    players = problem[PLAYERS]
    for seat in range(players):
        given = frames[trick, GIVEN + seat]
        if given >= 0:
            hands[(seat + 1) % players] &= ~(np.int64(1) << given)
            hands[seat] |= np.int64(1) << given


@njit(cache=True)
def count_trick(trick, winner, cards, best, problem, frames, hands):
    """Update the trick counters and trick counts into frame `trick + 1`; False when one fails.

    A counter fails once its count passes at_most, or once the tricks left cannot
    bring it to at_least: no more of them than the trick numbers it still counts,
    than the cards left to win them with (`can_still_win`), or than the tricks the
    cards left can fill.
    """
    nxt = trick + 1
    tricks = problem[TRICKS]
    left = frames[trick, PRESENT] & ~cards
    tricks_left = tricks - nxt
    players = problem[PLAYERS]
    for k in range(problem[COUNTER_COUNT]):
        base = COUNTERS + k * COUNTER_FIELDS
        value = frames[trick, COUNTER_VALUES + k]
        mask = problem[base + C_TRICKS]
        containing = problem[base + C_CONTAINING]
        held = popcount(cards & containing)
        count_cards = problem[base + C_COUNT_CARDS]
        if (
            problem[base + C_WINNERS] >> winner & 1
            and mask >> trick & 1
            and (problem[base + C_WON_WITH] == 0 or problem[base + C_WON_WITH] >> best & 1)
            and (containing == 0 or problem[base + C_MIN_CONTAINING] <= held <= problem[base + C_MAX_CONTAINING])
            and (  # a trick's value is summed only for a counter that bounds it
                problem[base + C_MIN_VALUE] == 0 and problem[base + C_MAX_VALUE] >= NO_LIMIT
                or problem[base + C_MIN_VALUE] <= trick_value(cards) <= problem[base + C_MAX_VALUE]
            )
        ):
            value += held if count_cards else 1
        later = popcount(mask & ((np.int64(1) << tricks) - 1) & ~((np.int64(1) << nxt) - 1))
        if count_cards:
            later = popcount(left & containing) if later else 0
        elif problem[base + C_WON_WITH]:
            if hands_settled(nxt, frames[trick, PRESENT], problem):  # no card moving later, which could empty a hand faster
                winners = can_still_win(problem[base + C_WON_WITH], left, hands, problem, tricks_left)
            else:
                winners = popcount(left & problem[base + C_WON_WITH])
            later = min(later, winners)
        if containing and not count_cards and problem[base + C_MIN_CONTAINING] > 0:
            later = min(later, popcount(left & containing) // problem[base + C_MIN_CONTAINING])
        most = problem[base + C_MAX_CONTAINING]
        if containing and most < players and not count_cards:
            later = min(later, room_for_sparse_tricks(popcount(left & containing), most, left, players, tricks_left))
            given = most_given_away(trick, cards, left, problem) if most == 0 else -1
            if given >= 0:
                later = min(later, tricks_left - fewest_named_tricks(containing, given, nxt, problem, hands))
        if value > problem[base + C_AT_MOST] or value + later < problem[base + C_AT_LEAST]:
            return False
        frames[nxt, COUNTER_VALUES + k] = value
    gap = problem[BALANCED_GAP]
    if gap == 0:
        return True
    most = np.int64(0)
    fewest = np.int64(99)
    for seat in range(problem[PLAYERS]):
        won = frames[trick, WON + seat] + (seat == winner)
        frames[nxt, WON + seat] = won
        most = max(most, won)
        fewest = min(fewest, won)
    return most - fewest <= gap


@njit(cache=True)
def room_for_sparse_tricks(named, most, left, players, tricks_left):
    """Return how many of the `tricks_left` tricks can hold at most `most` of `named` cards left.

    Every named card still in a hand is played (but the cards no trick will take: the extra
    card of a 3-player deal), at most `most` in each sparse trick and `players` in any other,
    so g sparse tricks need g * most + (tricks_left - g) * players >= named.
    """
    named = max(0, named - (popcount(left) - tricks_left * players))
    return (tricks_left * players - named) // (players - most)


@njit(cache=True)
def fewest_named_tricks(named, given, trick, problem, hands):
    """Return the fewest tricks from `trick` (0-based) on that can hold the `named` cards still
    to be played, when each hand can give `given` cards away (and get as many).

    A hand plays one card a trick: g tricks hold at most g of its named cards, and no more
    than it has and gets; it must play all of its own but those it gives away and those it
    keeps back (its cards beyond one a trick: the extra card of a 3-player deal), in as many
    tricks. Fog's draws still to come count with the hand they join.
    """
    players = problem[PLAYERS]
    tricks_left = problem[TRICKS] - trick
    owned = np.empty(players, np.int64)
    played = 0  # named cards played in all: every one but those kept back
    fewest = 0
    for seat in range(players):
        hand = with_draws(hands[seat], seat, trick, problem)
        spare = max(0, popcount(hand) - tricks_left)
        owned[seat] = popcount(hand & named)
        played += owned[seat] - spare
        fewest = max(fewest, owned[seat] - spare - given)
    while fewest < tricks_left:
        room = 0
        for seat in range(players):
            room += min(fewest, owned[seat] + given)
        if room >= played:
            break
        fewest += 1
    return fewest


@njit(cache=True, inline="always")
def with_draws(hand, seat, trick, problem):
    """Return `seat`'s `hand` with fog's draws still to come from the boundary before `trick` on."""
    for after in range(trick, problem[LAST_ARRIVAL] + 1):
        hand |= problem[ARRIVE + after * MAX_PLAYERS + seat]
    return hand


@njit(cache=True)
def named_to_play(named, hand, coming, given, seat, trick, problem):
    """Return how many `named` cards of `hand` (`seat`'s, `coming` more cards on their way to it)
    it must play from `trick` (0-based) on, in as many tricks, when it can give `given` away."""
    hand = with_draws(hand, seat, trick, problem)
    spare = max(0, popcount(hand) + coming - (problem[TRICKS] - trick))
    return popcount(hand & named) - spare - given


@njit(cache=True)
def trick_value(cards):
    """Return the total value of a trick: the sum of its cards' numbers."""
    total = 0
    while cards:
        total += lowest_bit_index(cards) % COLOUR_RANKS + 1
        cards &= cards - 1
    return total


@njit(cache=True)
def can_still_win(cards, left, hands, problem, tricks_left):
    """Return how many of `cards` still in play could win a trick of the `tricks_left` to come.

    The lowest colour card left of its suit wins only when it leads and every other hand
    is void in the suit; a hand sheds at most one card a trick, so one holding as many
    cards of the suit as there are tricks left can never be void before the last of them.
    (A low trump can win as a ruff, with trumps still in other hands: no such bound.) The
    Ghost's face-down cards do not count for following suit: his hand gives no bound.
    """
    count = 0
    rest = cards & left
    while rest:
        card = lowest_bit_index(rest)
        rest &= rest - 1
        suit = SUIT_MASK_OF_CARD[card]
        if card < TRUMP_CARD_BASE and left & suit & ((np.int64(1) << card) - 1) == 0:  # lowest of its colour
            for seat in range(problem[PLAYERS]):
                if seat == problem[GHOST]:
                    continue
                if not hands[seat] >> card & 1 and popcount(hands[seat] & suit) >= tricks_left:
                    count -= 1
                    break
        count += 1
    return count


@njit(cache=True)
def mission_won(trick, problem, frames):
    """Return True when, at the start of `trick`, every task is done and no condition can fail.

    A table pattern is won only with its last card laid (the search's table plies).
    """
    if frames[trick, DONE] != problem[ALL_DONE] or problem[PATTERN]:
        return False
    tricks = problem[TRICKS]
    if problem[BALANCED_GAP] and trick < tricks:
        return False
    present = frames[trick, PRESENT]
    for k in range(problem[SEQUENCE_COUNT]):  # a card that could still break a sequence rule is in play
        if problem[SEQUENCES + k * SEQUENCE_FIELDS + S_AFTER] & present and trick < tricks:
            return False
    for k in range(problem[COUNTER_COUNT]):
        base = COUNTERS + k * COUNTER_FIELDS
        if frames[trick, COUNTER_VALUES + k] < problem[base + C_AT_LEAST]:
            return False
        if problem[base + C_AT_MOST] >= NO_LIMIT:
            continue
        later = problem[base + C_TRICKS] & ((np.int64(1) << tricks) - 1) & ~((np.int64(1) << trick) - 1)
        won_with = problem[base + C_WON_WITH]
        containing = problem[base + C_CONTAINING]
        if (
            later
            and (won_with == 0 or won_with & present)
            and (containing == 0 or popcount(containing & present) >= problem[base + C_MIN_CONTAINING])
        ):
            return False
    return True


_RNG = np.random.default_rng(0xC5E7)
ZOBRIST_RUN = _RNG.integers(-(2**63), 2**63 - 1, size=(2, 5, 16, 5), dtype=np.int64)
ZOBRIST_DISTINCT = _RNG.integers(-(2**63), 2**63 - 1, size=(2, CARD_COUNT, 16, MAX_PLAYERS), dtype=np.int64)
ZOBRIST_LEADER = _RNG.integers(-(2**63), 2**63 - 1, size=(2, 5), dtype=np.int64)
TAKEN_MULTIPLIERS = _RNG.integers(1, 2**62, size=2, dtype=np.int64) | 1
ZOBRIST_COUNTER = _RNG.integers(-(2**63), 2**63 - 1, size=(2, MAX_COUNTERS, CARD_COUNT + 1), dtype=np.int64)
ZOBRIST_WON = _RNG.integers(-(2**63), 2**63 - 1, size=(2, MAX_PLAYERS, 16), dtype=np.int64)
ZOBRIST_LAST = _RNG.integers(-(2**63), 2**63 - 1, size=(2, CARD_COUNT), dtype=np.int64)
ZOBRIST_TRICK = _RNG.integers(-(2**63), 2**63 - 1, size=(2, MAX_TRICKS + 1), dtype=np.int64)
ZOBRIST_GHOST_LEAD = _RNG.integers(-(2**63), 2**63 - 1, size=(2, CARD_COUNT), dtype=np.int64)
ZOBRIST_PATTERN = _RNG.integers(-(2**63), 2**63 - 1, size=(2, MAX_STATES), dtype=np.int64)
ZOBRIST_TABLED = _RNG.integers(-(2**63), 2**63 - 1, size=(2, CARD_COUNT), dtype=np.int64)
ZOBRIST_DISPLAY = _RNG.integers(-(2**63), 2**63 - 1, size=(2, 2 * MAX_COLUMNS, CARD_COUNT), dtype=np.int64)


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


@njit(cache=True)
def hopeless(trick, problem, frames, hands):
    """Return True when a static check shows an open task can never be completed.

    A seat other than the task card's holder can only win the trick holding it
    with a trump, a higher card of its suit, or a card of a suit the holder
    discards it on: a hand of nothing but lower cards of that suit cannot.
    """
    present = frames[trick, PRESENT]
    quota_seats = frames[trick, QUOTA_SEATS]
    everyone = (np.int64(1) << problem[PLAYERS]) - 1
    tasks = present & problem[TASK_CARDS]
    while tasks:
        card = lowest_bit_index(tasks)
        tasks &= tasks - 1
        allowed = allowed_winners(card, everyone, problem, quota_seats)
        lower_same_suit = SUIT_MASK_OF_CARD[card] & ((np.int64(1) << card) - 1)
        possible = False
        while allowed and not possible:
            seat = lowest_bit_index(allowed)
            allowed &= allowed - 1
            hand = hands[seat]
            possible = hand >> card & 1 or hand & ~lower_same_suit != 0
        if not possible:
            return True
    return False


@njit(cache=True)
def start(problem, feasible, frames, plies, hands, control):
    """Set up the root position."""
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
    frames[0, WON : WON + MAX_PLAYERS] = 0
    frames[0, PATTERN_STATE] = 0
    frames[0, TABLED] = 0
    frames[0, SLOTS : SLOTS + 2 * MAX_COLUMNS] = problem[DISPLAY : DISPLAY + 2 * MAX_COLUMNS]
    position_hash(0, frames, hands, problem)
    frames[0, WORK] = 0
    frames[0, QUOTA_SEATS] = feasible[0]
    control[DEPTH] = 0
    control[NODES] = 0
    control[STARTED] = 1
    if mission_won(0, problem, frames):
        control[STATUS] = WIN
        control[DEPTH] = -1
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
def search(problem, feasible, pattern, frames, plies, moves, hands, control, table, node_limit):
    """Search until a win, a proof of loss, or `node_limit` total nodes; return the status.

    Between two tricks the crew may pass cards (helicopter, jeep): one ply per card
    passed; the position of the next trick (its key, the table) is the one after
    the pass. In a special stage one ply lays a card of each trick on the table
    right after it; the pattern is won with its last card laid.
    """
    if control[STARTED] == 0:
        start(problem, feasible, frames, plies, hands, control)
    if control[STATUS] != RUNNING:
        return control[STATUS]
    players = problem[PLAYERS]
    tricks = problem[TRICKS]
    generation = control[GENERATION]
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
            if pos == TABLE_POS:  # a card of the trick before `trick` laid on the table
                plies[depth, PLAYED] = card
                lay_on_table(trick, card, problem, pattern, frames, hands)
                if trick == tricks:  # the last card: the moves offered complete the pattern
                    control[DEPTH] = depth
                    control[NODES] = nodes
                    control[STATUS] = WIN
                    return WIN
                if open_trick(trick, problem, frames, hands, table, generation):
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
                    if mission_won(nxt, problem, frames):
                        control[DEPTH] = depth
                        control[NODES] = nodes
                        control[STATUS] = WIN
                        return WIN
                    if passes_before(nxt, plies[depth, TRICK_CARDS], problem):
                        depth += 1
                        set_ply(depth, nxt, players, plies)
                        continue
                    if nxt < tricks and open_trick(nxt, problem, frames, hands, table, generation):
                        frames[nxt, WORK] = nodes
                        depth += 1
                        set_ply(depth, nxt, 0, plies)
                        continue
                    if frames[nxt, MOVED]:
                        undo_between_tricks(nxt, problem, frames, hands)
            hands[seat] |= np.int64(1) << card
        else:
            if pos == 0:
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
    if open_trick(trick, problem, frames, hands, table, control[GENERATION]):
        frames[trick, WORK] = nodes
        set_ply(depth + 1, trick, 0, plies)
        return depth + 1
    complete_pass(depth, problem, frames, plies, hands, -1)
    hands[seat] |= np.int64(1) << card
    return depth


@njit(cache=True)
def keeps_room(seat, coming, trick, problem, frames, hands):
    """Return False when `seat`, done giving in the pass before `trick` (`coming` cards to get),
    keeps more cards a counter's tricks may not hold than leaves it room for enough of them.

    The bound of count_trick for one hand, checked as soon as the hand has given: a pass that
    keeps too many such cards in one hand is cut before the others pass.
    """
    present = frames[trick, PRESENT]
    given = most_given_away(trick, 0, present, problem)
    if given < 0 or trick <= problem[LAST_ARRIVAL]:  # fog's draws: a card drawn before `trick` may be the one given
        return True
    tricks = problem[TRICKS]
    for k in range(problem[COUNTER_COUNT]):
        base = COUNTERS + k * COUNTER_FIELDS
        containing = problem[base + C_CONTAINING]
        if containing == 0 or problem[base + C_MAX_CONTAINING] != 0 or problem[base + C_COUNT_CARDS]:
            continue
        spoiled = named_to_play(containing, hands[seat], coming, given, seat, trick, problem)
        later = popcount(problem[base + C_TRICKS] & ((np.int64(1) << tricks) - 1) & ~((np.int64(1) << trick) - 1))
        if frames[trick, COUNTER_VALUES + k] + min(later, tricks - trick - spoiled) < problem[base + C_AT_LEAST]:
            return False
    return True


@njit(cache=True, inline="always")
def open_trick(trick, problem, frames, hands, table, generation):
    """Return True when the search should enter `trick`: not stored as lost, not hopeless."""
    if tt_lost(frames[trick, KEY], frames[trick, KEY2], table, generation):
        return False
    settled = hands_settled(trick + 1, frames[trick, PRESENT], problem)  # hopeless needs still hands
    return not (settled and hopeless(trick, problem, frames, hands))


class TranspositionTable:
    """Lost trick-boundary positions in 4-way buckets of (key, key2, generation << 32 | work) rows.

    Generation-stamped: a new deal bumps the stamp instead of clearing the table. A bucket
    replaces an entry of an older generation first, else the one whose proof cost the fewest
    nodes, so expensive proofs survive. 2^bits entries of 24 bytes (2^22: 96 MiB).
    """

    def __init__(self, bits: int = 22):
        # Writing every page now costs ~0.3 s for 2^22 entries here; leaving the pages to be
        # faulted in at random during the search cost far more (measured: 0.26 s on one deal).
        self.entries = np.full((1 << bits, 3), 0, dtype=np.int64)
        self.generation = 0

    def next_generation(self) -> int:
        self.generation += 1
        return self.generation


ENGINE = "kernel"
SLICE_NODES = 1 << 14  # nodes a search runs before the other takes its turn (~2 ms)
UNLIMITED_NODES = (1 << 63) - 1


class SearchStack:
    """One resumable depth-first search: its stack arrays, control cells and move ordering."""

    def __init__(self, ordering: int):
        self.frames = np.zeros((MAX_TRICKS, FRAME_COLUMNS), dtype=np.int64)
        self.plies = np.zeros((MAX_PLIES, PLY_COLUMNS), dtype=np.int64)
        self.moves = np.zeros((MAX_PLIES, 2 * MAX_MOVES), dtype=np.int64)
        self.hands = np.zeros(MAX_PLAYERS, dtype=np.int64)
        self.control = np.zeros(CONTROL_CELLS, dtype=np.int64)
        self.ordering = ordering

    def reset(self, generation: int) -> None:
        """Prepare a new deal: the next `run` starts from the root."""
        self.control[:] = 0
        self.control[GENERATION] = generation
        self.control[ORDERING] = self.ordering

    def run(self, problem: np.ndarray, feasible: np.ndarray, pattern: np.ndarray, table: np.ndarray, nodes: int) -> int:
        """Search `nodes` more nodes at most; return RUNNING, WIN or LOSS."""
        limit = int(self.control[NODES]) + nodes
        return search(
            problem, feasible, pattern, self.frames, self.plies, self.moves, self.hands, self.control, table, limit
        )

    @property
    def nodes(self) -> int:
        return int(self.control[NODES])

    def witness(self, problem: np.ndarray, players: int) -> list[Trick]:
        """Return the winning line held in the stack after a WIN (with the cards passed after each trick)."""
        depth = int(self.control[DEPTH]) + 1
        cards = self.plies[:depth, PLAYED].tolist()
        leaders = self.frames[:, LEAD].tolist()
        winners = self.frames[:, DUE].tolist()  # a trick's winner is due to lead the next
        task_cards = int(problem[TASK_CARDS])
        passed, tabled = {}, {}
        if problem[HELI_PASS] or problem[JEEP_AFTER] or problem[PATTERN]:  # plies between tricks: each after its trick
            plays, cards, trick = cards, [], 0
            for c, pos in zip(plays, self.plies[:depth, POS].tolist()):
                if pos < players:
                    cards.append(c)
                    trick += pos == players - 1
                elif pos == TABLE_POS:
                    tabled[trick - 1] = c
                else:
                    passed[trick - 1] = passed.get(trick - 1, ()) + (c,)
        tricks = []
        for t in range(len(cards) // players):
            played = tuple(cards[t * players : (t + 1) * players])
            completed = tuple([c for c in played if task_cards >> c & 1])
            tricks.append(Trick(leaders[t], played, winners[t + 1], completed, passed.get(t, ()), tabled.get(t, -1)))
        return tricks


class KernelSolver:
    """Solves deals one after another, reusing its transposition table and stacks.

    Two searches of the same deal take turns, `SLICE_NODES` each: one tries the
    heuristic move order first, the other plain card order. Either one's answer
    is the deal's (each is a complete search), and both store and read the same
    table of lost positions, so neither repeats a proof the other has finished.
    Which order finds a win fast differs from deal to deal by orders of
    magnitude, so taking turns costs at most about twice the faster of the two.
    """

    def __init__(self, tt_bits: int = 22):
        self.table = TranspositionTable(tt_bits)
        self.stacks = (SearchStack(HEURISTIC_ORDER), SearchStack(CARD_ORDER))

    def solve(
        self, deal: Deal, mission: TaskMission, limits: Limits = Limits(), generation: int | None = None
    ) -> Solution:
        """Decide whether the crew can complete every task of `mission` in `deal`.

        `generation` (from `table.next_generation()`): read and extend the lost positions
        stored under it by earlier calls, which must have had the same mission, seats,
        Commander and number of cards (another round on the same deal, or the distress
        passes of one deal): a position's fate depends only on the position then.
        Default: a new generation, so nothing stored before counts.
        """
        problem, feasible, pattern = compile_task_mission(deal, mission)
        if generation is None:
            generation = self.table.next_generation()
        for stack in self.stacks:
            stack.reset(generation)
        began = time.perf_counter()
        max_seconds = limits.max_seconds if limits.max_seconds is not None else float("inf")
        max_nodes = limits.max_nodes if limits.max_nodes is not None else UNLIMITED_NODES
        nodes = 0
        while True:
            for stack in self.stacks:
                status = stack.run(problem, feasible, pattern, self.table.entries, min(SLICE_NODES, max_nodes - nodes))
                nodes = sum(s.nodes for s in self.stacks)
                seconds = time.perf_counter() - began
                if status == WIN:
                    tricks = stack.witness(problem, deal.players)
                    assignment = {c: t.winner for t in tricks for c in t.completed}
                    ordered = {c: assignment[c] for c in mission.cards}
                    return Solution(Outcome.WIN, nodes, seconds, ENGINE, tricks, ordered)
                if status == LOSS:
                    return Solution(Outcome.LOSS, nodes, seconds, ENGINE)
                if nodes >= max_nodes or seconds > max_seconds:
                    return Solution(Outcome.UNKNOWN, nodes, seconds, ENGINE)


def unsupported(mission: TaskMission) -> dict[str, str]:
    """Return what of `mission` the kernel does not model (solver/engines/protocol.py): what its
    arrays cannot hold; it raises UnsupportedMission naming it."""
    return arrays_cannot_hold(mission)


SINGLE_DEAL_TT_BITS = 20  # a fresh table for one deal: 24 MiB, filled in ~0.07 s


def solve(deal: Deal, mission: TaskMission, limits: Limits = Limits()) -> Solution:
    """Solve one deal with a fresh kernel solver (sweeps keep one `KernelSolver` per worker)."""
    return KernelSolver(SINGLE_DEAL_TT_BITS).solve(deal, mission, limits)
