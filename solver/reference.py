"""Plain-Python exhaustive solver for Planet Nine task missions: the oracle for the fast kernel.

Every hand is visible and the whole crew cooperates, so a deal is won when
some sequence of legal plays completes every task. The search tries every
legal card at every turn, in card order, and remembers the trick-boundary
states it has proved lost. Clarity beats speed here, with one reduction that
keeps small deals fast: of two plays of one hand in one suit with no other
card still in play between them, only the higher is tried, unless either is a
task card (they win and lose against exactly the same cards, now and later).
`equivalence=False` switches it off; the tests check both against a brute force.
"""

import time

from solver.cards import SUIT_MASKS, bit, card_set, scan, suit_of
from solver.deal import Deal
from solver.rules import legal_plays, num_tricks, trick_winner
from solver.solution import Limits, Outcome, Solution, Trick
from solver.tasks import UNASSIGNED, TaskMission, initial_owners, settle_trick, task_quotas

ENGINE = "reference"


class BudgetExceeded(Exception):
    """The node or time budget ran out."""


class _Search:
    def __init__(self, deal: Deal, mission: TaskMission, limits: Limits, equivalence: bool):
        self.deal = deal
        self.mission = mission
        self.quotas = task_quotas(mission, deal)
        self.tricks = num_tricks(deal.hands)
        self.limits = limits
        self.deadline = None if limits.max_seconds is None else time.perf_counter() + limits.max_seconds
        self.nodes = 0
        self.lost: set = set()
        self.equivalence = equivalence
        self.task_cards = card_set(mission.cards)

    def count_node(self) -> None:
        self.nodes += 1
        if self.limits.max_nodes is not None and self.nodes > self.limits.max_nodes:
            raise BudgetExceeded
        if self.deadline is not None and self.nodes % 1024 == 0 and time.perf_counter() > self.deadline:
            raise BudgetExceeded

    def from_boundary(self, hands, leader, played, owners, done):
        """Return the winning line of play from a trick boundary, or None."""
        if done == self.mission.all_done:
            return []
        if played == self.tricks:
            return None
        key = (hands, leader, owners, done)
        if key in self.lost:
            return None
        line = self.play_trick(hands, leader, played, owners, done, ())
        if line is None:
            self.lost.add(key)
        return line

    def play_trick(self, hands, leader, played, owners, done, trick):
        """Return the winning line of play from inside a trick, or None."""
        players = len(hands)
        if len(trick) == players:
            return self.finish_trick(hands, leader, played, owners, done, trick)
        seat = (leader + len(trick)) % players
        plays = legal_plays(hands[seat], trick)
        if self.equivalence:
            plays = without_equivalent_plays(plays, cards_in_play(hands, trick), self.task_cards)
        for c in scan(plays):
            self.count_node()
            after = hands[:seat] + (hands[seat] & ~bit(c),) + hands[seat + 1 :]
            grown = trick + (c,)
            if card_set(grown) & self.task_cards and owner_cannot_win(self.mission, owners, leader, grown, players):
                continue
            line = self.play_trick(after, leader, played, owners, done, grown)
            if line is not None:
                return line
        return None

    def finish_trick(self, hands, leader, played, owners, done, trick):
        winner = trick_winner(leader, trick, len(hands))
        settled = settle_trick(self.mission, self.quotas, owners, done, card_set(trick), winner)
        if settled is None:
            return None
        new_owners, new_done = settled
        rest = self.from_boundary(hands, winner, played + 1, new_owners, new_done)
        if rest is None:
            return None
        completed = tuple(c for i, c in enumerate(self.mission.cards) if (new_done & ~done) >> i & 1)
        return [Trick(leader, trick, winner, completed)] + rest


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
    """Decide whether the crew can complete every task of `mission` in `deal`."""
    search = _Search(deal, mission, limits, equivalence)
    start = time.perf_counter()
    try:
        line = search.from_boundary(deal.hands, deal.commander, 0, initial_owners(mission), 0)
    except BudgetExceeded:
        return Solution(Outcome.UNKNOWN, search.nodes, time.perf_counter() - start, ENGINE)
    seconds = time.perf_counter() - start
    if line is None:
        return Solution(Outcome.LOSS, search.nodes, seconds, ENGINE)
    winners = {c: trick.winner for trick in line for c in trick.completed}
    assignment = {c: winners[c] for c in mission.cards}
    return Solution(Outcome.WIN, search.nodes, seconds, ENGINE, line, assignment)
