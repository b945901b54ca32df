"""What a player knows in the two-player game: the Ghost's (JARVIS's) face-up cards, nothing of those face down.

Journey: "Lay 7 of them face down in a row next to each other. Lay the remaining 7 face up in a row on top of the
face-down cards"; "Face-down cards are treated as though they did not exist. After the trick, the Scout reveals
the face-down card underneath, if there is one". Planet Nine's JARVIS likewise. So both players see the display's
face-up cards, and a face-down card only once the card over it has been played; a face-down card is never a card
the game sets aside (Journey's 4-heli, Planet Nine's rockets). The Ghost plays only face-up cards: his not
following suit says nothing of his face-down ones.

A world is then the other player's hand and the card under each covered column. The cards under the covered
columns are a place of the existing counter and sampler (solver/missions/knowledge.py) whose size is the number
of those columns, holding no set-aside card and revealing no void; its cards go under the columns in a uniform
order, so that every world is equally likely (each set of them stands for as many orders). A column stays covered
until the trick its face-up card was played in is over ("After the trick, the Scout reveals").

On the helicopter both players see every card passed (docs/missions.md: "the Ghost passes a face-up card to seat 0
and the card seat 1 passes him lies where his lay"): his card and the one he gets lie face up, and the card
between the players is seen by its giver and its receiver. A covered face-down card never moves, so the columns
covered now are covered in the deal, and the hands as dealt follow from the hands now by taking back every play
and pass (crew.py, `undone`).
"""

import random
from dataclasses import dataclass, replace

from solver.core.cards import bit, popcount
from solver.core.deal import Deal
from solver.missions.knowledge import Knowledge, Placed
from solver.trick.ghost import GHOST_SEAT, SET_ASIDE
from solver.trick.variants import ghost_playable


@dataclass(frozen=True)
class GhostSeat:
    """Two players: the player who decides for the Ghost (JARVIS) and the cards his display never holds.

    Planet Nine: "The Commander chooses JARVIS's tasks and plays one of its face-up cards on its turns"; its rockets
    are set aside. Journey: "The Scout controls Ghost and makes all decisions for him" (the Scout: the player who is
    not the Guide); the 4-heli is set aside."""

    controller: int
    aside: int

    @staticmethod
    def of(game: str, deal: Deal) -> "GhostSeat":
        """Return the Ghost's seat of `game` ("planet-nine" or "journey") on a two-player `deal`."""
        if game == "planet-nine":
            return GhostSeat(deal.commander, SET_ASIDE[game])
        return GhostSeat(1 - deal.commander, SET_ASIDE["journey"])

    def decider(self, seat: int) -> int:
        """Return the player who decides for `seat`."""
        return self.controller if seat == GHOST_SEAT else seat


def covered_columns(hand: int, display: tuple[int, ...]) -> list[int]:
    """Return the columns whose face-down card is still covered: their face-up card is in the Ghost's `hand`."""
    columns = len(display) // 2
    return [column for column in range(columns) if hand >> display[column] & 1]


def knowledge_with_ghost(seat: int, hands, display: tuple[int, ...], tricks, communications, deck: int,
                         aside: int, commander: int = -1, last_trick: int = -1, seen=(), moves=(),
                         placed: Placed = Placed()) -> Knowledge:
    """Return what player `seat` knows with `hands` now (the Ghost's: his display's cards left), `display` now,
    `tricks`, `communications`, `commander`, `last_trick` (the hang glider's), `seen` (the skis: the other player's
    hand, which it held) and `moves` (the helicopter's passes: both players see every card passed, the Ghost's
    face up, the one between them by its giver and its receiver; the jeep's cards that changed hands) and `placed`
    (the Vespa's swap: what the other player got) as Knowledge.of takes them; `aside` the cards
    never in the display. The Ghost's place holds the covered face-down cards only: his face-up cards are known to
    lie with him."""
    ghost = hands[GHOST_SEAT]
    face_up = ghost_playable(ghost, display)
    sizes = tuple(popcount(hand) for hand in hands[:GHOST_SEAT]) + (popcount(ghost & ~face_up),)
    known = Knowledge.of(seat, hands[seat], sizes, tricks, communications, deck & ~face_up, seen, commander,
                         last_trick=last_trick, moves=moves, placed=placed)
    cannot = list(known.cannot)
    cannot[GHOST_SEAT] = aside & known.unseen  # no void: "face-down cards are treated as though they did not exist"
    caps = tuple(cap for cap in known.caps if cap[0] != 1 << GHOST_SEAT)  # the hang glider: he sets no card aside
    return replace(known, cannot=tuple(cannot), caps=caps)


def display_with(display: tuple[int, ...], ghost: int, hidden: int, rng: random.Random,
                 now: tuple[int, ...] | None = None) -> tuple[int, ...]:
    """Return the dealt `display` with the `hidden` cards (a sampled set) under its covered columns in a uniform
    order (`ghost`: the Ghost's hand now; `now`: his display now, default the dealt one: a card he got in a pass
    lies where his lay, and a covered face-down card never moves)."""
    columns = covered_columns(ghost, display if now is None else now)
    cards = [c for c in range(hidden.bit_length()) if hidden >> c & 1]
    rng.shuffle(cards)
    after = list(display)
    for column, c in zip(columns, cards, strict=True):
        after[len(display) // 2 + column] = c
    return tuple(after)


def dealt_ghost(display: tuple[int, ...]) -> int:
    """Return the Ghost's hand as dealt: every card of the display."""
    return sum(bit(c) for c in display)
