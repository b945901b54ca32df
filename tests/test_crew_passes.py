"""The realistic crew's passes (solver/engines/crew_passes.py): the jeep's exchange (crew.py's `worlds_after_jeep`)
and the helicopter's passes (`worlds_after_heli`).

"Jeep. After the 3rd trick, each crew member places 2 cards face down in the middle of the table. Shuffle these
cards and each take 2 of them back. Communicated cards may not be taken this way." At every decision of a crew game
(here the exchange follows trick 1 or 2, to keep the deals small), each sample's deal, exchange and shuffle replay
the plays so far by the rules and give the deciding player exactly its hand, and after the exchange the pair it put
in and the two it took; before the exchange the samples' shuffles are their own (chance to come). No seat puts in a
card it has shown. The kernel, one table a game, plays the crew's jeep game that the reference plays; `crew play`
plays on the jeep and prints the exchange; the jeep with the Ghost is refused.

"Helicopter. ... If at least 1 heli is in the trick, each crew member passes 1 card to the left, simultaneously and
face down, after the trick. A communicated card may only be passed on by a player who has nothing but communicated
cards left." Likewise on the helicopter: every sample replays the plays with its own passes and gives the player
its hand and, in every pass, the card it passed and the one it got; no seat passes a card it has shown while it
holds another; the kernel plays the reference's games; `crew play` prints the passes; with the Ghost, refused.
"""

import json
from dataclasses import replace

import pytest
from click.testing import CliRunner
from crew_games import assert_the_kernel_plays_the_reference_game, every_sample, with_the_games_pass
from hypothesis import given, settings
from hypothesis import strategies as st
from test_heli_worlds import heli_games
from test_jeep_worlds import jeep_games

from cli.main import main
from solver.core.cards import CARD_COUNT, COLOURS, TRUMPS, card_set, scan, suit_of
from solver.core.solution import Limits
from solver.engines.crew import pass_gifts
from solver.engines.realistic import play_game
from solver.engines.reference import walk
from solver.missions.position import Position
from solver.missions.setup import Setup
from solver.missions.tasks import make_task_mission
from solver.trick.chance import RandomPass
from solver.trick.variants import PlayRules


@st.composite
def jeep_missions(draw):
    """A small deal with its exchange after trick 1 or 2 and its shuffle (test_jeep_worlds' `jeep_games`, its play
    dropped), and a mission of 1-2 tasks with owners."""
    deal, after, _, order, *_ = draw(jeep_games())
    cards = sorted(c for c in scan(deal.cards) if suit_of(c) in COLOURS)
    tasks = draw(st.lists(st.sampled_from(cards), min_size=1, max_size=2, unique=True), label="tasks")
    owners = [draw(st.integers(0, deal.players - 1), label="owner") for _ in tasks]
    return deal, replace(make_task_mission(deal, tasks, owners=owners),
                         space=PlayRules(jeep_after=after, jeep_order=order))


def talk(deal, mission) -> str:
    """The crew's communication rule in these small deals: normal where every hand keeps three cards or more to the
    exchange (a shown card and two to put in; the rules' deals keep five), else none before it."""
    left = min(bin(hand).count("1") for hand in deal.hands) - mission.space.jeep_after
    return "normal" if left >= 3 else f"silent-until-trick-{mission.space.jeep_after + 1}"


def took(passed, order, seat: int) -> int:
    """The cards `seat` took from the middle of an exchange (`passed` seat by seat) dealt by `order`."""
    return card_set(c for c, taker in zip(sorted(passed), order) if taker == seat)


def assert_the_exchange_seen(walked, seat: int, sample, space) -> bool:
    """Fail unless a sample after the jeep's exchange holds the pair `seat` put in and the two it took, and one before
    it a shuffle of the space's seats; return whether the sample's shuffle to come is its own."""
    if sample.passed:
        (after, put), = sample.passed
        true = walked.tricks[space.jeep_after - 1].passed
        assert after == space.jeep_after and put[2 * seat : 2 * seat + 2] == true[2 * seat : 2 * seat + 2]
        assert took(put, sample.jeep_order, seat) == took(true, space.jeep_order, seat)
        return False
    assert len(walked.tricks) <= space.jeep_after and sorted(sample.jeep_order) == sorted(space.jeep_order)
    return sample.jeep_order != space.jeep_order


