"""Move generation: the legal plays at a ply, their order, and the equivalence of cards.

Card equivalence: of cards of one suit in one hand with no other present card of that suit between
them, only the highest is tried, unless the mission distinguishes them (task cards). Stage spaces
change the plays: the hang glider's looser following of suit, the dog-sled driver's cards offered at
every lead, the crew's choice of cards passed (helicopter, jeep) and of the card laid on the table
(special stages); the Ghost plays his face-up cards and, when difficult, leads next to the card he
won with. Moves are ordered by the tiers below (heuristic order) or in plain card order.
"""

import numpy as np
from numba import njit

from solver.core.bitops import lowest_bit_index, popcount
from solver.core.cards import COLOUR_RANKS, TRUMP
from solver.engines.kernel.arrays import (
    ALLOWED,
    CARD_ORDER,
    COUNTER_VALUES,
    DUE,
    LAST,
    LEAD,
    MOVE_COUNT,
    NEXT_MOVE,
    PATTERN_STATE,
    PLAYED,
    POS,
    PRESENT,
    QUOTA_SEATS,
    SCORES,
    SEAT_AT,
    SEATS_PLAYED,
    SLOTS,
    SPOILING,
    SUIT_MASK_OF_CARD,
    SUIT_OF_CARD,
    TABLE_POS,
    TRICK_CARDS,
    TRICK_NO,
    TRUMP_MASK,
    WIN_CARD,
    WIN_SEAT,
    WON_WITH,
)
from solver.engines.kernel.problem import (
    ACROSS,
    ALIVE,
    ALLOWED_WINNERS,
    ANY_OWNER,
    C_AT_LEAST,
    C_CONTAINING,
    C_MAX_CONTAINING,
    C_WINNERS,
    CARD_TASK,
    COLUMNS,
    COUNTER_FIELDS,
    COUNTERS,
    DIFFICULT,
    DISTINCT,
    EVERY_MOVE,
    FORCED,
    FORCED_CHOICES,
    FORCED_COUNT,
    FORCED_PASSED,
    FORCED_TABLED,
    GHOST,
    GLIDER,
    HELI_PASS,
    JEEP_AFTER,
    LEAD_ALLOWED,
    LEAD_RULES,
    PASS_AFTER,
    PASS_STEPS,
    PLAYERS,
    REDEAL_AFTER,
    S_ACROSS,
    S_AFTER,
    S_BEFORE,
    SEQUENCE_COUNT,
    SEQUENCE_FIELDS,
    SEQUENCES,
    SLED,
    SPARSE,
    TASK_OWNER,
    TRICKS,
    WANTING,
)

# Move ordering, best first (`expand`). Leads: when only some seats may win the trick, the highest
# card of its suit still in play goes first if its leader is one of them (only a trump can beat it);
# otherwise low cards first, a restricted trick's before a free one's. Follows: win the trick when
# this seat may be the one to win it, duck (low first) when the trick is free, duck high when this
# seat must not win it, and winning such a trick last of all. In a free trick where seats' counters
# still want cards of a set (`wanted`: "each member wins a pink card"), win it first when it then holds
# one this seat wants, feed one to the seat winning it so far when that seat wants it, and keep one
# back otherwise. Kernel alone, 30 deals of each of 48 cells (yellow and pink for everyone, 3-5
# players, the train and 7 spaces) within 1 M plays: 0.56x the plays (0.08-2.3x a cell, 45 of 48
# fewer), 18 undecided instead of 36; on their deals 100-129, 0.39x and 8 instead of 27; Deep Sea's 96
# cards alike 0.99x. Leads by the same wants (a seat that wants them leading a suit's top card first)
# were 0.84x on the first deals and 1.65x on the others: left out.
LEAD_TOP_CARD = 100
LEAD_RESTRICTED = 50  # minus the rank
LEAD_FREE = 30  # minus the rank
FOLLOW_MAY_WIN_WINNING = 80  # minus the rank
FOLLOW_MUST_NOT_WIN_DUCKING = 50  # plus the rank
FOLLOW_FREE_DUCKING = 40  # minus the rank
FOLLOW_FREE_WINNING = 20  # minus the rank
FOLLOW_MAY_WIN_DUCKING = 10  # minus the rank
FOLLOW_MUST_NOT_WIN_WINNING = 0  # minus the rank
FOLLOW_WANTING_WINNING = 85  # minus the rank
FOLLOW_FEEDING = 45  # minus the rank
FOLLOW_KEEPING_BACK = 25  # minus the rank


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
def wanted(seat, trick, problem, frames):
    """Return the cards whose trick `seat` still wants to win: those of its counters in WANTING (some seats' tricks
    or cards holding a set) still below their lower bound (0: none)."""
    cards = np.int64(0)
    counters = problem[WANTING]
    while counters:
        k = lowest_bit_index(counters)
        counters &= counters - 1
        base = COUNTERS + k * COUNTER_FIELDS
        if problem[base + C_WINNERS] >> seat & 1 and frames[trick, COUNTER_VALUES + k] < problem[base + C_AT_LEAST]:
            cards |= problem[base + C_CONTAINING]
    return cards


