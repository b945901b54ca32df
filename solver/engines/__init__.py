"""The solvers of a trick-taking mission on a deal, and the searches built on them.

protocol (the engines by name, each saying what it does not model), reference (the plain-Python
oracle), layout (the kernel's arrays declared), compiled (a TaskMission as the kernel's flat
array), kernel (the Numba double-dummy search), cpsat (the CP-SAT model of plain task missions),
portfolio (the kernel then CP-SAT; cases in rounds of budgets), distress (the distress signal's
passes), score (a special mission's highest score).
"""
