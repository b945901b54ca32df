"""Win rates with 95% intervals, and the summary of one sweep cell's per-deal records and best scores.

The win rate counts decided deals only: wins / (wins + losses); deals left
UNKNOWN by the budget are reported apart, never as wins or losses. The
interval is Wilson's score interval; with no win at all the lower bound is 0
and the upper bound is the exact (Clopper-Pearson) one, 1 - (alpha/2)^(1/n),
which Wilson's understates at 0 successes.
"""

import math
from collections import Counter
from dataclasses import dataclass

from solver.experiments.cell import Cell

Z_95 = 1.959963984540054  # two-sided 95% normal quantile
ALPHA = 0.05


def wilson(wins: int, n: int, z: float = Z_95) -> tuple[float, float]:
    """Return Wilson's score interval for `wins` successes in `n` trials (n > 0)."""
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def clopper_pearson_upper_at_zero(n: int, alpha: float = ALPHA) -> float:
    """Return the exact two-sided upper bound of a rate with no success in `n` trials."""
    return 1 - (alpha / 2) ** (1 / n)


def win_interval(wins: int, decided: int) -> tuple[float, float] | None:
    """Return the 95% interval of the win rate, or None with no decided deal."""
    if decided == 0:
        return None
    if wins == 0:
        return 0.0, clopper_pearson_upper_at_zero(decided)
    low, high = wilson(wins, decided)
    rate = wins / decided
    return min(low, rate), max(high, rate)  # rounding can put a bound a hair past the rate at wins == n


def percentile(sorted_values: list[float], q: float) -> float:
    """Return the `q` quantile (0..1) of sorted values, by linear interpolation."""
    if not sorted_values:
        return math.nan
    position = q * (len(sorted_values) - 1)
    low = math.floor(position)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (position - low)


@dataclass(frozen=True)
class Score:
    """A special mission's best score on a deal: exact, or at least `value` when a budget ran out."""

    value: int
    exact: bool = True

    def __str__(self) -> str:
        return f"{'' if self.exact else '>='}{self.value}"


@dataclass(frozen=True)
class CellSummary:
    """One row of a sweep's table."""

    cell: Cell
    deals: int
    wins: int
    losses: int
    unknowns: int
    median_ms: float
    p99_ms: float
    scores: tuple[tuple[Score, int], ...] = ()  # special missions: (score, deals), by score, exact ones first
    crew: "CrewSummary | None" = None  # a sweep with the realistic crew: its games of the cell's deals

    @property
    def rate(self) -> float | None:
        decided = self.wins + self.losses
        return self.wins / decided if decided else None

    @property
    def interval(self) -> tuple[float, float] | None:
        return win_interval(self.wins, self.wins + self.losses)

    @property
    def mean_score(self) -> float | None:
        """Special missions: the mean best score, a deal left at ">=N" counted at N (so a lower bound)."""
        counted = sum(deals for _, deals in self.scores)
        return sum(score.value * deals for score, deals in self.scores) / counted if counted else None


@dataclass(frozen=True)
class CrewSummary:
    """The realistic crew's games of a cell's deals: wins and losses (a game is never undecided), the tasks done
    of all, the crew's losses by the deal's perfect-information answer (winnable: lost by the crew; not
    winnable; undecided within the budget), the tricks the lost games failed in, and along the solver's winning
    lines (`slack_deals` of them) the decisions, the critical ones and the perhaps critical ones (sweep.CrewResult)."""

    games: int
    wins: int
    tasks_done: int
    tasks: int
    lost_by_crew: int
    not_winnable: int
    undecided: int
    lost_in: tuple[int, ...]  # sorted
    slack_deals: int
    decisions: int
    critical: int
    perhaps_critical: int = 0
    scores: tuple[tuple[int, int], ...] = ()  # a special mission: (the crew's score, games), lowest first

    @property
    def losses(self) -> int:
        return self.games - self.wins

    @property
    def mean_score(self) -> float | None:
        """Special missions: the crew's mean score over its games (None: no score)."""
        games = sum(count for _, count in self.scores)
        return sum(score * count for score, count in self.scores) / games if games else None

    @property
    def rate(self) -> float | None:
        return self.wins / self.games if self.games else None

    @property
    def interval(self) -> tuple[float, float] | None:
        return win_interval(self.wins, self.games)

    @property
    def task_share(self) -> float | None:
        return self.tasks_done / self.tasks if self.tasks else None

    @property
    def median_lost_in(self) -> float | None:
        return percentile(list(self.lost_in), 0.5) if self.lost_in else None

    @property
    def critical_per_deal(self) -> float | None:
        """Return the mean number of critical decisions along a winning line."""
        return self.critical / self.slack_deals if self.slack_deals else None

    @property
    def perhaps_critical_per_deal(self) -> float | None:
        """Return the mean number of perhaps critical decisions along a winning line."""
        return self.perhaps_critical / self.slack_deals if self.slack_deals else None


def summarize_crew(games) -> CrewSummary:
    """Summarize the realistic crew's games of a cell: (the deal's perfect-information result, its CrewResult)."""
    lost = [(perfect, crew) for perfect, crew in games if crew.result != "win"]
    slacked = [crew for _, crew in games if crew.decisions is not None]
    return CrewSummary(
        len(games), len(games) - len(lost), sum(crew.tasks_done for _, crew in games),
        sum(crew.tasks for _, crew in games), sum(perfect == "win" for perfect, _ in lost),
        sum(perfect == "loss" for perfect, _ in lost), sum(perfect == "unknown" for perfect, _ in lost),
        tuple(sorted(crew.lost_in for _, crew in lost)), len(slacked), sum(crew.decisions for crew in slacked),
        sum(crew.critical for crew in slacked), sum(crew.perhaps_critical or 0 for crew in slacked),
        tuple(sorted(Counter(crew.score for _, crew in games if crew.score is not None).items())),
    )


def percent(share: float) -> str:
    """Return a share as a percentage with the fewest decimals (one at least) that keep anything short of all
    from reading 100 and anything above none from reading 0: 19,323 wins and 2 losses are 99.99, not 100.0."""
    if share in (0, 1):
        return f"{100 * share:.1f}"
    for decimals in range(1, 5):
        text = f"{100 * share:.{decimals}f}"
        if 0 < float(text) < 100:
            return text
    return ">99.9999" if share > 0.5 else "<0.0001"


def summarize(cell: Cell, results: list[str], ms: list[float], scores: list[Score] = ()) -> CellSummary:
    """Summarize a cell from its per-deal results ('win', 'loss', 'unknown'), times and scores."""
    times = sorted(ms)
    counted: dict[Score, int] = {}
    for score in scores:
        counted[score] = counted.get(score, 0) + 1
    return CellSummary(
        cell,
        len(results),
        results.count("win"),
        results.count("loss"),
        results.count("unknown"),
        percentile(times, 0.5),
        percentile(times, 0.99),
        tuple(sorted(counted.items(), key=lambda item: (item[0].value, not item[0].exact))),
    )
