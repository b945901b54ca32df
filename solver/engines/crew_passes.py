"""The crew's passes between tricks, each seat choosing its cards unseen by the others: the jeep's exchange and the
helicopter's passes.

"Jeep. After the 3rd trick, each crew member places 2 cards face down in the middle of the table. Shuffle these
cards and each take 2 of them back. Communicated cards may not be taken this way." "Helicopter. ... If at least 1
heli is in the trick, each crew member passes 1 card to the left, simultaneously and face down, after the trick. A
communicated card may only be passed on by a player who has nothing but communicated cards left."

Every seat chooses at once, face down, without seeing the others' choices (our reading of "each crew member places"
and "simultaneously and face down"): on samples of what it knows before the pass, each on the jeep with a shuffle
of its own (chance still to come), it weighs each choice it may make (a pair on the jeep, a card on the
helicopter; not a card it has shown and still holds, unless on the helicopter it holds nothing else), by the
samples in which the mission stays winnable once it passes that choice while the others pass theirs as best (a
position that fixes its cards and leaves theirs to the crew: variants.ANY_CARD), and passes the best. The choices
are weighed cheapest first (the dearer card of each by crew.cheapness, then the other), ties to the first, and
raced (crew.raced): the best choice and its wins are those of solving every one. The others' choices in a sample
may pass a card they have shown: the engines do not model communicated cards, so a choice's share is at most
optimistic there. On a special mission a choice is weighed by the samples' best scores after it instead. What
each seat knows after the pass: solver/missions/jeep_worlds.py and heli_worlds.py.
"""

import itertools
import random
from dataclasses import dataclass, replace

from solver.core.cards import scan
from solver.core.deal import Deal
from solver.core.solution import Limits
from solver.engines.crew import best_raced, best_score, cheapness, decision_deals, raced, winnable
from solver.engines.reference import walk
from solver.missions.position import Position, TrickChoices
from solver.trick.variants import ANY_CARD, ghost_playable


@dataclass(frozen=True)
class PassChoice:
    """The cards `seat` passed (the jeep's pair higher first), the `options` it weighed, in order, and their `wins`
    ((wins, samples solved) each, crew.raced's; on a special mission the wins are the samples' best scores summed)."""

    seat: int
    cards: tuple[int, ...]
    options: tuple[tuple[int, ...], ...]
    wins: tuple[tuple[int, int], ...]

    @property
    def chosen_wins(self) -> tuple[int, int]:
        return self.wins[self.options.index(self.cards)]


@dataclass(frozen=True)
class PassMade:
    """The crew's pass after trick `after` (1-based): every seat's choice, seat by seat."""

    after: int
    choices: tuple[PassChoice, ...]
    placed: PassChoice | None = None  # the jeep with the Ghost: his pair in the order its controller placed the two
    # cards he took (`place_ghost_draws`)

    def made(self) -> TrickChoices:
        """Return the crew's choices after the pass's trick: every seat's cards, seat by seat (the Ghost's pair in
        the order placed)."""
        choices = [self.placed if self.placed is not None and c.seat == self.placed.seat else c for c in self.choices]
        return TrickChoices(passed=tuple(c for choice in choices for c in choice.cards))


def crew_pass(deal: Deal, mission, walked, position: Position, shown, samples: int, rng: random.Random, solve,
              limits: Limits, scoring=None, ghost=None) -> PassMade:
    """Return every seat's choice of the cards it passes at a walked position of `deal` that stops at a pass (the
    jeep's exchange or a helicopter's pass; `position` on `mission`; `shown` the cards communicated so far). On a
    special mission (`scoring`, realistic.Scoring) a choice is weighed by the best score each sample still allows
    after it (crew.best_score), as a card to play is (crew.score_shares). With the Ghost (`ghost`, a GhostSeat) his
    controller chooses his card among his face-up ones, from its own samples."""
    trick = len(walked.tricks)
    each = 2 if trick == mission.space.jeep_after else 1
    choices = []
    for seat in range(deal.players):
        hand = walked.hands[seat]
        if seat == mission.space.ghost:
            hand = ghost_playable(hand, walked.display)
        options = pass_options(hand, sum(1 << c.card for c in shown if c.seat == seat), each)
        deals = decision_deals(deal, mission, walked, position.plays, shown, samples, rng, ghost, seat=seat)
        moved = {cards: position.choose(TrickChoices(passed=own_cards(cards, seat, deal.players)), trick)
                 for cards in options}
        choices.append(weighed_choice(seat, options, moved, deals, mission, scoring, solve, limits))
    return PassMade(trick, tuple(choices))


