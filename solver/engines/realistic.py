"""One game of a deal played by a crew whose players each see only their own hand.

Each decision is made by the seat the rules give it to, from deals sampled from what that seat knows
(solver/engines/crew.py: the policies and their ties), on fresh samples drawn from one generator
seeded by the game's seed, so a game depends only on its deal, mission, sample count and seed:

1. **Setup**: where the mission lets the crew choose (its named players, token swaps), the Commander
   takes the setup winnable in most of its samples. Deep Sea's task cards are drafted first, a card at a
   time, the captain first, then clockwise (deep-sea-tasks.md): the seat whose turn it is takes, of the
   cards left it may take, the one after which the cards taken so far, each with its holder, are winnable
   together in the most of its samples, the cards not yet taken not counting (`Draft.together`; ties: the
   card drawn first); a seat that may take none passes. The Commander then chooses among the setups those
   holders leave (an `any` rule's alternatives). Scoring the cards taken, not the whole mission with the
   other holders still free, keeps a pick to (cards left) x samples solves: five cards have up to 720
   setups, and the Commander's choice among all of them, measured on 4-player games of difficulty 12,
   took 11.5 of the 12.7 s of the crew's four games (the sweep of 3 deals a total, 1-20, 4 players: 4 min 11 s
   -> 1 min 13 s on both cores, the perfect-information solves included).
2. **Tasks**: tasks without a fixed owner get one, a task at a time. A draft (the Commander first,
   then clockwise, "until all the tasks have been taken"): the seat whose turn it is takes one of the
   open tasks. A Commander's decision or distribution: the Commander gives the next task, in draw
   order, to a seat the mission's final counts still allow (a decision's counts put every task with
   one seat, so its first task decides). Each option is scored by the mission with that task's owner
   fixed and the others still free within the counts.
   With five players, where the mission allows it ("one player may propose to hand one of his own tasks to any
   other player; all others must accept; at most one transfer"), the seats from the Commander clockwise each
   weigh handing one of their tasks to another seat against keeping them, on samples from what they know: the
   first seat for which the best handover (the first of the best) wins more samples than keeping, and again on
   as many fresh samples, makes it, and no seat after it weighs one. The fresh samples are there because the
   best of several options beats keeping on its own samples by chance too. Measured on the first 75 deals of
   the 18 missions that allow it at 5 players (those of crew-planet-nine-5p-200, the same crew seeds; 1,350
   games): never handing over 171 won and 2,465 tasks done; handing over on the first samples alone 165 and
   2,343 (-0.09 tasks a game, standard error 0.065); confirming on fresh samples 185 and 2,645 (+0.13, 0.065).
   On the Vespa, the blue 1's holder then swaps a card with a member (solver/engines/vespa_swap.py).
3. **Communication**: before each trick from the first one the mission allows ("silent-until-trick-N":
   trick N), each seat that has not yet communicated, from the trick's leader on, may show a card by
   the policy (crew.py); a dead zone shows it without its token, a muted player never shows one.
4. **Play**: at each play the seat to move plays its legal card with the largest credit over its samples (a
   sample in which the mission stays winnable counts 2, one whose solve ran out of its budget 1: crew.credit);
   a seat with one legal card plays it without sampling. Where every card is proven lost in every sample, the
   seat plays for as many tasks as it can: the card after which the most (sample, open task) pairs can still
   be won, each task alone (crew.task_shares).

The game ends when the mission is won or fails (walk's rules); `Game` records every decision with the
options' wins, so a reader sees what each player believed.
"""

import functools
import random
import re
from dataclasses import dataclass, replace

