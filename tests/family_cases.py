"""Random small Family Adventure cases for the agreement tests: a seeded deal and a random mission.

Missions are small (2-5 cards, 0-2 hammocks, 1-4 objectives) so the plain DFS refutes a loss
quickly; objectives of every kind are drawn, each on fresh cards, so the
mission is consistent.
"""

import numpy as np

from solver.core.deal import deal_rng
from solver.family.cards import CARD_COUNT, bit
from solver.family.deal import FamilyDeal, random_family_deal
from solver.family.mission import ROW_RULES, CardCount, FamilyMission

KINDS = ("row", "anywhere", "forbid", "order", "rule", "position", "count")


def random_mission(rng: np.random.Generator, index: int) -> FamilyMission:
    """Return a random small mission with one to four objectives of random kinds."""
    row_length = 3 if rng.random() < 0.2 else 4
    cards = int(rng.integers(2, 6))
    rows = -(-cards // row_length)
    hammocks = int(rng.integers(0, 3))
    fields = {"in_row": [0, 0, 0], "anywhere": 0, "forbidden": 0, "order": (), "row_rules": [None, None, None],
              "positions": (), "counts": ()}
    fresh = iter(int(c) for c in rng.permutation(CARD_COUNT))
    for kind in rng.choice(KINDS, size=int(rng.integers(1, 5))):
        if kind == "row":
            row = int(rng.integers(rows))
            if fields["in_row"][row].bit_count() < min(row_length, cards - row * row_length):
                fields["in_row"][row] |= bit(next(fresh))
        elif kind == "anywhere":
            fields["anywhere"] |= bit(next(fresh))
        elif kind == "forbid":
            fields["forbidden"] |= bit(next(fresh))
        elif kind == "order" and not fields["order"]:
            fields["order"] = (next(fresh), next(fresh))
        elif kind == "rule":
            fields["row_rules"][int(rng.integers(rows))] = ROW_RULES[int(rng.integers(2))]
        elif kind == "position" and not fields["positions"]:
            fields["positions"] = ((int(rng.integers(1, cards + 1)), next(fresh)),)
        elif kind == "count":
            chosen = sum(bit(next(fresh)) for _ in range(3))
            at_least = int(rng.integers(0, 2))
            at_most = None if rng.random() < 0.5 else at_least + int(rng.integers(0, 2))
            count_rows = (int(rng.integers(rows)),) if rng.random() < 0.3 else ()
            fields["counts"] = (CardCount(chosen, count_rows, at_least, at_most),)
    required = sum(fields["in_row"]) | fields["anywhere"] | sum(bit(c) for c in fields["order"])
    required |= sum(bit(c) for _, c in fields["positions"])
    if required.bit_count() > cards:  # too many for the positions: keep the row cards and the order only
        fields["anywhere"], fields["positions"] = 0, ()
    return FamilyMission(
        f"family/random-{index}", cards, row_length=row_length, hammocks=(hammocks,) * 3,
        specials=bool(rng.random() < 0.75), in_row=tuple(fields["in_row"]), anywhere=fields["anywhere"],
        order=fields["order"], forbidden=fields["forbidden"], row_rules=tuple(fields["row_rules"]),
        positions=fields["positions"], counts=fields["counts"],
    )


def random_case(seed: int, index: int) -> tuple[FamilyDeal, FamilyMission]:
    """Return case `index` of a seeded series: 2-5 players, a random deal and a random small mission."""
    rng = deal_rng(seed, index)
    deal = random_family_deal(int(rng.integers(2, 6)), rng)
    return deal, random_mission(rng, index)