def place_ghost_draws(deal: Deal, mission, made: PassMade, position: Position, shown, samples: int,
                      rng: random.Random, solve, limits: Limits, ghost, scoring=None) -> PassMade:
    """Return the jeep's exchange `made` (`position` before it) with the two cards the Ghost took placed by his
    controller: "he puts two face-up cards in; the two he draws lie in their places, as the Scout chooses"
    (jeep.py; the engines place the lower card he took where the first card of his pair lay). Having seen the
    cards taken, the controller weighs both orders of his pair on its samples after the exchange, as a pass is
    weighed (ties to the pair as put in, higher first): which card covers which face-down card, and for the
    difficult Ghost which lies beside which."""
    pair = made.choices[mission.space.ghost].cards
    options = [pair, pair[::-1]]
    moved = {cards: position.choose(replace(made, placed=PassChoice(mission.space.ghost, cards, (), ())).made(),
                                    made.after) for cards in options}
    walked = walk(deal, moved[pair].on(mission), to_the_end=scoring is not None)
    deals = decision_deals(deal, mission, walked, position.plays, shown, samples, rng, ghost, seat=mission.space.ghost)
    return replace(made, placed=weighed_choice(mission.space.ghost, options, moved, deals, mission, scoring, solve,
                                               limits))


def weighed_choice(seat: int, options, moved, deals, mission, scoring, solve, limits: Limits) -> PassChoice:
    """Return `seat`'s choice among `options` (`moved`: each one's position) by its samples `deals`, raced: the
    samples in which the mission stays winnable after it, or on a special mission (`scoring`) their best scores."""
    if scoring is None:
        wins = raced(options, len(deals), lambda cards, k: winnable(deals[k].solve(solve, moved[cards].on(mission),
                                                                                    limits)), race=True)
    else:
        wins = scored_options(options, moved, deals, scoring, solve, limits)
    return PassChoice(seat, best_raced(options, wins), tuple(options), tuple(wins[cards] for cards in options))


def scored_options(options, moved, deals, scoring, solve, limits: Limits) -> dict:
    """Return option -> (the total of the samples' best scores after it, samples solved), raced (crew.raced): `moved`
    each option's position, `scoring` the special mission's missions a number of events, bound and deduction."""
    most = [scoring.most_for(sample.deal) for sample in deals]

    def reachable(cards, k: int, events: int) -> bool:
        return any(winnable(deals[k].solve(solve, moved[cards].on(m), limits)) for m in scoring.missions_for(events))

    return raced(options, len(deals),
                 lambda cards, k: best_score(lambda events: reachable(cards, k, events), scoring.deduction, most[k]),
                 race=True, most=max(0, max(most) - scoring.deduction))


def pass_options(hand: int, showing: int, each: int) -> list[tuple[int, ...]]:
    """Return the choices of `each` cards of `hand` a seat may pass, cheapest first: not the cards it is `showing`
    (the helicopter's "nothing but communicated cards left": then those)."""
    free = hand & ~showing if each == 2 or hand & ~showing else hand
    return sorted(itertools.combinations(sorted(scan(free), reverse=True), each),
                  key=lambda cards: sorted(map(cheapness, cards), reverse=True))


def own_cards(cards: tuple[int, ...], seat: int, players: int) -> tuple[int, ...]:
    """Return the pass with `seat`'s cards and every other seat's left to the crew."""
    each = len(cards)
    return (ANY_CARD,) * (each * seat) + tuple(cards) + (ANY_CARD,) * (each * (players - seat - 1))