from solver.core.cards import card_set, popcount, scan
from solver.core.deal import Deal
from solver.core.errors import InputError
from solver.core.solution import Limits, Outcome
from solver.engines.crew import (
    OPEN,
    WON,
    CardShare,
    GhostSeat,
    best_card,
    best_option,
    best_raced,
    check_supported,
    communication_of,
    decision_deals,
    leader_scores,
    leader_shares,
    option_shares,
    pass_gifts,
    raced,
    raced_options,
    samples_before_play,
    score_shares,
    shares_on,
    tabled_before,
    task_shares,
    winnable,
)
from solver.engines.crew_passes import PassMade, crew_pass, place_ghost_draws
from solver.engines.reference import Walked, walk
from solver.engines.reference import solve as reference_solve
from solver.engines.score import most_events
from solver.engines.vespa_swap import VespaSwap, vespa_swap
from solver.missions.dealer import Dealt
from solver.missions.knowledge import Communication, Placed
from solver.missions.pass_worlds import shown_last
from solver.missions.position import Position, TrickChoices
from solver.missions.setup import Draft, Setup, events_so_far
from solver.missions.stage import crew_setups
from solver.missions.tasks import LAZY, counts_allow, draft_counts
from solver.trick.spaces import TRAIN, Space

SILENT_UNTIL = re.compile(r"silent-until-trick-(\d+)")
CREW_NODES = 5_000
# A sample's solve stops after CREW_NODES card plays, and counts as not winnable then (a card to play counts it as
# half a win: crew.credit): the crew judges by the lines it finds quickly, and its games are reproducible on any
# machine. The figures below are from before a card counted an open sample as half a win. Measured on 4-player
# games of dealt tasks, 16 samples (the same deals for each budget; tasks done, and the median seconds a game):
#   3 tasks, 40 games: no limit 71.7%; 100,000 plays 72.5%, 0.75 s; 20,000 80.0%, 0.67 s; 5,000 77.5%, 0.44 s;
#                      1,000 75.0%, 0.34 s
#   5 tasks, 30 games: 100,000 46.7%, 1.97 s; 20,000 49.3%, 0.94 s; 5,000 52.0%, 0.54 s; 1,000 54.0%, 0.30 s
#   10 tasks, 20 games: 100,000 13.5%, 4.7 s; 20,000 16.0%, 1.3 s; 5,000 17.0%, 0.57 s; 1,000 7.5%, 0.21 s
# Without a limit, 3% of the solves (past 100,000 plays, up to 23 million) took 84% of the time. From 5,000 to
# 100,000 plays the crew does no worse within the noise of 20-40 games; at 1,000 the 10-task games suffer. With
# more games the 10-task point does move: 260 games of 10 dealt tasks (the same deals and seeds; times beside other work),
# 5,000 plays 21.2% and 0.63 s a game, 50,000 plays 25.2% and 3.5 s (+0.40 tasks a game, standard error 0.16): at
# the first play of those games the 5,000-play limit finds 55 of the 179 winnable samples of 20 games. The
# default stays at 5,000 for speed; `--crew-nodes` raises it.
CREW_LIMITS = Limits(max_nodes=CREW_NODES)
DRAFT = "draft"  # mission.py's assignment modes: "draft", "commander-decision", "commander-distribution"


@dataclass(frozen=True)
class Talk:
    """What a mission's communication rule allows: the first trick (1-based) before which a card may be shown,
    whether with its token, and the seat that may never show one (-1: none); `flicked`: the storm's rule, "whoever
    wants to communicate must first flick the communication tile into the air. If it lands on green, it may be
    used to communicate. If it lands on red, it is used up immediately" (our reading: each side as likely);
    `barred`: the bicycle's cards, whose holder may not communicate."""

    first_trick: int = 1
    tokens: bool = True
    muted: int = -1
    flicked: bool = False
    barred: int = 0

    @staticmethod
    def of(communication: str, setup: Setup) -> "Talk":
        """Return the rule a mission's `communication` (mission.py's values) sets in `setup`: a muted player is the
        one its choice names."""
        silent = SILENT_UNTIL.fullmatch(communication)
        if silent:
            return Talk(first_trick=int(silent.group(1)))
        if communication == "dead-zone":
            return Talk(tokens=False)
        if communication == "muted-player":
            if not setup.chosen:
                raise InputError("a muted-player mission names its muted player with a choice")
            return Talk(muted=setup.chosen[0][1])
        return Talk()


