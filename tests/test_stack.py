"""core.stack: a call on a fresh frame stack gives its value or its exception, as a plain call would."""

import threading

import pytest

from solver.core.stack import on_fresh_stack


def test_the_call_runs_in_another_thread_and_gives_its_value():
    caller = threading.get_ident()
    assert on_fresh_stack(lambda a, b: (a + b, threading.get_ident() != caller), 2, 3) == (5, True)


def test_the_calls_exception_reaches_the_caller_unchanged():
    class Budget(Exception):
        pass

    def out_of_budget():
        raise Budget("spent")

    with pytest.raises(Budget, match="spent"):
        on_fresh_stack(out_of_budget)


def test_a_deep_recursion_returns_through_it():
    def depth(n):
        return 0 if n == 0 else 1 + depth(n - 1)

    assert on_fresh_stack(depth, 500) == 500
