"""A player who sees only their own hand: its decisions, each from deals sampled from what it knows.

Perfect-information Monte Carlo, as in the Skat and bridge programs: the seat that decides draws
deals of the unseen cards uniformly among those consistent with what it knows (solver/missions/
knowledge.py: its hand, the plays and their voids, the cards shown with their tokens), and asks the
exact solver of each one which of its options keep the mission winnable. An option's share is the
fraction of the samples in which it does (UNKNOWN past the budget counts as not winnable; a card to play counts
such a sample as half a win, `credit`); every option is scored on the same samples, and the same seed draws the
same samples.

The policies, each deterministic given the samples:

- **play** (`card_shares`, `best_card`): the legal card with the largest credit, a sample in which the mission
  stays winnable after it counting 2 and one whose solve ran out of its budget 1 (`credit`; a special mission: the
  largest total of the samples' best scores after it, `score_shares`); ties go to the
  cheapest card (a non-trump before a rocket, then the lowest rank, then the lowest suit), keeping
  high cards and rockets for later. A game races the cards (`shares_on`, `raced`): from the cheapest,
  each card is solved sample after sample until it can no longer beat the best card before it. Where
  no card has any credit (lost in every sample), the card after which the most (sample, open task) pairs can
  still be won, each task alone (`task_shares`, credited alike).
- **tasks and setups** (`option_shares`, `best_option`): the option (a setup, a task to take, a seat
  to give a task to) in which the mission is winnable in the most samples; ties go to the first
  option in the order offered (the setups' order, the tasks' draw order, seats clockwise).
- **communication** (`communication_of`): at its first chance (before a trick, from the trick the
  mission first allows) a seat shows a task card it holds that another seat must win, so that its
  owner knows where it lies; failing that, the only card it holds of a colour in which another
  seat owns an open task (it will soon be void there, and can throw or trump). It shows only a card
  that is the highest, only or lowest of its colour in its hand ("to mean respectively that it is
  the highest, only, or lowest card of that colour in hand"), the one a token can say; with none of
  those it waits.

Mission 12's random pass: before it, each sample also draws the pass to come (a uniform order of the deck, the
cards shown before trick 1 last: "his communicated card excluded"); after it, a sample is a world of what the
pass left unknown (solver/missions/pass_worlds.py: the cards each seat kept and gave), which is a deal again with
the pass it made. Each sample's solves play its own pass (`Sample`). On the skis every seat is the one dealt the
hand that played or showed a card (`by_hand_dealt`), and each hand a player held since the pass it knows whole; on
the hang glider a discard caps the hand's places; on the helicopter the pass is one more of its passes; on the jeep,
before the exchange each sample also draws its shuffle to come, and after it the gifts are one more step of the
exchange's histories (jeep_worlds.py, `PassBefore`); under fog a sample is a world of fog's draws and the gifts
together (solver/missions/fog_pass_worlds.py, `worlds_after_fog_pass`); with the Ghost both players see every gift, so
a world is one of fog's draws making the gifts made (fog_worlds.py, `with_gifts`).

Of the Journey stage spaces, only those whose effect every player sees (a unit's `crew_refusal`): the spaces
without effect, the bicycle's and the storm's communication (realistic.py, `Talk`; a card shown on the bicycle
says its hand holds no bicycle card, `Communication.holds_none`), the machete's forbidden tricks, and the skis,
which move whole hands (what a player knows is then of the hands as dealt, `hands_moved`), the dog sled (its
driver weighs opening a trick against the leader's lead, `leader_shares`; realistic.py, `SledWeighing`), and the
Vespa (vespa_swap.py: the swap's cards are places the two who made it know, `Placed`), and the hang glider (a
discard leaves room for the card set aside: knowledge.py, `set_aside_caps`; nobody communicates), and fog (a player
knows its own cards as they arrive and what play revealed of each hand then: solver/missions/fog_worlds.py,
`fog_worlds`), and the jeep (crew_passes.py: every seat weighs its pair with the others' left to the search;
each sample before the exchange draws its shuffle to come, and after it is a history of the exchange,
solver/missions/jeep_worlds.py, `worlds_after_jeep`), and the helicopter (crew_passes.py, as the jeep's pairs; after
a pass a sample is a history of every pass, solver/missions/heli_worlds.py, `worlds_after_heli`). A special stage's
table: the winner of each trick lays one of its cards on it (realistic.py, `table_card`); with five players, after
the redeal of the discards a player knows the discards it drew, not who drew the others
(solver/missions/redeal_worlds.py), and before it each sample draws the redeal to come; not with the Ghost. Two players: the player who controls the Ghost (JARVIS) decides for him with what it knows,
and nobody knows his face-down cards (solver/missions/ghost_knowledge.py, `GhostSeat`); on the helicopter and the
jeep both players see where every card passed went (`passes_seen`), and each sample of the jeep has its shuffle
(`jeep_history`); the Vespa's swap both see whole (vespa_swap.py); so they do mission 12's random pass's gifts
(`ghost_moves`); under fog his display is one more hand of the fog worlds (`ghost_fog_worlds`), the gifts seen.
"""

import random
from dataclasses import dataclass, replace

from solver.core.cards import CARD_COUNT, DECK, SUIT_MASKS, TRUMP, bit, card_set, popcount, rank_of, scan, suit_of
from solver.core.deal import Deal
from solver.core.errors import InputError
from solver.core.rules import num_tricks
from solver.core.solution import Limits, Outcome
from solver.engines.reference import equivalent_play, walk, without_equivalent_plays
from solver.engines.reference import solve as reference_solve
from solver.missions.fog_pass_worlds import FogPassWorlds
from solver.missions.fog_worlds import FogWorlds
from solver.missions.ghost_knowledge import GhostSeat, dealt_ghost, display_with, knowledge_with_ghost
from solver.missions.heli_worlds import HeliWorlds
from solver.missions.jeep_worlds import JeepWorlds
from solver.missions.knowledge import HIGHEST, LOWEST, ONLY, Communication, Knowledge, Placed
from solver.missions.pass_worlds import PassWorlds, shown_last
from solver.missions.position import Position
from solver.missions.redeal_worlds import RedealWorlds
from solver.missions.tasks import distinct_cards
from solver.trick.chance import RandomPass
from solver.trick.ghost import GHOST_SEAT
from solver.trick.variants import NO_RULES, canonical_pass, ghost_playable

WON, OPEN, LOST = 2, 1, 0  # a sample's credit for a card (`credit`)


def credit(solution) -> int:
    """Return a sample's credit for a card after which it was solved: WON when the mission stays winnable, OPEN when
    the solve ran out of its budget (UNKNOWN: neither a line found nor the mission proven lost), LOST when lost.

    An open sample counts half a won one, so that among cards no sample proves winnable the crew keeps the one
    proven lost in the fewest. With the crew's 5,000-play limit, most samples of a long mission are open early in
    a game: at the first play of 20 games of 10 dealt tasks, the limit found 55 of the 179 winnable samples. Counted
    as lost, they left the choice to the tie-break. Measured on 200 games of 10 dealt tasks (4 players, 16
    samples, the same deals and crew seeds): 28.1% of the tasks done against 22.4% counting an open sample as lost
    (+0.58 tasks a game, standard error 0.20), 8 wins against 6, the median game 0.63 s against 0.55; a 50,000-play
    limit reached 27.3% at five times the time (`realistic.CREW_NODES`)."""
    return WON if solution.outcome is Outcome.WIN else OPEN if solution.outcome is Outcome.UNKNOWN else LOST


