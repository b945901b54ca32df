"""Task missions: draft counts, tokens, checks on task lists, token order, settling a trick."""

import math

import pytest
from conftest import token_lists, tokens_respected
from hypothesis import given
from hypothesis import strategies as st

from solver.core.cards import parse_card, parse_cards
from solver.core.deal import parse_deal
from solver.core.errors import InputError
from solver.missions.tasks import (
    ABSOLUTE,
    OMEGA,
    RELATIVE,
    UNASSIGNED,
    TaskError,
    Token,
    allowed_counts,
    draft_counts,
    initial_owners,
    make_task_mission,
    order_broken,
    parse_token,
    parse_tokens,
    settle_trick,
    task_quotas,
)

# --- draft counts ------------------------------------------------------------------


def expected_draft(tasks: int, players: int, commander: int) -> list[int]:
    """Seat offset i from the Commander takes ceil((T - i) / N) tasks (never fewer than 0)."""
    counts = [0] * players
    for offset in range(players):
        counts[(commander + offset) % players] = max(0, math.ceil((tasks - offset) / players))
    return counts


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("tasks", range(1, 11))
def test_draft_counts_formula(tasks, players):
    for commander in range(players):
        counts = draft_counts(tasks, players, commander)
        assert list(counts) == expected_draft(tasks, players, commander)
        assert sum(counts) == tasks
        assert max(counts) - min(counts) <= 1
        # The Commander drafts first, so never has fewer than anyone.
        assert counts[commander] == max(counts)


def simulate_draft(tasks: int, players: int, commander: int) -> list[int]:
    """Deal the tasks one by one, Commander first then clockwise."""
    counts = [0] * players
    for turn in range(tasks):
        counts[(commander + turn) % players] += 1
    return counts


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("tasks", range(0, 11))
def test_draft_counts_match_a_simulated_draft(tasks, players):
    for commander in range(players):
        assert list(draft_counts(tasks, players, commander)) == simulate_draft(tasks, players, commander)


def test_draft_counts_hand_checked_examples():
    # 5 tasks, 4 players, Commander seat 2: seat 2 takes tasks 1 and 5, then 3, 0, 1 one each.
    assert draft_counts(5, 4, 2) == (1, 1, 2, 1)
    # 7 tasks, 5 players, Commander seat 4: seats 4 and 0 take two, the rest one.
    assert draft_counts(7, 5, 4) == (2, 1, 1, 1, 2)
    # 1 task, 3 players, Commander seat 1: only the Commander gets a task.
    assert draft_counts(1, 3, 1) == (0, 1, 0)
    # 10 tasks, 3 players, Commander seat 0: 4 / 3 / 3.
    assert draft_counts(10, 3, 0) == (4, 3, 3)


def test_task_quotas_fixed_and_drafted():
    deal = parse_deal("p1 p2 | p3 p4 | p5 p6 | p7 p8", commander=3)
    drafted = make_task_mission(deal, [parse_card("p1"), parse_card("p3"), parse_card("p5")])
    assert task_quotas(drafted, deal) == (1, 1, 0, 1)  # seats 3, 0, 1 draft one each
    fixed = make_task_mission(deal, [parse_card(c) for c in ("p1", "p3", "p5")], owners=[2, 2, 0])
    assert task_quotas(fixed, deal) == (1, 0, 2, 0)
    assert initial_owners(fixed) == (2, 2, 0)
    assert initial_owners(drafted) == (UNASSIGNED,) * 3


# --- token parsing ---------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_absolute_tokens(n):
    assert parse_token(str(n)) == Token(ABSOLUTE, n)
    assert str(parse_token(str(n))) == str(n)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_relative_tokens(n):
    assert parse_token(">" * n) == Token(RELATIVE, n)
    assert str(parse_token(">" * n)) == ">" * n


@pytest.mark.parametrize("text", ["omega", "OMEGA", "Omega", "o", "O", "Ω", " Ω "])
def test_omega_token(text):
    assert parse_token(text) == Token(OMEGA)
    assert str(parse_token(text)) == "Ω"


