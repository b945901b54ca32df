"""CP-SAT engine: the whole play of a task mission as one Boolean satisfiability model.

On the train every card has a fixed holder, so a line of play is fixed by when
each card is played; where a stage space moves cards, who holds a card when is
part of the model too (`holds`). The model asks for a legal full play (all T tricks) in which every task
card is won by its owner, the completion tricks respect the order tokens, every
trick counter ends within its bounds, no sequence rule is broken and, with the
balanced rule, the trick counts stay within the gap after every trick. That is
equivalent to the mission being won, which ends play at once:

- a won mission extends to a full legal play: after it any legal card can always
  be played (the leader plays anything, a follower follows suit or plays
  anything); the completed tasks, their winners and their completion tricks no
  longer change, and a mission is won only once every counter is settled
  (`conditions.counter_settled`: its minimum reached, no trick left that could
  count past its maximum), with sequence rules once no card of a rule's `after`
  is left to play, and with the balanced rule after the last trick;
- a full play meeting the conditions wins the mission at the first trick after
  which `won_after` holds, and fails nothing before: each task trick is won by its
  owner, the per-task prerequisites (`tasks.order_prerequisites`, an exact
  restatement of `tasks.order_broken`) hold, the lazily assigned tasks' per-seat
  counts end under an allowed vector, so they never outgrow one; a counter only
  grows, so it is never over its maximum before the end, and a minimum the end
  meets was never out of reach; the balance holds after every trick;
- three players: the 14-card hand plays T = 13 of its cards, one card at most
  once each, so exactly one stays unplayed; a task card must be played (a task
  on the unplayed card fails), and the mission ending early never needs that card;
- the passes after the winning trick (helicopter, jeep) are any the crew may make:
  there is always one, and nothing after the mission is won matters.

Variables (t = 0..T-1; `P` is the order encoding of `x`):
- x[c][t]: card c is played in trick t; P[c][t]: c is played in trick t or before
  (under fog both false before the card reaches its hand);
- holds[c,p,t]: seat p holds c, unplayed, when trick t starts: on the train its
  dealt holder while unplayed; on the skis its dealt hand, turned one seat left per
  trick with a skis card before t; with passes a literal per seat, carried over each
  trick boundary: kept unless played or passed, or received (mission 12: each seat
  gives the first card it holds in the ordering drawn with the deal to its left; a
  heli trick: each seat gives one card of its choice to its left; the jeep: two each into the
  middle, whose k-th lowest card goes to the shuffle's k-th seat, its place being
  the number of lower cards in the middle); plays[c,p,t]: p plays c in trick t;
- y[p,s,t]: seat p plays a card of suit s in trick t;
- ge[p,s,k,t]: seat p holds at least k cards of suit s at the start of trick t
  (at most one card per trick, so the counts bound when a seat can be void; only
  while cards neither move nor arrive, else the follow rule sums `holds`);
- ledsuit[s,t], win[c,t] (c wins trick t), wseat[p,t] (p wins t, so p leads t+1);
- lazily assigned tasks (a draft, an assignment mode): own[c,p], seat p owns task c;
- a trick counter: one literal per trick, "trick t matches" (its winner, its
  winning card, a reified count of its `containing` cards and of its value, and
  Deep Sea's "as many cards of `as_many` as of `containing`"), or per card with
  `count_cards`; the bounds are linear constraints over them, and Deep Sea's
  comparisons linear constraints over two counters' literals;
- Deep Sea's run rules: clauses over wseat (no window of `at_most` + 1 tricks all
  won by the seat; some window of `at_least`), its lead rules: clauses over the
  seat's leads.

Redundant parts: the suit counts `ge` (the follow rule reads "holds a card of
the led suit" from them) make hard three-player LOSS proofs about 7x shorter in
branches and over 10x faster; dynamic card equivalence (below) is cheap and
sound, and halves the branches when the counts are left out. A special mission's
clean tricks ("no 1 and no 2": at least k tricks holding none of a set) get the
places the other tricks have to spare for other cards (`places_to_spare`, the
kernel's `room_wasted`): its 1,000 deals on every space at 3-5 players left 27
scores at a proven lower bound instead of 55 within the 2 s budget (the
helicopter with 5 players 14 instead of 33), every exact score the same, and one
helicopter deal's refutation of a sixth clean trick took CP-SAT 0.78 s instead of
2.9 (52k branches instead of 94k).
Tried without a clear gain, so left out: per-card follow clauses besides the
counts, an order-encoded "card of rank >= k played" chain for the winner,
reverse winner clauses, exactly-one over the suit a seat plays, per-seat card
sums; clearly worse: a linear x/P link, a fixed play-order search, presolve,
and beside the places, each seat's count of a clean-trick set's cards it plays
(at most the spoiled tricks; exactly, with no place to spare: 1.5-1.8x the time).

Why CP-SAT, and a model a deal (measured on crew bench's LOSS sets, the deals the kernel's 50,000 plays
leave open, 40 deals a set, the solvers taking turns deal by deal; python-sat 1.9's CaDiCaL 1.5.3):
- this model as CNF (its clauses, `exactly_one` pairwise or as a sequential counter) in CaDiCaL: LOSS
  medians 31 / 124 / 69 / 20 ms (4 players, 10 / 12 / 14 tasks; 5 players, 10) against CP-SAT's 27 / 46 /
  28 / 18 on the same models, from 3-11x CP-SAT's conflicts (e.g. 2,284 against 289), before the 7-9 ms of
  Python writing the CNF; CP-SAT's own probing pays for it here (probing off: WIN median 22 -> 13 ms,
  LOSS 24 -> 30);
- one CNF per table shape (every holding a literal, each deal's hands and tasks assumptions, one
  incremental solver kept for the shape; a prototype of the play's clauses, without suit counts or card
  equivalence), the route to no model building per deal: LOSS medians 185 / 144 / 339 / 81 ms in CaDiCaL
  (Glucose 4 and MiniSat 2.2 alike) against the default engine's 38 / 1.5 / 44 / 27 on the same deals, all
  answers agreeing: 3-10x slower before the parts that make this model fast, which read the holders.

The model knows the missions `modelled` names: tasks with fixed, drafted, lazily
assigned or anyone's owners, order tokens, trick counters of every kind, the
balanced rule, sequence rules, mission 12's random pass, and Deep Sea's comparisons,
runs, lead rules and as-many tricks (those on no stage space: Deep Sea is played on
none); on the train, the dog
sled (its driver may open any trick), the hang glider (a set-aside card does not
count for following suit), fog, the skis, the helicopter or the jeep (one way of
moving cards at a time, as each space has, but for mission 12's random pass on the skis:
the pass, then the skis, after trick 1, `skis_turn`; without the Ghost, with the helicopter's
passes, the random pass first, and before the jeep's exchange), and the Ghost's display with two
players (a face-down card exists from the trick after the card over it; the skis pass the players'
hands around him; in mission 12's random pass he gives a face-up card, and there and on the helicopter and
the jeep a card he gets lies where his lay, `face_down_passed`; the difficult Ghost's leads after a trick he
won, `difficult_leads`); a
special stage's table pattern alone (`table_pattern`: the pattern's automaton over the table cards, a
literal per state; the five-player redeal
aside); and positions in the middle of a game, whose plays and the crew's passes and
table cards among them it fixes as the play's first (`TaskModel.position`): on
42 Deep Sea positions off winning lines that the kernel left UNKNOWN at 2M plays
(39 won, 3 lost; the portfolio's turns, the kernel alone then, took 350 s and left
12 UNKNOWN at 10 s), CP-SAT decided all in 2.6 s. `solve` raises
`UnsupportedMission` for any other rule (a jeep the Ghost may lack two face-up cards
for, a table pattern with tasks, conditions or passes, the redeal, Deep Sea's
rules on a stage space), naming
it (`unsupported`): the portfolio sends such missions to the kernel alone. The play
part of a model (`TaskModel.play_only`) is built and read once for the missions of
one deal, rules of play and position (`play_model`).

The cases of one deal (a Deep Sea draft's assignments, a card's holder the crew
chooses) can be one model (`CasesModel`, `solve_cases`) when each case's demands
hold apart: a literal per case, exactly one chosen, and each distinct demand
enforced by a literal that every case having it implies.

`limits.max_work` bounds the whole call in seconds of work (solver/core/solution.py): a model's
building and reading (`CP_SAT_MODEL_WORK`), then CP-SAT's deterministic time (`CP_SAT_SECONDS_PER_UNIT`
a unit); past it the answer is
UNKNOWN. `limits.max_nodes` is ignored: CP-SAT has no branch limit. `nodes` reports CP-SAT's branch count.
"""

