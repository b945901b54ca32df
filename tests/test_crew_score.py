"""The hidden-information crew on a special mission: each card weighed by the mean best score of its samples.

Journey's special missions score "one step for each trick containing no 1 and no 2, minus 5/2/0 for 3/4/5
players" and "one step for each crew member who wins a pink card, minus 1"; "0 steps counts as a failure". On
random small deals and positions, a card's total over the samples (crew.score_shares) is the sum of the best
scores a brute-force search over every legal completion of play reaches after it on each sample; a pass on the
helicopter likewise (against a linear search for each sample's best score). A game is played to its last trick,
and its score is its scoring events counted by hand less the deduction; `crew play` prints it beside the best
score with every hand seen, and each pass with its mean best score.
"""

import json
import random
import sqlite3
from dataclasses import replace

import jsonschema
from click.testing import CliRunner
from conftest import small_deals
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from test_crew_sweep import SCHEMA
from test_heli_worlds import heli_games

from cli.main import main
from solver.api import PlayRequest, SolveRequest, play
from solver.core.cards import TRUMPS, bit, card_set, popcount, scan
from solver.core.rules import legal_plays, num_tricks, trick_winner
from solver.core.solution import Limits, Outcome
from solver.engines.crew import GameTables, best_raced, decision_deals, leader_scores, score_shares
from solver.engines.crew_passes import own_cards, pass_options, scored_options
from solver.engines.kernel import KernelSolver
from solver.engines.realistic import Scoring, play_game
from solver.engines.reference import solve as reference_solve
from solver.engines.reference import walk
from solver.engines.score import most_events
from solver.missions.mission import find_mission
from solver.missions.position import Position, TrickChoices
from solver.missions.setup import Setup, events_so_far, mission_setups
from solver.trick.variants import PlayRules

SPECIAL = ("journey/no-1-no-2", "journey/pink-for-everyone")
KERNEL = KernelSolver(tt_bits=16)


def events(mission, tricks) -> int:
    """Scoring events of finished tricks ((leader, cards, winner) each), by the missions' words."""
    if mission.score.each == "trick":
        return sum(not sum(bit(c) for c in cards) & mission.score.trick.without for _, cards, _ in tricks)
    return len({winner for _, cards, winner in tricks if sum(bit(c) for c in cards) & mission.score.won})


def best_events(hands, leader: int, trick, tricks, mission) -> int:
    """The most events any legal completion of play reaches from here (plain rules: follow suit if you can)."""
    players = len(hands)
    if not any(hands) and not trick:
        return events(mission, tricks)
    seat = (leader + len(trick)) % players
    best = -1
    for c in scan(legal_plays(hands[seat], list(trick))):
        after = list(hands)
        after[seat] &= ~bit(c)
        played = (*trick, c)
        if len(played) == players:
            winner = (leader + trick_winner(0, list(played), players)) % players
            best = max(best, best_events(after, winner, (), (*tricks, (leader, played, winner)), mission))
        else:
            best = max(best, best_events(after, leader, played, tricks, mission))
    return best


def position_of(deal, plays):
    """The tricks played and the trick begun, from the deal's hands (plain rules)."""
    hands, leader, trick, tricks = list(deal.hands), deal.commander, (), []
    for c in plays:
        seat = (leader + len(trick)) % deal.players
        hands[seat] &= ~bit(c)
        trick = (*trick, c)
        if len(trick) == deal.players:
            winner = (leader + trick_winner(0, list(trick), deal.players)) % deal.players
            tricks.append((leader, trick, winner))
            leader, trick = winner, ()
    return hands, leader, trick, tricks


@settings(max_examples=40, deadline=None)
@given(small_deals(min_players=3, max_players=4, min_cards=2, max_cards=3, extra_card=False),
       st.sampled_from(SPECIAL), st.data())
