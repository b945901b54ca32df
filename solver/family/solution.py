"""What a Family Adventure solver answers: WIN with the turns that win, LOSS, or UNKNOWN past its budget."""

from dataclasses import dataclass, field

from solver.core.solution import Outcome
from solver.family.cards import card_label, format_card
from solver.family.turns import Turn, format_item


def describe_turn(turn: Turn) -> str:
    """Return a turn in words: `seat 1: trade (S1) B2 for G5 with seat 0; G5 +S4, G6 (S3)`, `seat 1: hammock`,
    `seat 1: hammock, shell: S4 face up`."""
    if turn.hammock:
        if not turn.shell:
            return f"seat {turn.seat}: hammock"
        found = f"S{turn.shell_card} face up" if turn.shell_card is not None else "no special card"
        return f"seat {turn.seat}: hammock, shell: {found}"
    parts = []
    if turn.trade:
        t = turn.trade
        parts.append(f"trade (S1) {format_item(t.give)} for {format_item(t.receive)} with seat {t.partner}")
    plays = ", ".join(
        card_label(p.card) + "".join(f" +S{k}" for k in sorted(p.modifiers)) for p in turn.plays
    )
    parts.append(plays + (" (S3)" if len(turn.plays) == 2 else ""))
    return f"seat {turn.seat}: " + "; ".join(parts)


def turn_json(turn: Turn) -> dict:
    if turn.hammock:
        answer = {"seat": turn.seat, "hammock": True}
        if turn.shell:
            answer["shell"] = f"S{turn.shell_card}" if turn.shell_card is not None else None
        return answer
    answer: dict = {"seat": turn.seat, "plays": [
        {"card": format_card(p.card), "specials": sorted(p.modifiers)} for p in turn.plays
    ]}
    if turn.trade:
        t = turn.trade
        answer["trade"] = {"partner": t.partner, "give": format_item(t.give), "receive": format_item(t.receive)}
    return answer


def compact_turn(turn: Turn) -> str:
    """Return a turn in a few characters: `-` a hammock, `-S4` the shell's hammock turning over special
    card 4 (`-S` with none), `B7` a card, `B7*4` with special card 4, `B7,B6` two cards (special
    card 3), `[P4>G5@1]` a trade with seat 1 first."""
    if turn.hammock:
        return "-" + ("S" + ("" if turn.shell_card is None else str(turn.shell_card)) if turn.shell else "")
    trade = f"[{format_item(turn.trade.give)}>{format_item(turn.trade.receive)}@{turn.trade.partner}]" if turn.trade else ""
    return trade + ",".join(format_card(p.card) + "".join(f"*{k}" for k in sorted(p.modifiers)) for p in turn.plays)


@dataclass
class FamilySolution:
    outcome: Outcome
    nodes: int  # DFS: positions expanded; CP-SAT: branches
    seconds: float
    engine: str
    turns: list[Turn] = field(default_factory=list)
    work: float = 0.0  # seconds of work spent (solver/core/solution.py's Limits); `seconds`: the wall clock's

    @property
    def row(self) -> list[int]:
        return [p.card for turn in self.turns for p in turn.plays]

    @property
    def line(self) -> str:
        """Return the turns in compact form, separated by spaces (seats go round from the first)."""
        return " ".join(compact_turn(t) for t in self.turns)

    def to_json(self) -> dict:
        return {
            "result": self.outcome.value,
            "turns": [turn_json(t) for t in self.turns],
            "row": [format_card(c) for c in self.row],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "engine": self.engine,
        }
