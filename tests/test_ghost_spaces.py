"""The Ghost on Journey's stage spaces, by hand: the rulebook's special rules and our readings.

The readings are in docs/missions.md ("Two players") and the spaces' modules (solver/trick/spaces/).
Deals are written `HAND | HAND | FACE-UP / FACE-DOWN` as in tests/test_ghost.py: seat 2 is the Ghost,
column k's face-up card over its face-down card. Seats play 0, 1, Ghost; without r4 seat 0 leads
trick 1. A task card must be won by its owner. Each deal is solved by the reference solver and the
kernel (they must agree, and a WIN replays by hand, display changes included: tests/conftest.py)
three ways: the display's cards as an ordinary third hand on the space, the Ghost on the train, and
the Ghost on the space. Which of them the case is about is said in its comment.
"""

from dataclasses import dataclass

import pytest
from conftest import solve_on_stage

from solver.core.cards import bit, format_card, parse_card_list
from solver.core.solution import Outcome
from solver.engines import reference
from solver.engines.kernel import KernelSolver
from solver.missions.setup import Setup
from solver.missions.stage import Stage
from solver.missions.tasks import make_task_mission
from solver.trick.ghost import GHOST_SEAT, parse_ghost_deal
from solver.trick.spaces import parse_space
from solver.trick.spaces.vespa import VESPA
from solver.trick.variants import ghost_receives, heli_passes, jeep_exchanges, skis_rotation

W, L = Outcome.WIN, Outcome.LOSS
KERNEL = KernelSolver(tt_bits=16)
ENGINES = {"reference": reference.solve, "kernel": KERNEL.solve}


def cards(text: str) -> int:
    return sum(bit(c) for c in parse_card_list(text))


@dataclass(frozen=True)
class Case:
    deal: str  # HAND | HAND | FACE-UP / FACE-DOWN
    tasks: str
    owners: tuple[int, ...]
    space: str
    ordinary: Outcome  # the display's cards as an ordinary third hand, on the space
    train: Outcome  # the Ghost on the train
    ghost: Outcome  # the Ghost on the space
    name: str
    jeep_order: tuple[int, ...] = ()  # the jeep's shuffle: the seat taking each card of the middle, lowest first

    @property
    def id(self) -> str:
        return f"{self.space}-{self.name}-{self.ghost.value}"


