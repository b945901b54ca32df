"""The kernel's arrays: each declared once (solver/engines/layout.py), its names bound to their offsets."""

import pytest

from solver.engines import compiled, kernel
from solver.engines.layout import Layout

LAYOUTS = [(compiled, layout) for layout in compiled.LAYOUTS] + [(kernel, layout) for layout in kernel.LAYOUTS]


@pytest.mark.parametrize("module, layout", LAYOUTS, ids=lambda value: getattr(value, "name", ""))
def test_each_field_name_is_its_offset(module, layout):
    for field in layout.fields:
        assert getattr(module, field.name) == field.offset, field.name
    ends = [f.offset + f.cells for f in layout.fields]
    assert [f.offset for f in layout.fields[1:]] == ends[:-1]  # no gap, no overlap
    assert layout.size == ends[-1]


def test_sizes_are_the_arrays_widths():
    assert compiled.SIZE == compiled.PROBLEM.size and compiled.COUNTER_FIELDS == compiled.COUNTER.size
    assert kernel.FRAME_COLUMNS == kernel.FRAME.size and kernel.PLY_COLUMNS == kernel.PLY.size
    assert kernel.CONTROL_CELLS == kernel.CONTROL.size


def test_a_field_declared_twice_is_refused():
    layout = Layout("test")
    assert layout.field("A", 2, "two cells") == 0
    assert layout.field("B", 1, "one cell") == 2
    with pytest.raises(ValueError):
        layout.field("A", 1, "again")
    assert "B" in layout.describe() and layout.size == 3