@dataclass(frozen=True)
class Pick:
    """A task given its owner before play: by `chooser`, among `options` ((task index, seat) each), with each
    option's wins out of the samples it was solved on, `tried` (both empty when there was one option; raced:
    `crew.raced_options`); `drafted`: taken in a draft, else given by the Commander. A Deep Sea card's pick
    indexes the game's `drafted` cards."""

    chooser: int
    task: int
    seat: int
    options: tuple[tuple[int, int], ...]
    wins: tuple[int, ...]
    tried: tuple[int, ...]
    drafted: bool


@dataclass(frozen=True)
class Handover:
    """The five-player task pass as `seat` weighed it before trick 1: `keep` its samples won keeping its tasks,
    `options` ((task index, to seat) each) with their `wins`, `best` the option that beat keeping (-1: none did),
    `confirmed` (keeping, that option) on fresh samples, and `made` the option handed over (-1: it kept its
    tasks)."""

    seat: int
    keep: int
    options: tuple[tuple[int, int], ...]
    wins: tuple[int, ...]
    best: int
    confirmed: tuple[int, ...]
    made: int


@dataclass(frozen=True)
class SledWeighing:
    """The dog sled's driver before a trick another seat leads: its own cards' shares of its samples, and in how
    many of them the mission stays winnable with the leader leading (`leader_wins`; `leader_open`: open, crew.credit;
    on a special mission the shares and `leader_wins` are the samples' best scores summed, none open).
    It opens with its best card when that card's credit is larger; else the leader leads ("they may also decide,
    before each trick, whether they want to open it")."""

    driver: int
    shares: tuple[CardShare, ...]
    leader_wins: int
    leader_open: int = 0

    @property
    def opens(self) -> bool:
        """Return True when the driver opens the trick: its best card's credit beats the leader leading."""
        return max(s.credit for s in self.shares) > WON * self.leader_wins + OPEN * self.leader_open


@dataclass(frozen=True)
class Decision:
    """A play: the seat, its card, and every legal card's share of its samples (empty: its one legal card); where
    every card was proven lost in every sample, each card's share of (sample, open task) pairs still winnable
    alone (`tasks`, crew.task_shares), which chose the card."""

    seat: int
    card: int
    shares: tuple[CardShare, ...]
    tasks: tuple[CardShare, ...] = ()
    sled: SledWeighing | None = None  # a lead the dog sled's driver weighed first


@dataclass(frozen=True)
class Scoring:
    """A special mission as the crew plays it: `missions_for(e)` the missions (one per way to make them) asking
    for at least e scoring events, `most_for(deal)` a bound on a deal's events, the `deduction`, and `made(tricks)`
    the events the tricks played made. The game is played to its last trick and scored then."""

    missions_for: object
    most_for: object
    deduction: int
    made: object

    def score(self, tricks) -> int:
        """Return the score of a game whose tricks are `tricks`: its events less the deduction, never below 0."""
        return max(0, self.made(tricks) - self.deduction)


