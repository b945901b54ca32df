"""Missions as data: TOML mission files, loaded into typed, validated objects.

A mission file holds one game's missions (see docs/missions.md for the format):

    game = "planet-nine"
    [[mission]]
    number = 5
    choose = [{ name = "X", by = "commander", among = "others" }]
    rules = [{ rule = "tricks", who = "X", at_most = 0 }]

Loading checks every field and collects every problem, each a one-line message
naming the file, the mission, the field, what is wrong and what is allowed.
Types only: the solvers compile these objects, they never import a solver.
"""

import dataclasses
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from solver.core.cards import (
    COLOUR_CARDS,
    COLOUR_RANKS,
    COLOURS,
    SUIT_MASKS,
    SUIT_NAMES,
    TRUMP,
    CardError,
    card,
    card_set,
    format_cards,
    parse_card_list,
)
from solver.core.errors import InputError
from solver.core.mission_file import MissionError, Reader, parse_mission_table, read_mission_file, start_entry
from solver.missions.conditions import MAX_COUNTERS
from solver.missions.pattern import RELATIONS, Clause, Pattern
from solver.missions.tasks import ABSOLUTE, TaskError, Token, check_tokens, parse_token
from solver.trick.chance import PASS_LEFT_AFTER_TRICK_1

ASSIGNMENTS = ("draft", "commander-decision", "commander-distribution")
COMMUNICATIONS = ("normal", "dead-zone", "muted-player")  # plus "silent-until-trick-N"
CHOOSERS = ("commander", "crew", "automatic", "draft")  # draft: a Deep Sea task card's holder
AMONG = ("others", "anyone")  # plus "not NAME" and "left of CARD"
OPTIONS = ("token-swap", "token-move")
CHANCE = (PASS_LEFT_AFTER_TRICK_1,)
BOUNDS = {"at_least", "at_most", "exactly"}
TRICK_FIELDS = {"won_with", "containing", "containing_at_least", "without", "value", "tricks", "as_many"}
RELATIONS_OF_COUNTS = ("more", "fewer", "same")
THAN_PLAYERS = ("each-other", "others")  # plus a player's name
RULE_FIELDS = {
    "tricks": {"who"} | TRICK_FIELDS | BOUNDS,
    "won-cards": {"who", "cards"} | BOUNDS,
    "sequence": {"before", "after", "across_tricks"},
    "call": {"who"},
    "balanced": {"gap"},
    "own-trick": {"cards", "ordered"},
    "task-in-last-trick": {"token"},
    "compare-tricks": {"who", "than", "relation"},
    "compare-cards": {"who", "cards", "than", "relation", "at_least"},
    "run": {"who"} | BOUNDS,
    "leads": {"who", "cards"},
    "any": {"of"},
}
KINDS = ("standard", "individual", "special", "pattern", "task")  # task: a Deep Sea task card
PATTERN_CLAUSES = {
    "all": {"all"}, "none": {"none"}, "position": {"position", "cards"}, "next": {"next"},
    "count": {"count"} | BOUNDS,
}
SCORE_EACH = ("trick", "player")
MISSION_FIELDS = {
    "number", "name", "title", "tasks", "tokens", "assignment", "five_player_pass",
    "communication", "choose", "rules", "options", "chance", "players", "kind", "difficulty", "score",
    "pattern", "adjustments", "assumptions", "redeal",
}
BUILT_IN = {"planet-nine": "planet_nine.toml", "journey": "journey.toml", "deep-sea": "deep_sea.toml"}
CAPTAIN = "captain"  # Deep Sea's name of the Commander, the holder of submarine 4 (trump 4)
HOLDER = "holder"  # the player who drafts a Deep Sea task card
LAST = 0  # trick numbers count from 1; 0 - k means "the last trick minus k"


@dataclass(frozen=True)
class Choice:
    """A player the mission names: chosen by the commander or the crew, or fixed by the deal."""

    name: str
    by: str
    among: str


@dataclass(frozen=True)
class TricksRule:
    """Count the tricks won by `who` (with a winning card in `won_with`, holding a card of
    `containing`, among trick numbers `tricks`); the count must end within [at_least, at_most]."""

    who: str | None = None  # a player, "not PLAYER", or None for anyone
    won_with: int = 0  # card set; 0 means any card
    containing: int = 0  # card set; 0 means any trick
    tricks: tuple[tuple[int, int], ...] = ()  # inclusive ranges; LAST - k counts from the end
    at_least: int = 0
    at_most: int | None = None
    without: int = 0  # card set the trick holds none of; 0 means no such condition
    value: tuple[int, int] | None = None  # the trick's total value (sum of its numbers) within this range
    as_many: int = 0  # card set the trick holds as many cards of as of `containing`; 0 means no such condition
    containing_at_least: int = 1  # how many cards of `containing` the trick holds at least


@dataclass(frozen=True)
class WonCardsRule:
    """Count the cards of `cards` won by `who` ("each": every player on their own; None: the crew);
    the count must end within [at_least, at_most]."""

    who: str | None
    cards: int
    at_least: int = 0
    at_most: int | None = None


@dataclass(frozen=True)
class SequenceRule:
    """No card of `after` is played directly after a card of `before` (within a trick, or also
    from one trick's last card to the next trick's first with `across_tricks`)."""

    before: int
    after: int
    across_tricks: bool = False


@dataclass(frozen=True)
class CallRule:
    """`who` calls before trick 1 how many tricks they will win, and must win exactly that many.

    Under perfect information the crew calls the number a winning line gives, so a call alone
    never fails: the rule is kept as data and adds no condition (docs/missions.md).
    """

    who: str


