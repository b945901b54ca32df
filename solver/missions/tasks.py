"""Planet Nine task missions: task cards, order tokens, owners and the check after a trick.

A task is completed when its owner wins the trick holding its card; the mission
fails when anyone else wins that trick, or when the card is never played.
Owners are fixed per task, or drafted: Commander first, then clockwise, one
task each until none is left, so seat offset i from the Commander takes
ceil((T - i) / N) of the T tasks. A cooperative perfect-information crew may
draft any assignment with those counts, so the search decides a task's owner
lazily: whoever wins its trick, while that seat's count allows.

Order tokens follow the Board Game Arena implementation (../shared/missions/
planet-nine.md, section 1.3). Tasks completed in the same trick are
simultaneous and never violate each other's order.

- absolute `1`..`5`: an open task with token n fails as soon as a completed
  task exists that does not carry a smaller absolute token; so tokens 1..k
  are the first k tasks completed, in order, and an untokened task may not be
  completed before every absolute task is done (the same trick is allowed);
- relative `>`..`>>>>`: completing a task with a arrows fails every open task
  with fewer arrows; untokened tasks are free;
- omega: completing it fails every other open task, so it comes last.
"""

from dataclasses import dataclass

from solver.core.cards import COLOUR_CARDS, DECK, SUIT_MASKS, bit, card_set, format_card, scan
from solver.core.deal import Deal
from solver.core.errors import InputError
from solver.missions.conditions import NO_LIMIT, Balanced, Comparison, LeadRule, Run, Sequence, TrickCounter
from solver.missions.pattern import Pattern
from solver.trick.chance import RandomPass
from solver.trick.variants import NO_RULES, PlayRules

ABSOLUTE, RELATIVE, OMEGA = "absolute", "relative", "omega"
MAX_ABSOLUTE = 5
MAX_ARROWS = 4
OMEGA_NAMES = ("omega", "o", "ω")  # "Ω".lower() is "ω"
NO_TOKEN = "-"
UNASSIGNED = -1  # a task not yet won (search state)
LAZY = -1  # owner spec: whoever wins the task's trick, within the allowed final counts
ANYONE = -2  # owner spec: whoever wins the task's trick, no limit


class TaskError(InputError):
    """A task, token or owner list that does not fit the deal."""


@dataclass(frozen=True)
class Token:
    """An order token: absolute n, relative with n arrows, or omega (n = 0)."""

    kind: str
    n: int = 0

    def __str__(self) -> str:
        if self.kind == ABSOLUTE:
            return str(self.n)
        if self.kind == RELATIVE:
            return ">" * self.n
        return "Ω"


def parse_token(text: str) -> Token | None:
    """Return the token written as `1`..`5`, `>`..`>>>>`, `omega`/`Ω`, or None for `-`."""
    word = text.strip()
    if word == NO_TOKEN:
        return None
    if word.lower() in OMEGA_NAMES:
        return Token(OMEGA)
    if len(word) == 1 and word in "12345"[:MAX_ABSOLUTE]:
        return Token(ABSOLUTE, int(word))
    if word and set(word) == {">"} and len(word) <= MAX_ARROWS:
        return Token(RELATIVE, len(word))
    raise TaskError(f"unknown token {word!r} (tokens are 1-5, > to >>>>, omega or Ω, - for none)")


def parse_tokens(text: str) -> list[Token | None]:
    """Return the comma-separated tokens of `text`, one per task."""
    return [parse_token(word) for word in text.split(",")]


