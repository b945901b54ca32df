"""The reference solver: hand-worked deals, witness replay, and cross-checks on random small deals.

Seats are numbered clockwise from 0; without r4 the Commander is seat 0 unless
given. In the comments "seat 0 leads b9" means the first card of the trick.
Every hand-worked deal without a budget is also solved by the other engines
(kernel, CP-SAT, the default portfolio): same answer, and a legal witness.
"""

import itertools

import pytest
from conftest import check_witness, deals_and_missions, missions_for, small_deals, tokens_respected
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.core.cards import parse_card
from solver.core.deal import parse_deal
from solver.core.solution import REFERENCE_PLAYS_PER_SECOND, Limits, Outcome
from solver.engines import cpsat, kernel, portfolio
from solver.engines.reference import solve
from solver.missions.tasks import draft_counts, make_task_mission, parse_tokens, task_quotas

# --- helpers ---------------------------------------------------------------------


def C(name: str) -> int:
    return parse_card(name)


def make_case(deal_text, tasks, tokens=None, owners=None, commander=None):
    deal = parse_deal(deal_text, commander)
    cards = [C(word) for word in tasks.split()]
    mission = make_task_mission(deal, cards, parse_tokens(tokens) if tokens else None, owners)
    return deal, mission


OTHER_ENGINES = (kernel.solve, cpsat.solve, portfolio.solve)


def run(deal_text, tasks, tokens=None, owners=None, commander=None, limits=Limits()):
    """Solve, and for a WIN check the witness; return the reference's solution.

    Without a budget every other engine must give the same answer and a legal witness.
    """
    deal, mission = make_case(deal_text, tasks, tokens, owners, commander)
    solution = solve(deal, mission, limits)
    others = OTHER_ENGINES if limits == Limits() else ()
    for answer in (solution, *(engine(deal, mission) for engine in others)):
        assert answer.outcome is solution.outcome, answer.engine
        if answer.outcome is Outcome.WIN:
            check_witness(deal, mission, answer)
    return solution


def trick_with(solution, name):
    """Return the trick of the witness that holds card `name`."""
    return next(t for t in solution.tricks if C(name) in t.cards)


def cards(text):
    return tuple(C(word) for word in text.split())


# --- following suit -------------------------------------------------------------------


def test_following_suit_forces_a_loss():
    # Seat 0 must win b5, held by seat 1 with p1.
    # Seat 0 leads b1: seat 1 must follow with b5 and wins it.
    # Seat 0 leads p9: seat 1 must follow with p1, then trick 2 is b1 against b5 again.
    assert run("p9 b1 | p1 b5 | p2 g3", "b5", owners=[0]).outcome is Outcome.LOSS


def test_void_in_the_led_suit_lets_a_task_be_discarded():
    # As above, but seat 1 holds g1 instead of p1: on p9 it is void in pink and
    # discards b5; seat 2 must follow with p2; p9 wins b5 for seat 0.
    solution = run("p9 b1 | g1 b5 | p2 g3", "b5", owners=[0])
    assert solution.outcome is Outcome.WIN
    assert solution.tricks[0].cards == cards("p9 b5 p2")  # the only winning first trick
    assert solution.tricks[0].winner == 0
    assert solution.assignment == {C("b5"): 0}


# --- trumps ---------------------------------------------------------------------


def test_trump_lead_must_be_followed_with_trumps():
    # Seat 0 must win y5, held by seat 1 with r1.
    # Seat 0 leads r2: seat 1 must follow with r1 (cannot discard y5); then y1 against y5.
    # Seat 0 leads y1: seat 1 must follow with y5, which wins.
    assert run("r2 y1 | r1 y5 | g1 g2", "y5", owners=[0]).outcome is Outcome.LOSS


def test_no_trump_in_hand_may_discard_on_a_trump_lead():
    # Seat 1 holds g3 instead of r1: on r2 it discards y5 and r2 wins it for seat 0.
    solution = run("r2 y1 | g3 y5 | g1 g2", "y5", owners=[0])
    assert solution.outcome is Outcome.WIN
    assert solution.tricks[0].cards[:2] == cards("r2 y5")
    assert solution.tricks[0].winner == 0


def test_trump_led_and_followed_the_highest_trump_wins():
    # Seat 0 holds only trumps and leads one; seat 1 must follow with r3 and wins.
    # Seat 1 must win p7 (seat 2): seat 2, void in trumps, discards p7 in trick 1.
    # (If seat 2 keeps p7, trick 2 is g2 led, seat 2's p7, seat 0's trump: seat 0 wins.)
    solution = run("r1 r2 | r3 g2 | g1 p7", "p7", owners=[1])
    assert solution.outcome is Outcome.WIN
    first = solution.tricks[0]
    assert first.leader == 0 and first.cards[0] in cards("r1 r2")
    assert first.cards[1:] == cards("r3 p7")
    assert first.winner == 1
    assert len(solution.tricks) == 1


