"""CP-SAT engine: the whole play of a task mission as one Boolean satisfiability model.

Every card has a fixed holder, so a line of play is fixed by when each card is
played. The model asks for a legal full play (all T tricks) in which every task
card is won by its owner, the completion tricks respect the order tokens, every
trick counter ends within its bounds and, with the balanced rule, the trick
counts stay within the gap after every trick. That is equivalent to the mission
being won, which ends play at once:

- a won mission extends to a full legal play: after it any legal card can always
  be played (the leader plays anything, a follower follows suit or plays
  anything); the completed tasks, their winners and their completion tricks no
  longer change, and a mission is won only once every counter is settled
  (`conditions.counter_settled`: its minimum reached, no trick left that could
  count past its maximum) and, with the balanced rule, after the last trick;
- a full play meeting the conditions wins the mission at the first trick after
  which `won_after` holds, and fails nothing before: each task trick is won by its
  owner, the per-task prerequisites (`tasks.order_prerequisites`, an exact
  restatement of `tasks.order_broken`) hold, the lazily assigned tasks' per-seat
  counts end under an allowed vector, so they never outgrow one; a counter only
  grows, so it is never over its maximum before the end, and a minimum the end
  meets was never out of reach; the balance holds after every trick;
- three players: the 14-card hand plays T = 13 of its cards, one card at most
  once each, so exactly one stays unplayed; a task card must be played (a task
  on the unplayed card fails), and the mission ending early never needs that card.

Variables (t = 0..T-1; `P` is the order encoding of `x`):
- x[c][t]: card c is played in trick t; P[c][t]: c is played in trick t or before;
- y[p,s,t]: seat p plays a card of suit s in trick t;
- ge[p,s,k,t]: seat p holds at least k cards of suit s at the start of trick t
  (at most one card per trick, so the counts bound when a seat can be void);
- ledsuit[s,t], win[c,t] (c wins trick t), wseat[p,t] (p wins t, so p leads t+1);
- lazily assigned tasks (a draft, an assignment mode): own[c,p], seat p owns task c;
- a trick counter: one literal per trick, "trick t matches" (its winner, its
  winning card, a reified count of its `containing` cards and of its value), or
  per card with `count_cards`; the bounds are linear constraints over them.

Redundant parts: the suit counts `ge` (the follow rule reads "holds a card of
the led suit" from them) make hard three-player LOSS proofs about 7x shorter in
branches and over 10x faster; dynamic card equivalence (below) is cheap and
sound, and halves the branches when the counts are left out.
Tried without a clear gain, so left out: per-card follow clauses besides the
counts, an order-encoded "card of rank >= k played" chain for the winner,
reverse winner clauses, exactly-one over the suit a seat plays, per-seat card
sums; clearly worse: a linear x/P link, a fixed play-order search, presolve.

The model knows the missions `modelled` names: tasks with fixed, drafted, lazily
assigned or anyone's owners, order tokens, trick counters of every kind and the
balanced rule, on the train, the dog sled (its driver may open any trick) or the
hang glider (a set-aside card does not count for following suit). `solve` raises
`UnsupportedMission` for any other rule (random passes, sequences, the other
stage spaces, the Ghost, table patterns), naming it (`unsupported`): the
portfolio sends such missions to the kernel alone.

`limits.max_seconds` bounds the whole call, model building included; past it
the answer is UNKNOWN. `limits.max_nodes` is ignored: CP-SAT has no branch
limit. `nodes` reports CP-SAT's branch count.
"""

from __future__ import annotations

import dataclasses
import time
from typing import TYPE_CHECKING

from solver.core.cards import SUITS, TRUMP, card_set, rank_of, scan, suit_of
from solver.core.cp_sat import cp_sat
from solver.core.deal import Deal
from solver.core.errors import UnsupportedMission
from solver.core.rules import num_tricks, trick_winner, winning_card
from solver.core.solution import Limits, Outcome, Solution, Trick
from solver.missions.conditions import NO_LIMIT, TrickCounter, counter_settled, counts_trick
from solver.missions.tasks import LAZY, TaskMission, allowed_counts, distinct_cards, order_prerequisites
from solver.trick.variants import NO_RULES, PlayRules