def test_a_card_scores_the_best_each_sample_allows_after_it(deal, name, data):
    mission = find_mission(name)
    base = mission_setups(mission, deal, [], None, 0)[0].mission
    plays = ()
    for _ in range(data.draw(st.integers(0, popcount(deal.cards) - 2), label="plays")):
        walked = walk(deal, Position(plays).on(base), to_the_end=True)
        if walked.ended or not walked.legal:
            break
        plays += (data.draw(st.sampled_from(list(scan(walked.legal))), label="card"),)
    walked = walk(deal, Position(plays).on(base), to_the_end=True)
    assume(popcount(walked.legal) >= 2)
    samples = decision_deals(deal, base, walked, plays, (), 3, random.Random(data.draw(st.integers(0, 99))))
    deduction = data.draw(st.integers(0, 1), label="deduction")  # the rules' 5 or 2 would leave small deals at 0
    def shares_with(solve):
        return score_shares(samples, lambda e: [s.mission for s in mission_setups(mission, deal, [], None, e)],
                            lambda sampled: most_events(mission, sampled), deduction, Position(plays), walked, solve,
                            Limits())

    shares = shares_with(reference_solve)
    assert shares_with(GameTables(KERNEL)) == shares  # the kernel, one table a game, as the crew plays
    for share in shares:
        expected = 0
        for sample in samples:
            hands, leader, trick, tricks = position_of(sample.deal, (*plays, share.card))
            expected += max(0, best_events(hands, leader, trick, tricks, mission) - deduction)
        assert (share.wins, share.samples) == (expected, len(samples))


def linear_best(mission, scoring, sample, positions) -> int:
    """The best score `sample` allows from one of `positions`, by the reference and a linear search over the events
    (scoring.missions_for, its deduction), for the tests of crew.best_score's binary search."""
    reached = [e for e in range(scoring.deduction, most_events(mission, sample.deal) + 1)
               if any(reference_solve(sample.deal, sample.on(position.on(m))).outcome is Outcome.WIN
                      for m in scoring.missions_for(e) for position in positions)]
    return max(reached) - scoring.deduction if reached else 0


@settings(max_examples=15, deadline=None)
@given(heli_games(), st.sampled_from(SPECIAL), st.data())
def test_a_pass_on_a_special_mission_is_weighed_by_the_best_score_each_sample_allows_after_it(game, name, data):
    # The helicopter: "each crew member passes 1 card to the left ... after the trick" holding a heli. On a special
    # mission a seat weighs each card it may pass as a card to play is: the sum over its samples of the best score
    # left after it. Here against a linear search for that best score, by the reference, and the kernel alike.
    deal, mission = game[0], find_mission(name)
    heli = PlayRules(heli_pass=TRUMPS)
    base = replace(mission_setups(mission, deal, [], None, 0)[0].mission, space=heli)
    plays = ()
    while True:
        walked = walk(deal, Position(plays).on(base), to_the_end=True)
        if walked.due or walked.ended or not walked.legal:
            break
        plays += (data.draw(st.sampled_from(list(scan(walked.legal))), label="card"),)
    assume(walked.due == "a pass")
    seat = data.draw(st.integers(0, deal.players - 1), label="seat")
    samples = decision_deals(deal, base, walked, plays, (), 3, random.Random(data.draw(st.integers(0, 99))), seat=seat)
    deduction = data.draw(st.integers(0, 1), label="deduction")
    scoring = Scoring(lambda e: [replace(s.mission, space=heli) for s in mission_setups(mission, deal, [], None, e)],
                      lambda sampled: most_events(mission, sampled), deduction, None)
    options = pass_options(walked.hands[seat], 0, 1)
    moved = {cards: Position(plays).choose(TrickChoices(passed=own_cards(cards, seat, deal.players)),
                                           len(walked.tricks)) for cards in options}
    tallies = scored_options(options, moved, samples, scoring, reference_solve, Limits())
    assert scored_options(options, moved, samples, scoring, GameTables(KERNEL), Limits()) == tallies

    totals = {cards: sum(linear_best(mission, scoring, sample, [moved[cards]]) for sample in samples) for cards in options}
    for cards, (total, tried) in tallies.items():
        assert tried < len(samples) or total == totals[cards]  # an option out of the race could not lead
    best = best_raced(options, tallies)
    assert totals[best] == max(totals.values()) and best == next(o for o in options if totals[o] == totals[best])