CASES = [
    # --- skis: the players' hands change places, the Ghost's display stays -----------------------
    # g9 to seat 1. Columns b2/g1, g9/p1. Ghost on the train: seat 0's b7 y8 y9 beat everything
    # seat 1 and the Ghost can play (the Ghost holds no yellow, his only blue b2 is below b7, and
    # greens are led only by him, who never wins a trick), so seat 0 wins every trick. Skis: seat 0
    # leads b7 (b1, b2 follow) and wins; the skis swap the players' hands, seat 0 now holding y1 y2
    # and seat 1 y8 y9; seat 0 leads a yellow, seat 1 wins it with y8 and the Ghost, void in yellow,
    # discards g9 on it. The three hands on skis: seat 0 gets the third hand g9 g1 p1 and leads
    # from it to the end (nobody else holds green or pink), so g9 stays with seat 0.
    Case("b7 y8 y9 | b1 y1 y2 | b2 g9 / g1 p1", "g9", (1,), "skis", L, L, W, "display-stays"),
    # b9 to seat 1. Columns r3/b9, y2/p9. Seat 1 can win b9 (the top blue, face down under r3) only
    # with g5 on a green lead while the Ghost, void in green, discards it face up: r3 must be gone.
    # Seat 0 leads trick 1; r3 falls in it only as the Ghost's ruff (he holds no green or pink
    # face up), which wins it and the lead, and he never leads green: so the green lead is seat 0's
    # g1 in trick 3, and seat 0 must win trick 2. Train: trick 1 p5 p1 r3; the Ghost leads y2 and
    # seat 0 wins it with y9 while seat 1 discards b7; trick 3 g1 g5 b9. Skis: b7 is the skis, so
    # after trick 2 the players swap hands: seat 0 gets g5, seat 1 g1, and seat 0 wins g5 over g1;
    # discarding g5 in trick 2 instead leaves seat 1 no green. The three hands on skis win with the
    # third hand's cards free (b9 is no longer under r3).
    Case("p5 y9 g1 | g5 b7 p1 | r3 y2 / b9 p9", "b9", (1,), "skis", W, W, L, "players-swap"),
    # --- helicopter: the Ghost passes face-up cards; the card he gets lies where his lay ------------
    # y1 to the Ghost. Columns g9/g1, g2/y1. Train: the Ghost holds low greens and y1 and nobody
    # else a green, so he wins no trick, and y1 lies under g2. Helicopter: trick 1 seat 0 leads b2,
    # seat 1 b1, the Ghost discards g9 (g1 turns up); trick 2 seat 0 leads y9, seat 1 ruffs with r3
    # and the Ghost discards g2 (y1 turns up); the heli makes everyone pass a card to the left:
    # seat 0 p1 to seat 1, seat 1 p9 to the Ghost (p9 lies where y1 lay), the Ghost y1 to seat 0;
    # trick 3 seat 1 leads p1, the Ghost p9 and seat 0 y1: the Ghost wins y1. The three hands: the
    # third hand must follow y9 with y1 (not hidden), which loses it to r3, and holds nothing else
    # that wins a trick.
    Case("p1 y9 b2 | p9 r3 b1 | g9 g2 / g1 y1", "y1", (2,), "helicopter", L, L, W, "ghost-wins-y1"),
    # g2 to seat 1. Columns g1/b1, g9/r1. Seat 1 (p2 g2 y1) wins a trick only with g2 on the Ghost's
    # g1 lead (seat 0 holds p9 and y9 over seat 1's p2 and y1, nobody else leads green, and g9 is
    # the Ghost's); the Ghost wins the lead only by ruffing with r1, face up once g9 is played, so
    # in trick 2 at the earliest. Train: trick 1 p9 p2 g9, trick 2 b7 y1 r1, trick 3 g1 y9 g2.
    # Helicopter: r1 in trick 2 makes everyone pass a card: seat 1's last card, g2, goes to the
    # Ghost. The three hands: the third hand ruffs trick 1 with r1 (face up); in the pass seat 0
    # gives b7 to seat 1 and seat 1 g2 to the third hand; seat 1 wins the third hand's b1 lead with
    # b7 and leads y1, on which the third hand discards g2.
    Case("b7 p9 y9 | p2 g2 y1 | g1 g9 / b1 r1", "g2", (1,), "helicopter", W, W, L, "pass-takes-g2"),
    # --- Vespa: the Ghost rides only with the blue 1 face up -----------------------------------
    # p1 to seat 1. Columns p1/y5, b1/y2. Train: seat 1 (g2 g9 y9) wins a trick only when it leads
    # or on a yellow or green lead, which nobody else makes: the Ghost never wins a trick (p1 and b1
    # are the lowest, y5 and y2 below y9) and seat 0 holds no yellow or green. Vespa: the Ghost holds
    # b1 face up and gives p1 to seat 0 for b9, which lies on y5: trick 1 p2 g9 b1 (seat 0), trick 2
    # b5 g2 b9 (the Ghost), trick 3 the Ghost leads y2 (up since trick 1), seat 0 discards p1 and
    # seat 1 wins it with y9. The three hands on the Vespa swap freely too.
    Case("p2 b9 b5 | g2 g9 y9 | p1 b1 / y5 y2", "p1", (1,), "vespa", W, L, W, "b1-face-up"),
    # The same cards with b1 face down under p1: the Vespa does not apply to the Ghost, as on the
    # train; the three hands swap as above.
    Case("p2 b9 b5 | g2 g9 y9 | p1 y5 / b1 y2", "p1", (1,), "vespa", W, L, L, "b1-face-down"),
    # --- hang glider: it leaves the Ghost alone ------------------------------------------------
    # One trick, the last: under the hang glider everyone plays their set-aside card, whatever was
    # led; the Ghost sets none aside and follows p1 with p9 (y1 lies under it), winning seat 0's
    # p1. The three hands: the third hand plays y1 and seat 0 wins p1.
    Case("p1 | b1 | p9 / y1", "p1", (0,), "hang-glider", W, L, L, "ghost-follows"),
    # y2 to seat 0. Columns b7/g1, g9/y5. Train: seat 1 must play y9 on every yellow lead, and can
    # discard it only on seat 0's g2 lead, which the Ghost's g9 (face up) wins; he then wins the
    # rest, y5 over seat 0's yellow, b7 or g1 over its discard. Hang glider: seat 1 sets y9 aside
    # (its only yellow), so trick 1 is y1 p1 b7 (seat 0), trick 2 g2 y9 g1 (the Ghost, holding two
    # greens face up, must follow), and in the last trick seat 0's y2 wins over b1 and g9.
    Case("y1 y2 g2 | p1 b1 y9 | b7 g9 / g1 y5", "y2", (0,), "hang-glider", W, L, W, "players-glide"),
    # --- dog sled: a player drives -------------------------------------------------------------
    # One trick; y9 to the Ghost, who wins it only by leading it; seat 0 leads. The three hands:
    # seat 2 drives and opens with y9. The Ghost decides nothing, so a player drives: LOSS.
    Case("b1 | p1 | y9 / y1", "y9", (2,), "dog-sled", W, L, L, "ghost-cannot-drive"),
    # y9 to seat 1. Columns b7/y9, b9/r1. Seat 1 (y5 y2 g1) can win only tricks it leads: seat 0
    # holds no yellow and g9 over g1, nobody else leads green, and seat 1 holds no trump. Train:
    # seat 1 never leads. Dog sled, seat 1 driving: trick 1 r2 y5 b9 (seat 0; the Ghost's r1 is
    # still under b9); seat 1 opens trick 2 with y2, the Ghost discards b7 (y9 lies under it) and
    # seat 0 g9; seat 1 opens trick 3 with g1 and the Ghost, void in green, discards y9. The three
    # hands: the third hand must follow any yellow lead with y9 and win it, and seat 0 can shed g9
    # (so that seat 1's g1 wins) only on a yellow lead, which brings y9 out.
    Case("b2 r2 g9 | y5 y2 g1 | b7 b9 / y9 r1", "y9", (1,), "dog-sled", L, L, W, "seat-1-opens"),
    # --- jeep: the Ghost puts two face-up cards in the middle; what he draws lies in their places ---
    # p9 to seat 0; the shuffle sends the middle's cards, lowest first, to seats 0 2 0 1 1 2. Columns
    # y5/y2, g2/p2, b7/r1. Seat 1 holds p9, the top pink, and gives it up only to a trump; the jeep
    # moves it. Trick 1 r3 r2 b7 (seat 0; r1 was under b7), trick 2 b9 b5 r1 (the Ghost ruffs), trick
    # 3 the Ghost leads y5, seat 0 discards p1, seat 1 y1. The jeep: seat 0 puts p8 p5, seat 1 g9 p9,
    # the Ghost y2 g2 (face up); the middle p5 p8 p9 g2 g9 y2 gives seat 0 p5 and p9, the Ghost p8
    # (in y2's place) and y2 (in g2's place, on p2). Trick 4 the Ghost leads p8 and seat 0 wins it
    # with p9. On the train and with three hands no line wins (both engines search them all): seat 1
    # plays p9 on a pink lead, which p9 wins unless seat 0, void in pink, ruffs it, or as a discard.
    Case("b9 r3 p5 p8 p1 | r2 g9 y1 b5 p9 | y5 g2 b7 / y2 p2 r1", "p9", (0,), "jeep", L, L, W, "p9-through-the-middle",
         jeep_order=(0, 2, 0, 1, 1, 2)),
]


