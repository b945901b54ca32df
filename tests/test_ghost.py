"""Two players by hand: the Ghost (Journey) or JARVIS (Planet Nine), a third seat whose cards lie in a display.

The rules are the Journey rulebook's "The Two-Player Game" and "Variant: The Difficult Two-Player
Game" and Planet Nine's "Two players"; our readings are in solver/trick/variants.py and solver/trick/ghost.py.
A deal is written `HAND | HAND | FACE-UP / FACE-DOWN`: seat 2 is the Ghost, his display a row of
columns, the face-up card of each column over the face-down card in the same place after the `/`.
Columns count from 0 at the left.

Every deal is solved through `solve_setups` with the reference solver and the Numba kernel, three
ways: with the display's cards as an ordinary third hand (no Stage), with the Ghost, and with the
difficult Ghost; a WIN's line of play is replayed by `check_witness` on the case that won it.

Conventions (as in tests/test_journey_spaces.py): seats count clockwise from 0 and play in the order
0, 1, Ghost; without r4 seat 0 leads trick 1. The missions are task missions: a task card must be
won by its owner. No trump is dealt unless named, so a trick is won by the highest card of the led
suit, and a discard never wins. Small displays: the Ghost may hold one card more than the players
(it is never played), so a display of 2 columns goes with hands of 3 cards, 4 columns with 7.
"""

import json
import re
from dataclasses import dataclass

import pytest
from click.testing import CliRunner
from conftest import check_witness, solve_on_stage

from cli.main import main
from solver.core.cards import DECK, TRUMPS, bit, card_set, format_card, parse_card, parse_card_list, scan
from solver.core.deal import COMMANDER_CARD, DealError, deal_rng
from solver.core.errors import InputError
from solver.core.rules import legal_plays, trick_winner, winning_card
from solver.core.solution import Outcome
from solver.engines import reference
from solver.engines.kernel import KernelSolver
from solver.experiments.sweep import Batch, Cell, dealt, solve_batch
from solver.missions.dealer import SPACE_DRAW
from solver.missions.mission import find_mission
from solver.missions.setup import Setup, mission_setups
from solver.missions.stage import Stage, space_cases, stage_deal, stage_of
from solver.missions.tasks import make_task_mission
from solver.trick.ghost import COLUMNS, GHOST_SEAT, format_ghost_deal, parse_ghost_deal, random_ghost_deal
from solver.trick.spaces import NO_EFFECT, PLAY_SPACES, TRAIN, parse_space
from solver.trick.variants import ghost_leads, ghost_playable

W, L = Outcome.WIN, Outcome.LOSS
KERNEL = KernelSolver(tt_bits=16)
ENGINES = {"reference": reference.solve, "kernel": KERNEL.solve}
YELLOW_FOR_EVERYONE = "journey/yellow-for-everyone"


def cards(text: str) -> int:
    return card_set(parse_card_list(text))


def task_setups(deal, tasks: str, owners) -> list[Setup]:
    """The one setup of a task mission with fixed owners."""
    return [Setup("", make_task_mission(deal, parse_card_list(tasks), owners=list(owners)))]


def solve_both(deal, setups, stage: Stage) -> dict:
    """Solve with both engines; they must agree, and a WIN must replay on the case that won it."""
    for _, _, mission in space_cases(stage, deal, setups):  # the Ghost is seat 2 exactly when the stage has a display
        assert mission.space.ghost == (GHOST_SEAT if stage.display else -1)
        assert mission.space.display == stage.display and mission.space.difficult == stage.difficult
    return solve_on_stage(deal, setups, stage, ENGINES)


@dataclass(frozen=True)
class Case:
    deal: str  # HAND | HAND | FACE-UP / FACE-DOWN
    tasks: str
    owners: tuple[int, ...]
    ordinary: Outcome  # the display's cards as an ordinary third hand
    ghost: Outcome
    difficult: Outcome  # the difficult Ghost
    name: str  # short pytest id; the reason is the comment above the case
    space: str = "train"

    @property
    def id(self) -> str:
        return f"{self.name}-{self.ordinary.value}-{self.ghost.value}-{self.difficult.value}"

    def parsed(self):
        deal, display = parse_ghost_deal(self.deal)
        return deal, display, task_setups(deal, self.tasks, self.owners)

    def stages(self, display) -> dict:
        space = parse_space(self.space)
        return {
            "ordinary": Stage(space),
            "ghost": Stage(space, display=display),
            "difficult": Stage(space, display=display, difficult=True),
        }


# The display of the difficult Ghost's deals: columns g9/g1, p1/p2, y1/y8, b1/b2.
DIFFICULT_DISPLAY = "g9 p1 y1 b1 / g1 p2 y8 b2"
WRAP_DISPLAY = "g9 p1 b1 y1 / g1 p2 b2 y8"  # columns 2 and 3 swapped: y1 in the last column
BELOW_DISPLAY = "g9 p1 y8 b1 / y1 p2 g1 b2"  # y1 under g9, g1 under y8
ALL_GREEN = "g2 g3 g4 g5 g6 g7 g8"
ALL_YELLOW = "y2 y3 y4 y5 y6 y7 y9"