from __future__ import annotations

import dataclasses
import time
from typing import TYPE_CHECKING

from solver.core.cards import CARD_COUNT, SUITS, TRUMP, card_set, rank_of, scan, suit_of
from solver.core.cp_sat import BoolModel, literal_value, sat_helper
from solver.core.deal import Deal
from solver.core.errors import UnsupportedMission
from solver.core.rules import num_tricks, trick_winner
from solver.core.solution import CP_SAT_MODEL_WORK, CP_SAT_SECONDS_PER_UNIT, Limits, Outcome, Solution, Trick
from solver.engines.reference import walk
from solver.missions.conditions import (
    NO_LIMIT,
    TrickCounter,
    comparison_settled,
    counter_room,
    counter_settled,
    counter_values,
    run_after,
    run_settled,
)
from solver.missions.tasks import (
    ANYONE,
    LAZY,
    TaskMission,
    allowed_counts,
    deep_sea_families,
    distinct_cards,
    order_prerequisites,
)
from solver.trick.variants import ANY_CARD, NO_RULES, PlayRules

if TYPE_CHECKING:
    from ortools.sat.python import cp_model_helper


ENGINE = "cpsat"
OTHER_ENGINES = "use the auto, kernel or reference engine"
# The rule families of a TaskMission the model lacks: short name, and in words.
FAMILIES = {
    "moves-combined": "cards moving in more than one way (fog, the skis, passes; but mission 12's pass on the skis, "
                      "and without the Ghost with the helicopter's or before the jeep's)",
    "ghost": "the Ghost on a jeep he may lack two face-up cards for",
    "redeal": "the five-player redeal",
    "pattern": "table patterns with tasks, trick conditions or passes",
    "deep-sea-space": "Deep Sea's rules (comparisons, runs, lead rules, as-many tricks) with a stage space or a "
                      "random pass",
    "space": "stage space rules",  # a PlayRules field none of the above names
    "other": "rules beyond what the model knows",  # a TaskMission field none of the above names
}
SPACE_FAMILIES = {"moves-combined", "ghost", "redeal"}


def unsupported(mission: TaskMission) -> dict[str, str]:
    """Return the rule families of `mission` the model lacks (FAMILIES' names and words); empty
    exactly when it has none of them (`modelled`)."""
    if modelled(mission):  # the portfolio asks for every case
        return {}
    space = mission.space
    present = {
        "moves-combined": moves_combined(mission),
        "ghost": ghost_with_moves(mission),
        "redeal": bool(space.redeal_after),
        "pattern": pattern_with_more(mission),
        "deep-sea-space": deep_sea_off_the_train(mission),
    }
    families = [name for name, found in present.items() if found]
    if without_modelled_rules(mission) != NO_RULES and not set(families) & SPACE_FAMILIES:
        families.append("space")
    if not families:  # a field added to `modelled` but not here
        families.append("other")
    return {name: FAMILIES[name] for name in families}


def modelled(mission: TaskMission) -> bool:
    """Return True for the missions the model knows: tasks (fixed, drafted, lazily assigned within
    allowed counts, or anyone's) with order tokens, trick counters, the balanced rule, sequence
    rules and the random pass, on the train or a stage space that changes play, and the Ghost
    (`without_modelled_rules`); one way of moving cards at a time."""
    return (not moves_combined(mission) and without_modelled_rules(mission) == NO_RULES and not pattern_with_more(mission)
            and not deep_sea_off_the_train(mission))


def without_modelled_rules(mission: TaskMission) -> PlayRules:
    """Return the mission's rules of play without those the model knows: the dog sled, the hang glider,
    fog, the skis, the helicopter or the jeep, each alone (as a stage space sets them), and the
    Ghost's display (the difficult Ghost's too) but where `ghost_with_moves`."""
    space = mission.space
    if not ghost_with_moves(mission):
        space = dataclasses.replace(space, ghost=-1, display=(), difficult=False)
    return dataclasses.replace(space, sled=-1, hang_glider=False, arrivals=(), skis=0, heli_pass=0, jeep_after=0,
                               jeep_order=())


def deep_sea_off_the_train(mission: TaskMission) -> bool:
    """Return True for Deep Sea's rules with a stage space's rules or a random pass: Deep Sea is played on
    no stage, and the model reads what a lead rule's seat still holds from its dealt hand (`won_after`)."""
    return bool(deep_sea_families(mission)) and (mission.space != NO_RULES or mission.random_pass is not None)


def pattern_with_more(mission: TaskMission) -> bool:
    """Return True for a table pattern with tasks, trick conditions or cards that change hands: a special stage
    has none of them (the reference and the kernel read its pattern alone), so the model knows the pattern only
    alone."""
    demands = (mission.cards, mission.counters, mission.balanced, mission.sequences, mission.comparisons, mission.runs,
               mission.leads, mission.random_pass, mission.space.heli_pass, mission.space.jeep_after)
    return mission.pattern is not None and any(demands)


def ghost_with_moves(mission: TaskMission) -> bool:
    """Return True for the Ghost where cards change hands in a way the model does not know: a jeep he may lack two
    face-up cards for (a column empties after two of his plays; the rules' seven columns and trick 3 always leave
    him five or more), which leaves a won mission no legal play to the end. The skis pass the players' hands only,
    around him; the random pass (`face_up_kept`), the helicopter's and the jeep's passes: `face_down_passed`, the
    difficult Ghost's leads there too (`difficult_leads` over its places)."""
    space = mission.space
    columns = len(space.display) // 2
    moves = bool(space.jeep_after) and columns - space.jeep_after // 2 < 2
    return (space.ghost >= 0 or bool(space.display)) and bool(moves)


def moves_combined(mission: TaskMission) -> bool:
    """Return True when cards reach or leave hands in more than one way the model does not join (mission 12's
    random pass under fog, with the Ghost on the helicopter or the jeep, or at or after the jeep's exchange): no
    stage space does that alone. It joins the random pass and the skis (`skis_turn`), and without the Ghost the
    random pass and the helicopter's passes (after the same trick, the random pass first) or before the jeep's
    exchange (`pass_vars`)."""
    space, chance = mission.space, mission.random_pass
    ways = [bool(space.arrivals), bool(space.heli_pass), bool(space.jeep_after), bool(space.skis), chance is not None]
    joined = chance is not None and (bool(space.skis) or space.ghost < 0 and (
        bool(space.heli_pass) or bool(space.jeep_after) and chance.after < space.jeep_after))
    return sum(ways) > 1 + joined


def check_supported(mission: TaskMission) -> None:
    """Raise UnsupportedMission naming every rule family of `mission` the model lacks."""
    missing = unsupported(mission)
    if missing:
        raise UnsupportedMission(ENGINE, tuple(missing), tuple(missing.values()), OTHER_ENGINES)