def test_trump_led_and_followed_loss():
    # Same deal, seat 2 must win p7: trick 1 goes to seat 1's forced r3, trick 2 to
    # seat 0's remaining trump; seat 2 has no trump and never wins a trick.
    assert run("r1 r2 | r3 g2 | g1 p7", "p7", owners=[2]).outcome is Outcome.LOSS


def test_trumping_when_void_wins_a_task():
    # Seat 1 must win b9 (seat 0). Seat 0 holds only blue and leads blue twice;
    # seat 2 must follow blue with b2 in trick 1 and keeps g2, so a green trick
    # would go to seat 2. Seat 1's only way: trump b9 with r1.
    solution = run("b8 b9 | g1 r1 | b2 g2", "b9", owners=[1])
    assert solution.outcome is Outcome.WIN
    trick = trick_with(solution, "b9")
    assert C("r1") in trick.cards
    assert trick.winner == 1


def test_no_trump_no_win():
    # Same deal with p1 instead of r1: seat 1 cannot win a blue-led trick, and
    # seat 0 leads blue in both tricks.
    assert run("b8 b9 | g1 p1 | b2 g2", "b9", owners=[1]).outcome is Outcome.LOSS


def test_commander_is_the_r4_holder_and_leads():
    # Seat 2 holds r4, so it leads trick 1 even though seat 0 is listed first.
    # Seat 2 must win p1: lead r4 (seat 0 discards p1) or p5 (seat 0 follows with p1).
    solution = run("p1 p2 | p3 p4 | r4 p5", "p1", owners=[2])
    assert solution.outcome is Outcome.WIN
    assert solution.tricks[0].leader == 2


# --- order tokens ------------------------------------------------------------------
# In FORCED every trick is forced: seat 0 holds only blue and leads it; seats 1 and 2
# must follow with b1 and b2, so trick 1 = {b8|b9, b1, b2} won by seat 0; in trick 2
# seats 1 and 2 have only pink and seat 0 wins again: {b, p1, p2}.
# So b1 and b2 are always completed in trick 1, p1 and p2 in trick 2, all by seat 0.

FORCED = "b8 b9 | b1 p1 | b2 p2"


@pytest.mark.parametrize(
    "tokens, outcome",
    [
        ("1,2", Outcome.WIN),  # b1 first, then p1
        ("2,1", Outcome.LOSS),  # p1 cannot come before b1
        (">,>>", Outcome.WIN),
        (">>,>", Outcome.LOSS),  # b1 (>>) is done while p1 (>) is open
        ("-,Ω", Outcome.WIN),  # p1 last
        ("Ω,-", Outcome.LOSS),  # b1 (Ω) is done while p1 is open
        ("-,1", Outcome.LOSS),  # BGA reading: an untokened task may not come before 1
        ("1,-", Outcome.WIN),
        ("-,-", Outcome.WIN),
    ],
)
def test_each_token_kind_in_a_forced_order(tokens, outcome):
    solution = run(FORCED, "b1 p1", tokens, owners=[0, 0])
    assert solution.outcome is outcome


def test_forced_deal_witness():
    solution = run(FORCED, "b1 p1", "1,2", owners=[0, 0])
    assert [t.winner for t in solution.tricks] == [0, 0]
    assert [t.completed for t in solution.tricks] == [(C("b1"),), (C("p1"),)]


@pytest.mark.parametrize(
    "tasks, tokens, outcome",
    [
        ("b1 b2 p1", "1,2,3", Outcome.WIN),  # 1 and 2 together in trick 1, then 3
        ("b1 b2 p1", "1,3,2", Outcome.LOSS),  # 1 and 3 together while 2 (p1) is open
        ("b1 b2 p1", "2,1,3", Outcome.WIN),  # 1 and 2 together, whichever card has which
        ("b1 b2", ">>,>", Outcome.WIN),  # > and >> in one trick are simultaneous
        ("b1 p1 p2", "-,-,Ω", Outcome.WIN),  # Ω together with the last other task
        ("b1 p1 p2", "-,Ω,>", Outcome.WIN),
        ("b1 b2 p1", "-,Ω,-", Outcome.LOSS),  # Ω in trick 1 while p1 is open
        ("b1 p1 p2", "1,2,-", Outcome.WIN),  # untokened together with the last absolute
        ("b1 b2 p1", "1,-,2", Outcome.LOSS),  # untokened b2 with 1 while 2 is open
    ],
)
def test_same_trick_completions(tasks, tokens, outcome):
    owners = [0] * len(tasks.split())
    assert run(FORCED, tasks, tokens, owners=owners).outcome is outcome


