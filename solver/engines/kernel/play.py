"""Playing a card into a trick and settling the trick: the winner so far, early failure inside
a trick (once the seats that may win it have all played without winning, nothing later changes
that; a task whose order needs another task no later fails at once when no seat still to play holds
that task's card), tasks completed and their order tokens, lazily assigned owners within the draft
counts, the trick counters, comparisons, run rules and the balance rule, and whether the mission is won.
"""

import numpy as np
from numba import njit

from solver.core.bitops import lowest_bit_index, popcount
from solver.engines.kernel.arrays import (
    ALLOWED,
    COUNTER_ROOM,
    COUNTER_VALUES,
    DONE,
    DUE,
    LAST,
    LEAD,
    MOVED,
    PLAYED,
    PRESENT,
    QUOTA_SEATS,
    RUN_LONGEST,
    RUN_NOW,
    SEATS_PLAYED,
    SLOTS,
    TAKEN,
    TIGHT,
    TRICK_CARDS,
    TRICK_TASKS,
    WIN_CARD,
    WIN_SEAT,
    WON,
    WON_WITH,
)
from solver.engines.kernel.bounds import (
    barred_cards,
    can_still_win,
    counts_every_trick,
    fewest_named_tricks,
    hands_settled,
    most_given_away,
    room_for_sparse_tricks,
    sure_trump_wins,
    tight_trick_winners,
    trick_value,
    unbeatable_trumps,
    value_within_reach,
)
from solver.engines.kernel.events import between_tricks
from solver.engines.kernel.moves import allowed_winners, beats
from solver.engines.kernel.problem import (
    ALL_DONE,
    ALLOWED_WINNERS,
    APART,
    BALANCED_GAP,
    BEFORE,
    C_AS_MANY,
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
    CARD_APART,
    CARD_APART_CARDS,
    CARD_TASK,
    COMPARISON_COUNT,
    COMPARISON_FIELDS,
    COMPARISONS,
    COUNTER_COUNT,
    COUNTER_FIELDS,
    COUNTERS,
    GHOST,
    K_AT_LEAST,
    K_AT_MOST,
    K_LEFT,
    K_RIGHT,
    LAST_ARRIVAL,
    LAZY_OWNER,
    LEAD_ALLOWED,
    LEAD_RULES,
    MAX_COLUMNS,
    MAX_COUNT,
    PASS_AFTER,
    PATTERN,
    PLAYERS,
    R_AT_LEAST,
    R_AT_MOST,
    R_SEAT,
    RADIX,
    RUN_COUNT,
    RUN_FIELDS,
    RUNS,
    S_AFTER,
    SEQUENCE_COUNT,
    SEQUENCE_FIELDS,
    SEQUENCES,
    SKIS,
    TASK_CARD,
    TASK_CARDS,
    TASK_OWNER,
    TRICKS,
)
from solver.engines.kernel.table import position_hash
from solver.missions.conditions import NO_LIMIT