def test_no_token():
    assert parse_token("-") is None
    assert parse_token(" - ") is None


def test_token_list():
    assert parse_tokens("1, 2,-,>>,Ω") == [
        Token(ABSOLUTE, 1),
        Token(ABSOLUTE, 2),
        None,
        Token(RELATIVE, 2),
        Token(OMEGA),
    ]
    assert parse_tokens("omega") == [Token(OMEGA)]


@pytest.mark.parametrize("text", ["0", "6", "10", ">>>>>", "<", "x", "", "1 2", "->", "om", "1>"])
def test_unknown_token_raises_naming_it(text):
    with pytest.raises(TaskError) as error:
        parse_token(text)
    assert repr(text.strip()) in str(error.value)
    assert isinstance(error.value, InputError)


def test_unknown_token_in_a_list():
    with pytest.raises(TaskError, match="'x'"):
        parse_tokens("1,x,-")
    with pytest.raises(TaskError, match="''"):
        parse_tokens("1,,2")  # an empty entry is not "no token"


# --- task mission checks ---------------------------------------------------------

DEAL = parse_deal("p1 p2 b1 | p3 p4 b2 | p5 r1 b3")


def mission(tasks: str, tokens: str | None = None, owners=None):
    cards = [parse_card(word) for word in tasks.split()]
    return make_task_mission(DEAL, cards, parse_tokens(tokens) if tokens else None, owners)


def test_good_mission():
    m = mission("p1 p3 b3", "1,2,-", [0, 2, 1])
    assert m.cards == tuple(parse_card(c) for c in ("p1", "p3", "b3"))
    assert m.tokens == (Token(ABSOLUTE, 1), Token(ABSOLUTE, 2), None)
    assert m.owners == (0, 2, 1)
    assert m.all_done == 0b111
    assert mission("p1 p3").tokens == (None, None)
    assert mission("p1 p3").owners is None


@pytest.mark.parametrize(
    "tokens, match",
    [
        ("1,1", "used twice"),
        (">,>", "used twice"),
        ("omega,Ω", "used twice"),
        ("1,3", "without gaps"),
        ("2,-", "without gaps"),
        ("1,2,4", "without gaps"),
    ],
)
def test_bad_token_sets_raise(tokens, match):
    count = len(tokens.split(","))
    tasks = " ".join(["p1", "p3", "b3"][:count])
    with pytest.raises(TaskError, match=match):
        mission(tasks, tokens)


@pytest.mark.parametrize("tokens", ["1", "1,2,-", "-,-,-,-"])
def test_wrong_token_count_raises(tokens):
    with pytest.raises(TaskError, match="tokens"):
        mission("p1 p3", tokens)


def test_relative_tokens_need_not_be_consecutive():
    # Only absolute tokens must be 1..k; `>` and `>>>` without `>>` is a valid set.
    assert mission("p1 p3", ">,>>>").tokens == (Token(RELATIVE, 1), Token(RELATIVE, 3))


def test_task_must_be_a_colour_card():
    with pytest.raises(TaskError, match="r1"):
        mission("p1 r1")


def test_task_must_be_dealt():
    with pytest.raises(TaskError, match="y9"):
        mission("p1 y9")


def test_duplicate_task_raises():
    with pytest.raises(TaskError, match="p1"):
        make_task_mission(DEAL, [parse_card("p1"), parse_card("p1")])


@pytest.mark.parametrize("owners, match", [([0], "owners"), ([0, 1, 2], "owners"), ([0, 3], "owner 3 is not"), ([-1, 0], "owner -1 is not")])
def test_bad_owner_lists_raise(owners, match):
    with pytest.raises(TaskError, match=match):
        mission("p1 p3", owners=owners)


# --- token order (order_broken) ------------------------------------------------------


def T(*words):
    """Tokens written as in the CLI: `T("1", "-", ">>")`."""
    return [parse_token(w) for w in words]


def mask(*tasks):
    return sum(1 << i for i in tasks)


