"""The kernel's int64 arrays declared once: each array's fields in order, with their sizes and meaning.

The Numba kernel keeps its state in flat int64 arrays (the compiled problem, a frame per trick,
a row per ply, the control cells) and reads them at constant offsets. Each array is a `Layout`:
fields are declared one after the other with their cell count, and the layout computes the
offsets, so no offset is chained by hand, and `describe` prints the documentation:

    PROBLEM = Layout("problem")
    PLAYERS = PROBLEM.field("PLAYERS", 1, "seats in play")
    HANDS = PROBLEM.field("HANDS", MAX_PLAYERS, "per seat: the cards in hand before trick 1")
    SIZE = PROBLEM.size

The offsets are plain ints, so Numba compiles them as constants.
`python -m solver.engines.kernel` prints every layout of the kernel.
"""

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Field:
    name: str
    offset: int
    cells: int
    meaning: str


@dataclass
class Layout:
    """The fields of one array, in order; `size` is the cells they take."""

    name: str
    fields: list[Field] = field(default_factory=list)

    @property
    def size(self) -> int:
        return sum(f.cells for f in self.fields)

    def field(self, name: str, cells: int, meaning: str) -> int:
        """Declare the next field; return its offset."""
        if any(f.name == name for f in self.fields):
            raise ValueError(f"{self.name}: field {name} declared twice")
        offset = self.size
        self.fields.append(Field(name, offset, cells, meaning))
        return offset

    def fill(self, array, offset: int, values) -> None:
        """Write `values` into the field at `offset` from its first cell; ValueError when they outgrow it (a slice
        would spill into the next fields without a word)."""
        found = next(f for f in self.fields if f.offset == offset)
        if len(values) > found.cells:
            raise ValueError(f"{self.name}: {len(values)} values for field {found.name} of {found.cells} cells")
        array[offset : offset + len(values)] = values

    def offsets(self) -> dict[str, int]:
        return {f.name: f.offset for f in self.fields}

    def describe(self) -> str:
        """Return the layout as a table: offset, cells, name, meaning."""
        lines = [f"{self.name}: {self.size} cells"]
        lines += [f"  {f.offset:4d} {f.cells:4d}  {f.name:18s} {f.meaning}" for f in self.fields]
        return "\n".join(lines)