@dataclass(frozen=True)
class CardShare:
    """One legal card of the seat to move: in how many of the sampled deals the mission stays winnable after it
    (`wins`), of the `samples` it was solved on; `open` of them ran out of the solve's budget (`credit`)."""

    card: int
    wins: int
    samples: int
    open: int = 0

    @property
    def share(self) -> float:
        return self.wins / self.samples

    @property
    def credit(self) -> int:
        """Return the card's credit over its samples: what the crew chooses by (`best_card`)."""
        return WON * self.wins + OPEN * self.open


@dataclass(frozen=True)
class Sample:
    """One sampled deal, and with a random pass the pass it makes there (None: the mission has none); with the Ghost,
    his display there (its face-down cards sampled); on a special stage with five players, its redeal's order; under
    fog, when each card arrives; on the jeep, its shuffle, and after the exchange what each seat put in."""

    deal: Deal
    random_pass: RandomPass | None = None
    display: tuple[int, ...] = ()
    redeal: tuple[int, ...] = ()
    arrivals: tuple[int, ...] = ()  # fog: when each card of the sample reaches its hand
    jeep_order: tuple[int, ...] = ()  # the jeep: the sample's shuffle (to come, or made)
    passed: tuple[tuple[int, tuple[int, ...]], ...] = ()  # the crew's passes made (the jeep's exchange, the
    # helicopter's): (the trick it followed, 1-based, the cards each seat passed), as the sample has them

    def on(self, mission):
        """Return `mission` as this sample plays it: with the sample's pass, display, redeal, fog's arrivals, the
        jeep's shuffle, and the crew's passes made."""
        if self.passed:
            mission = replace(mission, chosen=with_passes(mission.chosen, self.passed))
        drawn = {name: value for name, value in (("jeep_order", self.jeep_order), ("arrivals", self.arrivals),
                                                 ("display", self.display), ("redeal_order", self.redeal)) if value}
        if drawn:  # the Ghost's display with the jeep's shuffle or fog's arrivals; the others alone
            mission = replace(mission, space=replace(mission.space, **drawn))
        return mission if self.random_pass is None else replace(mission, random_pass=self.random_pass)

    def solve(self, solve, mission, limits: Limits):
        """Return engine `solve`'s answer on this sample (`on`)."""
        return solve(self.deal, self.on(mission), limits)


def with_passes(chosen, passed):
    """Return the crew's choices `chosen` (a position's, trick by trick) with the cards of `passed` ((the trick it
    followed, the cards each seat passed) each) in place of those passed after the tricks it names."""
    chosen = list(chosen)
    for after, cards in passed:
        if len(chosen) >= after:
            chosen[after - 1] = replace(chosen[after - 1], passed=cards)
    return tuple(chosen)


def hidden_unsupported(mission) -> str:
    """Return why a hidden-information player cannot play `mission` yet, or "" when it can."""
    space = mission.space
    if space.redeal_after and (space != replace(NO_RULES, redeal_after=space.redeal_after,
                                                redeal_order=space.redeal_order) or mission.random_pass is not None):
        return "a special stage's redeal with other rules of play"  # never in the rules: a stage on no space
    ghost = replace(NO_RULES, ghost=space.ghost, display=space.display, difficult=space.difficult)
    if space.heli_pass and (space != replace(ghost, heli_pass=space.heli_pass) or mission.pattern is not None):
        # heli_worlds.py knows it alone (mission 12's random pass its pass more); with the Ghost, every pass is seen
        return "the helicopter with another rule of play or a table"
    if space.jeep_after and (space != replace(ghost, jeep_after=space.jeep_after, jeep_order=space.jeep_order)
                             or mission.pattern is not None):
        # jeep_worlds.py knows the jeep alone, a random pass before it too; with the Ghost, both players see where
        # every card went (`passes_seen`)
        return "the jeep with another rule of play or a table"
    if space.arrivals and space != replace(ghost, arrivals=space.arrivals):
        # fog_worlds.py knows fog's draws, the Ghost beside (a random pass with him seen whole); fog_pass_worlds.py
        # the random pass without him
        return "fog with another rule of play"
    if mission.random_pass is not None and mission.random_pass.after != 1:
        return "a random pass after another trick than the first"
    return ""


def check_supported(mission) -> None:
    """Raise InputError naming what a hidden-information player does not model in `mission`."""
    why = hidden_unsupported(mission)
    if why:
        raise InputError(f"the hidden-information player does not model {why}")


def sampled_deals(known: Knowledge, played: tuple[int, ...], commander: int, samples: int, rng: random.Random,
                  random_pass: RandomPass | None = None, shown=(), redeal: tuple[int, ...] = (),
                  jeep_order: tuple[int, ...] = ()) -> list[Sample]:
    """Return `samples` whole deals drawn with `rng` from `known`: each seat's sampled hand now with the
    cards it already played (`played`, seat by seat); with a `random_pass` still to come, each with a pass drawn
    after the hands (`pass_to_come`, the cards `shown` last); with a `redeal` still to come (its order: how many
    discards each seat draws is known, not which), each with its order shuffled after the hands; likewise the jeep's
    shuffle to come (`jeep_order`: two cards to each seat)."""
    deals = [Deal(tuple(hand | gone for hand, gone in zip(now, played)), commander) for now in known.samples(rng, samples)]
    if redeal:
        return [Sample(deal, redeal=tuple(rng.sample(redeal, len(redeal)))) for deal in deals]
    drawn = [Sample(deal, None if random_pass is None else pass_to_come(random_pass, shown, rng)) for deal in deals]
    return with_jeep_to_come(drawn, jeep_order, rng)


def with_jeep_to_come(samples: list[Sample], jeep_order: tuple[int, ...], rng: random.Random) -> list[Sample]:
    """Return `samples`, each with the jeep's shuffle to come drawn with `rng` (none: no jeep's exchange to come)."""
    return [replace(sample, jeep_order=tuple(rng.sample(jeep_order, len(jeep_order)))) if jeep_order else sample
            for sample in samples]


def samples_before_play(deal: Deal, seat: int, samples: int, rng: random.Random, mission, ghost: GhostSeat | None = None,
                        placed: Placed = Placed()) -> list[Sample]:
    """Return `samples` deals drawn with `rng` from what `seat` of `deal` knows before trick 1 (`mission`: whether a
    random pass is to come; with the Ghost, `ghost` says who decides for him; `placed`: see Knowledge.of)."""
    if mission.space.ghost >= 0:
        return ghost_deals(deal, mission, ghost_seat(ghost).decider(seat), deal.hands, (), (0,) * deal.players, (),
                           samples, rng, ghost_seat(ghost), placed=placed)
    if mission.space.arrivals:
        return fog_worlds(deal, mission.space.arrivals, seat, [], (), samples, rng, mission.random_pass)
    return sampled_deals(Knowledge.before_play(deal, seat, placed), (0,) * deal.players, deal.commander, samples, rng,
                         mission.random_pass, redeal=mission.space.redeal_order, jeep_order=mission.space.jeep_order)


