"""The default engine's schedule (solver/engines/portfolio.py): the kernel's budget, then CP-SAT and the
kernel in turns of growing, deterministic length.

Every answer is checked against one engine alone with no budget (the engines' agreement with the
reference is tested in test_engine_support); the engines named are what the schedule promises: the
same turns and the same node count run after run, whatever the machine's speed within the budget.
"""

import json
import time

import pytest
from conftest import check_witness

from solver.core.solution import KERNEL_PLAYS_PER_SECOND, Limits, Outcome
from solver.engines import cpsat
from solver.engines.kernel import KernelSolver
from solver.engines.portfolio import (
    CP_SAT_EFFORT,
    DFS_NODES,
    FIXED_CP_SAT_EFFORT,
    GROWN_TURNS,
    KERNEL_TURN_NODES,
    SHORT_DFS_NODES,
    TURN_GROWTH,
    PortfolioSolver,
    kernel_alone,
)
from solver.experiments.bench import LOSS_TASK_SETS
from solver.missions.dealer import deal_mission
from solver.missions.mission import find_mission
from solver.missions.stage import space_cases
from solver.trick.spaces import parse_space

FIXED_14 = next(deal_set for deal_set in LOSS_TASK_SETS if deal_set.name == "4p-fixed-14")


def no_1_no_2(space: str, index: int, events: int, players: int = 3):
    """Deal `index` (seed 1) of "no 1 and no 2" with `players` on `space`, asking for `events` scoring tricks."""
    game = deal_mission(find_mission("journey/no-1-no-2"), parse_space(space), players, 1, index)
    [(_, deal, mission)] = space_cases(game.stage, game.deal, game.setups(events))
    return deal, mission


def decided_twice(deal, mission, alone=KernelSolver(16).solve):
    """Solve twice with fresh portfolios; both answers must name the same turns and nodes, and agree
    with the engine `alone`."""
    first, again = (PortfolioSolver(16).solve(deal, mission, Limits(max_work=60)) for _ in range(2))
    assert (first.outcome, first.engine, first.nodes, first.branches) == (
        again.outcome, again.engine, again.nodes, again.branches)
    assert first.outcome is alone(deal, mission).outcome
    if first.outcome is Outcome.WIN:
        check_witness(deal, mission, first)
    return first


def test_an_easy_deal_is_the_kernels():
    # Trick counters (the scoring tricks): the short budget; this one needs 124 card plays.
    answer = decided_twice(*no_1_no_2("train", 512, 9))
    assert (answer.outcome, answer.engine) == (Outcome.WIN, "kernel") and answer.nodes < SHORT_DFS_NODES
    assert answer.branches == 0


@pytest.mark.parametrize("index, outcome", [(0, Outcome.LOSS), (2, Outcome.WIN)])
def test_cp_sat_decides_after_the_kernels_budget(index, outcome):
    # 14 fixed-owner tasks, 4 players: the kernel's 50k plays do not settle them, CP-SAT's first turn does.
    deal, mission = FIXED_14.case(index)[:2]
    answer = decided_twice(deal, mission, cpsat.solve)
    assert (answer.outcome, answer.engine, answer.nodes) == (outcome, "kernel>cpsat", SHORT_DFS_NODES)
    # CP-SAT's work is reported beside the kernel's plays: its own branch count in its first turn.
    assert answer.branches == cpsat.solve(deal, mission, Limits(), FIXED_CP_SAT_EFFORT).nodes > 0


