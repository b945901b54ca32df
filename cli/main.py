"""The `crew` command: solve deals of The Crew under perfect information."""

import importlib
import json
import sys
import tomllib

import click

from cli import deals
from cli import sweep as sweep_commands
from cli.deals import passed_text, seated_cards
from cli.family import describe_mission, family, missions_table
from cli.status import StatusLine
from solver import __version__, api
from solver.api import SolveRequest
from solver.core.cards import card_set, format_card, format_cards, scan
from solver.core.deal import Deal
from solver.core.errors import InputError
from solver.core.mission_file import MissionError
from solver.core.solution import Limits, Outcome, Solution
from solver.engines import protocol
from solver.engines.score import ScoreAnswer
from solver.family.mission import GAME as FAMILY
from solver.family.mission import built_in_family_missions, find_family_mission, load_family_missions
from solver.missions.conditions import bounds_text, counter_values
from solver.missions.dealer import dealt_record
from solver.missions.lint import findings
from solver.missions.mission import (
    built_in_missions,
    describe_pattern,
    describe_rule,
    describe_score,
    find_mission,
    load_missions,
)
from solver.missions.special import REDEAL_AFTER
from solver.missions.stage import ON_TRAIN, Stage, space_cases
from solver.missions.tasks import TaskMission
from solver.trick.ghost import GHOST_SEAT, format_display
from solver.trick.spaces import SPACES
from solver.trick.variants import ghost_exchange

EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130


