"""The CP-SAT model of a Family Adventure mission: can this deal win, and with which turns?

Slots are the mission's positions 1..K (0-based here). Variables:

- `card[p][c]`: card c lies at slot p (one per slot, each card at most once);
- `turn[p]`: the turn (0, 1, ...) that plays slot p; turns go round the table
  from the first seat, so the seat is (first + turn) mod seats. Between two
  consecutive slots the turn grows by 1 plus the hammocks turned over in
  between, or by 0 when special card 3 plays both slots in one turn; all
  hammocks together are at most the mission's number;
- `pick[k]`: the shell's finder turns set-aside special card k face up (one
  of them, when the mission lays the shell's token out). The crew sees which
  token hides the shell and chooses which to turn; finding the shell earlier
  never hurts (the pool card is optional), so the model lets the first hammock
  find it: a picked card is usable from the turn after the first hammock on.
  The DFS turns tokens in every order (solver.family.turns), so the agreement
  tests check this argument;
- `use[k][p]`: special card k is used on slot p's turn (each at most once):
  1 trades before slot p, 3 plays slots p and p+1 in one turn, and 2, 4, 5, 6
  modify the play of slot p;
- the one trade of the game: partner seat, item given, item received (colour
  or special cards); after it, who holds an item is fixed, so holdings need no
  time index: an item is held by its dealt seat, or after the trade by the
  other party if it moved.

Constraints tie these to the rules (solver.family.turns reads them the same
way; docs/family.md) and to the mission's objectives. The search runs on one
worker (parallelism is across deals); a solution becomes a list of turns.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from solver.core.cp_sat import cp_sat
from solver.core.solution import Limits, Outcome
from solver.family.cards import CARD_COUNT, SPECIAL_CARDS, number_of, scan
from solver.family.deal import FamilyDeal
from solver.family.mission import INCREASING, FamilyMission
from solver.family.objectives import linking_rule
from solver.family.rules import DIAGONAL, KNIGHT, STRAIGHT, may_follow
from solver.family.solution import FamilySolution
from solver.family.turns import (
    ANY_CARD,
    DIAGONAL_CARD,
    DOUBLE,
    KNIGHT_CARD,
    MODIFIERS,
    RECEIVE,
    TRADE,
    Play,
    Trade,
    Turn,
    special_item,
)

if TYPE_CHECKING:
    from ortools.sat.python import cp_model


ITEMS = CARD_COUNT + len(SPECIAL_CARDS)
# The cards a step from `last` reaches only with a special card: (last, 4) any card but the plain,
# diagonal and knight's steps; (last, 5) the diagonal steps; (last, 6) the knight's steps.
STEPS = {
    (last, k): [
        c for c in range(CARD_COUNT)
        if c != last and not may_follow(last, c, STRAIGHT) and {
            ANY_CARD: not may_follow(last, c, DIAGONAL) and not may_follow(last, c, KNIGHT),
            DIAGONAL_CARD: may_follow(last, c, DIAGONAL),
            KNIGHT_CARD: may_follow(last, c, KNIGHT),
        }[k]
    ]
    for last in range(CARD_COUNT)
    for k in (ANY_CARD, DIAGONAL_CARD, KNIGHT_CARD)
}
# Presolve costs more than it saves on these small models: 190 -> 63 ms a deal (20 4-player deals
# of 12 cards, 4 required cards; presolve and linearization off), measured when the model was written.
# A model's building, in seconds of work (solver/core/solution.py's Limits): 18 ms median, 20 ms p90 on 90
# random deals of 3-5 players and 6 objectives; CP-SAT's deterministic time then counts as it is (those deals'
# solves took 1.6 wall seconds a unit).
MODEL_WORK = 0.02
PARAMETERS = {"num_workers": 1, "cp_model_presolve": False, "linearization_level": 0,
              "catch_sigint_signal": False}  # Ctrl-C is the caller's: solver/engines/cpsat.py's run_solver says why


@dataclass
class Variables:
    card: list  # [slot][card]
    turn: list  # [slot]
    seat: list  # [slot][seat]
    use: dict  # special -> [slot]
    partner: list  # [seat]
    give: list  # [item]
    receive: list  # [item]


class FamilyModel:
    """The CP-SAT model of one (deal, mission)."""

    def __init__(self, deal: FamilyDeal, mission: FamilyMission):
        self.deal, self.mission = deal, mission
        self.model = cp_sat().CpModel()
        self.slots, self.seats = mission.cards, deal.seats
        self.hammocks = mission.hammocks_for(deal.players)
        self.owner = {c: s for s, hand in enumerate(deal.hands) for c in scan(hand)}
        if mission.specials:
            self.owner |= {special_item(k): s for s, k in enumerate(deal.specials)}
        # the set-aside special cards the shell may put face up (none when its token is not laid out)
        self.shell_cards = tuple(deal.aside) if mission.specials and deal.shell < self.hammocks else ()
        self.v = self.variables()
        self.pick = {k: self.model.new_bool_var(f"pick{k}") for k in self.shell_cards}
        if self.pick:
            self.model.add_exactly_one(self.pick.values())
        self.turn_order()
        self.specials_available()
        self.trade()
        self.holdings()
        self.follow_rule()
        self.objectives()

    def bools(self, count: int, name: str) -> list:
        return [self.model.new_bool_var(f"{name}{i}") for i in range(count)]

    def variables(self) -> Variables:
        m, slots = self.model, self.slots
        card = [self.bools(CARD_COUNT, f"card{p}_") for p in range(slots)]
        for p in range(slots):
            m.add_exactly_one(card[p])
        for c in range(CARD_COUNT):
            m.add_at_most_one(card[p][c] for p in range(slots))
        turn = [m.new_int_var(0, slots + self.hammocks - 1, f"turn{p}") for p in range(slots)]
        seat = [self.bools(self.seats, f"seat{p}_") for p in range(slots)]
        specials = SPECIAL_CARDS if self.mission.specials else ()
        use = {k: self.bools(slots, f"use{k}_") for k in specials}
        for k in specials:
            m.add_at_most_one(use[k])
        return Variables(card, turn, seat, use, self.bools(self.seats, "partner"),
                         self.bools(ITEMS, "give"), self.bools(ITEMS, "receive"))

    def used(self, k: int, p: int):
        """Return the literal 'special k is used at slot p' (false when the mission has no specials)."""
        return self.v.use[k][p] if k in self.v.use else self.model.new_constant(0)

    def turn_order(self) -> None:
        """Turns advance by one per turn; hammocks fill the gaps; card 3 puts two slots in one turn."""
        m, v = self.model, self.v
        hammocks_before = [v.turn[0]]  # hammocks turned over before slot p's turn
        for p in range(1, self.slots):
            gap = m.new_int_var(0, self.hammocks, f"gap{p}")
            double = self.used(DOUBLE, p - 1)
            m.add(v.turn[p] == v.turn[p - 1] + 1 + gap).only_enforce_if(double.Not())
            m.add(v.turn[p] == v.turn[p - 1]).only_enforce_if(double)
            m.add(gap == 0).only_enforce_if(double)
            hammocks_before.append(hammocks_before[-1] + gap)
        m.add(hammocks_before[-1] <= self.hammocks)
        if DOUBLE in v.use:
            m.add(v.use[DOUBLE][self.slots - 1] == 0)
        self.hammocks_before = hammocks_before
        for p in range(self.slots):
            m.add_exactly_one(v.seat[p])
            table_seat = m.new_int_var(0, self.seats - 1, f"table_seat{p}")
            m.add(table_seat == sum(s * v.seat[p][s] for s in range(self.seats)))
            m.add_modulo_equality(table_seat, v.turn[p] + self.deal.first, self.seats)

    def specials_available(self) -> None:
        """The shell's card (the one picked) is usable from the turn after the first hammock; other
        set-aside cards never."""
        m, v = self.model, self.v
        for k in v.use:
            if k in self.pick:
                for p in range(self.slots):
                    m.add_implication(v.use[k][p], self.pick[k])
                    m.add(self.hammocks_before[p] >= 1).only_enforce_if(v.use[k][p])
            elif special_item(k) not in self.owner:
                m.add(sum(v.use[k]) == 0)
        if TRADE in v.use:
            for p in range(1, self.slots):  # the trade opens its turn
                m.add_implication(v.use[TRADE][p], self.used(DOUBLE, p - 1).Not())

    def trade(self) -> None:
        """At most one trade (card 1): between its user and a partner, each giving an item they hold."""
        m, v = self.model, self.v
        traded = sum(v.use[TRADE]) if TRADE in v.use else 0
        m.add(sum(v.partner) == traded)
        m.add(sum(v.give) == traded)
        m.add(sum(v.receive) == traded)
        self.trader = self.bools(self.seats, "trader")  # the seat that plays card 1
        m.add(sum(self.trader) == traded)
        for s in range(self.seats):
            m.add(self.trader[s] + v.partner[s] <= 1)
            for p in range(self.slots):
                m.add_bool_or([self.used(TRADE, p).Not(), v.seat[p][s].Not(), self.trader[s]])
        for item in range(ITEMS):
            holder = self.owner.get(item)
            if holder is None or item == special_item(TRADE):
                m.add(v.give[item] == 0)
                m.add(v.receive[item] == 0)
                continue
            m.add_implication(v.give[item], self.trader[holder])
            m.add_implication(v.receive[item], v.partner[holder])
            gone = self.item_uses(item)
            for p in range(1, self.slots):  # both items are still in play at the trade
                for moved in (v.give[item], v.receive[item]):
                    m.add(moved + self.used(TRADE, p) + sum(gone[:p]) <= 2)
        self.after = {}  # item -> [seat]: who holds it once the trade is done
        for item, holder in self.owner.items():
            after = self.bools(self.seats, f"after{item}_")
            m.add_exactly_one(after)
            m.add(after[holder] == 1 - v.give[item] - v.receive[item])
            for s in range(self.seats):
                m.add_implication(after[s], v.partner[s]).only_enforce_if(v.give[item])
                m.add_implication(after[s], self.trader[s]).only_enforce_if(v.receive[item])
            self.after[item] = after
        self.traded_by = []  # slot p: the trade happened at or before it
        for p in range(self.slots):
            done = m.new_bool_var(f"traded_by{p}")
            m.add(done == sum(self.used(TRADE, q) for q in range(p + 1)))
            self.traded_by.append(done)

    def item_uses(self, item: int) -> list:
        """Return per slot the literal 'the item leaves play at this slot' (played or used)."""
        if item < CARD_COUNT:
            return [self.v.card[p][item] for p in range(self.slots)]
        return [self.used(item - CARD_COUNT + 1, p) for p in range(self.slots)]

    def holds(self, item: int, p: int, conditions: list) -> None:
        """Require, when all `conditions` hold: the player of slot p holds `item` (before the trade: its
        dealt holder; from the trade on: its holder after the trade)."""
        m, v = self.model, self.v
        if TRADE not in v.use:
            m.add_bool_and([v.seat[p][self.owner[item]]]).only_enforce_if(conditions)
            return
        m.add_bool_or([self.traded_by[p], v.seat[p][self.owner[item]]]).only_enforce_if(conditions)
        for s in range(self.seats):
            m.add_bool_or([self.traded_by[p].Not(), v.seat[p][s].Not(), self.after[item][s]]).only_enforce_if(
                conditions
            )

    def holdings(self) -> None:
        """A slot's card comes from its player's hand (or anyone's with card 2); specials from hand or pool."""
        v = self.v
        for p in range(self.slots):
            played_own = [self.used(RECEIVE, p).Not()] if RECEIVE in v.use else []
            for c in range(CARD_COUNT):
                self.holds(c, p, [v.card[p][c]] + played_own)
            for k in v.use:
                if k not in self.pick and special_item(k) in self.owner:
                    self.holds(special_item(k), p, [v.use[k][p]])

    def follow_rule(self) -> None:
        """Number after number or colour after colour, unless card 4, 5 or 6 allows the step.

        Per slot and last card: without card 4, no card outside the straight, diagonal and knight
        steps; without card 5 also no diagonal step, without card 6 no knight's step.
        """
        m, v = self.model, self.v
        for p in range(1, self.slots):
            for last in range(CARD_COUNT):
                after_last = v.card[p - 1][last]
                if not v.use:
                    banned = [c for k in (ANY_CARD, DIAGONAL_CARD, KNIGHT_CARD) for c in STEPS[last, k]]
                    m.add(sum(v.card[p][c] for c in banned) == 0).only_enforce_if(after_last)
                    continue
                for k in (ANY_CARD, DIAGONAL_CARD, KNIGHT_CARD):
                    unless = [after_last, v.use[ANY_CARD][p].Not()] + ([v.use[k][p].Not()] if k != ANY_CARD else [])
                    m.add(sum(v.card[p][c] for c in STEPS[last, k]) == 0).only_enforce_if(unless)

    def played_at(self, c: int, slots) -> object:
        return sum(self.v.card[p][c] for p in slots)

    def objectives(self) -> None:
        m, mission, slots = self.model, self.mission, range(self.slots)
        for c in scan(mission.forbidden):
            m.add(self.played_at(c, slots) == 0)
        for c in scan(mission.anywhere | mission.required):
            m.add(self.played_at(c, slots) == 1)
        for row, cards in enumerate(mission.in_row):
            for c in scan(cards):
                m.add(self.played_at(c, self.row_slots(row)) == 1)
        for position, c in mission.positions:
            m.add(self.v.card[position - 1][c] == 1)
        place = {c: sum(p * self.v.card[p][c] for p in slots) for c in mission.order}
        for before, after in zip(mission.order, mission.order[1:]):
            m.add(place[before] < place[after])
        number = [sum(number_of(c) * self.v.card[p][c] for c in range(CARD_COUNT)) for p in slots]
        for p in range(1, self.slots):
            rule = linking_rule(mission, p)  # between positions p and p + 1, i.e. slots p - 1 and p
            if rule == INCREASING:
                m.add(number[p] > number[p - 1])
            elif rule:
                m.add(number[p] <= number[p - 1])
        for count in mission.counts:
            where = [p for row in (count.rows or range(3)) for p in self.row_slots(row)]
            total = sum(self.played_at(c, where) for c in scan(count.cards))
            m.add(total >= count.at_least)
            if count.at_most is not None:
                m.add(total <= count.at_most)

    def row_slots(self, row: int) -> range:
        length = self.mission.row_length
        return range(row * length, min((row + 1) * length, self.slots))

    def turns(self, solver: cp_model.CpSolver) -> list[Turn]:
        """Return the turns of a solution, hammocks included: when the shell's token is laid out, the
        first hammock finds it and turns over the picked card (none in a mission without special cards)."""
        v, value = self.v, solver.boolean_value
        slot_turns = [solver.value(t) for t in v.turn]
        turns = []
        shell_left = self.deal.shell < self.hammocks
        for t in range(slot_turns[-1] + 1):
            seat = (self.deal.first + t) % self.seats
            mine = [p for p in range(self.slots) if slot_turns[p] == t]
            if not mine:
                card = next((k for k in self.pick if value(self.pick[k])), None)
                turns.append(Turn(seat, hammock=True, shell=shell_left, shell_card=card if shell_left else None))
                shell_left = False
                continue
            swap = None
            if TRADE in v.use and value(v.use[TRADE][mine[0]]):
                partner = next(s for s in range(self.seats) if value(v.partner[s]))
                give = next(i for i in range(ITEMS) if value(v.give[i]))
                receive = next(i for i in range(ITEMS) if value(v.receive[i]))
                swap = Trade(partner, give, receive)
            plays = tuple(
                Play(
                    next(c for c in range(CARD_COUNT) if value(v.card[p][c])),
                    frozenset(k for k in MODIFIERS if k in v.use and value(v.use[k][p])),
                )
                for p in mine
            )
            turns.append(Turn(seat, False, swap, plays))
        return turns


def cpsat_solve(
    deal: FamilyDeal, mission: FamilyMission, limits: Limits = Limits(), fewest_hammocks: bool = False
) -> FamilySolution:
    """Return WIN with the turns of a winning line, LOSS, or UNKNOWN when the budget runs out.

    With `fewest_hammocks`, the line turns over as few hammocks as any winning line can (an
    optimisation the DFS does not do); a WIN found before the budget ran out but not proven
    fewest is still a WIN.
    """
    start = time.perf_counter()
    model = FamilyModel(deal, mission)
    if fewest_hammocks:
        model.model.minimize(model.hammocks_before[-1])
    solver = cp_sat().CpSolver()
    for name, value in PARAMETERS.items():
        setattr(solver.parameters, name, value)
    left = limits.after(MODEL_WORK)
    if left.spent:
        return FamilySolution(Outcome.UNKNOWN, 0, time.perf_counter() - start, "cp-sat", work=MODEL_WORK)
    if left.max_work is not None:
        solver.parameters.max_deterministic_time = left.max_work
    status = solver.solve(model.model)
    sat = cp_sat()
    outcome = {sat.FEASIBLE: Outcome.WIN, sat.OPTIMAL: Outcome.WIN, sat.INFEASIBLE: Outcome.LOSS}
    result = outcome.get(status, Outcome.UNKNOWN)
    turns = model.turns(solver) if result == Outcome.WIN else []
    return FamilySolution(result, solver.num_branches, time.perf_counter() - start, "cp-sat", turns,
                          MODEL_WORK + solver.deterministic_time)