@dataclass(frozen=True)
class Score:
    """A special mission's score: one step per trick matching `trick` (a TricksRule's trick
    conditions) or per player winning at least one card of `won`, minus `deduction` for 3/4/5
    players, never below 0; a score of 0 fails the mission."""

    each: str  # "trick" or "player"
    deduction: tuple[int, int, int]
    trick: TricksRule | None = None
    won: int = 0

    def deduction_for(self, players: int) -> int:
        return self.deduction[players - 3]


@dataclass(frozen=True)
class BalancedRule:
    """After every trick, the most and the fewest tricks won by any player differ by at most `gap`."""

    gap: int = 1


@dataclass(frozen=True)
class OwnTrickRule:
    """Every card of `cards` is played and wins a trick holding no other card of `cards`;
    `ordered`: in ascending order."""

    cards: int
    ordered: bool = False


@dataclass(frozen=True)
class TaskInLastTrickRule:
    """The task carrying `token` is completed in the last trick."""

    token: Token


@dataclass(frozen=True)
class CompareTricksRule:
    """At the end, `who` has won more, fewer or the same number of tricks than `than`: a player, each
    other player ("each-other"), or all the others together ("others")."""

    who: str
    than: str
    relation: str


@dataclass(frozen=True)
class CompareCardsRule:
    """At the end, `who` has won more, fewer or as many cards of `cards` as of `than`, and at least
    `at_least` of `cards`."""

    who: str
    cards: int
    than: int
    relation: str
    at_least: int = 0


@dataclass(frozen=True)
class RunRule:
    """The longest run of consecutive tricks `who` wins ends within [at_least, at_most]."""

    who: str
    at_least: int = 0
    at_most: int | None = None


@dataclass(frozen=True)
class LeadsRule:
    """Every trick `who` leads is led with a card of `cards` (another lead, even a forced one, fails)."""

    who: str
    cards: int


@dataclass(frozen=True)
class AnyRule:
    """At least one of the rules `of` holds (each alternative is a case of its own)."""

    of: tuple["Rule", ...]


@dataclass(frozen=True)
class PlayersRule:
    """`rule` holds with a player count of `players` only (Deep Sea's thresholds by player count)."""

    players: tuple[int, ...]
    rule: "Rule"


Rule = (TricksRule | WonCardsRule | SequenceRule | CallRule | BalancedRule | OwnTrickRule | TaskInLastTrickRule
        | CompareTricksRule | CompareCardsRule | RunRule | LeadsRule | AnyRule | PlayersRule)


def rules_for(rules, players: int) -> tuple:
    """Return the rules that hold with `players` players (a PlayersRule for them: its rule)."""
    return tuple(rule.rule if isinstance(rule, PlayersRule) else rule for rule in rules
                 if not isinstance(rule, PlayersRule) or players in rule.players)


@dataclass(frozen=True)
class Mission:
    """One mission: random task cards with tokens and an assignment mode, special rules, choices."""

    id: str
    title: str = ""
    tasks: int = 0
    tokens: tuple[Token, ...] = ()  # attached in order to the first drawn tasks
    assignment: str = "draft"
    five_player_pass: bool = False
    communication: str = "normal"  # no effect under perfect information
    choose: tuple[Choice, ...] = ()
    rules: tuple[Rule, ...] = ()
    options: tuple[str, ...] = ()
    chance: tuple[str, ...] = ()
    players: tuple[int, ...] = (3, 4, 5)
    kind: str = "standard"  # Journey: standard, individual (one member's), special (scored), pattern (special stage)
    difficulty: tuple[int, ...] = ()  # Journey: steps for 3, 4, 5 players (data only)
    score: Score | None = None  # special missions
    pattern: Pattern | None = None  # a special stage's table pattern
    adjustments: bool = True  # a special stage's 3- and 5-player adjustments (not in stages 19 and 20)
    assumptions: tuple[str, ...] = ()  # what the data assumes where the rulebook is silent (shown to users)
    redeal: tuple[int, ...] = ()  # Deep Sea: card sets; a deal where one hand holds all of one is dealt again
    total: int = 0  # Deep Sea: a difficulty total, its task cards drawn with each deal (solver/missions/deep_sea.py)
    parts: tuple["Mission", ...] = ()  # Deep Sea: the task cards a mission of several is made of (drafted_cards)

    @property
    def cards(self) -> tuple[str, ...]:
        """Return the ids of the task cards a Deep Sea mission of several is made of."""
        return tuple(part.id for part in self.parts)

    def summary(self) -> str:
        """Return the special rules in a few words."""
        parts = [describe_rule(rule) for rule in self.rules]
        if self.score is not None:
            parts.append(describe_score(self.score))
        if self.pattern is not None:
            parts.append(describe_pattern(self.pattern))
        parts += [f"{c.name}: chosen by {c.by} among {c.among}" for c in self.choose]
        parts += list(self.options) + list(self.chance)
        if self.five_player_pass:
            parts.append("5p task pass")
        return "; ".join(parts) or "-"


def describe_trick_conditions(rule: TricksRule) -> list[str]:
    what = []
    if rule.won_with:
        what.append(f"with {describe_cards(rule.won_with)}")
    if rule.containing:
        least = f"{rule.containing_at_least}+ of " if rule.containing_at_least > 1 else ""
        what.append(f"holding {least}{describe_cards(rule.containing)}")
    if rule.without:
        what.append(f"holding no {describe_cards(rule.without)}")
    if rule.as_many:
        what.append(f"and as many {describe_cards(rule.as_many)}")
    if rule.value is not None:
        what.append(f"of total value {describe_bounds(*rule.value)}")
    if rule.tricks:
        what.append("in tricks " + ",".join(describe_range(r) for r in rule.tricks))
    return what