def ghost_seat(ghost: GhostSeat | None) -> GhostSeat:
    """Return `ghost`; InputError when a two-player game lacks it."""
    if ghost is None:
        raise InputError("a two-player game needs the Ghost's seat: who decides for him, what his display never holds")
    return ghost


def ghost_deals(deal: Deal, mission, seat: int, hands, tricks, played, communications, samples: int,
                rng: random.Random, ghost: GhostSeat, now_display: tuple[int, ...] = (), moves=(),
                exchange: tuple[int, ...] = (), placed: Placed = Placed(), gifts: tuple[int, ...] = ()) -> list[Sample]:
    """Return `samples` deals drawn with `rng` from what player `seat` knows with the Ghost (ghost_knowledge.py):
    `hands` now, `tricks` as (seat, card) lists, `played` the cards played from each hand as dealt; each with its
    display. Once the skis have swapped the players' hands, each player knows both. On the helicopter and the jeep,
    `moves` are the cards passed so far (`passes_seen`), which both players see, and `now_display` his display
    after them; on the jeep each sample has its shuffle (`jeep_history`; `exchange`: the cards each seat put in,
    once it has); `placed`: what the Vespa's swap told it (vespa_swap.py). Mission 12's random pass: before it each
    sample draws the pass to come; after it (`gifts`, each seat's card, which both players see: his face up, the
    one he gets lying where his lay, the one between the players seen by its giver and its receiver) each sample
    makes the same gifts, and `moves` holds them too."""
    display = mission.space.display
    last_trick = num_tricks(deal.hands) - 1 if mission.space.hang_glider else -1
    moved = hands_moved(tricks, mission.space.skis, deal.players)[1]
    seen = ((1 - seat, hands[1 - seat]),) if moved else ()  # the skis swapped the players' hands: it held both
    dealt_tricks = tricks_by_hand(tricks, mission.space.skis, deal.players, GHOST_SEAT)
    now_display = now_display or display
    begun = tricks[-1] if tricks and len(tricks[-1]) < deal.players else ()
    # "After the trick, the Scout reveals the face-down card underneath": a card he played in the trick begun
    # still covers his face-down card for what the players know.
    hands = (*hands[:GHOST_SEAT], hands[GHOST_SEAT] | card_set(c for s, c in begun if s == GHOST_SEAT))
    if mission.space.arrivals:
        return ghost_fog_worlds(deal, mission, seat, hands, tricks, communications, samples, rng, ghost, now_display,
                                gifts)
    known = knowledge_with_ghost(seat, hands, now_display, tricks, communications, deal.cards, ghost.aside,
                                 deal.commander, last_trick, seen, moves, placed)
    drawn = []
    for now in known.samples(rng, samples):
        sampled = display_with(display, hands[GHOST_SEAT], now[GHOST_SEAT], rng, now_display)
        by_hand = tuple(now[dealt_seat(p, -moved, deal.players, GHOST_SEAT)] for p in range(GHOST_SEAT))
        if moves:  # each hand dealt less its plays and the cards it passed and got (all before the skis, if any)
            players = undone(by_hand + (0,), dealt_tricks, moves)[:GHOST_SEAT]
        else:
            players = tuple(hand | gone for hand, gone in zip(by_hand, played))
        sample = Sample(Deal((*players, dealt_ghost(sampled)), deal.commander), display=sampled)
        if mission.random_pass is not None:
            sample = replace(sample, random_pass=made_pass(mission.random_pass, gifts) if gifts else
                             pass_to_come(mission.random_pass, communications, rng))
        if mission.space.jeep_after:
            sample = jeep_history(sample, mission.space, exchange, 1 - seat, tricks, communications, rng, gifts)
        drawn.append(sample)
    return drawn


def ghost_fog_worlds(deal: Deal, mission, seat: int, hands, tricks, communications, samples: int,
                     rng: random.Random, ghost: GhostSeat, now_display: tuple[int, ...],
                     gifts: tuple[int, ...] = ()) -> list[Sample]:
    """Return `samples` worlds drawn with `rng` from what player `seat` knows under fog with the Ghost (`hands` now,
    his with the card he played in a trick begun; fog_worlds.py): each the hands as they end, the display with the
    sampled cards under his covered columns, and when each card arrives. Mission 12's random pass: before it each
    world draws the pass to come; after it each makes the `gifts`, which both players saw (his face up, the one he
    got lying where his lay, the one between the players seen by its giver and its receiver)."""
    display = mission.space.display
    face_up = ghost_playable(hands[GHOST_SEAT], now_display)
    worlds = fog_knowledge(deal, mission.space.arrivals, seat, tricks, communications, GHOST_SEAT, face_up,
                           ghost.aside, gifts)
    drawn = []
    for final, arrival in worlds.samples(rng, samples):
        covered = final[GHOST_SEAT] & ~face_up & ~worlds.played[GHOST_SEAT]
        sampled = display_with(display, hands[GHOST_SEAT], covered, rng, now_display)
        sample = Sample(Deal((*final[:GHOST_SEAT], dealt_ghost(sampled)), deal.commander), display=sampled,
                        arrivals=arrival)
        if mission.random_pass is not None:
            sample = replace(sample, random_pass=made_pass(mission.random_pass, gifts) if gifts else
                             pass_to_come(mission.random_pass, communications, rng))
        drawn.append(sample)
    return drawn


def passes_seen(walked, space) -> tuple[tuple[int, int, int, int], ...]:
    """Return the cards passed at a walked position of the two-player game, which both players see, as Knowledge.of's
    moves: after each trick holding a heli, every seat's card to the seat on its left; after the jeep's exchange
    (`space`'s), every card that changed hands. Each player saw the two cards it put in and the two it took, and
    the Ghost's face up: so it knows which of the others' cards it took, and which of its own and the Ghost's went
    to the other player; a card the other put in and took back stayed in its hand."""
    moves = []
    for number, trick in enumerate(walked.tricks, 1):
        if number == space.jeep_after and trick.passed:
            putter = {c: seat for seat, pair in enumerate(pairs(trick.passed)) for c in pair}
            moves += [(number, putter[c], taker, c) for c, taker in zip(sorted(trick.passed), space.jeep_order)
                      if putter[c] != taker]
        else:
            moves += [(number, seat, (seat + 1) % len(trick.passed), c) for seat, c in enumerate(trick.passed)]
    return tuple(moves)


def pass_gifts(deal: Deal, mission, walked) -> tuple[int, ...]:
    """Return the card each seat gave in `mission`'s random pass at a walked position of `deal` (empty: none made
    yet; the Ghost gives a face-up card)."""
    random_pass = mission.random_pass
    if random_pass is None or len(walked.tricks) < random_pass.after:
        return ()
    gone = card_set(c for trick in walked.tricks[: random_pass.after] for c in trick.cards)
    arrivals = mission.space.arrivals  # fog: the pass is made before the trick's draws
    gone |= card_set(c for c, at in enumerate(arrivals) if at >= random_pass.after)
    return random_pass.given(tuple(hand & ~gone for hand in deal.hands), mission.space.ghost, mission.space.display)


