"""CP-SAT engine: the whole play of a task mission as one Boolean satisfiability model.

Every card has a fixed holder, so a line of play is fixed by when each card is
played. The model asks for a legal full play (all T tricks) in which every task
card is won by its owner and the completion tricks respect the order tokens.
That is equivalent to the mission being won, which ends play at once:

- a won mission extends to a full legal play: after the last task any legal card
  can always be played (the leader plays anything, a follower follows suit or
  plays anything), and the completed tasks, their winners and their completion
  tricks no longer change;
- a full play meeting the conditions wins the mission at the trick completing the
  last task, and fails nothing before: each task trick is won by its owner, the
  per-task prerequisites (`tasks.order_prerequisites`, an exact restatement of
  `tasks.order_broken`) hold, and with a draft every seat wins exactly its draft
  count of task tricks, so the lazy draft never runs out;
- three players: the 14-card hand plays T = 13 of its cards, one card at most
  once each, so exactly one stays unplayed; a task card must be played (a task
  on the unplayed card fails), and the mission ending early never needs that card.

Variables (t = 0..T-1; `P` is the order encoding of `x`):
- x[c][t]: card c is played in trick t; P[c][t]: c is played in trick t or before;
- y[p,s,t]: seat p plays a card of suit s in trick t;
- ge[p,s,k,t]: seat p holds at least k cards of suit s at the start of trick t
  (at most one card per trick, so the counts bound when a seat can be void);
- ledsuit[s,t], win[c,t] (c wins trick t), wseat[p,t] (p wins t, so p leads t+1);
- drafted missions: own[i,p], seat p owns task i.

Redundant parts: the suit counts `ge` (the follow rule reads "holds a card of
the led suit" from them) make hard three-player LOSS proofs about 7x shorter in
branches and over 10x faster; dynamic card equivalence (below) is cheap and
sound, and halves the branches when the counts are left out.
Tried without a clear gain, so left out: per-card follow clauses besides the
counts, an order-encoded "card of rank >= k played" chain for the winner,
reverse winner clauses, exactly-one over the suit a seat plays, per-seat card
sums; clearly worse: a linear x/P link, a fixed play-order search, presolve.

The model knows plain task missions only (`TaskMission.plain`): fixed or drafted
owners and order tokens. `solve` raises `UnsupportedMission` for any other rule,
naming it (`unsupported`): the portfolio sends such missions to the kernel.

`limits.max_seconds` bounds the whole call, model building included; past it
the answer is UNKNOWN. `limits.max_nodes` is ignored: CP-SAT has no branch
limit. `nodes` reports CP-SAT's branch count.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from solver.core.cards import SUITS, TRUMP, scan, suit_of
from solver.core.cp_sat import cp_sat
from solver.core.deal import Deal
from solver.core.errors import UnsupportedMission
from solver.core.rules import num_tricks, trick_winner
from solver.core.solution import Limits, Outcome, Solution, Trick
from solver.missions.tasks import ANYONE, LAZY, TaskMission, order_prerequisites, task_quotas
from solver.trick.variants import NO_RULES

if TYPE_CHECKING:
    from ortools.sat.python import cp_model


ENGINE = "cpsat"
OTHER_ENGINES = "use the auto, kernel or reference engine"
# The rule families of a TaskMission beyond a plain task mission: short name, and in words.
FAMILIES = {
    "assignment": "lazily assigned tasks (an assignment mode's allowed task counts)",
    "anyone-owners": "tasks any player may win (own-trick rules)",
    "trick-counters": "trick counters (tricks, won-cards and scoring rules, the machete)",
    "balanced": "the balanced rule (trick counts within a gap)",
    "random-pass": "the random card pass",
    "sequences": "sequence rules",
    "skis": "the skis",
    "hang-glider": "the hang glider",
    "dog-sled": "the dog sled",
    "fog": "fog",
    "helicopter": "the helicopter",
    "jeep": "the jeep",
    "ghost": "the Ghost's display (two players)",
    "difficult-ghost": "the difficult Ghost",
    "redeal": "the five-player redeal",
    "pattern": "table patterns (special stages)",
    "space": "stage space rules",  # a PlayRules field none of the above names
    "other": "rules beyond a plain task mission",  # a TaskMission field none of the above names
}
SPACE_FAMILIES = {"skis", "hang-glider", "dog-sled", "fog", "helicopter", "jeep", "ghost", "difficult-ghost", "redeal"}


def unsupported(mission: TaskMission) -> dict[str, str]:
    """Return the rule families of `mission` the model lacks (FAMILIES' names and words); empty
    exactly when the mission is plain."""
    if mission.plain:  # the portfolio asks for every case
        return {}
    owners = mission.owners or ()
    space = mission.space
    present = {
        "assignment": LAZY in owners or mission.counts is not None,
        "anyone-owners": ANYONE in owners,
        "trick-counters": bool(mission.counters),
        "balanced": mission.balanced is not None,
        "random-pass": mission.random_pass is not None,
        "sequences": bool(mission.sequences),
        "skis": bool(space.skis),
        "hang-glider": space.hang_glider,
        "dog-sled": space.sled >= 0,
        "fog": bool(space.arrivals),
        "helicopter": bool(space.heli_pass),
        "jeep": bool(space.jeep_after),
        "ghost": space.ghost >= 0 or bool(space.display),
        "difficult-ghost": space.difficult,
        "redeal": bool(space.redeal_after),
        "pattern": mission.pattern is not None,
    }
    families = [name for name, found in present.items() if found]
    if space != NO_RULES and not set(families) & SPACE_FAMILIES:
        families.append("space")
    if not families:  # a field added to TaskMission.plain but not here
        families.append("other")
    return {name: FAMILIES[name] for name in families}


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
        """Create wseat (the winner of t leads t+1) and the led suit of each trick."""
        T = self.tricks
        self.wseat = {(p, t): self.new() for p in range(self.players) for t in range(T)}
        self.lead = {}
        for p in range(self.players):
            self.lead[p, 0] = p == self.deal.commander
            for t in range(1, T):
                self.lead[p, t] = self.wseat[p, t - 1]
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
        """Add: a seat holding a card of the led suit plays that suit."""
        for p in range(self.players):
            for s in SUITS:
                if not self.by_suit[p][s]:
                    continue
                for t in range(self.tricks):
                    holds = self.ge[p, s, 1, t]
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
        """Add: the trick holding a task card is won by its owner (fixed or drafted)."""
        mission, T = self.mission, self.tricks
        if mission.owners is not None:
            for c, owner in zip(mission.cards, mission.owners):
                for t in range(T):
                    self.clause([self.neg(self.x[c][t]), self.wseat[owner, t]])
            return
        quotas = task_quotas(mission, self.deal)
        seats = [p for p in range(self.players) if quotas[p]]
        own = {}
        for i, c in enumerate(mission.cards):
            for p in range(self.players):
                own[i, p] = self.new() if quotas[p] else False
            self.exactly_one([own[i, p] for p in seats])
            for t in range(T):
                for p in range(self.players):
                    # The winner of the task's trick owns it, and only the owner wins it.
                    self.clause([self.neg(self.x[c][t]), self.neg(self.wseat[p, t]), own[i, p]])
                    if quotas[p]:
                        self.clause([self.neg(self.x[c][t]), self.neg(own[i, p]), self.wseat[p, t]])
        for p in seats:
            self.model.add(sum(own[i, p] for i in range(len(mission.cards))) == quotas[p])
        self.own = own

    def tokens(self) -> None:
        """Add: every prerequisite of task j is completed no later than j."""
        cards = self.mission.cards
        for j, before in enumerate(order_prerequisites(self.mission.tokens)):
            for i in scan(before):
                for t in range(self.tricks):
                    self.clause([self.neg(self.P[cards[j]][t]), self.P[cards[i]][t]])

    def equivalent_cards(self) -> None:
        """Break the symmetry of interchangeable cards: the lower one goes first.

        Take two non-task cards a < b of one seat and suit, next to each other in
        that seat's hand. Once every card between them (all held by other seats)
        is played, a and b beat and lose to exactly the same cards, so swapping
        their tricks keeps the play legal and every task and winner unchanged.
        Such a swap raises sum(rank * trick) (an unplayed card counts as trick T),
        so a winning play maximising it never plays b while a is in hand and
        nothing lies between them: requiring that loses no win.
        """
        T = self.tricks
        for p in range(self.players):
            for s in SUITS:
                cards = self.by_suit[p][s]
                for a, b in zip(cards, cards[1:]):
                    if a in self.task_of or b in self.task_of:
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
    Raises UnsupportedMission, naming them, for rules beyond a plain task mission.
    """
    check_supported(mission)
    began = time.perf_counter()
    if not mission.cards:
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
    """Return the played tricks up to the one completing the last task, and the assignment."""
    deal, mission = built.deal, built.mission

    def value(lit) -> bool:
        return lit if isinstance(lit, bool) else solver.boolean_value(lit)

    leader = deal.commander
    tricks, owner = [], {}
    for t in range(built.tricks):
        cards = []
        for k in range(deal.players):
            seat = (leader + k) % deal.players
            cards.append(next(c for c in built.hands[seat] if value(built.x[c][t])))
        winner = trick_winner(leader, cards, deal.players)
        completed = tuple(c for c in cards if c in built.task_of)
        owner.update((c, winner) for c in completed)
        tricks.append(Trick(leader, tuple(cards), winner, completed))
        leader = winner
        if len(owner) == len(mission.cards):
            break
    return tricks, {c: owner[c] for c in mission.cards}