def describe_bounds(at_least: int, at_most: int | None) -> str:
    if at_most is not None and at_least == at_most:
        return f"= {at_most}"
    return f">= {at_least}" if at_most is None else f"{at_least}..{at_most}"


def describe_score(score: Score) -> str:
    if score.each == "trick":
        event = " ".join(["each trick"] + describe_trick_conditions(score.trick))
    else:
        event = f"each player who wins {describe_cards(score.won)}"
    return f"score: {event}, minus {'/'.join(map(str, score.deduction))} for 3/4/5 players"


def describe_pattern(pattern: Pattern) -> str:
    """Return a table pattern in a few words."""
    parts = []
    for clause in pattern.clauses:
        if clause.kind in ("all", "none"):
            parts.append(f"{clause.kind} {describe_cards(clause.cards)}")
        elif clause.kind == "position":
            parts.append(f"card {describe_trick(clause.position)} {describe_cards(clause.cards)}")
        elif clause.kind == "next":
            parts.append(f"each next {clause.relation}")
        else:
            parts.append(f"{describe_cards(clause.cards)} {describe_bounds(clause.at_least, clause.at_most)}")
    return "table pattern: " + ", ".join(parts)


def describe_rule(rule: Rule) -> str:
    """Return a rule in a few words."""
    if isinstance(rule, TricksRule):
        what = [f"tricks won by {rule.who or 'anyone'}"] + describe_trick_conditions(rule)
        return " ".join(what) + " " + describe_bounds(rule.at_least, rule.at_most)
    if isinstance(rule, WonCardsRule):
        who = {"each": "each player", None: "the crew"}.get(rule.who, rule.who)
        return f"{describe_cards(rule.cards)} won by {who} {describe_bounds(rule.at_least, rule.at_most)}"
    if isinstance(rule, SequenceRule):
        across = " (also across tricks)" if rule.across_tricks else ""
        return f"no {describe_cards(rule.after)} directly after {describe_cards(rule.before)}{across}"
    if isinstance(rule, CallRule):
        return f"{rule.who} calls the tricks they win (always met under perfect information)"
    if isinstance(rule, BalancedRule):
        return f"trick counts within {rule.gap}"
    if isinstance(rule, OwnTrickRule):
        return f"each of {describe_cards(rule.cards)} wins its own trick" + (", ascending" if rule.ordered else "")
    if isinstance(rule, CompareTricksRule):
        than = {"each-other": "each other player", "others": "the others together"}.get(rule.than, rule.than)
        return f"{rule.who} wins {rule.relation} tricks than {than}" if rule.relation != "same" else \
            f"{rule.who} wins as many tricks as {than}"
    if isinstance(rule, CompareCardsRule):
        least = f" (at least {rule.at_least})" if rule.at_least else ""
        if rule.relation == "same":
            return f"{rule.who} wins as many {describe_cards(rule.cards)}{least} as {describe_cards(rule.than)}"
        return f"{rule.who} wins {rule.relation} {describe_cards(rule.cards)}{least} than {describe_cards(rule.than)}"
    if isinstance(rule, RunRule):
        return f"longest run of tricks won by {rule.who} {describe_bounds(rule.at_least, rule.at_most)}"
    if isinstance(rule, LeadsRule):
        return f"{rule.who} leads only {describe_cards(rule.cards)}"
    if isinstance(rule, AnyRule):
        return "one of: " + " | ".join(describe_rule(r) for r in rule.of)
    if isinstance(rule, PlayersRule):
        return f"with {'/'.join(map(str, rule.players))} players: {describe_rule(rule.rule)}"
    return f"task {rule.token} completed in the last trick"


def describe_range(bounds: tuple[int, int]) -> str:
    first, last = (describe_trick(t) for t in bounds)
    return first if first == last else f"{first}..{last}"


def describe_trick(number: int) -> str:
    return str(number) if number > LAST else "last" if number == LAST else f"last{number}"


# --- card sets and trick numbers ---------------------------------------------------------

NAMED_SETS = {SUIT_NAMES[s]: SUIT_MASKS[s] for s in COLOURS} | {"trumps": SUIT_MASKS[TRUMP], "colours": COLOUR_CARDS}
NAMED_SETS |= {f"colour-{rank}": card_set(card(s, rank) for s in COLOURS) for rank in range(1, COLOUR_RANKS + 1)}
NAMED_SETS |= {  # every card of a number, helis (trumps) included: a grey card in the Journey logbook
    f"number-{rank}": NAMED_SETS[f"colour-{rank}"] | (card_set([card(TRUMP, rank)]) if rank <= 4 else 0)
    for rank in range(1, COLOUR_RANKS + 1)
}


def parse_card_set(text: str) -> int:
    """Return the card set written as set names (pink, trumps, colour-9, number-1, ...) and cards, e.g.
    "number-1 number-2" or "p9 b9"."""
    cards = 0
    for word in str(text).replace(",", " ").split():
        if word in NAMED_SETS:
            cards |= NAMED_SETS[word]
            continue
        try:
            cards |= card_set(parse_card_list(word))
        except CardError:
            raise InputError(f"unknown card set {word!r} (allowed: {', '.join(NAMED_SETS)}, or cards like 'p9 b9')")
    return cards


def nonempty_card_set(text, field_name: str) -> int:
    """Return a card set that must name at least one card."""
    cards = parse_card_set(text)
    if not cards:
        raise InputError(f"{field_name} must name cards, e.g. \"yellow\" or \"p9 b9\"")
    return cards


def describe_cards(cards: int) -> str:
    """Return the name of a card set."""
    for name, mask in NAMED_SETS.items():
        if mask == cards:
            return name
    return format_cards(cards)