@dataclass(frozen=True)
class TaskMission:
    """A mission made concrete for one deal: what the search must achieve.

    Task cards in draw order with a token (or None) each; owners: None for a draft,
    else per task a seat, LAZY or ANYONE; `counts`: the final per-seat counts of
    LAZY tasks allowed (None: the draft counts); trick conditions (conditions.py);
    a random pass drawn with the deal (chance.py), if the mission has one; the
    stage space's rules (spaces.py). `played`: the cards already played, in play order from trick 1 (a
    position in the middle of a game, solver/missions/position.py), and `chosen` the crew's choices after
    each full trick among them (a table card, a pass; none past its end); an engine's search plays them
    first, as its only moves, and decides the rest.
    """

    cards: tuple[int, ...]
    tokens: tuple[Token | None, ...]
    owners: tuple[int, ...] | None
    counts: frozenset[tuple[int, ...]] | None = None
    counters: tuple[TrickCounter, ...] = ()
    balanced: Balanced | None = None
    random_pass: RandomPass | None = None
    sequences: tuple[Sequence, ...] = ()
    space: PlayRules = NO_RULES
    pattern: Pattern | None = None  # a special stage's table pattern (solver/missions/pattern.py)
    played: tuple[int, ...] = ()  # the plays so far (a position): every engine's first moves
    chosen: tuple = ()  # the crew's choices after each full trick of `played` (position.py's TrickChoices)
    comparisons: tuple[Comparison, ...] = ()  # differences of two counters at the end (Deep Sea)
    runs: tuple[Run, ...] = ()  # the longest runs of consecutive tricks a seat wins (Deep Sea)
    leads: tuple[LeadRule, ...] = ()  # the cards a seat may lead (Deep Sea)

    @property
    def all_done(self) -> int:
        """Return the task mask with every task completed."""
        return (1 << len(self.cards)) - 1

    @property
    def trades(self) -> bool:
        """Return True where cards change hands one by one: the helicopter's and the jeep's passes, mission 12's."""
        return bool(self.space.heli_pass or self.space.jeep_after) or self.random_pass is not None

    @property
    def fixed_owners(self) -> bool:
        """Return True when every task has a fixed owner (no draft, no lazy assignment; so too with no task)."""
        return self.owners is not None and min(self.owners, default=0) >= 0

    @property
    def plain(self) -> bool:
        """Return True for a task mission with fixed or drafted owners and no trick conditions."""
        return (
            self.counts is None
            and not self.counters
            and self.balanced is None
            and self.random_pass is None
            and not self.sequences
            and not self.comparisons
            and not self.runs
            and not self.leads
            and self.space == NO_RULES
            and self.pattern is None
            and (self.owners is None or self.fixed_owners)
            and not self.played
            and not self.chosen
        )

    def rules_of_play(self) -> "TaskMission":
        """Return this mission's rules of play (its space's, its random pass, a table to lay) without its
        demands: no task, no condition, a table that any cards complete (perft counts play, not missions)."""
        return TaskMission((), (), None, random_pass=self.random_pass, space=self.space,
                           pattern=None if self.pattern is None else Pattern(()))


DEEP_SEA_FAMILIES = {
    "comparisons": "comparisons of two counts at the end (Deep Sea: more tricks than the captain, ...)",
    "runs": "runs of consecutive tricks (Deep Sea)",
    "leads": "lead rules (Deep Sea: never lead pink, yellow or blue)",
    "as-many": "tricks holding as many cards of one set as of another (Deep Sea)",
}


def deep_sea_families(mission: TaskMission) -> list[str]:
    """Return the names (DEEP_SEA_FAMILIES) of the Deep Sea rule families `mission` uses."""
    present = {
        "comparisons": bool(mission.comparisons),
        "runs": bool(mission.runs),
        "leads": bool(mission.leads),
        "as-many": any(counter.as_many for counter in mission.counters),
    }
    return [name for name, found in present.items() if found]


def distinct_cards(mission: TaskMission) -> int:
    """Return the cards no other card may stand in for: task cards, and cards a condition's
    or a table pattern's card set names while other cards of their suit are outside it, the
    skis, and the Ghost's display (a card's place there matters; with passes any card can get there)."""
    distinct = card_set(mission.cards) | mission.space.skis | card_set(mission.space.display)
    named_sets = [s for counter in mission.counters for s in (counter.won_with, counter.containing, counter.as_many)]
    named_sets += [s for sequence in mission.sequences for s in (sequence.before, sequence.after)]
    named_sets += [rule.allowed for rule in mission.leads]
    named_sets.append(mission.space.heli_pass)  # the cards whose trick brings a pass (all helis: a whole suit)
    if mission.pattern is not None:
        named_sets += mission.pattern.named_sets()
    for named in named_sets:
        for suit_mask in SUIT_MASKS:
            part = named & suit_mask
            if part and part != suit_mask:
                distinct |= part
    if any(counter.min_value or counter.max_value < NO_LIMIT for counter in mission.counters):
        distinct = DECK  # a trick's total value tells every rank apart
    space = mission.space
    if space.ghost >= 0 and (space.heli_pass or space.jeep_after):
        distinct = DECK  # any card may be passed into the Ghost's display, where its place matters
    if mission.pattern is not None and mission.pattern.ranks_matter:
        distinct = DECK  # a relation of numbers between table cards tells every rank apart
    return distinct