if TYPE_CHECKING:
    from ortools.sat.python import cp_model


ENGINE = "cpsat"
OTHER_ENGINES = "use the auto, kernel or reference engine"
# The rule families of a TaskMission the model lacks: short name, and in words.
FAMILIES = {
    "random-pass": "the random card pass",
    "sequences": "sequence rules",
    "skis": "the skis",
    "fog": "fog",
    "helicopter": "the helicopter",
    "jeep": "the jeep",
    "ghost": "the Ghost's display (two players)",
    "difficult-ghost": "the difficult Ghost",
    "redeal": "the five-player redeal",
    "pattern": "table patterns (special stages)",
    "space": "stage space rules",  # a PlayRules field none of the above names
    "other": "rules beyond what the model knows",  # a TaskMission field none of the above names
}
SPACE_FAMILIES = {"skis", "fog", "helicopter", "jeep", "ghost", "difficult-ghost", "redeal"}


def unsupported(mission: TaskMission) -> dict[str, str]:
    """Return the rule families of `mission` the model lacks (FAMILIES' names and words); empty
    exactly when it has none of them (`modelled`)."""
    if modelled(mission):  # the portfolio asks for every case
        return {}
    space = mission.space
    present = {
        "random-pass": mission.random_pass is not None,
        "sequences": bool(mission.sequences),
        "skis": bool(space.skis),
        "fog": bool(space.arrivals),
        "helicopter": bool(space.heli_pass),
        "jeep": bool(space.jeep_after),
        "ghost": space.ghost >= 0 or bool(space.display),
        "difficult-ghost": space.difficult,
        "redeal": bool(space.redeal_after),
        "pattern": mission.pattern is not None,
    }
    families = [name for name, found in present.items() if found]
    if without_modelled_rules(space) != NO_RULES and not set(families) & SPACE_FAMILIES:
        families.append("space")
    if not families:  # a field added to `modelled` but not here
        families.append("other")
    return {name: FAMILIES[name] for name in families}


def modelled(mission: TaskMission) -> bool:
    """Return True for the missions the model knows: tasks (fixed, drafted, lazily assigned within
    allowed counts, or anyone's) with order tokens, trick counters and the balanced rule, on the
    train, the dog sled or the hang glider."""
    return (
        mission.random_pass is None
        and not mission.sequences
        and without_modelled_rules(mission.space) == NO_RULES
        and mission.pattern is None
    )


def without_modelled_rules(space: PlayRules) -> PlayRules:
    """Return `space` without the rules of play the model knows: the dog sled and the hang glider."""
    return dataclasses.replace(space, sled=-1, hang_glider=False)


def check_supported(mission: TaskMission) -> None:
    """Raise UnsupportedMission naming every rule family of `mission` the model lacks."""
    missing = unsupported(mission)
    if missing:
        raise UnsupportedMission(ENGINE, tuple(missing), tuple(missing.values()), OTHER_ENGINES)