@pytest.mark.parametrize("index, outcome", [(0, Outcome.LOSS), (2, Outcome.WIN)])
def test_a_node_budget_with_an_effort_gives_cp_sat_a_turn(index, outcome):
    # A round of cases.solve_in_rounds: the kernel within its card plays, then CP-SAT within its effort.
    deal, mission = FIXED_14.case(index)[:2]
    capped = Limits(SHORT_DFS_NODES, cp_sat_effort=CP_SAT_EFFORT)
    answer, again = (PortfolioSolver(16).solve(deal, mission, capped) for _ in range(2))
    assert (answer.outcome, answer.engine, answer.nodes) == (outcome, "kernel>cpsat", SHORT_DFS_NODES)
    assert (again.outcome, again.engine, again.nodes, again.branches) == (
        answer.outcome, answer.engine, answer.nodes, answer.branches)
    assert answer.branches == cpsat.solve(deal, mission, Limits(), CP_SAT_EFFORT).nodes > 0
    if outcome is Outcome.WIN:
        check_witness(deal, mission, answer)
    # Without an effort the budget is the kernel's alone (the crew's samples, --budget-nodes).
    alone = PortfolioSolver(16).solve(deal, mission, Limits(SHORT_DFS_NODES))
    assert (alone.outcome, alone.engine, alone.nodes) == (Outcome.UNKNOWN, "kernel", SHORT_DFS_NODES)


def difficulty_20_deal_3():
    """A Deep Sea total of seven cards drafted: 7,560 assignments, 80 still open after the first round's 2,000
    card plays each (crew bench's difficulty-20 set, deal 3), 77 after a million each (24 s); all lost."""
    from solver.experiments.bench import SweepSet
    from solver.experiments.sweep import dealt

    return dealt(SweepSet("deep-sea/difficulty-20", 4).batch(4), 3)


def test_the_rounds_give_open_cases_a_cp_sat_turn():
    # An engine with no model of the cases together (a plain function): the second round's CP-SAT turns prove
    # every open case lost (solve_in_rounds, cases.ROUNDS).
    from solver.engines.cases import ROUNDS, solve_setups

    assert ROUNDS[1].cp_sat_effort and all(r.cp_sat_effort is None for r in (ROUNDS[0], ROUNDS[2]))
    game, portfolio = difficulty_20_deal_3(), PortfolioSolver(20)
    answer = solve_setups(game.deal, game.setups(), portfolio.solve, Limits(max_work=60), stage=game.stage)
    assert (answer.outcome, answer.engine) == (Outcome.LOSS, "kernel>cpsat")  # CP-SAT's proofs: propagation alone


def test_the_cases_the_first_round_leaves_open_go_to_one_model():
    # The same deal through a sweep's engine (TableSharing over the portfolio): the 80 open cases in one CP-SAT
    # model (cpsat.solve_cases) are lost at once, and the answer's plays are the first round's alone.
    from solver.engines.cases import ROUNDS, TableSharing, solve_setups

    game = difficulty_20_deal_3()
    answer = solve_setups(game.deal, game.setups(), TableSharing(PortfolioSolver(20)), Limits(max_work=60),
                          stage=game.stage)
    assert (answer.outcome, answer.engine) == (Outcome.LOSS, "kernel>cpsat") and answer.branches > 0
    assert answer.nodes <= len(game.setups()) * ROUNDS[0].max_nodes


def test_the_kernel_decides_when_cp_sat_leaves_a_deal_open():
    # Seven tricks with no 1 and no 2 on the train, 4 players: won. The kernel needs 78,360 plays (its budget of 50k,
    # trick conditions, then 28,360 of its next turn), CP-SAT more than its first turn.
    deal, mission = no_1_no_2("train", 76, 7, players=4)
    answer = decided_twice(deal, mission)
    assert (answer.outcome, answer.engine) == (Outcome.WIN, "kernel>cpsat>kernel")
    assert SHORT_DFS_NODES < answer.nodes <= SHORT_DFS_NODES + KERNEL_TURN_NODES
    assert cpsat.solve(deal, mission, Limits(), CP_SAT_EFFORT).outcome is Outcome.UNKNOWN


def test_cp_sat_refutes_a_clean_trick_in_its_first_turn():
    # Seven tricks with no 1 and no 2 on the train, 4 players: lost. Beyond the kernel's budget (it needs 94k plays),
    # CP-SAT's first turn proves it.
    answer = decided_twice(*no_1_no_2("train", 30, 7, players=4), cpsat.solve)
    assert (answer.outcome, answer.engine, answer.nodes) == (Outcome.LOSS, "kernel>cpsat", SHORT_DFS_NODES)