@dataclass(frozen=True)
class Game:
    """A game played by the hidden-information crew: the setup chosen (with each setup's wins), the task picks,
    the cards shown, the plays, the mission as played (owners fixed, every play in `played`) and where it ended;
    `drafted`: the Deep Sea cards drafted (their ids), which the first picks index; `offered`: the labels of the
    setups the Commander chose among, as `setup_wins` scores them; `handovers`: the five-player task pass as
    each seat weighed it."""

    setup: Setup
    setup_wins: tuple[int, ...]
    picks: tuple[Pick, ...]
    shown: tuple[Communication, ...]
    decisions: tuple[Decision, ...]
    mission: object
    walked: Walked
    samples: int
    drafted: tuple[str, ...] = ()
    offered: tuple[str, ...] = ()
    handovers: tuple[Handover, ...] = ()
    given: tuple[int, ...] = ()  # mission 12: the card each seat gave in the random pass (empty: none was made)
    tiles_lost: tuple[tuple[int, int], ...] = ()  # the storm: (seat, trick before which its tile landed red)
    score: int | None = None  # a special mission's score (None: a mission won or lost)
    vespa: VespaSwap | None = None  # the Vespa's swap (None: none was made); `walked` plays the deal after it
    tabled: tuple[Decision, ...] = ()  # a special stage: the card of each trick its winner laid on the table
    passes: tuple[PassMade, ...] = ()  # the jeep's exchange and the helicopter's passes, as the crew made them

    @property
    def outcome(self) -> Outcome:
        if self.score is not None:
            return Outcome.WIN if self.score > 0 else Outcome.LOSS  # "0 steps counts as a failure"
        return Outcome.WIN if self.walked.ended.startswith("won") else Outcome.LOSS

    @property
    def tasks_done(self) -> int:
        return popcount(self.walked.done)

    @property
    def lost_in(self) -> int | None:
        """Return the trick in which the mission failed (None: it was won)."""
        if self.outcome is Outcome.WIN:
            return None
        return self.walked.failed_in or len(self.walked.tricks)  # also before the trick's first card: a barred lead

    def redeal_draws(self) -> dict[int, list[int]]:
        """Return the discards each seat drew in a five-player special stage's redeal, seats in order and -1 (those
        left over) last; empty when none was made: the cards of the tricks before it but their table cards, lowest
        first, to the seats of the deal's redeal order."""
        space = self.mission.space
        if not 0 < space.redeal_after <= len(self.walked.tricks):
            return {}
        played = card_set(c for trick in self.walked.tricks[: space.redeal_after] for c in trick.cards)
        discards = played & ~tabled_before(self.walked, space.redeal_after)
        drawn: dict[int, list[int]] = {seat: [] for seat in sorted(set(space.redeal_order), key=lambda s: (s < 0, s))}
        for c, seat in zip(scan(discards), space.redeal_order):
            drawn[seat].append(c)
        return drawn