def broken_sequence(tokens, tricks) -> bool:
    """Feed completions trick by trick into order_broken; True if any step breaks the order."""
    done = 0
    for completed in tricks:
        if order_broken(tokens, done, completed):
            return True
        done |= completed
    return False


class TestAbsolute:
    tokens = T("1", "2", "3")

    def test_in_order_one_per_trick(self):
        assert not broken_sequence(self.tokens, [mask(0), mask(1), mask(2)])

    def test_1_and_2_in_the_same_trick(self):
        assert not order_broken(self.tokens, 0, mask(0, 1))
        assert not order_broken(self.tokens, mask(0, 1), mask(2))

    def test_1_and_3_with_2_open_is_broken(self):
        assert order_broken(self.tokens, 0, mask(0, 2))

    def test_2_before_1_is_broken(self):
        assert order_broken(self.tokens, 0, mask(1))

    def test_3_after_1_but_before_2_is_broken(self):
        assert not order_broken(self.tokens, 0, mask(0))
        assert order_broken(self.tokens, mask(0), mask(2))

    def test_all_three_together(self):
        assert not order_broken(self.tokens, 0, mask(0, 1, 2))


class TestAbsoluteAndUntokened:
    tokens = T("1", "-", "2")

    def test_untokened_before_1_is_broken(self):
        assert order_broken(self.tokens, 0, mask(1))

    def test_untokened_together_with_1_is_still_broken_while_2_is_open(self):
        # BGA: token 2 fails when the untokened task is done and 2 is still open.
        assert order_broken(self.tokens, 0, mask(0, 1))

    def test_untokened_together_with_the_last_absolute(self):
        assert not order_broken(self.tokens, mask(0), mask(1, 2))

    def test_untokened_after_all_absolute(self):
        assert not broken_sequence(self.tokens, [mask(0), mask(2), mask(1)])

    def test_untokened_with_1_when_1_is_the_only_absolute(self):
        tokens = T("1", "-")
        assert not order_broken(tokens, 0, mask(0, 1))
        assert order_broken(tokens, 0, mask(1))
        assert not broken_sequence(tokens, [mask(0), mask(1)])


class TestRelative:
    def test_two_arrows_while_one_arrow_open_is_broken(self):
        assert order_broken(T(">", ">>"), 0, mask(1))

    def test_one_arrow_then_two(self):
        assert not broken_sequence(T(">", ">>"), [mask(0), mask(1)])

    def test_same_trick(self):
        assert not order_broken(T(">", ">>"), 0, mask(0, 1))

    def test_one_and_three_arrows_while_two_open_is_broken(self):
        assert order_broken(T(">", ">>", ">>>"), 0, mask(0, 2))

    def test_one_and_two_then_three(self):
        assert not broken_sequence(T(">", ">>", ">>>"), [mask(0, 1), mask(2)])

    def test_untokened_tasks_are_free_among_relatives(self):
        tokens = T("-", ">", "-", ">>")
        assert not broken_sequence(tokens, [mask(0), mask(1), mask(2), mask(3)])
        assert not broken_sequence(tokens, [mask(1), mask(3), mask(2, 0)])
        assert not broken_sequence(tokens, [mask(1), mask(3, 0), mask(2)])
        assert order_broken(tokens, mask(0, 2), mask(3))  # still > before >>

    def test_three_arrows_before_one_is_broken(self):
        assert order_broken(T(">", ">>>"), 0, mask(1))


class TestOmega:
    def test_omega_while_another_open_is_broken(self):
        assert order_broken(T("-", "Ω", "-"), 0, mask(1))
        assert order_broken(T("-", "Ω", "-"), mask(0), mask(1))

    def test_omega_together_with_the_last_others(self):
        assert not order_broken(T("-", "Ω", "-"), mask(0), mask(1, 2))
        assert not order_broken(T("-", "Ω", "-"), 0, mask(0, 1, 2))

    def test_omega_last(self):
        assert not broken_sequence(T("-", "Ω", "-"), [mask(0), mask(2), mask(1)])

    def test_omega_alone(self):
        assert not order_broken(T("Ω"), 0, mask(0))

    def test_others_in_any_order_before_omega(self):
        assert not broken_sequence(T("Ω", "-", "-"), [mask(2), mask(1), mask(0)])


