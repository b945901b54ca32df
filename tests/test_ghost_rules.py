"""Two players, by hand: the Ghost (JARVIS) in mission 12's random pass, in the distress signal, and
in individual missions.

Our readings (solver/trick/chance.py, solver/engines/distress.py, solver/missions/setup.py; docs/missions.md "Two players"):
- the random pass: he gives a face-up card, drawn at random among his face-up cards (the first of
  them in the pass ordering), and the card he gets takes the place of the one he gave, as the
  rulebook's table says for the Ghost on the Vespa ("If Ghost gives up a card, the received card is
  placed in the vacated spot") and on the fog/helicopter row ("Ghost may only pass on face-up
  cards. He places the received card in the vacated spot");
- the distress signal: "Everyone passes one non-rocket card" and "JARVIS counts as a third crew
  member", so he passes too, a face-up card of the crew's choice, laid out the same way;
- individual missions: "each of you takes a communication tile ... Your Guide then chooses one crew
  member from among all those with a green tile"; the Ghost has no tile ("You only have 2
  communication tiles available"), so he never takes the mission.

Deals are written `HAND | HAND | FACE-UP / FACE-DOWN` (tests/test_ghost.py); seats play 0, 1, Ghost;
without r4 seat 0 leads trick 1; no trump is dealt, so the highest card of the led suit wins.
"""

from dataclasses import replace

import pytest
from click.testing import CliRunner
from conftest import check_witness, deals_and_missions, missions_with_conditions, small_deals, solve_on_stage
from hypothesis import given, settings
from hypothesis import strategies as st

from cli.main import main
from solver.core.cards import CARD_COUNT, card_set, format_card, parse_card, parse_card_list, popcount, scan
from solver.core.solution import Outcome
from solver.engines import reference
from solver.engines.cases import TableSharing
from solver.engines.distress import distress_passes, solve_with_distress
from solver.engines.kernel import KernelSolver
from solver.missions.mission import parse_missions
from solver.missions.setup import Setup, mission_setups
from solver.missions.stage import Stage, space_cases
from solver.missions.tasks import make_task_mission
from solver.trick.chance import RandomPass
from solver.trick.ghost import GHOST_SEAT, parse_ghost_deal
from solver.trick.variants import PlayRules

W, L = Outcome.WIN, Outcome.LOSS
KERNEL = KernelSolver(tt_bits=16)
ENGINES = {"reference": reference.solve, "kernel": KERNEL.solve}


def cards(text: str) -> int:
    return card_set(parse_card_list(text))


def ordering(first: str) -> tuple[int, ...]:
    """A pass ordering that starts with the cards `first`, then the rest of the deck in card order."""
    head = parse_card_list(first)
    return tuple(head + [c for c in range(CARD_COUNT) if c not in head])


# --- mission 12's random pass ---------------------------------------------------------------------

def test_the_ghost_gives_his_first_face_up_card_and_the_card_he_gets_lies_in_its_place():
    # Columns p5/p7 and b7/p4; b7 has been played, so p4 lies face up and p7 under p5. The
    # ordering starts with p7: a face-down card does not exist for the pass, so the Ghost gives p4
    # (the first of p5, p4 in the ordering after p7), and seat 1's g1 takes p4's place.
    display = tuple(parse_card_list("p5 b7 p7 p4"))
    hands = (cards("b1 b6"), cards("p3 g1"), cards("p5 p7 p4"))
    chance = RandomPass(1, ordering("p7 p4 g1 b1"))
    assert chance.given(hands, GHOST_SEAT, display) == tuple(parse_card_list("b1 g1 p4"))
    after, shown = chance.apply(hands, GHOST_SEAT, display)
    assert after == (cards("b6 p4"), cards("p3 b1"), cards("p5 p7 g1"))
    assert shown == tuple(parse_card_list("p5 b7 p7 g1"))
    # Without the Ghost the same ordering takes p7 from an ordinary hand.
    assert chance.given(hands)[GHOST_SEAT] == parse_card("p7")


def test_the_card_the_ghost_gets_covers_the_card_under_the_one_he_gave():
    # Columns p5/p7 and b7/p4. He gives p5 and gets g1, which lies over p7: p7 stays face down.
    display = tuple(parse_card_list("p5 b7 p7 p4"))
    hands = (cards("b1 b6"), cards("p3 g1"), cards("p5 p7 p4"))
    after, shown = RandomPass(1, ordering("p5 g1 b1")).apply(hands, GHOST_SEAT, display)
    assert shown == tuple(parse_card_list("g1 b7 p7 p4"))
    assert after[GHOST_SEAT] == cards("g1 p7 p4")


