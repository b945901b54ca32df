"""The kernel's arrays: each declared once (solver/engines/kernel/layout.py), its names bound to their offsets."""

import pytest

from solver.engines.kernel import arrays, problem
from solver.engines.kernel.layout import Layout

LAYOUTS = [(problem, layout) for layout in problem.LAYOUTS] + [(arrays, layout) for layout in arrays.LAYOUTS]


@pytest.mark.parametrize("module, layout", LAYOUTS, ids=lambda value: getattr(value, "name", ""))
def test_each_field_name_is_its_offset(module, layout):
    for field in layout.fields:
        assert getattr(module, field.name) == field.offset, field.name
    ends = [f.offset + f.cells for f in layout.fields]
    assert [f.offset for f in layout.fields[1:]] == ends[:-1]  # no gap, no overlap
    assert layout.size == ends[-1]


def test_sizes_are_the_arrays_widths():
    assert problem.SIZE == problem.PROBLEM.size and problem.COUNTER_FIELDS == problem.COUNTER.size
    assert arrays.FRAME_COLUMNS == arrays.FRAME.size and arrays.PLY_COLUMNS == arrays.PLY.size
    assert arrays.CONTROL_CELLS == arrays.CONTROL.size


def test_a_field_declared_twice_is_refused():
    layout = Layout("test")
    assert layout.field("A", 2, "two cells") == 0
    assert layout.field("B", 1, "one cell") == 2
    with pytest.raises(ValueError):
        layout.field("A", 1, "again")
    assert "B" in layout.describe() and layout.size == 3