def play_game(deal: Deal, setups, communication: str = "normal", assignment: str = DRAFT, samples: int = 16,
              seed: int = 0, solve=None, limits: Limits = CREW_LIMITS, draft: Draft | None = None,
              task_pass: bool = False, ghost: GhostSeat | None = None, space: Space = TRAIN,
              scoring: Scoring | None = None) -> Game:
    """Play `deal` with the crew: the mission's `setups` (solver/missions/setup.py), its `communication` rule and
    `assignment` mode (mission.py's: a draft, the Commander's decision or distribution), `samples` deals a
    decision, drawn from `seed`; `solve` the exact engine on each sample (default: the reference), within
    `limits` a solve (past them, the sample counts as not winnable, or half winnable for a card: crew.credit); `draft` the Deep Sea cards the setups'
    holders draft (Dealt.draft); `task_pass`: with five players a seat may hand a task on (Mission.five_player_pass);
    `ghost`: two players, who decides for the Ghost (JARVIS) and what his display never holds; `space`: the stage
    space, for what it does to communication (the storm's, the bicycle's: Talk) and the Vespa's swap before the
    first communication (vespa_swap.py; the setups, tasks and handovers weighed without it); `scoring`: a special mission
    (`setups` those of no events), played to its last trick, each card chosen for the best mean score of its
    samples (crew.score_shares)."""
    if samples < 1:
        raise InputError(f"the crew samples at least 1 deal a decision, not {samples}")
    for setup in setups:
        check_supported(setup.mission)
    solve = solve or reference_solve
    rng = random.Random(seed)
    drafts = []
    if draft is not None:
        setups, drafts = draft_cards(deal, setups, draft, samples, rng, solve, limits, ghost)
    setup_wins, chosen = (), 0
    if len(setups) > 1:
        deals = samples_before_play(deal, deal.commander, samples, rng, setups[0].mission, ghost)
        setup_wins = option_shares(deals, [s.mission for s in setups], solve, limits)
        chosen = best_option(setup_wins)
    setup = setups[chosen]
    mission, picks = assign_tasks(deal, setup.mission, assignment == DRAFT, samples, rng, solve, limits, ghost)
    picks = drafts + picks
    handovers = ()
    if task_pass and deal.players == 5:
        mission, handovers = hand_over(deal, mission, samples, rng, solve, limits)
    vespa = None
    if space.unit.swaps_before_play:
        deal, mission, vespa = vespa_swap(deal, mission, samples, rng, solve, limits, ghost)
    talk = replace(Talk.of(communication, setup), flicked=space.unit.tiles_flicked,
                   barred=space.unit.barred_communication(space))
    position, shown, decisions, lost, tabled, passes = Position(), [], [], [], [], []
    while True:
        walked = walk(deal, position.on(mission), to_the_end=scoring is not None)  # a score: every trick is played
        if walked.ended:
            break
        if walked.due == "a pass":  # the jeep's exchange or a helicopter's pass: every seat chooses, unseen
            made = crew_pass(deal, mission, walked, position, shown, samples, rng, solve, limits, scoring, ghost)
            if mission.space.ghost >= 0 and made.after == mission.space.jeep_after:
                made = place_ghost_draws(deal, mission, made, position, shown, samples, rng, solve, limits, ghost,
                                         scoring)
            passes.append(made)
            position = position.choose(made.made(), len(walked.tricks))
            continue
        if walked.due:  # a special stage: the trick's winner lays one of its cards on the table
            laid = table_card(deal, mission, walked, position, shown, samples, rng, solve, limits, ghost)
            tabled.append(laid)
            position = position.choose(TrickChoices(tabled=laid.card), len(walked.tricks))
            continue
        if not walked.trick:
            shown += communications_before(walked, mission, talk, shown, deal.players, lost, rng)
            if mission.random_pass is not None and not walked.tricks:  # "his communicated card excluded"
                mission = replace(mission, random_pass=shown_last(mission.random_pass, shown))
        shares = tasks = ()
        sled, seat, legal = None, walked.to_move, walked.legal
        driver = mission.space.sled
        if not walked.trick and driver not in (-1, seat) and walked.legal & walked.hands[driver]:
            sled = driver_weighs(deal, mission, walked, position, shown, samples, rng, ghost, solve, limits, scoring)
            seat, legal = (driver, walked.hands[driver]) if sled.opens else (seat, walked.legal & ~walked.hands[driver])
        opened = sled is not None and seat == driver
        if opened:
            card = best_card(sled.shares)
        elif popcount(legal) == 1:
            card = legal.bit_length() - 1
        else:
            placed = vespa.placed(ghost.decider(seat) if ghost else seat) if vespa is not None else Placed()
            deals = decision_deals(deal, mission, walked, position.plays, shown, samples, rng, ghost, placed=placed)
            if scoring is not None:
                shares = score_shares(deals, scoring.missions_for, scoring.most_for, scoring.deduction, position, walked,
                                      solve, limits, race=True, legal=legal)
            else:
                shares = shares_on(deals, mission, position, walked, solve, limits, race=True, legal=legal)
            if scoring is None and max(s.credit for s in shares) == 0 and mission.all_done & ~walked.done:
                # proven lost in every sample: play for the most tasks (none open: a table or trick counters, the
                # cheapest)
                tasks = task_shares(deals, mission, position, walked, solve, limits, race=True, legal=legal)
            card = best_card(tasks or shares)
        decisions.append(Decision(seat, card, sled.shares if opened else shares, tasks, sled))
        position = position.then(card)
    drafted = tuple(card.id for card in draft.cards) if draft is not None else ()
    offered = tuple(s.label for s in setups) if setup_wins else ()
    return Game(setup, setup_wins, tuple(picks), tuple(shown), tuple(decisions), position.on(mission), walked, samples,
                drafted, offered, handovers, pass_gifts(deal, mission, walked), tuple(lost),
                None if scoring is None else scoring.score(walked.tricks), vespa, tuple(tabled), tuple(passes))