def ghost_moves(deal: Deal, mission, walked) -> tuple[tuple[int, int, int, int], ...]:
    """Return every card that changed hands at a walked position of the two-player game of `deal`, which both players
    see, as Knowledge.of's moves: the crew's passes (`passes_seen`) and mission 12's random pass, each seat's card to
    the seat on its left."""
    gifts = pass_gifts(deal, mission, walked)
    given = tuple((mission.random_pass.after, seat, (seat + 1) % len(gifts), c) for seat, c in enumerate(gifts))
    # after trick 1 the gifts come first: the engines make the random pass before the crew's (reference.py,
    # `between_tricks`), and the sort keeps each trick's moves in their order
    return tuple(sorted(given + passes_seen(walked, mission.space), key=lambda move: move[0]))


def made_pass(random_pass: RandomPass, gifts: tuple[int, ...]) -> RandomPass:
    """Return a pass whose order makes every seat give its card of `gifts`: those first."""
    given = tuple(c for c in gifts if c >= 0)  # -1: a seat with no card to give (fog=1 empties a hand in trick 1)
    return RandomPass(random_pass.after, (*given, *(c for c in random_pass.order if c not in given)))


def pairs(exchange: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Return the jeep's `exchange` (two cards a seat, seat by seat) seat by seat."""
    return [exchange[k : k + 2] for k in range(0, len(exchange), 2)]


def jeep_history(sample: Sample, space, exchange: tuple[int, ...], other: int, tricks, communications,
                 rng: random.Random, gifts: tuple[int, ...] = ()) -> Sample:
    """Return a sample of the two-player game on the jeep (`space`'s) with its shuffle: to come (no `exchange`
    yet), one drawn with `rng`; made, one that gives every card where it went. Of the `other` player's pair the
    player saw the cards it did not take back (`passes_seen`); in the sample it put in those and, for the rest, the
    lowest cards its sampled hand then held (after mission 12's random pass, its `gifts`), not one it had shown where
    it can ("Communicated cards may not be taken this way"): a card taken back changes no hand, so every such choice
    plays alike."""
    if not exchange:
        return replace(sample, jeep_order=tuple(rng.sample(space.jeep_order, len(space.jeep_order))))
    after, taker = space.jeep_after, dict(zip(sorted(exchange), space.jeep_order))
    gave = [c for c in pairs(exchange)[other] if taker[c] != other]
    dealt = sample.deal.hands[other]
    if gifts:  # each seat's gift to the seat on its left, made before the exchange
        dealt = dealt & ~bit(gifts[other]) | bit(gifts[other - 1])
    then = dealt & ~card_set(c for trick in tricks[:after] for seat, c in trick if seat == other)
    showing = card_set(shown.card for shown in communications if shown.seat == other)
    back = sorted(scan(then & ~card_set(gave)), key=lambda c: (bool(showing >> c & 1), c))[: 2 - len(gave)]
    put = [*pairs(exchange)]
    put[other] = (*gave, *back)
    put = canonical_pass(tuple(c for pair in put for c in pair), True, GHOST_SEAT)
    return replace(sample, jeep_order=tuple(taker.get(c, other) for c in sorted(put)), passed=((after, put),))


def undone(hands, tricks, moves) -> tuple[int, ...]:
    """Return `hands` as dealt: each trick's plays (`tricks`, (seat, card) lists) and the passes after it
    (`moves`, Knowledge.of's) taken back, the latest first."""
    hands = list(hands)
    for number in range(len(tricks), 0, -1):
        for before, giver, receiver, c in reversed(moves):
            if before == number:
                hands[receiver] &= ~bit(c)
                hands[giver] |= bit(c)
        for seat, c in tricks[number - 1]:
            hands[seat] |= bit(c)
    return tuple(hands)


def pass_to_come(random_pass: RandomPass, shown, rng: random.Random) -> RandomPass:
    """Return a pass drawn with `rng` as `random_pass` is: a uniform order of the deck, the cards `shown` before it
    last (shown_last)."""
    order = list(range(CARD_COUNT))
    rng.shuffle(order)
    return shown_last(RandomPass(random_pass.after, tuple(order)), shown)


class GameTables:
    """An engine over a KernelSolver that keeps one table generation per mission's rules (the mission without
    its position): a position proved lost stays lost for every sampled deal and every later decision.

    Sound because the table's key (kernel/table.py) hashes each present card's holder by its rank among the
    present cards of its suit (the mission's distinct cards by identity), never the deal it came from, and
    because the search neither stores nor reads positions inside the tricks a position forces; what a sample
    draws besides its hands (its random pass, the Ghost's display, a redeal's order, fog's arrivals) is in the
    mission's rules, so such samples get a generation each. Measured on eight 4-player games of 3 dealt tasks,
    16 samples, the same games played: the median game took 1.43 s against 1.94 s with a fresh generation a solve. Under the crew's node limit the two
    may play different games, where a sample's solve ends UNKNOWN with one table and is decided with the other
    (benchmarks/bench_crew.py --compare counts them; it fails if they ever answer a position differently).
    """

    def __init__(self, solver):
        self.solver = solver
        self.generations = {}  # mission without its position -> generation (the key keeps it alive)
        self.last = (None, 0)  # the mission last solved and its generation: a card's samples come one after another

    def __call__(self, deal: Deal, mission, limits: Limits = Limits()):
        """Return the solver's answer on `deal`: its outcome, without a winning line (the crew asks no more)."""
        last, generation = self.last
        if mission is not last:
            rules = replace(mission, played=(), chosen=())
            generation = self.generations.get(rules)
            if generation is None:
                generation = self.generations[rules] = self.solver.table.next_generation()
            self.last = mission, generation
        return self.solver.solve(deal, mission, limits, generation, outcome_only=True)


def winnable(solution) -> bool:
    return solution.outcome is Outcome.WIN


def knowledge_at(deal: Deal, walked, plays, communications=(), skis: int = 0, seat: int | None = None,
                 placed: Placed = Placed(), hang_glider: bool = False) -> Knowledge:
    """Return what `seat` (default: the seat to move) knows at a walked position of `deal` (`plays` its cards in
    play order) of a mission whose `skis` cards move the hands (`hands_moved`): its places are the hands as dealt,
    and it knows whole every hand it has held; `placed`: see Knowledge.of (never with the skis); `hang_glider`: a
    card set aside does not count for following suit but in the last trick (Knowledge.of's `last_trick`)."""
    players = deal.players
    seat = walked.to_move if seat is None else seat
    dealt_tricks, shown, now = by_hand_dealt(walked, plays, communications, skis)

    def now_held(dealt: int) -> int:
        return walked.hands[(dealt + now) % players]

    sizes = tuple(popcount(now_held(dealt)) for dealt in range(players))
    seen = tuple(((seat - moved) % players, now_held((seat - moved) % players)) for moved in range(now))
    last_trick = num_tricks(deal.hands) - 1 if hang_glider else -1
    return Knowledge.of((seat - now) % players, walked.hands[seat], sizes, dealt_tricks, shown, deal.cards, seen,
                        deal.commander, placed, last_trick)  # the hand dealt to the Commander holds the 4 rocket


def by_hand_dealt(walked, plays, communications, skis: int) -> tuple[list, list[Communication], int]:
    """Return a walked position's tricks ((seat, card) lists, the last maybe begun) and the cards shown, each seat
    the one dealt the hand that played or showed the card (the `skis` move hands: `hands_moved`), and how many places
    the hands have moved since the deal."""
    players = len(walked.hands)
    tricks = seated_tricks(walked, plays)
    before, now = hands_moved(tricks, skis, players)
    at = [*before, now]  # the moves before trick k + 1, the next one included
    shown = [replace(c, seat=dealt_seat(c.seat, at[c.trick - 1], players)) for c in communications]
    return tricks_by_hand(tricks, skis, players), shown, now


def tricks_by_hand(tricks, skis: int, players: int, ghost: int = -1) -> list[list[tuple[int, int]]]:
    """Return `tricks` ((seat, card) lists) with each seat the one dealt the hand that played the card (the `skis`
    move hands: `hands_moved`; around the `ghost`'s display, which stays)."""
    before = hands_moved(tricks, skis, players)[0]
    return [[(dealt_seat(seat, moved, players, ghost), c) for seat, c in trick] for trick, moved in zip(tricks, before)]


def hands_moved(tricks, skis: int, players: int) -> tuple[list[int], int]:
    """Return how many places to the left the hands had moved before each of `tricks` ((seat, card) lists, the
    last maybe begun), and how many they have moved since the deal: "If the skis (blue 7) are in the trick, each
    crew member passes all of their own cards (including communicated cards) to the left after the trick" (the
    mission's `skis` cards). The hand seat s holds before trick t was dealt to seat s - moves[t]."""
    moves, moved = [], 0
    for trick in tricks:
        moves.append(moved)
        if len(trick) == players and card_set(c for _, c in trick) & skis:
            moved += 1
    return moves, moved


def seated_tricks(walked, plays) -> list[list[tuple[int, int]]]:
    """Return the tricks of a walked position as (seat, card) lists in play order, the last maybe begun."""
    seated, players = list(zip(walked.seats, plays)), len(walked.hands)
    return [seated[start : start + players] for start in range(0, len(seated), players)]


def played_by_seat(walked, plays, skis: int = 0, ghost: int = -1) -> tuple[int, ...]:
    """Return the cards played at a walked position (`plays` its cards in play order) from each seat's hand as
    dealt (the `skis` cards move hands: `hands_moved`; around the `ghost`'s display, which stays)."""
    players = len(walked.hands)
    played = [0] * players
    for trick in tricks_by_hand(seated_tricks(walked, plays), skis, players, ghost):
        for seat, c in trick:
            played[seat] |= bit(c)
    return tuple(played)


def dealt_seat(seat: int, moved: int, players: int, ghost: int = -1) -> int:
    """Return the seat dealt the hand `seat` holds after the hands moved `moved` places to the left (the skis),
    skipping the `ghost`, whose display stays where it is."""
    if seat == ghost:
        return seat
    movers = [other for other in range(players) if other != ghost]
    return movers[(movers.index(seat) - moved) % len(movers)]


def card_shares(deal: Deal, mission, position: Position, communications=(), samples: int = 16, seed: int = 0,
                solve=None, limits: Limits = Limits(), ghost: GhostSeat | None = None) -> tuple[CardShare, ...]:
    """Return each legal card's share of `samples` deals, drawn with `seed` from what the seat to move knows at
    `position` of `deal` (whose other hands it does not see), in which the mission stays winnable after it;
    `solve` an engine (default: the reference), each card's solve within `limits`; `ghost`: see GhostSeat."""
    check_supported(mission)
    walked = walk(deal, position.on(mission))
    if walked.ended or walked.due or not walked.legal:
        raise InputError("the position has no card to choose (the mission ended, or the crew chooses)")
    deals = decision_deals(deal, mission, walked, position.plays, communications, samples, random.Random(seed), ghost)
    return shares_on(deals, mission, position, walked, solve or reference_solve, limits)


def decision_deals(deal: Deal, mission, walked, plays, communications, samples: int, rng: random.Random,
                   ghost: GhostSeat | None = None, seat: int | None = None, placed: Placed = Placed()) -> list[Sample]:
    """Return `samples` deals drawn with `rng` from what `seat` (default: the seat to move) knows at a walked
    position of `deal` (`mission`'s random pass, if any, as the crew plays it: made, or to come; the Ghost's move:
    what the player who decides for him knows; `placed`: see Knowledge.of)."""
    seat = walked.to_move if seat is None else seat
    if mission.space.ghost >= 0:
        seat = ghost_seat(ghost).decider(seat)
        after = mission.space.jeep_after
        return ghost_deals(deal, mission, seat, walked.hands, seated_tricks(walked, plays),
                           played_by_seat(walked, plays, mission.space.skis, GHOST_SEAT),
                           communications, samples, rng, ghost, walked.display, ghost_moves(deal, mission, walked),
                           walked.tricks[after - 1].passed if after and len(walked.tricks) >= after else (), placed,
                           pass_gifts(deal, mission, walked))
    random_pass, space = mission.random_pass, mission.space
    if random_pass is not None and len(walked.tricks) >= random_pass.after:
        if space.heli_pass:  # the random pass is one more pass of the helicopter's worlds
            return worlds_after_heli(deal, walked, plays, communications, samples, rng, seat,
                                     (random_pass, pass_gifts(deal, mission, walked)))
        if jeep_made(space, walked):  # the random pass is one more step of the jeep's histories
            return worlds_after_jeep(deal, space, walked, plays, communications, samples, rng, seat,
                                     (random_pass, pass_gifts(deal, mission, walked)))
        if space.arrivals:
            return worlds_after_fog_pass(deal, mission, walked, plays, communications, samples, rng, seat)
        worlds = worlds_after_pass(deal, random_pass, walked, plays, communications, samples, rng, seat, placed,
                                   space.skis, space.hang_glider)
        return with_jeep_to_come(worlds, space.jeep_order, rng)
    if space.redeal_after and (len(walked.tricks) > space.redeal_after
                               or len(walked.tricks) == space.redeal_after and not walked.due):  # its table card laid
        return worlds_after_redeal(deal, space, walked, plays, communications, samples, rng, seat)
    if space.arrivals:
        return fog_worlds(deal, space.arrivals, seat, seated_tricks(walked, plays), communications, samples, rng,
                          random_pass)
    if space.heli_pass and any(trick.passed for trick in walked.tricks):
        return worlds_after_heli(deal, walked, plays, communications, samples, rng, seat)
    if jeep_made(space, walked):
        return worlds_after_jeep(deal, space, walked, plays, communications, samples, rng, seat)
    known = knowledge_at(deal, walked, plays, communications, space.skis, seat, placed, space.hang_glider)
    played = played_by_seat(walked, plays, space.skis)
    return sampled_deals(known, played, deal.commander, samples, rng, random_pass, communications, space.redeal_order,
                         space.jeep_order)


def fog_worlds(deal: Deal, arrivals, seat: int, tricks, communications, samples: int, rng: random.Random,
               random_pass: RandomPass | None = None) -> list[Sample]:
    """Return `samples` worlds drawn with `rng` from what `seat` knows under fog (fog_worlds.py) after `tricks` (as
    (seat, card) lists): each every hand as it ends, and when each card arrives; with a `random_pass` to come, each
    with a pass drawn after it (`pass_to_come`)."""
    return [Sample(Deal(hands, deal.commander), None if random_pass is None else
                   pass_to_come(random_pass, communications, rng), arrivals=arrival)
            for hands, arrival in fog_knowledge(deal, arrivals, seat, tricks, communications).samples(rng, samples)]


def worlds_after_fog_pass(deal: Deal, mission, walked, plays, communications, samples: int, rng: random.Random,
                          seat: int) -> list[Sample]:
    """Return `samples` worlds drawn with `rng` from what `seat` knows under fog after `mission`'s random pass (it
    saw its own cards arrive, the card it gave and the one it got; fog_pass_worlds.py), each a deal, when each card
    arrives and the pass it made."""
    tricks = seated_tricks(walked, plays)
    seen, dealt, draws = fog_seen(deal, mission.space.arrivals, seat, tricks)
    gifts = pass_gifts(deal, mission, walked)
    worlds = FogPassWorlds.of(seat, tricks, seen, gifts[seat], gifts[(seat - 1) % deal.players], dealt, draws,
                              communications, deal.cards, deal.commander)
    return [Sample(Deal(hands, deal.commander), made_pass(mission.random_pass, made), arrivals=arrival)
            for hands, arrival, made in worlds.samples(rng, samples)]


def fog_seen(deal: Deal, arrivals, seat: int, tricks) -> tuple[list[tuple[int, int]], tuple[int, ...], tuple[int, ...]]:
    """Return what `seat` has seen of fog after `tricks`: its cards arrived so far with their arrivals, and how many
    cards each seat was dealt and draws (from the rules: the same in every world)."""
    after = sum(1 for trick in tricks if len(trick) == deal.players)
    dealt = tuple(sum(1 for c in scan(hand) if arrivals[c] == 0) for hand in deal.hands)
    draws = tuple(popcount(hand) - count for hand, count in zip(deal.hands, dealt))
    return [(c, arrivals[c]) for c in scan(deal.hands[seat]) if arrivals[c] <= after], dealt, draws


def fog_knowledge(deal: Deal, arrivals, seat: int, tricks, communications, ghost: int = -1, face_up: int = 0,
                  aside: int = 0, gifts: tuple[int, ...] = ()) -> FogWorlds:
    """Return what `seat` knows under fog after `tricks`: its own cards arrived so far and when; how many cards each
    seat was dealt and draws follows from the rules (two players: the Ghost's seat `ghost`, his display all dealt,
    `face_up` his cards lying face up, `aside` the cards never in it, `gifts` mission 12's random pass made)."""
    seen, dealt, draws = fog_seen(deal, arrivals, seat, tricks)
    return FogWorlds.of(seat, tricks, seen, dealt, draws, communications, deal.cards, deal.commander, ghost, face_up,
                        aside, gifts)


def worlds_after_redeal(deal: Deal, space, walked, plays, communications, samples: int, rng: random.Random,
                        seat: int) -> list[Sample]:
    """Return `samples` worlds drawn with `rng` from what `seat` knows after a special stage's redeal (`space`'s):
    each a deal and its redeal's order (redeal_worlds.py)."""
    worlds = RedealWorlds.of(seat, seated_tricks(walked, plays), tabled_before(walked, space.redeal_after),
                             walked.hands[seat], space.redeal_order, space.redeal_after,
                             tuple(popcount(hand) for hand in deal.hands), communications, deal.cards, deal.commander)
    return [Sample(Deal(hands, deal.commander), redeal=order) for hands, order in worlds.samples(rng, samples)]


def jeep_made(space, walked) -> bool:
    """Return True when the jeep's exchange (`space`'s, if any) is made at a walked position."""
    return bool(space.jeep_after) and (len(walked.tricks) > space.jeep_after
                                       or len(walked.tricks) == space.jeep_after and not walked.due)


def worlds_after_jeep(deal: Deal, space, walked, plays, communications, samples: int, rng: random.Random,
                      seat: int, random_pass=None) -> list[Sample]:
    """Return `samples` worlds drawn with `rng` from what `seat` knows after the jeep's exchange (`space`'s, made
    after trick jeep_after: the seat saw the two cards it put in and the two it took), each a deal, what every seat
    put in and the shuffle (jeep_worlds.py); `random_pass`: (mission 12's random pass, the cards each seat gave in
    it), a pass before the exchange, each sample making its own gifts."""
    after, tricks = space.jeep_after, seated_tricks(walked, plays)
    passed = walked.tricks[after - 1].passed
    put = card_set(passed[2 * seat : 2 * seat + 2])
    took = card_set(c for c, taker in zip(sorted(passed), space.jeep_order) if taker == seat)
    first = card_set(c for trick in tricks[:after] for t, c in trick if t == seat)
    own, seen = deal.hands[seat], None
    if random_pass:  # the seat gave its card of the pass and got its right-hand neighbour's
        gifts = random_pass[1]
        seen = gifts[seat], gifts[(seat - 1) % deal.players]
        own = own & ~bit(seen[0]) | bit(seen[1])
    worlds = JeepWorlds.of(seat, tricks, after, own & ~first & ~put, put, took,
                           tuple(popcount(hand) for hand in deal.hands), communications, deal.cards, deal.commander,
                           seen)
    return [Sample(Deal(hands, deal.commander), made_pass(random_pass[0], made) if random_pass else None,
                   jeep_order=order, passed=((after, put_in),))
            for hands, put_in, order, made in worlds.samples(rng, samples)]


def worlds_after_heli(deal: Deal, walked, plays, communications, samples: int, rng: random.Random,
                      seat: int, random_pass=None) -> list[Sample]:
    """Return `samples` worlds drawn with `rng` from what `seat` knows after the helicopter's passes so far (in
    each, it saw the card it passed and the one it got), each a deal and every pass's cards (heli_worlds.py);
    `random_pass`: (mission 12's random pass, the cards each seat gave in it), the pass before the helicopter's,
    each sample making its own gifts."""
    players = deal.players
    helis = tuple(number for number, trick in enumerate(walked.tricks, 1) if trick.passed)
    passes = ((random_pass[0].after, random_pass[1]),) if random_pass else ()
    passes += tuple((after, walked.tricks[after - 1].passed) for after in helis)
    worlds = HeliWorlds.of(seat, seated_tricks(walked, plays), tuple(after for after, _ in passes), walked.hands[seat],
                           tuple(gifts[seat] for _, gifts in passes),
                           tuple(gifts[(seat - 1) % players] for _, gifts in passes),
                           tuple(popcount(hand) for hand in deal.hands), communications, deal.cards, deal.commander)
    return [Sample(Deal(hands, deal.commander), made_pass(random_pass[0], made[0]) if random_pass else None,
                   passed=tuple(zip(helis, made[len(passes) - len(helis) :])))
            for hands, made in worlds.samples(rng, samples)]


def tabled_before(walked, count: int) -> int:
    """Return the cards laid on the table from the first `count` walked tricks: before a redeal after trick `count`,
    the cards it did not shuffle (a discard drawn may go on the table again later)."""
    return card_set(trick.tabled for trick in walked.tricks[:count] if trick.tabled >= 0)


def worlds_after_pass(deal: Deal, random_pass: RandomPass, walked, plays, communications, samples: int,
                      rng: random.Random, seat: int, placed: Placed = Placed(), skis: int = 0,
                      hang_glider: bool = False) -> list[Sample]:
    """Return `samples` worlds drawn with `rng` from what `seat` knows after the random pass that followed trick 1
    (`random_pass`, the deal's, which skips the cards shown before it: the seat saw its own gift and the one it
    got; `placed`: what the Vespa's swap told it of the hands as dealt). The `skis` cards move whole hands after
    the pass (after trick 1 too: the engines pass first): it knows whole every hand it has held since. On the
    `hang_glider` a seat's discard leaves room for the card it set aside (PassWorlds.of's `last_trick`)."""
    players = deal.players
    random_pass = shown_last(random_pass, communications)
    tricks, shown, moved = by_hand_dealt(walked, plays, communications, skis)
    before = tuple(hand & ~card_set(c for t, c in tricks[0] if t == other) for other, hand in enumerate(deal.hands))
    gifts = random_pass.given(before)
    held = (((seat - back) % players, walked.hands[(seat - back + moved) % players]) for back in range(1, moved + 1))
    worlds = PassWorlds.of(seat, tricks, before[seat] & ~bit(gifts[seat]), gifts[seat], gifts[(seat - 1) % players],
                           tuple(popcount(hand) for hand in deal.hands), shown, deal.cards, deal.commander,
                           placed, tuple(held), num_tricks(deal.hands) - 1 if hang_glider else -1)
    return [Sample(Deal(hands, deal.commander), made) for hands, made in worlds.samples(rng, samples)]


def shares_on(deals, mission, position: Position, walked, solve, limits: Limits, race: bool = False,
              legal: int | None = None) -> tuple[CardShare, ...]:
    """Return each legal card's share of the sampled `deals` (at a position already walked) in which the mission
    stays winnable after it. With `race`, the cards are solved one after another from the cheapest
    (`raced`), each until it can no longer beat the best card before it, so the choice (`best_card`) is the
    same and a card's share counts the samples it was solved on (`CardShare.samples`)."""
    # The seat's legal cards depend only on its own hand and the trick: the same in every sample.
    after = {card: position.then(card).on(mission) for card in scan(walked.legal if legal is None else legal)}
    played = played_by_seat(walked, position.plays, mission.space.skis, mission.space.ghost)
    verdicts = SampleVerdicts(deals, after, played, walked.trick, told_apart(mission, walked), solve, limits)
    tallies = raced(sorted(after, key=cheapness), len(deals), verdicts, race, WON)
    return tuple(verdicts.share(card, tallies[card][1]) for card in after)


def task_shares(deals, mission, position: Position, walked, solve, limits: Limits, race: bool = False,
                legal: int | None = None) -> tuple[CardShare, ...]:
    """Return for each legal card in how many (sample, open task) pairs that task alone (its owner, no token or
    condition) can still be won after it: the crew's measure once no card keeps the whole mission winnable in
    any sample (it then plays for as many tasks as it can). `race` as in `shares_on`."""
    alone = [replace(mission, cards=(c,), tokens=(None,), owners=(owner,), counts=None, counters=(), balanced=None,
                     sequences=()) for i, (c, owner) in enumerate(zip(mission.cards, mission.owners))
             if not walked.done >> i & 1]
    played = played_by_seat(walked, position.plays, mission.space.skis, mission.space.ghost)
    legal = list(scan(walked.legal if legal is None else legal))
    per_task = [SampleVerdicts(deals, {card: position.then(card).on(single) for card in legal}, played,
                               walked.trick, told_apart(single, walked), solve, limits) for single in alone]
    tallies = raced(sorted(legal, key=cheapness), len(deals), lambda card, k: sum(v(card, k) for v in per_task),
                    race, WON * len(alone))
    return tuple(summed([v.share(card, tried) for v in per_task]) for card, (_, tried) in tallies.items())


def summed(shares) -> CardShare:
    """Return one card's shares of several missions as one share of their (sample, mission) pairs."""
    return CardShare(shares[0].card, sum(s.wins for s in shares), sum(s.samples for s in shares),
                     sum(s.open for s in shares))


def score_shares(deals, missions_for, most_for, deduction: int, position: Position, walked, solve, limits: Limits,
                 race: bool = False, legal: int | None = None) -> tuple[CardShare, ...]:
    """Return each legal card's total over the sampled `deals` of the best score a special mission can still reach
    after it: the most scoring events e for which some mission of `missions_for(e)` (at least e events, one per
    way to make them) stays winnable, less the `deduction`, never below 0; `most_for(deal)` bounds the events of a
    sample's deal. The crew's measure for a special mission ("the mean best score"); `race` and `legal` (default:
    the walked position's legal cards) as in `shares_on`, `CardShare.wins` the total."""
    space = missions_for(0)[0].space
    played = played_by_seat(walked, position.plays, space.skis, space.ghost)
    legal = list(scan(walked.legal if legal is None else legal))
    levels = {}  # events -> one SampleVerdicts a mission asking for them

    def reachable(events: int, card: int, k: int) -> bool:
        if events not in levels:
            levels[events] = [SampleVerdicts(deals, {c: position.then(c).on(mission) for c in legal}, played,
                                             walked.trick, told_apart(mission, walked), solve, limits)
                              for mission in missions_for(events)]
        return any(verdict(card, k) == WON for verdict in levels[events])

    most = [most_for(sample.deal) for sample in deals]
    tallies = raced(sorted(legal, key=cheapness), len(deals),
                    lambda card, k: best_score(lambda events: reachable(events, card, k), deduction, most[k]), race,
                    max(0, max(most) - deduction))
    return tuple(CardShare(card, *tallies[card]) for card in legal)


def best_score(reachable, deduction: int, most: int) -> int:
    """Return the best score a sample still allows: the most events e, from the `deduction` up to `most`, for which
    `reachable(e)` holds (a line with e events has e - 1 too), less the deduction; 0 when not even the deduction's
    are reachable (a score counts the events beyond the deduction only)."""
    low, high = deduction, most
    if not reachable(low):
        return 0
    while low < high:
        middle = (low + high + 1) // 2
        low, high = (middle, high) if reachable(middle) else (low, middle - 1)
    return low - deduction


def leader_shares(deals, mission, position: Position, walked, solve, limits: Limits) -> tuple[int, int]:
    """Return in how many of the sampled `deals` the mission stays winnable when the seat due to lead a walked
    position leads (some card of its hand in that sample: the dog sled's driver leaving it the lead), and in how
    many others it is open (no card wins, some card's solve ran out of its budget: `credit`)."""
    leader, played = walked.to_move, played_by_seat(walked, position.plays)
    credits = [leading_credit(sample, solve, [position.then(c).on(mission) for c in
                                              scan(sample.deal.hands[leader] & ~played[leader])], limits)
               for sample in deals]
    return credits.count(WON), credits.count(OPEN)


def leader_scores(deals, missions_for, most_for, deduction: int, position: Position, walked, solve,
                  limits: Limits) -> int:
    """Return the total over the sampled `deals` of the best score a special mission can still reach when the seat
    due to lead a walked position leads (some card of its hand in that sample): the dog sled's driver weighs it
    against its own cards' `score_shares`."""
    leader = walked.to_move
    space = missions_for(0)[0].space
    played = played_by_seat(walked, position.plays, space.skis, space.ghost)
    total = 0
    for sample in deals:
        leads = [position.then(c) for c in scan(sample.deal.hands[leader] & ~played[leader])]

        def reachable(events: int) -> bool:
            return any(winnable(sample.solve(solve, lead.on(m), limits)) for m in missions_for(events) for lead in leads)

        total += best_score(reachable, deduction, most_for(sample.deal))
    return total


def leading_credit(sample: Sample, solve, leads, limits: Limits) -> int:
    """Return the best credit of the missions `leads` (one a card the leader may lead) on `sample`: WON at the first
    that stays winnable."""
    best = LOST
    for lead in leads:
        best = max(best, credit(sample.solve(solve, lead, limits)))
        if best == WON:
            break
    return best


def told_apart(mission, walked) -> int:
    """Return the cards no other may stand in for at a walked position: the mission's distinct cards, and every card
    while a random pass is to come (which card a hand gives depends on its name) or with a redeal (which seat draws a
    discard depends on its name; after it, a sample's cards in hands are not those its dealt hands keep)."""
    to_come = mission.random_pass is not None and len(walked.tricks) < mission.random_pass.after
    return DECK if to_come or mission.space.redeal_after else distinct_cards(mission)


def raced(options, samples: int, verdict, race: bool, most: int = 1) -> dict:
    """Return option -> (wins, samples solved) of `options`, in the order their ties go, `verdict(option, k)`
    the wins (at most `most`; a card's `credit`) of an option in sample k. With `race`, an option stops once its
    wins cannot exceed the best so far (an option before it wins a tie): the best option and its wins are those of
    solving every option on every sample. Measured against racing every card sample by sample (a card out once it trailed
    the leader by more samples than were left), 4-player games of dealt tasks, 16 samples: solves a game
    1,347 -> 528 with 1 task, 1,584 -> 1,229 with 3, 1,843 -> 1,546 with 5 and 2,645 -> 1,839 with 10; the median
    game 0.13 -> 0.063 s, 0.32 -> 0.24 s, 0.45 -> 0.42 s and 0.53 -> 0.48 s (10-30 games each)."""
    tallies, best = {}, -1
    for option in options:
        wins = tried = 0
        while tried < samples and not (race and wins + (samples - tried) * most <= best):
            wins += verdict(option, tried)
            tried += 1
        tallies[option] = (wins, tried)
        if tried == samples:
            best = max(best, wins)
    return tallies


def best_raced(options, tallies: dict):
    """Return the option of the most wins among those solved on every sample (`tallies`: `raced`'s; an option that
    left the race could not reach the leader); ties go to the first."""
    full = max(tried for _, tried in tallies.values())
    return max((o for o in options if tallies[o][1] == full), key=lambda o: tallies[o][0])


class SampleVerdicts:
    """A card's credit on sample k (`credit`: whether the mission stays winnable after it; `after`: card -> the
    mission with it played), `played` the cards each seat has played and `trick` the cards of the trick begun, each
    position solved once. Of two legal cards of one suit with no other card in play between them, the lower wins and
    loses against the same cards as the higher, now and later (the reference's reduction), so only the higher
    is solved, unless `distinct` holds either (`told_apart`): on eight 4-player games of 3 dealt tasks, the median game took 0.94 s against 1.43 s solving
    every card."""

    def __init__(self, deals, after, played, trick, distinct: int, solve, limits: Limits):
        self.deals, self.after, self.played, self.trick = deals, after, played, trick
        self.distinct, self.solve, self.limits = distinct, solve, limits
        self.legal, self.credits, self.seen = card_set(after), {}, {}  # credits: (card solved, k) -> its credit
        self.given = {}  # (card, k) -> its credit, as asked

    def __call__(self, card: int, k: int) -> int:
        if k not in self.seen:
            in_play = card_set(self.trick)
            for hand, gone in zip(self.deals[k].deal.hands, self.played):
                in_play |= hand & ~gone
            self.seen[k] = in_play, without_equivalent_plays(self.legal, in_play, self.distinct)
        in_play, kept = self.seen[k]
        solved = equivalent_play(card, kept, in_play)
        earned = self.credits.get((solved, k))
        if earned is None:
            earned = self.credits[solved, k] = credit(self.deals[k].solve(self.solve, self.after[solved], self.limits))
        self.given[card, k] = earned
        return earned

    def share(self, card: int, samples: int) -> CardShare:
        """Return the card's share of the first `samples` samples, each already asked for."""
        credits = [self.given[card, k] for k in range(samples)]
        return CardShare(card, credits.count(WON), samples, credits.count(OPEN))


def cheapness(card: int) -> tuple[int, int, int]:
    """Return a card's place when the crew gives it away: non-trumps first, then by rank, then by suit."""
    return (suit_of(card) == TRUMP, rank_of(card), suit_of(card))


def best_card(shares) -> int:
    """Return the card of the largest credit (of those solved on every sample: a card that left a race could not
    reach the leader); ties go to the cheapest (`cheapness`)."""
    full = max(s.samples for s in shares)
    return min((s for s in shares if s.samples == full), key=lambda s: (-s.credit, cheapness(s.card))).card


def option_shares(deals, missions, solve, limits: Limits = Limits()) -> tuple[int, ...]:
    """Return, for each mission of `missions` (the options of one decision), how many of the sampled `deals`
    (Samples) it is winnable on."""
    return tuple(sum(winnable(d.solve(solve, mission, limits)) for d in deals) for mission in missions)


def raced_options(deals, missions_of, solve, limits: Limits) -> dict:
    """Return option index -> (wins, samples solved) of the options of one decision, `missions_of[i]` the missions of
    option i, winnable on a sampled deal when one of them is; raced in the order their ties go (`raced`), so the
    best option (`best_raced`) is the one solving every option on every sample would choose. Measured on 30
    games of Deep Sea totals 4-20 (4 players, 16 samples; the same wins): the draft's solves 7,219 -> 4,457, the
    games' 13.8 -> 12.6 s."""
    return raced(range(len(missions_of)), len(deals),
                 lambda i, k: any(winnable(deals[k].solve(solve, m, limits)) for m in missions_of[i]), race=True)


def best_option(wins) -> int:
    """Return the index of the option winnable in the most samples; ties go to the first."""
    return max(range(len(wins)), key=lambda i: (wins[i], -i))


def token_of(hand: int, card: int) -> str | None:
    """Return the token a card may be shown with from `hand` (its colour's highest, only or lowest card),
    or None when it is none of these."""
    colour = hand & SUIT_MASKS[suit_of(card)]
    if colour == bit(card):
        return ONLY
    if colour >> card == 1:
        return HIGHEST
    if colour & (bit(card) - 1) == 0:
        return LOWEST
    return None


def communication_of(seat: int, hand: int, open_tasks, dead_zone: bool, trick: int = 1) -> Communication | None:
    """Return the card `seat` shows holding `hand` before trick `trick` (the policy above), or None to wait;
    `open_tasks` the (card, owner) of tasks not yet won; in a dead zone the card goes without its token."""
    wanted = [c for c, owner in open_tasks if owner != seat and hand >> c & 1]
    colours = {suit_of(c) for c, owner in open_tasks if owner != seat}
    lone = [c for c in scan(hand) if suit_of(c) in colours and popcount(hand & SUIT_MASKS[suit_of(c)]) == 1]
    for c in wanted + lone:  # rockets cannot be communicated
        if suit_of(c) != TRUMP and token_of(hand, c) is not None:
            return Communication(seat, c, None if dead_zone else token_of(hand, c), trick)
    return None
