"""The hidden-information crew on mission 12's random pass (solver/engines/crew.py, realistic.py).

planet-nine.md, mission 12: "Right after trick 1 every player gives one card chosen uniformly at random from
his hand (his communicated card excluded) to the next player in turn order (left)". Each sample is a deal
with the pass it makes: before the pass a pass to come is drawn for it, after it a world of what the pass left
unknown (test_pass_worlds.py checks those worlds by enumeration). Here: every sample replays the game so far
as the seat it is drawn for saw it (the seat to move, or the dog sled's driver); the crew's game never gives a
card shown before trick 1; `crew play` and `crew sweep` play the mission, on the train and on the dog sled.
"""

import json
import random
from dataclasses import replace

import numpy as np
import pytest
from click.testing import CliRunner
from conftest import small_deals
from hypothesis import given, settings
from hypothesis import strategies as st
from test_crew import card_to_choose

from cli.main import main
from solver.core.cards import bit, card_set, parse_card, parse_cards, scan
from solver.core.deal import parse_deal
from solver.core.errors import InputError
from solver.core.solution import Limits, Outcome
from solver.engines.crew import GameTables, Sample, card_shares, decision_deals, shares_on
from solver.engines.kernel import KernelSolver
from solver.engines.realistic import play_game
from solver.engines.reference import solve as reference_solve
from solver.engines.reference import walk
from solver.missions.dealer import deal_mission
from solver.missions.knowledge import HIGHEST, Communication
from solver.missions.mission import find_mission
from solver.missions.pass_worlds import PassWorlds
from solver.missions.position import Position
from solver.missions.setup import Setup
from solver.missions.tasks import make_task_mission
from solver.trick.chance import RandomPass, draw_random_pass
from solver.trick.spaces import TRAIN
from solver.trick.variants import PlayRules

KERNEL = KernelSolver(tt_bits=16)


@st.composite
def games_with_a_pass(draw, after_the_pass: bool = False):
    """A small deal, a mission of one task with a random pass after trick 1, and legal plays (into trick 3 at
    most; `after_the_pass`: trick 1 played, unless the mission ended in it)."""
    deal = draw(small_deals(min_players=3, max_players=4, min_cards=3, max_cards=4, extra_card=False))
    random_pass = draw_random_pass(np.random.default_rng(draw(st.integers(0, 2**16))))
    task = draw(st.sampled_from([c for c in scan(deal.cards) if c < 36]))
    mission = make_task_mission(deal, [task], owners=[draw(st.integers(0, deal.players - 1))], random_pass=random_pass)
    position = Position()
    for _ in range(draw(st.integers(deal.players if after_the_pass else 0, deal.players * 2 + 1))):
        walked = walk(deal, position.on(mission))
        if walked.ended or not walked.legal:
            break
        position = position.then(draw(st.sampled_from(list(scan(walked.legal)))))
    return deal, mission, position


def assert_samples_replay_what_the_seat_saw(deal, mission, position, walked, seat, seed):
    """Every sample drawn for `seat` replays the game so far, with `seat`'s own hand as dealt and, after the pass,
    the card it gave and the one it got."""
    before_pass = len(walked.tricks) < 1
    for sample in decision_deals(deal, mission, walked, position.plays, (), 6, random.Random(seed), seat=seat):
        again = walk(sample.deal, position.on(sample.on(mission)))  # legal all the way: it raises otherwise
        assert again.hands[seat] == walked.hands[seat]
        assert again.legal == walked.legal or seat != walked.to_move  # another seat's legal cards: of its hand
        assert sample.deal.hands[seat] == deal.hands[seat]  # its own hand as dealt
        if not before_pass:
            played = card_set(c for c in walked.tricks[0].cards)
            true = mission.random_pass.given([h & ~played for h in deal.hands])
            sampled = sample.random_pass.given([h & ~played for h in sample.deal.hands])
            assert sampled[seat] == true[seat] and sampled[seat - 1] == true[seat - 1]  # gave and got, as seen


@settings(max_examples=40, deadline=None)
@given(games_with_a_pass(), st.integers(0, 2**16))
def test_every_sample_replays_the_game_as_the_seat_saw_it(game, seed):
    deal, mission, position = game
    walked = card_to_choose(deal, mission, position)
    if walked is not None:
        assert_samples_replay_what_the_seat_saw(deal, mission, position, walked, walked.to_move, seed)