# --- the three-player extra card -----------------------------------------------------


@pytest.mark.parametrize("owners", [[0], [1], [2], None])
def test_task_on_the_never_played_card_is_a_loss(owners):
    # Seat 0 holds 3 cards, the others 2: two tricks, one card stays in seat 0's hand.
    # Commander seat 1 leads blue twice and wins both (b8/b9 beat everything);
    # seat 0 must follow blue each time, so p5 is never played.
    solution = run("b1 b2 p5 | b8 b9 | b3 b4", "p5", owners=owners, commander=1)
    assert solution.outcome is Outcome.LOSS


def test_extra_card_holder_can_play_the_task_in_another_layout():
    # Now seat 0 holds b8 b9 p5: it follows seat 1's blue lead with a 8/9, wins
    # trick 1, and leads p5 in trick 2, which nobody can follow: p5 wins.
    # (Leading blue again would leave p5 unplayed.)
    solution = run("b8 b9 p5 | b1 b2 | b3 b4", "p5", owners=[0], commander=1)
    assert solution.outcome is Outcome.WIN
    assert solution.tricks[0].leader == 1
    assert solution.tricks[1].leader == 0
    assert solution.tricks[1].cards[0] == C("p5")
    assert len(solution.tricks) == 2


# --- drafted missions ---------------------------------------------------------------


def test_draft_counts_make_a_loss_that_other_owners_would_win():
    # Everyone holds one pink and one blue; seat 1 holds both 9s and wins both tricks.
    # Drafting 2 tasks with Commander seat 0 gives counts 1/1/0, so seat 1 may own only
    # one task: LOSS. Fixed owners 1,1 (counts 0/2/0) win.
    deal = "p1 b1 | p9 b9 | p2 b2"
    assert run(deal, "p2 b2").outcome is Outcome.LOSS
    assert run(deal, "p2 b2", owners=[0, 1]).outcome is Outcome.LOSS
    won = run(deal, "p2 b2", owners=[1, 1])
    assert won.outcome is Outcome.WIN
    assert won.assignment == {C("p2"): 1, C("b2"): 1}


def test_drafted_assignment_is_found():
    # The pink trick always goes to p9 (seat 0), the blue one to b9 (seat 1): everyone
    # follows suit. Counts 1/1/0 fit: p2 to seat 0, b2 to seat 1.
    solution = run("p9 b1 | p1 b9 | p2 b2", "p2 b2")
    assert solution.outcome is Outcome.WIN
    assert solution.assignment == {C("p2"): 0, C("b2"): 1}


def test_draft_counts_follow_the_commander():
    # Same deal, Commander seat 1: counts are 0/1/1 and seat 2 never wins a trick.
    deal, mission = make_case("p9 b1 | p1 b9 | p2 b2", "p2 b2", commander=1)
    assert task_quotas(mission, deal) == (0, 1, 1)
    assert solve(deal, mission).outcome is Outcome.LOSS


def test_drafted_tasks_split_between_the_right_seats():
    # Commander seat 2; 2 tasks drafted: seat 2 and seat 0 take one each, seat 1 none.
    # Seat 0 holds both tasks p1 p2 and only pinks (p5 too); seat 1: p4 b1 b3; seat 2: p3 b2 b4.
    # Trick 1, seat 2 leads b4 (or b2, with seat 1 playing b1); seat 0 (void in blue) discards
    #   p1; seat 1 follows blue: seat 2 wins p1.
    # Trick 2, seat 2 leads p3; seat 0 plays p5, seat 1 must follow with p4: seat 0 wins.
    # Trick 3, seat 0 leads p2; the others have no pink: seat 0 wins p2.
    # (Leading p3 first loses: seat 0 must overtake p4 with p5, then wins both p1 and p2.)
    solution = run("p1 p2 p5 | p4 b1 b3 | p3 b2 b4", "p1 p2", commander=2)
    assert solution.outcome is Outcome.WIN
    assert sorted(solution.assignment.values()) == [0, 2]
    assert solution.tricks[0].cards[0] in cards("b2 b4")  # a blue lead, as reasoned above
    assert solution.tricks[0].winner == 2


