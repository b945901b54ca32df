"""Rule variants of trick play: what a Journey stage space or the two-player Ghost changes.

`PlayRules` is part of a TaskMission; the reference solver uses the plain
functions below, the kernel its compiled twins. Stage spaces (each space's unit
in solver/trick/spaces/ sets the fields of its rule):
- skis: after a trick holding the blue 7, every hand passes whole to the left;
- hang glider: a card set aside for the last trick, changeable before every
  trick, is not in the hand for following suit, and the last trick is the
  set-aside cards (`hang_glider_plays`);
- dog sled: the chosen driver may open any trick instead of its leader;
- fog: each card comes to its holder's hand at a trick boundary drawn with the
  deal (`arrivals`);
- helicopter: after a trick holding a heli, every hand passes one card of the
  crew's choice to the left (`heli_passes`);
- jeep: after trick 3, every hand puts two cards of the crew's choice in the
  middle; the middle is shuffled and each takes two back (`jeep_exchanges`).
  The shuffle is chance, drawn with the deal as the seat taking each card of
  the middle in card order (`jeep_order`), and the crew sees it, as it sees
  every hand; ordering the middle by card (not by who put what in) makes the
  draw a fair shuffle of whichever cards the crew puts in.

A special stage with five players (solver/missions/special.py): after trick 3 the
discards (the tricks' cards not laid on the table) are shuffled and each
hand draws two (`redeal`); the shuffle is drawn with the deal the same way,
as the seat taking each discard in card order, -1 for the two left over.

Two players (Journey's Ghost, Planet Nine's JARVIS): a third seat whose cards
lie in a display of columns, a face-up card over a face-down one. Only
face-up cards exist for play and for following suit; a face-down card turns
up once the card over it has been played, after that trick
(`ghost_playable`). The difficult Ghost, after winning a trick, may lead only
the card below the one he won it with, or the face-up card of the nearest
column on either side, gaps skipped, the ends joined (`ghost_leads`).

The Ghost on a stage space (the rulebook's special rules, and our readings
where it has none): the skis pass the players' hands only, the Ghost's display
stays; with the helicopter and the jeep he passes face-up cards only, and each
card he gets takes the place of one he gave (the Scout chooses which, for the
jeep's two); the hang glider does not touch him (he sets no card aside and
follows suit with his face-up cards, the last trick too). His display is part
of the position: `display` is the one dealt, and the passes change it.

A position may fix some seats' passes and leave the others to the crew (`ANY_CARD` in
each of a seat's steps): the hidden-information crew weighs the cards one seat passes
while the others, whose choices it does not see, choose theirs as best (`pass_agrees`).
"""

import bisect
import itertools
from dataclasses import dataclass

from solver.core.cards import bit, card_set, format_cards, popcount, scan
from solver.core.deal import Deal, DealError, pass_cards
from solver.core.rules import legal_plays, num_tricks

ANY_CARD = -2  # a pass step a position leaves to the crew: the seat passes any card it may


@dataclass(frozen=True)
class PlayRules:
    """What a stage space or the two-player Ghost changes in the play of one deal, as every engine applies it."""

    skis: int = 0  # cards whose trick makes every hand pass whole to the left after it
    hang_glider: bool = False
    sled: int = -1  # the dog-sled driver, who may open any trick instead of its leader; -1: none
    arrivals: tuple[int, ...] = ()  # fog: per card, the trick boundary (after trick n) it reaches its hand; 0: dealt
    heli_pass: int = 0  # helicopter: after a trick holding one of these cards, each hand passes one card left
    jeep_after: int = 0  # jeep: after this trick each hand puts 2 cards in the middle and takes 2 back; 0: none
    jeep_order: tuple[int, ...] = ()  # jeep: the seat taking each card of the middle, lowest card first
    ghost: int = -1  # the Ghost's seat (two players); -1: none
    display: tuple[int, ...] = ()  # the Ghost's display: the face-up card of each column, then the face-down ones
    difficult: bool = False  # the difficult Ghost: after winning a trick he leads below or beside his card
    redeal_after: int = 0  # special stage, 5 players: after this trick the discards are redealt; 0: none
    redeal_order: tuple[int, ...] = ()  # the seat taking each discard, lowest first; -1: left out

    def arriving(self, deal: Deal, after: int) -> tuple[int, ...]:
        """Return the cards each seat draws right after trick `after` (0: the cards dealt)."""
        if not self.arrivals:
            return deal.hands if after == 0 else (0,) * deal.players
        return tuple(
            sum(bit(c) for c in scan(hand) if self.arrivals[c] == after) for hand in deal.hands
        )

    def check(self, deal: Deal) -> None:
        """Raise unless every hand holds a card to play at every trick (fog) and the jeep finds two."""
        if not self.arrivals and not self.jeep_after and not self.redeal_after:
            return  # every hand holds the tricks' cards from the start
        tricks = num_tricks(deal.hands)
        for seat, hand in enumerate(deal.hands):
            # When its cards arrive, in order: a crew sample under fog checks this on every solve (a tenth of a game
            # when it summed the hand anew for every trick).
            arrived = sorted(self.arrivals[c] if self.arrivals else 0 for c in scan(hand))
            for played in range(tricks):
                held = bisect.bisect_right(arrived, played) - played
                needed = 2 if self.jeep_after and played == self.jeep_after else 1
                if held < needed:
                    raise DealError(f"hand {seat} has {max(held, 0)} cards to play at trick {played + 1}")
        if self.jeep_after and sorted(self.jeep_order) != [seat for seat in range(deal.players) for _ in range(2)]:
            raise DealError("the jeep's shuffle must give every seat two cards")
        if self.redeal_after:
            discards = self.redeal_after * (deal.players - 1)  # one card of each trick lies on the table
            seats = sorted(seat for seat in self.redeal_order if seat >= 0)
            if len(self.redeal_order) != discards or seats != sorted(list(range(deal.players)) * self.redeal_draws()):
                raise DealError(f"the redeal's shuffle must give every seat as many of the {discards} discards")
            if tricks < self.redeal_after:
                raise DealError(f"the redeal follows trick {self.redeal_after}; the deal has {tricks} tricks")

    def redeal_draws(self) -> int:
        """Return how many cards each hand draws in the redeal (0: none)."""
        return self.redeal_order.count(0) if self.redeal_after else 0

    def passes_after(self, played: int, trick_cards: int, tricks: int) -> bool:
        """Return True when the crew passes cards (helicopter, jeep) after trick `played` holding `trick_cards`."""
        return played < tricks and (bool(trick_cards & self.heli_pass) or played == self.jeep_after)