class TaskModel:
    """Build the CP-SAT model of one deal and mission."""

    def __init__(self, deal: Deal, mission: TaskMission):
        check_supported(mission)
        self.deal = deal
        self.mission = mission
        self.model = cp_sat().CpModel()
        self.players = deal.players
        self.tricks = num_tricks(deal.hands)
        self.hands = [list(scan(hand)) for hand in deal.hands]
        self.holder = {c: p for p, hand in enumerate(self.hands) for c in hand}
        self.by_suit = [[[c for c in hand if suit_of(c) == s] for s in SUITS] for hand in self.hands]
        self.suit_cards = [[c for c in sorted(self.holder) if suit_of(c) == s] for s in SUITS]
        self.task_of = {c: i for i, c in enumerate(mission.cards)}
        # Negations by id: `~var` builds a new object each call, and there are many.
        self.negations = {id(True): False, id(False): True}
        self.play_vars()
        self.suit_vars()
        self.count_vars()
        self.lead_vars()
        self.follow_suit()
        self.winners()
        self.owners()
        self.tokens()
        self.trick_counters()
        self.balance()
        self.equivalent_cards()

    # --- literal helpers: constants are Python bools, folded away here -----------

    def new(self):
        """Return a new Boolean variable; its negation is cached."""
        var = self.model.new_bool_var("")
        not_var = ~var
        self.negations[id(var)] = not_var
        self.negations[id(not_var)] = var
        return var

    def neg(self, lit):
        """Return the negation of a literal or of a Python bool constant."""
        return self.negations[id(lit)]

    def clause(self, lits) -> None:
        """Add OR(lits), skipping it when a constant makes it true."""
        kept = []
        for lit in lits:
            if lit is True:
                return
            if lit is not False:
                kept.append(lit)
        self.model.add_bool_or(kept)

    def implies(self, a, lits) -> None:
        """Add a -> AND(lits)."""
        if a is False:
            return
        kept = []
        for lit in lits:
            if lit is False:
                self.clause([self.neg(a)])
                return
            if lit is not True:
                kept.append(lit)
        if not kept:
            return
        if a is True:
            self.model.add_bool_and(kept)
        else:
            self.model.add_bool_and(kept).only_enforce_if(a)

    def exactly_one(self, lits) -> None:
        """Add exactly one of lits true; a true constant makes all others false."""
        kept = [lit for lit in lits if lit is not False]
        if any(lit is True for lit in kept):
            others = [self.neg(lit) for lit in kept if lit is not True]
            if len(kept) - len(others) > 1:
                self.clause([])
            elif others:
                self.model.add_bool_and(others)
            return
        self.model.add_exactly_one(kept)

    # --- the play ----------------------------------------------------------------

    def play_vars(self) -> None:
        """Create x and P; each seat plays one card per trick, each card at most once."""
        T = self.tricks
        self.x, self.P = {}, {}
        for hand in self.hands:
            # Only the 3-player 14-card hand keeps a card; task cards are always played.
            spare = len(hand) > T
            for c in hand:
                P = [self.new() for _ in range(T - 1)]
                P.append(self.new() if spare and c not in self.task_of else True)
                x = [P[0]]
                for t in range(1, T):
                    self.clause([self.neg(P[t - 1]), P[t]])
                    if P[t] is True:
                        x.append(self.neg(P[t - 1]))
                        continue
                    played = self.new()
                    self.implies(played, [P[t], self.neg(P[t - 1])])
                    self.clause([self.neg(P[t]), P[t - 1], played])
                    x.append(played)
                self.x[c], self.P[c] = x, P
            for t in range(T):
                self.exactly_one([self.x[c][t] for c in hand])

    def suit_vars(self) -> None:
        """Create y[p,s,t] = sum of x over seat p's cards of suit s."""
        self.y = {}
        for p in range(self.players):
            for s in SUITS:
                cards = self.by_suit[p][s]
                for t in range(self.tricks):
                    if len(cards) <= 1:
                        self.y[p, s, t] = self.x[cards[0]][t] if cards else False
                        continue
                    y = self.new()
                    self.exactly_one([self.neg(y)] + [self.x[c][t] for c in cards])
                    self.y[p, s, t] = y

    def count_vars(self) -> None:
        """Create ge[p,s,k,t]: seat p holds at least k cards of suit s at the start of trick t.

        Counts fall by y each trick, so `ge[k, t]` is true for k <= n - t and false
        beyond what the remaining tricks can play: unit propagation then knows how
        soon a seat can be void and how late it must be.
        """
        T = self.tricks
        self.ge = {}
        for p in range(self.players):
            size = len(self.hands[p])
            for s in SUITS:
                cards = self.by_suit[p][s]
                n = len(cards)
                if not n:
                    continue
                ge = self.ge
                if n == 1:
                    # One card: held exactly while not yet played; P and x say it all.
                    for t in range(T + 1):
                        ge[p, s, 1, t] = True if t == 0 else self.neg(self.P[cards[0]][t - 1])
                    continue
                for t in range(T + 1):
                    ge[p, s, n + 1, t] = False
                    for k in range(1, n + 1):
                        if k <= n - t:
                            ge[p, s, k, t] = True
                        elif k > size - t:
                            ge[p, s, k, t] = False
                        else:
                            ge[p, s, k, t] = self.new()
                for t in range(T):
                    y = self.y[p, s, t]
                    for k in range(1, n + 1):
                        after, now, more = ge[p, s, k, t + 1], ge[p, s, k, t], ge[p, s, k + 1, t]
                        # count(t+1) = count(t) - y
                        self.clause([self.neg(more), after])
                        self.clause([self.neg(now), y, after])
                        self.clause([self.neg(after), now])
                        self.clause([self.neg(after), self.neg(y), more])
                    self.clause([self.neg(y), ge[p, s, 1, t]])
                    # A void seat has played every card of the suit. (The converse
                    # clause follows from the counts and measured slower.)
                    void = self.neg(ge[p, s, 1, t + 1])
                    for c in cards:
                        self.clause([self.neg(void), self.P[c][t]])

    def lead_vars(self) -> None:
        """Create wseat (the winner of t leads t+1), the seat opening each trick and its led suit.

        The dog-sled driver may open any trick instead of the seat due to lead: a free literal per
        trick says he does.
        """
        T = self.tricks
        self.wseat = {(p, t): self.new() for p in range(self.players) for t in range(T)}
        due = {}
        for p in range(self.players):
            due[p, 0] = p == self.deal.commander
            for t in range(1, T):
                due[p, t] = self.wseat[p, t - 1]
        self.lead = due
        sled = self.mission.space.sled
        if sled >= 0:
            self.lead = {}
            for t in range(T):
                opens = self.new()
                for p in range(self.players):
                    self.lead[p, t] = (
                        self.any_of([opens, due[p, t]]) if p == sled else self.all_of([due[p, t], self.neg(opens)])
                    )
        self.ledsuit = {}
        present = [s for s in SUITS if self.suit_cards[s]]
        for t in range(T):
            for s in SUITS:
                self.ledsuit[s, t] = self.new() if s in present else False
            self.exactly_one([self.ledsuit[s, t] for s in present])
            for p in range(self.players):
                lead = self.lead[p, t]
                for s in present:
                    # The led suit is the suit the leader plays.
                    self.clause([self.neg(lead), self.neg(self.ledsuit[s, t]), self.y[p, s, t]])
                    self.clause([self.neg(lead), self.neg(self.y[p, s, t]), self.ledsuit[s, t]])

    def follow_suit(self) -> None:
        """Add: a seat holding a card of the led suit plays that suit.

        Under the hang glider (`variants.hang_glider_plays`) the card set aside does not count:
        a seat must follow only while it holds two cards of the led suit (setting the one card it
        holds aside frees it, setting any other aside keeps both), and in the last trick each plays
        its set-aside card, whatever was led.
        """
        glider = self.mission.space.hang_glider
        for p in range(self.players):
            for s in SUITS:
                if not self.by_suit[p][s]:
                    continue
                for t in range(self.tricks - 1 if glider else self.tricks):
                    holds = self.ge.get((p, s, 2, t), False) if glider else self.ge[p, s, 1, t]
                    if holds is False:
                        continue
                    self.clause([self.neg(self.ledsuit[s, t]), self.neg(holds), self.y[p, s, t]])

    def winners(self) -> None:
        """Create win[c,t]; exactly one per trick, and only the true winner qualifies.

        A trump wins when no higher trump is in the trick; a colour card when its
        suit is led, no trump is played and no higher card of its suit is in the
        trick. At most one card meets its condition, so exactly-one pins it.
        """
        T = self.tricks
        self.win = {}
        trump_seats = [q for q in range(self.players) if self.by_suit[q][TRUMP]]
        for s in SUITS:
            cards = self.suit_cards[s]
            for k, c in enumerate(cards):
                h = self.holder[c]
                higher = [d for d in cards[k + 1 :] if self.holder[d] != h]
                trumpers = [q for q in trump_seats if q != h] if s != TRUMP else []
                for t in range(T):
                    w = self.new()
                    self.win[c, t] = w
                    need = [self.x[c][t]] + [self.neg(self.x[d][t]) for d in higher]
                    if s != TRUMP:
                        need.append(self.ledsuit[s, t])
                        need += [self.neg(self.y[q, TRUMP, t]) for q in trumpers]
                    self.implies(w, need)
        for t in range(T):
            for p in range(self.players):
                self.exactly_one([self.neg(self.wseat[p, t])] + [self.win[c, t] for c in self.hands[p]])
            self.exactly_one([self.wseat[p, t] for p in range(self.players)])

    # --- the mission -------------------------------------------------------------

    def owners(self) -> None:
        """Add: the trick holding a task card is won by its owner; a fixed owner is given, a lazily
        assigned task (a draft, an assignment mode) belongs to whoever wins it, within the allowed
        per-seat counts, and a task anyone may win only has to be played."""
        mission, T = self.mission, self.tricks
        specs = mission.owners if mission.owners is not None else (LAZY,) * len(mission.cards)
        for c, spec in zip(mission.cards, specs):
            if spec >= 0:
                for t in range(T):
                    self.clause([self.neg(self.x[c][t]), self.wseat[spec, t]])
        lazy = [c for c, spec in zip(mission.cards, specs) if spec == LAZY]
        if lazy:
            self.lazy_owners(lazy, allowed_counts(mission, self.deal))

    def lazy_owners(self, lazy: list[int], counts) -> None:
        """Add: each card of `lazy` is owned by the seat winning its trick, and the numbers of them
        each seat owns fit under one of the vectors `counts` (tasks.counts_allow)."""
        T = self.tricks
        ceiling = [max(vector[p] for vector in counts) for p in range(self.players)]
        own = {}
        for c in lazy:
            for p in range(self.players):
                own[c, p] = self.new() if ceiling[p] else False
            self.exactly_one([own[c, p] for p in range(self.players)])
            for t in range(T):
                for p in range(self.players):
                    # The winner of the task's trick owns it, and only the owner wins it.
                    self.clause([self.neg(self.x[c][t]), self.neg(self.wseat[p, t]), own[c, p]])
                    if ceiling[p]:
                        self.clause([self.neg(self.x[c][t]), self.neg(own[c, p]), self.wseat[p, t]])
        taken = [[own[c, p] for c in lazy if own[c, p] is not False] for p in range(self.players)]
        vectors = sorted(counts)
        chosen = [True] if len(vectors) == 1 else [self.new() for _ in vectors]
        if len(vectors) > 1:
            self.model.add_exactly_one(chosen)
        for vector, lit in zip(vectors, chosen):
            for p in range(self.players):
                if len(taken[p]) > vector[p]:
                    self.at_most(taken[p], vector[p], lit)

    def at_most(self, lits, bound: int, enforced=True) -> None:
        """Add sum(lits) <= bound, when the literal `enforced` holds."""
        constraint = self.model.add(sum(lits) <= bound)
        if enforced is not True:
            constraint.only_enforce_if(enforced)

    def tokens(self) -> None:
        """Add: every prerequisite of task j is completed no later than j."""
        cards = self.mission.cards
        for j, before in enumerate(order_prerequisites(self.mission.tokens)):
            for i in scan(before):
                for t in range(self.tricks):
                    self.clause([self.neg(self.P[cards[j]][t]), self.P[cards[i]][t]])

    def trick_counters(self) -> None:
        """Add: each counter's total over the full play lies within [at_least, at_most].

        Over a full play this is the mission's own test: a count only grows, so going over the
        maximum once is being over it at the end, and a minimum missed at the end was missed
        from some trick on; a mission won before the last trick has every counter settled
        (conditions.counter_settled), so no trick after it changes the verdict.
        """
        for counter in self.mission.counters:
            counted = []
            for t in range(self.tricks):
                if counter.tricks >> t & 1:
                    counted += self.counted_in(counter, t)
            fixed = sum(1 for lit in counted if lit is True)
            lits = [lit for lit in counted if lit is not True and lit is not False]
            if fixed + len(lits) < counter.at_least or fixed > counter.at_most:
                self.clause([])
                continue
            if counter.at_least > fixed:
                self.model.add(sum(lits) >= counter.at_least - fixed)
            if counter.at_most < fixed + len(lits):
                self.at_most(lits, counter.at_most - fixed)

    def counted_in(self, counter: TrickCounter, t: int) -> list:
        """Return literals whose sum is what trick t adds to `counter` (conditions.counts_trick):
        one literal for "trick t matches", or with `count_cards` one per card of `containing`
        (played in t, and t matches)."""
        everyone = (1 << self.players) - 1
        seats = [p for p in range(self.players) if counter.winners >> p & 1]
        conditions = [True if counter.winners & everyone == everyone else self.any_of([self.wseat[p, t] for p in seats])]
        if counter.won_with:
            conditions.append(self.any_of([self.win[c, t] for c in scan(counter.won_with) if c in self.holder]))
        contained = [c for c in scan(counter.containing) if c in self.holder]
        if counter.containing:
            held = [(1, self.x[c][t]) for c in contained]
            conditions.append(self.sum_at_least(held, counter.min_containing))
            if counter.max_containing < NO_LIMIT:
                conditions.append(self.neg(self.sum_at_least(held, counter.max_containing + 1)))
        if counter.min_value > 0 or counter.max_value < NO_LIMIT:
            values = [(rank_of(c), self.x[c][t]) for c in self.holder]
            conditions.append(self.sum_at_least(values, counter.min_value))
            if counter.max_value < NO_LIMIT:
                conditions.append(self.neg(self.sum_at_least(values, counter.max_value + 1)))
        matches = self.all_of(conditions)
        if not counter.count_cards:
            return [matches]
        return [self.all_of([self.x[c][t], matches]) for c in contained]

    def any_of(self, lits):
        """Return a literal equal to OR(lits)."""
        kept = [lit for lit in lits if lit is not False]
        if any(lit is True for lit in kept):
            return True
        if len(kept) <= 1:
            return kept[0] if kept else False
        return self.neg(self.all_of([self.neg(lit) for lit in kept]))

    def all_of(self, lits):
        """Return a literal equal to AND(lits)."""
        kept = [lit for lit in lits if lit is not True]
        if any(lit is False for lit in kept):
            return False
        if len(kept) <= 1:
            return kept[0] if kept else True
        both = self.new()
        self.implies(both, kept)
        self.clause([both] + [self.neg(lit) for lit in kept])
        return both

    def sum_at_least(self, terms, bound: int):
        """Return a literal equal to "sum of weight * literal >= bound" over `terms`."""
        fixed = sum(weight for weight, lit in terms if lit is True)
        terms = [(weight, lit) for weight, lit in terms if lit is not True and lit is not False]
        bound -= fixed
        if bound <= 0:
            return True
        if sum(weight for weight, _ in terms) < bound:
            return False
        reached = self.new()
        total = sum(weight * lit for weight, lit in terms)
        self.model.add(total >= bound).only_enforce_if(reached)
        self.model.add(total <= bound - 1).only_enforce_if(self.neg(reached))
        return reached

    def balance(self) -> None:
        """Add: after every trick, no seat has won more than `gap` tricks more than another."""
        if self.mission.balanced is None:
            return
        gap = self.mission.balanced.gap
        won = [[] for _ in range(self.players)]
        for t in range(self.tricks):
            for p in range(self.players):
                won[p].append(self.wseat[p, t])
            if t + 1 <= gap:
                continue  # no seat can be ahead by more than the tricks played
            for p in range(self.players):
                for q in range(self.players):
                    if p != q:
                        self.model.add(sum(won[p]) - sum(won[q]) <= gap)

    def equivalent_cards(self) -> None:
        """Break the symmetry of interchangeable cards: the lower one goes first.

        Take two cards a < b of one seat and suit, next to each other in that
        seat's hand, that no task or condition tells apart (`tasks.distinct_cards`:
        not task cards, not split by a counter's card sets, no trick values).
        Once every card between them (all held by other seats) is played, a and b
        beat and lose to exactly the same cards, so swapping their tricks keeps the
        play legal and every task, winner and counter unchanged.
        Such a swap raises sum(rank * trick) (an unplayed card counts as trick T),
        so a winning play maximising it never plays b while a is in hand and
        nothing lies between them: requiring that loses no win.
        """
        T = self.tricks
        distinct = distinct_cards(self.mission)
        for p in range(self.players):
            for s in SUITS:
                cards = self.by_suit[p][s]
                for a, b in zip(cards, cards[1:]):
                    if (distinct >> a | distinct >> b) & 1:
                        continue
                    between = [d for d in self.suit_cards[s] if a < d < b]
                    for t in range(T):
                        if t == 0:
                            if not between:
                                self.clause([self.neg(self.x[b][0])])
                            continue
                        still = [self.neg(self.P[d][t - 1]) for d in between]
                        self.clause([self.neg(self.x[b][t]), self.P[a][t - 1]] + still)