def play_dealt(game: Dealt, samples: int, seed: int, solve, limits: Limits) -> Game:
    """Play a dealt game (solver/missions/dealer.py: its deal, stage and mission or task setup) with the crew, as
    `play_game` does with everything the deal is played with: the crew's setups on the stage, the mission's
    communication and assignment, its Deep Sea draft, five-player task pass, Ghost, space and score."""
    mission = game.mission
    rules = (mission.communication, mission.assignment) if mission is not None else ()
    return play_game(game.deal, crew_setups(game.stage, game.deal, game.setups()), *rules, samples=samples, seed=seed,
                     solve=solve, limits=limits, draft=game.draft(),
                     task_pass=mission is not None and mission.five_player_pass, ghost=game.ghost(),
                     space=game.stage.space, scoring=scoring_of(game))


def table_card(deal: Deal, mission, walked: Walked, position: Position, shown, samples: int, rng: random.Random,
               solve, limits: Limits, ghost: GhostSeat | None = None) -> Decision:
    """Return the card the winner of a special stage's trick lays on the table ("you must place exactly 1 card from
    each trick onto the table and form a pattern with them"; who places it, the rules leave to the crew: our
    reading, the winner, who takes the trick, and for the Ghost his controller, from what it knows): of the trick's
    cards, in the order played, the one after which the mission stays winnable in the most of its samples, ties to
    the first, raced as cards are (crew.raced)."""
    trick, winner = walked.tricks[-1], walked.tricks[-1].winner
    deals = decision_deals(deal, mission, walked, position.plays, shown, samples, rng, ghost, seat=winner)
    after = {c: position.choose(TrickChoices(tabled=c), len(walked.tricks)).on(mission) for c in trick.cards}
    tallies = raced(trick.cards, samples, lambda c, k: winnable(deals[k].solve(solve, after[c], limits)), race=True)
    return Decision(winner, best_raced(trick.cards, tallies), tuple(CardShare(c, *tallies[c]) for c in trick.cards))


def driver_weighs(deal: Deal, mission, walked: Walked, position: Position, shown, samples: int, rng: random.Random,
                  ghost, solve, limits: Limits, scoring: Scoring | None = None) -> SledWeighing:
    """Return the dog sled's driver's weighing before a trick another seat leads (SledWeighing), on its samples; on a
    special mission (`scoring`) by the samples' best scores, its cards' and the leader's lead's, summed."""
    driver = mission.space.sled
    deals = decision_deals(deal, mission, walked, position.plays, shown, samples, rng, ghost, seat=driver)
    if scoring is None:
        own = shares_on(deals, mission, position, walked, solve, limits, legal=walked.hands[driver])
        return SledWeighing(driver, own, *leader_shares(deals, mission, position, walked, solve, limits))
    weighed = (deals, scoring.missions_for, scoring.most_for, scoring.deduction, position, walked, solve, limits)
    return SledWeighing(driver, score_shares(*weighed, legal=walked.hands[driver]), leader_scores(*weighed))


def scoring_of(game: Dealt) -> Scoring | None:
    """Return how the crew scores a special mission's `game` (its stage's rules in every mission; None: not a
    special mission)."""
    mission = game.mission
    if mission is None or mission.score is None:
        return None

    @functools.cache
    def missions_for(events: int) -> tuple:
        return tuple(s.mission for s in crew_setups(game.stage, game.deal, game.setups(events)))

    return Scoring(missions_for, lambda deal: most_events(mission, deal, game.stage),
                   mission.score.deduction_for(game.deal.players), lambda tricks: events_so_far(mission, game.deal, tricks))



