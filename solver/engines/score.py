"""Special missions: the highest score a deal allows, found by searching for the most scoring events.

A special mission scores one step per event (a matching trick, or a player who
wins a card of a set), minus a deduction for the player count, never below 0;
a score of 0 fails it. "At least k events" is an existential question the
engines answer (the mission's setups with a counter at_least k, or the crew's
choice of k scoring players), and a line with k events has k - 1 too, so a
binary search over k finds the maximum. Its first question is the pass mark
(the fewest events that score, one more than the deduction): whether the deal
is won at all is what a sweep counts, and asked first it gets the whole budget.
When a budget runs out part way, the answer is the best score proven, marked
not exact. Measured on the 2-player difficult Ghost's "no 1 and no 2" on the
helicopter and the jeep (2 s budgets): the 9 deals the halving left UNKNOWN,
a probe above the mark taking the whole budget, all score at least 1.
"""

import time
from dataclasses import dataclass

from solver.core.cards import popcount
from solver.core.deal import Deal
from solver.core.rules import num_tricks
from solver.core.solution import Limits, Outcome, Solution
from solver.engines.cases import solve_setups
from solver.missions.mission import Mission
from solver.missions.position import Position
from solver.missions.setup import mission_setups
from solver.missions.stage import ON_TRAIN, Stage


@dataclass
class ScoreAnswer:
    """The most events proven reachable, whether no more are possible, the score, and the line."""

    events: int
    exact: bool
    score: int
    solution: Solution

    @property
    def outcome(self) -> Outcome:
        """WIN when the score is positive, LOSS when it is 0 for certain, else UNKNOWN."""
        if self.score > 0:
            return Outcome.WIN
        return Outcome.LOSS if self.exact else Outcome.UNKNOWN


def most_events(mission: Mission, deal: Deal, stage: Stage = ON_TRAIN) -> int:
    """Return an upper bound on a special mission's events: its players, or its tricks but those
    the cards a scoring trick may not hold must spoil.

    Every such card played lies in some trick, at most one per seat in each, and all cards but
    the ones left in hands after the last trick are played; unless cards are traded (the
    helicopter, the jeep, the Vespa), a hand's own such cards lie in as many tricks. A bound
    the deal reaches spares the search its one expensive proof, that one event more is out of
    reach.
    """
    if mission.score.each != "trick":
        return deal.players
    tricks = num_tricks(deal.hands)
    rule = mission.score.trick
    if rule is None or not rule.without:
        return tricks
    spares = [max(0, popcount(hand) - tricks) for hand in deal.hands]  # cards no trick takes
    played = max(0, popcount(deal.cards & rule.without) - sum(spares))
    spoiled = -(-played // deal.players)
    if not stage.space.trades_cards:
        spoiled = max(spoiled, *(popcount(hand & rule.without) - spare for hand, spare in zip(deal.hands, spares)))
    return tricks - spoiled


def max_score(
    deal: Deal, mission: Mission, cards, chance, solve, limits: Limits = Limits(), stage: Stage = ON_TRAIN,
    position: Position = Position(), choice: str | None = None,
) -> ScoreAnswer:
    """Return the highest score of special `mission` on `deal` played on `stage` (task cards and chance as
    for its setups); from a `position` (and in the case `choice` names)."""
    began = time.perf_counter()
    nodes, branches, work = 0, 0, 0.0

    def reach(events: int) -> Solution:
        nonlocal nodes, branches, work
        answer = solve_setups(deal, mission_setups(mission, deal, cards, chance, events, stage.ghost), solve,
                              limits.after(work), stage=stage, position=position, choice=choice)
        nodes, branches, work = nodes + answer.nodes, branches + answer.branches, work + answer.work
        return answer

    best = reach(0)
    low, high, exact = 0, most_events(mission, deal, stage), best.outcome is not Outcome.UNKNOWN
    if best.outcome is not Outcome.WIN:
        high = -1  # the mission's other rules already fail: no events at all
    pass_mark = mission.score.deduction_for(deal.players) + 1  # the fewest events that score
    while low < high:
        middle = pass_mark if low < pass_mark <= high else (low + high + 1) // 2
        answer = reach(middle)
        if answer.outcome is Outcome.WIN:
            low, best = middle, answer
        else:
            exact = exact and answer.outcome is Outcome.LOSS
            high = middle - 1
    events = max(low, 0)
    best.nodes, best.branches, best.work, best.seconds = nodes, branches, work, time.perf_counter() - began
    score = max(0, events - mission.score.deduction_for(deal.players)) if high >= 0 else 0
    return ScoreAnswer(events, exact, score, best)
