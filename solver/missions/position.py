"""A position in the middle of a game: the cards played so far, trick by trick, and the crew's choices.

Text notation: the tricks in play order, "|" between tricks, each trick's cards from its leader
("p1 p9 b2 r1 | g3 g5": trick 1 complete with four players, trick 2 begun). A full trick may be
followed by the crew's choices after it: `table` and the card of the trick laid on the table (a
special stage), `pass` and the cards passed, seat by seat from seat 0 (the helicopter: one card a
seat, to its left; the jeep: two a seat, into the middle), e.g. "g1 h1 g3 g4 pass b1 b2 b3 b4 | b9".
In the last trick a position may leave some seats' cards to the crew, `?` for each ("pass ? b2 ? ?": seat 1
passes the b2, the others what is best), where one seat weighs what it passes without seeing the others'.
JSON: a list of tricks, each a list of words (cards, `table`, `pass`) or a string.

The seats follow from the rules (the Commander leads trick 1, a trick's winner the next; the
dog-sled driver opens a trick by playing its first card), so a position names no seat. A position
is the deal and its mission with these plays (`Position.on`: `TaskMission.played` and `chosen`):
every engine plays them first, and the reference's `walk` checks them.

Chance is drawn with the deal from its seed (fog's draws, the jeep's shuffle, mission 12's pass),
and the crew's choices of a mission's setup (chosen players, token swaps, a Vespa swap) are the
cases a position is consistent with: the analysis keeps the cases in which every play was legal,
or only the one a `choice` names.
"""

import dataclasses
from dataclasses import dataclass

from solver.core.cards import format_card, parse_card_list
from solver.core.errors import InputError
from solver.trick.variants import ANY_CARD, canonical_pass

TRICK_MARK = "|"
TABLE_WORD = "table"
PASS_WORD = "pass"
ANY_WORD = "?"  # a card passed that the position leaves to the crew


class PositionError(InputError):
    """A position that cannot have happened: a card not in its player's hand, an illegal play, a play
    after the mission ended, a trick of the wrong size, a pass where none is made."""


@dataclass(frozen=True)
class TrickChoices:
    """The crew's choices after one full trick: the card laid on the table (a special stage; -1: none) and
    the cards passed, seat by seat from seat 0 (the helicopter one a seat, the jeep two; (): none; ANY_CARD: each
    card of a seat the position leaves to the crew, in its last trick only)."""

    tabled: int = -1
    passed: tuple[int, ...] = ()


NO_CHOICES = TrickChoices()


@dataclass(frozen=True)
class WrittenTrick:
    """One trick of a position as written: its cards from its leader, and the crew's choices after it."""

    cards: tuple[int, ...]
    choices: TrickChoices = NO_CHOICES