def hand_over(deal: Deal, mission, samples: int, rng: random.Random, solve, limits: Limits):
    """Return `mission` (its owners fixed) after the five-player task pass, and each seat's weighing of it: from the
    Commander clockwise, a seat with tasks compares keeping them with handing one to another seat on its samples,
    and hands over the best option (the first of the best) when it wins more samples than keeping, on those and
    on as many fresh ones; then no other seat weighs one ("at most one transfer")."""
    handovers = []
    for offset in range(deal.players):
        seat = (deal.commander + offset) % deal.players
        options = tuple((task, to) for task, owner in enumerate(mission.owners) if owner == seat
                        for to in range(deal.players) if to != seat)
        if not options:
            continue
        deals = samples_before_play(deal, seat, samples, rng, mission)
        handed = [replace(mission, owners=tuple(to if i == task else owner for i, owner in enumerate(mission.owners)))
                  for task, to in options]
        keep, *wins = option_shares(deals, [mission, *handed], solve, limits)
        best = best_option((keep, *wins)) - 1
        confirmed = ()
        if best >= 0:  # the best of several options beats keeping on its samples by chance too: try it on fresh ones
            fresh = samples_before_play(deal, seat, samples, rng, mission)
            confirmed = option_shares(fresh, [mission, handed[best]], solve, limits)
        made = best if confirmed and confirmed[1] > confirmed[0] else -1
        handovers.append(Handover(seat, keep, options, tuple(wins), best, confirmed, made))
        if made >= 0:
            return handed[made], tuple(handovers)
    return mission, tuple(handovers)


def draft_cards(deal: Deal, setups, draft: Draft, samples: int, rng: random.Random, solve, limits: Limits,
                ghost: GhostSeat | None = None):
    """Return the `setups` whose holders the crew drafted, and its picks: from the Commander clockwise, the seat
    whose turn it is takes, of the cards left that some setup lets it hold, the one after which the cards taken
    are winnable together in the most of its samples (ties: the first); a seat that may take none passes."""
    taken, picks, turn, passes = {}, [], deal.commander, 0  # card index -> its holder
    while len(taken) < len(draft.names):
        if passes == deal.players:
            raise InputError("no setup holds the Deep Sea cards the crew has drafted")
        options = [(card, turn) for card in range(len(draft.names))
                   if card not in taken and any(agrees(setup, draft.names, taken | {card: turn}) for setup in setups)]
        if options:
            deals = samples_before_play(deal, turn, samples, rng, setups[0].mission, ghost) if len(options) > 1 else ()
            best, wins, tried = raced_pick(deals, [draft.together(taken | {card: turn}) for card, _ in options],
                                           solve, limits)
            card, _ = options[best]
            picks.append(Pick(turn, card, turn, tuple(options), wins, tried, True))
            taken[card] = turn
        passes = 0 if options else passes + 1
        turn = (turn + 1) % deal.players
    return [setup for setup in setups if agrees(setup, draft.names, taken)], picks


def raced_pick(deals, missions_of, solve, limits: Limits) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """Return the option a pick takes, and each option's wins and samples solved (`crew.raced_options`; with one
    option, no `deals`: that option, and no tallies)."""
    if len(missions_of) == 1:
        return 0, (), ()
    tallies = raced_options(deals, missions_of, solve, limits)
    return (best_raced(range(len(missions_of)), tallies), tuple(tallies[i][0] for i in tallies),
            tuple(tallies[i][1] for i in tallies))


