"""Why a deal is impossible: a smallest set of the mission's demands that is already lost on it.

A mission's demands are its tasks (each card won by its owner), its order tokens, its trick
counters (those with a bound: a counter only a comparison reads is part of the comparison), its
comparisons, run rules and lead rules (Deep Sea), its balance rule and its sequence rules; the rules of play (the space, the Ghost, a
random pass, a table pattern) stay. Dropping a demand never makes a mission harder: a line that
wins it wins the mission without that demand (a dropped drafted or lazily assigned task leaves the
other tasks' per-seat counts at most the draft's, so the same owners stay allowed; a dropped token
only loosens the order). So deletion finds an irreducible impossible core: try to drop each demand
in turn (tokens, sequence rules, balance, lead rules, runs, comparisons, counters, then tasks), and drop it when the rest is still
proved lost. Every demand kept was needed: without it the rest was winnable (or undecided within
the budget, said so) when it was tried, and then also with fewer demands.
"""

import dataclasses
import itertools
from dataclasses import dataclass

from solver.core.cards import format_card
from solver.core.errors import InputError
from solver.core.rules import num_tricks
from solver.core.solution import Limits, Outcome
from solver.engines import reference
from solver.engines.cases import ROUNDS, solve_in_rounds
from solver.missions.conditions import NO_LIMIT, bounds_text, cards_words, describe_counter
from solver.missions.tasks import ANYONE, LAZY, allowed_counts

EARLIEST_NODES = 300_000  # card plays per survival question of `earliest_failure` (the reference: about 3 s)


@dataclass(frozen=True)
class Demand:
    """One demand of a mission: its kind ("token", "sequence", "balance", "lead", "run", "comparison", "counter",
    "task"), its index among the mission's demands of that kind, and its words."""

    kind: str
    index: int
    text: str


@dataclass(frozen=True)
class Explanation:
    """An impossible core: `core`, the demands kept (proved LOSS together), out of `demands`; `needed`, per
    core demand, the outcome without it when it was tried (WIN, or UNKNOWN: undecided within the budget);
    `solves`, the solves it took; `fails_by`, the earliest trick by which every line of play has failed
    (None: some line lasts to the end, or, with `fails_by_known` False, that was undecided)."""

    demands: tuple[Demand, ...]
    core: tuple[Demand, ...]
    needed: dict
    solves: int
    fails_by: int | None = None  # the earliest trick by which every line has failed (`earliest_failure`)
    fails_by_known: bool = True  # False: a survival question was undecided within its budget


def demands_of(mission, players: int) -> list[Demand]:
    """Return a mission's demands in the order deletion tries them."""
    found = []
    for i, (c, token) in enumerate(zip(mission.cards, mission.tokens)):
        if token is not None:
            found.append(Demand("token", i, f"token {token} of task {format_card(c)}"))
    for k, rule in enumerate(mission.sequences):
        across = " (also across tricks)" if rule.across_tricks else ""
        found.append(Demand("sequence", k, f"no card of {cards_words(rule.after)} right after one of "
                                           f"{cards_words(rule.before)}{across}"))
    if mission.balanced is not None:
        found.append(Demand("balance", 0, f"tricks won within {mission.balanced.gap} of each other after every trick"))
    for k, rule in enumerate(mission.leads):
        found.append(Demand("lead", k, f"seat {rule.seat} leads only {cards_words(rule.allowed)}"))
    for k, run in enumerate(mission.runs):
        bounds = bounds_text(run)
        found.append(Demand("run", k, f"longest run of tricks won by seat {run.seat}: {bounds}"))
    for k, comparison in enumerate(mission.comparisons):
        left, right = (describe_counter(unbounded(mission.counters[i]), players) for i in (comparison.left, comparison.right))
        low = "" if comparison.at_least <= -NO_LIMIT else f"at least {comparison.at_least}"
        high = "" if comparison.at_most >= NO_LIMIT else f"at most {comparison.at_most}"
        found.append(Demand("comparison", k, f"({left}) minus ({right}): {' and '.join(filter(None, (low, high)))}"))
    for k, counter in enumerate(mission.counters):
        if counter.at_least > 0 or counter.at_most < NO_LIMIT:
            found.append(Demand("counter", k, describe_counter(counter, players)))
    for i, c in enumerate(mission.cards):
        found.append(Demand("task", i, f"task {format_card(c)} ({owner_words(mission, i)})"))
    return found


def owner_words(mission, i: int) -> str:
    """Return who must win task i: a seat, drafted, lazily assigned, anyone."""
    if mission.owners is None:
        return "drafted"
    owner = mission.owners[i]
    return {LAZY: "lazily assigned", ANYONE: "anyone"}.get(owner, f"seat {owner}")


def unbounded(counter):
    """Return a counter without its bounds (what a comparison reads of it)."""
    return dataclasses.replace(counter, at_least=0, at_most=NO_LIMIT)