class TaskModel:
    """Build the CP-SAT model of one deal and mission: the play of the deal under the mission's rules of play
    (`play_only`), then the mission's demands over its literals.

    The play part depends only on the deal and the rules of play, so the cases of one deal (a Deep Sea
    draft's assignments, the Commander's choices) share it: `play_model` builds it and reads it into CP-SAT's
    proto once, and each mission's model (`play` given) adds its own variables and constraints to a copy.
    """

    def __init__(self, deal: Deal, mission: TaskMission, play: TaskModel | None = None):
        """Build the model of `mission` on `deal`, over `play` (`play_only` of the same deal and rules of
        play, read only) when given: then `model` holds only what the mission adds (BoolModel.extension)."""
        check_supported(mission)
        if play is None:
            play = TaskModel.play_only(deal, mission)
            model = play.model  # a play of its own: the mission's parts go on in the same model
        else:
            model = play.model.extension()
        vars(self).update(vars(play))  # its literals and tables; none is changed below
        self.model = model
        self.add_demands(mission)
        self.equivalent_cards(kept_apart(mission))

    def add_demands(self, mission: TaskMission, when=None) -> None:
        """Add the demands of `mission` (its tasks, tokens, counters, comparisons, runs, lead rules, balance and
        sequence rules) over the play; each only when the literal `when` holds (None: always)."""
        self.of_mission(mission)
        self.when = when
        self.tasks_played()
        self.owners()
        self.tokens()
        self.trick_counters()
        self.comparisons()
        self.run_rules()
        self.lead_rules()
        self.balance()
        self.sequence_rules()
        self.table_pattern()
        self.when = None

    def of_mission(self, mission: TaskMission) -> None:
        """Make `mission` the one the model's demands and its witness (`witness`) read."""
        self.mission = mission
        self.task_of = {c: i for i, c in enumerate(mission.cards)}

    @staticmethod
    def play_only(deal: Deal, mission: TaskMission) -> TaskModel:
        """Return the model of the play of `deal` under `mission`'s rules of play (its space and random pass
        only), with no demand of the mission."""
        built = object.__new__(TaskModel)
        built.build_play(deal, mission)
        return built

    def build_play(self, deal: Deal, mission: TaskMission) -> None:
        self.when = None  # no condition on the constraints added (`add_demands`)
        self.deal = deal
        self.mission = mission  # its space and random pass: the play part reads nothing else of it
        self.model = BoolModel()
        self.players = deal.players
        self.tricks = num_tricks(deal.hands)
        self.hands = [list(scan(hand)) for hand in deal.hands]
        self.holder = {c: p for p, hand in enumerate(self.hands) for c in hand}
        self.by_suit = [[[c for c in hand if suit_of(c) == s] for s in SUITS] for hand in self.hands]
        self.suit_cards = [[c for c in sorted(self.holder) if suit_of(c) == s] for s in SUITS]
        space = mission.space
        # How cards move between hands: never (the train, the dog sled, the hang glider, fog),
        # whole hands (the skis) or one by one (mission 12's random pass, the helicopter's and the
        # jeep's passes).
        self.trades = mission.trades
        self.fixed = not self.trades and not space.skis
        self.arrival = space.arrivals or (0,) * CARD_COUNT
        self.ghost = space.ghost
        # The Ghost's face-down cards: each under the face-up card of its column.
        columns = len(space.display) // 2
        self.under = dict(zip(space.display[columns:], space.display[:columns]))
        self.passes = {}  # trick t -> {(card, seat): "seat passes card after t"}: the crew's passes (the line's)
        self.given = {}  # trick t -> the same for every pass, mission 12's random pass too
        self.received = {}  # trick t -> {(card, seat): "seat receives card after t"}
        # The Ghost's display where cards are passed (`face_down_passed`), trick t -> {(card, place): literal}: the
        # card he passed after t lay in that place of the display (`covering`), the card he got lies there
        # (`landing`); the witness writes his jeep pair in the order that places the cards he got.
        self.covering, self.landing = {}, {}
        self.slot_at = {}  # trick t -> per place of the display, {card: "it lies there when t starts"} (passes only)
        self.tabled = {}  # (card, trick t) -> "card is laid on the table after t" (a table pattern: `table_pattern`)
        self.play_vars()
        self.holding_vars()
        self.seat_plays()
        self.suit_vars()
        self.counted = self.fixed and not space.arrivals  # the suit counts `ge` hold
        if self.counted:
            self.count_vars()
        self.lead_vars()
        self.follow_suit()
        self.winners()
        if space.difficult:
            self.difficult_leads()
        self.position(mission.played, mission.chosen)

    def position(self, played: tuple[int, ...], chosen) -> None:
        """Add a position's plays and the crew's passes among them as the play's first: each card played by
        its seat in its trick, each trick begun opened by the seat of its first card (the dog-sled driver,
        maybe), each card passed after a trick by its seat (`TrickChoices.passed`: seat by seat from seat 0, as
        many cards each, ANY_CARD for a seat's left to the crew); its table cards are a table pattern's (`table_pattern`). The rest of the model is unchanged: a
        position is lost exactly when no full play that begins with its plays and passes meets the mission."""
        seats = walk(self.deal, self.mission).seats if played else ()  # checks the position, as every engine does
        for ply, (c, p) in enumerate(zip(played, seats)):
            t = ply // self.players
            self.clause([self.plays[c, p, t]])
            if ply % self.players == 0:
                self.clause([self.lead[p, t]])
        for t, choices in enumerate(chosen):
            each = len(choices.passed) // self.players
            for k, c in enumerate(choices.passed):
                if c != ANY_CARD:  # a seat's pass left to the crew: its literals stay free
                    self.clause([self.passes[t][c, k // each]])
            pair = choices.passed[2 * self.ghost : 2 * self.ghost + 2] if self.ghost >= 0 else ()
            if t + 1 == self.mission.space.jeep_after and len(pair) == 2 and ANY_CARD not in pair:
                self.ghost_pair_placed(t, pair)

    def ghost_pair_placed(self, t: int, pair: tuple[int, int]) -> None:
        """Add: the Ghost's jeep pair made after trick t, in its order, places the cards he gets, the lower in the
        place of the first (`variants.jeep_exchanges`; `face_down_passed` leaves the places to the crew)."""
        ghost = self.ghost
        got = [(c, lit) for (c, p), lit in self.received[t].items() if p == ghost and lit is not False]
        lowest = {c: self.all_of([lit] + [self.neg(other) for d, other in got if d < c]) for c, lit in got}
        for (c, j), lands in self.landing.get(t, {}).items():
            for placed, lower in zip(pair, (True, False)):
                taken = lowest[c] if lower else self.all_of([self.received[t][c, ghost], self.neg(lowest[c])])
                self.clause([self.neg(self.covering[t].get((placed, j), False)), self.neg(taken), lands])

    # --- literal helpers: constants are Python bools, folded away here -----------

    def new(self) -> int:
        """Return a new Boolean variable."""
        return self.model.new()

    @staticmethod
    def neg(lit):
        """Return the negation of a literal or of a Python bool constant."""
        return (lit is False) if lit is True or lit is False else -lit - 1

    def clause(self, lits) -> None:
        """Add OR(lits), skipping it when a constant makes it true; while a mission's demands are added
        only when their literal holds (`add_demands`), OR(not when, lits)."""
        kept = [] if self.when is None else [self.neg(self.when)]
        for lit in lits:
            if lit is True:
                return
            if lit is not False:
                kept.append(lit)
        self.model.bool_or(kept)

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
        self.model.bool_and(kept, None if a is True else a)

    def exactly_one(self, lits) -> None:
        """Add exactly one of lits true; a true constant makes all others false."""
        kept = [lit for lit in lits if lit is not False]
        if any(lit is True for lit in kept):
            others = [self.neg(lit) for lit in kept if lit is not True]
            if len(kept) - len(others) > 1:
                self.clause([])
            elif others:
                self.model.bool_and(others)
            return
        self.model.exactly_one(kept)

    # --- the play ----------------------------------------------------------------

    def play_vars(self) -> None:
        """Create x and P: each card is played at most once, not before it reaches its hand (fog)."""
        T = self.tricks
        self.x, self.P = {}, {}
        spare_anywhere = len(self.holder) > T * self.players
        for hand in self.hands:
            # Only the 3-player 14-card hand keeps a card (with passes, whoever ends with 14);
            # task cards are always played (`tasks_played`).
            spare = spare_anywhere if self.trades else len(hand) > T
            for c in hand:
                arrives = self.arrival[c]
                P = [False if t < arrives else self.new() for t in range(T - 1)]
                P.append(self.new() if spare else True)
                x = [P[0]]
                for t in range(1, T):
                    self.clause([self.neg(P[t - 1]), P[t]])
                    if P[t] is True or P[t] is False or P[t - 1] is False:
                        x.append(self.all_of([P[t], self.neg(P[t - 1])]))
                        continue
                    played = self.new()
                    self.implies(played, [P[t], self.neg(P[t - 1])])
                    self.clause([self.neg(P[t]), P[t - 1], played])
                    x.append(played)
                self.x[c], self.P[c] = x, P

    def unplayed(self, c: int, t: int):
        """Return the literal "card c is not played before trick t"."""
        return True if t == 0 else self.neg(self.P[c][t - 1])

    def holding_vars(self) -> None:
        """Create holds[c, p, t]: seat p holds card c, unplayed and arrived, when trick t starts.

        A dealt card stays in its hand (under fog from its arrival on); on the skis a hand sits
        as many seats to the left as tricks with a skis card were played before t; with passes,
        the seat holding a card is a literal, carried from trick to trick (`pass_vars`).
        """
        T, n = self.tricks, self.players
        self.holds = {}
        if self.fixed:
            for c, p in self.holder.items():
                for t in range(T):
                    self.holds[c, p, t] = self.unplayed(c, t) if t >= self.arrival[c] else False
            self.face_down()
            return
        if not self.trades:
            skis = [c for c in scan(self.mission.space.skis) if c in self.holder]
            # The hands turn once after each trick holding a skis card, skipping the Ghost, whose display stays.
            movers = [p for p in range(n) if p != self.ghost]
            turns = [(1, self.any_of([self.x[c][t] for c in skis])) for t in range(T)]
            for t in range(T):
                at_least = [self.sum_at_least(turns[:t], r) for r in range(len(skis) + 2)]
                turned = [self.all_of([at_least[r], self.neg(at_least[r + 1])]) for r in range(len(skis) + 1)]
                for c, h in self.holder.items():
                    for p in range(n):
                        self.holds[c, p, t] = self.unplayed(c, t) if p == h == self.ghost else False
                    if h == self.ghost:
                        continue
                    for shift in range(len(movers)):
                        rotated = self.any_of([lit for r, lit in enumerate(turned) if r % len(movers) == shift])
                        seat = movers[(movers.index(h) + shift) % len(movers)]
                        self.holds[c, seat, t] = self.all_of([self.unplayed(c, t), rotated])
            self.face_down()
            return
        for c, holder in self.holder.items():
            for p in range(n):
                self.holds[c, p, 0] = p == holder
        for t in range(T - 1):
            self.pass_vars(t)
            for c in self.holder:
                # An unplayed card is in exactly one hand (redundant: the passes keep it so).
                self.exactly_one([self.neg(self.unplayed(c, t + 1))] + self.holders(c, t + 1))
        if self.ghost >= 0:
            self.face_down_passed()

    def face_down(self) -> None:
        """The Ghost's display (`variants.ghost_playable`): a face-down card exists, for playing and
        for following suit, only from the trick after the one holding the card over it."""
        for c, over in self.under.items():
            for t in range(self.tricks):
                turned = self.P[over][t - 1] if t else False
                self.holds[c, self.ghost, t] = self.all_of([self.holds[c, self.ghost, t], turned])
                self.clause([self.neg(self.x[c][t]), turned])

    def face_down_passed(self) -> None:
        """The Ghost's display where cards are passed (mission 12's random pass, the helicopter, the jeep): a
        face-down card exists, for playing, passing and following suit, only while no card lies on it. Each card
        of his lies in a place of the display (`slot_at`: its index in `space.display`, a column's upper place or
        the one under it), from the deal until he plays or passes it; a card he gets lies where his lay
        (docs/missions.md, "Stage spaces with the Ghost"; on the jeep the two he draws lie in the places of the two
        he put in, which goes where the crew's choice: "the Scout choosing which goes where"). A face-down card is
        never passed while covered, and a card he gets in the place under a column (its face-down card, uncovered,
        passed) never gets covered: an upper place is filled only in place of the card he passed from it; the
        difficult Ghost's leads read which column a card lies in (`difficult_leads`), the ordinary Ghost's play only
        what covers a face-down card, so for him the places under the columns are not tracked.
        `holds` here is the Ghost's holding whole; this narrows it to what he may play."""
        ghost, display = self.ghost, self.mission.space.display
        columns = len(display) // 2
        # Place s: card -> "it lies there, in his hand". Where his places read nothing but what covers a face-down
        # card (the ordinary Ghost), the places under the columns are left out: with them CP-SAT left 6 best scores
        # of "no 1 and no 2" on the two-player helicopter at a bound instead of 1 (1,000 deals, 2 s).
        tracked = 2 * columns if self.mission.space.difficult else columns
        lying = [{c: True} if s < tracked else {} for s, c in enumerate(display)]
        for t in range(self.tricks):
            self.slot_at[t] = [dict(place) for place in lying]
            given, received = self.given.get(t, {}), self.received.get(t, {})
            for j, under in enumerate(display[columns:]):
                covered = self.any_of(list(lying[j].values()))
                self.holds[under, ghost, t] = self.all_of([self.holds[under, ghost, t], self.neg(covered)])
                self.clause([self.neg(self.x[under][t]), self.neg(covered)])
            lying = [{c: self.all_of([lit, self.neg(self.x[c][t])]) for c, lit in place.items()} for place in lying]
            for j, under in enumerate(display[columns:]):
                self.clause([self.neg(given.get((under, ghost), False)), self.neg(self.any_of(list(lying[j].values())))])
            moved = []  # place s: "he passed the card lying there after trick t"
            for s, place in enumerate(lying):
                covering = {c: self.all_of([lit, given.get((c, ghost), False)]) for c, lit in place.items()}
                self.covering.setdefault(t, {}).update({(c, s): lit for c, lit in covering.items()})
                moved.append(self.any_of(list(covering.values())))
                lying[s] = {c: self.all_of([lit, self.neg(given.get((c, ghost), False))]) for c, lit in place.items()}
            got = [c for (c, p), lit in received.items() if p == ghost and lit is not False]
            lands = {}  # (card, place) -> "the card he got lies there"
            for s, passed in enumerate(moved):
                if passed is False or not got:
                    continue
                for c in got:
                    lands[c, s] = self.new()
                    self.implies(lands[c, s], [received[c, ghost], passed])
                    lying[s][c] = self.any_of([lying[s].get(c, False), lands[c, s]])
                self.exactly_one([self.neg(passed)] + [lands[c, s] for c in got])
            for c in got:
                self.model.linear([(1, lit) for (d, _), lit in lands.items() if d == c], None, 1)
            self.landing[t] = lands

    def holders(self, c: int, t: int) -> list:
        """Return the literals "seat p holds card c when trick t starts" that are not constantly false."""
        return [lit for p in self.seats_of(c) if (lit := self.holds[c, p, t]) is not False]

    def pass_vars(self, t: int) -> None:
        """Create holds[., ., t + 1] from trick t's holds: what is not played stays, but for the
        cards passed right after trick t (`chance.RandomPass`, `variants.heli_passes`,
        `variants.jeep_exchanges`).

        Mission 12: after trick `random_pass.after` each seat gives the first card of its hand
        in the ordering drawn with the deal to the seat on its left. Helicopter: after a trick
        holding a heli (not the last), each seat gives one card of its hand to the seat on its
        left. Jeep: after trick `jeep_after` each seat puts two cards in the middle, and the
        middle's k-th lowest card goes to seat `jeep_order[k]`.
        """
        space, n, random_pass = self.mission.space, self.players, self.mission.random_pass
        kept = {(c, p): self.all_of([self.holds[c, p, t], self.neg(self.x[c][t])]) for c in self.holder for p in range(n)}
        if random_pass is not None and t + 1 == random_pass.after:  # mission 12's: chance, not a move of the line
            given = self.first_in_order(self.face_up_kept(kept, t), random_pass.order)
            kept = self.passed(t, kept, given, {(c, (p + 1) % n): give for (c, p), give in given.items()})
            # the helicopter's pass after the same trick comes after it (reference.py: the crew's passes follow
            # `between_tricks`); the jeep's exchange never does (`moves_combined`)
        if t + 1 == space.jeep_after:
            given = self.gives(kept, True)
            for p in range(n):
                self.model.linear([(1, give) for (c, q), give in given.items() if q == p], 2, 2)
            received = self.jeep_middle(given)
        else:
            due = self.any_of([self.x[c][t] for c in scan(space.heli_pass) if c in self.holder])
            given = self.gives(kept, due) if due is not False else {}
            for p in range(n if given else 0):
                self.exactly_one([self.neg(due)] + [give for (c, q), give in given.items() if q == p])
            received = {(c, (p + 1) % n): give for (c, p), give in given.items()}
        if given or t not in self.given:
            self.passes[t] = given  # the crew's passes, part of the line (Trick.passed)
            kept = self.passed(t, kept, given, received)
        for (c, p), keep in kept.items():
            self.holds[c, p, t + 1] = keep
        self.skis_turn(t)

    def passed(self, t: int, kept: dict, given: dict, received: dict) -> dict:
        """Return `kept` ({(card, seat): "seat holds card"}) after a pass after trick t of the cards `given`, each
        going where `received` says; the pass is trick t's in `given` and `received` (the Ghost's places read them)."""
        self.given[t], self.received[t] = given, received
        return {(c, p): self.any_of([self.all_of([keep, self.neg(given.get((c, p), False))]),
                                     received.get((c, p), False)]) for (c, p), keep in kept.items()}

    def skis_turn(self, t: int) -> None:
        """With mission 12's random pass on the skis: after a trick t holding a skis card every hand but the Ghost's
        moves one seat to the left, after the pass (reference.py, `between_tricks`; `holds[., ., t + 1]` as the pass
        left them)."""
        skis = [c for c in scan(self.mission.space.skis) if c in self.holder]
        turned = self.any_of([self.x[c][t] for c in skis])
        if turned is False:
            return
        movers = [p for p in range(self.players) if p != self.ghost]
        for c in self.holder:
            before = {p: self.holds[c, p, t + 1] for p in movers}
            for k, p in enumerate(movers):
                giver = movers[k - 1]  # the seat on p's right, whose hand p gets
                self.holds[c, p, t + 1] = self.any_of([self.all_of([turned, before[giver]]),
                                                        self.all_of([self.neg(turned), before[p]])])

    def face_up_kept(self, kept: dict, t: int) -> dict:
        """Return `kept` ({(card, seat): "seat keeps card after trick t"}) with the Ghost's face-down cards still
        covered left out: mission 12's random pass has him give a face-up card (docs/missions.md). It is the only
        pass of its mission (`moves_combined`), so the card over a face-down one is the one dealt there."""
        if self.ghost < 0:
            return kept
        under = {bottom: top for bottom, top in self.under.items() if (top, self.ghost) in kept}
        return {(c, p): lit if p != self.ghost or c not in under else self.all_of([lit, self.neg(kept[under[c], p])])
                for (c, p), lit in kept.items()}

    def first_in_order(self, kept: dict, order: tuple[int, ...]) -> dict:
        """Return {(card, seat): "seat passes card"} for mission 12's random pass: each seat gives the
        first card it keeps in `order` (`chance.RandomPass.given`)."""
        given = {}
        for p in range(self.players):
            earlier = []
            for c in order:
                if kept.get((c, p), False) is not False:
                    given[c, p] = self.all_of([kept[c, p]] + [self.neg(lit) for lit in earlier])
                    earlier.append(kept[c, p])
        return given

    def gives(self, kept: dict, due) -> dict:
        """Return {(card, seat): "seat passes card"} over the cards each seat keeps after the trick,
        a pass only when `due` holds."""
        given = {}
        for key, keep in kept.items():
            if keep is not False:
                given[key] = self.new()
                self.implies(given[key], [keep, due])
        return given

    def jeep_middle(self, given: dict) -> dict:
        """Return {(card, seat): "seat takes card from the jeep's middle"}: the middle's cards, lowest
        first, go to the seats of `jeep_order`; a card's place is the number of lower cards in it."""
        order = self.mission.space.jeep_order
        middle = {c: self.any_of([give for (d, p), give in given.items() if d == c]) for c in sorted(self.holder)}
        places = {}
        for c, inside in middle.items():
            if inside is False:
                continue
            lower = [lit for d, lit in middle.items() if d < c and lit is not False]
            fixed = sum(1 for lit in lower if lit is True)
            free = [lit for lit in lower if lit is not True]
            places[c] = [self.new() for _ in order]
            self.exactly_one([self.neg(inside)] + places[c])
            for k, place in enumerate(places[c]):
                if k < fixed or k > fixed + len(free):
                    self.clause([self.neg(place)])
                elif free:
                    self.model.linear([(1, lit) for lit in free], k - fixed, k - fixed, place)
        for k in range(len(order)):  # redundant: each place holds one card
            self.exactly_one([places[c][k] for c in places])
        return {(c, seat): self.any_of([place[k] for k in range(len(order)) if order[k] == seat])
                for c, place in places.items() for seat in range(self.players)}

    def seat_plays(self) -> None:
        """Create plays[c, p, t] (seat p plays card c in trick t) and cards_at[p, t] (the cards p may
        play then); each seat plays one card per trick."""
        T = self.tricks
        self.plays, self.cards_at = {}, {(p, t): [] for p in range(self.players) for t in range(T)}
        for c in self.holder:
            for t in range(T):
                seats = [p for p in self.seats_of(c) if self.holds[c, p, t] is not False]
                if self.fixed or len(seats) == 1 and self.holds[c, seats[0], t] is True:
                    played = [self.x[c][t]] * len(seats)  # a dealt hand keeps the card
                    if not seats:
                        self.clause([self.neg(self.x[c][t])])
                else:
                    played = [self.all_of([self.x[c][t], self.holds[c, p, t]]) for p in seats]
                    self.exactly_one([self.neg(self.x[c][t])] + played)  # played by the seat holding it
                for p, lit in zip(seats, played):
                    self.plays[c, p, t] = lit
                    self.cards_at[p, t].append(c)
        for p in range(self.players):
            for t in range(T):
                self.exactly_one([self.plays[c, p, t] for c in self.cards_at[p, t]])

    def seats_of(self, c: int):
        """Return the seats that may ever hold card c: its holder's, or every seat when cards move."""
        return (self.holder[c],) if self.fixed else range(self.players)

    def suit_vars(self) -> None:
        """Create y[p,s,t] = sum of plays over the cards of suit s seat p may play in trick t."""
        self.y = {}
        for p in range(self.players):
            for s in SUITS:
                for t in range(self.tricks):
                    lits = [self.plays[c, p, t] for c in self.cards_at[p, t] if suit_of(c) == s]
                    if len(lits) <= 1:
                        self.y[p, s, t] = lits[0] if lits else False
                        continue
                    y = self.new()
                    self.exactly_one([self.neg(y)] + lits)
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

        The Ghost follows with his face-up cards (`holds`). Under the hang glider
        (`variants.hang_glider_plays`) a player's card set aside does not count:
        a seat must follow only while it holds two cards of the led suit (setting the one card it
        holds aside frees it, setting any other aside keeps both), and in the last trick each plays
        its set-aside card, whatever was led.
        """
        for p in range(self.players):
            glider = self.mission.space.hang_glider and p != self.ghost  # the Ghost sets no card aside
            for s in SUITS:
                for t in range(self.tricks - 1 if glider else self.tricks):
                    holds = self.holds_suit(p, s, t, 2 if glider else 1)
                    if holds is False:
                        continue
                    self.clause([self.neg(self.ledsuit[s, t]), self.neg(holds), self.y[p, s, t]])

    def holds_suit(self, p: int, s: int, t: int, at_least: int):
        """Return the literal "seat p holds at least `at_least` cards of suit s when trick t starts":
        the counts `ge` when cards neither move nor arrive (the Ghost's count his face-down cards
        too), else a sum over `holds`."""
        if self.counted and p != self.ghost:
            return self.ge.get((p, s, at_least, t), False) if self.by_suit[p][s] else False
        cards = [(1, self.holds[c, p, t]) for c in self.suit_cards[s] if p in self.seats_of(c)]
        return self.any_of([lit for _, lit in cards]) if at_least == 1 else self.sum_at_least(cards, at_least)

    def table_pattern(self) -> None:
        """Add a special stage's table pattern: after each trick one of its cards goes to the table (a position's
        table cards fixed), and the table cards, in order, are read by the pattern's automaton
        (solver/missions/pattern.py), one literal per state it can be in after t cards from which it can still
        complete the pattern: a state and a table card imply the state they lead to, or are not both true where
        the card breaks the pattern or leaves it unable to complete. The start state is true, so the true
        states' path is the table's; a state set true beside it only adds constraints. Played in full, every
        trick lays a card: the pattern holds exactly when the last card reaches a state (`won_after`)."""
        pattern = self.mission.pattern
        if pattern is None:
            return
        T = self.tricks
        transitions, alive = pattern.automaton(T)
        laid = [[] for _ in range(T)]  # per trick: (card, its table literal)
        for t in range(T):
            for c, x in self.x.items():
                if x[t] is not False:
                    self.tabled[c, t] = self.new()
                    self.implies(self.tabled[c, t], [x[t]])
                    laid[t].append((c, self.tabled[c, t]))
            self.exactly_one([tab for _, tab in laid[t]])
        for t, choices in enumerate(self.mission.chosen):
            if choices.tabled >= 0:
                self.clause([self.tabled[choices.tabled, t]])
        states = {0: True}  # the automaton's states after t table cards: state -> its literal
        for t in range(T):
            after = {}
            for state, lit in states.items():
                for c, tab in laid[t]:
                    target = int(transitions[state, c])
                    if target < 0 or not alive[target, T - t - 1]:
                        self.clause([self.neg(lit), self.neg(tab)])
                        continue
                    if target not in after:
                        after[target] = self.new()
                    self.clause([self.neg(lit), self.neg(tab), after[target]])
            states = after

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
                # Cards of one hand never meet in a trick, unless passes split the hand.
                higher = [d for d in cards[k + 1 :] if self.trades or self.holder[d] != h]
                for t in range(T):
                    w = self.new()
                    self.win[c, t] = w
                    need = [self.x[c][t]] + [self.neg(self.x[d][t]) for d in higher]
                    if s != TRUMP:  # its suit led, and no trump played by another seat
                        need.append(self.ledsuit[s, t])
                        if self.fixed:
                            need += [self.neg(self.y[q, TRUMP, t]) for q in trump_seats if q != h]
                        else:
                            need += [self.neg(self.x[d][t]) for d in self.suit_cards[TRUMP]
                                     if self.trades or self.holder[d] != h]
                    self.implies(w, need)
        for t in range(T):
            for p in range(self.players):
                won = [self.win[c, t] if self.fixed else self.all_of([self.win[c, t], self.plays[c, p, t]])
                       for c in self.cards_at[p, t]]
                self.exactly_one([self.neg(self.wseat[p, t])] + won)
            self.exactly_one([self.wseat[p, t] for p in range(self.players)])

    def difficult_leads(self) -> None:
        """Add: the difficult Ghost, opening the trick after one he won, leads the card that lay under the card he
        won it with or the face-up card of the nearest column with cards to its left or right, gaps skipped, the
        leftmost and rightmost columns adjacent (`variants.ghost_leads`).

        A column holds cards while a card of his lies in one of its places (`places`), and a card he plays lies
        face up (`face_down`, `face_down_passed`). So a lead from another column than the won card's is allowed
        when every column between the two, on one side or the other, is empty; the won card's own column holds at
        most the card that lay under it (a card he gets lies in a place he passed from, never the won card's).
        """
        display, ghost = self.mission.space.display, self.ghost
        columns = len(display) // 2
        for t in range(self.tricks - 1):
            now, after = self.places(t), self.places(t + 1)
            cards = [[(c, lit) for s in (k, columns + k) for c, lit in after[s].items()] for k in range(columns)]
            empty = [self.neg(self.any_of([lit for _, lit in column])) for column in cards]  # in trick t + 1
            won_from = [self.any_of([self.all_of([self.win[c, t], lit]) for s in (j, columns + j)
                                     for c, lit in now[s].items()]) for j in range(columns)]
            led_from = [self.any_of([self.all_of([self.lead[ghost, t + 1], self.x[c][t + 1], lit]) for c, lit in column])
                        for column in cards]
            for j in range(columns):
                for i in range(columns):
                    if i == j:
                        continue
                    leftwards = [empty[(j - k) % columns] for k in range(1, (j - i) % columns)]
                    rightwards = [empty[(j + k) % columns] for k in range(1, (i - j) % columns)]
                    nearest = self.any_of([self.all_of(leftwards), self.all_of(rightwards)])
                    self.clause([self.neg(won_from[j]), self.neg(led_from[i]), nearest])

    def places(self, t: int) -> list[dict]:
        """Return per place of the Ghost's display {card: "it lies there, in his hand, when trick t starts"}: where
        cards are passed `face_down_passed`'s, else the card dealt there while unplayed."""
        if self.slot_at:
            return self.slot_at[t]
        return [{c: self.unplayed(c, t)} for c in self.mission.space.display]

    # --- the mission -------------------------------------------------------------

    def tasks_played(self) -> None:
        """Add: every task card is played (with three players one card of the 14-card hand is not)."""
        for c in self.mission.cards:
            self.clause([self.P[c][self.tricks - 1]])

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
            self.model.exactly_one(chosen)
        for vector, lit in zip(vectors, chosen):
            for p in range(self.players):
                if len(taken[p]) > vector[p]:
                    self.at_most(taken[p], vector[p], lit)

    def at_most(self, lits, bound: int, enforced=True) -> None:
        """Add sum(lits) <= bound, when the literal `enforced` holds."""
        self.model.linear([(1, lit) for lit in lits], None, bound, None if enforced is True else enforced)

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
        `counts` keeps each counter's total as (its constant part, its literals), for the comparisons.
        """
        self.counts = []
        for counter in self.mission.counters:
            counted = []
            for t in range(self.tricks):
                if counter.tricks >> t & 1:
                    counted += self.counted_in(counter, t)
            fixed = sum(1 for lit in counted if lit is True)
            lits = [lit for lit in counted if lit is not True and lit is not False]
            self.counts.append((fixed, lits))
            if fixed + len(lits) < counter.at_least or fixed > counter.at_most:
                self.clause([])
                continue
            if counter.at_least > fixed:
                self.model.linear([(1, lit) for lit in lits], counter.at_least - fixed, None, self.when)
                self.places_to_spare(counter, counted)
            if counter.at_most < fixed + len(lits):
                self.model.linear([(1, lit) for lit in lits], None, counter.at_most - fixed, self.when)

    def places_to_spare(self, counter: TrickCounter, counted: list) -> None:
        """Add, for a counter of at least k tricks holding none of a set (every trick, whoever wins it): the
        tricks that hold a card of the set hold no more other cards than they have places to spare.

        Redundant: the set's cards lie in at most T - k tricks of `players` cards each, so those tricks
        have (T - k) * players - (the set's cards played) places for other cards; an other card in a trick
        holding one of the set spends one. (The kernel's `room_wasted`, as clauses CP-SAT propagates.)
        """
        everyone = (1 << self.players) - 1
        if (not counter.containing or counter.max_containing != 0 or counter.winners & everyone != everyone or counter.won_with
                or counter.tricks & ((1 << self.tricks) - 1) != (1 << self.tricks) - 1 or counter.count_cards
                or counter.min_value > 0 or counter.max_value < NO_LIMIT or counter.as_many):
            return
        named = [c for c in scan(counter.containing) if c in self.holder]
        unplayed = len(self.holder) - self.tricks * self.players  # cards no trick takes: 3 players' one
        places = (self.tricks - counter.at_least) * self.players - (len(named) - unplayed)
        if places < 0:
            self.clause([])
            return
        others = [c for c in self.holder if not counter.containing >> c & 1]
        spent = []
        for t, clean in enumerate(counted):
            if clean is True:
                continue
            for c in others:
                if self.x[c][t] is False:
                    continue
                if places == 0:
                    self.clause([clean, self.neg(self.x[c][t])])
                    continue
                spends = self.new()
                self.clause([spends, clean, self.neg(self.x[c][t])])
                spent.append(spends)
        if places and len(spent) > places:
            self.at_most(spent, places, True if self.when is None else self.when)

    def comparisons(self) -> None:
        """Add: each comparison's difference of two counts at the end of play lies within its bounds.

        As with the counters, the end decides (conditions.comparison_failed fails a comparison only once
        no way the counts could still grow ends within its bounds), and a mission is won only once each
        comparison is settled, so no trick after the win moves it out.
        """
        for comparison in self.mission.comparisons:
            (left_fixed, left), (right_fixed, right) = self.counts[comparison.left], self.counts[comparison.right]
            terms = [(1, lit) for lit in left] + [(-1, lit) for lit in right]
            shift = left_fixed - right_fixed
            low = None if comparison.at_least <= -NO_LIMIT else comparison.at_least - shift
            high = None if comparison.at_most >= NO_LIMIT else comparison.at_most - shift
            self.model.linear(terms, low, high, self.when)

    def run_rules(self) -> None:
        """Add: the longest run of consecutive tricks the rule's seat wins lies within its bounds: no
        `at_most` + 1 tricks in a row all won by it, and some `at_least` tricks in a row all won by it.

        A mission is won only once every run rule is settled (conditions.run_settled: long enough, and
        no run left that could grow too long), so the whole play decides, as with the counters.
        """
        T = self.tricks
        for run in self.mission.runs:
            won = [self.wseat[run.seat, t] for t in range(T)]
            if run.at_most < T:
                for start in range(T - run.at_most):
                    self.clause([self.neg(lit) for lit in won[start : start + run.at_most + 1]])
            if run.at_least > 0:
                self.clause([self.all_of(won[start : start + run.at_least]) for start in range(T - run.at_least + 1)])

    def lead_rules(self) -> None:
        """Add: a seat with a lead rule opens no trick with a card outside its `allowed` cards.

        Leading such a card fails the mission even when forced, and a mission is won only once the
        seat holds none of them, so the rule holds over the whole play.
        """
        for rule in self.mission.leads:
            p = rule.seat
            for t in range(self.tricks):
                for c in self.cards_at[p, t]:
                    if not rule.allowed >> c & 1:
                        self.clause([self.neg(self.lead[p, t]), self.neg(self.plays[c, p, t])])

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
        held = [(1, self.x[c][t]) for c in contained]
        if counter.containing:
            conditions.append(self.sum_at_least(held, counter.min_containing))
            if counter.max_containing < NO_LIMIT:
                conditions.append(self.neg(self.sum_at_least(held, counter.max_containing + 1)))
        if counter.as_many:  # as many cards of `as_many` as of `containing`
            many = [(1, self.x[c][t]) for c in scan(counter.as_many) if c in self.holder]
            conditions.append(self.sum_is_zero(many + [(-1, lit) for _, lit in held]))
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
        self.model.linear(terms, bound, None, reached)
        self.model.linear(terms, None, bound - 1, self.neg(reached))
        return reached

    def sum_is_zero(self, terms):
        """Return a literal equal to "sum of weight * literal == 0" over `terms` (weights of either sign)."""
        fixed = sum(weight for weight, lit in terms if lit is True)
        terms = [(weight, lit) for weight, lit in terms if lit is not True and lit is not False]
        lowest = fixed + sum(weight for weight, _ in terms if weight < 0)
        highest = fixed + sum(weight for weight, _ in terms if weight > 0)
        if lowest == highest:
            return lowest == 0
        if not lowest <= 0 <= highest:
            return False
        zero, above, below = self.new(), self.new(), self.new()
        self.model.linear(terms, -fixed, -fixed, zero)
        self.model.linear(terms, 1 - fixed, None, above)
        self.model.linear(terms, None, -1 - fixed, below)
        self.clause([zero, above, below])  # the sum is 0, above it or below it
        return zero

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
                        self.model.linear([(1, lit) for lit in won[p]] + [(-1, lit) for lit in won[q]], None, gap)

    def sequence_rules(self) -> None:
        """Add: no card of a rule's `after` is played right after one of its `before`: by the next
        seat in the same trick, or, across tricks, by the next trick's opener after its last card.

        The seat at place k of trick t is its opener's k-th seat to the left, so each opener of
        each trick gives one clause per pair of neighbouring places.
        """
        T, n = self.tricks, self.players
        for rule in self.mission.sequences:
            before, after = self.plays_of(rule.before), self.plays_of(rule.after)
            for t in range(T):
                for opener in range(n):
                    for k in range(n - 1):
                        first, second = (opener + k) % n, (opener + k + 1) % n
                        self.clause([self.neg(self.lead[opener, t]), self.neg(before[first, t]),
                                     self.neg(after[second, t])])
                    if rule.across_tricks and t + 1 < T:
                        last = (opener - 1) % n
                        for following in range(n):
                            self.clause([self.neg(self.lead[opener, t]), self.neg(before[last, t]),
                                         self.neg(self.lead[following, t + 1]), self.neg(after[following, t + 1])])

    def plays_of(self, cards: int) -> dict:
        """Return {(seat, trick): "the seat plays one of `cards` in the trick"}."""
        return {(p, t): self.any_of([self.plays[c, p, t] for c in self.cards_at[p, t] if cards >> c & 1])
                for p in range(self.players) for t in range(self.tricks)}

    def equivalent_cards(self, distinct: int) -> None:
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
        Cards that stay together qualify: a dealt hand, on the skis too (the skis cards are
        distinct), and under fog two cards that arrive together; cards passed one by one do not.
        In a position, its played cards are in `distinct` (`kept_apart`): a swap would change the plays.
        """
        if self.trades:
            return
        T = self.tricks
        for p in range(self.players):
            for s in SUITS:
                cards = self.by_suit[p][s]
                for a, b in zip(cards, cards[1:]):
                    if (distinct >> a | distinct >> b) & 1 or self.arrival[a] != self.arrival[b]:
                        continue
                    between = [d for d in self.suit_cards[s] if a < d < b]
                    for t in range(T):
                        if t == 0:
                            if not between:
                                self.clause([self.neg(self.x[b][0])])
                            continue
                        still = [self.neg(self.P[d][t - 1]) for d in between]
                        self.clause([self.neg(self.x[b][t]), self.P[a][t - 1]] + still)


def solve(deal: Deal, mission: TaskMission, limits: Limits = Limits(), effort: float | None = None) -> Solution:
    """Decide whether the crew can complete every task of `mission` in `deal`, with CP-SAT.

    Runs one CP-SAT worker. `limits.max_work` bounds the whole call (model
    building included) and gives UNKNOWN when it runs out; `limits.max_nodes` is
    ignored (CP-SAT has no branch limit). `effort` bounds the search in CP-SAT's
    deterministic time (the same every run; UNKNOWN past it). `nodes` is CP-SAT's
    branch count.
    Raises UnsupportedMission, naming them, for the rules the model lacks (`unsupported`).
    """
    check_supported(mission)
    mission.space.check(deal)  # fog leaves every hand a card to play, the jeep finds two, its shuffle is fair
    began = time.perf_counter()
    if won_after(deal, mission, []):
        return Solution(Outcome.WIN, 0, time.perf_counter() - began, ENGINE)
    play, base = play_model(deal, mission)
    built = TaskModel(deal, mission, play)
    proto = built.model.proto(base)
    return solved(built, proto, began, limits, effort)


def solved(built: TaskModel, proto, began: float, limits: Limits, effort: float | None, chosen=None) -> Solution:
    """Solve `proto`, the model `built`, within the work `limits` leave once it is built and within `effort` (`began`:
    when the call began, for its `seconds`); a WIN's line
    from its values (`chosen(values)`, if given, makes the case they win the model's mission and returns its
    label, the answer's `setup`)."""
    solution = Solution(Outcome.UNKNOWN, 0, 0.0, ENGINE, work=CP_SAT_MODEL_WORK)
    left = limits.after(CP_SAT_MODEL_WORK)
    if not left.spent:
        if left.max_work is not None:
            affordable = left.max_work / CP_SAT_SECONDS_PER_UNIT
            effort = affordable if effort is None else min(effort, affordable)
        response = run_solver(proto, effort)
        solution.nodes = response.num_branches
        solution.work += response.deterministic_time * CP_SAT_SECONDS_PER_UNIT
        sat = sat_helper()
        if response.status == sat.INFEASIBLE:
            solution.outcome = Outcome.LOSS
        elif response.status in (sat.OPTIMAL, sat.FEASIBLE):
            values = list(response.solution)
            solution.outcome = Outcome.WIN
            solution.setup = "" if chosen is None else chosen(values)
            solution.tricks, solution.assignment = witness(built, values)
    solution.seconds = time.perf_counter() - began
    return solution


def demands_apart(mission: TaskMission) -> bool:
    """Return True when the mission's demands hold apart from one another, each a constraint of its own over
    the play (`parts`): tasks with fixed owners or anyone's, trick counters, comparisons, runs, lead rules and
    sequence rules; not order tokens, lazily assigned tasks or the balanced rule."""
    return (mission.owners is not None and all(owner >= 0 or owner == ANYONE for owner in mission.owners)
            and mission.balanced is None and all(token is None for token in mission.tokens))


def parts(mission: TaskMission) -> list[TaskMission]:
    """Return the mission's demands one by one, each as a mission of its own (`demands_apart`): the mission is
    won when every one of them is."""
    bare = dataclasses.replace(mission, cards=(), tokens=(), owners=(), counters=(), comparisons=(), runs=(),
                               leads=(), sequences=())
    found = [dataclasses.replace(bare, cards=(c,), tokens=(None,), owners=(owner,))
             for c, owner in zip(mission.cards, mission.owners)]
    found += [dataclasses.replace(bare, counters=(counter,)) for counter in mission.counters
              if counter.at_least > 0 or counter.at_most < NO_LIMIT]
    for comparison in mission.comparisons:
        read = tuple(dataclasses.replace(mission.counters[k], at_least=0, at_most=NO_LIMIT)
                     for k in (comparison.left, comparison.right))
        found.append(dataclasses.replace(bare, counters=read,
                                         comparisons=(dataclasses.replace(comparison, left=0, right=1),)))
    found += [dataclasses.replace(bare, runs=(run,)) for run in mission.runs]
    found += [dataclasses.replace(bare, leads=(rule,)) for rule in mission.leads]
    found += [dataclasses.replace(bare, sequences=(rule,)) for rule in mission.sequences]
    return found


class CasesModel(TaskModel):
    """One model for the cases of one deal, each a mission of the same rules of play whose demands hold apart
    (`demands_apart`; a Deep Sea draft's assignments): a literal per case, exactly one of them holds, and each
    distinct demand of the cases (`parts`) holds when a case that has it does. The crew wins the deal when it
    wins some case, so the deal is lost exactly when this model has no solution, and a solution's case is won
    by its line. Its cases' demands are built once each: a total of 20 in Deep Sea (7 cards, 2,520
    assignments) has about 30 distinct ones."""

    def __init__(self, deal: Deal, missions: list[TaskMission]):
        play, self.base = play_model(deal, missions[0])
        vars(self).update(vars(play))
        self.model = play.model.extension()
        self.chosen = [self.new() for _ in missions]
        self.model.exactly_one(self.chosen)
        holds = {}  # a demand -> the literal it holds under
        for chosen, mission in zip(self.chosen, missions):
            for part in parts(mission):
                if part not in holds:
                    holds[part] = self.new()
                    self.add_demands(part, holds[part])
                self.clause([self.neg(chosen), holds[part]])
        distinct = 0
        for mission in missions:
            distinct |= kept_apart(mission)
        self.equivalent_cards(distinct)  # every case tells these apart, or more


def kept_apart(mission: TaskMission) -> int:
    """Return the cards the model's symmetry breaking must not swap (`TaskModel.equivalent_cards`): those the
    mission tells apart and those its position played."""
    return distinct_cards(mission) | card_set(mission.played)


PLAY_MODELS = 2  # the plays `play_model` keeps: a deal's cases come one after another, round after round
_plays: dict = {}  # (deal, space, random pass, plays, choices) -> (TaskModel.play_only, its proto), the newest last


def play_model(deal: Deal, mission: TaskMission) -> tuple[TaskModel, cp_model_helper.CpModelProto]:
    """Return the model of the play of `deal` under `mission`'s rules of play and its proto, built once for
    the missions that share them (the newest PLAY_MODELS kept). A mission's model over it has the same
    variables and constraints in the same order as one built whole, so CP-SAT searches it the same way.
    Measured on a 4-player Deep Sea deal of total 20 (7 cards, 2,520 draft assignments): a case's model took
    19.6-20.3 ms to build, read and solve whole, 11.4-11.7 ms over the kept play (300 cases)."""
    key = (deal, mission.space, mission.random_pass, mission.played, mission.chosen)
    found = _plays.get(key)
    if found is None:
        play = TaskModel.play_only(deal, mission)
        found = play, play.model.proto()
        if len(_plays) >= PLAY_MODELS:
            del _plays[next(iter(_plays))]
        _plays[key] = found
    return found


def together(cases) -> bool:
    """Return True when one model holds the (label, deal, mission) cases (`CasesModel`): two or more, on one
    deal and rules of play, each a mission the model knows whose demands hold apart (`demands_apart`)."""
    deal, first = cases[0][1], cases[0][2]
    return len(cases) > 1 and all(
        d == deal and m.space == first.space and m.random_pass == first.random_pass and m.played == first.played
        and m.chosen == first.chosen and modelled(m) and demands_apart(m)
        for _, d, m in cases)


def solve_cases(cases, limits: Limits = Limits(), effort: float | None = None) -> tuple[Solution, Deal | None]:
    """Decide the (label, deal, mission) cases of one deal (`together`) with one model, `CasesModel`: the first
    WIN among them is a solution's case; LOSS when there is none. `limits` and `effort` as for `solve`; a WIN
    names its case's label in `setup`."""
    began = time.perf_counter()
    deal = cases[0][1]
    for label, _, mission in cases:
        if won_after(deal, mission, []):
            return Solution(Outcome.WIN, 0, time.perf_counter() - began, ENGINE, setup=label), deal
    built = CasesModel(deal, [mission for _, _, mission in cases])
    proto = built.model.proto(built.base)

    def chosen(values) -> str:
        label, _, mission = next(case for case, lit in zip(cases, built.chosen) if literal_value(values, lit))
        built.of_mission(mission)
        return label

    solution = solved(built, proto, began, limits, effort, chosen)
    return solution, deal if solution.outcome is Outcome.WIN else None


def run_solver(proto: cp_model_helper.CpModelProto, effort: float | None = None):
    """Solve the model `proto` with one worker within `effort` deterministic seconds (None: no limit); return
    CP-SAT's response."""
    sat = sat_helper()
    parameters = sat.SatParameters()
    parameters.num_workers = 1
    # CP-SAT's own Ctrl-C handler leaves SIGINT at its default when a solve ends, so a sweep's worker, which
    # ignores it (runner.py), died on the next Ctrl-C ("a worker failed"); interrupting is the caller's.
    parameters.catch_sigint_signal = False
    # Measured on full deals: presolve (with its symmetry detection) and SAT
    # inprocessing cost more than they save on these small, already tight models.
    parameters.cp_model_presolve = False
    parameters.symmetry_level = 0
    parameters.use_sat_inprocessing = False
    if effort is not None:
        parameters.max_deterministic_time = effort
    solver = sat.SolveWrapper()
    solver.set_parameters(parameters)
    response = solver.solve(proto)
    if response.status == sat.MODEL_INVALID:
        raise RuntimeError(f"invalid CP-SAT model: {sat.CpSatHelper.validate_model(proto)}")
    return response


def witness(built: TaskModel, solution: list[int]):
    """Return the played tricks up to the one that wins the mission (`won_after`), and the assignment, from
    a solution's variable values."""
    deal, mission = built.deal, built.mission

    def value(lit) -> bool:
        return literal_value(solution, lit)

    tricks, owner = [], {}
    for t in range(built.tricks):
        leader = next(p for p in range(deal.players) if value(built.lead[p, t]))  # the dog-sled driver, maybe
        cards = []
        for k in range(deal.players):
            seat = (leader + k) % deal.players
            cards.append(next(c for c in built.cards_at[seat, t] if value(built.plays[c, seat, t])))
        winner = trick_winner(leader, cards, deal.players)
        completed = tuple(c for c in cards if c in built.task_of)
        owner.update((c, winner) for c in completed)
        # The cards each seat passed right after the trick, seat by seat (the jeep's two highest first, but the
        # Ghost's: `ghost_jeep_pair`).
        given = sorted((p, -c) for (c, p), give in built.passes.get(t, {}).items() if value(give))
        passed = tuple(-c for _, c in given)
        if t + 1 == mission.space.jeep_after and built.ghost >= 0:
            at = 2 * built.ghost
            passed = passed[:at] + ghost_jeep_pair(built, t, passed[at : at + 2], value) + passed[at + 2 :]
        tabled = next((c for c in cards if (c, t) in built.tabled and value(built.tabled[c, t])), -1)
        tricks.append(Trick(leader, tuple(cards), winner, completed, passed, tabled))
        if won_after(deal, mission, tricks):
            break
    return tricks, {c: owner[c] for c in mission.cards}


def ghost_jeep_pair(built: TaskModel, t: int, pair: tuple[int, int], value) -> tuple[int, int]:
    """Return the two cards the Ghost put in the jeep's middle after trick t in the order that places the two he
    drew as the solution does (`variants.jeep_exchanges`: the lower he takes goes to the place of the first)."""
    got = sorted(c for (c, p), lit in built.received[t].items() if p == built.ghost and value(lit))
    for (c, j), lands in built.landing.get(t, {}).items():
        if value(lands):
            covered = next(d for d in pair if value(built.covering[t].get((d, j), False)))
            other = pair[0] if covered == pair[1] else pair[1]
            return (covered, other) if c == got[0] else (other, covered)
    return pair


def won_after(deal: Deal, mission: TaskMission, tricks: list[Trick]) -> bool:
    """Return True when the mission is won once `tricks` (the first ones of a legal play meeting
    every condition) are played: every task done, every counter, comparison and run rule settled, no
    card that could break a sequence rule left, no card a lead rule bars left in its seat's hand (Deep Sea
    is played on no stage: its seats keep their dealt hands), and with the balanced rule every trick played."""
    total = num_tricks(deal.hands)
    if mission.pattern is not None:
        return len(tricks) == total  # a table pattern is read once every trick has laid its card
    played = card_set(c for trick in tricks for c in trick.cards)
    if not all(played >> c & 1 for c in mission.cards):
        return False
    if mission.balanced is not None and len(tricks) < total:
        return False
    if len(tricks) < total and any(rule.after & deal.cards & ~played for rule in mission.sequences):
        return False
    if len(tricks) < total and any(deal.hands[rule.seat] & ~played & ~rule.allowed for rule in mission.leads):
        return False
    values = counter_values(mission.counters, tricks)[-1] if tricks else (0,) * len(mission.counters)
    in_hands = deal.cards & ~played
    following = len(tricks) + 1
    if not all(counter_settled(counter, value, following, total, in_hands)
               for counter, value in zip(mission.counters, values)):
        return False
    rooms = [counter_room(counter, following, total, in_hands) for counter in mission.counters]
    if not all(comparison_settled(comparison, values, rooms) for comparison in mission.comparisons):
        return False
    return all(run_settled(run, longest_run(run, tricks), total - len(tricks)) for run in mission.runs)


def longest_run(run, tricks: list[Trick]) -> tuple[int, int]:
    """Return a run rule's (current run, longest run) after `tricks`."""
    state = (0, 0)
    for trick in tricks:
        state = run_after(run, state, trick.winner)
    return state
