"""Run a deep recursive search where Python's frame stack starts empty: in a thread of its own.

CPython 3.11 keeps a thread's Python frames in 16 KiB chunks and frees a chunk as soon as the first
frame in it returns (python/cpython#142183, fixed in 3.13 by keeping one spare chunk). A search that
recurses back and forth across the end of a chunk maps and unmaps it at every crossing, and where
that end falls depends on how deep the caller already is. Measured on the reference's search of one
4-player 20-card LOSS (258,310 card plays): 5.2 s from a shallow caller, 13.6-17 s with 800,000 page
faults from inside a hypothesis test, 5.9 s with 183 page faults from a thread of its own. A new
thread's stack starts empty, so a search whose frames stay within the first chunk (the reference's
frames of a 30-card deal take about 13 KiB) never crosses one.
"""

import threading


def on_fresh_stack(function, *args):
    """Return `function(*args)`, called in a new thread (daemon: Ctrl-C in the caller ends the process
    without waiting for it); its exception is raised here."""
    outcome = {}

    def run():
        try:
            outcome["value"] = function(*args)
        except BaseException as error:  # handed to the caller, whatever it is
            outcome["error"] = error

    thread = threading.Thread(target=run, name="fresh-stack", daemon=True)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]