def solve(deal: Deal, mission: TaskMission, limits: Limits = Limits()) -> Solution:
    """Decide whether the crew can complete every task of `mission` in `deal`, with CP-SAT.

    Runs one CP-SAT worker. `limits.max_seconds` bounds the whole call (model
    building included) and gives UNKNOWN when it runs out; `limits.max_nodes` is
    ignored (CP-SAT has no branch limit). `nodes` is CP-SAT's branch count.
    Raises UnsupportedMission, naming them, for the rules the model lacks (`unsupported`).
    """
    check_supported(mission)
    began = time.perf_counter()
    if won_after(deal, mission, []):
        return Solution(Outcome.WIN, 0, time.perf_counter() - began, ENGINE)
    built = TaskModel(deal, mission)
    solution = Solution(Outcome.UNKNOWN, 0, 0.0, ENGINE)
    left = None if limits.max_seconds is None else limits.max_seconds - (time.perf_counter() - began)
    if left is None or left > 0:
        solver, status = run_solver(built.model, left)
        solution.nodes = solver.num_branches
        sat = cp_sat()
        if status == sat.INFEASIBLE:
            solution.outcome = Outcome.LOSS
        elif status in (sat.OPTIMAL, sat.FEASIBLE):
            solution.outcome = Outcome.WIN
            solution.tricks, solution.assignment = witness(built, solver)
    solution.seconds = time.perf_counter() - began
    return solution