def parse_trick_number(text: str) -> int:
    """Return a trick number: 1, 2, ... or LAST - k for `last` / `last-k`."""
    word = text.strip()
    if word.isascii() and word.isdigit() and int(word) >= 1:
        return int(word)
    if word == "last":
        return LAST
    if word.startswith("last-") and word[5:].isascii() and word[5:].isdigit():
        return LAST - int(word[5:])
    raise InputError(f"unknown trick number {word!r} (allowed: 1, 2, ..., last, last-1, ...)")


def parse_trick_range(text: str) -> tuple[int, int]:
    """Return the inclusive range written `A` or `A..B`."""
    first, _, last = str(text).partition("..")
    return parse_trick_number(first), parse_trick_number(last or first)


def resolve_trick(number: int, tricks: int) -> int:
    """Return a trick number (1-based) in a deal of `tricks` tricks."""
    return number if number > LAST else tricks + number


# --- loading -------------------------------------------------------------------------------


def load_missions(path: str | Path) -> dict[str, Mission]:
    """Return the missions of a file by id; raise MissionError listing every problem."""
    return parse_missions(read_mission_file(path), str(path))


def parse_missions(text: str, source: str) -> dict[str, Mission]:
    """Return the missions of TOML `text` by id; raise MissionError listing every problem."""
    return parse_mission_table(text, source, read_mission)


def read_mission(reader: Reader, game: str, index: int, entry: dict) -> Mission | None:
    """Return one checked mission, or None after recording its problems."""
    started = start_entry(reader, game, index, entry, MISSION_FIELDS)
    if started is None:
        return None
    mission_id, title, bad, before = started
    tasks = entry.get("tasks", 0)
    if not isinstance(tasks, int) or isinstance(tasks, bool) or not 0 <= tasks <= COLOUR_CARDS.bit_count():
        bad("tasks", "must be a whole number of task cards from 0 to 36")
        tasks = 0
    tokens = read_tokens(entry.get("tokens", []), tasks, bad)
    assignment = entry.get("assignment", "draft")
    if assignment not in ASSIGNMENTS:
        bad("assignment", f"unknown mode {assignment!r} (allowed: {', '.join(ASSIGNMENTS)})")
    five_player_pass = entry.get("five_player_pass", False)
    if not isinstance(five_player_pass, bool):
        bad("five_player_pass", "must be true or false")
    elif five_player_pass and not tasks:
        bad("five_player_pass", "needs task cards to pass")
    communication = entry.get("communication", "normal")
    if not valid_communication(communication):
        bad("communication", f"unknown {communication!r} (allowed: {', '.join(COMMUNICATIONS)}, silent-until-trick-N)")
    players = entry.get("players", [3, 4, 5])
    if not isinstance(players, list) or not players or any(p not in (3, 4, 5) for p in players):
        bad("players", "must be a list of player counts among 3, 4, 5")
        players = [3, 4, 5]
    choose = read_choices(entry.get("choose", []), bad)
    names = {c.name for c in choose}
    rules = read_rules(entry.get("rules", []), names, tokens, bad)
    options = read_names(entry.get("options", []), OPTIONS, "options", bad)
    if options and not any(t.kind == ABSOLUTE for t in tokens):
        bad("options", "token-swap and token-move need numbered tokens")
    chance = read_names(entry.get("chance", []), CHANCE, "chance", bad)
    kind = entry.get("kind", "standard")
    if kind not in KINDS:
        bad("kind", f"unknown kind {kind!r} (allowed: {', '.join(KINDS)})")
    difficulty = entry.get("difficulty", [])
    if not isinstance(difficulty, list) or len(difficulty) not in (0, 3) or any(
        not isinstance(d, int) or isinstance(d, bool) or d < 0 for d in difficulty
    ):
        bad("difficulty", "must be three whole numbers, the steps for 3, 4 and 5 players")
        difficulty = []
    score = read_score(entry.get("score"), bad)
    if (kind == "special") != ("score" in entry) and kind in KINDS:
        bad("score", "a special mission needs a score, and only a special mission has one")
    pattern, adjustments = read_special_stage(entry, kind, bad)
    assumptions = entry.get("assumptions", [])
    if not isinstance(assumptions, list) or not all(isinstance(a, str) and a for a in assumptions):
        bad("assumptions", "must be a list of sentences (strings)")
        assumptions = []
    if kind == "individual" and not choose and len(reader.problems) == before:  # else a rule already says so
        bad("choose", "an individual mission names the crew member it is assigned to (a choose entry)")
    if kind == "task" and ([(c.name, c.by) for c in choose] != [(HOLDER, "crew")] or tasks):
        bad("choose", f"a Deep Sea task card has no task cards and one holder: choose = [{{ name = \"{HOLDER}\", "
                      "by = \"crew\" }] (among = \"others\" when the captain may not take it)")
    if counters_needed(rules, score) > MAX_COUNTERS:
        bad("rules", f"needs {counters_needed(rules, score)} trick counters with 5 players; at most {MAX_COUNTERS}")
    redeal = entry.get("redeal", [])
    try:
        redeal = tuple(nonempty_card_set(cards, "redeal") for cards in redeal) if isinstance(redeal, list) else None
    except InputError:
        redeal = None
    if redeal is None:
        bad("redeal", "must be a list of card sets such as [\"r1 r2 r3 r4\"]: a hand holding all of one is dealt again")
        redeal = ()
    if len(reader.problems) > before:
        return None
    return Mission(
        mission_id, title, tasks, tokens, assignment, five_player_pass, communication,
        choose, rules, options, chance, tuple(sorted(players)), kind, tuple(difficulty), score, pattern, adjustments,
        tuple(assumptions), redeal,
    )


