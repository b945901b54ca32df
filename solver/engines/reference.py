"""Plain-Python exhaustive solver for Planet Nine missions: the oracle for the fast kernel.

Every hand is visible and the whole crew cooperates, so a deal is won when
some sequence of legal plays completes every task and keeps every trick
condition (solver/missions/conditions.py). The search tries every legal card at every
turn, in card order (lowest first: highest first took 19% more time over the parity tests' deals, though
2.5x fewer plays on another set of 5-player deals), and remembers the trick-boundary states it has proved
lost. Clarity beats speed here, with one reduction that keeps small deals
fast: of two plays of one hand in one suit with no other card still in play
between them, only the higher is tried, unless the mission tells them apart
(a task card, or a card a condition names and its neighbour does not): they
win and lose against exactly the same cards, now and later. For the same reason a
trick-boundary state proved lost stands for every state that differs from it only by
such renamings (`boundary_hands`). `equivalence=False` switches both off; the tests
check both against a brute force. The search runs in a thread of its own
(`core.stack.on_fresh_stack`): its recursion is deep.

The mission is won as soon as every task is done and no condition can still
fail; it is lost at once when a task or a condition fails, and at the end
when anything is left undone. A random pass drawn with the deal (chance.py)
moves its cards between the hands after its trick (the Ghost gives a face-up
card, and the card he gets takes its place in his display). Stage spaces (spaces.py):
after a trick with the skis every hand moves to the left; under fog the cards
drawn after a trick join their hands then; the dog-sled driver may open any
trick; under the hang glider a play is legal when it is legal with some other
card of the hand set aside, and the last trick is the set-aside cards; after a
trick with a heli (helicopter) every hand passes one card to the left, and after
the jeep's trick every hand puts two cards in the middle, which go to the seats
drawn with the deal, lowest card first: the crew tries every choice of cards.
The Ghost (two players) plays his face-up cards only; the difficult Ghost leads
after a won trick next to the card he won it with; on the skis, the hang glider,
the helicopter and the jeep the Ghost's own rules hold, and his display, changed
by the passes, is part of the state (solver/trick/variants.py). In a
special stage the crew lays each card of a trick on the table in turn, and the
mission is won when the whole sequence of table cards forms the pattern
(`Pattern.holds`, never its automaton; a clause already broken by the cards
laid so far ends the line, `Pattern.broken`); with five players the discards after
the redeal's trick go, lowest first, to the seats drawn with the deal.

`perft` counts the lines of play the search walks, from the same move generation
(`_Search.openers`, `legal_cards`, `table_choices`, `between_tricks`, `passes`), with
no equivalent card dropped and the mission left aside (tests/data/perft-spaces.txt).
"""

import time
from dataclasses import dataclass

from solver.core.cards import CARD_COUNT, SUIT_MASKS, bit, card_set, format_card, format_cards, scan, suit_of
from solver.core.deal import MAX_PLAYERS, Deal
from solver.core.rules import legal_plays, num_tricks, trick_winner, winning_card
from solver.core.solution import REFERENCE_PLAYS_PER_SECOND, Limits, Outcome, Solution, Trick
from solver.core.stack import on_fresh_stack
from solver.missions.conditions import (
    breaks_sequence,
    comparison_failed,
    comparison_settled,
    counter_failed,
    counter_room,
    counter_settled,
    counts_trick,
    lead_allowed,
    run_after,
    run_failed,
    run_settled,
    unbalanced,
)
from solver.missions.position import NO_CHOICES, PositionError, TrickChoices
from solver.missions.tasks import (
    UNASSIGNED,
    TaskMission,
    allowed_counts,
    distinct_cards,
    initial_owners,
    settle_trick,
)
from solver.trick.variants import (
    ANY_CARD,
    ghost_leads,
    ghost_playable,
    hang_glider_plays,
    heli_pass,
    heli_passes,
    jeep_exchange,
    jeep_exchanges,
    pass_agrees,
    pass_error,
    redeal,
    skis_rotation,
)

ENGINE = "reference"