class CrewGroup(click.Group):
    """A click group whose errors are one line on stderr and a non-zero exit, never a traceback.

    `LAZY_COMMANDS` are imported when asked for: `crew bench`'s module loads Numba and CP-SAT (the
    calibration, the versions), which `crew solve` should not pay for.
    """

    LAZY_COMMANDS = {"bench": ("cli.bench", "bench"), "analyze": ("cli.analyze", "analyze"),
                     "explain": ("cli.analyze", "explain"), "play": ("cli.play", "play")}

    def list_commands(self, ctx):
        return sorted({*super().list_commands(ctx), *self.LAZY_COMMANDS})

    def get_command(self, ctx, name):
        if name in self.LAZY_COMMANDS and name not in self.commands:
            module, attribute = self.LAZY_COMMANDS[name]
            self.add_command(getattr(importlib.import_module(module), attribute))
        return super().get_command(ctx, name)

    def main(self, args=None, prog_name=None, **extra):
        extra.pop("standalone_mode", None)
        try:
            code = super().main(args, prog_name, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as error:
            error.show()  # the help text, as click prints it
            sys.exit(error.exit_code)
        except click.ClickException as error:
            fail(error.format_message(), error.exit_code)
        except InputError as error:
            for problem in getattr(error, "problems", [])[:-1]:
                click.echo(f"crew: error: {' '.join(problem.split())}", err=True)
            fail(getattr(error, "problems", [str(error)])[-1], EXIT_BAD_INPUT)
        except click.Abort:
            fail("interrupted", EXIT_INTERRUPTED)
        sys.exit(code if isinstance(code, int) else 0)


def fail(message: str, code: int):
    """Print `message` as one line on stderr and exit with `code`."""
    click.echo(f"crew: error: {' '.join(message.split())}", err=True)
    sys.exit(code)


@click.group(cls=CrewGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="crew")
def main():
    """Exact perfect-information solver for The Crew card games."""


def parse_owners(text: str) -> list[int]:
    """Return the seats of a comma-separated owner list."""
    try:
        return [int(word) for word in text.split(",")]
    except ValueError:
        raise InputError(f"owners must be seat numbers separated by commas, got {text!r}") from None




def random_pass_given(deal: Deal, mission: TaskMission, solution: Solution, stage: Stage) -> dict[int, int]:
    """Return the card each seat gives in the mission's random pass along the witness (seat -> card);
    the Ghost one of his face-up cards (no pass moves his cards before mission 12's, after trick 1)."""
    chance = mission.random_pass
    if chance is None or solution.outcome is not Outcome.WIN or len(solution.tricks) < chance.after:
        return {}
    played = card_set(c for trick in solution.tricks[: chance.after] for c in trick.cards)
    given = chance.given(tuple(hand & ~played for hand in deal.hands), stage.ghost, stage.display)
    return {seat: c for seat, c in enumerate(given) if c >= 0}


def counts_text(counters, counts: list[tuple[int, ...]], number: int) -> str:
    """Return the counters' values after trick `number` where one of them changed in it ("" where none did)."""
    before = counts[number - 2] if number > 1 else (0,) * len(counters)
    if counts[number - 1] == before:
        return ""
    word = "count" if len(counters) == 1 else "counts"
    return f"  {word}: " + ", ".join(
        f"{counter_owner(counter)}{value} ({bounds_text(counter)})" for counter, value in zip(counters, counts[number - 1]))


def counter_owner(counter) -> str:
    """Return "seat s: " for a counter of one seat's tricks, "" for a counter of several seats'."""
    seats = [seat for seat in range(counter.winners.bit_length()) if counter.winners >> seat & 1]
    return f"seat {seats[0]}: " if len(seats) == 1 else ""


def format_solution(deal: Deal, solution: Solution, mission: TaskMission, given: dict[int, int],
                    stage: Stage = ON_TRAIN) -> str:
    """Return a solver's answer as text: the result and who played (a two-player deal written without its
    display's `/` is three players, and says so), then the line of play of a WIN (with the Ghost's display
    on `stage`: where each card he gets in a pass lies)."""
    seats = "2 players and the display" if stage.display else f"{deal.players} players"
    branches = f" + {solution.branches:,} CP-SAT branches" if solution.branches else ""
    lines = [
        f"{solution.outcome.value.upper()}  ({seats}; {solution.nodes:,} nodes{branches}, "
        f"{solution.seconds:.3f} s, {solution.engine})"
    ]
    if solution.outcome is not Outcome.WIN:
        return "\n".join(lines)
    if solution.setup:
        lines.append(f"choices: {solution.setup}")
    owners = []
    for c, token in zip(mission.cards, mission.tokens):
        mark = f" [{token}]" if token is not None else ""
        owners.append(f"{format_card(c)}{mark} -> seat {solution.assignment[c]}")
    lines.append("tasks: " + ", ".join(owners) if owners else "tasks: none")
    counts = counter_values(mission.counters, solution.tricks)
    won = [0] * len(solution.tricks[0].cards) if solution.tricks else []
    for number, trick in enumerate(solution.tricks, 1):
        done = " ".join(format_card(c) for c in trick.completed)
        won[trick.winner] += 1
        lines.append(
            f"trick {number:2d}: {seated_cards(trick)}  -> seat {trick.winner}"
            + (f"  done: {done}" if done else "")
            + counts_text(mission.counters, counts, number)
            + (f"  won: {' '.join(map(str, won))}" if mission.balanced is not None else "")
            + (f"  table: {format_card(trick.tabled)}" if trick.tabled >= 0 else "")
        )
        if given and number == mission.random_pass.after:  # before the crew's passes and the skis
            lines.append("random pass: " + ", ".join(f"seat {s} gives {format_card(c)}" for s, c in given.items()))
            ghost = stage.ghost
            if ghost in given and ghost - 1 in given:
                lines.append(f"ghost: {format_card(given[ghost - 1])} lies where {format_card(given[ghost])} lay")
        if trick.passed:  # helicopter: one card a seat, to the left; jeep: two a seat, into the middle
            lines.append(passed_text(trick))
            if len(trick.passed) == 2 * len(trick.cards) and stage.jeep_order:  # the jeep: the middle's cards, lowest first, to the shuffle's seats
                middle = sorted(trick.passed)
                lines.append("got: " + ", ".join(
                    f"seat {seat} " + " ".join(format_card(c) for c, to in zip(middle, stage.jeep_order) if to == seat)
                    for seat in range(len(trick.cards))))
            if stage.display:
                gave, got = ghost_exchange(trick.passed, len(trick.cards), GHOST_SEAT, stage.jeep_order)
                lines.append("ghost: " + ", ".join(
                    f"{format_card(new)} lies where {format_card(old)} lay" for old, new in zip(gave, got)))
        if mission.space.skis & card_set(trick.cards) and number < len(solution.tricks):
            lines.append("skis: every hand moves whole to the left")
    return "\n".join(lines)


DEAL_OPTIONS = (  # the deal, its mission and the engine (by solve_request's names): crew solve's, analyze's, explain's
    click.option("--deal",
                 help='Hands separated by "|", seat 0 first. Two players: "HAND | HAND | FACE-UP / FACE-DOWN", '
                 "the third seat being the Ghost's (JARVIS's) display of columns."),
    click.option("--tasks",
                 help='Task cards, e.g. "g3 b7 y1" (with --mission: drawn from --seed if omitted).'),
    click.option("--owners", help="Fixed owner seat per task, e.g. 0,2,1 (default: draft)."),
    click.option("--tokens", help='Token per task: 1-5, > to >>>>, omega/Ω, - (e.g. "1,2,-").'),
    click.option("--mission", help="A mission such as planet-nine/17 (its tasks, tokens and rules); Deep Sea's "
                 "deep-sea/44 (held by the crew's choice), deep-sea/44:2 (by seat 2), deep-sea/12+44 (drafted), "
                 "deep-sea/difficulty-12 (cards drawn to that total)."),
    click.option("--mission-file", type=click.Path(), help="Look --mission up in this mission file."),
    click.option("--seed", type=int, default=0, show_default=True,
                 help="Seed of the task draw and chance events for --mission; without --deal, of the deal itself."),
    click.option("--cell", help="Without --deal: deal --index of this sweep cell (e.g. tasks/8/dealt, "
                 "journey/no-1-no-2@fog), as crew sweep deals it."),
    click.option("--players", type=int, default=4, show_default=True,
                 help="Without --deal: the players of the drawn deal (2: with JARVIS or the Ghost)."),
    click.option("--index", type=click.IntRange(min=0), default=0, show_default=True,
                 help="Without --deal: which deal of the seed (a sweep cell's deal index)."),
    click.option("--commander", type=int, help="Commander seat when r4 is not dealt (default 0)."),
    click.option("--budget", type=click.FloatRange(min=0, min_open=True), help="Seconds of work per deal before UNKNOWN (card plays and CP-SAT's deterministic time: docs/sweeps.md)."),
    click.option("--max-nodes", type=click.IntRange(min=1),
                 help="Card plays per deal before UNKNOWN (a search limit: with auto the kernel alone runs; cpsat "
                 "ignores it)."),
    click.option("--engine", type=click.Choice(protocol.ENGINES), default="auto", show_default=True,
                 help="auto: the Numba kernel, then CP-SAT and the kernel in turns if it cannot finish fast; kernel: "
                 "the Numba search alone; cpsat: the CP-SAT model alone (all but table patterns with other rules "
                 "and the redeal); "
                 "reference: the plain-Python oracle."),
    click.option("--space",
                 help="A Journey stage space to play on: skis, vespa, machete[=CARDS], hang-glider, helicopter, "
                 "dog-sled, jeep, fog[=N] (fog's draws and the jeep's shuffle come from --seed), or one without effect "
                 "such as storm."),
    click.option("--difficult-ghost", is_flag=True,
                 help="Two players: the difficult Ghost (after winning a trick he leads below or beside his card)."),
)


def deal_options(command):
    """Add the DEAL_OPTIONS to a command."""
    for option in reversed(DEAL_OPTIONS):
        command = option(command)
    return command


@main.command()
@deal_options
@click.option(
    "--distress",
    is_flag=True,
    help="Also solve with the distress signal (each player passes one non-trump card to the "
    "same side before trick 1; the crew picks side and cards) and report both answers.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--batch", "batch_file",
              help="Solve one JSON object a line of this file (-: stdin), keyed by these options' long names "
              '(e.g. {"deal": "...", "mission": "planet-nine/12", "seed": 3}; the options given here stand for keys '
              "a line leaves out); print one --json answer a line with its line number, and go on after a bad line.")
def solve(distress, as_json, batch_file, **options):
    """Decide whether a deal's mission can be won; print the line of play of a WIN.

    Either a task mission (--tasks, with --owners and --tokens), or a mission from the
    logbook or a mission file (--mission), whose choices (chosen players, token swaps)
    the solver makes: the answer names the ones that win. With --distress, the budget
    applies to the answer without the signal and again to the one with it. Without
    --deal, the deal `crew deal` draws with the same options.
    """
    options["distress"] = distress  # DEAL_OPTIONS by solve_request's names, and the signal
    if batch_file is not None:
        answer_batch(batch_file, options)
        return
    request = solve_request(**options)
    progress = RoundProgress()
    try:
        answer = api.solve(request, progress)
    finally:
        progress.finish()
    if as_json:
        click.echo(json.dumps(json_answer(answer), ensure_ascii=False))
        return
    deal, stage, setups = answer.deal, answer.stage, answer.setups
    show_draws(deal, stage)
    drawn = answer.dealt.mission if answer.dealt is not None else None
    if drawn is not None and drawn.cards:  # Deep Sea's task cards, drafted (drawn to a difficulty total)
        column = deal.players - 3
        click.echo(f"task cards (difficulty {drawn.difficulty[column]} for {deal.players} players): {drawn.title}")
    if answer.score is not None:
        report_score(deal, answer.mission, setups, answer.score, stage)
        return
    solution = answer.solution
    if answer.distress is None:
        report(deal, setups, solution, stage)
        return
    signalled, passed, passed_stage = answer.distress.solution, answer.distress.deal, answer.distress.stage
    if solution.outcome is Outcome.WIN:
        click.echo("without distress signal: ", nl=False)
        report(deal, setups, solution, stage)
        click.echo("with distress signal: WIN  (not needed)")
    else:
        click.echo("without distress signal: " + format_solution(deal, solution, setups[0].mission, {}, stage))
        click.echo("with distress signal: ", nl=False)
        report(passed, setups, signalled, passed_stage)


def solve_request(deal, tasks, owners, tokens, mission, mission_file, seed, cell, players, index, commander, budget,
                  max_nodes, engine, distress, space, difficult_ghost) -> SolveRequest:
    """Return the request of `crew solve`'s options (or of a --batch line, by the same names)."""
    return SolveRequest(
        deal=deal, tasks=tasks, owners=tuple(parse_owners(owners)) if owners is not None else None, tokens=tokens,
        mission=mission, mission_file=mission_file, seed=seed, commander=commander, space=space,
        difficult_ghost=difficult_ghost, engine=engine, distress=distress, limits=Limits(max_nodes, budget),
        cell=cell, players=players, index=index,
    )


def json_answer(answer: api.SolveAnswer) -> dict:
    """Return what `crew solve --json` prints: the answer (with and without the distress signal, or with a
    special mission's score), the players, the deal with its task cards and draws as laid out (`dealt`:
    solver.missions.dealer.dealt_record), and the seconds spent loading the kernel's machine code apart."""
    deal, stage, setups = answer.deal, answer.stage, answer.setups
    if answer.score is not None:
        score = answer.score
        summary = {"score": score.score, "events": score.events, "exact": score.exact,
                   "deduction": answer.mission.score.deduction_for(deal.players)}
        body = {**summary, **answer_json(deal, setups, score.solution, stage), "result": score.outcome.value}
    elif answer.distress is not None:
        body = {"without_distress": answer_json(deal, setups, answer.solution, stage),
                "with_distress": answer_json(answer.distress.deal, setups, answer.distress.solution,
                                             answer.distress.stage)}
    else:
        body = answer_json(deal, setups, answer.solution, stage)
    players = 2 if stage.display else deal.players  # two players with the display, its seat not counted
    return {**body, "players": players, "dealt": dealt_record(answer.dealt), "load_seconds": round(answer.load_seconds, 6)}


# A batch line's keys, `crew solve`'s long option names, and the JSON types their values may take.
BATCH_KEYS = {
    "deal": str, "tasks": str, "owners": (str, list), "tokens": str, "mission": str, "mission_file": str,
    "seed": int, "commander": int, "budget": (int, float), "max_nodes": int, "engine": str, "distress": bool,
    "space": str, "difficult_ghost": bool, "cell": str, "players": int, "index": int,
}
POSITIVE = ("budget", "max_nodes")  # as `crew solve` takes them: above 0


def answer_batch(path: str, defaults: dict) -> None:
    """Solve one JSON object a line of `path` (`-`: stdin), its keys `crew solve`'s long option names
    (`mission_file` or `mission-file`), the command line's options standing for keys a line leaves out;
    print one `--json` answer a line, in order, with its line number. A bad line answers
    `{"line": N, "error": "..."}` and the batch goes on."""
    try:
        stream = sys.stdin if path == "-" else open(path, encoding="utf-8")
    except OSError as error:
        raise InputError(f"cannot read the batch file {path}: {error.strerror or error}") from None
    with stream:
        for number, text in enumerate(stream, 1):
            if text.strip():
                click.echo(json.dumps({"line": number, **batch_answer(text, defaults)}, ensure_ascii=False))


def batch_answer(text: str, defaults: dict) -> dict:
    """Return the answer of one batch line, or its one-line error."""
    try:
        line = json.loads(text)
        if not isinstance(line, dict):
            raise InputError('a batch line is one JSON object, e.g. {"deal": "...", "tasks": "p3"}')
        options = {**defaults, **batch_options(line)}
        if options["deal"] is None and options["cell"] is None and options["mission"] is None:
            raise InputError("the line gives no deal (nor a cell or mission to draw one for)")
        return json_answer(api.solve(solve_request(**options)))
    except json.JSONDecodeError as error:
        return {"error": f"not JSON: {error.msg} (column {error.colno})"}
    except InputError as error:
        return {"error": str(error)}


def batch_options(line: dict) -> dict:
    """Return a batch line's options by their parameter names, each checked for its type (null: left out)."""
    options = {}
    for key, value in line.items():
        name = key.replace("-", "_")
        if name not in BATCH_KEYS:
            raise InputError(f"unknown key {key!r} (known: {', '.join(BATCH_KEYS)})")
        if value is None:
            continue
        kinds = BATCH_KEYS[name]
        if not isinstance(value, kinds) or (isinstance(value, bool) and kinds is not bool):
            raise InputError(f"{key} takes {KIND_NAMES[kinds]}, got {json.dumps(value)}")
        if name in POSITIVE and value <= 0:
            raise InputError(f"{key} must be above 0, got {json.dumps(value)}")
        if name == "owners" and isinstance(value, list):
            if not all(isinstance(seat, int) and not isinstance(seat, bool) for seat in value):
                raise InputError(f"owners are seat numbers, got {json.dumps(value)}")
            value = ",".join(map(str, value))
        options[name] = value
    return options


KIND_NAMES = {str: "a string", int: "a whole number", (int, float): "a number", bool: "true or false",
              (str, list): 'a string ("0,2,1") or a list of seats'}


def show_draws(deal: Deal, stage: Stage) -> None:
    """Print the chance drawn with the deal for its stage, if any."""
    if stage.arrivals or stage.jeep_order or stage.redeal_order:
        click.echo(describe_draws(deal, stage))


def describe_draws(deal: Deal, stage: Stage) -> str:
    """Return a stage's chance as text: the jeep's shuffle, the special stage's redeal, or fog's
    cards dealt and who draws what when."""
    if stage.jeep_order:
        seats = " ".join(map(str, stage.jeep_order))
        return f"jeep: the middle's cards, lowest first, go to seats {seats}"
    if stage.redeal_order:
        seats = " ".join("out" if seat < 0 else str(seat) for seat in stage.redeal_order)
        return f"redeal after trick {REDEAL_AFTER}: the discards, lowest first, go to seats {seats}"
    arrivals = stage.arrivals
    dealt = [" ".join(format_card(c) for c in scan(hand) if arrivals[c] == 0) for hand in deal.hands]
    if stage.display:  # the Ghost's display is laid out whole
        dealt[GHOST_SEAT] = format_display(stage.display)
    lines = [f"fog: dealt {' | '.join(dealt)}"]
    for after in range(1, max(arrivals) + 1):
        draws = ", ".join(f"seat {deal.holder(c)} {format_card(c)}" for c in scan(deal.cards) if arrivals[c] == after)
        lines.append(f"fog: after trick {after}: {draws}")
    return "\n".join(lines)


class RoundProgress(StatusLine):
    """Show which round of budgets the distress passes are in, and how far."""

    def __call__(self, number: int, done: int, total: int) -> None:
        self.show(f"distress passes, round {number}: {done:,} / {total:,}")


def winning_mission(setups, solution: Solution, deal: Deal, stage: Stage = ON_TRAIN) -> TaskMission:
    """Return the mission of the case a WIN was found in, with the stage space's rules (the skis' card, the
    passes), or the first case's otherwise."""
    cases = space_cases(stage, deal, setups)
    return next((mission for label, _, mission in cases if label == solution.setup), cases[0][2])


def answer_json(deal: Deal, setups, solution: Solution, stage: Stage = ON_TRAIN) -> dict:
    """Return an answer as JSON, with the random pass of its line of play if there is one."""
    answer = solution.to_json()
    won = winning_mission(setups, solution, deal, stage)
    if won.counters:
        for trick, counts in zip(answer["tricks"], counter_values(won.counters, solution.tricks)):
            trick["counts"] = list(counts)  # each counter's value after the trick (the text's "count:")
    given = random_pass_given(deal, won, solution, stage)
    if given:
        answer["random_pass"] = {str(seat): format_card(c) for seat, c in given.items()}
    return answer


def report_score(deal: Deal, mission, setups, answer: ScoreAnswer, stage: Stage) -> None:
    """Print a special mission's highest score, then the line of play that reaches it."""
    deduction = mission.score.deduction_for(deal.players)
    bound = "" if answer.exact else " at least (the budget ran out before a higher score was refuted)"
    click.echo(f"score {answer.score}{bound}: {answer.events} events - {deduction} for {deal.players} players; "
               f"{answer.outcome.value.upper()}")
    click.echo(format_solution(deal, answer.solution, winning_mission(setups, answer.solution, deal, stage), {}, stage))


def report(deal: Deal, setups, solution: Solution, stage: Stage = ON_TRAIN) -> None:
    """Print one answer on the deal it was found on (and `stage`)."""
    won = winning_mission(setups, solution, deal, stage)
    click.echo(format_solution(deal, solution, won, random_pass_given(deal, won, solution, stage), stage))


@main.group()
def missions():
    """List, show and check missions (built in, or from a mission file)."""


@missions.command("list")
@click.option("--game", help="Only this game's missions, e.g. planet-nine.")
@click.option("--mission-file", type=click.Path(), help="List the missions of this file instead.")
def list_missions(game, mission_file):
    """Print one line per mission: id, tasks, tokens, assignment, special rules."""
    if game == FAMILY:
        click.echo(missions_table(load_family_missions(mission_file) if mission_file else built_in_family_missions()))
        return
    found = load_missions(mission_file) if mission_file else built_in_missions()
    shown = [m for m in found.values() if game is None or m.id.startswith(f"{game}/")]
    if not shown:
        raise InputError(f"no missions for game {game!r}")
    width = max([16] + [len(m.id) for m in shown])
    if all(m.kind == "task" for m in shown):  # Deep Sea's task cards: their difficulty, then what they ask
        click.echo(f"{'mission':{width}s} {'d3/d4/d5':8s}  title; rules")
        for m in shown:
            assumed = " [assumption: see crew missions show]" if m.assumptions else ""
            click.echo(f"{m.id:{width}s} {'/'.join(map(str, m.difficulty)):8s}  {m.title}; {m.summary()}{assumed}")
        return
    click.echo(f"{'mission':{width}s} {'tasks':>5s}  {'tokens':14s} {'assignment':22s} rules; title")
    for m in shown:
        tokens = " ".join(str(t) for t in m.tokens) or "-"
        assumed = " [assumption: see crew missions show]" if m.assumptions else ""
        title = f"; {m.title}" if m.title else ""
        click.echo(f"{m.id:{width}s} {m.tasks:5d}  {tokens:14s} {m.assignment if m.tasks else '-':22s} "
                   f"{m.summary()}{assumed}{title}")


@missions.command("show")
@click.argument("name")
@click.option("--game", default="planet-nine", show_default=True,
              help="The game of a NAME given without it (41: planet-nine/41).")
@click.option("--mission-file", type=click.Path(), help="Look the mission up in this file.")
def show_mission(name, game, mission_file):
    """Print everything a mission says."""
    if "/" not in name and not mission_file:
        name = f"{game}/{name}"
    if name.startswith(f"{FAMILY}/") or mission_file and is_family_file(mission_file):
        click.echo(describe_mission(find_family_mission(name, mission_file)))
        return
    m = find_mission(name, mission_file)
    click.echo(f"mission        {m.id}" + (f"  ({m.title})" if m.title else ""))
    click.echo(f"players        {', '.join(map(str, m.players))}")
    click.echo(f"tasks          {m.tasks}" + (f", assignment {m.assignment}" if m.tasks else ""))
    click.echo(f"tokens         {' '.join(str(t) for t in m.tokens) or '-'}")
    click.echo(f"5p task pass   {'yes' if m.five_player_pass else 'no'}")
    for c in m.choose:
        click.echo(f"player {c.name:8s}{'chosen by ' + c.by if c.by != 'automatic' else 'fixed'}: {c.among}")
    for rule in m.rules:
        click.echo(f"rule           {describe_rule(rule)}")
    for item in m.options + m.chance:
        click.echo(f"option         {item}")
    if m.difficulty or m.kind != "standard":
        click.echo(f"kind           {m.kind}" + (f", difficulty {'/'.join(map(str, m.difficulty))} for 3/4/5 players"
                                               if m.difficulty else ""))
    if m.score is not None:
        click.echo(f"score          {describe_score(m.score).removeprefix('score: ')}")
    if m.pattern is not None:
        click.echo(f"pattern        {describe_pattern(m.pattern).removeprefix('table pattern: ')}")
        click.echo(f"adjustments    {'3 players: 7 cards out; 5 players: redeal after trick 3' if m.adjustments else 'none'}")
    if m.total:
        click.echo(f"task cards     drawn with each deal to a difficulty of {m.total}, drafted from the captain clockwise")
    for cards in m.redeal:
        click.echo(f"redeal         when one hand holds {format_cards(cards)}")
    click.echo(f"communication  {m.communication} (no effect under perfect information)")
    for assumption in m.assumptions:
        click.echo(f"assumption     {assumption}")


@missions.command("check")
@click.argument("path", type=click.Path())
@click.option("--strict", is_flag=True, help="Rules no deal can satisfy are errors (exit 2), not warnings.")
def check_missions(path, strict):
    """Validate a mission file: every problem at once, one line each (exit 2); then what the rules say that
    no deal can satisfy (counts out of reach, bounds that exclude each other, the Commander winning no
    trick), as warnings (exit 0) or, with --strict, errors."""
    found = load_family_missions(path) if is_family_file(path) else load_missions(path)
    problems = [] if is_family_file(path) else [f"{path}: {f}" for m in found.values() for f in findings(m)]
    if problems and strict:
        raise MissionError(problems)
    for problem in problems:
        click.echo(f"crew: warning: {problem}", err=True)
    remark = f", {len(problems)} rules no deal can satisfy" if problems else ", all valid"
    click.echo(f"{path}: {len(found)} missions{remark}")


def is_family_file(path) -> bool:
    """Return True when a mission file says game = "family" (its own format)."""
    try:
        with open(path, "rb") as file:
            return tomllib.load(file).get("game") == FAMILY
    except (OSError, tomllib.TOMLDecodeError):
        return False  # the loader reports it


@main.command()
def spaces():
    """List Journey's stage spaces and what each changes in one deal under perfect information."""
    width = max(map(len, SPACES))
    for name, space in SPACES.items():
        if space.changes_play:
            click.echo(f"{name:{width}s}  {space.effect}")
            click.echo(f"{'':{width}s}    with the Ghost (two players): {space.with_the_ghost}")
        else:
            click.echo(f"{name:{width}s}  no effect on one deal ({space.effect})")


main.add_command(family)
main.add_command(deals.deal)
main.add_command(deals.show)
main.add_command(sweep_commands.sweep)
main.add_command(sweep_commands.report)
main.add_command(sweep_commands.plot)