def read_special_stage(entry: dict, kind: str, bad) -> tuple[Pattern | None, bool]:
    """Return a pattern mission's table pattern and whether the 3- and 5-player adjustments apply."""
    adjustments = entry.get("adjustments", True)
    if not isinstance(adjustments, bool):
        bad("adjustments", "must be true or false")
    if (kind == "pattern") != ("pattern" in entry):
        bad("pattern", "a pattern mission (special stage) needs a pattern, and only a pattern mission has one")
        return None, True
    if kind != "pattern":
        if "adjustments" in entry:
            bad("adjustments", "only a pattern mission (special stage) has the 3- and 5-player adjustments")
        return None, True
    for key in ("tasks", "rules", "choose", "chance", "five_player_pass", "options"):
        if entry.get(key):
            bad(key, "a pattern mission (special stage) has no tasks, rules or choices besides its pattern")
    try:
        return read_pattern(entry["pattern"]), adjustments is not False
    except InputError as error:
        bad("pattern", str(error))
        return None, True


def read_pattern(value) -> Pattern:
    """Return a table pattern: a list of clauses (solver/missions/pattern.py); raise InputError naming what is wrong."""
    if not isinstance(value, list) or not value or not all(isinstance(v, dict) for v in value):
        raise InputError("must be a list of clauses like { next = \"same-type\" } or { all = \"colours\" }")
    clauses = []
    for entry in value:
        kinds = [k for k in PATTERN_CLAUSES if k in entry]
        if len(kinds) != 1:
            raise InputError(f"each clause names one of {', '.join(PATTERN_CLAUSES)}, got {sorted(entry)}")
        kind = kinds[0]
        for key in sorted(set(entry) - PATTERN_CLAUSES[kind]):
            raise InputError(f"{kind}: unknown field {key!r} (allowed: {', '.join(sorted(PATTERN_CLAUSES[kind]))})")
        clauses.append(read_clause(kind, entry))
    return Pattern(tuple(clauses))


def read_clause(kind: str, entry: dict) -> Clause:
    """Return one clause of a table pattern."""
    if kind in ("all", "none"):
        return Clause(kind, cards=nonempty_card_set(entry[kind], kind))
    if kind == "position":
        if "cards" not in entry:
            raise InputError("position needs cards, e.g. { position = \"last\", cards = \"pink\" }")
        return Clause(kind, cards=nonempty_card_set(entry["cards"], "cards"), position=parse_trick_number(str(entry["position"])))
    if kind == "next":
        if entry["next"] not in RELATIONS:
            raise InputError(f"unknown relation {entry['next']!r} (allowed: {', '.join(RELATIONS)})")
        return Clause(kind, relation=entry["next"])
    at_least, at_most = read_bounds(entry)
    return Clause(kind, cards=nonempty_card_set(entry["count"], "count"), at_least=at_least, at_most=at_most)


def counters_needed(rules, score: Score | None, players: int = 5) -> int:
    """Return the trick counters a mission's rules and score take with `players` players at most."""
    needed = sum(rule_counters(rule, players) for rule in rules)
    return needed + (0 if score is None else 1 if score.each == "trick" else players)


def rule_counters(rule: Rule, players: int) -> int:
    """Return the trick counters one rule takes with `players` players at most (an `any`: its largest
    alternative)."""
    if isinstance(rule, WonCardsRule) and rule.who == "each":
        return players
    if isinstance(rule, (TricksRule, WonCardsRule, OwnTrickRule, TaskInLastTrickRule)):
        return 1
    if isinstance(rule, CompareTricksRule):
        return players if rule.than == "each-other" else 2
    if isinstance(rule, CompareCardsRule):
        return 2
    if isinstance(rule, AnyRule):
        return max(rule_counters(r, players) for r in rule.of)
    if isinstance(rule, PlayersRule):
        return rule_counters(rule.rule, players)
    return 0


def read_score(value, bad) -> Score | None:
    """Return a special mission's score: { each = "trick", <trick conditions>, deduction = [5, 2, 0] }
    or { each = "player", won = "pink", deduction = [1, 1, 1] }."""
    if value is None:
        return None
    if not isinstance(value, dict):
        bad("score", "must be a table like { each = \"trick\", without = \"number-1 number-2\", deduction = [5, 2, 0] }")
        return None
    each, deduction = value.get("each"), value.get("deduction", [0, 0, 0])
    if each not in SCORE_EACH:
        bad("score", f"each must be {' or '.join(SCORE_EACH)}, got {each!r}")
        return None
    if not isinstance(deduction, list) or len(deduction) != 3 or any(
        not isinstance(d, int) or isinstance(d, bool) or d < 0 for d in deduction
    ):
        bad("score", "deduction must be three whole numbers, for 3, 4 and 5 players")
        return None
    allowed = (TRICK_FIELDS if each == "trick" else {"won"}) | {"each", "deduction"}
    for key in sorted(set(value) - allowed):
        bad("score", f"unknown field {key!r} for each = {each!r} (allowed: {', '.join(sorted(allowed))})")
    try:
        if each == "trick":
            return Score(each, tuple(deduction), trick=read_trick_conditions(value, None, (0, None)))
        return Score(each, tuple(deduction), won=nonempty_card_set(value.get("won", ""), "won"))
    except InputError as error:
        bad("score", str(error))
        return None


def valid_communication(value) -> bool:
    if value in COMMUNICATIONS:
        return True
    prefix = "silent-until-trick-"
    return isinstance(value, str) and value.startswith(prefix) and value[len(prefix):].isdigit()