@settings(max_examples=20, deadline=None)
@given(jeep_missions(), st.integers(0, 2**16))
def test_every_sample_of_a_jeep_game_replays_it_and_keeps_what_the_player_saw(problem, seed):
    deal, mission = problem
    space = mission.space
    game = play_game(deal, [Setup("", mission)], talk(deal, mission), samples=2, seed=seed, limits=Limits())
    for made in game.passes:  # "communicated cards may not be taken this way"
        for choice in made.choices:
            before = card_set(s.card for s in game.shown if s.seat == choice.seat and s.trick <= space.jeep_after)
            assert not card_set(choice.cards) & before
    own_shuffles = [assert_the_exchange_seen(walked, seat, sample, space)
                    for walked, seat, sample in every_sample(deal, mission, game)]
    assert any(own_shuffles)  # a shuffle of 6 or 8 cards the samples draw anew: all right has odds under 90^-6


@settings(max_examples=12, deadline=None)
@given(jeep_missions(), st.integers(0, 2**16))
def test_the_kernel_plays_the_jeep_game_the_reference_plays(problem, seed):
    # one table a game (GameTables): each sample's shuffle is in its mission's rules, so a table generation each
    deal, mission = problem
    setups = [Setup("", mission)]
    rule = talk(deal, mission)
    assert_the_kernel_plays_the_reference_game(deal, setups, rule, seed=seed)