def test_the_same_cards_played_need_the_right_leader():
    # Commander seat 2 holds p1 p4 p6 and must win p1 (one drafted task). p1 can only win
    # a pink trick that nobody else can follow, so seats 0 (p2 p5 b1) and 1 (p3 p7 b2) must
    # first play out their pinks, and seat 2 must then be on lead.
    # Trick 1, seat 2 leads p4 or p6; seat 0 plays p2 or p5; seat 1 plays p7 and wins.
    # Trick 2, seat 1 leads p3; seat 2 plays its other pink, seat 0 its other pink (5 or less):
    # seat 2 wins.
    # Trick 3, seat 2 leads p1; seats 0 and 1 discard b1 and b2: p1 wins.
    # Other ways to play the same pinks leave seat 0 or 1 on lead in trick 3, and they lose: if
    # seat 2 wins trick 1, seat 1's p7 wins trick 2.
    solution = run("p2 p5 b1 | p3 p7 b2 | p1 p4 p6", "p1", commander=2)
    assert solution.outcome is Outcome.WIN
    assert solution.tricks[0].cards[0] in cards("p4 p6") and solution.tricks[0].cards[2] == C("p7")
    assert solution.tricks[1].leader == 1 and solution.tricks[1].winner == 2
    assert solution.tricks[2].cards == cards("p1 b1 b2")


def test_no_tasks_is_won_at_once():
    solution = run("p1 p2 | p3 p4 | p5 p6", "")
    assert solution.outcome is Outcome.WIN
    assert solution.tricks == [] and solution.assignment == {}


# --- budget -------------------------------------------------------------------------

DEMO = (
    "p2 p7 b1 b6 g2 g9 y3 y8 r1 r4 | p3 p8 b2 b7 g3 g7 y4 y9 r2 p1 | "
    "p4 p9 b3 b8 g4 g8 y1 y5 r3 b9 | p5 p6 b4 b5 g1 g5 g6 y2 y6 y7"
)


@pytest.mark.parametrize(
    "deal_text, tasks, tokens",
    [(DEMO, "g3 b8 y2 p6", "1,2,-,-"), (FORCED, "b1 p1", None), ("p9 b1 | p1 b5 | p2 g3", "b5", None)],
)
def test_one_node_budget_gives_unknown(deal_text, tasks, tokens):
    solution = run(deal_text, tasks, tokens, limits=Limits(max_nodes=1))
    assert solution.outcome is Outcome.UNKNOWN
    assert solution.tricks == [] and solution.assignment == {}


def test_budget_exactly_large_enough_changes_nothing():
    deal, mission = make_case("p9 b1 | g1 b5 | p2 g3", "b5", owners=[0])
    full = solve(deal, mission)
    assert solve(deal, mission, Limits(max_nodes=full.nodes)).outcome is full.outcome
    assert solve(deal, mission, Limits(max_nodes=full.nodes - 1)).outcome is Outcome.UNKNOWN


def test_work_budget_is_counted_in_card_plays():
    # A second of work is REFERENCE_PLAYS_PER_SECOND plays of the plain search: the deal above needs
    # `full.nodes`, so a budget one play short of them is UNKNOWN and the one of them decides it.
    deal, mission = make_case("p9 b1 | g1 b5 | p2 g3", "b5", owners=[0])
    full = solve(deal, mission)
    assert full.work == full.nodes / REFERENCE_PLAYS_PER_SECOND
    assert solve(deal, mission, Limits(max_work=full.work)).outcome is full.outcome
    short = solve(deal, mission, Limits(max_work=(full.nodes - 1) / REFERENCE_PLAYS_PER_SECOND))
    assert short.outcome is Outcome.UNKNOWN


# --- properties on random small deals --------------------------------------------------


@settings(max_examples=300)
@given(deals_and_missions())
def test_every_win_witness_replays_and_completes_the_tasks(case):
    deal, mission = case
    solution = solve(deal, mission)
    assert solution.outcome in (Outcome.WIN, Outcome.LOSS)
    if solution.outcome is Outcome.WIN:
        check_witness(deal, mission, solution)
    else:
        assert solution.tricks == [] and solution.assignment == {}


def owner_lists(count, players, counts):
    """Every assignment of `count` tasks to seats with exactly `counts` tasks per seat."""
    for owners in itertools.product(range(players), repeat=count):
        if tuple(owners.count(s) for s in range(players)) == tuple(counts):
            yield list(owners)