@settings(max_examples=15, deadline=None)
@given(small_deals(min_players=3, max_players=4, min_cards=2, max_cards=3, extra_card=False),
       st.sampled_from(SPECIAL), st.integers(0, 3), st.integers(0, 2**16))
def test_on_a_special_mission_the_sled_s_driver_weighs_best_scores(deal, name, driver, seed):
    # The rulebook's Dog sled: the driver "may also decide, before each trick, whether they want to open it". On a
    # special mission it opens with its best card only when its samples' best scores after that card sum to more
    # than after the leader's lead; else the leader leads one of its own cards. The kernel plays the reference's game.
    mission = find_mission(name)
    driver = (deal.commander + 1 + driver % (deal.players - 1)) % deal.players  # not trick 1's leader: it weighs
    sled = PlayRules(sled=driver)
    scoring = Scoring(lambda e: [replace(s.mission, space=sled) for s in mission_setups(mission, deal, [], None, e)],
                      lambda sampled: most_events(mission, sampled), 0, lambda tricks: events_so_far(mission, deal, tricks))
    setups = [Setup("", scoring.missions_for(0)[0])]
    game = play_game(deal, setups, samples=2, seed=seed, limits=Limits(), scoring=scoring)
    assert play_game(deal, setups, samples=2, seed=seed, solve=GameTables(KERNEL), limits=Limits(),
                     scoring=scoring) == game
    weighed = [(decision, trick) for decision, trick in zip(game.decisions[:: deal.players], game.walked.tricks)
               if decision.sled is not None]
    assert weighed  # before trick 1 at least
    for decision, trick in weighed:
        opened = max(s.wins for s in decision.sled.shares) > decision.sled.leader_wins
        assert trick.leader == (driver if opened else decision.seat) and (decision.seat == driver) == opened
        assert opened or not bit(trick.cards[0]) & deal.hands[driver]  # the leader leads its own card


@settings(max_examples=20, deadline=None)
@given(small_deals(min_players=3, max_players=4, min_cards=2, max_cards=3, extra_card=False),
       st.sampled_from(SPECIAL), st.data())
def test_the_leader_s_lead_scores_the_best_of_its_cards_in_each_sample(deal, name, data):
    # What the sled's driver weighs its cards against: in each sample, the best score after some card the leader
    # holds there (crew.leader_scores), summed; here against a linear search by the reference.
    mission = find_mission(name)
    scoring = Scoring(lambda e: [s.mission for s in mission_setups(mission, deal, [], None, e)],
                      lambda sampled: most_events(mission, sampled), data.draw(st.integers(0, 1), label="deduction"),
                      None)
    plays = ()
    for _ in range(data.draw(st.integers(0, num_tricks(deal.hands) - 1), label="tricks") * deal.players):
        walked = walk(deal, Position(plays).on(scoring.missions_for(0)[0]), to_the_end=True)
        plays += (data.draw(st.sampled_from(list(scan(walked.legal))), label="card"),)
    walked = walk(deal, Position(plays).on(scoring.missions_for(0)[0]), to_the_end=True)
    seat = data.draw(st.integers(0, deal.players - 1), label="seat")
    samples = decision_deals(deal, scoring.missions_for(0)[0], walked, plays, (), 3, random.Random(1), seat=seat)
    total = leader_scores(samples, scoring.missions_for, scoring.most_for, scoring.deduction, Position(plays), walked,
                          reference_solve, Limits())
    leader, gone = walked.to_move, card_set(plays)
    assert total == sum(linear_best(mission, scoring, sample, [Position(plays).then(c) for c in
                                                                 scan(sample.deal.hands[leader] & ~gone)])
                        for sample in samples)


def test_a_special_game_is_played_out_and_scored():
    for seed, name, players in [(3, SPECIAL[0], 4), (3, SPECIAL[1], 3), (5, SPECIAL[0], 5), (4, SPECIAL[1], 5)]:
        mission = find_mission(name)
        request = SolveRequest(mission=name, players=players, seed=seed, engine="kernel")
        answer = play(PlayRequest(request, samples=4, crew_seed=seed))
        game = answer.game
        tricks = [(t.leader, t.cards, t.winner) for t in game.walked.tricks]
        assert len(tricks) == num_tricks(answer.deal.hands) and game.walked.ended == "ended after the last trick"
        assert game.score == max(0, events(mission, tricks) - mission.score.deduction_for(players))
        assert game.outcome is (Outcome.WIN if game.score > 0 else Outcome.LOSS)
        assert answer.best.exact and game.score <= answer.best.score  # no crew beats every hand seen