def read_tokens(value, tasks: int, bad) -> tuple[Token, ...]:
    """Return the tokens of a mission: at most one per task."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        bad("tokens", "must be a list of tokens such as [\"1\", \"2\"] or [\">\", \">>\"] or [\"omega\"]")
        return ()
    try:
        tokens = tuple(parse_token(v) for v in value)
        if None in tokens:
            raise TaskError("'-' is not a token here: list only the tokens")
        check_tokens(tokens)
    except TaskError as error:
        bad("tokens", str(error))
        return ()
    if len(tokens) > tasks:
        bad("tokens", f"{len(tokens)} tokens but only {tasks} tasks to carry them")
        return ()
    return tokens


def read_choices(value, bad) -> tuple[Choice, ...]:
    """Return the players a mission names."""
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        bad("choose", "must be a list of tables like { name = \"X\", by = \"commander\", among = \"others\" }")
        return ()
    choices = []
    for entry in value:
        name, by, among = entry.get("name"), entry.get("by"), entry.get("among", "anyone")
        for key in sorted(set(entry) - {"name", "by", "among"}):
            bad("choose", f"unknown field {key!r} (allowed: name, by, among)")
        if not isinstance(name, str) or not name.isidentifier() or name == "commander":
            bad("choose", f"name {name!r} must be a word such as X, A, B (not 'commander')")
            continue
        if by not in CHOOSERS:
            bad("choose", f"{name}: 'by' must be one of {', '.join(CHOOSERS)}")
        known = {c.name for c in choices}
        if not valid_among(among, known):
            bad("choose", f"{name}: 'among' {among!r} unknown (allowed: others, anyone, not NAME, left of CARD)")
        if (by == "automatic") != (isinstance(among, str) and among.startswith("left of ")):
            bad("choose", f"{name}: only an automatic choice is 'left of CARD', and it must be")
        choices.append(Choice(name, by, among))
    return tuple(choices)


def valid_among(among, known: set[str]) -> bool:
    if among in AMONG:
        return True
    if not isinstance(among, str):
        return False
    if among.startswith("seat "):  # a Deep Sea card held by a given seat (held_by)
        return among[5:].removesuffix(", not the captain").isdigit()
    if among.startswith("not "):
        return among[4:] in known
    if among.startswith("left of "):
        try:
            parse_card_list(among[8:])
        except CardError:
            return False
        return len(among[8:].split()) == 1
    return False


def read_names(value, allowed, field_name, bad) -> tuple[str, ...]:
    if not isinstance(value, list) or any(v not in allowed for v in value):
        bad(field_name, f"must be a list of: {', '.join(allowed)}")
        return ()
    return tuple(value)


def read_rules(value, names: set[str], tokens, bad) -> tuple[Rule, ...]:
    """Return the special rules of a mission."""
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        bad("rules", "must be a list of tables like { rule = \"tricks\", who = \"X\", at_most = 0 }")
        return ()
    rules = []
    for entry in value:
        kind = entry.get("rule")
        if kind not in RULE_FIELDS:
            bad("rules", f"unknown rule {kind!r} (allowed: {', '.join(RULE_FIELDS)})")
            continue
        for key in sorted(set(entry) - RULE_FIELDS[kind] - {"rule", "players"}):
            bad("rules", f"{kind}: unknown field {key!r} (allowed: {', '.join(sorted(RULE_FIELDS[kind] | {'players'}))})")
        try:
            rule = read_rule(kind, entry, names, tokens)
            if "players" in entry:
                rule = PlayersRule(read_player_counts(entry["players"]), rule)
            rules.append(rule)
        except InputError as error:
            bad("rules", f"{kind}: {error}")
    return tuple(rules)


def read_player_counts(value) -> tuple[int, ...]:
    """Return a rule's player counts: a list among 3, 4, 5."""
    if not isinstance(value, list) or not value or any(p not in (3, 4, 5) for p in value):
        raise InputError("players must be a list of player counts among 3, 4, 5")
    return tuple(sorted(set(value)))


def read_bounds(entry: dict) -> tuple[int, int | None]:
    """Return (at_least, at_most) from at_least / at_most / exactly; raise InputError when wrong."""
    bounds = [entry.get(k) for k in ("at_least", "at_most", "exactly")]
    if any(b is not None and (not isinstance(b, int) or isinstance(b, bool) or b < 0) for b in bounds):
        raise InputError("at_least, at_most and exactly must be whole numbers >= 0")
    at_least, at_most, exactly = bounds
    if exactly is not None:
        if at_least is not None or at_most is not None:
            raise InputError("give exactly, or at_least/at_most, not both")
        at_least = at_most = exactly
    if at_least is None and at_most is None:
        raise InputError("needs a bound: at_least, at_most or exactly")
    at_least = at_least or 0
    if at_most is not None and at_most < at_least:
        raise InputError(f"at_most {at_most} is below at_least {at_least}")
    return at_least, at_most


def read_who(who, names: set[str], extra: set[str]) -> None:
    if who is not None:
        player = who[4:] if isinstance(who, str) and who.startswith("not ") else who
        if player not in names | {"commander", CAPTAIN} | extra:
            allowed = ", ".join(sorted(names | extra)) or "none"
            raise InputError(f"who {who!r} is not 'commander' or a chosen player ({allowed}), optionally after 'not '")


def read_value(value) -> tuple[int, int] | None:
    """Return a total-value range from 23 or "20..25"."""
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value, value
    low, _, high = str(value).partition("..")
    if not (low.strip().isdigit() and high.strip().isdigit() and int(low) <= int(high)):
        raise InputError(f"value must be a number or a range like \"20..25\", got {value!r}")
    return int(low), int(high)


