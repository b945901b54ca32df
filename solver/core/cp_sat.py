"""ortools' CP-SAT, imported when a model is first built, and a fast builder of Boolean models.

Importing `ortools.sat.python.cp_model` costs about 0.5 s here (it imports pandas), which a solve
by the kernel alone, or `crew missions`, never needs to pay. Family Adventure's chains use its
expressions (`cp_sat()`); Planet Nine's task missions need only its C++ helper (`sat_helper()`,
0.08 s to import): the proto, its text parser and the solver, which `BoolModel` writes to directly.
"""

import sys
import time

HELPER = "ortools.sat.python.cp_model_helper"


def cp_sat():
    """Return the `ortools.sat.python.cp_model` module."""
    from ortools.sat.python import cp_model

    return cp_model


def sat_helper():
    """Return `ortools.sat.python.cp_model_helper`: CP-SAT's proto, parameters and solver, in C++."""
    from ortools.sat.python import cp_model_helper

    return cp_model_helper


def load_cp_sat() -> float:
    """Import what a task mission's CP-SAT solve needs into this process; return the seconds this call
    spent on it (0.0 once imported), so that a solve by CP-SAT alone reports its model's seconds apart."""
    if HELPER in sys.modules:
        return 0.0
    began = time.perf_counter()
    sat_helper()
    return time.perf_counter() - began


INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


class BoolModel:
    """A CP-SAT model over Boolean variables, kept as proto text and parsed into CP-SAT's proto once.

    Literal i >= 0 is variable i and -i - 1 its negation (the proto's own convention). It builds the
    proto ortools' `CpModel` would (the same variables and constraints in the same order, so the same
    search: checked on the 4,106 models of tests/test_cpsat.py), without its Python objects (8 us a
    variable, about 5 a constraint) or the 4 ms a `CpModel` spends adding its pre-PEP 8 names.
    """

    def __init__(self):
        self.variables = 0
        self.first = 0  # the first variable of this model's own (`extension`)
        self.constraints: list[str] = []

    def extension(self) -> "BoolModel":
        """Return an empty model that goes on from this one: its new variables follow this one's, and its
        text and proto hold only what it adds (`proto(base)` reads it onto this one's proto)."""
        more = BoolModel()
        more.variables = more.first = self.variables
        return more

    def new(self) -> int:
        """Return a new Boolean variable."""
        self.variables += 1
        return self.variables - 1

    def bool_or(self, lits: list[int]) -> None:
        self.constraints.append(f"constraints{{bool_or{{literals:{lits}}}}}")

    def bool_and(self, lits: list[int], enforced: int | None = None) -> None:
        """Add AND(lits), when the literal `enforced` holds (None: always)."""
        self.constraints.append(f"constraints{{{enforcement(enforced)}bool_and{{literals:{lits}}}}}")

    def exactly_one(self, lits: list[int]) -> None:
        self.constraints.append(f"constraints{{exactly_one{{literals:{lits}}}}}")

    def linear(self, terms, at_least: int | None, at_most: int | None, enforced: int | None = None) -> None:
        """Add at_least <= sum(weight * literal) <= at_most (None: no bound), when `enforced` holds.

        `terms` are (weight, literal) pairs, a literal also a Python bool constant; a negated literal
        counts as 1 - its variable, and the variables are merged and sorted, as ortools writes a sum.
        """
        weights: dict[int, int] = {}
        constant = 0
        for weight, lit in terms:
            if lit is True or lit is False:
                constant += weight * lit
            elif lit >= 0:
                weights[lit] = weights.get(lit, 0) + weight
            else:
                weights[-lit - 1] = weights.get(-lit - 1, 0) - weight
                constant += weight
        low = INT64_MIN if at_least is None else at_least - constant
        high = INT64_MAX if at_most is None else at_most - constant
        variables = sorted(v for v, weight in weights.items() if weight)  # as ortools writes a sum
        self.constraints.append(
            f"constraints{{{enforcement(enforced)}linear{{vars:{variables} coeffs:{[weights[v] for v in variables]} "
            f"domain:[{low},{high}]}}}}"
        )

    def text(self) -> str:
        """Return the model as proto text."""
        return "variables{domain:[0,1]}" * (self.variables - self.first) + "".join(self.constraints)

    def proto(self, base=None):
        """Return the model as CP-SAT's `CpModelProto`; an extension's on a copy of `base`, the proto of the
        model it goes on from (copying it costs a fraction of reading its text again)."""
        proto = sat_helper().CpModelProto()
        if base is not None:
            proto.copy_from(base)
        if not proto.merge_text_format(self.text()):
            raise RuntimeError("CP-SAT could not read the model built")
        return proto


def enforcement(lit: int | None) -> str:
    return "" if lit is None else f"enforcement_literal:{lit} "


def literal_value(solution: list[int], lit) -> bool:
    """Return the value of a literal (or a Python bool constant) in a solution's variable values."""
    if lit is True or lit is False:
        return lit
    return bool(solution[lit]) if lit >= 0 else not solution[-lit - 1]