def unsupported(mission: TaskMission) -> dict[str, str]:
    """Return what of `mission` the reference does not model: nothing (solver/engines/protocol.py)."""
    return {}


# Per card, the cards of its suit above it.
ABOVE = tuple(SUIT_MASKS[suit_of(c)] & ~((2 << c) - 1) for c in range(CARD_COUNT))


class BudgetExceeded(Exception):
    """The node or time budget ran out."""


class _Search:
    def __init__(self, deal: Deal, mission: TaskMission, limits: Limits, equivalence: bool, horizon: int = 0):
        self.deal = deal
        self.horizon = horizon  # > 0: a line is good once it has played this many tricks without failing
        self.mission = mission
        self.counts = allowed_counts(mission, deal)
        self.tricks = num_tricks(deal.hands) + mission.space.redeal_draws()
        self.max_nodes = limits.plays(REFERENCE_PLAYS_PER_SECOND)
        self.nodes = 0
        self.lost: set = set()
        self.across = any(sequence.across_tricks for sequence in mission.sequences)
        self.equivalence = equivalence
        self.task_cards = card_set(mission.cards)
        self.distinct = distinct_cards(mission)
        # A card's byte in `boundary_hands` before its holder's seat is added: 1 + MAX_PLAYERS * (the card, or
        # CARD_COUNT + its suit), below 256 and never 0.
        self.card_codes = [1 + MAX_PLAYERS * (c if self.distinct >> c & 1 else CARD_COUNT + suit_of(c))
                           for c in range(CARD_COUNT)]
        self.random_pass = mission.random_pass
        self.pass_after = mission.random_pass.after if mission.random_pass is not None else 0
        self.space = mission.space
        self.space.check(deal)
        self.drawn = [self.space.arriving(deal, after) for after in range(self.tricks + 1)]
        self.arrive_after = [any(hands) for hands in self.drawn]  # whether any card arrives after a trick
        self.pending = [sum(sum(hands) for hands in self.drawn[played + 1 :]) for played in range(self.tricks + 1)]
        # The first trick from which no position's play or choice is still to come, and no random pass or
        # redeal will move cards by name: before then every card is itself.
        forced = -(-len(mission.played) // deal.players)
        self.renaming_from = max(self.pass_after, self.space.redeal_after, forced, len(mission.chosen))

    def still_to_draw(self, played: int) -> int:
        """Return the cards drawn after a later trick than the `played` tricks so far (fog)."""
        return self.pending[played]

    @property
    def work(self) -> float:
        """The seconds of work the nodes so far count for (solver/core/solution.py's Limits)."""
        return self.nodes / REFERENCE_PLAYS_PER_SECOND

    def count_node(self) -> None:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise BudgetExceeded

    def from_boundary(self, hands, leader, played, state, last=None, won_with=None):
        """Return the winning line of play from a trick boundary, or None.

        `state` is (owners, done, counter values, tricks won per seat, table cards, the Ghost's
        display); `last` the card that ended the previous trick (sequence rules across tricks
        look at it); `won_with` the card that won it (the difficult Ghost's leads depend on it).
        """
        if self.won(hands, played, state) or played == self.horizon > 0:
            return []
        if played == self.tricks:
            return None
        key = (self.boundary_hands(hands, played), leader, played, self.boundary_state(state), last, won_with)
        if key in self.lost:
            return None
        for opener in self.openers(leader):
            line = self.play_trick(hands, opener, played, state, (), last, won_with)
            if line is not None:
                return line
        self.lost.add(key)
        return None

    def boundary_hands(self, hands, played: int):
        """Return what of the `hands` at the boundary after trick `played` decides the rest: the hands
        themselves, or, where equivalent cards may stand in for each other (`interchangeable`) and no
        fog card is still to come, the cards in play in card order, each as who holds it and its suit
        (or, `distinct`, the card). Two such positions differ by renaming cards of a suit in rank order,
        distinct cards kept: every later trick goes alike, so one lost is the other lost. One byte a card,
        its `card_codes` entry + the seat, keeps the memo small; a card out of play is a 0, left out."""
        if not self.interchangeable(played) or self.still_to_draw(played) or not self.deal.cards & ~self.distinct:
            return hands
        held = [0] * CARD_COUNT
        for seat, hand in enumerate(hands):
            for c in scan(hand):
                held[c] = self.card_codes[c] + seat
        return bytes(filter(None, held))

    def boundary_state(self, state):
        """Return what of `state` decides the rest: the tricks won per seat only for a balance rule."""
        return state if self.mission.balanced is not None else state[:3] + state[4:]

    def interchangeable(self, played: int) -> bool:
        """Return True when, from trick `played` + 1 on, a card not `distinct` may stand in for the next
        one in play of its suit (`renaming_from`)."""
        return self.equivalence and played >= self.renaming_from

    def won(self, hands, played, state) -> bool:
        """Return True when every task is done and no condition can still fail."""
        _, done, values, _, table, _ = state
        if self.mission.pattern is not None:
            return played == self.tricks and self.mission.pattern.holds(table)
        if done != self.mission.all_done:
            return False
        if self.mission.balanced is not None and played < self.tricks:
            return False
        in_hands = cards_in_play(hands, ()) | self.still_to_draw(played)
        if played < self.tricks and any(sequence.after & in_hands for sequence in self.mission.sequences):
            return False  # a card that could still break a sequence rule is in play
        if played < self.tricks and any(hands[rule.seat] & ~rule.allowed for rule in self.mission.leads):
            return False  # a lead that would break a lead rule could still come
        counters = self.mission.counters
        if not all(counter_settled(counter, value, played + 1, self.tricks, in_hands)
                   for counter, value in zip(counters, values)):
            return False
        if self.mission.comparisons:
            rooms = [counter_room(counter, played + 1, self.tricks, in_hands) for counter in counters]
            if not all(comparison_settled(c, values, rooms) for c in self.mission.comparisons):
                return False
        return all(run_settled(run, values[len(counters) + 2 * k: len(counters) + 2 * k + 2], self.tricks - played)
                   for k, run in enumerate(self.mission.runs))

    def play_trick(self, hands, leader, played, state, trick, last=None, won_with=None):
        """Return the winning line of play from inside a trick, or None."""
        players = len(hands)
        if len(trick) == players:
            return self.finish_trick(hands, leader, played, state, trick)
        seat = (leader + len(trick)) % players
        plays = self.legal_cards(hands, seat, played, trick, state[5], won_with)
        plays = self.without_barred_leads(self.without_sequence_breakers(plays, trick, last), seat, trick)
        ply = played * players + len(trick)
        forced = ply < len(self.mission.played)
        if forced:  # a position's play so far: its card is the only move
            plays &= bit(self.mission.played[ply])
        elif self.interchangeable(played):
            in_play = cards_in_play(hands, trick) | self.still_to_draw(played)
            plays = without_equivalent_plays(plays, in_play, self.distinct)
        owners = state[0]
        tasks_in_trick = card_set(trick) & self.task_cards
        for c in scan(plays):
            self.count_node()
            after = without_card(hands, seat, c)
            grown = trick + (c,)
            if (tasks_in_trick or self.task_cards >> c & 1) and owner_cannot_win(self.mission, owners, leader, grown,
                                                                                    players):
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
        done, new_done = state[1], after[1]
        completed = tuple(c for i, c in enumerate(self.mission.cards) if (new_done & ~done) >> i & 1)
        for tabled in self.table_choices(trick, played):
            laid = (*after[:4], after[4] + (tabled,), after[5]) if tabled >= 0 else after
            if tabled >= 0 and self.mission.pattern.broken(laid[4], self.tricks):
                continue
            moved, display = self.between_tricks(hands, played + 1, trick, laid[4], laid[5])
            laid = (*laid[:5], display)
            if self.won(moved, played + 1, laid):  # no pass can matter any more: make none
                passes = [((), moved, display)]
            else:
                passes = self.passes(moved, played + 1, trick, display)
            for passed, passed_hands, display in passes:
                last = trick[-1] if self.across else None
                won_with = self.ghost_won_with(trick, winner)
                rest = self.from_boundary(passed_hands, winner, played + 1, (*laid[:5], display), last, won_with)
                if rest is not None:
                    return [Trick(leader, trick, winner, completed, passed, tabled)] + rest
        return None

    def settle(self, state, number: int, trick, winner: int, hands):
        """Return the state after trick `number` (1-based), or None when the mission fails."""
        owners, done, values, won, table, display = state
        cards = card_set(trick)
        settled = settle_trick(self.mission, self.counts, owners, done, cards, winner)
        if settled is None:
            return None
        best = winning_card(trick)
        counters = self.mission.counters
        runs = tuple(state for k, run in enumerate(self.mission.runs)
                     for state in run_after(run, values[len(counters) + 2 * k: len(counters) + 2 * k + 2], winner))
        values = tuple(
            value + counts_trick(counter, number, cards, winner, best)
            for counter, value in zip(counters, values)
        ) + runs
        in_hands = (cards_in_play(hands, ()) | self.still_to_draw(number - 1)) & ~cards
        if any(counter_failed(c, v, number + 1, self.tricks, in_hands) for c, v in zip(counters, values)):
            return None
        if self.mission.comparisons:
            rooms = [counter_room(counter, number + 1, self.tricks, in_hands) for counter in counters]
            if any(comparison_failed(comparison, values, rooms) for comparison in self.mission.comparisons):
                return None
        if any(run_failed(run, runs[2 * k: 2 * k + 2], self.tricks - number) for k, run in enumerate(self.mission.runs)):
            return None
        won = won[:winner] + (won[winner] + 1,) + won[winner + 1:]
        if unbalanced(self.mission.balanced, won):
            return None
        return (*settled, values, won, table, display)

    # --- the moves of the rules of play, for the search and for perft alike ---

    def openers(self, leader: int) -> list[int]:
        """Return the seats that may open a trick `leader` leads: the leader, and the dog-sled driver instead."""
        return [seat for seat in dict.fromkeys((leader, self.space.sled)) if seat >= 0]

    def legal_cards(self, hands, seat: int, played: int, trick, display, won_with) -> int:
        """Return the cards `seat` may play to `trick` in trick `played` + 1 by the rules of play, whatever the
        mission: the Ghost's face-up cards and the difficult Ghost's leads, the hang glider's set-aside card."""
        hand = hands[seat]
        if seat == self.space.ghost:
            hand = ghost_playable(hand, display)
        if self.space.hang_glider and seat != self.space.ghost:  # the Ghost sets no card aside
            plays = hang_glider_plays(hand, trick, played == self.tricks - 1)
        else:
            plays = legal_plays(hand, trick)
        if seat == self.space.ghost and self.space.difficult and not trick and won_with is not None:
            plays &= ghost_leads(hands[seat], display, won_with)
        return plays

    def without_sequence_breakers(self, plays: int, trick, last) -> int:
        """Return `plays` without the cards a sequence rule forbids after the trick's last card (or, at a lead,
        after `last`, the previous trick's last card where a rule links tricks)."""
        if not self.mission.sequences:
            return plays
        previous = trick[-1] if trick else last
        return plays & ~sum(bit(c) for c in scan(plays) if breaks_sequence(self.mission.sequences, previous, c,
                                                                           bool(trick)))

    def without_barred_leads(self, plays: int, seat: int, trick) -> int:
        """Return `plays` without the leads a lead rule bars `seat` from (leading one fails the mission)."""
        return plays if trick or not self.mission.leads else lead_allowed(self.mission.leads, seat, plays)

    def ghost_won_with(self, trick, winner: int):
        """Return the card the difficult Ghost won `trick` with, which his next lead depends on; else None."""
        return winning_card(trick) if self.space.difficult and winner == self.space.ghost else None

    def table_choices(self, trick, played: int) -> tuple[int, ...]:
        """Return the cards of trick `played` + 1 the crew may lay on the table: any of them in a special
        stage (in a position's trick, the one it laid), else (-1,): none."""
        if self.mission.pattern is None:
            return (-1,)
        if played < len(self.mission.chosen):
            return tuple(c for c in trick if c == self.mission.chosen[played].tabled)
        return trick

    def passes(self, hands, played: int, trick, display):
        """Yield (cards passed, hands after, the Ghost's display after) for every pass the crew may make
        after trick `played` (in a position's trick, the one it made, or those that make the steps it fixes
        and leave the rest to the crew: ANY_CARD): one empty pass when the space has none there."""
        space = self.space
        if not space.passes_after(played, card_set(trick), self.tricks):
            yield (), hands, display
            return
        fixed = self.mission.chosen[played - 1].passed if played - 1 < len(self.mission.chosen) else ()
        if fixed and ANY_CARD not in fixed:
            if not pass_error(hands, fixed, bool(space.jeep_after), space.ghost, display):
                yield (fixed, *self.make_pass(hands, fixed, display))
        else:  # every pass, or those that make the steps a position fixes
            every = (jeep_exchanges(hands, space.jeep_order, space.ghost, display) if space.jeep_after
                     else heli_passes(hands, space.ghost, display))
            yield from (made for made in every if pass_agrees(made[0], fixed))

    def make_pass(self, hands, given, display):
        """Return (hands after, display after) the pass of `given` cards, seat by seat."""
        if self.space.jeep_after:
            return jeep_exchange(hands, given, self.space.jeep_order, self.space.ghost, display)
        return heli_pass(hands, given, self.space.ghost, display)

    def between_tricks(self, hands, played: int, trick, table, display):
        """Return the hands and the Ghost's display after trick `played`: its random pass, the skis,
        fog's draws, the redeal of the discards (the cards played so far but the `table` cards)."""
        if played == self.pass_after:
            hands, display = self.random_pass.apply(hands, self.space.ghost, display)
        if card_set(trick) & self.space.skis:
            hands = skis_rotation(hands, self.space.ghost)
        if played == self.space.redeal_after:
            discards = self.deal.cards & ~cards_in_play(hands, ()) & ~card_set(table)
            hands = redeal(hands, discards, self.space.redeal_order)
        if not self.arrive_after[played]:
            return hands, display
        return tuple(hand | drawn for hand, drawn in zip(hands, self.drawn[played])), display

    # --- perft: every line of play counted, the mission aside ---

    def count_tricks(self, hands, leader: int, played: int, table, display, won_with, tricks: int) -> int:
        """Return the number of move sequences of the next `tricks` tricks from a trick boundary."""
        if tricks == 0:
            return 1
        return sum(
            self.count_plays(hands, opener, played, (), table, display, won_with, tricks)
            for opener in self.openers(leader)
        )

    def count_plays(self, hands, leader: int, played: int, trick, table, display, won_with, tricks: int) -> int:
        """Return the number of move sequences from inside a trick to the end of the `tricks`-th trick from here."""
        if len(trick) == len(hands):
            return self.count_after_trick(hands, leader, played, trick, table, display, tricks)
        seat = (leader + len(trick)) % len(hands)
        total = 0
        for c in scan(self.legal_cards(hands, seat, played, trick, display, won_with)):
            after = without_card(hands, seat, c)
            total += self.count_plays(after, leader, played, trick + (c,), table, display, won_with, tricks)
        return total

    def count_after_trick(self, hands, leader: int, played: int, trick, table, display, tricks: int) -> int:
        """Return the number of move sequences from a full trick (its table card and the passes after it are
        its moves) to the end of the `tricks`-th trick from here."""
        winner = trick_winner(leader, trick, len(hands))
        won_with = self.ghost_won_with(trick, winner)
        total = 0
        for tabled in self.table_choices(trick, played):
            laid = table + (tabled,) if tabled >= 0 else table
            moved, shown = self.between_tricks(hands, played + 1, trick, laid, display)
            for _, passed_hands, passed_display in self.passes(moved, played + 1, trick, shown):
                total += self.count_tricks(passed_hands, winner, played + 1, laid, passed_display, won_with, tricks - 1)
        return total


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


def without_card(hands, seat: int, c: int) -> tuple[int, ...]:
    """Return the hands after `seat` plays card `c`."""
    return hands[:seat] + (hands[seat] & ~bit(c),) + hands[seat + 1 :]


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
        above = in_play & ABOVE[c]
        if not bit(c) & distinct and above & -above & plays & ~distinct:
            continue
        kept |= bit(c)
    return kept


def equivalent_play(card: int, kept: int, in_play: int) -> int:
    """Return the play of `kept` (`without_equivalent_plays`) that `card` wins and loses as: itself, or the next
    card in play above it that is kept."""
    while not kept >> card & 1:
        above = in_play & ABOVE[card]
        card = (above & -above).bit_length() - 1
    return card


def solve(deal: Deal, mission: TaskMission, limits: Limits = Limits(), equivalence: bool = True,
          horizon: int = 0) -> Solution:
    """Decide whether the crew can win `mission` in `deal`; with `horizon` > 0, whether some line plays that many
    tricks without the mission failing (WIN: its line; explain.py's earliest failing trick)."""
    search = _Search(deal, mission, limits, equivalence, horizon)
    start = time.perf_counter()
    try:
        start_state = start_of_play(mission, deal.players)
        line = on_fresh_stack(search.from_boundary, search.drawn[0], deal.commander, 0, start_state)
    except BudgetExceeded:
        return Solution(Outcome.UNKNOWN, search.nodes, time.perf_counter() - start, ENGINE, work=search.work)
    seconds, work = time.perf_counter() - start, search.work
    if line is None:
        return Solution(Outcome.LOSS, search.nodes, seconds, ENGINE, work=work)
    winners = {c: trick.winner for trick in line for c in trick.completed}
    assignment = {c: winners[c] for c in mission.cards if c in winners}  # a horizon's line: the tasks done by then
    return Solution(Outcome.WIN, search.nodes, seconds, ENGINE, line, assignment, work=work)


@dataclass(frozen=True)
class Walked:
    """Where a position's plays (`mission.played`, and the crew's choices `mission.chosen`) lead, by the
    reference's rules (`walk`).

    `tricks`: the tricks played in full (with their table card and pass); `trick`: the cards of the one
    begun, `leader` its first card's seat (the seat due to lead when none is played); `seats`: the seat of
    every play; `hands` now; `done`: the task mask done, `owners` each task's seat (UNASSIGNED: not won
    yet), `counts` each trick counter's value, `won` the tricks each seat has won; `ended`: "" while play
    goes on, else how the mission ended ("won after trick 3", "failed in trick 5"), `failed_in` the trick
    it failed in (0: it did not fail); `due`: "" unless the
    position stops where the crew chooses ("a table card", "a pass") after its last trick; `to_move` the
    seat due to play next and `legal` the cards it may play (a lead with the dog sled: the driver's too;
    none when the mission ended or a choice is due); `display` the Ghost's display now.
    """

    tricks: tuple[Trick, ...]
    trick: tuple[int, ...]
    leader: int
    seats: tuple[int, ...]
    hands: tuple[int, ...]
    done: int
    owners: tuple[int, ...]
    counts: tuple[int, ...]
    won: tuple[int, ...]
    ended: str
    to_move: int
    legal: int
    due: str = ""
    display: tuple[int, ...] = ()
    failed_in: int = 0


def start_of_play(mission: TaskMission, players: int) -> tuple:
    """Return the search state before trick 1: (owners, done, counts, tricks won per seat, table cards, the
    Ghost's display); the counts are the trick counters' values, then each run rule's (current, longest)."""
    counts = (0,) * (len(mission.counters) + 2 * len(mission.runs))
    return initial_owners(mission), 0, counts, (0,) * players, (), mission.space.display


def walk(deal: Deal, mission: TaskMission, to_the_end: bool = False) -> Walked:
    """Play `mission.played` and the crew's choices `mission.chosen` on `deal` by the rules the search uses;
    raise PositionError at the first play or choice that is not legal, is missing (a table card or a pass
    the rules call for before the next play) or comes after the mission ended. `to_the_end`: a special
    mission, scored over every trick, ends only when it fails or after the last trick."""
    search = _Search(deal, mission, Limits(), equivalence=False)
    players = deal.players
    if len(mission.chosen) > len(mission.played) // players:
        raise PositionError(f"the position has choices after trick {len(mission.chosen)}, which it does not play in full")
    state = start_of_play(mission, players)
    hands, leader, played, trick, last, won_with, tricks = search.drawn[0], deal.commander, 0, (), None, None, []
    seats = []
    ended = "won before trick 1" if not to_the_end and search.won(hands, 0, state) else ""
    failed_in = 0
    due = ""
    for ply, c in enumerate(mission.played, 1):
        if ended:
            raise PositionError(f"play {ply} ({format_card(c)}) comes after the mission {ended}")
        if not trick:
            leader = next((seat for seat in search.openers(leader) if hands[seat] >> c & 1), leader)
        seat = (leader + len(trick)) % players
        legal = search.legal_cards(hands, seat, played, trick, state[5], won_with)
        if not hands[seat] >> c & 1:
            raise PositionError(f"play {ply} ({format_card(c)}): seat {seat} does not hold it")
        if not legal >> c & 1:
            raise PositionError(f"play {ply} ({format_card(c)}): seat {seat} may not play it here (its legal "
                                f"cards: {format_cards(legal) or 'none'})")
        if not search.without_sequence_breakers(bit(c), trick, last):
            raise PositionError(f"play {ply} ({format_card(c)}) right after {format_card((trick or (last,))[-1])} "
                                "breaks a sequence rule")
        if not search.without_barred_leads(bit(c), seat, trick):
            raise PositionError(f"play {ply} ({format_card(c)}): a lead rule bars seat {seat} from leading it")
        hands, trick = without_card(hands, seat, c), trick + (c,)
        seats.append(seat)
        if len(trick) < players:
            continue
        choices = mission.chosen[played] if played < len(mission.chosen) else NO_CHOICES
        done_before = state[1]
        hands, state, ended, due, failed = after_trick(search, hands, leader, played, trick, state, choices,
                                                        final=ply == len(mission.played), to_the_end=to_the_end)
        failed_in = played + 1 if failed else 0
        winner = trick_winner(leader, trick, players)
        completed = tuple(c for i, c in enumerate(mission.cards) if (state[1] & ~done_before) >> i & 1)
        tricks.append(Trick(leader, trick, winner, completed, choices.passed, choices.tabled))
        last, won_with = (trick[-1] if search.across else None), search.ghost_won_with(trick, winner)
        trick, played, leader = (), played + 1, winner
    if not ended and not due and played == search.tricks:
        if to_the_end:
            ended = "ended after the last trick"
        else:  # not won after the last trick, though no trick failed it (a task card left unplayed with three players)
            failed_in = played
            ended = f"failed in trick {played} (the last, with a task not done)"
    seat = (leader + len(trick)) % players
    legal = 0
    if not ended and not due:
        for opener in (search.openers(leader) if not trick else [leader]):
            at = (opener + len(trick)) % players
            plays = search.legal_cards(hands, at, played, trick, state[5], won_with)
            legal |= search.without_barred_leads(search.without_sequence_breakers(plays, trick, last), at, trick)
        if not legal:  # every card the rules of play allow breaks a lead or sequence rule: the mission fails
            failed_in = played + 1
            ended = f"failed in trick {failed_in} (seat {seat} may play only cards a mission rule bars)"
    return Walked(tuple(tricks), trick, leader, tuple(seats), hands, state[1], state[0],
                  state[2][:len(mission.counters)], state[3], ended, seat, legal, due, state[5], failed_in)


def after_trick(search: "_Search", hands, leader: int, played: int, trick, state, choices, final: bool,
                to_the_end: bool):
    """Return (hands, state, ended, due, failed) after trick `played` + 1 of a walk: its settling, the crew's table
    card and pass (`choices`, checked), and the chance between tricks. `final`: the position stops here,
    so a choice it does not give is `due` rather than missing."""
    number = played + 1
    after = search.settle(state, number, trick, trick_winner(leader, trick, len(hands)), hands)
    if after is None:
        if choices != NO_CHOICES:
            raise PositionError(f"the choices after trick {number} come after the mission failed in it")
        return hands, state, f"failed in trick {number}", "", True
    pattern = search.mission.pattern
    if pattern is None and choices.tabled >= 0:
        raise PositionError(f"trick {number}: no card goes on the table in this mission")
    if pattern is not None and choices.tabled < 0:
        if not final:
            raise PositionError(f"after trick {number} the crew lays one of its cards on the table: write "
                                f"`table` and the card after the trick's cards")
        return hands, after, "", "a table card", False
    if choices.tabled >= 0:
        if choices.tabled not in trick:
            raise PositionError(f"trick {number}'s table card {format_card(choices.tabled)} is not one of its cards")
        after = (*after[:4], after[4] + (choices.tabled,), after[5])
        if pattern.broken(after[4], search.tricks):
            if choices.passed:
                raise PositionError(f"the pass after trick {number} comes after the mission failed in it")
            return hands, after, f"failed in trick {number} (its table card breaks the pattern)", "", True
    moved, display = search.between_tricks(hands, number, trick, after[4], after[5])
    state = (*after[:5], display)
    won = not to_the_end and search.won(moved, number, state)
    space = search.space
    if won or not space.passes_after(number, card_set(trick), search.tricks):
        if choices.passed:
            raise PositionError(f"no pass is made after trick {number}" + (" (the mission is won)" if won else ""))
        return moved, state, f"won after trick {number}" if won else "", "", False
    if choices.passed:
        error = pass_error(moved, choices.passed, bool(space.jeep_after), space.ghost, display)
        if error:
            raise PositionError(f"the pass after trick {number}: {error}")
    if not choices.passed or ANY_CARD in choices.passed:  # due: a pass left to the crew in part maybe
        if not final:
            raise PositionError(f"after trick {number} the crew passes: write `pass` and the cards passed, seat by "
                                "seat from seat 0, after the trick's cards" + (" (`?` only in the last trick)"
                                                                                 if choices.passed else ""))
        return moved, state, "", "a pass", False
    moved, display = search.make_pass(moved, choices.passed, display)
    return moved, (*state[:5], display), "", "", False


def choices_due(deal: Deal, mission: TaskMission):
    """Yield every TrickChoices the crew may make where a walked position stops with a choice `due`: each card
    of the trick for the table (then the pass, if one follows, is the next position's), or each pass."""
    walked = walk(deal, mission)
    made = mission.chosen[len(walked.tricks) - 1] if len(mission.chosen) == len(walked.tricks) else NO_CHOICES
    if walked.due == "a table card":
        for c in walked.tricks[-1].cards:
            yield TrickChoices(tabled=c)
    elif walked.due == "a pass":
        search = _Search(deal, mission, Limits(), equivalence=False)  # the passes that make the steps it fixes
        for passed, _, _ in search.passes(walked.hands, len(walked.tricks), walked.tricks[-1].cards, walked.display):
            yield TrickChoices(made.tabled, passed)


def perft(deal: Deal, mission: TaskMission, tricks: int) -> int:
    """Return the number of distinct sequences of moves over the first `tricks` tricks of `deal` (perft).

    The moves are the ones the search tries, with no equivalent card dropped: each card played (the
    dog-sled driver opening a trick instead of its leader is the seat of its first card), in a special
    stage the card of each trick laid on the table, and the crew's passes after a trick (helicopter,
    jeep), which count with that trick. Chance between tricks (mission 12's pass, the skis, fog's
    draws, the redeal) moves cards but is no move. Only the rules of play count: `mission` gives its
    stage space's rules, its random pass and whether it lays a table; its tasks, conditions and
    pattern are never looked at, so a line that would have lost the mission counts like any other.
    """
    search = _Search(deal, mission, Limits(), equivalence=False)
    if not 0 <= tricks <= search.tricks:
        raise ValueError(f"perft counts 0 to {search.tricks} tricks of this deal, not {tricks}")
    start = (search.drawn[0], deal.commander, 0, (), mission.space.display, None, tricks)
    return on_fresh_stack(search.count_tricks, *start)