def read_trick_conditions(entry: dict, who, bounds: tuple[int, int | None]) -> TricksRule:
    """Return the trick conditions of a `tricks` rule or a score (won_with, containing, without, value, tricks)."""
    ranges = entry.get("tricks", [])
    if not isinstance(ranges, list):
        raise InputError("tricks must be a list of trick numbers or ranges such as [\"1\", \"last\"] or [\"2..last-1\"]")
    if "containing" in entry and "without" in entry:
        raise InputError("give containing or without, not both")
    for key in ("as_many", "containing_at_least"):
        if key in entry and "containing" not in entry:
            raise InputError(f"{key} needs containing: give both")
    held = entry.get("containing_at_least", 1)
    if not isinstance(held, int) or isinstance(held, bool) or not 1 <= held <= 5:
        raise InputError("containing_at_least must be a whole number from 1 to 5")
    return TricksRule(
        who,
        parse_card_set(entry["won_with"]) if "won_with" in entry else 0,
        parse_card_set(entry["containing"]) if "containing" in entry else 0,
        tuple(parse_trick_range(r) for r in ranges),
        *bounds,
        parse_card_set(entry["without"]) if "without" in entry else 0,
        read_value(entry.get("value")),
        nonempty_card_set(entry["as_many"], "as_many") if "as_many" in entry else 0,
        held,
    )


def read_rule(kind: str, entry: dict, names: set[str], tokens) -> Rule:
    """Return one rule; raise InputError naming what is wrong."""
    if kind == "tricks":
        read_who(entry.get("who"), names, set())
        return read_trick_conditions(entry, entry.get("who"), read_bounds(entry))
    if kind == "won-cards":
        who = entry.get("who")
        read_who(who, names, {"each"})
        return WonCardsRule(who, nonempty_card_set(entry.get("cards", ""), "cards"), *read_bounds(entry))
    if kind == "sequence":
        across = entry.get("across_tricks", False)
        if not isinstance(across, bool):
            raise InputError("across_tricks must be true or false")
        before, after = (nonempty_card_set(entry.get(key, ""), key) for key in ("before", "after"))
        return SequenceRule(before, after, across)
    if kind == "call":
        who = entry.get("who")
        if who not in names:
            raise InputError(f"who must be a chosen player ({', '.join(sorted(names)) or 'none'}), got {who!r}")
        return CallRule(who)
    if kind == "balanced":
        gap = entry.get("gap", 1)
        if not isinstance(gap, int) or isinstance(gap, bool) or gap < 1:
            raise InputError("gap must be a whole number >= 1")
        return BalancedRule(gap)
    if kind == "own-trick":
        ordered = entry.get("ordered", False)
        if not isinstance(ordered, bool):
            raise InputError("ordered must be true or false")
        return OwnTrickRule(parse_card_set(entry.get("cards", "")), ordered)
    if kind in ("compare-tricks", "compare-cards", "run", "leads"):
        return read_deep_sea_rule(kind, entry, names)
    if kind == "any":
        return read_any(entry, names, tokens)
    token = parse_token(str(entry.get("token", "")))
    if token not in tokens:
        raise InputError(f"token {token} is not among the mission's tokens")
    return TaskInLastTrickRule(token)


def read_player(entry: dict, names: set[str]) -> str:
    """Return the one player a rule names (`who`): a chosen player, or the commander (captain)."""
    who = entry.get("who")
    if who not in names | {"commander", CAPTAIN}:
        allowed = ", ".join(sorted(names | {"commander", CAPTAIN}))
        raise InputError(f"who must be one player ({allowed}), got {who!r}")
    return who


def read_relation(entry: dict) -> str:
    relation = entry.get("relation")
    if relation not in RELATIONS_OF_COUNTS:
        raise InputError(f"relation must be one of {', '.join(RELATIONS_OF_COUNTS)}, got {relation!r}")
    return relation


def read_deep_sea_rule(kind: str, entry: dict, names: set[str]) -> Rule:
    """Return a compare-tricks, compare-cards, run or leads rule; raise InputError naming what is wrong."""
    who = read_player(entry, names)
    if kind == "compare-tricks":
        than = entry.get("than")
        if than not in THAN_PLAYERS and than not in names | {"commander", CAPTAIN} or than == who:
            raise InputError(f"than must be {', '.join(THAN_PLAYERS)} or another player, got {than!r}")
        return CompareTricksRule(who, than, read_relation(entry))
    if kind == "compare-cards":
        at_least = entry.get("at_least", 0)
        if not isinstance(at_least, int) or isinstance(at_least, bool) or at_least < 0:
            raise InputError("at_least must be a whole number >= 0")
        cards, than = (nonempty_card_set(entry.get(key, ""), key) for key in ("cards", "than"))
        return CompareCardsRule(who, cards, than, read_relation(entry), at_least)
    if kind == "run":
        return RunRule(who, *read_bounds(entry))
    return LeadsRule(who, nonempty_card_set(entry.get("cards", ""), "cards"))


def read_any(entry: dict, names: set[str], tokens) -> AnyRule:
    """Return an `any` rule: a list of two or more alternative rules (no `any` inside)."""
    alternatives = entry.get("of")
    if not isinstance(alternatives, list) or len(alternatives) < 2 or not all(isinstance(a, dict) for a in alternatives):
        raise InputError("of must be a list of two or more rules like { rule = \"won-cards\", ... }")
    rules = []
    for alternative in alternatives:
        kind = alternative.get("rule")
        if kind not in RULE_FIELDS or kind == "any":
            raise InputError(f"unknown rule {kind!r} in of (allowed: {', '.join(k for k in RULE_FIELDS if k != 'any')})")
        for key in sorted(set(alternative) - RULE_FIELDS[kind] - {"rule"}):
            raise InputError(f"{kind}: unknown field {key!r} (allowed: {', '.join(sorted(RULE_FIELDS[kind]))})")
        rules.append(read_rule(kind, alternative, names, tokens))
    return AnyRule(tuple(rules))


# --- Deep Sea: task cards drafted together, and difficulty totals ---------------------------------

