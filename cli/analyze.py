"""`crew analyze` (a position's cards, or a played game's post-mortem) and `crew explain` (why a deal is lost)."""

import json
import tomllib

import click

from cli.main import (
    answer_json,
    batch_options,
    counter_owner,
    deal_options,
    format_solution,
    solve_request,
    winning_mission,
)
from solver import api
from solver.core.cards import format_card
from solver.core.errors import InputError
from solver.core.solution import Outcome
from solver.missions.conditions import bounds_text
from solver.missions.position import Position, format_played
from solver.missions.tasks import UNASSIGNED

GAME_KEYS = ("played", "choice")  # a game file's keys besides crew solve's options
SHOWN_CHOICES = 4  # more choices consistent with a position are counted, not listed (a Vespa's swaps: hundreds)
OUTCOME_WORDS = {Outcome.WIN: "some card keeps the mission winnable", Outcome.LOSS: "no card keeps it winnable",
                 Outcome.UNKNOWN: "no card proved winning within the budget, some undecided"}
DUE_WORDS = {Outcome.WIN: "some choice keeps the mission winnable", Outcome.LOSS: "no choice keeps it winnable",
             Outcome.UNKNOWN: "undecided within the budget"}


@click.command()
@deal_options
@click.option("--played", "played_text", default="",
              help='The plays so far, trick by trick from trick 1, each trick\'s cards from its leader, "|" between '
              'tricks (e.g. "r4 p3 p4 | p1"); after a full trick, `table` and the card laid on the table, `pass` and '
              'the cards passed seat by seat from seat 0 (e.g. "h1 g2 g3 pass b3 b1 b2 | g5"); in the last trick `?` '
              'leaves a seat\'s cards to the crew ("h1 g2 g3 pass ? b1 ?": the verdict of seat 1 passing b1).')
@click.option("--choice", help='The crew\'s choice among the mission\'s setups, as crew solve names it (e.g. "X = seat '
              '2"); default: any choice the plays are legal in.')