CASES = [
    # --- face-down cards cannot be played -------------------------------------------------------
    # One trick. Ordinary: seat 2 follows p1 with p9 and wins it. Ghost: his only face-up card
    # is y1 (p9 lies under it), so the trick is p1 b2 y1 and seat 0 wins its own p1.
    Case("p1 | b2 | y1 / p9", "p1", (2,), W, L, L, "p9-face-down"),
    # The same cards, p9 face up over y1: the Ghost plays p9 and wins p1.
    Case("p1 | b2 | p9 / y1", "p1", (2,), W, W, W, "p9-face-up"),
    # Seat 0 holds only pinks, all three tasks of seat 2, and leads trick 1. Ordinary: seat 2
    # wins seat 0's pink lead with p8 or p9, leads its other pink (seat 0 must follow with a
    # task), then y1 or g1, on which seat 0 discards its last pink. Ghost: both his pinks lie face down in trick 1
    # and seat 1 holds none, so seat 0's pink lead wins its own task.
    Case("p1 p2 p3 | b1 b2 b3 | y1 g1 / p9 p8", "p1 p2 p3", (2, 2, 2), W, L, L, "pinks-under-y1-g1"),
    # --- face-down cards do not count for following suit ----------------------------------------
    # One trick. Ordinary: seat 2 must follow p5 with p9, its only pink, and wins it. Ghost: p9
    # does not exist for him yet, so he is void in pink and discards y1: seat 0 wins p5 over p1.
    Case("p5 | p1 | y1 / p9", "p5", (0,), L, W, W, "discard-over-p9"),
    # Ordinary: seat 0's only pink is p5 and seat 2's only pink p9, so any pink trick holds both
    # and p9 wins it, and p5 in any other trick is a discard, which never wins. p9 cannot go
    # earlier as a discard either: seat 2 holds b9 and g9, the top of every suit seat 0 can
    # lead. Ghost: seat 0 leads p5 at once; the Ghost's face-up cards are y1 and b9, no pink, so
    # he discards one and seat 0 wins p5 over p1. (Lead b5 or g5 first and the Ghost wins it
    # with b9 or g9 and leads on: the win needs the discard in trick 1.)
    Case("p5 b5 g5 | p1 b1 g1 | y1 b9 / p9 g9", "p5", (0,), L, W, W, "discard-needed"),
    # --- a card turns face up after the trick of the card over it -------------------------------
    # Seat 2 must win p1. Ordinary: it follows p1 with p9 in trick 1. Ghost: p9 lies under y1.
    # Seat 0 leads p2 first: the Ghost plays y1 (his only card face up), seat 0 wins; p9 turns
    # up after the trick, and in trick 2 the Ghost plays p9 on seat 0's p1 (see the witness test).
    Case("p1 p2 | b1 b2 | y1 / p9", "p1", (2,), W, W, W, "p9-up-in-trick-2"),
    # The same deal, seat 2 to win both pinks. Ordinary: p9 takes seat 0's first pink, then
    # seat 2 leads y1 and seat 0 must play its other pink on it. Ghost: seat 0 holds only pinks and leads trick 1; the Ghost's
    # one face-up card is y1 (p9 turns up only after that trick), so seat 0 wins its own pink.
    Case("p1 p2 | b1 b2 | y1 / p9", "p1 p2", (2, 2), W, L, L, "p9-not-up-in-trick-1"),
    # --- the machete with the Ghost: a face-down card is never in the trick ---------------------
    # p8 is a machete card. Ordinary: seat 2 must follow with p5: p8 p2 p5 totals 15 and fails
    # (on the train seat 0 wins p8; see test_machete_with_the_ghost). Ghost: p5 lies face down,
    # he plays y1: p8 p2 y1 totals 11, and seat 0 wins p8.
    Case("p8 | p2 | y1 / p5", "p8", (0,), L, W, W, "machete-15-face-down", space="machete"),
    # --- the difficult Ghost: after winning a trick he leads below or beside his card -----------
    # Tasks: y1 to seat 1, p1 and b1 to seat 0. Seat 0 holds greens only and seat 1 yellows only;
    # no trump. Trick 1 is forced: seat 0 leads a green, seat 1 discards, and the Ghost must play
    # g9, his only face-up green (g1 lies under it), and wins. Seat 1 wins a trick only when
    # yellow is led, and the first yellow lead can only be the Ghost's y1 (seat 0 holds no
    # yellow, seat 1 never leads before winning, y8 lies under y1). Normal Ghost: he leads y1 in trick 2 and seat 1 wins
    # it; seat 1 leads a yellow below y8 and the Ghost wins it with y8; he leads g1 and seat 0
    # wins; seat 0 leads greens and the Ghost, void in green, discards p1 and b1 on them.
    # Ordinary: the same line is legal for an ordinary hand. Difficult: after winning with g9
    # (column 0) he may lead only g1 (below it), p1 or b1 (columns 1 and 3, beside it); y1 lies
    # in column 2, beside neither. p1 or b1 led: seat 0, holding neither pink nor blue, cannot win
    # its task. g1 led: seat 0 wins it and then leads green to the end, winning every trick (no
    # other seat holds a green), so seat 1 never wins y1.
    Case(f"{ALL_GREEN} | {ALL_YELLOW} | {DIFFICULT_DISPLAY}", "y1 p1 b1", (1, 0, 0), W, W, L, "not-beside-g9"),
    # The card below: the same deal with y1 under g9 and g1 under y8 (columns g9/y1, p1/p2,
    # y8/g1, b1/b2). Trick 1 as above (g9 is still his only face-up green). Difficult: after g9
    # he leads y1, the card under it, and seat 1 wins it; seat 1 leads a yellow below y8, which
    # the Ghost must follow with y8 (face up), winning; he leads g1, the card under y8, and
    # seat 0 wins it and collects p1 and b1 with its greens. Were only the columns beside his
    # card allowed, p1 or b1 would be his lead after g9: the LOSS above.
    Case(f"{ALL_GREEN} | {ALL_YELLOW} | {BELOW_DISPLAY}", "y1 p1 b1", (1, 0, 0), W, W, W, "below-g9"),
    # The ends are adjacent: the same deal with columns 2 and 3 swapped, so y1 lies in column 3,
    # the left neighbour of column 0 across the ends. Difficult: after g9 he leads y1 (seat 1
    # wins it); later he wins a yellow trick with y8 (column 3, under y1) and leads g1,
    # column 0 being its right neighbour across the ends; then seat 0's greens collect p1 and b1.
    # Without the wrap-around column 0 would have no left neighbour: the LOSS above.
    Case(f"{ALL_GREEN} | {ALL_YELLOW} | {WRAP_DISPLAY}", "y1 p1 b1", (1, 0, 0), W, W, W, "wrap-around"),
    # Gaps are skipped: y1 to seat 1 only. Seat 0 holds g2 g3 g4 and the two top pinks and
    # blues, seat 1 yellows only, the display is the one above. Difficult: seat 0 leads p9 and
    # p8, the Ghost must follow with p1 and p2 (his only pinks, one face up at a time), emptying
    # column 1; seat 0 leads a green and the Ghost must play g9 (his only face-up green) and wins;
    # column 1 is empty, so column 2 is column 0's right neighbour: he leads y1 and seat 1 wins
    # it. The WIN needs the gap. As above, seat 1 wins y1 only on the Ghost's y1 lead. Seat 0 wins every trick it leads but the one g9 takes (the first
    # green), so the Ghost leads once, right after g9; g1, a pink or a blue led then is beaten by
    # seat 0 (it holds a green above g1, and as many pinks and blues as he does, each of his
    # following one of its leads), which then leads to the end; y1 is beside column 0 only if
    # column 1 or 3 is empty. Normal Ghost and ordinary: trick 1 green, g9, then y1.
    Case(f"g2 g3 g4 p8 p9 b8 b9 | {ALL_YELLOW} | {DIFFICULT_DISPLAY}", "y1", (1,), W, W, W, "gap-skipped"),
]


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_ghost_case(case):
    deal, display, setups = case.parsed()
    stages = case.stages(display)
    expected = {"ordinary": case.ordinary, "ghost": case.ghost, "difficult": case.difficult}
    found = {name: solve_both(deal, setups, stage)["reference"].outcome for name, stage in stages.items()}
    assert found == expected


