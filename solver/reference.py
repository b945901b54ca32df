"""Plain-Python exhaustive solver for Planet Nine task missions: the oracle for the fast kernel.

Every hand is visible and the whole crew cooperates, so a deal is won when
some sequence of legal plays completes every task. The search tries every
legal card at every turn, in card order, and remembers the trick-boundary
states it has proved lost. Clarity beats speed here.
"""

import time

from solver.cards import bit, scan
from solver.deal import Deal
from solver.rules import legal_plays, num_tricks, trick_winner
from solver.solution import Limits, Outcome, Solution, Trick
from solver.tasks import TaskMission, initial_owners, settle_trick, task_quotas

ENGINE = "reference"


class BudgetExceeded(Exception):
    """The node or time budget ran out."""


class _Search:
    def __init__(self, deal: Deal, mission: TaskMission, limits: Limits):
        self.deal = deal
        self.mission = mission
        self.quotas = task_quotas(mission, deal)
        self.tricks = num_tricks(deal.hands)
        self.limits = limits
        self.deadline = None if limits.max_seconds is None else time.perf_counter() + limits.max_seconds
        self.nodes = 0
        self.lost: set = set()

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
        for c in scan(legal_plays(hands[seat], trick)):
            self.count_node()
            after = hands[:seat] + (hands[seat] & ~bit(c),) + hands[seat + 1 :]
            line = self.play_trick(after, leader, played, owners, done, trick + (c,))
            if line is not None:
                return line
        return None

    def finish_trick(self, hands, leader, played, owners, done, trick):
        winner = trick_winner(leader, trick, len(hands))
        cards = 0
        for c in trick:
            cards |= bit(c)
        settled = settle_trick(self.mission, self.quotas, owners, done, cards, winner)
        if settled is None:
            return None
        new_owners, new_done = settled
        rest = self.from_boundary(hands, winner, played + 1, new_owners, new_done)
        if rest is None:
            return None
        completed = tuple(c for i, c in enumerate(self.mission.cards) if (new_done & ~done) >> i & 1)
        return [Trick(leader, trick, winner, completed)] + rest


def solve(deal: Deal, mission: TaskMission, limits: Limits = Limits()) -> Solution:
    """Decide whether the crew can complete every task of `mission` in `deal`."""
    search = _Search(deal, mission, limits)
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
