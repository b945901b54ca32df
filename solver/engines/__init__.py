"""The solvers of a trick-taking mission on a deal, and the searches built on them.

protocol (the engines by name, each saying what it does not model), reference (the plain-Python
oracle), kernel (the Numba double-dummy search, a package by concern: the problem array, the
search's arrays, moves, table, bounds, events, play, the search loop), cpsat (the CP-SAT model of
task missions and table patterns, the difficult Ghost and the redeal aside), portfolio (the kernel then CP-SAT in turns), cases (a deal's cases in rounds of budgets, any engine),
quick (a one-off solve's first look with the reference), capacity (what the kernel's arrays hold, read
without the kernel), distress (the distress signal's passes), score (a special mission's highest score).
"""