@settings(max_examples=40, deadline=None)
@given(games_with_a_pass(after_the_pass=True), st.integers(0, 3), st.integers(0, 2**16))
def test_a_seat_not_to_move_samples_what_it_saw_not_what_the_seat_to_move_saw(game, seat, seed):
    # The dog sled's driver weighs its own cards before a trick another seat leads: on its samples, drawn from what
    # it knows after the pass (its own gift and the card it got), not from the seat to move's.
    deal, mission, position = game
    walked = card_to_choose(deal, mission, position)
    if walked is not None:
        assert_samples_replay_what_the_seat_saw(deal, mission, position, walked, seat % deal.players, seed)


@settings(max_examples=20, deadline=None)
@given(games_with_a_pass(), st.integers(0, 3), st.integers(0, 2**16))
def test_the_dog_sled_with_a_pass_the_kernel_plays_the_reference_s_game(game, driver, seed):
    # The rulebook's Dog sled: the driver "may also decide, before each trick, whether they want to open it"; the
    # pass after trick 1 moves one card a hand as on the train. The crew plays both, the driver weighing on its own
    # samples (above), and the kernel, one table a game, plays the game the reference plays.
    deal, mission, _ = game
    driver = (deal.commander + 1 + driver % (deal.players - 1)) % deal.players  # not trick 1's leader: it weighs
    setups = [Setup("", replace(mission, space=PlayRules(sled=driver)))]
    reference = play_game(deal, setups, samples=3, seed=seed, limits=Limits())
    assert any(decision.sled is not None for decision in reference.decisions)
    assert play_game(deal, setups, samples=3, seed=seed, solve=GameTables(KERNEL), limits=Limits()) == reference


@settings(max_examples=40, deadline=None)
@given(games_with_a_pass(), st.integers(0, 2**16))
def test_before_the_pass_every_card_is_solved_as_itself(game, seed):
    # "one card chosen uniformly at random from his hand": which card is left to give depends on its name, so
    # before the pass a lower card does not win and lose as the next higher one; after it, it does.
    deal, mission, position = game
    walked = card_to_choose(deal, mission, position)
    if walked is None:
        return
    deals = decision_deals(deal, mission, walked, position.plays, (), 3, random.Random(seed))
    shares = shares_on(deals, mission, position, walked, reference_solve, Limits())
    for share in shares:
        after = position.then(share.card).on(mission)
        assert share.wins == sum(reference_solve(d.deal, d.on(after), Limits()).outcome is Outcome.WIN for d in deals)


def test_before_the_pass_a_lower_card_is_not_the_higher_one():
    # Seat 0 leads p6 or p7, then gives the first card of the order it still holds: the order reaches p7, then p9,
    # then p6. Leading p6 it gives p7 to seat 1 and keeps p9; leading p7 it gives p9 and keeps p6. The two leads
    # are not interchangeable: p7 wins, p6 loses (task b6 for seat 1; p9 wins too).
    deal = parse_deal("p6 p7 p9 | b7 y2 y9 | b4 b6 g7", 0)
    order = ("b7 r1 b1 b8 g8 g3 p4 b5 p5 y6 g6 p7 g4 b3 y3 y1 b2 b6 p8 y8 r3 p2 b9 p1 y9 p9 g2 g9 p6 y4 r4 g5 g1 g7 "
             "y5 y2 b4 p3 r2 y7")
    random_pass = RandomPass(1, tuple(parse_card(c) for c in order.split()))
    mission = make_task_mission(deal, [parse_card("b6")], owners=[1], random_pass=random_pass)
    shares = shares_on([Sample(deal, random_pass)], mission, Position(), walk(deal, mission), reference_solve, Limits())
    assert {s.card: s.wins for s in shares} == {parse_card("p6"): 0, parse_card("p7"): 1, parse_card("p9"): 1}