DIFFICULTY_PREFIX = "difficulty-"
HELD_BY = ":"  # deep-sea/44:2, card 44 held by seat 2 ("@" names a sweep cell's stage space)
MAX_TOTAL = 40  # the largest difficulty total deep-sea/difficulty-N accepts (the printed missions end at 25)


def drafted_cards(cards: list[Mission]) -> Mission:
    """Return the mission of several Deep Sea task cards, drafted: from the captain clockwise, each player
    in turn takes a card left they may take (setup.draft_assignments). Card i's holder is named holder<i>
    (1-based) in its rules; the difficulty is the cards' sum per player count."""
    if any(task.kind != "task" for task in cards):
        raise InputError("only Deep Sea task cards (kind = \"task\") are drafted together, e.g. deep-sea/12+44")
    if len({task.id for task in cards}) < len(cards):
        raise InputError("a mission holds each task card once")
    game = cards[0].id.split("/", 1)[0]
    choose, rules = [], []
    for i, task in enumerate(cards, 1):
        name = f"{HOLDER}{i}"
        choose += [dataclasses.replace(choice, name=name, by="draft") for choice in task.choose]
        rules += [renamed(rule, HOLDER, name) for rule in task.rules]
    players = tuple(p for p in (3, 4, 5) if all(p in task.players for task in cards))
    difficulty = tuple(sum(task.difficulty[k] for task in cards) for k in range(3))
    return Mission(
        f"{game}/" + "+".join(task.id.split("/", 1)[1] for task in cards),
        " + ".join(f"{task.id.split('/', 1)[1]} ({task.title})" for task in cards),
        choose=tuple(choose), rules=tuple(rules), players=players, kind="standard", difficulty=difficulty,
        assumptions=tuple(dict.fromkeys(a for task in cards for a in task.assumptions)),
        redeal=tuple(dict.fromkeys(r for task in cards for r in task.redeal)),
        parts=tuple(cards),
    )


def held_by(card: Mission, seat: str) -> Mission:
    """Return a Deep Sea task card held by a given seat (deep-sea/44:2: seat 2 holds card 44)."""
    if card.kind != "task":
        raise InputError(f"only a Deep Sea task card has a holder to give a seat: {card.id}{HELD_BY}{seat}")
    if not (seat.isascii() and seat.isdigit() and int(seat) < 5):
        raise InputError(f"the holder after {HELD_BY} is a seat number 0-4, got {seat!r}")
    among = f"seat {seat}" if not card.choose[0].among == "others" else f"seat {seat}, not the captain"
    return dataclasses.replace(card, id=f"{card.id}{HELD_BY}{seat}", choose=(dataclasses.replace(card.choose[0], among=among),))


def renamed(rule: Rule, old: str, new: str) -> Rule:
    """Return `rule` with the player `old` named `new` (its who, than, and the rules inside it)."""
    changes = {key: new for key in ("who", "than") if getattr(rule, key, None) == old}
    if isinstance(rule, AnyRule):
        changes["of"] = tuple(renamed(r, old, new) for r in rule.of)
    if isinstance(rule, PlayersRule):
        changes["rule"] = renamed(rule.rule, old, new)
    if isinstance(getattr(rule, "who", None), str) and rule.who == f"not {old}":
        changes["who"] = f"not {new}"
    return dataclasses.replace(rule, **changes)


def difficulty_total_mission(game: str, text: str, missions: dict[str, Mission]) -> Mission:
    """Return the mission of a difficulty total: its task cards drawn with each deal (solver/missions/deep_sea.py)."""
    if not any(m.kind == "task" and m.id.startswith(f"{game}/") for m in missions.values()):
        raise MissionError([f"{game} has no task cards to draw for a difficulty total"])
    if not (text.isascii() and text.isdigit() and 1 <= int(text) <= MAX_TOTAL):
        raise MissionError([f"a difficulty total is a whole number from 1 to {MAX_TOTAL}, e.g. {game}/{DIFFICULTY_PREFIX}12"])
    total = int(text)
    return Mission(f"{game}/{DIFFICULTY_PREFIX}{total}", f"task cards drawn to a difficulty of {total}", total=total)


# --- built-in missions -----------------------------------------------------------------------


def built_in_missions() -> dict[str, Mission]:
    """Return every mission shipped with the package, by id."""
    missions = {}
    for file_name in BUILT_IN.values():
        source = resources.files("solver.missions").joinpath(file_name)
        missions |= parse_missions(source.read_text(encoding="utf-8"), f"built-in {file_name}")
    return missions


def find_mission(name: str, mission_file: str | Path | None = None) -> Mission:
    """Return the mission named `name` (e.g. planet-nine/17) from a file or the built-in set; Deep Sea's
    task cards also as several drafted together (deep-sea/12+44+80) and as a difficulty total
    (deep-sea/difficulty-12)."""
    missions = load_missions(mission_file) if mission_file else built_in_missions()
    if name in missions:
        return missions[name]
    game, _, rest = name.partition("/")
    if game and rest.startswith(DIFFICULTY_PREFIX):
        return difficulty_total_mission(game, rest[len(DIFFICULTY_PREFIX):], missions)
    if game and "+" in rest:
        return drafted_cards([find_mission(f"{game}/{part}", mission_file) for part in rest.split("+")])
    card, at, seat = rest.partition(HELD_BY)
    if game and at:
        return held_by(find_mission(f"{game}/{card}", mission_file), seat)
    if mission_file and "/" not in name:
        matches = [m for m in missions.values() if m.id.split("/", 1)[1] == name]
        if len(matches) == 1:
            return matches[0]
    raise MissionError([f"unknown mission {name!r} (for example {next(iter(missions), 'none')}; see crew missions list)"])
