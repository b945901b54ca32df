"""Plain-Python exhaustive solver for Planet Nine missions: the oracle for the fast kernel.

Every hand is visible and the whole crew cooperates, so a deal is won when
some sequence of legal plays completes every task and keeps every trick
condition (solver/conditions.py). The search tries every legal card at every
turn, in card order, and remembers the trick-boundary states it has proved
lost. Clarity beats speed here, with one reduction that keeps small deals
fast: of two plays of one hand in one suit with no other card still in play
between them, only the higher is tried, unless the mission tells them apart
(a task card, or a card a condition names and its neighbour does not): they
win and lose against exactly the same cards, now and later. `equivalence=False`
switches it off; the tests check both against a brute force.

The mission is won as soon as every task is done and no condition can still
fail; it is lost at once when a task or a condition fails, and at the end
when anything is left undone. A random pass drawn with the deal (chance.py)
moves its cards between the hands after its trick.
"""

import time

from solver.cards import SUIT_MASKS, bit, card_set, scan, suit_of
from solver.conditions import breaks_sequence, counter_failed, counter_settled, counts_trick, unbalanced
from solver.deal import Deal
from solver.rules import legal_plays, num_tricks, trick_winner, winning_card
from solver.solution import Limits, Outcome, Solution, Trick
from solver.tasks import (
    UNASSIGNED,
    TaskMission,
    allowed_counts,
    distinct_cards,
    initial_owners,
    settle_trick,
)

ENGINE = "reference"


class BudgetExceeded(Exception):
    """The node or time budget ran out."""


class _Search:
    def __init__(self, deal: Deal, mission: TaskMission, limits: Limits, equivalence: bool):
        self.deal = deal
        self.mission = mission
        self.counts = allowed_counts(mission, deal)
        self.tricks = num_tricks(deal.hands)
        self.limits = limits
        self.deadline = None if limits.max_seconds is None else time.perf_counter() + limits.max_seconds
        self.nodes = 0
        self.lost: set = set()
        self.across = any(sequence.across_tricks for sequence in mission.sequences)
        self.equivalence = equivalence
        self.task_cards = card_set(mission.cards)
        self.distinct = distinct_cards(mission)
        self.random_pass = mission.random_pass
        self.pass_after = mission.random_pass.after if mission.random_pass is not None else 0

    def count_node(self) -> None:
        self.nodes += 1
        if self.limits.max_nodes is not None and self.nodes > self.limits.max_nodes:
            raise BudgetExceeded
        if self.deadline is not None and self.nodes % 1024 == 0 and time.perf_counter() > self.deadline:
            raise BudgetExceeded

    def from_boundary(self, hands, leader, played, state, last=None):
        """Return the winning line of play from a trick boundary, or None.

        `state` is (owners, done, counter values, tricks won per seat); `last` the card that
        ended the previous trick (sequence rules across tricks look at it).
        """
        if self.won(hands, played, state):
            return []
        if played == self.tricks:
            return None
        key = (hands, leader, state, last)
        if key in self.lost:
            return None
        line = self.play_trick(hands, leader, played, state, (), last)
        if line is None:
            self.lost.add(key)
        return line

    def won(self, hands, played, state) -> bool:
        """Return True when every task is done and no condition can still fail."""
        _, done, values, _ = state
        if done != self.mission.all_done:
            return False
        if self.mission.balanced is not None and played < self.tricks:
            return False
        in_hands = cards_in_play(hands, ())
        if played < self.tricks and any(sequence.after & in_hands for sequence in self.mission.sequences):
            return False  # a card that could still break a sequence rule is in play
        return all(
            counter_settled(counter, value, played + 1, self.tricks, in_hands)
            for counter, value in zip(self.mission.counters, values)
        )

    def play_trick(self, hands, leader, played, state, trick, last=None):
        """Return the winning line of play from inside a trick, or None."""
        players = len(hands)
        if len(trick) == players:
            return self.finish_trick(hands, leader, played, state, trick)
        seat = (leader + len(trick)) % players
        plays = legal_plays(hands[seat], trick)
        previous = trick[-1] if trick else last
        plays &= ~sum(bit(c) for c in scan(plays) if breaks_sequence(self.mission.sequences, previous, c, bool(trick)))
        if self.equivalence and played >= self.pass_after:  # before a pass, every card is itself
            plays = without_equivalent_plays(plays, cards_in_play(hands, trick), self.distinct)
        owners = state[0]
        for c in scan(plays):
            self.count_node()
            after = hands[:seat] + (hands[seat] & ~bit(c),) + hands[seat + 1 :]
            grown = trick + (c,)
            if card_set(grown) & self.task_cards and owner_cannot_win(self.mission, owners, leader, grown, players):
                continue
            line = self.play_trick(after, leader, played, state, grown)
            if line is not None:
                return line
        return None

    def finish_trick(self, hands, leader, played, state, trick):
        """Settle a full trick; return the winning line from there, or None."""
        winner = trick_winner(leader, trick, len(hands))
        after = self.settle(state, played + 1, trick, winner, hands)
        if after is None:
            return None
        if played + 1 == self.pass_after:
            hands = self.random_pass.apply(hands)
        rest = self.from_boundary(hands, winner, played + 1, after, trick[-1] if self.across else None)
        if rest is None:
            return None
        done, new_done = state[1], after[1]
        completed = tuple(c for i, c in enumerate(self.mission.cards) if (new_done & ~done) >> i & 1)
        return [Trick(leader, trick, winner, completed)] + rest

    def settle(self, state, number: int, trick, winner: int, hands):
        """Return the state after trick `number` (1-based), or None when the mission fails."""
        owners, done, values, won = state
        cards = card_set(trick)
        settled = settle_trick(self.mission, self.counts, owners, done, cards, winner)
        if settled is None:
            return None
        best = winning_card(trick)
        values = tuple(
            value + counts_trick(counter, number, cards, winner, best)
            for counter, value in zip(self.mission.counters, values)
        )
        in_hands = cards_in_play(hands, ()) & ~cards
        if any(counter_failed(c, v, number + 1, self.tricks, in_hands) for c, v in zip(self.mission.counters, values)):
            return None
        won = tuple(count + (seat == winner) for seat, count in enumerate(won))
        if unbalanced(self.mission.balanced, won):
            return None
        return (*settled, values, won)


