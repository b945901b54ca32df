"""`python -m solver.engines.kernel`: print the kernel's array layouts (offset, cells, name, meaning)."""

from solver.engines.kernel import arrays, problem

for layout in (*problem.LAYOUTS, *arrays.LAYOUTS):
    print(layout.describe())
    print()
