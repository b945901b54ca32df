"""Analysis from a position: every legal card's verdict and a winning line, and the post-mortem of a game.

A position (solver/missions/position.py) is a deal's cases (a mission's setups on its stage, as
solver/engines/cases.py solves them) with the plays so far. The reference's `walk` checks the
plays in every case; the cases in which they are legal (or the one a `choice` names) are the ones
the position is consistent with. A card keeps the mission winnable when some consistent case in
which it is legal is won after it: each card is one solve of those cases with the plays and the
card forced (`TaskMission.played`, and the crew's table cards and passes so far, `chosen`), by any
engine. A position that stops where the crew chooses (a pass, maybe some seats' cards of it named, or a table
card) has no card to analyse: its own verdict is the answer, with a winning line from its last trick.

The slack of a winning line counts, at each decision along it, the legal cards that keep the mission
winnable and those undecided within its limits (a sweep's critical decisions: those where only one card
is proved to keep it winnable and every other is proved to lose it).

The post-mortem solves the game's prefixes in order and stops early where it can: a prefix of a
winning line the solver found is winnable (no solve), and every prefix after a losing one loses. A
play that ends a trick is marked with the crew's choices after that trick (its table card, its pass).
"""

from dataclasses import dataclass
from typing import NamedTuple

from solver.core.cards import bit, card_set, scan
from solver.core.solution import Limits, Outcome, Solution
from solver.engines import cpsat
from solver.engines.cases import ROUNDS, solve_in_rounds
from solver.engines.reference import Walked, equivalent_play, walk, without_equivalent_plays
from solver.engines.score import ScoreAnswer
from solver.missions.position import NO_CHOICES, Position, PositionError, TrickChoices, trimmed
from solver.missions.tasks import distinct_cards


@dataclass(frozen=True)
class Consistent:
    """A case (label, deal, mission) the plays were legal in, its mission holding them, and where they led."""

    label: str
    deal: object
    mission: object
    walked: Walked


@dataclass(frozen=True)
class Reached:
    """What a position allows: its solution (a WIN's line), and for a special mission its best score."""

    solution: Solution
    score: ScoreAnswer | None = None

    @property
    def outcome(self) -> Outcome:
        return self.score.outcome if self.score is not None else self.solution.outcome


@dataclass(frozen=True)
class CardVerdict:
    """One legal card of a position: WIN when the mission stays winnable after it, LOSS, or UNKNOWN."""

    card: int
    outcome: Outcome
    nodes: int
    seconds: float
    score: int | None = None  # a special mission: the best score after the card (at least, when not exact)


@dataclass(frozen=True)
class Analysis:
    """A position analysed: the cases consistent with it (the first one's `walked` state), the verdict of
    every legal card of the seat to move, the position's own outcome, and a winning line (the whole line
    from trick 1, the plays so far first) after one of the winning cards (`best`), if any; where the mission
    has ended or a choice is due, no verdicts and `line` the position's own answer (a special mission's score)."""

    cases: tuple[Consistent, ...]
    verdicts: tuple[CardVerdict, ...]
    outcome: Outcome
    line: Reached | None = None
    best: int = -1

    @property
    def walked(self) -> Walked:
        return self.cases[0].walked


def consistent_cases(cases, position: Position, choice: str | None = None,
                     to_the_end: bool = False) -> tuple[Consistent, ...]:
    """Return the cases in which the `position`'s plays and choices are legal (with `choice`, only the case of that label; `to_the_end`:
    a special mission's, played to the last trick); raise the PositionError of the first case when there is
    none."""
    if choice is not None:
        labels = [label for label, _, _ in cases]
        if choice not in labels:
            shown = ", ".join(repr(label) for label in labels)
            raise PositionError(f"no choice {choice!r} in this mission on this deal (its choices: {shown})")
        cases = [case for case in cases if case[0] == choice]
    found, first_error = [], None
    for label, deal, mission in cases:
        forced = position.on(mission)
        try:
            found.append(Consistent(label, deal, forced, walk(deal, forced, to_the_end)))
        except PositionError as error:
            first_error = first_error or error
    if not found:
        raise first_error
    return tuple(found)


def case_solver(solve, limits: Limits = Limits()):
    """Return `reach(consistent, position)`: the consistent cases solved from `position` (a Position) by
    `solve` (an engine on a case), the first WIN, else LOSS or UNKNOWN."""

    def reach(consistent, position) -> Reached:
        cases = [(c.label, c.deal, position.on(c.mission)) for c in consistent]
        return Reached(solve_in_rounds(cases, solve, limits, ROUNDS if len(cases) > 1 else ())[0])

    return reach