def run_solver(model: cp_model.CpModel, seconds: float | None):
    """Solve `model` with one worker within `seconds` (None: no limit); return (solver, status)."""
    solver = cp_sat().CpSolver()
    solver.parameters.num_workers = 1
    # Measured on full deals: presolve (with its symmetry detection) and SAT
    # inprocessing cost more than they save on these small, already tight models.
    solver.parameters.cp_model_presolve = False
    solver.parameters.symmetry_level = 0
    solver.parameters.use_sat_inprocessing = False
    if seconds is not None:
        solver.parameters.max_time_in_seconds = seconds
    status = solver.solve(model)
    if status == cp_sat().MODEL_INVALID:
        raise RuntimeError(f"invalid CP-SAT model: {model.validate()}")
    return solver, status


def witness(built: TaskModel, solver: cp_model.CpSolver):
    """Return the played tricks up to the one that wins the mission (`won_after`), and the assignment."""
    deal, mission = built.deal, built.mission

    def value(lit) -> bool:
        return lit if isinstance(lit, bool) else solver.boolean_value(lit)

    tricks, owner = [], {}
    for t in range(built.tricks):
        leader = next(p for p in range(deal.players) if value(built.lead[p, t]))  # the dog-sled driver, maybe
        cards = []
        for k in range(deal.players):
            seat = (leader + k) % deal.players
            cards.append(next(c for c in built.hands[seat] if value(built.x[c][t])))
        winner = trick_winner(leader, cards, deal.players)
        completed = tuple(c for c in cards if c in built.task_of)
        owner.update((c, winner) for c in completed)
        tricks.append(Trick(leader, tuple(cards), winner, completed))
        if won_after(deal, mission, tricks):
            break
    return tricks, {c: owner[c] for c in mission.cards}


def won_after(deal: Deal, mission: TaskMission, tricks: list[Trick]) -> bool:
    """Return True when the mission is won once `tricks` (the first ones of a legal play meeting
    every condition) are played: every task done, every counter settled, and with the balanced
    rule every trick played."""
    total = num_tricks(deal.hands)
    played = card_set(c for trick in tricks for c in trick.cards)
    if not all(played >> c & 1 for c in mission.cards):
        return False
    if mission.balanced is not None and len(tricks) < total:
        return False
    values = [0] * len(mission.counters)
    for number, trick in enumerate(tricks, 1):
        best = winning_card(trick.cards)
        for i, counter in enumerate(mission.counters):
            values[i] += counts_trick(counter, number, card_set(trick.cards), trick.winner, best)
    in_hands = deal.cards & ~played
    return all(
        counter_settled(counter, value, len(tricks) + 1, total, in_hands)
        for counter, value in zip(mission.counters, values)
    )
