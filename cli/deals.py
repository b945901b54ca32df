"""`crew deal` (a deal drawn from a seed, as a sweep deals it) and `crew show` (a stored deal of a sweep)."""

import dataclasses
import json
import shlex

import click

from solver import api
from solver.api import DealRequest
from solver.core.cards import format_card
from solver.core.solution import Trick

# The draws of a deal's record (solver.missions.dealer.dealt_record), as printed lines.
DRAWN = {
    "tasks": lambda value: f"tasks: {value}",
    "task_cards": lambda value: f"Deep Sea task cards, drafted: {value}",
    "owners": lambda value: f"owners: {' '.join(map(str, value))}",
    "tokens": lambda value: f"tokens: {' '.join(value)}",
    "arrivals": lambda value: "fog: " + ", ".join(f"{card} after trick {after}" for card, after in value.items()),
    "jeep": lambda value: f"jeep: the middle's cards, lowest first, go to seats {' '.join(map(str, value))}",
    "redeal": lambda value: "redeal: the discards, lowest first, go to seats "
                            + " ".join("out" if seat < 0 else str(seat) for seat in value),
    "random_pass": lambda value: f"random pass after trick {value['after']}, each seat's first card of: {value['order']}",
}


def passed_text(trick) -> str:
    """Return the crew's pass after `trick` (a Trick with `passed`) seat by seat: "passed: seat 0 y4, ..."."""
    per_seat = len(trick.passed) // len(trick.cards)
    return "passed: " + ", ".join(
        f"seat {seat} " + " ".join(format_card(c) for c in trick.passed[seat * per_seat : (seat + 1) * per_seat])
        for seat in range(len(trick.cards)))


def seated_cards(trick: Trick) -> str:
    """Return a trick's cards in play order, each after its seat ("1:g2 2:g7 3:p1 0:g1": seat 1 led g2)."""
    players = len(trick.cards)
    return " ".join(f"{(trick.leader + i) % players}:{format_card(c)}" for i, c in enumerate(trick.cards))


def dealt_lines(record: dict) -> list[str]:
    """Return a deal's record as text: its notation, then each draw on a line."""
    return [record["deal"]] + [DRAWN[key](value) for key, value in record.items() if key != "deal"]


@click.command("deal")
@click.option("--cell", "cell_name", help="A sweep cell's name (e.g. planet-nine/12, tasks/8/dealt, "
              "journey/no-1-no-2@fog): its deal --index, as crew sweep deals it.")
