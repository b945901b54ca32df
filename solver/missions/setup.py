"""Set a mission up on a deal: every choice the crew could make, each as a concrete TaskMission.

A mission file entry (solver/missions/mission.py) names players, offers token swaps or
moves, and states rules in the players' terms. On a given deal with its drawn
task cards, each way to make those choices is one `Setup`: a TaskMission the
search engines understand (owners, allowed task counts, trick counters). The
mission is won when some setup is won, so the choices are existential.

Assignment modes become allowed final task counts of lazily assigned tasks:
a draft its seat counts; the commander's decision t tasks on one
non-Commander; the commander's distribution every balanced split; the
five-player pass adds every vector one task away (one seat gives a task to
another). The search then assigns each task when its trick is won, so one
search covers every assignment with those counts.
"""

import dataclasses
import functools
import itertools
from dataclasses import dataclass

import numpy as np

from solver.core.cards import CARD_COUNT, bit, format_card, parse_card
from solver.core.deal import Deal
from solver.core.errors import InputError
from solver.core.rules import num_tricks
from solver.missions.conditions import (
    ALL_TRICKS,
    NO_LIMIT,
    Balanced,
    Comparison,
    LeadRule,
    Run,
    Sequence,
    TrickCounter,
    counter_values,
)
from solver.missions.mission import (
    CAPTAIN,
    AnyRule,
    BalancedRule,
    CompareCardsRule,
    CompareTricksRule,
    LeadsRule,
    Mission,
    OwnTrickRule,
    RunRule,
    SequenceRule,
    TaskInLastTrickRule,
    TricksRule,
    WonCardsRule,
    describe_rule,
    drafted_cards,
    held_by,
    resolve_trick,
    rules_for,
)
from solver.missions.tasks import (
    ABSOLUTE,
    ANYONE,
    LAZY,
    RELATIVE,
    TaskMission,
    Token,
    draft_counts,
    make_task_mission,
)
from solver.trick.chance import PASS_LEFT_AFTER_TRICK_1, RandomPass, draw_random_pass


@dataclass(frozen=True)
class Setup:
    """One way to make a mission's choices: what was chosen, and the mission it leaves."""

    label: str  # e.g. "X = seat 2; swap tokens of g3 and b7"; "" when nothing was chosen
    mission: TaskMission
    chosen: tuple[tuple[str, int], ...] = ()  # the mission's named players and their seats, e.g. (("X", 2),)


def mission_setups(
    mission: Mission, deal: Deal, cards: list[int], random_pass: RandomPass | None = None, events: int = 0,
    ghost: int = -1,
) -> list[Setup]:
    """Return every setup of `mission` on `deal` with task cards `cards` (in draw order).

    A mission with a chance event needs its draw (`draw_chance`), made with the deal. A
    special mission's setups ask for at least `events` scoring events (solver/engines/score.py).
    `ghost`: the seat of the Ghost (JARVIS) with two players, who never takes an individual
    mission (`player_choices`).
    """
    if deal.players not in mission.players:
        raise InputError(f"mission {mission.id} is for {', '.join(map(str, mission.players))} players, not {deal.players}")
    if len(cards) != mission.tasks:
        raise InputError(f"mission {mission.id} has {mission.tasks} task cards, got {len(cards)}")
    if mission.chance and random_pass is None:
        raise InputError(f"mission {mission.id} needs the draw of its chance event {mission.chance[0]}")
    if not mission.chance:
        random_pass = None
    setups = []
    rule_alternatives = list(rule_choices(rules_for(mission.rules, deal.players)))
    tricks = num_tricks(deal.hands)
    for players_label, seats in player_choices(mission, deal, ghost):
        for tokens_label, tokens in token_choices(mission, cards):
            for score_label, score_counters in score_choices(mission, deal, events):
                for rules_label, rules in rule_alternatives:
                    label = join_labels(players_label, tokens_label, score_label, rules_label)
                    built = build(mission, deal, cards, tokens, seats, random_pass, score_counters, rules, tricks)
                    named = tuple((c.name, seats[c.name]) for c in mission.choose)
                    setups.append(Setup(label, built, named))
    return setups


