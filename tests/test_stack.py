"""core.stack: a call on a fresh frame stack gives its value or its exception, as a plain call would."""

import signal
import subprocess
import sys
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


def test_ctrl_c_reaches_the_caller_while_the_search_runs():
    # Only the main thread runs Python's signal handlers: it must wake from its wait for the search's thread.
    script = (
        "import signal, sys\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)  # a background job starts with it ignored\n"
        "from solver.core.stack import on_fresh_stack\n"
        "def spin():\n"
        "    print('searching', flush=True)\n"
        "    while True:\n"
        "        pass\n"
        "try:\n"
        "    on_fresh_stack(spin)\n"
        "except KeyboardInterrupt:\n"
        "    sys.exit(130)\n"
    )
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "searching\n"
        child.send_signal(signal.SIGINT)
        assert child.wait(timeout=30) == 130
    finally:
        child.kill()
        child.wait()