def case_named(name: str) -> Case:
    (case,) = [case for case in CASES if case.name == name]
    return case


def ghost_solutions(name: str, difficult: bool = False) -> list:
    """Both engines' solutions of a case with the (difficult) Ghost."""
    case = case_named(name)
    deal, display, setups = case.parsed()
    return list(solve_both(deal, setups, case.stages(display)["difficult" if difficult else "ghost"]).values())


# --- face up after the trick -------------------------------------------------------------------


def test_card_turns_up_for_the_next_trick():
    # The p9-up-in-trick-2 case: the one winning line. Trick 1 is p2 (p1 first: the Ghost has
    # only y1 to play), with the Ghost's y1, won by seat 0; in trick 2 p9 is face up and the Ghost
    # plays it on p1.
    for solution in ghost_solutions("p9-up-in-trick-2"):
        first, second = solution.tricks
        assert (first.leader, first.cards[0], first.cards[2], first.winner) == (0, *parse_card_list("p2 y1"), 0)
        assert (second.leader, second.cards[0], second.cards[2], second.winner) == (0, *parse_card_list("p1 p9"), 2)


def test_face_up_cards_by_hand():
    display = tuple(parse_card_list(DIFFICULT_DISPLAY.replace("/", "")))
    full = card_set(display)
    assert ghost_playable(full, display) == cards("g9 p1 y1 b1")
    assert ghost_playable(full & ~cards("p1"), display) == cards("g9 p2 y1 b1")
    assert ghost_playable(full & ~cards("g9 g1 y1"), display) == cards("p1 y8 b1")
    assert ghost_playable(cards("p2 b2"), display) == cards("p2 b2")
    # The notation's example: seven columns.
    seven = tuple(parse_card_list("g3 y4 p6 b8 g1 y2 r2 p2 b3 g4 y5 p7 b9 g2"))
    assert ghost_playable(card_set(seven), seven) == cards("g3 y4 p6 b8 g1 y2 r2")
    assert ghost_playable(card_set(seven) & ~cards("r2 y4"), seven) == cards("g3 b3 p6 b8 g1 y2 g2")


# --- the difficult Ghost -----------------------------------------------------------------------


def leads(hand_text: str, won_with: str, display_text: str = DIFFICULT_DISPLAY) -> int:
    """ghost_leads on the Ghost's hand after the trick he won with `won_with` (not in the hand)."""
    display = tuple(parse_card_list(display_text.replace("/", "")))
    return ghost_leads(cards(hand_text), display, parse_card(won_with))


@pytest.mark.parametrize("hand, won_with, expected", [
    # The display g9/g1, p1/p2, y1/y8, b1/b2; the hand is the Ghost's after the trick.
    ("g1 p1 y1 b1 p2 y8 b2", "g9", "g1 p1 b1"),  # below g9, and columns 1 and 3
    ("g9 y1 b1 g1 p2 y8 b2", "p1", "p2 g9 y1"),  # below p1, columns 0 and 2
    ("g9 p1 y1 g1 p2 y8 b2", "b1", "b2 y1 g9"),  # column 0 beside column 3 across the ends
    ("p1 y1 b1 p2 y8 b2", "g1", "p1 b1"),  # won with a bottom card: nothing below it
    ("g1 y1 b1 y8 b2", "g9", "g1 y1 b1"),  # column 1 empty: column 2 is the right neighbour
    ("g1 y1 y8", "g9", "g1 y1"),  # columns 1 and 3 empty: column 2 on both sides
    ("g1", "g9", "g1"),  # the other columns empty: only the card below
    ("y1 y8", "g1", "y1"),  # won with g1, column 2 alone left: y1 from both sides
    ("g1 p2 y1 b1 y8 b2", "g9", "g1 p2 b1"),  # p1 gone: p2 is column 1's face-up card
    ("g9 p1 b1 g1 p2 b2", "y8", "p1 b1"),  # won with y8, column 2's bottom card: columns 1 and 3
])
def test_difficult_leads_by_hand(hand, won_with, expected):
    assert leads(hand, won_with) == cards(expected)


