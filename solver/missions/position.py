"""A position in the middle of a game: the cards played so far, trick by trick.

Text notation: the tricks in play order, "|" between tricks, each trick's cards from its leader
("p1 p9 b2 r1 | g3 g5": trick 1 complete with four players, trick 2 begun). JSON: a list of
tricks, each a list of cards. The seats follow from the rules (the Commander leads trick 1, a
trick's winner the next; the dog-sled driver opens a trick by playing its first card), so a
position names no seat. A position is the deal and its mission with these plays: every engine
plays them first (`TaskMission.played`), and the reference's `walk` checks them.

Chance is drawn with the deal from its seed (fog's draws, the jeep's shuffle, mission 12's pass),
and the crew's choices of a mission's setup (chosen players, token swaps, a Vespa swap) are the
cases a position is consistent with: the analysis keeps the cases in which every play was legal,
or only the one a `choice` names.
"""

from solver.core.cards import format_card, parse_card_list
from solver.core.errors import InputError

TRICK_MARK = "|"


class PositionError(InputError):
    """A position that cannot have happened: a card not in its player's hand, an illegal play, a play
    after the mission ended, a trick of the wrong size."""


def parse_played(text: str) -> tuple[tuple[int, ...], ...]:
    """Return the tricks of a position written as cards in play order, "|" between tricks."""
    if not text.strip():
        return ()
    tricks = tuple(tuple(parse_card_list(part)) for part in text.split(TRICK_MARK))
    for number, trick in enumerate(tricks, 1):
        if not trick:
            raise PositionError(f"trick {number} of the played cards is empty (tricks are separated by {TRICK_MARK!r})")
    return tricks


def played_from_json(value) -> tuple[tuple[int, ...], ...]:
    """Return the tricks of a position given in JSON: a list of tricks, each a list of cards (or a string)."""
    if isinstance(value, str):
        return parse_played(value)
    if not isinstance(value, list) or not all(isinstance(trick, (list, str)) for trick in value):
        raise PositionError("played is a list of tricks, each a list of cards, e.g. [[\"p1\", \"p9\"], [\"g3\"]]")
    return tuple(tuple(parse_card_list(trick if isinstance(trick, str) else " ".join(map(str, trick))))
                 for trick in value)


def flat_plays(tricks, players: int) -> tuple[int, ...]:
    """Return a position's plays in order, checking that every trick but the last holds one card a seat."""
    for number, trick in enumerate(tricks, 1):
        if len(trick) > players or number < len(tricks) and len(trick) < players:
            raise PositionError(f"trick {number} of the played cards has {len(trick)} cards; "
                                f"{players} seats play {players} cards a trick")
    return tuple(c for trick in tricks for c in trick)


def format_played(plays, players: int) -> str:
    """Return plays in the text notation, "|" after every full trick."""
    tricks = [plays[i : i + players] for i in range(0, len(plays), players)]
    return f" {TRICK_MARK} ".join(" ".join(format_card(c) for c in trick) for trick in tricks)
