"""Bounds that prove a position lost early: can a trick counter still be met, can the seats
that must win tricks still win them, and the static checks at trick boundaries (`hopeless`) once no
card will move again.
"""

import numpy as np
from numba import njit

from solver.core.bitops import lowest_bit_index, popcount
from solver.core.cards import COLOUR_RANKS
from solver.core.deal import MAX_PLAYERS
from solver.engines.kernel.arrays import (
    COUNTER_VALUES,
    DUE,
    LEAD,
    OWNER_NEED,
    PRESENT,
    QUOTA_SEATS,
    SEAT_AT,
    SUIT_MASK_OF_CARD,
    TIGHT,
    TRUMP_CARD_BASE,
)
from solver.engines.kernel.moves import allowed_winners, follower_plays
from solver.engines.kernel.problem import (
    ARRIVE,
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
    COUNTER_COUNT,
    COUNTER_FIELDS,
    COUNTERS,
    GHOST,
    GLIDER,
    HELI_PASS,
    JEEP_AFTER,
    LAST_ARRIVAL,
    OWNED,
    PASS_AFTER,
    PLAYERS,
    REDEAL_AFTER,
    SKIS,
    SLED,
    TASK_CARDS,
    TRICKS,
)
from solver.missions.conditions import ALL_TRICKS, NO_LIMIT


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

    A hand plays one card a trick: g tricks hold at most g of its named cards; it must play all
    of its own but those it gives away and those it keeps back (its cards beyond one a trick:
    the extra card of a 3-player deal), in as many tricks. Every named card is played or kept
    back, and a hand plays and keeps back at most what it has and gets, so g tricks hold all of
    them only if the hands' min(g + kept back, had + got) add up to them: the hand with the extra
    card must hold the named card it keeps back too (3 players, the jeep: one 1 or 2 in that hand
    and ten tricks asked is out, since it gets only two). Fog's draws still to come count with the
    hand they join.
    """
    players = problem[PLAYERS]
    tricks_left = problem[TRICKS] - trick
    owned = np.empty(players, np.int64)
    spares = np.empty(players, np.int64)
    total = 0  # named cards in the hands: each is played or kept back
    fewest = 0
    for seat in range(players):
        hand = with_draws(hands[seat], seat, trick, problem)
        spares[seat] = max(0, popcount(hand) - tricks_left)
        owned[seat] = popcount(hand & named)
        total += owned[seat]
        fewest = max(fewest, owned[seat] - spares[seat] - given)
    while fewest < tricks_left:
        room = 0
        for seat in range(players):
            room += min(fewest + spares[seat], owned[seat] + given)
        if room >= total:
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
def value_within_reach(base, problem, hands):
    """Return False when no trick to come can be worth what the counter at `base` asks (its C_MIN_VALUE to
    C_MAX_VALUE), with settled hands: every seat plays one card to a trick, one the counter lets a trick it counts
    hold (none of its `containing` cards when it allows none, "without submarines"), so such a trick is worth at
    least the sum of each hand's lowest such card and at most the sum of its highest. Deep Sea's "a trick without
    submarines worth less than 8", 3 players: two thirds of the crew's solves ended at its 5,000 card plays, 98%
    of its time (a game: 0.2-1.5 s, where a card's games take 0.13 s on average)."""
    containing = problem[base + C_CONTAINING]
    allowed = ~containing if containing and problem[base + C_MAX_CONTAINING] == 0 else np.int64(-1)
    lowest = highest = 0
    for seat in range(problem[PLAYERS]):
        cards = hands[seat] & allowed
        if cards == 0:
            return False
        low, high = COLOUR_RANKS, 0
        while cards:
            value = lowest_bit_index(cards) % COLOUR_RANKS + 1
            low, high = min(low, value), max(high, value)
            cards &= cards - 1
        lowest += low
        highest += high
    return lowest <= problem[base + C_MAX_VALUE] and highest >= problem[base + C_MIN_VALUE]


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
def hopeless(trick, problem, frames, hands):
    """Return True when a static check shows an open task can never be completed.

    A seat other than the task card's holder can only win the trick holding it
    with a trump, a higher card of its suit, or a card of a suit the holder
    discards it on: a hand of nothing but lower cards of that suit cannot; a
    trump's trick goes to a higher trump, so for a trump task only a hand holding
    one can (Deep Sea's "win submarine 3": the seat holding r1 and r2 never); nor with a card it may no longer
    win a trick with (`barred_cards`: "win submarine 1 and no other" for a holder without the 1, which took 25-45 ms
    of CP-SAT after the kernel's budget). And
    the fixed owners may need more tricks than are left (`tricks_owners_need`),
    or an owner's own task in its hand can never win its trick
    (`self_won_task_blocked`). Where the owners' tasks alone need every trick left, it records so in
    TIGHT (`tight_trick_winners`).
    """
    tricks_left = problem[TRICKS] - trick
    tasks = frames[trick, PRESENT] & problem[TASK_CARDS]
    tasks_need, need = owners_need(problem, hands, tricks_left, frames[trick, OWNER_NEED : OWNER_NEED + MAX_PLAYERS])
    need += leads_to_gain(frames[trick, DUE], tasks, tricks_left, problem, hands)
    if need > tricks_left:
        return True
    frames[trick, TIGHT] = tasks_need == tricks_left
    if self_won_task_blocked(tasks, tricks_left, problem, hands):
        return True
    quota_seats = frames[trick, QUOTA_SEATS]
    everyone = (np.int64(1) << problem[PLAYERS]) - 1
    while tasks:
        card = lowest_bit_index(tasks)
        tasks &= tasks - 1
        allowed = allowed_winners(card, everyone, problem, quota_seats)
        takers = ~(SUIT_MASK_OF_CARD[card] & ((np.int64(1) << card) - 1))  # all but the lower cards of its suit
        if card >= TRUMP_CARD_BASE:
            takers &= SUIT_MASK_OF_CARD[card]
        possible = False
        while allowed and not possible:
            seat = lowest_bit_index(allowed)
            allowed &= allowed - 1
            possible = hands[seat] & takers & ~barred_cards(seat, trick, problem, frames) != 0
        if not possible:
            return True
    return False


@njit(cache=True)
def leads_to_gain(due, tasks, tricks_left, problem, hands):
    """Return how many fixed owners must win a trick more than their tasks' tricks to lead the first of them.

    An owner's task in its own hand, a colour card, wins its trick itself, so its colour is led; when no other
    hand holds a lower card of that colour (but other owners' tasks, which cannot lie in its trick), no one
    else can lead the colour below it: the owner leads it, having won the trick before. An owner whose open
    tasks are all such, and who does not lead now, wins that trick too, one with none of its tasks. On crew
    bench's six LOSS sets (fixed owners, deals 0-99, the kernel alone, 3 M plays a deal) the plays of 200 deals
    fell and of none rose: 0.88-1.00x on LOSS, 0.78-0.99x on WIN, two deals more decided; their time, taking turns
    deal by deal (benchmarks/bench_versus.py --by-deal): 0.89-1.02x on LOSS, 0.80-1.02x on WIN."""
    if problem[GHOST] >= 0 or problem[SLED] >= 0 or problem[GLIDER]:
        return 0
    players = problem[PLAYERS]
    owned = held = np.int64(0)
    for seat in range(players):
        owned |= problem[OWNED + seat] & tasks
        held |= hands[seat]
    if owned == 0:  # no open task with a fixed owner (a draft's): nothing more to read
        return 0
    gained = 0
    for owner in range(players):
        own = problem[OWNED + owner] & tasks
        if owner == due or own == 0 or own & ~hands[owner] or own >> TRUMP_CARD_BASE:
            continue
        others = held & ~hands[owner] & ~(owned & ~problem[OWNED + owner])  # the lower cards another hand may lead
        led_by_owner = True
        rest = own
        while rest and led_by_owner:
            task = lowest_bit_index(rest)
            rest &= rest - 1
            led_by_owner = others & SUIT_MASK_OF_CARD[task] & ((np.int64(1) << task) - 1) == 0
        if led_by_owner and popcount(own) >= sure_trump_wins(owner, problem, hands, tricks_left):
            gained += 1
    return gained


@njit(cache=True, inline="always")
def tricks_owners_need(problem, hands, tricks_left):
    """Return the fewest tricks the seats must still win between them, with the hands as they are: the fixed
    owners of the open tasks, and the seats whose trumps surely win tricks.

    An owner wins every trick holding one of its tasks, and a trick has one winner, so different seats' tricks
    are different ones; each owner needs at least as many as `fewest_owner_tricks`. And a seat wins at least the
    tricks its trumps surely win (`sure_trump_wins`), every card being played (a won line played on to the end).
    Every seat's, not only the run of the highest trumps in one hand (as it was): the kernel
    alone on crew bench's LOSS sets (fixed owners, deals 0-99, 3 M plays a deal) took 0.96 / 0.99 / 1.00x the
    plays on LOSS and 1.00 / 0.89 / 1.00x on WIN (5 players with 10 tasks; 4 with 12, 14), the same deals decided.
    """
    return owners_need(problem, hands, tricks_left, np.zeros(MAX_PLAYERS, dtype=np.int64))[1]


@njit(cache=True, inline="always")
def owners_need(problem, hands, tricks_left, each):
    """Return the fewest tricks the fixed owners must still win for their tasks alone, and
    `tricks_owners_need`, with the sure trump tricks; `each` gets every seat's own (`fewest_owner_tricks`)."""
    players = problem[PLAYERS]
    tasks_need = need = 0
    for owner in range(players):
        most = fewest_owner_tricks(owner, problem[OWNED + owner], hands, players)
        each[owner] = most
        tasks_need += most
        need += max(most, sure_trump_wins(owner, problem, hands, tricks_left))
    return tasks_need, need


@njit(cache=True, inline="always")
def beating(card):
    """Return the cards that beat `card` in any trick both are in: the higher cards of its suit, and every
    trump above a colour card."""
    higher = SUIT_MASK_OF_CARD[card] & ~((np.int64(2) << card) - 1)
    return higher if card >= TRUMP_CARD_BASE else higher | SUIT_MASK_OF_CARD[TRUMP_CARD_BASE]


@njit(cache=True)
def fewest_owner_tricks(owner, owned, hands, players):
    """Return a lower bound on the tricks `owner` must still win: the most of its open tasks (`owned`) no two
    of which one trick can hold.

    Two of its tasks are never in one trick when one hand holds both (a hand plays one card a trick), nor
    when the owner holds one of them, which it then plays into the trick it must win, so that card itself
    wins, and the other beats it (4p-fixed-12 deal 20 five tricks from the end: seat 3's own y6 and its y7
    in seat 2's hand, two tricks where the count of one hand's tasks gave one). Such a set is the owner's
    tasks in some subset of its own hand with those of one other hand that beat all of them (or the tasks
    of one hand alone); every subset of its own is tried (it seldom holds more than three of them).
    Measured with `tight_trick_winners` on crew bench's six LOSS sets (fixed owners, 4 players with 8-14 tasks and
    5 with 8 and 10; the kernel alone, 200 deals a set, 3 M plays a deal): the deals decided before and after
    took 0.55-0.98x the plays on LOSS and 0.52-0.77x on WIN, and 147 deals were left open instead of 206.
    """
    own = owned & hands[owner]
    most = popcount(own)
    for seat in range(players):
        theirs = owned & hands[seat]
        if seat == owner or theirs == 0:
            continue
        most = max(most, popcount(theirs))
        subset = own
        while subset:
            beaten_by = theirs
            rest = subset
            while rest:
                beaten_by &= beating(lowest_bit_index(rest))
                rest &= rest - 1
            most = max(most, popcount(subset) + popcount(beaten_by))
            subset = (subset - 1) & own
    return most


@njit(cache=True, inline="always")
def trumps_elsewhere(seat, problem, hands):
    """Return the trumps in every hand but `seat`'s."""
    trumps = np.int64(0)
    for other in range(problem[PLAYERS]):
        if other != seat:
            trumps |= hands[other] & SUIT_MASK_OF_CARD[TRUMP_CARD_BASE]
    return trumps


@njit(cache=True, inline="always")
def never_played(seat, hands, tricks_left):
    """Return how many of `seat`'s cards no trick left takes (three players: the extra card may be one)."""
    return max(0, popcount(hands[seat]) - tricks_left)


@njit(cache=True, inline="always")
def sure_trump_wins(seat, problem, hands, tricks_left):
    """Return how many tricks `seat`'s trumps surely win: its trumps, less those another hand's higher trumps
    could beat, less its cards beyond the tricks left (`never_played`).

    A trump loses only to a higher trump played into the same trick, and each card is in one trick: so the
    trumps that can lose are at most a matching of the seat's trumps to other hands' higher trumps, largest
    when each of them, lowest first, takes the lowest unmatched higher trump. Not under the hang glider (a card
    set aside is not played) nor with the Ghost (his face-down cards)."""
    if problem[GLIDER] or problem[GHOST] >= 0:
        return 0
    own = hands[seat] & SUIT_MASK_OF_CARD[TRUMP_CARD_BASE]
    others = trumps_elsewhere(seat, problem, hands)
    beaten = 0
    rest = own
    while rest:
        card = lowest_bit_index(rest)
        rest &= rest - 1
        higher = others & ~((np.int64(2) << card) - 1)
        if higher:
            others &= ~(higher & -higher)
            beaten += 1
    return max(0, popcount(own) - beaten - never_played(seat, hands, tricks_left))


@njit(cache=True, inline="always")
def unbeatable_trumps(seat, cards, problem, hands, tricks_left):
    """Return how many of `seat`'s trumps above every other hand's are in `cards` and surely played (less its
    cards beyond the tricks left, `never_played`); 0 under the hang glider or the Ghost (sure_trump_wins)."""
    if problem[GLIDER] or problem[GHOST] >= 0:
        return 0
    above = hands[seat] & SUIT_MASK_OF_CARD[TRUMP_CARD_BASE]
    others = trumps_elsewhere(seat, problem, hands)
    while others:  # each other hand's trump clears the seat's up to it
        above &= ~((np.int64(2) << lowest_bit_index(others)) - 1)
        others &= others - 1
    return max(0, popcount(above & cards) - never_played(seat, hands, tricks_left))


@njit(cache=True)
def self_won_task_blocked(tasks, tricks_left, problem, hands):
    """Return True when a fixed owner holds an open task of its own in a colour and another hand keeps
    that task's trick from ever being won: two such owners blocking each other, or a hand that cannot
    shed the colours in time.

    An owner holding its task plays it into the trick it must win, so that colour card itself wins: the
    colour is led and no trump falls. Every other hand must follow with a lower card of the colour that is
    no task of another owner, or be void in it by then, having played all of it in earlier tricks, one a
    trick: not when it holds as many cards of the colour as tricks are left. Nor, with several such tasks,
    as many cards of all the colours it must be void in by their tricks: the latest of those tricks comes
    after every one of those cards, each played in a trick of its own. Summed so, on crew bench's six LOSS
    sets (fixed owners, deals 0-99, the kernel alone, 3 M plays a deal) the plays of 76 deals fell and of
    none rose: 0.89-0.98x on LOSS, 0.96-1.00x on WIN, one deal more decided; their time, taking turns deal by
    deal twice (benchmarks/bench_versus.py --by-deal): 0.89-1.03x on LOSS, 0.96-1.10x on WIN (the noise of a
    run: a few percent). Say owner A holds task a, and
    owner B a task b of the same colour. If a's trick is first, B still holds b, so B is not void and
    must play such a card below a. If b's trick is first, A must play one below b for B, and not a. When
    neither is in their hands, the deal is lost (4p-fixed-10 deal 0, b2 and b4: the kernel alone left it
    open after 20 M card plays).
    Not under the hang glider (a card set aside frees a hand from following suit) nor for the Ghost's seat
    (his face-down cards do not count for following suit).
    """
    if problem[GLIDER]:
        return False
    players = problem[PLAYERS]
    colour_tasks = tasks & ((np.int64(1) << TRUMP_CARD_BASE) - 1)
    owned = np.int64(0)  # the open tasks with a fixed owner
    for seat in range(players):
        owned |= problem[OWNED + seat] & tasks
    if owned == 0:  # a draft's tasks: no owner holds its own
        return False
    for other in range(players):
        if other == problem[GHOST]:
            continue
        voids = np.int64(0)  # the colours `other` must be void in by some such task's trick
        for owner in range(players):
            if owner == other or owner == problem[GHOST]:
                continue
            own = problem[OWNED + owner] & hands[owner] & colour_tasks
            while own:
                task = lowest_bit_index(own)
                own &= own - 1
                suit = SUIT_MASK_OF_CARD[task]
                if hands[other] & suit == 0:
                    continue
                if hands[other] & suit & ((np.int64(1) << task) - 1) & ~(owned & ~problem[OWNED + owner]):
                    continue  # it can follow below the task
                voids |= suit
                if popcount(hands[other] & voids) >= tricks_left:
                    return True  # it must be void in these colours by their tasks' tricks, and cannot
                theirs = problem[OWNED + other] & hands[other] & colour_tasks & suit
                if theirs:  # their lowest: the one that leaves the owner the fewest cards below it
                    lowest = lowest_bit_index(theirs)
                    below_theirs = suit & ((np.int64(1) << lowest) - 1) & ~(owned & ~problem[OWNED + other])
                    if hands[owner] & below_theirs == 0:
                        return True
    return False


@njit(cache=True)
def keeps_room(seat, coming, trick, problem, frames, hands):
    """Return False when a pass before `trick` keeps more cards a counter's tricks may not hold than
    leaves room for enough of them: in `seat`'s hand once it has given (`coming` cards still to get),
    or, with `seat` -1, in the hands the complete pass leaves (`fewest_named_tricks`).

    The bound of count_trick, checked as soon as a hand has given (a pass that keeps too many such
    cards in one hand is cut before the others pass) and as soon as the pass is complete (one of up
    to 91,125 with the jeep and 3 players, each of which would otherwise be played into a trick).
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
        if seat < 0:
            spoiled = fewest_named_tricks(containing, given, trick, problem, hands)
        else:
            spoiled = named_to_play(containing, hands[seat], coming, given, seat, trick, problem)
        later = popcount(problem[base + C_TRICKS] & ((np.int64(1) << tricks) - 1) & ~((np.int64(1) << trick) - 1))
        if frames[trick, COUNTER_VALUES + k] + min(later, tricks - trick - spoiled) < problem[base + C_AT_LEAST]:
            return False
    return True


@njit(cache=True, inline="always")
def counts_every_trick(base, problem):
    """Return True when the counter at `base` counts every trick its seats win that holds a card of its set
    (C_CONTAINING; every trick for a trick counter without one), whatever the trick's number, winning card,
    value or number of the set's cards."""
    containing = problem[base + C_CONTAINING]
    return (
        problem[base + C_WON_WITH] == 0 and problem[base + C_TRICKS] == ALL_TRICKS and problem[base + C_MIN_VALUE] == 0
        and problem[base + C_MAX_VALUE] >= NO_LIMIT and problem[base + C_AS_MANY] == 0
        and (containing != 0 or problem[base + C_COUNT_CARDS] == 0)
        and (containing == 0 or problem[base + C_MIN_CONTAINING] <= 1)
        and (containing == 0 or problem[base + C_MAX_CONTAINING] >= problem[PLAYERS])
    )


@njit(cache=True)
def barred_cards(seat, trick, problem, frames):
    """Return the cards `seat` can no longer win a trick with, from `trick` on, without a counter of its going
    past at_most: the set of a full counter ("win no pink and no blue"; a trick's winning card is in the
    trick), every card for a full counter without a set ("exactly two tricks" at 2)."""
    barred = np.int64(0)
    for k in range(problem[COUNTER_COUNT]):
        base = COUNTERS + k * COUNTER_FIELDS
        if (
            problem[base + C_WINNERS] >> seat & 1
            and frames[trick, COUNTER_VALUES + k] >= problem[base + C_AT_MOST]
            and counts_every_trick(base, problem)
        ):
            barred |= problem[base + C_CONTAINING] if problem[base + C_CONTAINING] else ~np.int64(0)
    return barred


@njit(cache=True)
def tight_trick_winners(trick, pos, led, trick_cards, problem, frames, hands):
    """Return the seats that may win `trick` where the owners need every trick left (TIGHT): those whose need
    (`fewest_owner_tricks`) the trick may still lower, with its cards so far `trick_cards` (`pos` the place just
    played, `led` its first card). Every trick must lower one owner's need, the winner's (a trick holds the tasks
    of one owner alone, who wins it), else the position after it is hopeless (the owners' need the same, a trick
    fewer); none: the trick is cut before its last cards.

    The trick's tasks are those played so far and at most the open tasks each seat still to play holds and the
    follow rule lets it play (`follower_plays`; a sequence rule may narrow its plays further); an owner's need
    with all of those gone is the least the trick can leave it (fewer tasks never need more tricks). On the six
    LOSS sets (above), against cutting only a trick that can hold no task at all, the plays of LOSS deals were
    0.81-0.99x, and 0.85-0.99x again once only such owners may win (the WIN deals' 0.79-0.94x, then 0.81-0.94x).
    """
    present = frames[trick, PRESENT]
    players, lead = problem[PLAYERS], frames[trick, LEAD]
    owned = np.int64(0)
    for seat in range(players):
        owned |= problem[OWNED + seat]
    candidates = trick_cards & owned & present
    for later in range(pos + 1, players):
        candidates |= follower_plays(SEAT_AT[players, lead, later], led, trick, problem, frames, hands) & owned
    winners = np.int64(0)
    for owner in range(players):
        own_tasks = problem[OWNED + owner] & present
        if own_tasks & candidates and fewest_owner_tricks(owner, own_tasks & ~candidates, hands, players) < frames[
            trick, OWNER_NEED + owner
        ]:
            winners |= np.int64(1) << owner
    return winners