@click.option("--game", "game_file", type=click.Path(),
              help="A played game (TOML: crew solve's options by their long names, with `played` and `choice`): mark "
              "every play as keeping the mission winnable or losing it.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def analyze(played_text, choice, game_file, as_json, **options):
    """Analyse a position: every legal card of the seat to move with its verdict (WIN: the mission stays
    winnable after it), the mission's state, and a line of play after a winning card. With --game, the
    post-mortem of a whole game: which play lost it.

    The budget (--budget, --max-nodes) applies to each card's solve (with --game, to each prefix solved).
    """
    options["distress"] = False
    if game_file is not None:
        if played_text or choice is not None:
            raise InputError("a game file holds its plays and choice: leave out --played and --choice with --game")
        game, options = read_game(game_file, options)
        request = api.AnalyzeRequest(solve_request(**options), game.get("played", ""), game.get("choice"))
        answer = api.analyze(request, whole_game=True)
        click.echo(json.dumps(post_mortem_json(answer)) if as_json else "\n".join(post_mortem_lines(answer)))
        return
    answer = api.analyze(api.AnalyzeRequest(solve_request(**options), played_text, choice))
    click.echo(json.dumps(analysis_json(answer), ensure_ascii=False) if as_json else "\n".join(analysis_lines(answer)))


def read_game(path: str, defaults: dict) -> tuple[dict, dict]:
    """Return a game file's `played` and `choice`, and its other keys as crew solve's options over `defaults`."""
    try:
        with open(path, "rb") as stream:
            data = tomllib.load(stream)
    except OSError as error:
        raise InputError(f"cannot read the game file {path}: {error.strerror or error}") from None
    except tomllib.TOMLDecodeError as error:
        raise InputError(f"the game file {path} is not TOML: {error}") from None
    game = {key: data.pop(key) for key in GAME_KEYS if key in data}
    if "played" not in game:
        raise InputError(f"the game file {path} has no `played` (its plays, trick by trick)")
    if not isinstance(game["played"], (str, list)) or not isinstance(game.get("choice", ""), str):
        raise InputError(f"in {path}: played is text or a list of tricks, and choice is text")
    try:
        options = {**defaults, **batch_options(data)}
    except InputError as error:
        raise InputError(f"in {path}: {error}") from None
    return game, options


def state_lines(answer: api.AnalyzeAnswer) -> list[str]:
    """Return the position's state: who is to play in which trick, the tasks done and open, the counters
    and (balanced missions) the tricks won."""
    analysis = answer.analysis
    walked, mission = analysis.walked, analysis.cases[0].mission
    players = answer.deal.players
    number = len(walked.tricks) + 1
    so_far = " ".join(f"{(walked.leader + k) % players}:{format_card(c)}" for k, c in enumerate(walked.trick))
    if walked.ended:
        lines = [f"position: after {len(mission.played)} plays, the mission {walked.ended}"]
    elif walked.due:
        lines = [f"position: after trick {number - 1}, the crew chooses {walked.due}"]
    else:
        lines = [f"position: trick {number}, seat {walked.to_move} to play" + (f" (so far {so_far})" if so_far else "")]
    labels = [c.label or "(none)" for c in analysis.cases]
    if len(labels) > SHOWN_CHOICES:
        lines.append(f"{len(labels)} choices consistent with the play (the first: {labels[0]}; --choice names one)")
    elif len(labels) > 1 or analysis.cases[0].label:
        lines.append("choices consistent with the play: " + "; ".join(labels))
    tasks = []
    for i, (c, token) in enumerate(zip(mission.cards, mission.tokens)):
        mark = f" [{token}]" if token is not None else ""
        owner = walked.owners[i]
        state = "done" if walked.done >> i & 1 else "open"
        tasks.append(f"{format_card(c)}{mark} {state}" + (f" (seat {owner})" if owner != UNASSIGNED else ""))
    lines.append("tasks: " + (", ".join(tasks) if tasks else "none"))
    if mission.counters:
        lines.append("counts: " + ", ".join(f"{counter_owner(counter)}{value} ({bounds_text(counter)})"
                                             for counter, value in zip(mission.counters, walked.counts)))
    if mission.balanced is not None:
        lines.append("tricks won: " + " ".join(map(str, walked.won)))
    if answer.events is not None:
        deduction = answer.mission.score.deduction_for(players)
        lines.append(f"scoring events so far: {answer.events} (the score: events - {deduction} for {players} players)")
    return lines


def analysis_lines(answer: api.AnalyzeAnswer) -> list[str]:
    """Return `crew analyze`'s text: the state, each legal card's verdict, and a line after a winning card."""
    analysis = answer.analysis
    lines = state_lines(answer)
    if analysis.walked.ended:
        score = analysis.line.score if analysis.line is not None else None
        lines.append(f"result: {analysis.outcome.value.upper()}" + (f" (score {score.score})" if score else ""))
        return lines
    if analysis.walked.due:  # the choice's own verdict, and a line from the trick it follows
        lines.append(f"result: {analysis.outcome.value.upper()} ({DUE_WORDS[analysis.outcome]})")
        if analysis.outcome is Outcome.WIN:
            lines.append("a winning line:")
            lines += line_from(answer, analysis.line.solution, len(analysis.walked.tricks))
        return lines
    lines.append(f"result: {analysis.outcome.value.upper()} ({OUTCOME_WORDS[analysis.outcome]})")
    for verdict in analysis.verdicts:
        score = f"  score {verdict.score}" if verdict.score is not None else ""
        lines.append(f"  {format_card(verdict.card):3s} {verdict.outcome.value.upper():7s}{score}  "
                     f"({verdict.nodes:,} nodes, {verdict.seconds:.3f} s)")
    if analysis.line is not None and analysis.best >= 0:
        solution = analysis.line.solution
        lines.append(f"a winning line after {format_card(analysis.best)}" +
                     (f" ({solution.setup})" if solution.setup else "") + ":")
        lines += line_from(answer, solution, len(analysis.walked.tricks) + 1)
    return lines


def line_from(answer: api.AnalyzeAnswer, solution, first: int) -> list[str]:
    """Return a winning line's text from trick `first` on."""
    won = winning_mission(answer.setups, solution, answer.deal, answer.stage)
    text = format_solution(answer.deal, solution, won, {}, answer.stage).splitlines()
    start = next(k for k, line in enumerate(text) if line.startswith(f"trick {first:2d}:"))
    return text[start:]


def analysis_json(answer: api.AnalyzeAnswer) -> dict:
    """Return `crew analyze --json`: the position's state, every legal card's verdict and a winning line."""
    analysis = answer.analysis
    walked, mission = analysis.walked, analysis.cases[0].mission
    body = {
        "players": answer.deal.players,
        "played": format_played(Position.of(mission), answer.deal.players),
        "trick": len(walked.tricks) + 1,
        "to_move": None if walked.ended or walked.due else walked.to_move,
        "ended": walked.ended,
        "due": walked.due,
        "choices": [c.label for c in analysis.cases],
        "tasks": [{"card": format_card(c), "done": bool(walked.done >> i & 1),
                   "owner": None if walked.owners[i] == UNASSIGNED else walked.owners[i]}
                  for i, c in enumerate(mission.cards)],
        "counts": list(walked.counts),
        "won": list(walked.won),
        **({"events": answer.events} if answer.events is not None else {}),
        "result": analysis.outcome.value,
        "cards": [{"card": format_card(v.card), "result": v.outcome.value, "nodes": v.nodes,
                   "seconds": round(v.seconds, 6)} | ({"score": v.score} if v.score is not None else {})
                  for v in analysis.verdicts],
    }
    if analysis.line is not None and analysis.line.score is not None:
        body["score"] = analysis.line.score.score  # a special mission: the best score after `best` (or at the end)
    if analysis.line is not None and analysis.best >= 0:
        body["best"] = format_card(analysis.best)
    if analysis.line is not None and (analysis.best >= 0 or walked.due and analysis.outcome is Outcome.WIN):
        body["line"] = answer_json(answer.deal, answer.setups, analysis.line.solution, answer.stage)
    return body


def post_mortem_lines(answer: api.AnalyzeAnswer) -> list[str]:
    """Return the post-mortem's text: the deal's outcome, then every play marked, and the losing play."""
    review = answer.post_mortem
    players = answer.deal.players
    lines = [f"deal: {review.start.value.upper()}" + (" (never winnable)" if review.start is Outcome.LOSS else "")]
    for k, mark in enumerate(review.marks):
        score = f"  score {mark.score}" if mark.score is not None else ""
        losing = "  <- the first losing play" if k == review.first_loss else ""
        lines.append(f"play {k + 1:2d}  trick {k // players + 1:2d}  seat {mark.seat}  {format_card(mark.card):3s} "
                     f"{mark.outcome.value.upper():7s}{score}{losing}")
    if review.first_loss is not None:
        mark = review.marks[review.first_loss]
        where = f"lost by play {review.first_loss + 1} (trick {review.first_loss // players + 1}): "
        if review.lost_by:
            lines.append(where + f"{review.lost_by} after it (seat {mark.seat}'s {format_card(mark.card)} kept the "
                         "mission winnable)")
        else:
            lines.append(where + f"seat {mark.seat}'s {format_card(mark.card)}")
    elif review.start is Outcome.WIN and all(m.outcome is Outcome.WIN for m in review.marks):
        lines.append("every play kept the mission winnable")
    lines.append(f"({review.solves} position{'s' if review.solves > 1 else ''} solved: the others follow from a "
                 "winning line or an earlier loss)")
    return lines


def post_mortem_json(answer: api.AnalyzeAnswer) -> dict:
    """Return `crew analyze --game --json`: the deal's outcome, every play marked, and the losing play."""
    review = answer.post_mortem
    return {
        "players": answer.deal.players,
        "start": review.start.value,
        "plays": [{"card": format_card(m.card), "seat": m.seat, "result": m.outcome.value}
                  | ({"score": m.score} if m.score is not None else {}) for m in review.marks],
        "first_loss": review.first_loss,
        "lost_by": review.lost_by or "card",
        "solves": review.solves,
    }


@click.command()
@deal_options
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def explain(as_json, **options):
    """Explain why a deal is lost: a smallest set of the mission's demands (tasks, tokens, trick counters,
    the balance rule, sequence rules) already impossible together on it, found by dropping demands one at
    a time while the rest stays proved lost. The budget applies to each solve.
    """
    answer = api.explain(solve_request(**options, distress=False))
    found = answer.explanation
    if as_json:
        click.echo(json.dumps({
            "demands": [d.text for d in found.demands],
            "core": [{"kind": d.kind, "demand": d.text, "without_it": found.needed[(d.kind, d.index)].value}
                     for d in found.core],
            "solves": found.solves,
            "fails_by": found.fails_by, "fails_by_known": found.fails_by_known,
        }, ensure_ascii=False))
        return
    count = len(found.core)
    click.echo(f"LOSS: {count} of the mission's {len(found.demands)} demands "
               + ("are already impossible together:" if count > 1 else "is already impossible alone:"))
    for demand in found.core:
        without = found.needed[(demand.kind, demand.index)]
        note = "" if without is Outcome.WIN else "  (without it: undecided within the budget)"
        click.echo(f"  {demand.text}{note}")
    if count == 0:
        click.echo("  (none: the rules of play alone lose this deal)")
    elif all(found.needed[(d.kind, d.index)] is Outcome.WIN for d in found.core):
        click.echo("without any one of them the deal is winnable" if count > 1 else "without it the deal is winnable")
    if found.fails_by is not None:
        click.echo(f"every line of play has failed by trick {found.fails_by}")
    elif found.fails_by_known:
        click.echo("some line of play lasts to the last trick without failing")
    else:
        click.echo("the earliest trick by which every line has failed: undecided within the budget")
    click.echo(f"({found.solves} solves)")