@click.option("--mission", "mission_name", help="A mission such as planet-nine/12 (its cell on --space).")
@click.option("--game", help="The game of a --mission named without it (e.g. --game journey --mission no-1-no-2).")
@click.option("--mission-file", type=click.Path(), help="Look the mission up in this mission file.")
@click.option("--space", "space_text", help="A Journey stage space (with --mission; alone: a deal with its draws).")
@click.option("--players", type=int, default=4, show_default=True, help="Players (2: with JARVIS or the Ghost).")
@click.option("--difficult-ghost", is_flag=True, help="Two players: the difficult Ghost's cell.")
@click.option("--seed", type=int, default=0, show_default=True, help="The sweep's seed.")
@click.option("--index", type=click.IntRange(min=0), default=0, show_default=True, help="Which deal of the seed.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def deal(cell_name, mission_name, game, mission_file, space_text, players, difficult_ghost, seed, index, as_json):
    """Print a deal drawn from a seed in the deal notation, with its task cards and draws.

    With --cell or --mission it is deal --index of that sweep cell, the one `crew sweep --seed`
    solves; alone, a deal for a task mission of your own (--tasks on crew solve). The last
    line is the `crew solve` command that solves it.
    """
    request = DealRequest(cell=cell_name, game=game, mission=mission_name, mission_file=mission_file,
                          space=space_text, players=players, difficult_ghost=difficult_ghost, seed=seed, index=index)
    answer = api.deal(request)
    where = [f"--players {players}", f"--seed {seed}", f"--index {index}"]
    if answer.cell is None:
        where += [f"--space {shlex.quote(space_text)}"] * (space_text is not None) + ["--difficult-ghost"] * difficult_ghost
        command = "crew solve " + " ".join(where) + ' --tasks "YOUR TASK CARDS"'
    else:
        command = f"crew solve --cell {shlex.quote(str(answer.cell))} " + " ".join(where)
        command += f" --mission-file {shlex.quote(mission_file)}" if mission_file else ""
    if as_json:
        cell = None if answer.cell is None else str(answer.cell)
        click.echo(json.dumps({"cell": cell, "players": players, "seed": seed, "index": index, **answer.record,
                               "solve": command}, ensure_ascii=False))
        return
    title = "for a task mission" if answer.cell is None else f"of {answer.cell}"
    click.echo(f"deal {index} {title}, {players} players, seed {seed}:")
    for line in dealt_lines(answer.record):
        click.echo(line)
    click.echo(f"solve it: {command}")


@click.command("show")
@click.argument("directory", type=click.Path())
@click.argument("cell_name", metavar="CELL")
@click.argument("index", type=click.IntRange(min=0))
@click.option("--players", type=int, help="The cell's players (needed when the sweep has several).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def show(directory, cell_name, index, players, as_json):
    """Print deal INDEX of a sweep's CELL as stored: the deal and its draws, the answer and its line of play,
    and the `crew solve` command that solves it again."""
    shown = api.show(directory, cell_name, index, players)
    score = None if shown.score is None else {"score": shown.score.value, "exact": shown.score.exact}
    if as_json:
        click.echo(json.dumps({
            "cell": str(shown.cell), "players": shown.cell.players, "seed": shown.seed, "index": shown.index,
            "result": shown.result, "nodes": shown.nodes, "ms": shown.ms, "engine": shown.engine,
            "setup": shown.setup, "line": shown.line, "score": score, "dealt": shown.dealt, "solve": shown.command,
        } | ({"crew": dataclasses.asdict(shown.crew), "play": shown.play_command} if shown.crew is not None else {})
          | ({"tricks": [{"leader": t.leader, "cards": [format_card(c) for c in t.cards], "winner": t.winner,
                          "completed": [format_card(c) for c in t.completed]}
                         | ({"tabled": format_card(t.tabled)} if t.tabled >= 0 else {})
                         | ({"passed": [format_card(c) for c in t.passed]} if t.passed else {}) for t in shown.tricks]}
             if shown.tricks is not None else {}), ensure_ascii=False))
        return
    click.echo(f"deal {shown.index} of {shown.cell}, {shown.cell.players} players, seed {shown.seed}:")
    for line in dealt_lines(shown.dealt) if shown.dealt is not None else ["(the deal was not stored)"]:
        click.echo(line)
    scored = "" if score is None else f", score {'' if score['exact'] else '>='}{score['score']}"
    click.echo(f"{shown.result.upper()}{scored}  ({shown.nodes:,} nodes, {shown.ms:.2f} ms, {shown.engine})")
    if shown.setup:
        click.echo(f"choices: {shown.setup}")
    if shown.tricks is not None:
        for number, trick in enumerate(shown.tricks, 1):
            done = " ".join(format_card(c) for c in trick.completed)
            click.echo(f"trick {number:2d}: {seated_cards(trick)}  -> seat {trick.winner}" + (f"  done: {done}" if done else "")
                       + (f"  table: {format_card(trick.tabled)}" if trick.tabled >= 0 else ""))
            if trick.passed:
                click.echo(passed_text(trick))
    else:  # a mission file's cell: as stored
        for number, trick in enumerate(shown.line.split("/") if shown.line else [], 1):
            click.echo(f"trick {number:2d}: {trick}")
    if shown.command is not None:
        click.echo(f"solve it: {shown.command}")
    if shown.crew is not None:
        for line in crew_lines(shown.crew):
            click.echo(line)
        click.echo(f"play it: {shown.play_command}")


def crew_lines(crew) -> list[str]:
    """Return a stored realistic game's text: its result, the slack of the solver's line, the crew's plays."""
    ended = "won" if crew.result == "win" else f"failed in trick {crew.lost_in}"
    slack = ("" if crew.decisions is None else
             f"; the solver's line: {crew.critical} critical of {crew.decisions} decisions"
             + (f" and {crew.perhaps_critical} perhaps critical" if crew.perhaps_critical else ""))
    done = f"score {crew.score}" if crew.score is not None else f"{ended}; {crew.tasks_done} of {crew.tasks} tasks done"
    lines = [f"realistic crew: {crew.result.upper()} ({done}, {crew.ms:.0f} ms){slack}"]
    return lines + [f"crew trick {number:2d}: {trick}" for number, trick in enumerate(crew.line.split("/"), 1)]