def test_three_players_clean_tricks_are_the_kernel_s_alone():
    # "No 1 and no 2" with 3 players (13 tricks), ten clean tricks on the train's deal 596: lost. The kernel needs
    # 121,504 plays, past its first budget, and CP-SAT gets no turn (kernel_alone). With 4 players, on the machete
    # (its trick values), where cards change hands one by one, or with the Ghost (two players), the turns stay.
    deal, mission = no_1_no_2("train", 596, 10)
    answer = decided_twice(deal, mission)
    assert (answer.outcome, answer.engine, answer.nodes, answer.branches) == (Outcome.LOSS, "kernel", 121_504, 0)
    assert kernel_alone(deal, mission) and kernel_alone(*no_1_no_2("skis", 596, 10))
    for other in (no_1_no_2("train", 596, 7, players=4), no_1_no_2("machete", 596, 10),
                  no_1_no_2("helicopter", 596, 10), no_1_no_2("jeep", 596, 10), no_1_no_2("train", 596, 10, players=2)):
        assert not kernel_alone(*other)
    assert not kernel_alone(*FIXED_14.case(0)[:2])


@pytest.mark.parametrize("space", ["jeep", "helicopter"])
def test_cp_sat_keeps_the_rest_where_cards_change_hands(space):
    # Ten tricks with no 1 and no 2 where cards change hands one by one (deals 540 and 767): won. After the
    # kernel's budget (the long one: cards change hands) CP-SAT keeps the rest of the time, more than its first turn.
    deal, mission = no_1_no_2(space, {"jeep": 540, "helicopter": 767}[space], 10)
    answer = decided_twice(deal, mission, cpsat.solve)
    assert (answer.outcome, answer.engine, answer.nodes) == (Outcome.WIN, "kernel>cpsat", DFS_NODES)
    assert cpsat.solve(deal, mission, Limits(), CP_SAT_EFFORT).outcome is Outcome.UNKNOWN
    assert PortfolioSolver.grown_turns(mission) == 0


def test_fixed_owners_give_cp_sat_a_longer_first_turn():
    # Deal 4 of the same set: a first turn of CP_SAT_EFFORT leaves it open (the kernel's next million plays too,
    # then CP-SAT's second turn proved it); with every owner fixed the first turn is FIXED_CP_SAT_EFFORT and proves
    # the loss (the kernel alone takes 30 s). Drafted tasks and trick conditions keep the short one.
    deal, mission = FIXED_14.case(4)[:2]
    answer = decided_twice(deal, mission, cpsat.solve)
    assert (answer.outcome, answer.engine, answer.nodes) == (Outcome.LOSS, "kernel>cpsat", SHORT_DFS_NODES)
    assert answer.branches == cpsat.solve(deal, mission, Limits(), FIXED_CP_SAT_EFFORT).nodes
    assert cpsat.solve(deal, mission, Limits(), CP_SAT_EFFORT).outcome is Outcome.UNKNOWN
    assert PortfolioSolver.first_effort(no_1_no_2("train", 512, 10)[1]) == CP_SAT_EFFORT < FIXED_CP_SAT_EFFORT
    drafted = deal_mission(find_mission("planet-nine/3"), parse_space("train"), 4, 1, 0)
    [(_, _, mission)] = space_cases(drafted.stage, drafted.deal, drafted.setups())
    assert PortfolioSolver.first_effort(mission) == CP_SAT_EFFORT


def test_cp_sat_keeps_the_rest_of_the_time_after_the_grown_turns():
    # Logbook mission 17 with 3 players, the sweep's deal 868: CP-SAT alone proves the loss in about 3 s, the
    # kernel alone in about 14; turns growing on to the 10 s budget left it UNKNOWN.
    game = deal_mission(find_mission("planet-nine/17"), parse_space("train"), 3, 1, 868)
    [(_, deal, mission)] = space_cases(game.stage, game.deal, game.setups())
    answer = PortfolioSolver(16).solve(deal, mission, Limits(max_work=60))
    assert (answer.outcome, answer.engine) == (Outcome.LOSS, ">".join(["kernel", "cpsat"] * 3))
    assert answer.nodes == SHORT_DFS_NODES + KERNEL_TURN_NODES * (1 + TURN_GROWTH) and GROWN_TURNS == 4


