"""A sweep's plan: the cells of its command line, each with its mission and stage space.

`plan_sweep` reads what `crew sweep` is given (game, missions or random-task or random-objective
experiments, stage spaces, player counts, the difficult Ghost) into cells (solver/experiments/cell.py);
`default_name` names its results directory. One-line InputErrors for options that do not go together.
"""

from solver.core.errors import InputError
from solver.core.mission_file import game_of_file
from solver.experiments.cell import OWNER_MODES, Cell, objective_cell, task_cell
from solver.experiments.sweep import MAX_TASKS, parse_numbers
from solver.family.mission import GAME as FAMILY
from solver.family.mission import OBJECTIVE_CARDS, built_in_family_missions, load_family_missions
from solver.missions.mission import DIFFICULTY_PREFIX, built_in_missions, find_mission, load_missions
from solver.missions.stage import pass_refusal
from solver.trick.spaces import PLAY_SPACES, TRAIN, parse_space

MIN_PLAYERS, MAX_PLAYERS = 2, 5  # two players: with the Ghost (Journey, Family) or JARVIS (Planet Nine)
PATTERNS_ON_QUIET_SPACES = "pattern missions (special stages) are swept on the spaces without effect only"
DEFAULT_GAME = "planet-nine"


def sweep_game(game: str | None, mission_file) -> str:
    """Return the game a sweep plays: `--game`, else the mission file's `game`, else Planet Nine."""
    return game or (game_of_file(mission_file) if mission_file else None) or DEFAULT_GAME


def plan_sweep(game, missions_text, mission_file, tasks_text, owners_text, objectives_text, space_text,
               players_text, difficult_ghost: bool) -> tuple[list, list[str]]:
    """Return the sweep's [(cell, mission or None)] and notes for the user (what the plan leaves out)."""
    players = parse_numbers(players_text, "--players", MIN_PLAYERS, MAX_PLAYERS)
    spaces = parse_spaces(space_text, game)
    if difficult_ghost and (game == FAMILY or 2 not in players):
        raise InputError("--difficult-ghost needs a trick-taking game and --players including 2")
    planned, notes = sweep_cells(game, missions_text, mission_file, tasks_text, owners_text, objectives_text, players)
    pairs = [(cell, mission, space) for cell, mission in planned for space in spaces
             if not (is_pattern(mission) and space.changes_play)]  # a special stage stands on no stage space
    if not pairs:
        raise InputError("pattern missions (special stages) are not played on a stage space that changes play")
    cells, refused = [], {}
    for cell, mission, space in pairs:
        reason = pass_refusal(mission, space) if mission else ""
        if reason:
            refused[reason] = None
        else:
            cells.append((cell.on_stage(space, difficult_ghost and cell.players == 2), mission))
    if not cells:
        raise InputError(next(iter(refused)))
    quiet_only = any(space.changes_play for space in spaces) and any(is_pattern(mission) for _, mission in cells)
    return cells, notes + ([PATTERNS_ON_QUIET_SPACES] if quiet_only else []) + [f"left out: {r}" for r in refused]


def sweep_cells(game, missions_text, mission_file, tasks_text, owners_text, objectives_text, players):
    """Return [(cell, mission or None)] of a sweep's command line, and notes on what it leaves out."""
    if game == FAMILY:
        if tasks_text is not None or owners_text is not None:
            raise InputError("--tasks and --owners are trick-taking experiments; with --game family use --objectives")
        return family_cells(missions_text, mission_file, objectives_text, players)
    if objectives_text is not None:
        raise InputError("--objectives goes with --game family")
    if tasks_text is not None:
        if missions_text is not None or mission_file is not None:
            raise InputError("--tasks runs a random-task experiment; leave out --missions and --mission-file")
        counts = parse_numbers(tasks_text, "--tasks", 1, MAX_TASKS)
        modes = list(dict.fromkeys(mode.strip() for mode in (owners_text or "draft").split(",")))
        for mode in modes:
            if mode not in OWNER_MODES:
                raise InputError(f"--owners must be {' or '.join(OWNER_MODES)} (or both, comma-separated), got {mode!r}")
        return [(task_cell(k, mode, p), None) for mode in modes for p in players for k in counts], []
    if owners_text is not None:
        raise InputError("--owners goes with --tasks (the missions set their own assignment)")
    found = load_missions(mission_file) if mission_file else built_in_missions()
    in_game = {m.id.split("/", 1)[1]: m for m in found.values() if m.id.startswith(f"{game}/")}
    for name in missions_numbers_or_names(missions_text) if missions_text else ():
        if name.startswith(DIFFICULTY_PREFIX) or "+" in name:  # Deep Sea: a difficulty total, cards drafted together
            in_game[name] = find_mission(f"{game}/{name}", mission_file)
    if not in_game:
        hint = "" if mission_file else " (built in: planet-nine, journey, family)"
        raise InputError(f"no missions for game {game!r}{hint}")
    return mission_cells(in_game, missions_text, players, "crew missions list", ghost=True)