@dataclass(frozen=True)
class Position:
    """The plays so far in order from trick 1, and the crew's choices after each full trick among them
    (`chosen[t]` after trick t + 1; none past the last given: the engines choose those)."""

    plays: tuple[int, ...] = ()
    chosen: tuple[TrickChoices, ...] = ()

    @staticmethod
    def of(mission) -> "Position":
        """Return the position a mission (a TaskMission) holds."""
        return Position(mission.played, mission.chosen)

    def then(self, card: int) -> "Position":
        """Return this position with `card` played next."""
        return Position(self.plays + (card,), self.chosen)

    def choose(self, made: TrickChoices, trick: int) -> "Position":
        """Return this position with `made` the crew's choices after trick `trick` (1-based)."""
        chosen = self.chosen[: trick - 1] + (NO_CHOICES,) * (trick - 1 - len(self.chosen)) + (made,)
        return Position(self.plays, trimmed(chosen))

    def prefix(self, count: int, players: int) -> "Position":
        """Return the first `count` plays, with the choices after the full tricks among them."""
        return Position(self.plays[:count], trimmed(self.chosen[: count // players]))

    def on(self, mission):
        """Return `mission` (a TaskMission) holding this position: its plays and choices, each pass as the
        engines write it (`canonical_pass`)."""
        space = mission.space
        chosen = tuple(dataclasses.replace(c, passed=canonical_pass(c.passed, bool(space.jeep_after), space.ghost))
                       for c in self.chosen)
        return dataclasses.replace(mission, played=self.plays, chosen=chosen)


def trimmed(chosen) -> tuple[TrickChoices, ...]:
    """Return `chosen` without the tricks at its end that have no choice."""
    chosen = tuple(chosen)
    while chosen and chosen[-1] == NO_CHOICES:
        chosen = chosen[:-1]
    return chosen


def parse_trick(text: str, number: int) -> WrittenTrick:
    """Return trick `number` of a position written as its cards, then `table` and a card, `pass` and cards."""
    parts: dict[str, list[str]] = {"": []}
    part = ""
    for word in text.replace(",", " ").split():
        if word.lower() in (TABLE_WORD, PASS_WORD):
            part = word.lower()
            if part in parts:
                raise PositionError(f"trick {number} of the played cards names `{part}` twice")
            parts[part] = []
        else:
            parts[part].append(word)
    if not parts[""]:
        state = "is empty" if len(parts) == 1 else "has no card before its choices"
        raise PositionError(f"trick {number} of the played cards {state} (tricks are separated by {TRICK_MARK!r})")
    cards = tuple(parse_card_list(" ".join(parts[""])))
    tabled = parts.get(TABLE_WORD)
    if tabled is not None and len(tabled) != 1:
        raise PositionError(f"trick {number}: `{TABLE_WORD}` is followed by the one card laid on the table")
    passed = parts.get(PASS_WORD)
    if passed is not None and not passed:
        raise PositionError(f"trick {number}: `{PASS_WORD}` is followed by the cards passed, seat by seat")
    return WrittenTrick(cards, TrickChoices(parse_card_list(tabled[0])[0] if tabled else -1,
                                            tuple(c for word in passed for c in passed_cards(word)) if passed else ()))


def passed_cards(word: str) -> list[int]:
    """Return the cards of one word after `pass`: `?` leaves a card to the crew (ANY_CARD)."""
    return [ANY_CARD] if word == ANY_WORD else parse_card_list(word)


def parse_played(text: str) -> tuple[WrittenTrick, ...]:
    """Return the tricks of a position written in the text notation, "|" between tricks."""
    if not text.strip():
        return ()
    return tuple(parse_trick(part, number) for number, part in enumerate(text.split(TRICK_MARK), 1))


def played_from_json(value) -> tuple[WrittenTrick, ...]:
    """Return the tricks of a position given in JSON: a list of tricks, each a list of words (or a string)."""
    if isinstance(value, str):
        return parse_played(value)
    if not isinstance(value, list) or not all(isinstance(trick, (list, str)) for trick in value):
        raise PositionError("played is a list of tricks, each a list of cards, e.g. [[\"p1\", \"p9\"], [\"g3\"]]")
    return tuple(parse_trick(trick if isinstance(trick, str) else " ".join(map(str, trick)), number)
                 for number, trick in enumerate(value, 1))


def position_of(tricks, players: int) -> Position:
    """Return the position of written tricks, checking that every trick but the last holds one card a seat
    and that choices follow full tricks only."""
    for number, trick in enumerate(tricks, 1):
        if len(trick.cards) > players or number < len(tricks) and len(trick.cards) < players:
            raise PositionError(f"trick {number} of the played cards has {len(trick.cards)} cards; "
                                f"{players} seats play {players} cards a trick")
        if trick.choices != NO_CHOICES and len(trick.cards) < players:
            raise PositionError(f"trick {number} is not complete: a table card or a pass follows a full trick")
    plays = tuple(c for trick in tricks for c in trick.cards)
    return Position(plays, trimmed(trick.choices for trick in tricks[: len(plays) // players]))


def format_played(position: Position, players: int) -> str:
    """Return a position in the text notation, "|" after every full trick, each followed by its choices."""
    plays = position.plays
    tricks = []
    for t, start in enumerate(range(0, len(plays), players)):
        words = [format_card(c) for c in plays[start : start + players]]
        choices = position.chosen[t] if t < len(position.chosen) else NO_CHOICES
        if choices.tabled >= 0:
            words += [TABLE_WORD, format_card(choices.tabled)]
        if choices.passed:
            words += [PASS_WORD, *(ANY_WORD if c == ANY_CARD else format_card(c) for c in choices.passed)]
        tricks.append(" ".join(words))
    return f" {TRICK_MARK} ".join(tricks)
