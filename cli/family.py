"""`crew family`: solve Family Adventure deals and list its missions."""

import json

import click

from solver.api import FamilySolveRequest, solve_family
from solver.core.solution import Limits
from solver.family.cards import card_label
from solver.family.deal import MAX_PLAYERS, MIN_PLAYERS, format_family_deal
from solver.family.engines import ENGINES
from solver.family.mission import (
    OBJECTIVE_CARDS,
    ROWS,
    FamilyMission,
    built_in_family_missions,
    describe_objectives,
    load_family_missions,
)
from solver.family.solution import FamilySolution, describe_turn


@click.group()
def family():
    """The Crew: Family Adventure (rows of colour cards, number after number or colour after colour)."""


@family.command()
@click.option("--mission", "mission_name",
              help="A mission such as family/1 (the default) or family/toolbox-grey (see crew family missions).")
@click.option("--mission-file", type=click.Path(), help="Look --mission up in this mission file.")
@click.option("--objectives", type=click.IntRange(0, OBJECTIVE_CARDS),
              help="Instead of --mission: 12 cards with this many random required cards, drawn from --seed.")
@click.option("--deal", "deal_text",
              help='Hands separated by "|", then "; specials 3 1 5 ; aside 2 4 6 ; shell 1" (and "; ghost ; first 0" '
              "for two players). Default: a deal drawn from --seed.")
@click.option("--players", type=click.IntRange(MIN_PLAYERS, MAX_PLAYERS), default=4, show_default=True,
              help="Players of the drawn deal (2: with the Ghost).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Seed of the drawn deal.")
@click.option("--engine", type=click.Choice(sorted(ENGINES)), default="auto", show_default=True,
              help="cpsat: the CP-SAT model; dfs: the plain depth-first search (the cross-check); auto: a "
              "short DFS, then CP-SAT.")
@click.option("--budget", type=click.FloatRange(min=0, min_open=True), help="Seconds of work before UNKNOWN (DFS positions and CP-SAT's deterministic time: docs/sweeps.md).")
@click.option("--fewest-hammocks", is_flag=True,
              help="Find a winning line with the fewest hammocks (with the CP-SAT model).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def solve(mission_name, mission_file, objectives, deal_text, players, seed, engine, budget, fewest_hammocks, as_json):
    """Decide whether a deal can win a mission; print the turns of a WIN."""
    answer = solve_family(FamilySolveRequest(
        mission=mission_name, mission_file=mission_file, objectives=objectives, deal=deal_text, players=players,
        seed=seed, engine=engine, fewest_hammocks=fewest_hammocks, limits=Limits(max_work=budget),
    ))
    if as_json:
        click.echo(json.dumps({"deal": format_family_deal(answer.deal), "mission": answer.mission.id,
                               "objectives": answer.mission.summary(), **answer.solution.to_json()}))
        return
    click.echo(report(answer.deal, answer.mission, answer.solution))


def report(deal, mission: FamilyMission, solution: FamilySolution) -> str:
    """Return the answer in lines: deal, mission, result, the turns and the rows of a WIN."""
    hammocks = mission.hammocks_for(deal.players)
    lines = [
        f"deal     {format_family_deal(deal)}",
        f"mission  {mission.id}: {mission.summary()} ({mission.cards} cards, {hammocks} hammocks"
        + (", no special cards)" if not mission.specials else ")"),
        f"{solution.outcome.value.upper()}  ({solution.engine}, {solution.seconds * 1000:.0f} ms, {solution.nodes:,} nodes)",
    ]
    lines += [f"  {number:2d}. {describe_turn(turn)}" for number, turn in enumerate(solution.turns, 1)]
    row = solution.row
    for r in range(3):
        cards = row[r * mission.row_length:(r + 1) * mission.row_length]
        if cards:
            lines.append(f"  {ROWS[r]:5s} row: " + "  ".join(card_label(c) for c in cards))
    return "\n".join(lines)


@family.command("missions")
@click.option("--mission-file", type=click.Path(), help="List the missions of this file instead.")
def list_missions(mission_file):
    """Print one line per mission: id, cards, rows, hammocks, objectives."""
    click.echo(missions_table(load_family_missions(mission_file) if mission_file else built_in_family_missions()))


def describe_mission(m: FamilyMission) -> str:
    """Return everything a mission says, one field a line."""
    lines = [
        f"mission        {m.id}" + (f"  ({m.title})" if m.title else ""),
        f"players        {', '.join(map(str, m.players))}",
        f"cards          {m.cards} in rows of {m.row_length}",
        f"hammocks       {'/'.join(map(str, m.hammocks))} for 3/4/5 players (2 players: the 3-player number)",
        f"special cards  {'yes' if m.specials else 'no'}",
    ]
    return "\n".join(lines + [f"objective      {part}" for part in describe_objectives(m)])


def missions_table(missions: dict[str, FamilyMission]) -> str:
    lines = [f"{'mission':26s} {'players':8s} {'cards':>5s}  {'hammocks':9s} objectives"]
    for m in missions.values():
        hammocks = "/".join(map(str, m.hammocks)) + ("" if m.specials else ", no specials")
        players = ",".join(map(str, m.players))
        lines.append(f"{m.id:26s} {players:8s} {m.cards:5d}  {hammocks:9s} {m.summary()}")
    return "\n".join(lines)
