"""The hidden-information crew drafts Deep Sea's task cards one at a time (solver/engines/realistic.py, "Setup"),
on random small deals against the reference."""

import json
import random
from dataclasses import replace

from click.testing import CliRunner
from conftest import small_deals
from hypothesis import given, settings
from hypothesis import strategies as st

from cli.main import main
from solver.core.deal import parse_deal
from solver.core.solution import Outcome
from solver.engines import reference
from solver.engines.crew import sampled_deals
from solver.engines.realistic import draft_cards, play_game
from solver.missions.knowledge import Knowledge
from solver.missions.mission import built_in_missions, drafted_cards
from solver.missions.setup import deep_sea_draft, mission_setups

MISSIONS = built_in_missions()
NUMBERED = sorted(int(name.split("/")[1]) for name, m in MISSIONS.items()
                  if m.kind == "task" and name.startswith("deep-sea/") and name.split("/")[1].isdigit())


@st.composite
def drafts_on_small_deals(draw):
    """Two or three Deep Sea cards drafted together on a small deal for their player counts."""
    numbers = draw(st.lists(st.sampled_from(NUMBERED), min_size=2, max_size=3, unique=True))
    mission = drafted_cards([MISSIONS[f"deep-sea/{n}"] for n in numbers])
    players = draw(st.sampled_from(mission.players))
    return mission, draw(small_deals(min_players=players, max_players=players, max_cards=3, capped=False))


def winnable(deal, missions) -> bool:
    return any(reference.solve(deal, m).outcome is Outcome.WIN for m in missions)


def holders_of(setup, names) -> dict[int, int]:
    """Return card index -> seat of a setup of drafted cards."""
    chosen = dict(setup.chosen)
    return {i: chosen[name] for i, name in enumerate(names)}


@settings(max_examples=60, deadline=None)
@given(drafts_on_small_deals())
def test_cards_together_are_the_mission_of_those_holders(case):
    # Every card drafted with the holders of a setup: as winnable as the setups of the whole mission with those
    # holders (each `any` rule's alternatives among them).
    mission, deal = case
    setups = mission_setups(mission, deal, [])
    draft = deep_sea_draft(mission, deal)
    assert [c.id for c in draft.cards] == list(mission.cards) and draft.names == tuple(c.name for c in mission.choose)
    for holders in {tuple(holders_of(s, draft.names).items()) for s in setups}:
        same = [s.mission for s in setups if tuple(holders_of(s, draft.names).items()) == holders]
        assert winnable(deal, draft.together(dict(holders))) == winnable(deal, same)


def test_a_card_that_is_not_the_captain_s_has_no_mission_held_by_the_captain():
    # Card 5: "Holder ≠ captain. At the end, holder's count < captain's count." (deep-sea-tasks.md)
    deal = parse_deal("b1 b2 | b3 b4 | b5 b6", commander=0)
    mission = drafted_cards([MISSIONS["deep-sea/5"], MISSIONS["deep-sea/1"]])
    draft = deep_sea_draft(mission, deal)
    assert draft.together({0: 0}) == () and draft.together({0: 1})
    assert deep_sea_draft(MISSIONS["deep-sea/5"], deal) is None  # one card: its holder a setup's choice


@settings(max_examples=40, deadline=None)
@given(drafts_on_small_deals(), st.integers(0, 2**16), st.integers(1, 3))
def test_each_seat_takes_the_card_that_keeps_the_cards_taken_winnable_in_most_samples(case, seed, samples):
    # Who takes which task: "captain first, then clockwise" (deep-sea-tasks.md), each player taking a card left
    # it may take and passing only when it may take none: the crew's draft, replayed on the same samples.
    mission, deal = case
    setups = mission_setups(mission, deal, [])
    draft = deep_sea_draft(mission, deal)
    left, picks = draft_cards(deal, setups, draft, samples, random.Random(seed), reference.solve, reference.Limits())
    rng, holders, turn = random.Random(seed), {}, deal.commander
    for pick in picks:
        while True:
            options = tuple((i, turn) for i in range(len(draft.names)) if i not in holders
                            and any(holders_of(s, draft.names) | holders == holders_of(s, draft.names)
                                    and holders_of(s, draft.names)[i] == turn for s in setups))
            if options:
                break
            turn = (turn + 1) % deal.players  # this seat may take no card left: it passes
        assert (pick.chooser, pick.seat, pick.options, pick.drafted) == (turn, turn, options, True)
        if len(options) > 1:
            known = Knowledge.before_play(deal, turn)
            deals = sampled_deals(known, (0,) * deal.players, deal.commander, samples, rng)
            won = [[winnable(d.deal, draft.together(holders | {i: turn})) for d in deals] for i, _ in options]
            wins = tuple(sum(row) for row in won)
            assert pick.task == options[wins.index(max(wins))][0]  # ties: the card drawn first
            # Raced: each option's wins on the samples it was solved on; the chosen one on every sample.
            assert pick.wins == tuple(sum(row[:n]) for row, n in zip(won, pick.tried))
            assert pick.tried[options.index((pick.task, turn))] == samples
        else:
            assert pick.wins == pick.tried == () and pick.task == options[0][0]
        holders[pick.task] = turn
        turn = (turn + 1) % deal.players
    assert sorted(holders) == list(range(len(draft.names)))
    assert left == [s for s in setups if holders_of(s, draft.names) == holders]


@settings(max_examples=15, deadline=None)
@given(drafts_on_small_deals(), st.integers(0, 2**16))
def test_a_game_drafts_then_chooses_among_the_setups_left(case, seed):
    mission, deal = case
    setups = mission_setups(mission, deal, [])
    draft = deep_sea_draft(mission, deal)
    game = play_game(deal, setups, samples=2, seed=seed, draft=draft)
    assert game.drafted == mission.cards
    holders = {pick.task: pick.seat for pick in game.picks}
    left = [s for s in setups if holders_of(s, draft.names) == holders]
    assert game.setup in left
    assert game.offered == (tuple(s.label for s in left) if len(left) > 1 else ())
    assert len(game.setup_wins) == len(game.offered)


def test_crew_play_prints_the_draft_before_the_tricks():
    runner = CliRunner()
    args = ["play", "--mission", "deep-sea/12+44", "--players", "4", "--seed", "1", "--samples", "2"]
    text = runner.invoke(main, args)
    assert text.exit_code == 0, text.output
    lines = text.output.splitlines()
    # The captain (seat 3) first; card 12 wins both samples, so card 44, raced after it, cannot beat it (ties: 12).
    assert lines[1] == "seat 3 takes card 12 (card 12 2/2, card 44 -)"
    assert lines[2] == "seat 0 takes card 44 (the only option)"
    assert lines[3] == "tasks: none" and lines[4].startswith("trick  1:")
    picks = json.loads(runner.invoke(main, [*args, "--json"]).output)["picks"]
    assert [(p["chooser"], p["task"]) for p in picks] == [(3, "deep-sea/12"), (0, "deep-sea/44")]


def test_the_draft_uses_the_mission_s_own_cards():
    # A mission file's cards need not be built in: the draft holds the cards the mission was made of.
    deal = parse_deal("b1 b2 | b3 b4 | b5 b6", commander=0)
    own = [replace(MISSIONS[f"deep-sea/{n}"], id=f"deep-sea/my-{n}") for n in (1, 12)]
    draft = deep_sea_draft(drafted_cards(own), deal)
    assert draft.cards == tuple(own) and draft.together({0: 1, 1: 2})