def owner_cannot_win(mission: TaskMission, owners, leader: int, trick, players: int) -> bool:
    """Return True when a task card's owner has played to the trick and is not winning it.

    Later cards can only give the trick to their own players, so the task fails.
    """
    winner = trick_winner(leader, trick, players)
    for i, c in enumerate(mission.cards):
        owner = owners[i]
        if c in trick and owner != UNASSIGNED and winner != owner and (owner - leader) % players < len(trick):
            return True
    return False


def cards_in_play(hands, trick) -> int:
    """Return the cards still in hands or on the table."""
    cards = card_set(trick)
    for hand in hands:
        cards |= hand
    return cards


def without_equivalent_plays(plays: int, in_play: int, distinct: int) -> int:
    """Drop each play whose next card in play above it in its suit is another play; keep `distinct`."""
    kept = 0
    for c in scan(plays):
        above = in_play & SUIT_MASKS[suit_of(c)] & ~((2 << c) - 1)
        if not bit(c) & distinct and above & -above & plays & ~distinct:
            continue
        kept |= bit(c)
    return kept


def solve(deal: Deal, mission: TaskMission, limits: Limits = Limits(), equivalence: bool = True) -> Solution:
    """Decide whether the crew can win `mission` in `deal`."""
    search = _Search(deal, mission, limits, equivalence)
    start = time.perf_counter()
    try:
        start_state = (initial_owners(mission), 0, (0,) * len(mission.counters), (0,) * deal.players)
        line = search.from_boundary(deal.hands, deal.commander, 0, start_state)
    except BudgetExceeded:
        return Solution(Outcome.UNKNOWN, search.nodes, time.perf_counter() - start, ENGINE)
    seconds = time.perf_counter() - start
    if line is None:
        return Solution(Outcome.LOSS, search.nodes, seconds, ENGINE)
    winners = {c: trick.winner for trick in line for c in trick.completed}
    assignment = {c: winners[c] for c in mission.cards}
    return Solution(Outcome.WIN, search.nodes, seconds, ENGINE, line, assignment)
