"""What a valid mission says that no deal can satisfy, found without dealing: `crew missions check`'s warnings.

The mission reader (mission.py) checks each field; these checks read the rules' meaning, each cheaply
and only where it holds for every deal at a player count the mission is for:
- a count that cannot be met: more tricks than a game of that many players has (or than the trick
  numbers a rule counts), more won cards than its card set holds, or every player winning more of a
  set than the set holds for all of them;
- bounds that contradict each other: `at_least` above `at_most`, or two rules counting the very same
  tricks (or cards) with bounds no count meets together;
- the Commander, who holds rocket 4 and so wins the trick it is played in, told to win no trick (with
  four or five players every card is played; with three one card stays in hand, so it may be r4).
"""

from dataclasses import dataclass, replace

from solver.core.cards import CARD_COUNT, popcount
from solver.missions.mission import LAST, Mission, TricksRule, WonCardsRule

COMMANDER = "commander"
EACH = "each"
ALL_CARDS_PLAYED = (4, 5)  # player counts where no card stays in hand after the last trick


@dataclass(frozen=True)
class Finding:
    """One rule (1-based, in the mission's order) that no deal can satisfy at `players`, and why."""

    mission: str
    rule: int
    players: tuple[int, ...]
    reason: str

    def __str__(self) -> str:
        counts = ", ".join(map(str, self.players))
        return f"{self.mission}: rule {self.rule}: {self.reason} (with {counts} players)"


def tricks_in_game(players: int) -> int:
    return CARD_COUNT // max(players, 3)  # two players play three seats


def counted_tricks(rule: TricksRule, tricks: int) -> int:
    """Return how many trick numbers `rule` counts in a game of `tricks` tricks (all of them: no ranges)."""
    if not rule.tricks:
        return tricks
    numbers = set()
    for low, high in rule.tricks:
        first, last = (n if n > LAST else tricks + n for n in (low, high))
        numbers.update(range(max(first, 1), min(last, tricks) + 1))
    return len(numbers)


def most_of(rule, players: int) -> int:
    """Return the highest count a rule's condition can reach at `players`, whatever the deal."""
    if isinstance(rule, TricksRule):
        return counted_tricks(rule, tricks_in_game(players))
    share = popcount(rule.cards)
    return share // max(players, 3) if rule.who == EACH else share


def findings(mission: Mission) -> list[Finding]:
    """Return what in `mission`'s rules no deal can satisfy, rule by rule."""
    found = []
    counting = [(number, rule) for number, rule in enumerate(mission.rules, 1)
                if isinstance(rule, (TricksRule, WonCardsRule))]

    def note(number: int, players, reason: str) -> None:
        if players:
            found.append(Finding(mission.id, number, tuple(players), reason))

    for number, rule in counting:
        if rule.at_most is not None and rule.at_least > rule.at_most:
            note(number, mission.players, f"at least {rule.at_least} and at most {rule.at_most}")
            continue
        what = "tricks" if isinstance(rule, TricksRule) else "cards of its set" + (" each" if rule.who == EACH else "")
        short = [p for p in mission.players if rule.at_least > most_of(rule, p)]
        if short:
            note(number, short, f"at least {rule.at_least} {what}, but at most {max(most_of(rule, p) for p in short)}")
    for (first, one), (second, other) in ((a, b) for i, a in enumerate(counting) for b in counting[i + 1:]):
        if type(one) is type(other) and same_count(one, other) and not overlaps(one, other):
            note(second, mission.players, f"its bounds and rule {first}'s, on the same count, exclude each other")
    for number, rule in counting:
        if commander_wins_nothing(rule):
            note(number, [p for p in mission.players if p in ALL_CARDS_PLAYED],
                 "the Commander holds r4, which wins the trick it is played in, so wins at least one trick")
    return found


def same_count(one, other) -> bool:
    """Whether two rules count the same thing (they differ in their bounds at most)."""
    return replace(one, at_least=0, at_most=None) == replace(other, at_least=0, at_most=None)


def overlaps(one, other) -> bool:
    low = max(one.at_least, other.at_least)
    highs = [r.at_most for r in (one, other) if r.at_most is not None]
    return not highs or low <= min(highs)


def commander_wins_nothing(rule) -> bool:
    """Whether a rule tells the Commander to win no trick at all (any winning card, any trick)."""
    return (isinstance(rule, TricksRule) and rule.who == COMMANDER and rule.at_most == 0 and rule.value is None
            and not (rule.won_with or rule.containing or rule.tricks or rule.without))