# Seat 0 must win p7, which lies under p5. Seat 0 holds only blues and leads trick 1: seat 1 follows
# with b4 and the Ghost must play b7, his only face-up blue; seat 0 wins with b9 (b6 or b1 lets the
# Ghost win). Then p4 lies face up, p7 under p5. The ordering makes the Ghost give p5 to seat 0 and
# seat 0 give b1 to seat 1.
RANDOM_PASS_DEAL = "b1 b6 b9 | p3 b4 g1 | p5 b7 / p7 p4"
RANDOM_PASS_CASES = [
    # Seat 1 gives g1, which lies where p5 lay, over p7; seat 0 ends with p5 and b6 or b9.
    # - b9 in trick 1, seat 0 (b6 p5) leads trick 2. b6: seat 1 follows with b1, the Ghost, void
    #   in blue, discards g1 or p4 (p7 lies face down); in trick 3 seat 0 leads p5 and the Ghost
    #   plays p7, which beats it, or p4 (p7 never played), or g1 still covers p7. p5: the Ghost
    #   must follow with p4, his only face-up pink, seat 0 wins, and g1 still covers p7.
    # - b6 or b1 in trick 1: the Ghost wins with b7 and leads g1 (he wins it; then p7, which
    #   beats seat 0's p5, or p4, and p7 stays) or p4 (seat 0 wins with p5; g1 still covers p7).
    # LOSS. (Were the card he gets laid anywhere else, p7 would lie face up after trick 1, and the
    # Ghost would discard it on seat 0's b6.)
    ("p5 g1 b1", L),
    # Seat 1 gives p3, which lies over p7. Seat 0 (b6 p5) leads p5, the Ghost must follow with p3
    # (the crew picks p3), seat 0 wins; with p3 gone p7 lies face up, and on seat 0's b6 in trick 3
    # the Ghost, void in blue, discards p7 (seat 1 follows with b1 or discards g1): seat 0 wins p7. WIN.
    ("p5 p3 b1", W),
]


@pytest.mark.parametrize("first, expected", RANDOM_PASS_CASES)
def test_random_pass_with_the_ghost(first, expected):
    deal, display = parse_ghost_deal(RANDOM_PASS_DEAL, commander=0)
    mission = make_task_mission(deal, parse_card_list("p7"), owners=[0],
                                random_pass=RandomPass(1, ordering(first)))
    for difficult in (False, True):  # the WIN never lets the Ghost lead; the difficult one only has fewer leads
        solutions = solve_on_stage(deal, [Setup("", mission)], Stage(display=display, difficult=difficult), ENGINES)
        assert solutions["reference"].outcome is expected


def test_cli_mission_12_with_the_difficult_ghost_does_not_crash():
    # Regression: the card JARVIS got in the random pass was in no place of his display, and the
    # difficult Ghost's leads looked its place up after he won a trick with it (a traceback).
    deal = ("b4 b5 b6 b8 g2 g4 g5 y1 y5 r1 r2 r3 r4 | p1 p5 b2 b3 b7 b9 g3 g7 g9 y2 y4 y7 y9 | "
            "y8 y3 b1 g8 p3 p7 p9 / p4 y6 p6 p8 p2 g6 g1")
    for engine in ("reference", "kernel"):
        for seed in (9, 10, 11):  # the seeds' task draws that crashed
            result = CliRunner().invoke(main, ["solve", "--deal", deal, "--mission", "planet-nine/12", "--seed",
                                               str(seed), "--difficult-ghost", "--engine", engine, "--budget", "5"])
            assert result.exit_code == 0, result.output
            lines = result.output.splitlines()
            passes = [line for line in lines if line.startswith("random pass: ")]
            if lines[0].startswith("WIN"):
                assert len(passes) == 1 and "seat 2 gives" in passes[0]
                assert any(line.startswith("ghost: ") and " lies where " in line for line in lines)


@st.composite
def random_passes(draw, deal):
    """A random pass after some trick but the last, with any ordering of the deck."""
    after = draw(st.integers(1, max(1, min(popcount(hand) for hand in deal.hands[:2]) - 1)), label="after")
    return RandomPass(after, tuple(draw(st.permutations(range(CARD_COUNT)), label="ordering")))


@st.composite
def ghost_rules(draw, deal, space: str):
    """The Ghost at a seat holding an even number of cards (his display), normal or difficult, and
    maybe a helicopter rule (its passes after the random pass's trick exercise both together)."""
    seat = draw(st.sampled_from([s for s, hand in enumerate(deal.hands) if popcount(hand) % 2 == 0]))
    display = tuple(draw(st.permutations(list(scan(deal.hands[seat]))), label="display"))
    rules = PlayRules(ghost=seat, display=display, difficult=draw(st.booleans(), label="difficult"))
    if space == "helicopter":
        triggers = draw(st.sets(st.sampled_from(list(scan(deal.cards))), min_size=1, max_size=2))
        rules = replace(rules, heli_pass=sum(1 << c for c in triggers))
    return rules