NO_RULES = PlayRules()


def hang_glider_plays(hand: int, trick, last_trick: bool) -> int:
    """Return the cards a hand may play under the hang glider.

    Before every trick a player sets one card of their hand aside (the one they
    will play in the last trick); it does not count for following suit. So a card
    may be played when, with some other card set aside, it is a legal play; in
    the last trick each plays their set-aside card, whatever was led.
    """
    if last_trick:
        return hand
    plays = 0
    for aside in scan(hand):
        plays |= legal_plays(hand & ~bit(aside), trick) & ~bit(aside)
    return plays


def heli_passes(hands: tuple[int, ...], ghost: int = -1, display: tuple[int, ...] = ()):
    """Yield (cards given per seat, hands after, display after) for every way each seat passes one card
    to the left. The Ghost passes a face-up card, and the card he gets takes its place in his display."""
    choices = [list(scan(ghost_playable(hand, display) if seat == ghost else hand)) for seat, hand in enumerate(hands)]
    for given in itertools.product(*choices):
        yield (given, *heli_pass(hands, given, ghost, display))


def heli_pass(hands: tuple[int, ...], given: tuple[int, ...], ghost: int = -1, display: tuple[int, ...] = ()):
    """Return (hands after, display after) when each seat passes its card of `given` to the left."""
    after = ghost_receives(display, *ghost_exchange(given, len(hands), ghost, ())) if ghost >= 0 else display
    return pass_cards(hands, given), after


def jeep_exchanges(hands: tuple[int, ...], order: tuple[int, ...], ghost: int = -1, display: tuple[int, ...] = ()):
    """Yield (cards put in per seat, hands after, display after) for every way each seat puts 2 cards
    in the middle.

    The middle is shuffled: its cards, lowest first, go to the seats in `order` (drawn with the deal).
    The Ghost puts in two face-up cards, and the two he takes (lowest first) go to their places in the
    order he put them in: both orders are tried, as the Scout chooses the places. Another seat's two
    cards come higher first (`canonical_pass`).
    """
    pairs = [
        list(itertools.permutations(sorted(scan(ghost_playable(hand, display)), reverse=True), 2)) if seat == ghost
        else list(itertools.combinations(sorted(scan(hand), reverse=True), 2))
        for seat, hand in enumerate(hands)
    ]
    for put in itertools.product(*pairs):
        passed = tuple(c for pair in put for c in pair)
        yield (passed, *jeep_exchange(hands, passed, order, ghost, display))


def jeep_exchange(hands: tuple[int, ...], passed: tuple[int, ...], order: tuple[int, ...], ghost: int = -1,
                  display: tuple[int, ...] = ()):
    """Return (hands after, display after) when each seat puts its two cards of `passed` in the middle."""
    after = [hand & ~bit(passed[2 * seat]) & ~bit(passed[2 * seat + 1]) for seat, hand in enumerate(hands)]
    for c, seat in zip(sorted(passed), order):
        after[seat] |= bit(c)
    shown = ghost_receives(display, *ghost_exchange(passed, len(hands), ghost, order)) if ghost >= 0 else display
    return tuple(after), shown


def canonical_pass(passed: tuple[int, ...], jeep: bool, ghost: int = -1) -> tuple[int, ...]:
    """Return a pass as the searches write it: in the jeep each seat's two cards higher first, but the
    Ghost's, whose order places the cards he gets back; the helicopter's as it is."""
    if not jeep:
        return tuple(passed)
    pairs = [passed[i : i + 2] if i // 2 == ghost else tuple(sorted(passed[i : i + 2], reverse=True))
             for i in range(0, len(passed), 2)]
    return tuple(c for pair in pairs for c in pair)