@njit(cache=True)
def room_wasted(trick, trick_cards, problem, frames):
    """Return True when the cards of `trick` so far spoil it for a counter of SPARSE and take more of the
    room its named cards need than there is to spare.

    The counter still needs `need` tricks holding at most `most` of its named cards among the
    `left` tricks from this one on, so the others hold all the named cards still to be played
    but `need * most` of them: room for `(left - need) * players` cards, of which the named
    ones fill all but `need * most + (left - need) * players - named` places. A spoiled trick
    (more than `most` named cards) spends a place on each of its other cards. Counted at each
    card, this cuts a trick as soon as a named card meets other cards it cannot afford ("no 1
    and no 2" at a top score leaves no place to spare: a 1 or a 2 leads, and 1s and 2s follow).
    """
    players = problem[PLAYERS]
    left = problem[TRICKS] - trick
    present = frames[trick, PRESENT]
    spares = max(0, popcount(present) - left * players)  # cards no trick will take
    sparse = problem[SPARSE]
    while sparse:
        k = lowest_bit_index(sparse)
        sparse &= sparse - 1
        base = COUNTERS + k * COUNTER_FIELDS
        named_cards = problem[base + C_CONTAINING]
        most = problem[base + C_MAX_CONTAINING]
        held = popcount(trick_cards & named_cards)
        need = problem[base + C_AT_LEAST] - frames[trick, COUNTER_VALUES + k]
        if held <= most or need <= 0:
            continue
        named = max(0, popcount(present & named_cards) - spares)
        if popcount(trick_cards) - held > need * most + (left - need) * players - named:
            return True
    return False