def agrees(setup: Setup, names, holders: dict[int, int]) -> bool:
    """Return True when `setup` names the holder of each card of `holders` (card index -> seat) as it does, `names`
    the holders' names by card."""
    chosen = dict(setup.chosen)
    return all(chosen[names[card]] == seat for card, seat in holders.items())


def assign_tasks(deal: Deal, mission, drafted: bool, samples: int, rng: random.Random, solve, limits: Limits,
                 ghost: GhostSeat | None = None):
    """Return `mission` with every task's owner fixed by the crew's picks, and the picks: the LAZY owners (all
    of them where `mission.owners` is None) `drafted`, else given by the Commander within the mission's counts.
    A draft ends with its own counts (a five-player task pass comes after: `hand_over`)."""
    drafted = drafted or mission.owners is None
    owners = [LAZY] * len(mission.cards) if mission.owners is None else list(mission.owners)
    if LAZY not in owners:
        return mission, []
    counts = frozenset({draft_counts(owners.count(LAZY), deal.players, deal.commander)}) if drafted else mission.counts
    taken, picks, turn = [0] * deal.players, [], deal.commander
    while LAZY in owners:
        if drafted:
            chooser = turn
            options = [(task, turn) for task, owner in enumerate(owners) if owner == LAZY]
            turn = (turn + 1) % deal.players
        else:
            chooser, task = deal.commander, owners.index(LAZY)
            options = [(task, seat) for seat in range(deal.players) if counts_allow(counts, with_one(taken, seat))]
        missions = [fixed(mission, owners, counts, taken, task, seat) for task, seat in options]
        deals = samples_before_play(deal, chooser, samples, rng, mission, ghost) if len(options) > 1 else ()
        best, wins, tried = raced_pick(deals, [(m,) for m in missions], solve, limits)
        task, seat = options[best]
        picks.append(Pick(chooser, task, seat, tuple(options), wins, tried, drafted))
        owners[task], taken = seat, with_one(taken, seat)
    return fixed(mission, owners, counts, taken), picks


def with_one(taken, seat: int) -> list[int]:
    """Return per-seat counts `taken` with one more task for `seat`."""
    return [count + (other == seat) for other, count in enumerate(taken)]


def fixed(mission, owners, counts, taken, task: int = -1, seat: int = -1):
    """Return `mission` with `owners` (and `task` given to `seat`), the tasks still LAZY within what is left of
    `counts` after `taken` (and that task)."""
    owners = list(owners)
    if task >= 0:
        owners[task], taken = seat, with_one(taken, seat)
    if LAZY not in owners:
        return replace(mission, owners=tuple(owners), counts=None)
    left = frozenset(tuple(v - t for v, t in zip(vector, taken)) for vector in counts
                     if all(v >= t for v, t in zip(vector, taken)))
    return replace(mission, owners=tuple(owners), counts=left)


def communications_before(walked: Walked, mission, talk: Talk, shown, players: int, lost: list,
                          rng: random.Random) -> list[Communication]:
    """Return the cards shown before the walked position's next trick, seat by seat from its leader; a tile the
    storm used up goes to `lost` as (seat, trick), its flick drawn with `rng`."""
    trick = len(walked.tricks) + 1
    if trick < talk.first_trick:
        return []
    spoken = {s.seat for s in shown} | {seat for seat, _ in lost}
    open_tasks = [(c, owner) for i, (c, owner) in enumerate(zip(mission.cards, mission.owners))
                  if not walked.done >> i & 1 and owner >= 0]
    made = []
    for offset in range(players):
        seat = (walked.leader + offset) % players
        if seat in spoken or seat == talk.muted or seat == mission.space.ghost or walked.hands[seat] & talk.barred:
            continue
        said = communication_of(seat, walked.hands[seat], open_tasks, dead_zone=not talk.tokens, trick=trick)
        if said is not None and talk.flicked and rng.random() < 0.5:  # red
            lost.append((seat, trick))
        elif said is not None:
            made.append(replace(said, holds_none=talk.barred))
    return made