@dataclass(frozen=True)
class Draft:
    """Deep Sea task cards drafted one at a time on `deal`, the captain first, then clockwise, each player taking
    a card left they may take (`draft_assignments`): `cards` the task cards (missions of kind "task") in the
    mission's order and `names` their holders' names in its setups (holder1, ...)."""

    deal: Deal
    cards: tuple[Mission, ...]
    names: tuple[str, ...]

    def together(self, holders: dict[int, int]) -> tuple[TaskMission, ...]:
        """Return the missions of the cards `holders` names (card index -> seat), held by those seats, no other
        card counting: one per alternative of an `any` rule; none when a seat may not hold its card."""
        held = [held_by(self.cards[i], str(seat)) for i, seat in sorted(holders.items())]
        try:
            return tuple(s.mission for s in mission_setups(drafted_cards(held), self.deal, []))
        except InputError:  # a card that is not the captain's, held by the captain
            return ()


def deep_sea_draft(mission: Mission, deal: Deal) -> Draft | None:
    """Return the draft of `mission`'s Deep Sea task cards on `deal` (None: it drafts none)."""
    if not mission.parts or any(choice.by != "draft" for choice in mission.choose):
        return None
    return Draft(deal, mission.parts, tuple(choice.name for choice in mission.choose))


def rule_choices(rules):
    """Yield (label, rules) for every choice of one alternative in each `any` rule (the others as they are)."""
    options = [[("", rule)] if not isinstance(rule, AnyRule) else
               [(f"alternative {i}: {describe_rule(r)}", r) for i, r in enumerate(rule.of, 1)] for rule in rules]
    for picked in itertools.product(*options):
        yield join_labels(*(label for label, _ in picked)), tuple(rule for _, rule in picked)


def join_labels(*parts: str) -> str:
    """Return the labels of a case's choices as one, the empty ones left out."""
    return "; ".join(part for part in parts if part)


def score_choices(mission: Mission, deal: Deal, events: int):
    """Yield (label, counters) asking for at least `events` scoring events of a special mission.

    Trick events: one counter. Player events ("each player who wins a pink card"): every set of
    `events` players, each winning a card of the set (the crew chooses which players score).
    """
    score = mission.score
    if score is None or events == 0:
        yield "", []
    elif score.each == "trick":
        rule = score.trick
        yield "", [trick_conditions_counter(rule, everyone(deal.players), num_tricks(deal.hands), events, NO_LIMIT)]
    else:
        for seats in itertools.combinations(range(deal.players), events):
            counters = [TrickCounter(1 << seat, containing=score.won, at_least=1, count_cards=True) for seat in seats]
            yield "scoring: " + ", ".join(f"seat {seat}" for seat in seats), counters


def events_so_far(mission: Mission, deal: Deal, tricks) -> int:
    """Return a special mission's scoring events in the tricks played (each with `cards` and `winner`): the
    matching tricks, or the players who have won a card of the scoring set."""
    score = mission.score
    if score.each == "trick":
        counter = trick_conditions_counter(score.trick, everyone(deal.players), num_tricks(deal.hands), 0, NO_LIMIT)
        return counter_values([counter], tricks)[-1][0] if tricks else 0
    return len({trick.winner for trick in tricks if sum(bit(c) for c in trick.cards) & score.won})


def player_choices(mission: Mission, deal: Deal, ghost: int = -1):
    """Yield (label, {name: seat}) for every allowed choice of the mission's named players.

    An individual mission goes to a volunteer ("each of you takes a communication tile ... Your
    Guide then chooses one crew member from among all those with a green tile"); the Ghost
    (seat `ghost`, two players) has no tile, so never takes it.
    """
    options = []
    for choice in mission.choose:
        allowed = candidates(choice.among, deal)
        options.append(allowed - {ghost} if mission.kind == "individual" else allowed)
    drafted = [i for i, choice in enumerate(mission.choose) if choice.by == "draft"]
    drafts = draft_assignments([options[i] for i in drafted], deal.players, deal.commander)
    if drafted and len(drafted) == len(mission.choose):  # Deep Sea's cards drafted together: the draft's only
        picks = sorted(drafts)
    else:
        picks = (picked for picked in itertools.product(*[range(deal.players)] * len(mission.choose))
                 if tuple(picked[i] for i in drafted) in drafts)
    for picked in picks:
        seats = {"commander": deal.commander, CAPTAIN: deal.commander}
        valid = True
        for choice, seat, allowed in zip(mission.choose, picked, options):
            excluded = seats.get(choice.among[4:]) if choice.among.startswith("not ") else None
            if seat not in allowed or seat == excluded:
                valid = False
                break
            seats[choice.name] = seat
        if valid:
            yield ", ".join(f"{c.name} = seat {seats[c.name]}" for c in mission.choose), seats