@njit(cache=True, inline="always")
def spoiling_plays(cards, seat, depth, problem, frames, plies):
    """Return the `cards` (of the seat at `depth`) after which the trick cannot succeed: a follow after which no seat
    allowed to win it wins it or is still to play (the seats ALLOWED so far, as the card leaves them; TIGHT may narrow
    them further), or a card with which the trick wastes the room a counter of SPARSE needs (`room_wasted`).
    `play_into_trick` and the search loop would cut each at once. The search counts them as plays in their turn but
    never plays them (SPOILING), so it stays the same search, card for card and play for play, and spares the play
    and its undoing: about half of the kernel's plays on crew bench's LOSS sets (fixed owners) were such cuts.
    Against playing them (benchmarks/bench_versus.py, 30 deals a set, best of 3 taking turns, the same plays):
    0.75-0.83x the time on those sets (4 players with 10-14 tasks, 5 with 8 and 10), 0.80-0.95x on 4 players with 4-8
    fixed owners, 0.95-1.0x with drafted owners or tokens. With `room_wasted` too, leads among them: 0.95x on the 42
    slow "no 1 and no 2" scores of journey-spaces-1000 on spaces without trades (the kernel alone, 1 M plays a query,
    three times each taking turns; the same plays), 1.00x on the task sets.
    """
    pos = plies[depth, POS]
    if pos == 0 and problem[SPARSE] == 0:
        return np.int64(0)
    trick = plies[depth, TRICK_NO]
    if pos > 0:
        before = plies[depth - 1, ALLOWED]
        best = plies[depth - 1, WIN_CARD]
        played = plies[depth - 1, SEATS_PLAYED] | np.int64(1) << seat
        trick_cards = plies[depth - 1, TRICK_CARDS]
    else:
        before = best = played = trick_cards = np.int64(0)
    quota_seats = frames[trick, QUOTA_SEATS]
    spoiling = np.int64(0)
    rest = cards
    while rest:
        card = lowest_bit_index(rest)
        rest &= rest - 1
        if pos > 0:
            allowed = allowed_winners(card, before, problem, quota_seats)
            winner = seat if beats(card, best) else plies[depth - 1, WIN_SEAT]
            if allowed & ~played == 0 and not allowed >> winner & 1:
                spoiling |= np.int64(1) << card
                continue
        if problem[SPARSE] and room_wasted(trick, trick_cards | np.int64(1) << card, problem, frames):
            spoiling |= np.int64(1) << card
    return spoiling


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
    plies[depth, SPOILING] = 0
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
        legal = follower_plays(seat, plies[depth - pos, PLAYED], trick, problem, frames, hands)
    driver = problem[SLED]
    forbidden = sequence_breakers_at(depth, trick, pos, problem, frames, plies)
    if pos == 0 and problem[LEAD_RULES]:  # a lead a lead rule bars fails the mission: never a move
        legal &= problem[LEAD_ALLOWED + seat]
    if trick * players + pos < problem[FORCED_COUNT]:  # a position's play so far: its card is the only move
        if pos == 0 and driver >= 0:
            legal |= hands[driver] & problem[LEAD_ALLOWED + driver]
        forced = legal & ~forbidden & np.int64(1) << problem[FORCED + trick * players + pos]
        plies[depth, SPOILING] = spoiling_plays(forced, seat, depth, problem, frames, plies)
        moves_in_card_order(depth, forced, plies, moves)
        return
    distinct = distinct_at(trick, problem)
    reps = representatives(legal & ~forbidden, present, distinct)
    if pos == 0 and driver >= 0 and driver != seat:  # the dog-sled driver may open the trick instead
        reps |= representatives(hands[driver] & ~forbidden & problem[LEAD_ALLOWED + driver], present, distinct)
    plies[depth, SPOILING] = spoiling_plays(reps, seat, depth, problem, frames, plies)
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
    wants_here, wanted_by_winner, wanted_any = np.int64(0), np.int64(0), np.int64(0)
    if pos > 0 and problem[WANTING]:
        for other in range(players):
            cards = wanted(other, trick, problem, frames)
            wanted_any |= cards
            if other == seat:
                wants_here = cards
            if other == plies[depth - 1, WIN_SEAT]:
                wanted_by_winner = cards
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
            if allowed == everyone and wanted_any:
                held = plies[depth - 1, TRICK_CARDS] | np.int64(1) << card
                if wins:
                    score = FOLLOW_WANTING_WINNING - rank if held & wants_here else FOLLOW_FREE_WINNING - rank
                elif wanted_by_winner >> card & 1:
                    score = FOLLOW_FEEDING - rank
                elif wanted_any >> card & 1:
                    score = FOLLOW_KEEPING_BACK - rank
                else:
                    score = FOLLOW_FREE_DUCKING - rank
            elif allowed == everyone:
                score = FOLLOW_FREE_WINNING - rank if wins else FOLLOW_FREE_DUCKING - rank
            elif allowed >> seat & 1:
                score = FOLLOW_MAY_WIN_WINNING - rank if wins else FOLLOW_MAY_WIN_DUCKING - rank
            else:
                score = FOLLOW_MUST_NOT_WIN_WINNING - rank if wins else FOLLOW_MUST_NOT_WIN_DUCKING + rank
        insert_by_score(depth, count, card, score, moves, scores)
        count += 1
    plies[depth, MOVE_COUNT] = count
    plies[depth, NEXT_MOVE] = 0


@njit(cache=True, inline="always")
def insert_by_score(depth, count, card, score, moves, scores):
    """Insert `card` with `score` among the `count` moves at `depth`, kept best first (ties keep their order)."""
    i = count
    while i > 0 and scores[i - 1] < score:
        scores[i] = scores[i - 1]
        moves[depth, i] = moves[depth, i - 1]
        i -= 1
    scores[i] = score
    moves[depth, i] = card