def test_a_token_after_the_pass_bounds_the_hand_then_not_the_cards_played_before():
    # Seat 1 plays p9 after the pass, then shows p5 as its highest pink: "the highest ... card of that colour
    # in hand" then, so p9, already played, lies where seat 1's cards after the pass lie all the same.
    deal = parse_deal("b1 g1 y1 y2 y4 | b2 p9 p5 p4 g5 | b3 p3 y3 g2 p2", 0)
    tricks = [[(0, parse_card("b1")), (1, parse_card("b2")), (2, parse_card("b3"))],  # seat 2 wins
              [(2, parse_card("p3")), (0, parse_card("y1")), (1, parse_card("p9"))]]  # the pass: g1, g5, y3
    shown = (Communication(1, parse_card("p5"), HIGHEST, 3),)
    worlds = PassWorlds.of(0, tricks, parse_cards("y1 y2 y4"), parse_card("g1"), parse_card("y3"), (5, 5, 5), shown,
                           deal.cards)
    true_world = (parse_cards("y1 y2 y4"), parse_cards("p9 p5 p4"), parse_cards("p3 g2 p2"),
                  bit(parse_card("g1")), bit(parse_card("g5")), bit(parse_card("y3")))
    assert worlds.known.consistent(true_world) and worlds.known.count() > 0


def test_the_crew_never_gives_a_card_it_showed_before_trick_1():
    # The same deal played twice, the second time with the pass order listing first the cards the first game
    # showed before trick 1: the decisions up to the pass are the same (the samples' passes are drawn apart from
    # the true one), and a seat that showed a card gives the next card of the order it holds instead.
    game = deal_mission(find_mission("planet-nine/12"), TRAIN, 4, 1, 5)
    first = play_game(game.deal, game.setups(), samples=4, seed=2, solve=KERNEL.solve, limits=Limits(2_000))
    early = [s for s in first.shown if s.trick == 1]
    assert early and first.given
    order = tuple(s.card for s in early) + tuple(c for c in game.chance.order if c not in {s.card for s in early})
    moved = replace(game.chance, order=order)
    setups = [replace(s, mission=replace(s.mission, random_pass=moved)) for s in game.setups()]
    second = play_game(game.deal, setups, samples=4, seed=2, solve=KERNEL.solve, limits=Limits(2_000))
    assert second.shown[: len(early)] == tuple(early) and second.decisions[:4] == first.decisions[:4]
    trick_1 = card_set(second.walked.tricks[0].cards)
    for seat, hand in enumerate(game.deal.hands):
        showed = [s.card for s in early if s.seat == seat]
        held = [c for c in order if (hand & ~trick_1) >> c & 1 and c not in showed]
        assert second.given[seat] == held[0]


def test_crew_play_prints_the_pass_it_made():
    runner = CliRunner()
    args = ["play", "--mission", "planet-nine/12", "--players", "3", "--seed", "4", "--samples", "2"]
    text = runner.invoke(main, args)
    as_json = runner.invoke(main, [*args, "--json"])
    assert text.exit_code == 0 and as_json.exit_code == 0, text.output
    given = json.loads(as_json.stdout)["random_pass"]
    line = "  then the random pass: " + ", ".join(f"seat {seat} gives {card}" for seat, card in given.items())
    assert line in text.stdout.splitlines() and len(given) == 3


@pytest.mark.parametrize("space", ["train", "dog-sled"])
def test_a_crew_sweep_plays_mission_12(tmp_path, space):
    result = CliRunner().invoke(main, ["sweep", "--missions", "12", "--players", "3", "--deals", "2", "--samples", "2",
                                       "--crew", "realistic", "--space", space, "--jobs", "1", "--out",
                                       str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    (cell,) = json.loads((tmp_path / "out" / "summary.json").read_text())["cells"]
    assert cell["mission"] == "planet-nine/12" + ("" if space == "train" else f"@{space}") and cell["crew_games"] == 2


def test_a_pass_after_another_trick_is_refused():
    # What a player knows is worked out for a pass right after trick 1, the only one the logbook has.
    deal = parse_deal("p1 p2 | p3 p4 | p5 p6", 0)
    mission = make_task_mission(deal, [parse_card("p6")], owners=[2], random_pass=RandomPass(2, tuple(range(40))))
    with pytest.raises(InputError, match="a random pass after another trick than the first"):
        card_shares(deal, mission, Position())