def test_difficult_leads_in_seven_columns():
    # The notation's example g3 y4 p6 b8 g1 y2 r2 / p2 b3 g4 y5 p7 b9 g2, every card there but the winner.
    display = "g3 y4 p6 b8 g1 y2 r2 / p2 b3 g4 y5 p7 b9 g2"
    every = "g3 y4 p6 b8 g1 y2 r2 p2 b3 g4 y5 p7 b9 g2".split()

    def without(*gone):
        return " ".join(c for c in every if c not in gone)

    assert leads(without("b8"), "b8", display) == cards("y5 p6 g1")  # column 3: below, 2 and 4
    assert leads(without("g3"), "g3", display) == cards("p2 y4 r2")  # column 0: 1, and 6 across the ends
    assert leads(without("r2"), "r2", display) == cards("g2 y2 g3")  # column 6: 5, and 0 across the ends
    # Columns 1, 2 and 4 empty: from column 3 the neighbours are columns 0 and 5.
    assert leads(without("b8", "y4", "b3", "p6", "g4", "g1", "p7"), "b8", display) == cards("y5 g3 y2")


def test_difficult_ghost_is_adjacent_only():
    # The not-beside-g9 case, normal Ghost: the only WIN leads y1 in trick 2, after g9 won
    # trick 1; ghost_leads then offers g1 p1 b1, not y1.
    for solution in ghost_solutions("not-beside-g9"):
        first, second = solution.tricks[:2]
        assert first.cards[2] == parse_card("g9") and first.winner == GHOST_SEAT
        assert second.leader == GHOST_SEAT and second.cards[0] == parse_card("y1") and second.winner == 1
    assert leads("g1 p1 y1 b1 p2 y8 b2", "g9") == cards("g1 p1 b1")


@pytest.mark.parametrize("case", [
    "below-g9",  # y1 led in trick 2 after g9 won trick 1 (y1 lay under g9); g1 after y8 (g1 lay under y8)
    "wrap-around",  # y1 led in trick 2 after g9 (column 3 beside column 0); g1 after y8 (column 0 beside 3)
])
def test_difficult_ghost_leads_below_or_beside_with_the_ends_joined(case):
    for solution in ghost_solutions(case, difficult=True):
        tricks = solution.tricks
        assert tricks[0].winner == GHOST_SEAT and tricks[0].cards[2] == parse_card("g9")
        assert tricks[1].leader == GHOST_SEAT and tricks[1].cards[0] == parse_card("y1") and tricks[1].winner == 1
        (g1,) = [k for k, trick in enumerate(tricks) if parse_card("g1") in trick.cards]
        assert tricks[g1].leader == GHOST_SEAT and tricks[g1].cards[0] == parse_card("g1")
        assert winning_card(tricks[g1 - 1].cards) == parse_card("y8") and tricks[g1 - 1].winner == GHOST_SEAT


def test_difficult_ghost_skips_gaps():
    # The gap-skipped case, difficult: y1 is led right after a trick the Ghost won with g9, and
    # by then column 1 (p1 p2) or column 3 (b1 b2) is empty.
    for solution in ghost_solutions("gap-skipped", difficult=True):
        tricks = solution.tricks
        (k,) = [k for k, trick in enumerate(tricks) if parse_card("y1") in trick.cards]
        assert tricks[k].leader == GHOST_SEAT and tricks[k].cards[0] == parse_card("y1") and tricks[k].winner == 1
        assert tricks[k - 1].winner == GHOST_SEAT and winning_card(tricks[k - 1].cards) == parse_card("g9")
        before = card_set(c for trick in tricks[:k] for c in trick.cards)
        assert before & cards("p1 p2") == cards("p1 p2") or before & cards("b1 b2") == cards("b1 b2")


# --- parsing -----------------------------------------------------------------------------------


def test_parse_and_format_round_trip():
    text = "r4 g2 g3 | y2 y9 p5 | g9 p1 / g1 p2"
    deal, display = parse_ghost_deal(text)
    assert deal.hands == (cards("r4 g2 g3"), cards("y2 y9 p5"), cards("g9 p1 g1 p2"))
    assert display == tuple(parse_card_list("g9 p1 g1 p2"))  # face up, then face down, in column order
    assert deal.commander == 0  # the holder of r4
    assert format_ghost_deal(deal, display) == "g2 g3 r4 | p5 y2 y9 | g9 p1 / g1 p2"
    assert parse_ghost_deal(format_ghost_deal(deal, display)) == (deal, display)
    # The column order is kept, not sorted.
    _, unsorted = parse_ghost_deal("g2 g3 g4 | y2 y8 y9 | p1 g9 / p2 g1")
    assert unsorted == tuple(parse_card_list("p1 g9 p2 g1"))
    # Without r4 the Commander is given (default seat 0); r4 in seat 1 makes seat 1 the Guide.
    assert parse_ghost_deal("g2 g3 g4 | y2 y8 y9 | p1 g9 / p2 g1", commander=1)[0].commander == 1
    assert parse_ghost_deal("g2 g3 g4 | r4 y8 y9 | p1 g9 / p2 g1")[0].commander == 1
    for i in range(5):
        for game in ("journey", "planet-nine"):
            deal, display = random_ghost_deal(game, deal_rng(7, i))
            assert parse_ghost_deal(format_ghost_deal(deal, display)) == (deal, display)