def agree_and_replay(deal, mission):
    """Both engines answer (neither crashes), agree, and every WIN replays by hand."""
    solve_on_stage(deal, [Setup("", mission)], Stage(), ENGINES)


@pytest.mark.parametrize("space", ["train", "helicopter"])
def test_random_ghost_positions_after_a_random_pass(space):
    @settings(max_examples=150 if space == "train" else 80)
    @given(deals_and_missions(min_players=3, max_players=3, extra_card=True, capped=False,
                              max_cards=5 if space == "train" else 4).flatmap(
        lambda case: st.tuples(st.just(case), ghost_rules(case[0], space), random_passes(case[0]))
    ))
    def check(drawn):
        (deal, mission), rules, chance = drawn
        agree_and_replay(deal, replace(mission, space=rules, random_pass=chance))

    check()


def test_random_ghost_positions_after_a_random_pass_with_trick_conditions():
    @settings(max_examples=100)
    @given(small_deals(min_players=3, max_players=3, extra_card=True, capped=False, max_cards=4).flatmap(
        lambda deal: st.tuples(st.just(deal), missions_with_conditions(deal), ghost_rules(deal, "train"),
                               random_passes(deal))
    ))
    def check(drawn):
        deal, mission, rules, chance = drawn
        agree_and_replay(deal, replace(mission, space=rules, random_pass=chance))

    check()


# --- the distress signal with JARVIS --------------------------------------------------------------

def test_jarvis_passes_a_face_up_card_in_the_distress_signal():
    # Columns p5/p7 and b7/p4: his face-up cards are p5 and b7, so he passes one of them (never
    # p7 or p4), and the card he gets (seat 1's to the left, seat 0's to the right) lies where it lay.
    deal, display = parse_ghost_deal("b1 b6 b2 | p3 g1 g2 | p5 b7 / p7 p4", commander=0)
    passes = list(distress_passes(deal, display))
    assert len(passes) == 2 * 3 * 3 * 2
    for description, passed, shown in passes:
        (gave,) = scan(deal.hands[GHOST_SEAT] & ~passed.hands[GHOST_SEAT])
        (got,) = scan(passed.hands[GHOST_SEAT] & ~deal.hands[GHOST_SEAT])
        assert gave in parse_card_list("p5 b7")
        assert deal.hands[1 if "to the left" in description else 0] >> got & 1
        assert shown == tuple(got if c == gave else c for c in display)
        assert description.endswith(f"({format_card(got)} lies where {format_card(gave)} lay)")


# One trick; seat 0 leads; seat 1 must win p9. The distress signal moves every card: to the left
# seat 0 -> seat 1 -> Ghost -> seat 0, to the right the other way round.
DISTRESS_CASES = [
    # p9 face up: without the signal the trick is p1 p5 p9 and the Ghost wins p9. To the right
    # JARVIS passes p9 to seat 1, seat 1 p5 to seat 0, and seat 0's p1 lies where p9 lay: the trick
    # is p5 p9 p1 and seat 1 wins p9. (To the left seat 0 gets p9 and wins it.) LOSS, then WIN.
    ("p1 | p5 | p9 / y1", L, W),
    # p9 face down under y1: it does not exist for play, nor for the pass, so JARVIS passes y1
    # either way and the card he gets lies over p9, which is never played. LOSS both ways. (Were
    # he allowed to pass p9, to the right seat 1 would win it: p5 p9 y1.)
    ("p1 | p5 | y1 / p9", L, L),
]


@pytest.mark.parametrize("deal_text, without, with_signal", DISTRESS_CASES)
def test_distress_signal_with_jarvis(deal_text, without, with_signal):
    deal, display = parse_ghost_deal(deal_text, commander=0)
    setups = [Setup("", make_task_mission(deal, parse_card_list("p9"), owners=[1]))]
    stage = Stage(display=display)
    assert solve_on_stage(deal, setups, stage, ENGINES)["reference"].outcome is without
    for engine in (reference.solve, TableSharing(KernelSolver(tt_bits=14))):
        solution, passed, passed_stage = solve_with_distress(deal, setups, engine, stage=stage)
        assert solution.outcome is with_signal
        if solution.outcome is W:
            assert solution.setup == "distress signal to the right: seat 0 gives p1, seat 1 gives p5, seat 2 gives p9 " \
                                     "(p1 lies where p9 lay)"
            assert passed_stage.display == tuple(parse_card_list("p1 y1"))
            (case,) = [c for c in space_cases(passed_stage, passed, setups)]
            check_witness(passed, case[2], solution)


