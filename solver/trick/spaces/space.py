"""What a stage space is: the space as chosen (`Space`), and the unit holding its whole rule (`StageSpace`).

Each space is one `StageSpace`, in its own module of this package, found by name in `SPACES` (__init__.py).
The base class's methods change nothing in one deal; a space overrides those it changes:
- its texts: `effect` (its line in `crew spaces`) and `with_the_ghost` (its reading with two players);
- its options: `parse` (the ARGUMENT of NAME=ARGUMENT) and `argument` (its inverse, for `str(space)`);
- its chance, drawn with the deal from the deal's generator: `deal` (a space that deals its own way,
  fog) and `draw` (right after the deal: fog's arrivals, the jeep's shuffle);
- its rules of play: `play_rules`, a PlayRules (solver/trick/variants.py) per choice of the crew (the
  dog-sled driver), each a case of its own;
- the deals trick 1 may start from: `starting_deals` (the Vespa's swaps), each a case of its own;
- the tricks that fail the mission: `forbidden_tricks` (the machete's), which solver/missions/stage.py
  adds to a mission as trick counters (a mission is the layer above).
"""

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from solver.core.cards import COLOUR_CARDS, card_set, format_cards, parse_card_list
from solver.core.deal import Deal, random_deal
from solver.core.errors import InputError
from solver.trick.variants import PlayRules


class SpaceError(InputError):
    """An unknown stage space or a bad argument to one."""


@dataclass(frozen=True)
class Space:
    """A stage space as chosen: its name, and its options where it has them (the machete's and the bicycle's cards,
    fog's count)."""

    name: str = "train"
    machete: int = 0
    bicycle: int = 0
    fog_cards: int = 0

    def __str__(self) -> str:
        argument = self.unit.argument(self)
        return self.name if argument is None else f"{self.name}={argument}"

    @property
    def unit(self) -> "StageSpace":
        """Return the unit holding this space's rule."""
        # Imported here: the registry imports the units, which import this module.
        from solver.trick.spaces import SPACES

        return SPACES[self.name]

    @property
    def changes_play(self) -> bool:
        return self.unit.changes_play

    @property
    def trades_cards(self) -> bool:
        """Return True when a card may leave the hand it was dealt to but to be played."""
        return self.unit.trades_cards


TRAIN = Space()


@dataclass(frozen=True)
class Draws:
    """What a space draws with a deal, which the crew sees as it sees every hand."""

    arrivals: tuple[int, ...] = ()  # fog: per card, the trick after which it reaches its hand (0: dealt)
    jeep_order: tuple[int, ...] = ()  # the jeep: the seat taking each card of the middle, lowest card first


NO_DRAWS = Draws()


@dataclass(frozen=True)
class ForbiddenTrick:
    """A trick that fails the mission: one holding a card of `containing` whose values total `low` to `high`."""

    containing: int
    low: int
    high: int


def colour_cards_option(name: str, argument: str, default: int) -> int:
    """Return the colour cards a space's option names (NAME=CARDS: the machete's, the bicycle's), `default` for
    none; SpaceError for no card or a rocket."""
    cards = card_set(parse_card_list(argument)) if argument else default
    if not cards or cards & ~COLOUR_CARDS:
        raise SpaceError(f"{name} cards must be colour cards, got {argument!r}")
    return cards


def cards_argument(cards: int, default: int) -> str | None:
    """Return the ARGUMENT that names a space's option `cards`, None for its `default`."""
    return None if cards == default else format_cards(cards)


class StageSpace:
    """One stage space, whole; its methods' defaults change nothing in one deal, each space overrides its own."""

    name: str
    effect: str  # what it changes in one deal, as `crew spaces` says it
    with_the_ghost = ""  # what it does with the Ghost (two players), as `crew spaces` says it; "": no effect
    changes_play = True  # False only for the spaces without effect (no_effect.py)
    trades_cards = False  # a card may leave its hand but to be played (a score's bound: solver/engines/score.py)
    # What a player at the table knows or decides here beyond the train, which the hidden-information crew
    # (solver/engines/crew.py) does not model; "": it plays here as on the train. A new space is refused until it says.
    crew_refusal = "its rules, in what a player knows"
    swaps_before_play = False  # the Vespa: its cases are the swaps its holder may make; the crew makes one itself
    tiles_flicked = False  # the storm: a communication tile is flicked before it is used (the crew's Talk)

    def parse(self, argument: str) -> Space:
        """Return the space written NAME=`argument` (`argument` "": NAME alone)."""
        if argument:
            raise SpaceError(f"stage space {self.name} takes no argument, got {argument!r}")
        return Space(self.name)

    def argument(self, space: Space) -> str | None:
        """Return the ARGUMENT that names `space`'s options, None for the defaults (NAME alone)."""
        return None

    def deal(self, space: Space, players: int, rng: np.random.Generator) -> tuple[Deal, Draws]:
        """Deal for this space and draw its chance."""
        deal = random_deal(players, rng)
        return deal, self.draw(space, deal, rng, -1)

    def draw(self, space: Space, deal: Deal, rng: np.random.Generator, ghost: int) -> Draws:
        """Draw this space's chance for a given deal (`ghost`: the Ghost's seat, -1 without him)."""
        return NO_DRAWS

    def play_rules(self, space: Space, draws: Draws, deal: Deal, ghost: int) -> Iterator[tuple[str, PlayRules | None]]:
        """Yield (label, PlayRules) for every choice of the crew's that sets the rules of play (None: no rule
        of play, the mission's own stand)."""
        yield "", None

    def starting_deals(self, deal: Deal, display: tuple[int, ...]) -> Iterator[tuple[str, Deal, tuple[int, ...]]]:
        """Yield (label, deal, the Ghost's display) for every deal the crew may start trick 1 from."""
        yield "", deal, display

    def barred_communication(self, space: Space) -> int:
        """Return the cards whose holder may not communicate (the bicycle's)."""
        return 0

    def forbidden_tricks(self, space: Space) -> tuple[ForbiddenTrick, ...]:
        """Return the tricks that fail any mission played on `space`."""
        return ()