def test_crew_play_on_the_jeep_with_and_without_the_ghost():
    args = ["play", "--mission", "planet-nine/10", "--players", "4", "--space", "jeep", "--seed", "3", "--samples", "4"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    exchange = next(line for line in result.stdout.splitlines() if line.startswith("  then the jeep: "))
    assert all(f"seat {seat} puts " in exchange for seat in range(4)) and "his controller lays" not in exchange
    # with the Ghost: "he puts two face-up cards in; the two he draws lie in their places, as the Scout chooses"
    args = ["play", "--mission", "journey/no-1-no-2", "--players", "2", "--space", "jeep", "--seed", "1", "--samples",
            "2"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    exchange = next(line for line in result.stdout.splitlines() if line.startswith("  then the jeep: "))
    jeep = json.loads(CliRunner().invoke(main, [*args, "--json"]).stdout)["jeep"]
    ghost = jeep[2]
    assert [entry.get("placed") is not None for entry in jeep] == [False, False, True]
    assert sorted(ghost["placed"]) == sorted(ghost["put"]) and len(ghost["orders"]) == 2
    laid = ", ".join(f"{new} where {old} lay" for old, new in zip(ghost["placed"], ghost["took"]))
    assert f"seat 2 puts {' '.join(ghost['put'])} in " in exchange and f"his controller lays {laid} (" in exchange


@st.composite
def heli_missions(draw, random_pass: bool = False):
    """A small deal with all four rockets (test_heli_worlds' `heli_games`, its play dropped) and a mission of 1-2
    tasks with owners, on the helicopter (with `random_pass`, mission 12's after trick 1 too)."""
    deal, *_ = draw(heli_games())
    cards = sorted(c for c in scan(deal.cards) if suit_of(c) in COLOURS)
    tasks = draw(st.lists(st.sampled_from(cards), min_size=1, max_size=2, unique=True), label="tasks")
    owners = [draw(st.integers(0, deal.players - 1), label="owner") for _ in tasks]
    mission = replace(make_task_mission(deal, tasks, owners=owners), space=PlayRules(heli_pass=TRUMPS))
    if random_pass:
        mission = replace(mission, random_pass=RandomPass(1, tuple(draw(st.permutations(range(CARD_COUNT)),
                                                                         label="order"))))
    return deal, mission


@pytest.mark.parametrize("random_pass", [False, True], ids=["helicopter", "with-the-random-pass"])
@settings(max_examples=15, deadline=None)
@given(data=st.data(), seed=st.integers(0, 2**16))
def test_every_sample_of_a_helicopter_game_replays_it_and_keeps_what_the_player_saw(random_pass, data, seed):
    # with mission 12's random pass too ("each player gives one card ... to the next player in turn order"): a
    # sample keeps the gift the player gave and the one it got
    deal, mission = data.draw(heli_missions(random_pass), label="problem")
    game = play_game(deal, [Setup("", mission)], samples=2, seed=seed, limits=Limits())
    mission = with_the_games_pass(mission, game)
    line = Position.of(game.mission)
    for made in game.passes:  # "a communicated card may only be passed on by a player who has nothing but ..."
        after = walk(deal, line.prefix(made.after * deal.players, deal.players).on(mission)).hands  # the pass made
        for choice, got in zip(made.choices, made.choices[-1:] + made.choices[:-1]):
            showing = card_set(s.card for s in game.shown if s.seat == choice.seat and s.trick <= made.after)
            hand = after[choice.seat] & ~card_set(got.cards) | card_set(choice.cards)  # its hand before the pass
            assert not card_set(choice.cards) & showing or not hand & ~showing
    for walked, seat, sample in every_sample(deal, mission, game):
        true = [(after, trick.passed) for after, trick in enumerate(walked.tricks, 1) if trick.passed]
        assert [after for after, _ in sample.passed] == [after for after, _ in true]
        for (_, gifts), (_, real) in zip(sample.passed, true):  # its own card and the one it got
            assert gifts[seat] == real[seat] and gifts[seat - 1] == real[seat - 1]
        if random_pass and walked.tricks:  # the gifts the sample's pass makes from its hands after trick 1
            first = card_set(walked.tricks[0].cards)
            gifts = sample.random_pass.given(tuple(hand & ~first for hand in sample.deal.hands))
            real = pass_gifts(deal, mission, walked)
            assert gifts[seat] == real[seat] and gifts[seat - 1] == real[seat - 1]


@pytest.mark.parametrize("random_pass", [False, True], ids=["helicopter", "with-the-random-pass"])
@settings(max_examples=10, deadline=None)
@given(data=st.data(), seed=st.integers(0, 2**16))
def test_the_kernel_plays_the_helicopter_game_the_reference_plays(random_pass, data, seed):
    deal, mission = data.draw(heli_missions(random_pass), label="problem")
    setups = [Setup("", mission)]
    assert_the_kernel_plays_the_reference_game(deal, setups, seed=seed)


def test_crew_play_on_the_helicopter_with_four_players_and_with_the_ghost():
    args = ["play", "--mission", "planet-nine/10", "--players", "4", "--space", "helicopter", "--seed", "7",
            "--samples", "4"]  # a game that lasts past two tricks holding a heli card
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    passes = [line for line in result.stdout.splitlines() if line.startswith("  then the helicopter: ")]
    assert passes and all(f"seat {seat} passes " in line for line in passes for seat in range(4)), passes
    result = CliRunner().invoke(main, [*args, "--json"])
    heli = json.loads(result.stdout)["helicopter"]
    assert len(heli) == len(passes) and all(len(made["passes"]) == 4 for made in heli)
    # Two players: the Ghost passes too, a face-up card his controller chooses (ghost_knowledge.py: both players
    # see every card passed).
    result = CliRunner().invoke(main, ["play", "--mission", "journey/yellow-for-everyone", "--players", "2", "--space",
                                       "helicopter", "--seed", "3", "--samples", "4"])
    assert result.exit_code == 0, result.output
    passes = [line for line in result.stdout.splitlines() if line.startswith("  then the helicopter: ")]
    assert passes and all(f"seat {seat} passes " in line for line in passes for seat in range(3)), passes