@njit(cache=True, inline="always")
def sequence_breakers_at(depth, trick, pos, problem, frames, plies):
    """Return the cards a sequence rule forbids at (trick, pos): after the card before in the trick, or
    across tricks after the previous trick's last card."""
    if problem[SEQUENCE_COUNT] and pos > 0:
        return sequence_breakers(plies[depth - 1, PLAYED], True, problem)
    if problem[SEQUENCE_COUNT] and problem[ACROSS] and trick > 0:
        return sequence_breakers(frames[trick, LAST], False, problem)
    return np.int64(0)


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


@njit(cache=True, inline="always")
def follower_plays(seat, led, trick, problem, frames, hands):
    """Return the cards `seat` may play after `led` in `trick` by the follow rule (the Ghost from his face-up cards,
    setting none aside); a sequence rule may bar some of them (`sequence_breakers_at`)."""
    hand = hands[seat]
    glider = problem[GLIDER] != 0
    if seat == problem[GHOST]:
        hand = ghost_playable(hand, trick, problem, frames)
        glider = False  # the Ghost sets no card aside
    return legal_plays(hand, led, trick, glider, problem)


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
    if trick <= problem[FORCED_CHOICES]:  # a position's pass: its card is the only move, if it names one
        forced = problem[FORCED_PASSED + (trick - 1) * PASS_STEPS + step]
        if forced >= 0:
            cards &= np.int64(1) << forced
    moves_in_card_order(depth, cards, plies, moves)


@njit(cache=True)
def expand_table(depth, trick, problem, pattern, frames, plies, moves):
    """Generate the cards of the trick before `trick` that may go on the table: those after which
    the pattern can still be completed, one per automaton state they lead to, since the state is
    all the pattern remembers; every card while the redeal is to come, as the discards it deals
    out depend on which card is laid. Best first: the card after which the most cards in play may
    follow (rising numbers: the lowest), where card order tried a pink 7 before a blue 3. The special
    stages' first 300 deals a cell, 2-5 players, seed 1, the same answers: table-rising's plays
    2.34 M / 595 k / 188 k / 1.61 M -> 1.29 M / 283 k / 38 k / 18 k (its four 5-player deals of 1,000
    a 2 s budget left UNKNOWN, 36-68 M plays each, now take 60), table-steps' 7-67% fewer, table-chain's
    within 21% either way but 5 players' (+14%), table-alternating's 2-3% fewer, the pink frame's the same."""
    state = frames[trick - 1, PATTERN_STATE]
    remaining = problem[TRICKS] - trick
    every_card = trick <= problem[REDEAL_AFTER] or problem[EVERY_MOVE]
    cards = plies[depth - 1, TRICK_CARDS]
    if trick <= problem[FORCED_CHOICES]:  # a position's table card: the only move
        cards &= forced_bit(problem[FORCED_TABLED + trick - 1])
    present = frames[trick, PRESENT]
    scores = moves[depth, SCORES:]
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
        if seen:
            continue
        insert_by_score(depth, count, card, followers(after, present, pattern), moves, scores)
        count += 1
    plies[depth, MOVE_COUNT] = count
    plies[depth, NEXT_MOVE] = 0


@njit(cache=True, inline="always")
def followers(state, present, pattern):
    """Return how many of the `present` cards the pattern allows next in `state`."""
    count = 0
    rest = present
    while rest:
        card = lowest_bit_index(rest)
        rest &= rest - 1
        count += pattern[state, card] >= 0
    return count


@njit(cache=True, inline="always")
def forced_bit(card):
    """Return the bit of a position's forced card, 0 when it names none (-1): no move."""
    return np.int64(1) << card if card >= 0 else np.int64(0)


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


@njit(cache=True, inline="always")
def distinct_at(trick, problem):
    """Return the cards no other may stand in for in `trick` (0-based).

    Before a random pass every card is itself: which card a hand gives depends
    on exactly which cards it still holds; so before the redeal of a special stage,
    where who draws a discard depends on exactly which cards were discarded.
    """
    if trick < problem[PASS_AFTER] or trick < problem[REDEAL_AFTER] or problem[EVERY_MOVE]:
        return np.int64(-1)
    return problem[DISTINCT]
