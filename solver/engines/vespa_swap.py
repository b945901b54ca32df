"""The Vespa's swap as the hidden-information crew makes it, and what each player knows after it.

"Whoever has the Vespa (blue 1) chooses, once, directly before the 1st trick and without discussion, another crew
member, and simultaneously and secretly exchanges any one card with them. The 4-heli may not be exchanged."

Our reading of what the table sees: the member chosen (so everyone knows who held the blue 1, and with whom it
swapped), not the two cards; the swap ends the setup, so every card shown is shown after it ("only once that setup
is complete and you are ready to begin the 1st trick may you use the communication tiles"). After the swap, until
the cards are played (`VespaSwap.placed`):

- the holder knows the card it gave lies with the member;
- the member knows the card it gave lies with the holder, and so does the blue 1 unless it was the card it got;
- every other player knows the blue 1 lies with one of the two.

Samples are drawn uniformly among the hands now that agree (Knowledge.of's `placed`): the cards swapped are choices,
not chance, so nothing weighs one swap above another. With three or more cards a hand (every deal of the game holds
eight or more), every such pair of hands comes from some swap of hands the holder held the blue 1 in. After mission
12's random pass what the swap told a player holds of the hands as dealt: of the cards each seat kept or gave in the
pass (pass_worlds.py, `placed`).

The decisions, each on samples of what its player knows before the swap, the mission judged without the swap's
stage rule (there is none once the swap is made):

- the holder weighs each offer (a member, clockwise from its left, and a card it may give, cheapest first:
  crew.cheapness) by the samples in which some card that member may give back keeps the mission winnable (the
  member's answer is unknown to it; the crew cooperates), and makes the best, ties to the first;
- the member, knowing it was chosen (so that the holder held the blue 1) but not the card, weighs each card it may
  give, cheapest first, by the samples in which some card the holder may give keeps the mission winnable.

Both race their options (crew.raced): the best option and its wins are those of solving every option.

With the Ghost (two players; the rulebook: "This applies to Ghost only if the Vespa card is face up in his display
before the 1st trick. If Ghost gives up a card, the received card is placed in the vacated spot"), his controller
decides for him, the holder or the member, from what it knows, and offers or answers only his face-up cards. Both
players then know every card of the swap: one between the two players is seen by both, and a card the Ghost gives
or gets is seen leaving or joining his display; the game goes on from the deal and display after it (`placed`:
what each player knows of the other's hand).
"""

import random
from dataclasses import dataclass, replace

from solver.core.cards import bit, scan
from solver.core.deal import Deal
from solver.core.solution import Limits
from solver.engines.crew import best_raced, cheapness, ghost_seat, raced, samples_before_play, winnable
from solver.missions.knowledge import Placed
from solver.trick.ghost import GHOST_SEAT
from solver.trick.spaces.vespa import VESPA_CARD, swap, swappable

ANY = -1  # some_swap_wins: any card of the hand


@dataclass(frozen=True)
class VespaSwap:
    """The swap the crew made: `holder` gave `given` to `partner` for `taken`; `offers` ((member, card) each) the
    holder weighed, with `offer_wins` ((wins, samples solved) each, crew.raced's), and `answers` (cards) the member
    weighed, with `answer_wins`."""

    holder: int
    partner: int
    given: int
    taken: int
    offers: tuple[tuple[int, int], ...]
    offer_wins: tuple[tuple[int, int], ...]
    answers: tuple[int, ...]
    answer_wins: tuple[tuple[int, int], ...]
    display: tuple[int, ...] = ()  # with the Ghost: his display after the swap (every card of it seen by both players)

    def placed(self, seat: int) -> Placed:
        """Return what `seat` knows of where the swap's cards lie (each until played)."""
        if self.display:  # two players: the other player holds what it got, and the blue 1 if it kept it
            other = 1 - seat
            got = {self.holder: bit(self.taken) | (bit(VESPA_CARD) if self.given != VESPA_CARD else 0),
                   self.partner: bit(self.given)}
            return Placed(held=((other, got[other]),)) if other in got else Placed()
        if seat == self.holder:
            return Placed(held=((self.partner, bit(self.given)),))
        if seat == self.partner:
            kept = bit(VESPA_CARD) if self.given != VESPA_CARD else 0
            return Placed(held=((self.holder, bit(self.taken) | kept),))
        return Placed(among=((1 << self.holder | 1 << self.partner, VESPA_CARD),))