def draft_counts(tasks: int, players: int, commander: int) -> tuple[int, ...]:
    """Return how many tasks each seat drafts: offset i from the Commander takes ceil((T-i)/N)."""
    counts = [0] * players
    for offset in range(players):
        counts[(commander + offset) % players] = max(0, -(-(tasks - offset) // players))
    return tuple(counts)


def task_quotas(mission: TaskMission, deal: Deal) -> tuple[int, ...]:
    """Return how many tasks each seat must end up owning (drafted or fixed owners)."""
    if mission.owners is None:
        return draft_counts(len(mission.cards), deal.players, deal.commander)
    return tuple(mission.owners.count(seat) for seat in range(deal.players))


def allowed_counts(mission: TaskMission, deal: Deal) -> frozenset[tuple[int, ...]]:
    """Return the per-seat counts the LAZY tasks may end with (a draft: its counts)."""
    if mission.counts is not None:
        return mission.counts
    if mission.owners is None:
        return frozenset({draft_counts(len(mission.cards), deal.players, deal.commander)})
    return frozenset({(0,) * deal.players})


def counts_allow(counts, taken) -> bool:
    """Return True when per-seat counts `taken` can still grow into one of `counts`."""
    return any(all(t <= v for t, v in zip(taken, vector)) for vector in counts)


def make_task_mission(
    deal: Deal, cards, tokens=None, owners=None, counts=None, counters=(), balanced=None, random_pass=None,
    specs=False, sequences=(), comparisons=(), runs=(), leads=(),
) -> TaskMission:
    """Return a checked task mission for `deal`; no tokens means none, no owners means a draft.

    Owners are seats; with `specs` (missions built from mission files) also LAZY and ANYONE.
    """
    cards = tuple(cards)
    tokens = tuple(tokens) if tokens is not None else (None,) * len(cards)
    seen = 0
    for c in cards:
        if not bit(c) & COLOUR_CARDS and not specs:
            raise TaskError(f"task {format_card(c)} is not a colour card")
        if seen & bit(c):
            raise TaskError(f"duplicate task {format_card(c)}")
        if deal.holder(c) is None:
            raise TaskError(f"task {format_card(c)} is not in any hand")
        seen |= bit(c)
    if len(tokens) != len(cards):
        raise TaskError(f"{len(cards)} tasks but {len(tokens)} tokens")
    check_tokens(tokens)
    if owners is not None:
        owners = tuple(owners)
        if len(owners) != len(cards):
            raise TaskError(f"{len(cards)} tasks but {len(owners)} owners")
        for seat in owners:
            if not 0 <= seat < deal.players and not (specs and seat in (LAZY, ANYONE)):
                raise TaskError(f"owner {seat} is not a seat of this {deal.players}-player deal")
    if counts is not None:
        counts = frozenset(tuple(vector) for vector in counts)
        lazy = len(cards) if owners is None else owners.count(LAZY)
        if not counts or any(len(v) != deal.players or sum(v) != lazy or min(v) < 0 for v in counts):
            raise TaskError(f"allowed counts must give every seat a count, summing to the {lazy} lazy tasks")
    for comparison in comparisons:
        if not all(0 <= k < len(counters) for k in (comparison.left, comparison.right)):
            raise TaskError(f"a comparison names counter {max(comparison.left, comparison.right)} of {len(counters)}")
    for rule in [*runs, *leads]:
        if not 0 <= rule.seat < deal.players:
            raise TaskError(f"seat {rule.seat} is not a seat of this {deal.players}-player deal")
    return TaskMission(cards, tokens, owners, counts, tuple(counters), balanced, random_pass, tuple(sequences),
                       comparisons=tuple(comparisons), runs=tuple(runs), leads=tuple(leads))


def lazy_counts(specs, owners, players: int) -> tuple[int, ...]:
    """Return how many LAZY tasks each seat has won."""
    taken = [0] * players
    for spec, owner in zip(specs, owners):
        if spec == LAZY and owner != UNASSIGNED:
            taken[owner] += 1
    return tuple(taken)


def check_tokens(tokens) -> None:
    """Raise unless every token is used once and the absolute ones are 1..k."""
    used = [t for t in tokens if t is not None]
    for i, t in enumerate(used):
        if t in used[:i]:
            raise TaskError(f"token {t} is used twice")
    absolute = sorted(t.n for t in used if t.kind == ABSOLUTE)
    if absolute != list(range(1, len(absolute) + 1)):
        raise TaskError(f"absolute tokens must be 1..k without gaps, got {absolute}")


def order_broken(tokens, done: int, completed: int) -> bool:
    """Return True when completing task mask `completed` after `done` breaks a token's order."""
    finished = done | completed
    for i, token in enumerate(tokens):
        if token is None:
            continue
        is_open = not finished >> i & 1
        if token.kind == ABSOLUTE and is_open:
            if any(not smaller_absolute(tokens[j], token.n) for j in scan(finished)):
                return True
        if completed >> i & 1 and token.kind == RELATIVE:
            if any(
                not finished >> j & 1 and t is not None and t.kind == RELATIVE and t.n < token.n
                for j, t in enumerate(tokens)
            ):
                return True
        if completed >> i & 1 and token.kind == OMEGA:
            if finished != (1 << len(tokens)) - 1:
                return True
    return False


def order_prerequisites(tokens: tuple) -> list[int]:
    """Return, per task, the mask of tasks that must be completed no later than it."""
    before = []
    for j, token_j in enumerate(tokens):
        mask = 0
        for i, token_i in enumerate(tokens):
            if i == j or token_i is None:
                continue
            absolute_first = token_i.kind == ABSOLUTE and not (
                token_j is not None and token_j.kind == ABSOLUTE and token_j.n < token_i.n
            )
            fewer_arrows = (
                token_j is not None
                and token_j.kind == RELATIVE
                and token_i.kind == RELATIVE
                and token_i.n < token_j.n
            )
            if absolute_first or fewer_arrows:
                mask |= 1 << i
        if token_j is not None and token_j.kind == OMEGA:
            mask = ((1 << len(tokens)) - 1) & ~(1 << j)
        before.append(mask)
    return before


def smaller_absolute(token: Token | None, n: int) -> bool:
    """Return True when `token` is an absolute token below n."""
    return token is not None and token.kind == ABSOLUTE and token.n < n


def initial_owners(mission: TaskMission) -> tuple[int, ...]:
    """Return the owners before play: the fixed ones, UNASSIGNED for the others."""
    if mission.owners is None:
        return (UNASSIGNED,) * len(mission.cards)
    return tuple(UNASSIGNED if seat < 0 else seat for seat in mission.owners)


def settle_trick(mission, counts, owners, done, trick_cards: int, winner: int):
    """Return (owners, done) after `winner` takes a trick holding `trick_cards`, or None on failure.

    `owners` holds a seat per task, UNASSIGNED for tasks not yet won; a LAZY task
    goes to the winner while the LAZY counts can still end in one of `counts`.
    """
    owners = list(owners)
    specs = mission.owners or (LAZY,) * len(mission.cards)
    completed = 0
    for i, c in enumerate(mission.cards):
        if not trick_cards & bit(c):
            continue
        if owners[i] == UNASSIGNED:
            owners[i] = winner
            players = len(next(iter(counts)))
            if specs[i] == LAZY and not counts_allow(counts, lazy_counts(specs, owners, players)):
                return None
        elif owners[i] != winner:
            return None
        completed |= 1 << i
    if order_broken(mission.tokens, done, completed):
        return None
    return tuple(owners), done | completed