def test_mission_28_style_one_and_omega():
    tokens = T("1", "-", "Ω")
    assert not broken_sequence(tokens, [mask(0), mask(1), mask(2)])
    assert order_broken(tokens, 0, mask(1))  # untokened before 1
    assert order_broken(tokens, 0, mask(2))  # omega first


def test_no_completion_never_breaks_a_good_state():
    tokens = T("1", "2", ">", "Ω")
    assert not order_broken(tokens, 0, 0)
    assert not order_broken(tokens, mask(0), 0)


completion_orders = st.integers(1, 5).flatmap(
    lambda n: st.tuples(token_lists(n), st.lists(st.integers(0, n - 1), min_size=n, max_size=n))
)


@given(completion_orders)
def test_order_broken_agrees_with_an_independent_checker(case):
    """Random tokens, random trick index per task: stepwise order_broken == the rules text."""
    tokens, when = case
    tricks = [mask(*[i for i, t in enumerate(when) if t == k]) for k in range(max(when) + 1)]
    tricks = [t for t in tricks if t]  # tricks completing nothing do not matter
    assert broken_sequence(tokens, tricks) == (not tokens_respected(tokens, when))


# --- settling a trick -----------------------------------------------------------------


def test_settle_fixed_owner_wins_and_loses():
    deal = parse_deal("p1 p2 | p3 p4 | p5 p6")
    m = make_task_mission(deal, [parse_card("p3")], owners=[2])
    trick = parse_cards("p1 p3 p5")
    assert settle_trick(m, allowed_counts(m, deal), initial_owners(m), 0, trick, 2) == ((2,), 1)
    assert settle_trick(m, allowed_counts(m, deal), initial_owners(m), 0, trick, 1) is None
    # A trick without a task card changes nothing.
    assert settle_trick(m, allowed_counts(m, deal), initial_owners(m), 0, parse_cards("p2 p4 p6"), 0) == ((2,), 0)


def test_settle_drafted_respects_quotas():
    deal = parse_deal("p1 p2 | p3 p4 | p5 p6")  # Commander seat 0
    m = make_task_mission(deal, [parse_card("p3"), parse_card("p5")])
    quotas = allowed_counts(m, deal)
    assert quotas == {(1, 1, 0)}
    # Seat 2 may draft no task at all.
    assert settle_trick(m, quotas, initial_owners(m), 0, parse_cards("p1 p3 p5"), 2) is None
    # Seat 0 may take one task but not both in one trick.
    assert settle_trick(m, quotas, initial_owners(m), 0, parse_cards("p1 p3 p5"), 0) is None
    first = settle_trick(m, quotas, initial_owners(m), 0, parse_cards("p1 p3 p6"), 0)
    assert first == ((0, UNASSIGNED), 0b01)
    # Then seat 0 is full; seat 1 takes the other.
    assert settle_trick(m, quotas, first[0], first[1], parse_cards("p2 p4 p5"), 0) is None
    assert settle_trick(m, quotas, first[0], first[1], parse_cards("p2 p4 p5"), 1) == ((0, 1), 0b11)


def test_settle_checks_token_order():
    deal = parse_deal("p1 p2 | p3 p4 | p5 p6")
    m = make_task_mission(deal, [parse_card("p3"), parse_card("p5")], T("1", "2"), owners=[1, 1])
    assert settle_trick(m, allowed_counts(m, deal), (1, 1), 0, parse_cards("p2 p4 p5"), 1) is None  # 2 before 1
    assert settle_trick(m, allowed_counts(m, deal), (1, 1), 0, parse_cards("p1 p3 p5"), 1) == ((1, 1), 0b11)


def test_unicode_digit_token_is_an_input_error():
    # "²".isdigit() is True but int("²") raises a bare ValueError; see the report.
    with pytest.raises(TaskError, match="²"):
        parse_token("²")
