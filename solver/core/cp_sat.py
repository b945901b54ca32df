"""ortools' CP-SAT, imported when a model is first built.

Importing `ortools.sat.python.cp_model` costs about 0.37 s here (it imports pandas), which a solve
by the kernel alone, or `crew missions`, never needs to pay: the two CP-SAT models (Planet Nine's
task missions, Family Adventure's chains) call `cp_sat()` where they build or run a model.
"""


def cp_sat():
    """Return the `ortools.sat.python.cp_model` module."""
    from ortools.sat.python import cp_model

    return cp_model
