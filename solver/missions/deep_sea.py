"""Mission Deep Sea on a deal: the task cards a difficulty total draws, and the deals its cards redeal.

The task cards are missions of kind "task" (deep_sea.toml); several are drafted together as one mission
(mission.drafted_cards). A mission of a difficulty total (deep-sea/difficulty-N) draws its cards with
each deal, by the rule the fan randomizer of the facts file states ("kept until the exact level of the
mission is attained, like the rules state"): the cards are shuffled, then taken in turn, each kept when
its difficulty for the player count still fits in what is left of the total and passed over otherwise,
until the total is reached exactly. Every card of difficulty 1 fits, so any total up to the deck's sum
is reached. Both readings of an ambiguous card are in the file; only the numbered card is drawn.

Cards 51-56 ask for a redeal of hopeless submarine distributions: a deal where one hand holds every
card of one of the card's `redeal` sets is dealt again (`redeal_reason`).
"""

import numpy as np

from solver.core.cards import format_cards
from solver.core.deal import Deal
from solver.core.errors import InputError
from solver.missions.mission import Mission, drafted_cards


def task_cards(missions: dict[str, Mission], game: str) -> list[Mission]:
    """Return a game's numbered task cards in number order (not the second readings, which have names)."""
    cards = [m for m in missions.values() if m.kind == "task" and m.id.startswith(f"{game}/")]
    numbered = [m for m in cards if m.id.split("/", 1)[1].isdigit()]
    return sorted(numbered, key=lambda m: int(m.id.split("/", 1)[1]))


def draw_cards(total: int, players: int, deck: list[Mission], rng: np.random.Generator) -> Mission:
    """Return the drafted mission of the cards drawn from `deck` to difficulty `total` for `players`."""
    column = players - 3
    kept, left = [], total
    for index in rng.permutation(len(deck)):
        card = deck[int(index)]
        if card.difficulty[column] <= left and players in card.players:
            kept.append(card)
            left -= card.difficulty[column]
        if left == 0:
            return drafted_cards(kept)
    raise InputError(f"the task cards add up to less than a difficulty of {total} for {players} players")


def redeal_reason(mission: Mission, deal: Deal) -> str:
    """Return why `mission`'s cards have `deal` dealt again ("one hand holds r1 r2 r3 r4"), or ""."""
    for cards in mission.redeal:
        if any(hand & cards == cards for hand in deal.hands):
            return f"one hand holds {format_cards(cards)}"
    return ""