def analyze_position(consistent, reach) -> Analysis:
    """Return every legal card's verdict in the position the consistent cases share (`reach(cases, plays)`
    decides the cases from a position, see `case_solver`), the position's outcome and a winning line."""
    position = Position.of(consistent[0].mission)
    walked = consistent[0].walked
    live = [c for c in consistent if not c.walked.ended]
    if not live or walked.due:  # ended: the engines say how (a special mission: its score); a choice due: its verdict
        reached = reach(consistent, position)
        return Analysis(tuple(consistent), (), reached.outcome, reached)
    verdicts, line, best = [], None, -1
    legal = 0
    for c in live:
        legal |= c.walked.legal
    for card in scan(legal):
        after = reach([c for c in live if c.walked.legal >> card & 1], position.then(card))
        score = after.score.score if after.score is not None else None
        verdicts.append(CardVerdict(card, after.outcome, after.solution.nodes, after.solution.seconds, score))
        better = line is None or score is not None and score > line.score.score
        if after.outcome is Outcome.WIN and better:
            line, best = after, card
    outcomes = {v.outcome for v in verdicts}
    outcome = Outcome.WIN if Outcome.WIN in outcomes else Outcome.UNKNOWN if Outcome.UNKNOWN in outcomes else Outcome.LOSS
    return Analysis(tuple(consistent), tuple(verdicts), outcome, line, best)


@dataclass(frozen=True)
class PlayMark:
    """One play of a game: its card and seat, and whether the mission was still winnable after it (and after
    the crew's choices following it, where it ends a trick)."""

    card: int
    seat: int
    outcome: Outcome
    score: int | None = None  # a special mission: the best score after the play


@dataclass(frozen=True)
class PostMortem:
    """A whole game marked play by play: `start` is the deal's own outcome; `first_loss` the index of the
    play that lost the mission, winnable before it and not after (None: none, the deal never was winnable,
    or an UNKNOWN came first); `lost_by` "" when that play's card lost it, else the crew's choice after its
    trick that did ("the pass", "the table card", "the table card and the pass"), the card itself keeping
    the mission winnable."""

    cases: tuple[Consistent, ...]
    start: Outcome
    marks: tuple[PlayMark, ...]
    first_loss: int | None
    solves: int  # the positions solved (the others followed from a winning line or an earlier loss)
    lost_by: str = ""


def post_mortem(consistent, reach) -> PostMortem:
    """Mark every play of the game the consistent cases hold (`mission.played`; `reach` as for
    `analyze_position`)."""
    game = Position.of(consistent[0].mission)
    players = consistent[0].deal.players
    seats = consistent[0].walked.seats
    known, solves = reach(consistent, Position()), 1
    start = known.outcome
    marks, first_loss, previous = [], None, start
    for k in range(1, len(game.plays) + 1):
        prefix = game.prefix(k, players)
        if known.outcome is Outcome.LOSS:
            outcome = Outcome.LOSS
        elif known.outcome is Outcome.WIN and line_position(known.solution).prefix(k, players) == prefix:
            outcome = Outcome.WIN  # a prefix of the best line: winnable, and a special mission's best score stays
        else:
            known, solves = reach(consistent, prefix), solves + 1
            outcome = known.outcome
        score = known.score.score if known.score is not None else None
        if outcome is Outcome.LOSS and previous is Outcome.WIN:
            first_loss = k - 1
        marks.append(PlayMark(game.plays[k - 1], seats[k - 1], outcome, score))
        previous = outcome
    lost_by, checked = lost_by_choice(consistent, reach, game, first_loss, players)
    return PostMortem(tuple(consistent), start, tuple(marks), first_loss, solves + checked, lost_by)


def lost_by_choice(consistent, reach, game: Position, play: int | None, players: int) -> tuple[str, int]:
    """Return what of losing `play` lost the mission, and the solves that took: "" for its card (or no
    losing play, or one with no choice after it), else the crew's choices after its trick, when the card
    alone (the choices left to the solver) keeps the mission winnable."""
    if play is None or (play + 1) % players or play // players >= len(game.chosen):
        return "", 0
    trick = play // players
    if game.chosen[trick] == NO_CHOICES:
        return "", 0
    made = game.chosen[trick]
    card_alone = Position(game.plays[: play + 1], trimmed(game.chosen[:trick]))
    if reach(consistent, card_alone).outcome is not Outcome.WIN:
        return "", 1
    return " and ".join(name for name, chosen in (("the table card", made.tabled >= 0), ("the pass", bool(made.passed)))
                        if chosen), 1


def line_position(solution: Solution) -> Position:
    """Return a winning line as a position: its plays in order and the crew's choices after each trick."""
    return Position(tuple(c for trick in solution.tricks for c in trick.cards),
                    trimmed(TrickChoices(trick.tabled, tuple(trick.passed)) for trick in solution.tricks))