@njit(cache=True)
def play_into_trick(depth, card, seat, pos, trick, problem, frames, plies, hands):
    """Record `card` at `depth`; return False when the trick can no longer succeed.

    ALLOWED holds the seats that may win the trick given its task cards (and, where the owners need every
    trick left, TIGHT, those whose need it may still lower: `tight_trick_winners`); once none of them is
    winning and all have played, later cards cannot help.
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
    trick_cards |= np.int64(1) << card
    if frames[trick, TIGHT]:
        allowed &= tight_trick_winners(trick, pos, plies[depth - pos, PLAYED] if pos else card, trick_cards, problem,
                                       frames, hands)
    seats_played |= np.int64(1) << seat
    task = problem[CARD_TASK + card]
    if task >= 0:
        trick_tasks |= np.int64(1) << task
    plies[depth, PLAYED] = card
    plies[depth, ALLOWED] = allowed
    plies[depth, SEATS_PLAYED] = seats_played
    plies[depth, TRICK_CARDS] = trick_cards
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
    conditions = problem[COUNTER_COUNT] or problem[BALANCED_GAP] or problem[RUN_COUNT]  # none in plain task missions
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
def count_trick(trick, winner, cards, best, problem, frames, hands):
    """Update the trick counters and trick counts into frame `trick + 1`; False when one fails.

    A counter fails once its count passes at_most (or will, by the tricks its seats'
    trumps surely win: `surely_added`), or once the tricks left cannot bring it to
    at_least: no more of them than the trick numbers it still counts, than the cards
    left to win them with (`can_still_win`), or than the tricks the cards left can
    fill, or than the cards their seats may still win a trick with (`room_for_winning_cards`); the
    counters of APART, once they need more tricks between them than are left (`sum_of_needs`); those
    of CARD_APART, once they need more cards than are left (`cards_needed`); and the comparisons and
    run rules.
    """
    nxt = trick + 1
    tricks = problem[TRICKS]
    left = frames[trick, PRESENT] & ~cards
    tricks_left = tricks - nxt
    players = problem[PLAYERS]
    settled = hands_settled(nxt, frames[trick, PRESENT], problem)  # no card moving later: sure trump wins hold
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
            and (problem[base + C_AS_MANY] == 0 or popcount(cards & problem[base + C_AS_MANY]) == held)
        ):
            value += held if count_cards else 1
        later = popcount(mask & ((np.int64(1) << tricks) - 1) & ~((np.int64(1) << nxt) - 1))
        if count_cards:
            later = popcount(left & containing) if later else 0
        elif problem[base + C_WON_WITH]:
            if settled:  # no card moving later, which could empty a hand faster
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
        if (settled and later and value < problem[base + C_AT_LEAST] and not count_cards
                and (problem[base + C_MIN_VALUE] > 0 or problem[base + C_MAX_VALUE] < NO_LIMIT)
                and not value_within_reach(base, problem, hands)):
            later = 0
        if value > problem[base + C_AT_MOST] or value + later < problem[base + C_AT_LEAST]:
            return False
        if problem[base + C_AT_MOST] < NO_LIMIT and settled:  # "win no trick" for the holder of r4
            if value + surely_added(k, problem, hands, tricks_left) > problem[base + C_AT_MOST]:
                return False
        frames[nxt, COUNTER_VALUES + k] = value
        frames[nxt, COUNTER_ROOM + k] = later
    if settled and problem[GHOST] < 0 and not room_for_winning_cards(nxt, problem, frames, hands):  # not his display
        return False
    if problem[APART] and sum_of_needs(nxt, problem, frames, hands, settled) > tricks_left:
        return False
    if problem[CARD_APART] and cards_needed(nxt, problem, frames) > popcount(left & problem[CARD_APART_CARDS]):
        return False
    if problem[COMPARISON_COUNT] and compared_out(nxt, problem, frames, False):
        return False
    if problem[RUN_COUNT] and not count_runs(trick, winner, problem, frames):
        return False
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
def room_for_winning_cards(trick, problem, frames, hands):
    """Cap each trick counter's room at the cards its seats may still win a trick with (`barred_cards`; of a
    counter of tricks won with some cards, those cards: its seat plays the card that wins), each winning one trick
    at most; return False once a counter's at_least is then out of reach ("more tricks than everyone else" for the
    holder of "win no pink and no blue" with two other cards; Deep Sea's "win a trick with a 6" for a holder with
    no 6, which took 30-50 ms of CP-SAT after the kernel's budget, against the Rust solver's instant LOSS).
    For settled hands."""
    players = problem[PLAYERS]
    winning = np.empty(players, np.int64)  # per seat: the cards it may still win a trick with
    for seat in range(players):
        winning[seat] = hands[seat] & ~barred_cards(seat, trick, problem, frames)
    for k in range(problem[COUNTER_COUNT]):
        base = COUNTERS + k * COUNTER_FIELDS
        if problem[base + C_COUNT_CARDS]:
            continue
        winners = problem[base + C_WINNERS]
        with_cards = problem[base + C_WON_WITH] if problem[base + C_WON_WITH] else np.int64(-1)
        cards = 0
        for seat in range(players):
            if winners >> seat & 1:
                cards += popcount(winning[seat] & with_cards)
        room = min(frames[trick, COUNTER_ROOM + k], cards)
        frames[trick, COUNTER_ROOM + k] = room
        if frames[trick, COUNTER_VALUES + k] + room < problem[base + C_AT_LEAST]:
            return False
    return True


@njit(cache=True)
def compared_out(trick, problem, frames, settled):
    """Return True when, at the start of `trick`, a comparison's difference can no longer end within its bounds
    (`settled`: when some way the counts could still grow would take it out of them), with each counter's
    room in COUNTER_ROOM. Not `settled`: a counter ends within its own bounds too, else the mission fails
    anyway ("more tricks than the captain" against the captain's "at least three tricks")."""
    for k in range(problem[COMPARISON_COUNT]):
        base = COMPARISONS + k * COMPARISON_FIELDS
        left, right = problem[base + K_LEFT], problem[base + K_RIGHT]
        value_left, value_right = frames[trick, COUNTER_VALUES + left], frames[trick, COUNTER_VALUES + right]
        most_left = value_left + frames[trick, COUNTER_ROOM + left]
        most_right = value_right + frames[trick, COUNTER_ROOM + right]
        if settled:
            if value_left - most_right < problem[base + K_AT_LEAST]:
                return True
            if most_left - value_right > problem[base + K_AT_MOST]:
                return True
            continue
        least_left = max(value_left, problem[COUNTERS + left * COUNTER_FIELDS + C_AT_LEAST])
        least_right = max(value_right, problem[COUNTERS + right * COUNTER_FIELDS + C_AT_LEAST])
        most_left = min(most_left, problem[COUNTERS + left * COUNTER_FIELDS + C_AT_MOST])
        most_right = min(most_right, problem[COUNTERS + right * COUNTER_FIELDS + C_AT_MOST])
        if most_left - least_right < problem[base + K_AT_LEAST] or least_left - most_right > problem[base + K_AT_MOST]:
            return True
    return False


@njit(cache=True)
def sum_of_needs(trick, problem, frames, hands, settled):
    """Return how many tricks the counters of APART must still add between them at least, from `trick` on.

    Each trick adds to one of them at most. Each must still grow to the least final count it can win with:
    its own lower bound, and what every comparison asks of it given the least final count of the counter it
    is compared with ("fewer tricks than each other player": every other player needs one more than the
    holder's count; "more tricks than everyone else" beside "exactly two tricks": three). With the hands
    `settled` (no card moves again), a counter of every trick its seats win grows by at least the tricks their
    trumps surely win (`surely_added`), and asks that much more of the counters it is compared with ("fewer
    tricks than each other player" for the captain holding r4 and r2, when only r3 could beat r2: 2 tricks,
    and 3 for each other player). A counter that needs more than its room (COUNTER_ROOM) needs more than
    tricks left, as does one whose least final count passes its at_most; a counter of every trick its seats
    win counts at least the tricks their other rules need (`least_tricks_counted`).
    """
    total = 0
    apart = problem[APART]
    tricks_left = problem[TRICKS] - trick
    least = np.empty(problem[COUNTER_COUNT], np.int64)  # each counter's final count, at least
    for k in range(problem[COUNTER_COUNT]):
        surely = surely_added(k, problem, hands, tricks_left) if settled else 0
        least[k] = max(frames[trick, COUNTER_VALUES + k] + surely, problem[COUNTERS + k * COUNTER_FIELDS + C_AT_LEAST])
    for k in range(problem[COUNTER_COUNT]):
        least[k] = max(least[k], least_tricks_counted(k, problem, least))
    for k in range(problem[COUNTER_COUNT]):
        final = least[k]
        for j in range(problem[COMPARISON_COUNT]):
            base = COMPARISONS + j * COMPARISON_FIELDS
            if problem[base + K_LEFT] == k:
                final = max(final, least[problem[base + K_RIGHT]] + problem[base + K_AT_LEAST])
            if problem[base + K_RIGHT] == k:
                final = max(final, least[problem[base + K_LEFT]] - problem[base + K_AT_MOST])
        need = final - frames[trick, COUNTER_VALUES + k]
        if need > frames[trick, COUNTER_ROOM + k] or final > problem[COUNTERS + k * COUNTER_FIELDS + C_AT_MOST]:
            return tricks_left + 1  # it cannot grow that much, or may not
        if apart >> k & 1:
            total += need
    return total


@njit(cache=True)
def least_tricks_counted(k, problem, least):
    """Return the fewest tricks counter k ends with because of the other rules of its seats, when it counts every
    trick they win: those of each trick counter of some of its seats (`least`: each counter's least final
    count), and each run rule's of one of them ("two tricks in a row": two tricks). Else 0."""
    base = COUNTERS + k * COUNTER_FIELDS
    if problem[base + C_CONTAINING] or not counts_every_trick(base, problem):
        return 0
    winners = problem[base + C_WINNERS]
    fewest = 0
    for j in range(problem[COUNTER_COUNT]):
        other = COUNTERS + j * COUNTER_FIELDS
        if not problem[other + C_COUNT_CARDS] and problem[other + C_WINNERS] & ~winners == 0:
            fewest = max(fewest, least[j])
    for r in range(problem[RUN_COUNT]):
        if winners >> problem[RUNS + r * RUN_FIELDS + R_SEAT] & 1:
            fewest = max(fewest, problem[RUNS + r * RUN_FIELDS + R_AT_LEAST])
    return fewest


@njit(cache=True)
def cards_needed(trick, problem, frames):
    """Return how many cards the counters of CARD_APART must still add between them, from `trick` on: each
    card left adds to one of them at most, that of the seat winning it."""
    total = 0
    for k in range(problem[COUNTER_COUNT]):
        if problem[CARD_APART] >> k & 1:
            need = problem[COUNTERS + k * COUNTER_FIELDS + C_AT_LEAST] - frames[trick, COUNTER_VALUES + k]
            total += max(need, 0)
    return total


@njit(cache=True, inline="always")
def surely_added(k, problem, hands, tricks_left):
    """Return what counter k surely still adds: when it counts every trick its seats win, the tricks their
    trumps surely win; when it counts the cards of a set its seats win, or the tricks they win holding one,
    in every trick, those of their trumps above every other hand's that are in the set (each wins its own
    trick: "win no submarine" and "win submarine 2 and no other" for the holder of r4); else 0."""
    base = COUNTERS + k * COUNTER_FIELDS
    if not counts_every_trick(base, problem):
        return 0
    containing = problem[base + C_CONTAINING]
    sure = 0
    for seat in range(problem[PLAYERS]):
        if problem[base + C_WINNERS] >> seat & 1:
            if containing:  # each in a trick of its own, counted for the card or for the trick
                sure += unbeatable_trumps(seat, containing, problem, hands, tricks_left)
            else:
                sure += sure_trump_wins(seat, problem, hands, tricks_left)
    return sure


@njit(cache=True)
def count_runs(trick, winner, problem, frames):
    """Update the run rules into frame `trick + 1`; False when one fails: its longest run too long, or no
    run (the current one carried on through every trick left) long enough."""
    nxt = trick + 1
    tricks_left = problem[TRICKS] - nxt
    for k in range(problem[RUN_COUNT]):
        base = RUNS + k * RUN_FIELDS
        now = frames[trick, RUN_NOW + k] + 1 if winner == problem[base + R_SEAT] else 0
        longest = max(frames[trick, RUN_LONGEST + k], now)
        if longest > problem[base + R_AT_MOST] or max(longest, now + tricks_left) < problem[base + R_AT_LEAST]:
            return False
        frames[nxt, RUN_NOW + k] = now
        frames[nxt, RUN_LONGEST + k] = longest
    return True


@njit(cache=True)
def runs_settled(trick, problem, frames):
    """Return True when at the start of `trick` every run rule's longest run is long enough and none can grow
    too long."""
    tricks_left = problem[TRICKS] - trick
    for k in range(problem[RUN_COUNT]):
        base = RUNS + k * RUN_FIELDS
        if frames[trick, RUN_LONGEST + k] < problem[base + R_AT_LEAST]:
            return False
        if problem[base + R_AT_MOST] < NO_LIMIT and frames[trick, RUN_NOW + k] + tricks_left > problem[base + R_AT_MOST]:
            return False
    return True


@njit(cache=True)
def leads_settled(trick, problem, hands):
    """Return True when no seat holds a card a lead rule bars it from leading (or no trick is left)."""
    if trick >= problem[TRICKS]:
        return True
    for seat in range(problem[PLAYERS]):
        if hands[seat] & ~problem[LEAD_ALLOWED + seat]:
            return False
    return True


@njit(cache=True)
def mission_won(trick, problem, frames, hands):
    """Return True when, at the start of `trick`, every task is done and no condition can fail.

    A table pattern is won only with its last card laid (the search's table plies).
    """
    if frames[trick, DONE] != problem[ALL_DONE] or problem[PATTERN]:
        return False
    tricks = problem[TRICKS]
    if problem[BALANCED_GAP] and trick < tricks:
        return False
    if problem[LEAD_RULES] and not leads_settled(trick, problem, hands):
        return False
    if problem[RUN_COUNT] and not runs_settled(trick, problem, frames):
        return False
    if problem[COMPARISON_COUNT] and (trick == 0 or compared_out(trick, problem, frames, True)):
        return False  # before trick 1 no room is known: the search goes on
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