def test_crew_play_prints_the_scores():
    args = ["play", "--mission", "journey/no-1-no-2", "--players", "4", "--seed", "3", "--samples", "2"]
    text = CliRunner().invoke(main, args)
    assert text.exit_code == 0, text.output
    body = json.loads(CliRunner().invoke(main, [*args, "--json"]).stdout)
    outcome = "WIN" if body["score"] > 0 else "LOSS"
    assert text.stdout.splitlines()[-1] == (f"result: score {body['score']} ({outcome}); perfect information: best "
                                            f"score {body['perfect_score']}")
    assert body["perfect_score_exact"] and body["result"] == outcome.lower()


def test_crew_play_weighs_a_special_mission_s_passes_by_their_mean_best_score():
    # Each seat's pass is printed with the mean best score of its samples after it (--json: their total and count).
    for mission, space in (("journey/no-1-no-2", "helicopter"), ("journey/pink-for-everyone", "jeep")):
        args = ["play", "--mission", mission, "--players", "4", "--space", space, "--seed", "3", "--samples", "2"]
        text = CliRunner().invoke(main, args)
        assert text.exit_code == 0, text.output
        body = json.loads(CliRunner().invoke(main, [*args, "--json"]).stdout)
        lines = [line for line in text.stdout.splitlines() if line.startswith(f"  then the {space}: ")]
        if space == "jeep":
            made = [[(c["seat"], next(o for o in c["pairs"] if o["pair"] == c["put"])) for c in body["jeep"]]]
        else:
            made = [[(c["seat"], next(o for o in c["cards"] if o["card"] == c["passed"])) for c in heli["passes"]]
                    for heli in body["helicopter"]]
        assert len(lines) == len(made) >= 1
        for line, choices in zip(lines, made):
            for seat, chosen in choices:
                assert f"seat {seat} " in line and f"({chosen['wins'] / chosen['samples']:.2f}, " in line
        assert body["perfect_score_exact"] and body["score"] <= body["perfect_score"]


def test_a_sweep_stores_the_crew_s_scores_as_crew_play_plays_them(tmp_path):
    args = ["--game", "journey", "--missions", "no-1-no-2,pink-for-everyone", "--players", "3", "--deals", "3",
            "--samples", "2", "--crew", "realistic", "--seed", "5", "--jobs", "1", "--out", tmp_path / "out"]
    result = CliRunner().invoke(main, ["sweep", *args])
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert list(jsonschema.Draft202012Validator(SCHEMA).iter_errors(summary)) == []
    with sqlite3.connect(tmp_path / "out" / "results.db") as db:
        rows = db.execute("SELECT mission, deal_index, crew_score, crew_result FROM deals").fetchall()
    for cell in summary["cells"]:
        mine = [(index, score, won) for name, index, score, won in rows if name == cell["mission"]]
        assert sum(cell["crew_scores"].values()) == cell["crew_games"] == len(mine) == 3
        assert cell["crew_wins"] == sum(score > 0 for _, score, _ in mine)
        assert all((won == "win") == (score > 0) for _, score, won in mine)
        line = f"crew scores {cell['mission']} 3p (mean "
        assert any(text.startswith(line) for text in result.stdout.splitlines())
    name, index, score, _ = rows[0]
    body = json.loads(CliRunner().invoke(main, ["play", "--cell", name, "--players", "3", "--index", str(index),
                                                "--seed", "5", "--samples", "2", "--crew-seed", str(5 << 32 | index),
                                                "--json"]).stdout)
    assert body["score"] == score  # the same game: its seeds are the sweep's
    shown = CliRunner().invoke(main, ["show", str(tmp_path / "out"), name, str(index), "--players", "3"]).stdout
    assert f"realistic crew: {'WIN' if score else 'LOSS'} (score {score}, " in shown