def reduced(mission, deal, kept: set) -> object:
    """Return the mission with only the demands `kept` ((kind, index) pairs) of its own: the counters kept, and
    those a kept comparison reads (without their bounds when not kept themselves)."""
    tasks = [i for i in range(len(mission.cards)) if ("task", i) in kept]
    lazy_before = [i for i in range(len(mission.cards)) if mission.owners is None or mission.owners[i] == LAZY]
    owners = mission.owners
    counts = mission.counts
    if len(tasks) < len(mission.cards):
        lazy_after = [i for i in tasks if i in lazy_before]
        if lazy_after != lazy_before:  # fewer lazy tasks: per-seat counts at most the allowed ones
            counts = shrunk_counts(allowed_counts(mission, deal), len(lazy_after))
        base = mission.owners if mission.owners is not None else (LAZY,) * len(mission.cards)
        owners = tuple(base[i] for i in tasks)
    tokens = tuple(mission.tokens[i] if ("token", i) in kept else None for i in tasks)
    comparisons = [c for k, c in enumerate(mission.comparisons) if ("comparison", k) in kept]
    read = {i for c in comparisons for i in (c.left, c.right)}
    counters, index = [], {}
    for k, counter in enumerate(mission.counters):
        if ("counter", k) in kept or k in read:
            index[k] = len(counters)
            counters.append(counter if ("counter", k) in kept else unbounded(counter))
    return dataclasses.replace(
        mission, cards=tuple(mission.cards[i] for i in tasks), tokens=tokens, owners=owners, counts=counts,
        counters=tuple(counters),
        comparisons=tuple(dataclasses.replace(c, left=index[c.left], right=index[c.right]) for c in comparisons),
        runs=tuple(r for k, r in enumerate(mission.runs) if ("run", k) in kept),
        leads=tuple(r for k, r in enumerate(mission.leads) if ("lead", k) in kept),
        balanced=mission.balanced if ("balance", 0) in kept else None,
        sequences=tuple(s for k, s in enumerate(mission.sequences) if ("sequence", k) in kept),
    )


def shrunk_counts(counts, total: int) -> frozenset:
    """Return every per-seat count vector summing to `total` that is at most one of `counts`."""
    return frozenset(
        smaller for vector in counts for smaller in itertools.product(*(range(v + 1) for v in vector))
        if sum(smaller) == total
    )


def explain_loss(cases, solve, limits: Limits = Limits()) -> Explanation:
    """Return an impossible core of the cases' mission (every case must share its demands' shape), each
    check solved within `limits`; raise InputError when the deal is not proved lost."""
    first_deal, first = cases[0][1], cases[0][2]
    shapes = {(len(m.cards), tuple(t is not None for t in m.tokens), len(m.counters), m.balanced is not None,
               len(m.sequences), len(m.comparisons), len(m.runs), len(m.leads)) for _, _, m in cases}
    if len(shapes) > 1:
        raise InputError("this mission's choices differ in their demands (chosen players' counters): "
                         "give the choice's tasks and rules as a task mission to explain it")
    demands = demands_of(first, first_deal.players)
    kept = {(d.kind, d.index) for d in demands}

    def lost(keys) -> Outcome:
        trial = [(label, deal, reduced(mission, deal, keys)) for label, deal, mission in cases]
        return solve_in_rounds(trial, solve, limits, ROUNDS if len(trial) > 1 else ())[0].outcome

    whole = lost(kept)
    if whole is not Outcome.LOSS:
        raise InputError("the deal is winnable: nothing to explain" if whole is Outcome.WIN else
                         "the loss was not proved within the budget: give a larger --budget")
    solves, needed = 1, {}
    for demand in demands:
        key = (demand.kind, demand.index)
        outcome = lost(kept - {key})
        solves += 1
        if outcome is Outcome.LOSS:
            kept.discard(key)
        else:
            needed[key] = outcome
    core = tuple(d for d in demands if (d.kind, d.index) in kept)
    fails_by, known = earliest_failure(cases, limits)
    return Explanation(tuple(demands), core, {k: v for k, v in needed.items() if k in kept}, solves, fails_by, known)


def earliest_failure(cases, limits: Limits = Limits()) -> tuple[int | None, bool]:
    """Return the earliest trick t by which every line of play of every case has failed, by the rules' own
    failures (a task won by another seat, an order broken, a counter out of reach or over its bound, the
    balance broken: the reference's), and whether that is known: (None, True) when some line plays every
    trick but the last without failing, (None, False) when a survival question ran out of budget
    (`EARLIEST_NODES` card plays each unless the limits say otherwise). The reference answers, since the
    kernel's early proofs of loss see failures coming before they happen."""
    limits = Limits(limits.max_nodes or EARLIEST_NODES, limits.max_work)
    tricks = min(num_tricks(deal.hands) + mission.space.redeal_draws() for _, deal, mission in cases)
    for horizon in range(1, tricks):
        answers = [reference.solve(deal, mission, limits, horizon=horizon).outcome for _, deal, mission in cases]
        if Outcome.WIN in answers:
            continue
        if Outcome.UNKNOWN in answers:
            return None, False
        return horizon, True
    return None, True
