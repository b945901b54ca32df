"""ortools' CP-SAT, imported when a model is first built.

Importing `ortools.sat.python.cp_model` costs about 0.37 s here (it imports pandas), which a solve
by the kernel alone, or `crew missions`, never needs to pay: the two CP-SAT models (Planet Nine's
task missions, Family Adventure's chains) call `cp_sat()` where they build or run a model.
"""

import sys
import time

MODULE = "ortools.sat.python.cp_model"


def cp_sat():
    """Return the `ortools.sat.python.cp_model` module."""
    from ortools.sat.python import cp_model

    return cp_model


def load_cp_sat() -> float:
    """Import CP-SAT into this process; return the seconds this call spent on it (0.0 once imported),
    so that a solve by CP-SAT alone reports its model's seconds apart from the import."""
    if MODULE in sys.modules:
        return 0.0
    began = time.perf_counter()
    cp_sat()
    return time.perf_counter() - began