def test_the_work_budget_bounds_every_turn():
    # The same deal with 0.05 s of work: the first CP-SAT turn is cut short, and nothing is decided.
    answer = PortfolioSolver(16).solve(*FIXED_14.case(4)[:2], Limits(max_work=0.05))
    assert answer.outcome is Outcome.UNKNOWN and answer.engine == "kernel>cpsat"
    assert 0.05 <= answer.work < 0.051 and answer.seconds < 1  # CP-SAT checks its deterministic time now and then


def test_the_kernels_first_budget_follows_the_mission():
    # Trick counters: the short budget, but not where cards change hands one by one (CP-SAT's model
    # there costs tenths of a second); fixed owners likewise; drafted tasks alone: the long one.
    solver = PortfolioSolver(16)
    assert solver.dfs_budget(no_1_no_2("train", 512, 10)[1]) == SHORT_DFS_NODES
    assert solver.dfs_budget(no_1_no_2("helicopter", 512, 10)[1]) == DFS_NODES
    assert solver.dfs_budget(no_1_no_2("jeep", 512, 10)[1]) == DFS_NODES
    assert solver.dfs_budget(FIXED_14.case(0)[1]) == SHORT_DFS_NODES
    drafted = deal_mission(find_mission("planet-nine/3"), parse_space("train"), 4, 1, 0)
    [(_, _, mission)] = space_cases(drafted.stage, drafted.deal, drafted.setups())
    assert solver.dfs_budget(mission) == DFS_NODES


def test_the_cli_reports_cp_sat_s_branches_beside_the_kernel_s_plays():
    from click.testing import CliRunner

    from cli.main import main
    from solver.core.cards import format_card
    from solver.core.deal import format_deal

    deal, mission = FIXED_14.case(0)[:2]
    args = ["solve", "--deal", format_deal(deal), "--tasks", " ".join(format_card(c) for c in mission.cards),
            "--owners", ",".join(map(str, mission.owners)), "--engine", "auto"]
    text, as_json = (CliRunner().invoke(main, args + extra) for extra in ([], ["--json"]))
    branches = json.loads(as_json.stdout)["cp_sat_branches"]
    assert branches > 0 and f"+ {branches:,} CP-SAT branches" in text.stdout.splitlines()[0]


def test_the_budget_is_work_not_the_clock(monkeypatch):
    # docs/sweeps.md: "which deals are UNKNOWN depends only on the budget, never on the machine or its load". The
    # same deal, budget and turns with the clock running a thousand times fast (a machine that slow): the same
    # answer, turns and counts, where a wall-clock budget ran out in the kernel's first turn.
    deal, mission = FIXED_14.case(4)[:2]
    budget = Limits(max_work=0.3)
    normal = PortfolioSolver(16).solve(deal, mission, budget)
    real = time.perf_counter
    monkeypatch.setattr(time, "perf_counter", lambda: 1000 * real())
    slow = PortfolioSolver(16).solve(deal, mission, budget)
    assert (slow.outcome, slow.engine, slow.nodes, slow.branches, slow.work) == (
        normal.outcome, normal.engine, normal.nodes, normal.branches, normal.work)
    assert slow.seconds > 100 * normal.seconds and ">cpsat" in normal.engine
    assert normal.work <= budget.max_work + KERNEL_TURN_NODES / KERNEL_PLAYS_PER_SECOND


def test_a_kernel_turn_stops_at_the_plays_its_work_allows():
    # A second of work is KERNEL_PLAYS_PER_SECOND card plays: an undecided turn ends on that count exactly.
    deal, mission = FIXED_14.case(4)[:2]
    answer = KernelSolver(16).solve(deal, mission, Limits(max_work=0.001))
    assert (answer.outcome, answer.nodes) == (Outcome.UNKNOWN, KERNEL_PLAYS_PER_SECOND // 1000)
    assert answer.work == pytest.approx(0.001)