def pass_error(hands: tuple[int, ...], passed: tuple[int, ...], jeep: bool, ghost: int = -1,
               display: tuple[int, ...] = ()) -> str:
    """Return why `passed` (seat by seat, a seat's steps maybe all ANY_CARD) is not a pass the hands can make, or
    "" when it is one."""
    each = 2 if jeep else 1
    if len(passed) != each * len(hands):
        return (f"each of the {len(hands)} seats passes {each} card{'s' if each > 1 else ''}: "
                f"{each * len(hands)} cards, not {len(passed)}")
    for seat, hand in enumerate(hands):
        steps = passed[seat * each : (seat + 1) * each]
        if ANY_CARD in steps:
            if set(steps) != {ANY_CARD}:
                return f"seat {seat} passes {each} cards: name both or leave both to the crew (?)"
            continue
        given = card_set(steps)
        if popcount(given) != each:
            return f"seat {seat} passes {format_cards(given)} twice"
        if given & ~hand:
            return f"seat {seat} does not hold {format_cards(given & ~hand)}"
        if seat == ghost and given & ~ghost_playable(hand, display):
            return f"the Ghost passes face-up cards only, not {format_cards(given & ~ghost_playable(hand, display))}"
    return ""


def pass_agrees(passed: tuple[int, ...], fixed: tuple[int, ...]) -> bool:
    """Return True when a full pass (seat by seat) makes every step a position fixes (`fixed`, ANY_CARD elsewhere)."""
    return all(f == ANY_CARD or f == c for c, f in zip(passed, fixed))


def jeep_draws(middle, order: tuple[int, ...], seat: int) -> tuple[int, ...]:
    """Return the cards of the jeep's `middle` that `seat` takes, lowest first, as `order` deals them."""
    return tuple(c for c, taker in zip(sorted(middle), order) if taker == seat)


def ghost_exchange(passed: tuple[int, ...], seats: int, ghost: int, jeep_order: tuple[int, ...]):
    """Return the cards the Ghost (seat `ghost`) gave in a pass and those he got for them, in the same
    order: each takes the place of the card beside it. `passed`: the cards given, seat by seat (the
    helicopter one a seat, the jeep two)."""
    each = len(passed) // seats
    given = passed[ghost * each : (ghost + 1) * each]
    if each == 1:  # helicopter: the card of the seat on his right
        return given, (passed[ghost - 1],)
    return given, jeep_draws(passed, jeep_order, ghost)


def ghost_receives(display: tuple[int, ...], given, received) -> tuple[int, ...]:
    """Return the display after the Ghost gives away `given` cards and `received` take their places, in order."""
    places = [display.index(out) for out in given]  # all found first: he may get a card he gave back
    after = list(display)
    for place, into in zip(places, received):
        after[place] = into
    return tuple(after)


def redeal(hands: tuple[int, ...], discards: int, order: tuple[int, ...]) -> tuple[int, ...]:
    """Return the hands after each discard, lowest first, goes to the seat `order` names (-1: none)."""
    after = list(hands)
    for c, seat in zip(scan(discards), order):
        if seat >= 0:
            after[seat] |= bit(c)
    return tuple(after)


def skis_rotation(hands: tuple[int, ...], ghost: int = -1) -> tuple[int, ...]:
    """Return the hands after every seat passes its whole hand to the left (the next seat); the
    Ghost's display stays where it is, and the hands skip him."""
    seats = [seat for seat in range(len(hands)) if seat != ghost]
    after = list(hands)
    for giver, taker in zip(seats, seats[1:] + seats[:1]):
        after[taker] = hands[giver]
    return tuple(after)


def ghost_playable(hand: int, display: tuple[int, ...]) -> int:
    """Return the Ghost's cards that lie face up: every card of `hand` but those still under another."""
    columns = len(display) // 2
    covered = 0
    for top, bottom in zip(display[:columns], display[columns:]):
        if hand & bit(top):
            covered |= bit(bottom)
    return hand & ~covered


def ghost_leads(hand: int, display: tuple[int, ...], won_with: int) -> int:
    """Return the cards the difficult Ghost may lead after winning a trick with `won_with`.

    The card below it, if it lay on one, and the face-up card of the nearest column with
    cards to its left and to its right (gaps skipped, the leftmost and rightmost adjacent).
    """
    columns = len(display) // 2
    column = display.index(won_with) % columns
    face_up = []
    for top, bottom in zip(display[:columns], display[columns:]):
        face_up.append(top if hand & bit(top) else bottom if hand & bit(bottom) else None)
    leads = 0
    if won_with == display[column] and face_up[column] is not None:
        leads |= bit(face_up[column])
    for step in (-1, 1):
        for distance in range(1, columns):
            neighbour = face_up[(column + step * distance) % columns]
            if neighbour is not None and (column + step * distance) % columns != column:
                leads |= bit(neighbour)
                break
    return leads