# A sweep's slack solves: the kernel within SLACK_NODES card plays, then CP-SAT within SLACK_CP_SAT_EFFORT of its
# deterministic time, then UNKNOWN (caps, not a time, keep a sweep reproducible); see slack. The positions off a
# winning line that the kernel cannot settle are mostly wins it does not find: on 12 Deep Sea deals (totals 12 and
# 18, 4 players) the kernel alone at 2M plays left 42 solves UNKNOWN (8 decisions perhaps critical) and took
# 40.7 s of slack; 50k plays then CP-SAT decided every solve (the same 88 critical decisions, the 8 not critical)
# in 14.5 s (20k: 13.5, 10k: 15.5); on 20 deals of missions 26, 34, 40, 45 and 46 the same slack in 4.3 s, not 8.1.
# Where CP-SAT does not model the mission (the redeal, the difficult Ghost, the Ghost with passes), the kernel
# alone within SLACK_NODES_ALONE, as before CP-SAT took part: 100 deals of "rising" at 3 players, the kernel alone,
# left 24 decisions perhaps critical at 50k plays and 3 at 2M; since CP-SAT models table patterns, 50k plays then
# CP-SAT leave none, and the crew sweep of those deals (the same 100 games) took 27 s instead of 56 (5 deals' lines
# differ: CP-SAT found their wins, so their slack is counted on other lines).
SLACK_NODES = 50_000
SLACK_CP_SAT_EFFORT = 1.0
SLACK_NODES_ALONE = 2_000_000


def slack_limits(mission, budget: float | None) -> Limits:
    """Return the limits of a sweep's slack solves on `mission` within `budget` seconds of work (see SLACK_NODES)."""
    if cpsat.unsupported(mission):
        return Limits(max_nodes=SLACK_NODES_ALONE, max_work=budget)
    return Limits(max_nodes=SLACK_NODES, max_work=budget, cp_sat_effort=SLACK_CP_SAT_EFFORT)


class DecisionSlack(NamedTuple):
    """One decision along a winning line: its legal cards proved to keep the mission winnable (its own card
    among them) and those whose solve ended undecided within the limits."""

    winning: int
    undecided: int = 0

    @property
    def critical(self) -> bool:
        """Whether only the line's card keeps the mission winnable: every other card is proved to lose it."""
        return self.winning == 1 and not self.undecided

    @property
    def perhaps_critical(self) -> bool:
        """Whether no other card is proved to keep it winnable but some is undecided."""
        return self.winning == 1 and self.undecided > 0


def slack(deal, mission, line: Position, solve, limits: Limits = Limits(), critical_only: bool = False
          ) -> tuple[DecisionSlack, ...]:
    """Return the slack of a winning line of `mission` on `deal` (its choices between tricks, a special stage's
    table cards, as the line made them): at each decision along it (a play with two legal cards or more), the
    legal cards that keep the mission winnable and those left UNKNOWN (`solve` an engine on a case, within
    `limits`). Of two legal cards with no other card in play between them, the lower wins and loses as the higher
    (the reference's reduction), so only the higher is solved; the line's card and those it stands for keep the
    mission winnable. Measured on the lines of 18 deals (Deep Sea totals 8 and 16, Planet Nine 30; 4 players): the
    same slack with 1,274 solves instead of 1,576, in the same time (it goes to the few solves that reach their
    node cap). `critical_only`: a decision stops at its first other card that keeps the mission winnable, its
    slack then (2, 0), "two or more" (what a sweep keeps: whether it is critical or perhaps critical, the same as
    counting every card); on 12 Deep Sea deals (totals 12 and 18, 4 players, the sweep's portfolio) the same
    88 critical decisions in 5.6 s of slack instead of 15.0, the whole sweep (crew and perfect information
    too) 21.7 s instead of 31.1, in turns in one process."""
    decisions, distinct = [], distinct_cards(mission)
    for k, card in enumerate(line.plays):
        before = line.prefix(k, deal.players)
        walked = walk(deal, before.on(mission))
        legal = walked.legal
        if legal & (legal - 1):
            in_play = card_set(walked.trick)
            for hand in walked.hands:
                in_play |= hand
            kept = without_equivalent_plays(legal, in_play, distinct)
            line_play = equivalent_play(card, kept, in_play)  # keeps it winnable: the line goes on from it
            others = [equivalent_play(c, kept, in_play) for c in scan(legal & ~bit(card))]  # each one's stand-in
            solved, done = {line_play: Outcome.WIN}, critical_only and line_play in others
            for c in scan(kept & ~bit(line_play)):
                if done:
                    break
                solved[c] = solve(deal, before.then(c).on(mission), limits).outcome
                done = critical_only and solved[c] is Outcome.WIN
            outcomes = [solved.get(c) for c in others]  # None: not solved, after another card won
            winning = 1 + outcomes.count(Outcome.WIN)
            decisions.append(DecisionSlack(2) if critical_only and winning > 1
                             else DecisionSlack(winning, outcomes.count(Outcome.UNKNOWN)))
    return tuple(decisions)