def draft_assignments(allowed: list[set[int]], players: int, captain: int) -> set[tuple[int, ...]]:
    """Return every holder per card a Deep Sea draft of the cards can end with: from the captain
    clockwise, each player in turn takes one card left that they may take (`allowed`: the seats
    per card), passing only when they may take none, until every card is taken. Under perfect
    information the crew may steer the draft to any of them. (No card: the empty assignment.)"""
    @functools.cache
    def take(left: frozenset, seat: int, passes: int) -> frozenset:
        """The holders the cards `left` can end with, `seat` to take next, after `passes` seats passed."""
        if not left:
            return frozenset({(-1,) * len(allowed)})
        if passes == players:  # nobody may take a card left
            return frozenset()
        takeable = [i for i in left if seat in allowed[i]]
        if not takeable:
            return take(left, (seat + 1) % players, passes + 1)
        return frozenset(rest[:i] + (seat,) + rest[i + 1:] for i in takeable
                         for rest in take(left - {i}, (seat + 1) % players, 0))

    return set(take(frozenset(range(len(allowed))), captain, 0))


def candidates(among: str, deal: Deal) -> set[int]:
    """Return the seats a choice may name (a 'not NAME' exclusion is applied later)."""
    if among == "others":
        return set(range(deal.players)) - {deal.commander}
    if among.startswith("seat "):  # "seat 2", or "seat 2, not the captain" (a Deep Sea card held by a given seat)
        seat = int(among[5:].split(",")[0])
        if seat >= deal.players or among.endswith("not the captain") and seat == deal.commander:
            raise InputError(f"seat {seat} cannot hold this card in this {deal.players}-player deal (captain: seat "
                             f"{deal.commander})")
        return {seat}
    if among.startswith("left of "):
        holder = deal.holder(parse_card(among[8:]))
        if holder is None:
            raise InputError(f"the mission names the player left of {among[8:]}, which is not dealt")
        return {(holder + 1) % deal.players}
    return set(range(deal.players))


def token_choices(mission: Mission, cards: list[int]):
    """Yield (label, tokens per task) for the mission's tokens and every optional swap or move."""
    base = list(mission.tokens) + [None] * (len(cards) - len(mission.tokens))
    yield "", tuple(base)
    names = [format_card(c) for c in cards]
    if "token-swap" in mission.options:
        for i, j in itertools.combinations(range(len(cards)), 2):
            if base[i] is not None and base[j] is not None:
                swapped = list(base)
                swapped[i], swapped[j] = base[j], base[i]
                yield f"swap tokens of {names[i]} and {names[j]}", tuple(swapped)
    if "token-move" in mission.options:
        for i, j in itertools.product(range(len(cards)), repeat=2):
            if base[i] is not None and base[i].kind == ABSOLUTE and base[j] is None:
                moved = list(base)
                moved[i], moved[j] = None, base[i]
                yield f"move token {base[i]} from {names[i]} to {names[j]}", tuple(moved)


def draw_chance(mission: Mission, rng: np.random.Generator) -> RandomPass | None:
    """Draw the outcome of the mission's chance event, if it has one (see chance.py)."""
    return draw_random_pass(rng, after=1) if PASS_LEFT_AFTER_TRICK_1 in mission.chance else None


