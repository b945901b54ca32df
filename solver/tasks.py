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

from solver.cards import COLOUR_CARDS, bit, format_card, scan
from solver.deal import Deal
from solver.errors import InputError

ABSOLUTE, RELATIVE, OMEGA = "absolute", "relative", "omega"
MAX_ABSOLUTE = 5
MAX_ARROWS = 4
OMEGA_NAMES = ("omega", "o", "ω")  # "Ω".lower() is "ω"
NO_TOKEN = "-"
UNASSIGNED = -1


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
    """Task cards in draw order, a token (or None) per task, and fixed owners or None (drafted)."""

    cards: tuple[int, ...]
    tokens: tuple[Token | None, ...]
    owners: tuple[int, ...] | None

    @property
    def all_done(self) -> int:
        """Return the task mask with every task completed."""
        return (1 << len(self.cards)) - 1


def draft_counts(tasks: int, players: int, commander: int) -> tuple[int, ...]:
    """Return how many tasks each seat drafts: offset i from the Commander takes ceil((T-i)/N)."""
    counts = [0] * players
    for offset in range(players):
        counts[(commander + offset) % players] = max(0, -(-(tasks - offset) // players))
    return tuple(counts)


def task_quotas(mission: TaskMission, deal: Deal) -> tuple[int, ...]:
    """Return how many tasks each seat must end up owning."""
    if mission.owners is None:
        return draft_counts(len(mission.cards), deal.players, deal.commander)
    return tuple(mission.owners.count(seat) for seat in range(deal.players))


def make_task_mission(deal: Deal, cards, tokens=None, owners=None) -> TaskMission:
    """Return a checked task mission for `deal`; no tokens means none, no owners means a draft."""
    cards = tuple(cards)
    tokens = tuple(tokens) if tokens is not None else (None,) * len(cards)
    seen = 0
    for c in cards:
        if not bit(c) & COLOUR_CARDS:
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
            if not 0 <= seat < deal.players:
                raise TaskError(f"owner {seat} is not a seat of this {deal.players}-player deal")
    return TaskMission(cards, tokens, owners)


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


def smaller_absolute(token: Token | None, n: int) -> bool:
    """Return True when `token` is an absolute token below n."""
    return token is not None and token.kind == ABSOLUTE and token.n < n


def initial_owners(mission: TaskMission) -> tuple[int, ...]:
    """Return the owners before play: the fixed ones, or UNASSIGNED for a draft."""
    return mission.owners if mission.owners is not None else (UNASSIGNED,) * len(mission.cards)


def settle_trick(mission, quotas, owners, done, trick_cards: int, winner: int):
    """Return (owners, done) after `winner` takes a trick holding `trick_cards`, or None on failure.

    `owners` holds a seat per task, UNASSIGNED for drafted tasks not yet won.
    """
    owners = list(owners)
    completed = 0
    for i, c in enumerate(mission.cards):
        if not trick_cards & bit(c):
            continue
        if owners[i] == UNASSIGNED:
            if owners.count(winner) >= quotas[winner]:
                return None
            owners[i] = winner
        elif owners[i] != winner:
            return None
        completed |= 1 << i
    if order_broken(mission.tokens, done, completed):
        return None
    return tuple(owners), done | completed
