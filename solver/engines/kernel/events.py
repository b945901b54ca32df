"""What moves cards between tricks, done on the way down and undone on the way back: a random
pass drawn with the deal (mission 12: before it no two cards are equivalent, since which card a hand
gives depends on exactly what it holds; the Ghost gives a face-up card and the card he gets takes
its place), the skis (every hand to the left), fog's draws, the helicopter's and the jeep's passes,
the five-player special stage's redeal, and laying a trick's card on the table.
"""

import numpy as np
from numba import njit

from solver.core.bitops import lowest_bit_index
from solver.core.deal import MAX_PLAYERS
from solver.engines.kernel.arrays import (
    DRAWN,
    GIVEN,
    MOVED,
    PASSED,
    PATTERN_STATE,
    PLAYED,
    PRESENT,
    REDRAWN,
    SKIED,
    SLOTS,
    TABLED,
    TRICK_NO,
)
from solver.engines.kernel.moves import display_place, ghost_playable, pass_steps
from solver.engines.kernel.problem import (
    ARRIVE,
    GHOST,
    JEEP_AFTER,
    JEEP_ORDER,
    LAST_ARRIVAL,
    MAX_COLUMNS,
    PASS_AFTER,
    PASS_RANK,
    PLAYERS,
    REDEAL_AFTER,
    REDEAL_ORDER,
    SKIS,
)
from solver.engines.kernel.table import position_hash


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