def build(
    mission: Mission, deal: Deal, cards: list[int], tokens, seats: dict, random_pass, score_counters, rules,
    tricks: int,
) -> TaskMission:
    """Return the TaskMission of one setup (`rules`: the mission's for the player count, one alternative of each
    `any` rule chosen: rule_choices; `tricks`: the deal's)."""
    task_cards, task_tokens = list(cards), list(tokens)
    owners = [LAZY] * len(cards)
    counters, balanced, sequences = list(score_counters), None, []
    comparisons, runs, leads = [], [], []
    for rule in rules:
        card = task_of(rule, deal, task_cards)
        if card is not None:  # one player wins the trick holding one card: a task of that player's
            task_cards.append(card)
            owners.append(seats[rule.who])
            task_tokens.append(None)
        elif isinstance(rule, TricksRule):
            counters.append(tricks_counter(rule, seats, deal.players, tricks))
        elif isinstance(rule, WonCardsRule):
            counters += won_cards_counters(rule, seats, deal.players)
        elif isinstance(rule, SequenceRule):
            sequences.append(Sequence(rule.before, rule.after, rule.across_tricks))
        elif isinstance(rule, BalancedRule):
            balanced = Balanced(rule.gap)
        elif isinstance(rule, OwnTrickRule):
            own = [c for c in range(CARD_COUNT) if rule.cards >> c & 1 and deal.holder(c) is not None]
            if rule.ordered and any(t is not None and t.kind == RELATIVE for t in task_tokens):
                raise InputError(f"mission {mission.id}: an ordered own-trick rule cannot be combined with arrow tokens")
            task_cards += own
            owners += [ANYONE] * len(own)
            task_tokens += [Token(RELATIVE, n) for n in range(1, len(own) + 1)] if rule.ordered else [None] * len(own)
            counters.append(TrickCounter(winners=everyone(deal.players), containing=rule.cards, min_containing=2, at_most=0))
        elif isinstance(rule, TaskInLastTrickRule):
            card = next(c for c, t in zip(cards, tokens) if t == rule.token)
            counters.append(TrickCounter(everyone(deal.players), containing=bit(card), tricks=(1 << (tricks - 1)) - 1, at_most=0))
        elif isinstance(rule, (CompareTricksRule, CompareCardsRule)):
            comparisons += comparison_of(rule, seats, deal.players, counters)
        elif isinstance(rule, RunRule):
            runs.append(Run(seats[rule.who], rule.at_least, NO_LIMIT if rule.at_most is None else rule.at_most))
        elif isinstance(rule, LeadsRule):
            leads.append(LeadRule(seats[rule.who], rule.cards))
    counts = task_counts(mission, deal, len(cards), seats)
    built = make_task_mission(
        deal, task_cards, task_tokens, owners, counts, counters, balanced, random_pass, specs=True,
        sequences=sequences, comparisons=comparisons, runs=runs, leads=leads,
    )
    return built if mission.pattern is None else dataclasses.replace(built, pattern=mission.pattern)


DIFFERENCES = {"more": (1, NO_LIMIT), "fewer": (-NO_LIMIT, -1), "same": (0, 0)}  # left minus right


def comparison_of(rule, seats: dict, players: int, counters: list) -> list[Comparison]:
    """Return a compare rule's comparisons, appending the counters they compare to `counters`: the
    tricks won by `who` against another player's, each other player's or the others' together; or
    the cards of two sets `who` wins."""
    low, high = DIFFERENCES[rule.relation]

    where = {}  # counter -> its first index: a counter another comparison reads already is read again
    for k, counter in enumerate(counters):
        where.setdefault(counter, k)

    def counted(counter: TrickCounter) -> int:
        if counter not in where:
            where[counter] = len(counters)
            counters.append(counter)
        return where[counter]

    seat = seats[rule.who]
    if isinstance(rule, CompareCardsRule):
        left = counted(TrickCounter(1 << seat, containing=rule.cards, at_least=rule.at_least, count_cards=True))
        return [Comparison(left, counted(TrickCounter(1 << seat, containing=rule.than, count_cards=True)), low, high)]
    left = counted(TrickCounter(1 << seat))
    if rule.than == "others":
        return [Comparison(left, counted(TrickCounter(everyone(players) & ~(1 << seat))), low, high)]
    others = [s for s in range(players) if s != seat] if rule.than == "each-other" else [seats[rule.than]]
    return [Comparison(left, counted(TrickCounter(1 << other)), low, high) for other in others]


def task_of(rule, deal: Deal, task_cards: list) -> int | None:
    """Return the card of a `tricks` rule that is a task: one player wins the trick holding one card, dealt and
    not a task already, with nothing else asked (Deep Sea's "win the pink 3", 16-19, 52-54); else None.

    A task demands what the rule does (its owner wins its trick; anyone else winning it, or the card never
    played, fails it), and the engines know tasks best: the kernel's lazy owners, its move ordering, and its
    proofs that a task's owner can never win its trick. Measured on cards 16-19 and 52-54, each held by the
    seat after the captain, 10 deals a card at 4 players (`crew solve --batch`, one process): WIN median
    52.6 -> 3.1 ms, LOSS 109 -> 58 ms (then the reference's first look of 5,000 plays, the kernel none)."""
    plain = (
        isinstance(rule, TricksRule) and rule.containing.bit_count() == 1 and rule.at_least == 1
        and rule.at_most is None and not (rule.won_with or rule.without or rule.tricks or rule.as_many)
        and rule.value is None and rule.containing_at_least == 1
        and rule.who is not None and not rule.who.startswith("not ")
    )
    card = rule.containing.bit_length() - 1 if plain else -1
    return card if plain and deal.holder(card) is not None and card not in task_cards else None