def outcomes(case: Case) -> dict:
    deal, display = parse_ghost_deal(case.deal)
    setups = [Setup("", make_task_mission(deal, parse_card_list(case.tasks), owners=list(case.owners)))]
    space = parse_space(case.space)
    stages = {
        "ordinary": Stage(space, jeep_order=case.jeep_order),
        "train": Stage(display=display),
        "ghost": Stage(space, display=display, jeep_order=case.jeep_order),
    }
    return {name: solve_on_stage(deal, setups, stage, ENGINES)["reference"].outcome for name, stage in stages.items()}


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_ghost_on_a_space(case):
    assert outcomes(case) == {"ordinary": case.ordinary, "train": case.train, "ghost": case.ghost}


# --- the rules' plain functions by hand ------------------------------------------------------------
# Display of the examples: columns p1/p2, b1/b2 (face up p1 and b1); the Ghost is seat 2.
DISPLAY = tuple(parse_card_list("p1 b1 p2 b2"))


def test_skis_skip_the_ghost():
    hands = (cards("g1"), cards("g2"), cards("p1 b1 p2 b2"))
    assert skis_rotation(hands, GHOST_SEAT) == (cards("g2"), cards("g1"), cards("p1 b1 p2 b2"))
    assert skis_rotation(hands) == (cards("p1 b1 p2 b2"), cards("g1"), cards("g2"))  # three hands: all turn
    four = (cards("g1"), cards("g2"), cards("g3"), cards("g4"))
    assert skis_rotation(four, 1) == (cards("g4"), cards("g2"), cards("g1"), cards("g3"))