@pytest.mark.parametrize("text, words", [
    ("p1 | p2 | p3 p4 / p5", ["one face-down card under each face-up card", "2 and 1"]),
    ("p1 | p2 | /", ["0 and 0"]),
    ("p1 / p5 | p2 | p3 / p4", ["HAND | HAND | FACE-UP / FACE-DOWN"]),
    ("p1 | p2 / p5 | p3 / p4", ["HAND | HAND | FACE-UP / FACE-DOWN"]),
    ("p1 | p2 | p3 p4", ["HAND | HAND | FACE-UP / FACE-DOWN"]),  # no display
    ("p1 | p2", ["HAND | HAND | FACE-UP / FACE-DOWN"]),
    ("p1 | p2 | p3 / p4 | p5", ["HAND | HAND | FACE-UP / FACE-DOWN"]),
    ("p1 | p2 | r4 / p4", ["the Ghost's display cannot hold r4", "the 4-heli goes to a player"]),
    ("p1 | p2 | p3 / p3", ["twice in the Ghost's display"]),
    ("p1 | p2 | p1 / p4", ["p1", "more than one hand"]),
    # Two players, not three hands: "deal them evenly between both crew members" (the Journey rulebook).
    ("p1 p2 p3 | p4 | p5 / p6", ["the two players hold 3 and 1 cards", "the players hold as many cards each"]),
    ("p1 | p4 | p5 p7 / p6 p8", ["the Ghost's display 4", "the display as many or one more"]),
])
def test_parse_errors(text, words):
    with pytest.raises(DealError) as raised:
        parse_ghost_deal(text)
    assert isinstance(raised.value, InputError)
    for word in words:
        assert word in str(raised.value)


def test_card_twice_in_one_row_is_a_card_error():
    # A card twice in the face-up row is caught by the card-list reader (CardError, an
    # InputError like DealError), before the display's own check.
    with pytest.raises(InputError, match="duplicate card p3"):
        parse_ghost_deal("p1 p2 | p4 p6 | p3 p3 / p5 p7")


def test_r4_in_display_with_a_commander_given():
    with pytest.raises(DealError):
        parse_ghost_deal("p1 | p2 | r4 / p4", commander=0)


@pytest.mark.parametrize("display", ["p3 / r2", "r1 / p3"])
def test_jarvis_holds_no_rocket(display):
    # "Set the rockets aside. Make JARVIS from seven face-down cards with seven face-up cards directly over
    # them, then shuffle the rockets into the remaining cards" (Planet Nine's rules, two players).
    with pytest.raises(DealError, match="JARVIS's display cannot hold r[12]: the rockets are set aside"):
        parse_ghost_deal(f"p1 p7 | p2 p8 | {display}", commander=0, game="planet-nine")
    parse_ghost_deal(f"p1 p7 | p2 p8 | {display}", commander=0, game="journey")  # the Ghost may hold r1-r3


# --- random deals ------------------------------------------------------------------------------


def check_ghost_deal(deal, display):
    """What every two-player deal holds: 7 columns for seat 2, 13 cards a player, r4 with a player."""
    assert deal.players == 3
    assert len(display) == 2 * COLUMNS == len(set(display))
    assert deal.hands[GHOST_SEAT] == card_set(display)
    assert [bin(hand).count("1") for hand in deal.hands] == [13, 13, 14]
    assert sum(bin(hand).count("1") for hand in deal.hands) == 40 and deal.cards == DECK  # every card once
    assert deal.commander in (0, 1) and deal.hands[deal.commander] & bit(COMMANDER_CARD)


def test_random_journey_deals():
    guides, trumps_shown = set(), 0
    for seed in range(3):
        for i in range(8):
            deal, display = random_ghost_deal("journey", deal_rng(seed, i))
            check_ghost_deal(deal, display)
            assert COMMANDER_CARD not in display
            trumps_shown += bool(card_set(display) & TRUMPS)
            guides.add(deal.commander)
    assert guides == {0, 1}  # either player may be the Guide
    assert trumps_shown > 0  # only r4 is set aside: r1-r3 may lie in the display


def test_random_planet_nine_deals():
    displays = set()
    for seed in range(3):
        for i in range(8):
            deal, display = random_ghost_deal("planet-nine", deal_rng(seed, i))
            check_ghost_deal(deal, display)
            assert card_set(display) & TRUMPS == 0  # every rocket is set aside, then dealt to a player
            assert (deal.hands[0] | deal.hands[1]) & TRUMPS == TRUMPS
            displays.add(display)
    assert len(displays) == 24


def test_stage_deal_for_two_players():
    deal, stage = stage_deal(TRAIN, 2, deal_rng(1, 2), "planet-nine", difficult=True)
    assert stage == Stage(TRAIN, display=stage.display, difficult=True)
    assert (deal, stage.display) == random_ghost_deal("planet-nine", deal_rng(1, 2))
    deal, stage = stage_deal(parse_space("machete"), 2, deal_rng(1, 2))
    assert (deal, stage.display) == random_ghost_deal("journey", deal_rng(1, 2)) and not stage.difficult
    assert stage_of(parse_space("storm"), deal, deal_rng(0, 0), stage.display) == Stage(
        parse_space("storm"), display=stage.display)