def everyone(players: int) -> int:
    return (1 << players) - 1


def winners_of(who: str | None, seats: dict, players: int) -> int:
    """Return the seat mask of `who`: None for anyone, a named player, or "not NAME"."""
    if who is None:
        return everyone(players)
    if who.startswith("not "):
        return everyone(players) & ~(1 << seats[who[4:]])
    return 1 << seats[who]


def won_cards_counters(rule: WonCardsRule, seats: dict, players: int) -> list[TrickCounter]:
    """Return the counters of a `won-cards` rule: one per player for "each", else one."""
    return list(won_cards_counters_of(rule, None if rule.who == "each" else winners_of(rule.who, seats, players),
                                      players))


# Cached, as trick_conditions_counter: a Deep Sea total's thousands of setups make the same few counters again (the
# 25,200 setups of difficulty-20's deal 9 at 4 players, with the deal's trick count read once: 2.8 -> 2.2 s, in turns).
@functools.lru_cache(maxsize=4096)
def won_cards_counters_of(rule: WonCardsRule, winners: int | None, players: int) -> tuple[TrickCounter, ...]:
    """Return the counters of a `won-cards` rule won by `winners` (None: "each", a counter per player)."""
    at_most = NO_LIMIT if rule.at_most is None else rule.at_most
    groups = [1 << seat for seat in range(players)] if winners is None else [winners]
    return tuple(TrickCounter(group, containing=rule.cards, at_least=rule.at_least, at_most=at_most, count_cards=True)
                 for group in groups)


def tricks_counter(rule: TricksRule, seats: dict, players: int, tricks: int) -> TrickCounter:
    """Return the counter of a `tricks` rule with its players and trick numbers resolved."""
    at_most = NO_LIMIT if rule.at_most is None else rule.at_most
    return trick_conditions_counter(rule, winners_of(rule.who, seats, players), tricks, rule.at_least, at_most)


@functools.lru_cache(maxsize=4096)
def trick_conditions_counter(rule: TricksRule, winners: int, tricks: int, at_least: int, at_most: int) -> TrickCounter:
    """Return a counter of the tricks matching a rule's conditions, won by `winners`."""
    mask = ALL_TRICKS
    if rule.tricks:
        mask = 0
        for first, last in rule.tricks:
            for number in range(resolve_trick(first, tricks), resolve_trick(last, tricks) + 1):
                if 1 <= number <= tricks:
                    mask |= 1 << (number - 1)
    low, high = rule.value or (0, NO_LIMIT)
    if rule.without:
        return TrickCounter(winners, rule.won_with, rule.without, 0, mask, at_least, at_most, 0, low, high)
    return TrickCounter(winners, rule.won_with, rule.containing, rule.containing_at_least, mask, at_least, at_most,
                        NO_LIMIT, low, high, as_many=rule.as_many)


def task_counts(mission: Mission, deal: Deal, tasks: int, seats: dict) -> frozenset | None:
    """Return the allowed final task counts per seat of the mission's assignment mode."""
    if not tasks:
        return frozenset({(0,) * deal.players})
    players, commander = deal.players, deal.commander
    if mission.assignment == "draft":
        vectors = {draft_counts(tasks, players, commander)}
    elif mission.assignment == "commander-decision":
        vectors = {tuple(tasks if p == x else 0 for p in range(players)) for x in range(players) if x != commander}
    else:
        low, extra = divmod(tasks, players)
        vectors = {
            tuple(low + (p in ups) for p in range(players))
            for ups in itertools.combinations(range(players), extra)
        }
    if mission.five_player_pass and players == 5:
        vectors |= {
            tuple(v[p] - (p == giver) + (p == taker) for p in range(players))
            for v in vectors
            for giver in range(players)
            for taker in range(players)
            if giver != taker and v[giver] > 0
        }
    return frozenset(vectors)