def test_ghost_passes_face_up_cards_and_the_card_he_gets_takes_their_place():
    hands = (cards("g1"), cards("g2"), cards("p1 b1 p2 b2"))
    passes = {given: (after, shown) for given, after, shown in heli_passes(hands, GHOST_SEAT, DISPLAY)}
    assert {tuple(format_card(c) for c in given) for given in passes} == {("g1", "g2", "p1"), ("g1", "g2", "b1")}
    after, shown = passes[tuple(parse_card_list("g1 g2 p1"))]
    assert after == (cards("p1"), cards("g1"), cards("g2 b1 p2 b2"))
    assert shown == tuple(parse_card_list("g2 b1 p2 b2"))  # g2, from seat 1, lies on p2: p2 stays face down


def test_ghost_in_the_jeep_puts_face_up_cards_and_places_what_he_draws():
    hands = (cards("g1 g2"), cards("y1 y2"), cards("p1 b1 p2 b2 p3 p4"))
    display = tuple(parse_card_list("p1 b1 p3 p2 b2 p4"))  # columns p1/p2, b1/b2, p3/p4
    order = (2, 2, 0, 0, 1, 1)  # the middle's two lowest cards go to the Ghost
    exchanges = {put: shown for put, _, shown in jeep_exchanges(hands, order, GHOST_SEAT, display)}
    ghost_pairs = {put[4:] for put in exchanges}
    assert ghost_pairs == {(a, b) for a in parse_card_list("p1 b1 p3") for b in parse_card_list("p1 b1 p3") if a != b}
    # He puts b1 then p3: the middle, lowest first, is p3 b1 g1 g2 y1 y2 (suits: pink, blue, green,
    # yellow), so he draws p3 and b1 back, p3 to b1's place and b1 to p3's; the other order keeps both.
    put = tuple(parse_card_list("g2 g1 y2 y1 b1 p3"))
    assert exchanges[put] == tuple(parse_card_list("p1 p3 b1 p2 b2 p4"))
    assert ghost_receives(display, parse_card_list("b1 p3"), parse_card_list("p3 b1")) == exchanges[put]
    assert exchanges[tuple(parse_card_list("g2 g1 y2 y1 p3 b1"))] == display


def test_vespa_with_the_ghost():
    # Ghost's b1 face up: he swaps a face-up card with a player; the card he gets lies in its place.
    deal, display = parse_ghost_deal("g1 g2 g3 | y1 y2 y3 | p1 b1 / p2 b2")
    swaps = {label: (swapped, shown) for label, swapped, shown in VESPA.starting_deals(deal, display)}
    assert len(swaps) == 12  # p1 or b1, to seat 0 or 1, for any of its three cards
    swapped, shown = swaps["Vespa: seat 2 gives p1 to seat 1 for y2"]
    assert swapped.hands == (cards("g1 g2 g3"), cards("y1 p1 y3"), cards("y2 b1 p2 b2"))
    assert shown == tuple(parse_card_list("y2 b1 p2 b2"))
    # b1 face down: the Vespa does not apply to him, nobody swaps.
    deal, display = parse_ghost_deal("g1 g2 g3 | y1 y2 y3 | p1 p2 / b1 b2")
    assert [(label, shown) for label, _, shown in VESPA.starting_deals(deal, display)] == [("", display)]
    # A player rides the Vespa: with the Ghost he takes face-up cards only (never p2 under p1).
    deal, display = parse_ghost_deal("b1 g2 g3 | y1 y2 y3 | p1 b2 / p2 b3")
    taken = {label.split(" for ")[1] for label, _, _ in VESPA.starting_deals(deal, display) if "to seat 2" in label}
    assert taken == {"p1", "b2"}
    (shown,) = {shown for label, _, shown in VESPA.starting_deals(deal, display)
                if label.endswith("gives g2 to seat 2 for p1")}
    assert shown == tuple(parse_card_list("g2 b2 p2 b3"))
