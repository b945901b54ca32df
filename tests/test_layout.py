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


def test_a_field_is_filled_within_its_cells():
    # A slice spills into the next field without a word: a position of 41 plays once overwrote the choices after
    # the 40-cell field of plays (test_special_stages.py).
    layout = Layout("test")
    first = layout.field("FIRST", 2, "two cells")
    layout.field("NEXT", 1, "one cell")
    cells = [0, 0, 7]
    layout.fill(cells, first, [4, 5])
    assert cells == [4, 5, 7]
    with pytest.raises(ValueError, match="3 values for field FIRST of 2 cells"):
        layout.fill(cells, first, [1, 2, 3])
    assert cells == [4, 5, 7]
    forced = next(f.cells for f in problem.PROBLEM.fields if f.name == "FORCED")
    assert forced == problem.MAX_PLAYS >= 50  # a five-player special stage: ten tricks of five cards