def test_cli_distress_signal_with_jarvis():
    args = ["solve", "--deal", "p1 | p5 | p9 / y1", "--tasks", "p9", "--owners", "1", "--commander", "0", "--distress"]
    for engine in ("auto", "kernel", "reference"):
        result = CliRunner().invoke(main, [*args, "--engine", engine])
        assert result.exit_code == 0, result.output
        lines = result.output.splitlines()
        assert lines[0].startswith("without distress signal: LOSS")
        assert lines[1].startswith("with distress signal: WIN")
        assert lines[2] == "choices: distress signal to the right: seat 0 gives p1, seat 1 gives p5, seat 2 gives p9 " \
                           "(p1 lies where p9 lay)"
    face_down = CliRunner().invoke(main, ["solve", "--deal", "p1 | p5 | y1 / p9", *args[3:]])
    assert face_down.exit_code == 0 and face_down.output.splitlines()[1].startswith("with distress signal: LOSS")


def test_cli_distress_signal_with_a_stage_space_is_a_one_line_error():
    result = CliRunner().invoke(main, ["solve", "--deal", "p1 | p5 | p9 / y1", "--tasks", "p9", "--owners", "1",
                                       "--commander", "0", "--distress", "--space", "skis"])
    assert result.exit_code == 2
    assert "distress" in result.output and "space" in result.output and "Traceback" not in result.output


# --- individual missions with two players ---------------------------------------------------------

def individual(cards_text: str):
    """An individual Journey mission: the chosen crew member wins `cards_text`."""
    return parse_missions(
        'game = "journey"\n\n[[mission]]\nname = "m"\nkind = "individual"\n'
        'choose = [{ name = "X", by = "crew", among = "anyone" }]\n'
        f'rules = [{{ rule = "won-cards", who = "X", cards = "{cards_text}", at_least = 1 }}]\n', "test")["journey/m"]


# One trick; seat 0 leads. p9 face up: the trick is p1 p5 p9 and the Ghost wins all three cards.
# "X wins p9" is a LOSS: only the Ghost wins p9, and he takes no individual mission; "X wins p1" too.
# y1 over p9: the trick is p1 p5 y1, seat 1 wins it: X = seat 1 wins p1. WIN.
INDIVIDUAL_CASES = [("p1 | p5 | p9 / y1", "p9", L), ("p1 | p5 | p9 / y1", "p1", L), ("p1 | p5 | y1 / p9", "p1", W)]


@pytest.mark.parametrize("deal_text, won, expected", INDIVIDUAL_CASES)
def test_the_ghost_takes_no_individual_mission(deal_text, won, expected):
    deal, display = parse_ghost_deal(deal_text, commander=0)
    stage = Stage(display=display)
    setups = mission_setups(individual(won), deal, [], ghost=stage.ghost)
    assert [s.label for s in setups] == ["X = seat 0", "X = seat 1"]
    solutions = solve_on_stage(deal, setups, stage, ENGINES)
    assert solutions["reference"].outcome is expected
    if expected is W:
        assert solutions["reference"].setup == "X = seat 1"
    # Three players: the third seat is a crew member with a tile, and may take it.
    assert [s.label for s in mission_setups(individual(won), deal, [])][-1] == "X = seat 2"


def test_cli_individual_mission_with_two_players(tmp_path):
    path = tmp_path / "m.toml"
    path.write_text('game = "journey"\n\n[[mission]]\nname = "m"\nkind = "individual"\n'
                    'choose = [{ name = "X", by = "crew", among = "anyone" }]\n'
                    'rules = [{ rule = "won-cards", who = "X", cards = "p9", at_least = 1 }]\n')
    result = CliRunner().invoke(main, ["solve", "--deal", "p1 | p5 | p9 / y1", "--commander", "0", "--mission",
                                       "journey/m", "--mission-file", str(path)])
    assert result.exit_code == 0 and result.output.startswith("LOSS"), result.output


def test_crew_spaces_says_which_ghost_rules_are_the_rulebooks_and_which_are_ours():
    # The rulebook's table has rows for the Vespa, the skis, the "Dragonflier" and the fog; the
    # hang glider, the dog sled, the machete and fog's deal with the Ghost are our readings.
    result = CliRunner().invoke(main, ["spaces"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    rows = {space.split()[0]: line for space, line in zip(lines, lines[1:]) if line.lstrip().startswith("with the Ghost")}
    ours = {name for name, line in rows.items() if "(our reading: the rulebook is silent" in line}
    assert ours == {"machete", "hang-glider", "dog-sled", "fog"}
    assert all("rulebook" in line for line in rows.values())
    machete = next(line for line in result.output.splitlines() if line.startswith("machete"))
    assert "placeholder" in machete