def vespa_swap(deal: Deal, mission, samples: int, rng: random.Random, solve, limits: Limits, ghost=None
               ) -> tuple[Deal, object, VespaSwap | None]:
    """Return the deal after the crew's swap, `mission` with the Ghost's display after it, and the swap (VespaSwap);
    `deal`, `mission` and None when nobody rides the Vespa (nobody holds the blue 1, or it lies face down in the
    Ghost's display). `ghost`: two players, who decides for the Ghost (GhostSeat)."""
    display = mission.space.display
    holder = deal.holder(VESPA_CARD)
    if holder is None or display and holder == GHOST_SEAT and VESPA_CARD not in display[: len(display) // 2]:
        return deal, mission, None
    decider = ghost_seat(ghost).decider if display else (lambda seat: seat)
    members = [(holder + step) % deal.players for step in range(1, deal.players)]
    offers = [(member, card) for member in members for card in by_cheapness(swappable(deal, holder, display))]
    deals = samples_before_play(deal, decider(holder), samples, rng, mission, ghost)
    offered = raced(offers, samples, lambda offer, k: some_swap_wins(deals[k], holder, *offer, ANY, mission, solve,
                                                                     limits), race=True)
    partner, given = best_raced(offers, offered)
    answers = by_cheapness(swappable(deal, partner, display))
    # chosen: the holder held the blue 1 (face up in the Ghost's display, everyone saw it)
    placed = Placed(held=((holder, bit(VESPA_CARD)),)) if holder != GHOST_SEAT or not display else Placed()
    deals = samples_before_play(deal, decider(partner), samples, rng, mission, ghost, placed=placed)
    answered = raced(answers, samples, lambda back, k: some_swap_wins(deals[k], holder, partner, ANY, back, mission,
                                                                      solve, limits), race=True)
    taken = best_raced(answers, answered)
    _, after, shown = swap(deal, display, holder, given, partner, taken)
    made = VespaSwap(holder, partner, given, taken, tuple(offers), tuple(offered[o] for o in offers), tuple(answers),
                     tuple(answered[a] for a in answers), shown)
    if display:
        mission = replace(mission, space=replace(mission.space, display=shown))
    return after, mission, made


def by_cheapness(cards: int) -> list[int]:
    """Return `cards` cheapest first (crew.cheapness: what the crew gives away first)."""
    return sorted(scan(cards), key=cheapness)


def some_swap_wins(sample, holder: int, partner: int, given: int, taken: int, mission, solve, limits: Limits) -> bool:
    """Return whether `mission` is winnable on a sampled deal once `holder` gave `given` to `partner` for `taken`,
    for some card of the sample's hand each where it is ANY (cheapest first)."""
    gives = by_cheapness(swappable(sample.deal, holder, sample.display)) if given == ANY else [given]
    takes = by_cheapness(swappable(sample.deal, partner, sample.display)) if taken == ANY else [taken]
    return any(winnable(swapped(sample, holder, g, partner, t).solve(solve, mission, limits))
               for g in gives for t in takes)


def swapped(sample, holder: int, given: int, partner: int, taken: int):
    """Return `sample` after `holder` gave `given` to `partner` for `taken` (with the Ghost, his display too)."""
    _, deal, display = swap(sample.deal, sample.display, holder, given, partner, taken)
    return replace(sample, deal=deal, display=display)