def parse_spaces(text: str | None, game: str) -> list:
    """Return the stage spaces of `--space`: a comma-separated list, `all` for every space that changes play."""
    if text is None:
        return [TRAIN]
    if game == FAMILY:
        raise InputError("--space is a Journey stage space; Family Adventure has none")
    words = [word.strip() for word in text.split(",") if word.strip()]
    if not words:
        raise InputError("--space needs at least one stage space")
    names = [name for word in words for name in (("train", *PLAY_SPACES) if word == "all" else (word,))]
    return list(dict.fromkeys(parse_space(name) for name in names))


def mission_cells(by_name: dict, missions_text, players, listing: str, ghost: bool = False) -> tuple[list, list]:
    """Return [(cell, mission)] for the missions named in `missions_text` (all if None) at each player count
    they are for, and a note naming the missions and player counts left out (none: no note).

    With `ghost` (trick-taking games), two players play a three-player mission with the Ghost (JARVIS).
    """
    if missions_text is None:
        chosen = list(by_name.values())
    else:
        chosen = []
        for name in dict.fromkeys(missions_numbers_or_names(missions_text)):
            if name not in by_name:
                game = next(iter(by_name.values())).id.split("/", 1)[0]
                raise InputError(f"unknown mission {game}/{name} (see {listing})")
            chosen.append(by_name[name])

    def plays(mission, players: int) -> bool:
        return (max(players, 3) if ghost else players) in mission.players

    cells = [(Cell(m.id, p), m) for m in chosen for p in players if plays(m, p)]
    if not cells:
        raise InputError(f"none of the chosen missions is for {', '.join(map(str, players))} players")
    left_out = [f"{m.id} at {', '.join(str(p) for p in players if not plays(m, p))}"
                for m in chosen if not all(plays(m, p) for p in players)]
    if not left_out:
        return cells, []
    shown = "; ".join(left_out[:5]) + (f"; and {len(left_out) - 5} more" if len(left_out) > 5 else "")
    return cells, [f"left out, as not for these player counts: {shown}"]


def family_cells(missions_text, mission_file, objectives_text, players):
    """Return the cells of a Family Adventure sweep: missions, or random-objective experiments."""
    if objectives_text is not None:
        if missions_text is not None or mission_file is not None:
            raise InputError("--objectives draws random missions; leave out --missions and --mission-file")
        counts = parse_numbers(objectives_text, "--objectives", 0, OBJECTIVE_CARDS)
        return [(objective_cell(k, p), None) for p in players for k in counts], []
    found = load_family_missions(mission_file) if mission_file else built_in_family_missions()
    if not found:
        raise InputError(f"no missions in {mission_file}")
    return mission_cells({m.id.split("/", 1)[1]: m for m in found.values()}, missions_text, players,
                         "crew family missions")


def missions_numbers_or_names(text: str) -> list[str]:
    """Return mission names from `1-50`, `5,17`, or names like `variant-5`; `difficulty-1..20` is
    difficulty-1, difficulty-2, ..., difficulty-20."""
    if all(ch.isdigit() or ch in ",- " for ch in text):
        return [str(n) for n in parse_numbers(text, "--missions", 1, 10_000)]
    names = []
    for name in (part.strip() for part in text.split(",")):
        stem, _, last = name.partition("..")
        base, _, first = stem.rpartition("-")
        if last and base and first.isdigit() and last.isdigit() and int(first) <= int(last):
            names += [f"{base}-{n}" for n in range(int(first), int(last) + 1)]
        else:
            names.append(name)
    return names


def is_pattern(mission) -> bool:
    """Return True for a pattern mission (a Journey special stage)."""
    return getattr(mission, "pattern", None) is not None


def default_name(game, missions_text, tasks_text, owners_text, objectives_text, space_text, players_text, seed) -> str:
    if tasks_text:
        what = f"tasks-{tasks_text}-{owners_text or 'draft'}"
    elif objectives_text:
        what = f"{game}-objectives-{objectives_text}"
    else:
        what = f"{game}-{missions_text or 'all'}"
    if space_text:
        what += f"-space-{space_text}"
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in f"{what}-p{players_text}-seed{seed}")
