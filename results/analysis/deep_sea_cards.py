"""Printed against measured difficulty of Mission Deep Sea's task cards, from sweeps' summary.json files.

    .venv/bin/python results/analysis/deep_sea_cards.py results/deep-sea-cards-1000 [results/crew-deep-sea-...] OUT

For every sweep given, each card's cells (deep-sea/N at 3, 4, 5 players; the second readings of 46, 47, 88,
89 are left out: they have no printed difficulty of their own), then per player count and per measure (the
perfect-information loss rate; with a realistic crew, the crew's loss rate): the Spearman rank correlation of
the printed difficulty with the measured loss rate (ties take their mean rank), and the cards most over- and
under-rated (the printed difficulty's rank minus the measured rank, in ranks of the 96; over-rated among the
cards not measured hardest, under-rated among those that lost more than the easiest). Writes OUT.md (the
tables) and OUT.png / OUT.svg (printed difficulty against measured win rate, one panel a player count).
"""

import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from solver.missions.mission import built_in_missions  # noqa: E402

CARDS = {int(m.id.split("/")[1]): m for m in built_in_missions().values()
         if m.id.startswith("deep-sea/") and m.id.split("/")[1].isdigit()}


def ranks(values: list[float]) -> list[float]:
    """Return each value's rank from 1, ties sharing their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    result = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            result[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return result


def spearman(xs: list[float], ys: list[float]) -> float:
    """Return Spearman's rank correlation (Pearson's on the ranks); nan when one side is constant."""
    rx, ry = ranks(xs), ranks(ys)
    n = len(xs)
    mx, my = sum(rx) / n, sum(ry) / n
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    vx, vy = sum((a - mx) ** 2 for a in rx), sum((b - my) ** 2 for b in ry)
    return cov / (vx * vy) ** 0.5 if vx and vy else float("nan")


def measures(summary: dict) -> dict:
    """Return {(measure, players): {card: (win rate, games)}} of a sweep's card cells."""
    found: dict = {}
    for cell in summary["cells"]:
        name = cell["mission"].split("/", 1)[1]
        if not cell["mission"].startswith("deep-sea/") or not name.isdigit():
            continue
        card, players = int(name), cell["players"]
        found.setdefault(("perfect information", players), {})[card] = (cell["win_rate"], cell["deals"])
        if cell.get("crew_games"):
            found.setdefault(("realistic crew", players), {})[card] = (cell["crew_win_rate"], cell["crew_games"])
    return found


def report(found: dict) -> list[str]:
    """Return the markdown lines: per measure and player count, the correlation and the extremes."""
    lines = ["| measure | players | cards | games a card | Spearman (printed difficulty, loss rate) | "
             "most over-rated (printed rank - measured rank) | most under-rated |", "|---|---|---|---|---|---|---|"]
    for (measure, players), rates in sorted(found.items()):
        cards = sorted(rates)
        printed = [CARDS[c].difficulty[players - 3] for c in cards]
        loss = [1 - rates[c][0] for c in cards]
        gap = {c: p - m for c, p, m in zip(cards, ranks(printed), ranks(loss))}
        # Over-rated: printed harder than measured, among the cards not measured hardest; under-rated: the other
        # way, among the cards that lost more than the easiest (a tie of cards that never lose ranks them alike).
        lost = {c: 1 - rates[c][0] for c in cards}
        over = sorted((c for c in cards if lost[c] < max(loss)), key=lambda c: -gap[c])[:5]
        under = sorted((c for c in cards if lost[c] > min(loss)), key=lambda c: gap[c])[:5]

        def words(chosen):
            return ", ".join(f"{c} (d{CARDS[c].difficulty[players - 3]}, {100 * rates[c][0]:.0f}%)" for c in chosen) or "-"

        games = sorted({rates[c][1] for c in cards})
        spread = f"{games[0]}-{games[-1]}" if len(games) > 1 else str(games[0])
        lines.append(f"| {measure} | {players} | {len(cards)} | {spread} | {spearman(printed, loss):.2f} | "
                     f"{words(over)} | {words(under)} |")
    lines += ["", "Per card: printed difficulty, then each measure's win rate (%) per player count.", ""]
    columns = sorted(found)
    lines.append("| card | title | d3/d4/d5 | " + " | ".join(f"{m} {p}p" for m, p in columns) + " |")
    lines.append("|---|---|---|" + "---|" * len(columns))
    for card in sorted(CARDS):
        cells = [f"{100 * found[key][card][0]:.1f}" if card in found[key] else "-" for key in columns]
        lines.append(f"| {card} | {CARDS[card].title} | {'/'.join(map(str, CARDS[card].difficulty))} | "
                     + " | ".join(cells) + " |")
    return lines


def plot(found: dict, out: Path) -> None:
    """Plot printed difficulty against measured win rate, a panel a player count, a series a measure."""
    counts = sorted({p for _, p in found})
    figure, axes = plt.subplots(1, len(counts), figsize=(4.5 * len(counts), 4), sharey=True, squeeze=False)
    for axis, players in zip(axes[0], counts):
        for (measure, p), rates in sorted(found.items()):
            if p != players:
                continue
            cards = sorted(rates)
            axis.scatter([CARDS[c].difficulty[p - 3] + (0.1 if measure == "realistic crew" else -0.1) for c in cards],
                         [100 * rates[c][0] for c in cards], s=12, alpha=0.6, label=measure)
        axis.legend(loc="lower left", fontsize=8)
        axis.set_title(f"{players} players")
        axis.set_xlabel("printed difficulty")
        axis.grid(alpha=0.3)
    axes[0][0].set_ylabel("win rate of the card alone (%)")
    figure.suptitle("Mission Deep Sea: each task card alone, printed difficulty against measured win rate")
    figure.tight_layout()
    for suffix in (".png", ".svg"):
        figure.savefig(out.with_suffix(suffix), dpi=120)


def main(paths: list[str]) -> None:
    *sweeps, out = paths
    found: dict = {}
    for sweep in sweeps:
        for key, rates in measures(json.loads((Path(sweep) / "summary.json").read_text())).items():
            kept = found.setdefault(key, {})  # a card measured twice: the measure of more games
            kept.update({card: rate for card, rate in rates.items() if card not in kept or rate[1] > kept[card][1]})
    out = Path(out)
    out.with_suffix(".md").write_text("\n".join(report(found)) + "\n")
    plot(found, out)
    print("\n".join(report(found)[:2 + len(found)]))


if __name__ == "__main__":
    main(sys.argv[1:])
