"""A player who sees only their own hand: each legal card's share of sampled deals that stay winnable.

Perfect-information Monte Carlo, as in the Skat and bridge programs: the seat to move draws deals
of the unseen cards uniformly among those consistent with what it knows (solver/missions/knowledge.py:
its hand, the plays and their voids, the cards shown with their tokens), and for each one asks the
analysis from the position (analysis.py) which of its legal cards keep the mission winnable. A card's
share is the fraction of the samples in which it does; the same seed draws the same samples.

The train only: stage spaces that move cards between hands (skis, helicopter, jeep, fog's draws),
mission 12's pass and the Ghost change what play revealed, and are refused.
"""

import random
from dataclasses import dataclass

from solver.core.cards import bit, popcount
from solver.core.deal import Deal
from solver.core.errors import InputError
from solver.core.solution import Limits, Outcome
from solver.engines.analysis import analyze_position, case_solver, consistent_cases
from solver.engines.reference import solve as reference_solve
from solver.engines.reference import walk
from solver.missions.knowledge import Knowledge
from solver.missions.position import Position
from solver.trick.variants import NO_RULES


@dataclass(frozen=True)
class CardShare:
    """One legal card of the seat to move: in how many of the sampled deals the mission stays winnable after it."""

    card: int
    wins: int
    samples: int

    @property
    def share(self) -> float:
        return self.wins / self.samples


def hidden_unsupported(mission) -> str:
    """Return why a hidden-information player cannot play `mission` yet, or "" when it can."""
    if mission.space != NO_RULES:
        return "stage spaces (cards change hands or the rules of play change)"
    if mission.random_pass is not None:
        return "a random pass"
    return ""


def card_shares(deal: Deal, mission, position: Position, communications=(), samples: int = 16, seed: int = 0,
                solve=None, limits: Limits = Limits()) -> tuple[CardShare, ...]:
    """Return each legal card's share of `samples` deals, drawn with `seed` from what the seat to move knows at
    `position` of `deal` (whose other hands it does not see), in which the mission stays winnable after it;
    `solve` an engine (default: the reference), each card's solve within `limits`."""
    why = hidden_unsupported(mission)
    if why:
        raise InputError(f"the hidden-information player does not model {why}")
    walked = walk(deal, position.on(mission))
    if walked.ended or walked.due or not walked.legal:
        raise InputError("the position has no card to choose (the mission ended, or the crew chooses)")
    seat, players = walked.to_move, deal.players
    seated = list(zip(walked.seats, position.plays))
    tricks = [seated[start : start + players] for start in range(0, len(seated), players)]
    sizes = tuple(popcount(hand) for hand in walked.hands)
    known = Knowledge.of(seat, walked.hands[seat], sizes, tricks, communications, deck=deal.cards)
    played = [0] * players
    for other, c in seated:
        played[other] |= bit(c)
    reach = case_solver(solve or reference_solve, limits)
    rng = random.Random(seed)
    wins: dict[int, int] = {}
    for _ in range(samples):
        now = known.sample(rng)
        sampled = Deal(tuple(hand | gone for hand, gone in zip(now, played)), deal.commander)
        analysis = analyze_position(consistent_cases([("", sampled, mission)], position), reach)
        for verdict in analysis.verdicts:
            wins[verdict.card] = wins.get(verdict.card, 0) + (verdict.outcome is Outcome.WIN)
    return tuple(CardShare(card, wins.get(card, 0), samples) for card in sorted(wins))