@pytest.mark.parametrize("name", [*PLAY_SPACES, *NO_EFFECT])
def test_every_space_deals_with_the_ghost(name):
    # Every space is played with the Ghost: his display is dealt as on the train, and the space
    # draws its own chance after it (fog's draws for the players only, the jeep's shuffle).
    space = parse_space(name)
    deal, stage = stage_deal(space, 2, deal_rng(0, 0))
    assert (deal, stage.display) == random_ghost_deal("journey", deal_rng(0, 0))
    assert stage == stage_of(space, deal, deal_rng(0, 0), stage.display) or name in ("fog", "jeep")
    assert bool(stage.arrivals) == (name == "fog") and bool(stage.jeep_order) == (name == "jeep")
    if name == "fog":  # the Ghost's cards are all dealt; each player draws from trick 1 on
        assert all(stage.arrivals[c] == 0 for c in stage.display)
        assert all(any(stage.arrivals[c] == 1 for c in scan(deal.hands[seat])) for seat in (0, 1))
    setups = mission_setups(find_mission(YELLOW_FOR_EVERYONE, None), deal, [], None)
    cases = space_cases(stage, deal, setups)
    assert cases and all(mission.space.ghost == GHOST_SEAT for _, _, mission in cases)
    if name == "dog-sled":  # the Ghost decides nothing: a player drives
        assert sorted(mission.space.sled for _, _, mission in cases) == [0, 1]


def test_machete_with_the_ghost():
    # The machete-15-face-down case: on the train seat 0 wins p8 whoever plays what (p8 is the
    # top pink); the machete adds its counters to the Ghost's rules.
    case = case_named("machete-15-face-down")
    deal, display, setups = case.parsed()
    assert solve_both(deal, setups, Stage())["reference"].outcome is W
    ((_, _, mission),) = space_cases(Stage(parse_space("machete"), display=display), deal, setups)
    assert len(mission.counters) == len(setups[0].mission.counters) + 3
    assert mission.space.ghost == GHOST_SEAT and mission.space.display == display


# --- the command line --------------------------------------------------------------------------