@settings(max_examples=80)
@given(deals_and_missions(drafted=True, max_cards=4))
def test_draft_is_any_assignment_with_the_draft_counts(case):
    deal, mission = case
    counts = draft_counts(len(mission.cards), deal.players, deal.commander)
    fixed_wins = any(
        solve(deal, make_task_mission(deal, mission.cards, mission.tokens, owners)).outcome is Outcome.WIN
        for owners in owner_lists(len(mission.cards), deal.players, counts)
    )
    drafted = solve(deal, mission)
    assert drafted.outcome is (Outcome.WIN if fixed_wins else Outcome.LOSS)
    if drafted.outcome is Outcome.WIN:
        # The drafted witness is also a win for its own assignment as fixed owners.
        owners = [drafted.assignment[c] for c in mission.cards]
        fixed = make_task_mission(deal, mission.cards, mission.tokens, owners)
        assert solve(deal, fixed).outcome is Outcome.WIN


# An independent brute force: rules re-implemented from the rules text, every legal line
# of play searched depth-first without memo; owners and tokens checked after each trick
# with the test's own checker (conftest.tokens_respected).


def suit(c: int) -> int:
    return c // 9  # pink 0, blue 1, green 2, yellow 3, trump 4 (bits 36-39)


def my_legal(hand: list[int], trick: list[int]) -> list[int]:
    if not trick:
        return hand
    follow = [c for c in hand if suit(c) == suit(trick[0])]
    return follow or hand


def my_winner(leader: int, trick: list[int]) -> int:
    trumps = [c for c in trick if suit(c) == 4]
    best = max(trumps) if trumps else max(c for c in trick if suit(c) == suit(trick[0]))
    return (leader + trick.index(best)) % len(trick)


def trick_plays(hands: list[list[int]], leader: int):
    """Yield (cards of the trick in play order, hands after it) for every legal trick."""
    players = len(hands)

    def extend(trick, hands):
        if len(trick) == players:
            yield trick, hands
            return
        seat = (leader + len(trick)) % players
        for c in my_legal(hands[seat], trick):
            after = hands[:seat] + [[x for x in hands[seat] if x != c]] + hands[seat + 1 :]
            yield from extend(trick + [c], after)

    yield from extend([], hands)


def brute_force_wins(deal, mission) -> bool:
    """Depth-first over every legal line (no memo); a line stops when it is won or failed."""
    players = deal.players
    hands = [[c for c in range(40) if hand >> c & 1] for hand in deal.hands]
    tricks = min(len(h) for h in hands)
    tasks = list(mission.cards)
    quotas = draft_counts(len(tasks), players, deal.commander)
    never = float("inf")  # completion trick of an open task: an order broken now stays broken

    def still_possible(when, winners):
        for i, w in enumerate(winners):
            if w is not None and mission.owners is not None and w != mission.owners[i]:
                return False
        if mission.owners is None and any(winners.count(s) > quotas[s] for s in range(players)):
            return False
        return tokens_respected(mission.tokens, when)

    def play(hands, leader, index, when, winners):
        if None not in winners:
            return True  # every task done: the mission is won at once
        if index == tricks:
            return False  # a task card was never played
        for trick, after in trick_plays(hands, leader):
            winner = my_winner(leader, trick)
            when2, winners2 = list(when), list(winners)
            for i, c in enumerate(tasks):
                if c in trick:
                    when2[i], winners2[i] = index, winner
            if still_possible(when2, winners2) and play(after, winner, index + 1, when2, winners2):
                return True
        return False

    return play(hands, deal.commander, 0, [never] * len(tasks), [None] * len(tasks))


tiny_deals = small_deals(min_cards=2, max_cards=4)


@settings(max_examples=400)
@given(tiny_deals.flatmap(lambda deal: st.tuples(st.just(deal), missions_for(deal))))
def test_outcome_agrees_with_brute_force(case):
    deal, mission = case
    solution = solve(deal, mission)
    assert solution.outcome is (Outcome.WIN if brute_force_wins(deal, mission) else Outcome.LOSS)


@settings(max_examples=60)
@given(deals_and_missions())
def test_node_budget_is_exact(case):
    deal, mission = case
    full = solve(deal, mission)
    assert solve(deal, mission, Limits(max_nodes=1)).outcome is Outcome.UNKNOWN
    assert solve(deal, mission, Limits(max_nodes=full.nodes)).outcome is full.outcome
    assert solve(deal, mission, Limits(max_nodes=full.nodes - 1)).outcome is Outcome.UNKNOWN


@settings(max_examples=150)
@given(deals_and_missions(max_cards=4))
def test_equivalence_reduction_changes_no_outcome(case):
    # Dropping plays equivalent to a higher play of the same hand must not change any answer.
    deal, mission = case
    assert solve(deal, mission).outcome == solve(deal, mission, equivalence=False).outcome