def crew(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def assert_one_line_error(result, *words):
    """Exit 2, one line on stderr starting `crew: error:` and naming `words`, no traceback."""
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("crew: error: ")
    assert "Traceback" not in result.output
    for word in words:
        assert word in lines[0], f"{word!r} not in {lines[0]!r}"


TRICK_LINE = re.compile(r"trick +(\d+): ((?:\d:\w+ ?)+) +-> seat (\d)(?:  .+)?")
CLI_DEAL, CLI_DISPLAY = random_ghost_deal("journey", deal_rng(0, 0))
CLI_TEXT = format_ghost_deal(CLI_DEAL, CLI_DISPLAY)


def replay_lines(deal, display, text: str, difficult: bool) -> list:
    """Replay the printed line of play: the Ghost plays face-up cards only, following suit with them.

    Return the tricks as (leader, cards, winner)."""
    hands = list(deal.hands)
    leader, tricks = deal.commander, []
    for number, line in enumerate((line for line in text.splitlines() if line.startswith("trick ")), 1):
        match = TRICK_LINE.fullmatch(line.strip())
        assert match, line
        seated = [word.split(":") for word in match[2].split()]
        assert int(match[1]) == number and [int(seat) for seat, _ in seated] == [(leader + k) % 3 for k in range(3)], line
        played = [parse_card(c) for _, c in seated]
        for k, c in enumerate(played):
            seat = (leader + k) % 3
            hand = hands[seat]
            if seat == GHOST_SEAT:
                hand = ghost_playable(hand, display)
                assert hand & bit(c), f"{line}: {format_card(c)} is face down"
                if k == 0 and difficult and tricks and tricks[-1][2] == GHOST_SEAT:
                    allowed = ghost_leads(hands[seat], display, winning_card(tricks[-1][1]))
                    assert allowed & bit(c), f"{line}: the difficult Ghost may not lead {format_card(c)}"
            assert legal_plays(hand, played[:k]) & bit(c), f"{line}: seat {seat} may not play {format_card(c)}"
            hands[seat] &= ~bit(c)
        winner = trick_winner(leader, played, 3)
        assert int(match[3]) == winner, line
        tricks.append((leader, played, winner))
        leader = winner
    return tricks


@pytest.mark.parametrize("difficult", [False, True], ids=["ghost", "difficult-ghost"])
def test_cli_solve_random_ghost_deal(difficult):
    result = crew("solve", "--mission", YELLOW_FOR_EVERYONE, "--deal", CLI_TEXT,
                  *(["--difficult-ghost"] if difficult else []))
    assert result.exit_code == 0, result.output
    assert result.stdout.split()[0] == "WIN"  # the replay below is the proof
    tricks = replay_lines(CLI_DEAL, CLI_DISPLAY, result.stdout, difficult)
    assert len(tricks) >= 1
    # The mission by hand: every seat, the Ghost too, wins a yellow card by the end of the line.
    yellows = cards("y1 y2 y3 y4 y5 y6 y7 y8 y9")
    for seat in range(3):
        assert any(winner == seat and card_set(played) & yellows for _, played, winner in tricks), seat
    # The Ghost played cards that were dealt face down: they turned up after the tricks above them.
    ghost_cards = {played[(GHOST_SEAT - leader) % 3] for leader, played, _ in tricks}
    if len(tricks) >= COLUMNS + 1:  # more tricks than columns: some card of his came from below
        assert ghost_cards & set(CLI_DISPLAY[COLUMNS:])


def test_cli_solve_json_witness_replays():
    # The same answer as JSON, checked by check_witness on the case the command solved.
    import json

    from solver.core.solution import Solution, Trick

    result = crew("solve", "--mission", YELLOW_FOR_EVERYONE, "--deal", CLI_TEXT, "--difficult-ghost", "--json")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["result"] == "win"
    setups = mission_setups(find_mission(YELLOW_FOR_EVERYONE, None), CLI_DEAL, [], None)
    ((_, case_deal, case_mission),) = space_cases(Stage(display=CLI_DISPLAY, difficult=True), CLI_DEAL, setups)
    assert case_mission.space.ghost == GHOST_SEAT and case_mission.space.difficult
    solution = Solution(W, answer["nodes"], answer["seconds"], answer["engine"], [
        Trick(t["leader"], tuple(parse_card_list(" ".join(t["cards"]))), t["winner"], ())
        for t in answer["tricks"]
    ], {})
    check_witness(case_deal, case_mission, solution)


@pytest.mark.parametrize("space", [*PLAY_SPACES, "storm"])
def test_cli_spaces_with_the_ghost(space):
    plain = crew("solve", "--mission", YELLOW_FOR_EVERYONE, "--deal", CLI_TEXT)
    result = crew("solve", "--mission", YELLOW_FOR_EVERYONE, "--deal", CLI_TEXT, "--space", space, "--budget", 60)
    assert result.exit_code == 0, result.output
    verdict = next(line for line in result.stdout.splitlines() if not line.startswith(("jeep:", "fog:"))).split()[0]
    assert verdict in ("WIN", "LOSS")  # fog's draws and the jeep's shuffle are printed first
    if verdict == "WIN" and space in ("machete", "storm"):  # the plain rules of play
        replay_lines(CLI_DEAL, CLI_DISPLAY, result.stdout, False)
    if space == "storm":  # no effect: the same answer as without the space
        assert verdict == plain.stdout.split()[0]


@pytest.mark.parametrize("space", ["helicopter", "jeep"])
def test_cli_shows_where_the_cards_the_ghost_gets_lie(space):
    result = crew("solve", "--mission", YELLOW_FOR_EVERYONE, "--deal", CLI_TEXT, "--space", space, "--budget", 60)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "WIN" in lines[0] + lines[1]  # the jeep's shuffle is printed first
    order = stage_of(parse_space(space), CLI_DEAL, deal_rng(0, 0, SPACE_DRAW), CLI_DISPLAY).jeep_order
    passes = [k for k, line in enumerate(lines) if line.startswith("passed: ")]
    assert passes
    for k in passes:  # "passed: seat 0 C.., seat 1 C.., seat 2 C..", then the Ghost's line
        given = [part.split()[2:] for part in lines[k].removeprefix("passed: ").split(", ")]
        if space == "helicopter":  # he gets the card of seat 1, on his right
            got = given[1]
        else:  # the middle's cards, lowest first, to the seats drawn with the deal
            middle = sorted(parse_card(c) for cards in given for c in cards)
            got = [format_card(c) for c, seat in zip(middle, order) if seat == GHOST_SEAT]
        places = ", ".join(f"{new} lies where {old} lay" for old, new in zip(given[GHOST_SEAT], got))
        if space == "jeep":  # first who got which of the middle's cards
            assert lines[k + 1].removeprefix("got: ").split(", ")[GHOST_SEAT] == f"seat {GHOST_SEAT} " + " ".join(got)
            k += 1
        assert lines[k + 1] == f"ghost: {places}"


def test_cli_fog_deals_the_ghosts_display_whole():
    result = crew("solve", "--mission", YELLOW_FOR_EVERYONE, "--deal", CLI_TEXT, "--space", "fog", "--budget", 60)
    assert result.exit_code == 0, result.output
    dealt = result.stdout.splitlines()[0].removeprefix("fog: dealt ").split(" | ")
    assert dealt[GHOST_SEAT] == CLI_TEXT.split(" | ")[GHOST_SEAT]  # face up / face down, as given


def test_cli_hand_built_case():
    # The discard-over-p9 case on the command line: LOSS as three hands, WIN with the Ghost.
    ordinary = crew("solve", "--deal", "p5 | p1 | y1 p9", "--tasks", "p5", "--owners", "0")
    ghost = crew("solve", "--deal", "p5 | p1 | y1 / p9", "--tasks", "p5", "--owners", "0")
    assert ordinary.exit_code == ghost.exit_code == 0, ordinary.output + ghost.output
    assert ordinary.stdout.startswith("LOSS")
    assert ghost.stdout.startswith("WIN")
    assert "trick  1: 0:p5 1:p1 2:y1  -> seat 0  done: p5" in ghost.stdout.splitlines()
    replay_lines(*parse_ghost_deal("p5 | p1 | y1 / p9"), ghost.stdout, False)
    # CP-SAT models the Ghost, the difficult one too: the same line, the only one.
    for difficult in ([], ["--difficult-ghost"]):
        cpsat = crew("solve", "--deal", "p5 | p1 | y1 / p9", "--tasks", "p5", "--owners", "0", "--engine", "cpsat",
                     *difficult)
        assert cpsat.exit_code == 0, cpsat.output
        assert "trick  1: 0:p5 1:p1 2:y1  -> seat 0  done: p5" in cpsat.stdout.splitlines()
        replay_lines(*parse_ghost_deal("p5 | p1 | y1 / p9"), cpsat.stdout, bool(difficult))


def test_the_answer_says_how_many_play():
    # A two-player deal written without its display's "/" is three hands: the answer says who played.
    ordinary = crew("solve", "--deal", "p5 | p1 | y1 p9", "--tasks", "p5", "--owners", "0")
    ghost = crew("solve", "--deal", "p5 | p1 | y1 / p9", "--tasks", "p5", "--owners", "0")
    assert ordinary.stdout.startswith("LOSS  (3 players; ") and ghost.stdout.startswith("WIN  (2 players and the display; ")
    as_json = crew("solve", "--deal", "p5 | p1 | y1 / p9", "--tasks", "p5", "--owners", "0", "--json")
    assert json.loads(as_json.stdout)["players"] == 2


@pytest.mark.parametrize("args, words", [
    (["--deal", "p1 | p2 | p3", "--tasks", "p1", "--difficult-ghost"], ["--difficult-ghost"]),
    (["--deal", "p1 | p2 | p3 p4 / p5", "--tasks", "p1"], ["face-down"]),
    (["--deal", "p1 | p2 | r4 / p5", "--tasks", "p1"], ["JARVIS's display cannot hold r4"]),  # Planet Nine's tasks
    (["--deal", "p1 | p2 | r2 / p5", "--tasks", "p1"], ["JARVIS's display cannot hold r2", "rockets are set aside"]),
    (["--deal", "p1 | p2 | r4 / p5", "--tasks", "p1", "--space", "storm"], ["the Ghost's display cannot hold r4"]),
    (["--deal", "p1 | p2 | r2 / p5", "--mission", "planet-nine/1"], ["JARVIS's display cannot hold r2"]),
])
def test_cli_errors(args, words):
    assert_one_line_error(crew("solve", *args), *words)


def test_cpsat_answers_the_difficult_ghost_where_cards_are_passed():
    # CP-SAT models the difficult Ghost's leads where passes move his cards (the helicopter, the jeep, mission
    # 12's random pass): it answers as the reference does, where it once refused.
    for space in ("helicopter", "jeep"):
        args = ["--deal", "p1 p2 p7 y3 y4 | p3 p4 y1 y2 y5 | p5 p6 b1 / b2 b3 b4", "--tasks", "p1", "--owners", "1",
                "--space", space, "--difficult-ghost"]
        answers = {engine: crew("solve", *args, "--engine", engine, "--json") for engine in ("cpsat", "reference")}
        assert all(answer.exit_code == 0 for answer in answers.values()), answers
        results = {engine: json.loads(answer.stdout) for engine, answer in answers.items()}
        assert results["cpsat"]["engine"] == "cpsat" and results["cpsat"]["result"] == results["reference"]["result"]


def sweep_rows(result) -> dict:
    assert result.exit_code == 0, result.output
    return {line.split()[0]: line.split() for line in result.stdout.splitlines()[1:] if line.strip()}


@pytest.mark.parametrize("difficult", [False, True], ids=["ghost", "difficult-ghost"])
def test_cli_sweep_task_experiment_with_jarvis(tmp_path, difficult):
    result = crew("sweep", "--players", "2", "--tasks", "2", "--deals", "2", "--jobs", "1", "--out", tmp_path / "s",
                  *(["--difficult-ghost"] if difficult else []))
    rows = sweep_rows(result)
    cell = "tasks/2/draft" + ("@difficult-ghost" if difficult else "")
    assert set(rows) == {cell}
    assert rows[cell][1:3] == ["2", "2"]  # players, deals
    assert int(rows[cell][3]) + int(rows[cell][4]) + int(rows[cell][5]) == 2


@pytest.mark.parametrize("args, cell", [
    (["--game", "journey", "--missions", "yellow-for-everyone", "--deals", "3"], YELLOW_FOR_EVERYONE),
    (["--game", "journey", "--missions", "yellow-for-everyone", "--deals", "3", "--difficult-ghost"],
     f"{YELLOW_FOR_EVERYONE}@difficult-ghost"),
    (["--missions", "1", "--deals", "2"], "planet-nine/1"),
])
def test_cli_sweep_missions_with_two_players(tmp_path, args, cell):
    result = crew("sweep", *args, "--players", "2", "--jobs", "1", "--out", tmp_path / "s")
    rows = sweep_rows(result)
    assert set(rows) == {cell}
    deals = args[args.index("--deals") + 1]
    assert rows[cell][1:3] == ["2", deals]
    assert int(rows[cell][3]) + int(rows[cell][4]) + int(rows[cell][5]) == int(deals)


def test_cli_sweep_difficult_ghost_needs_two_players(tmp_path):
    result = crew("sweep", "--game", "journey", "--missions", "yellow-for-everyone", "--players", "3",
                  "--difficult-ghost", "--deals", "1", "--jobs", "1", "--out", tmp_path / "s")
    assert_one_line_error(result, "--difficult-ghost", "--players")


@pytest.mark.parametrize("mission_id, difficult", [(YELLOW_FOR_EVERYONE, True), ("planet-nine/1", False)])
def test_sweep_batch_with_two_players(mission_id, difficult):
    # What a sweep worker does with a two-player cell (below the command line): Ghost or JARVIS
    # deals, solved on their display, each record's line legal for the Ghost.
    mission = find_mission(mission_id, None)
    batch = Batch(Cell(mission_id + ("@difficult-ghost" if difficult else ""), 2), mission, 1, (0, 1), 10.0)
    for index in batch.indices:
        game = dealt(batch, index)
        deal, setups, stage = game.deal, game.setups(), game.stage
        check_ghost_deal(deal, stage.display)
        assert stage.difficult == difficult
        if mission_id.startswith("planet-nine/"):
            assert card_set(stage.display) & TRUMPS == 0
        assert all(case[2].space.ghost == GHOST_SEAT for case in space_cases(stage, deal, setups))
    for index, record in zip(batch.indices, solve_batch(batch)):
        assert record.players == 2 and record.index == index and record.result in ("win", "loss")
        if record.result == "win":
            deal, stage = dealt(batch, index).deal, dealt(batch, index).stage
            text = []
            leader = deal.commander
            for number, trick in enumerate(record.line.split("/"), 1):
                played = parse_card_list(trick)
                winner = trick_winner(leader, played, 3)
                seated = " ".join(f"{(leader + k) % 3}:{format_card(c)}" for k, c in enumerate(played))
                text.append(f"trick {number:2d}: {seated}  -> seat {winner}")
                leader = winner
            replay_lines(deal, stage.display, "\n".join(text), difficult)
