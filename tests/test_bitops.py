"""The kernel's bit helpers (solver/core/bitops.py) against plain Python."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from numba import njit

from solver.core.bitops import lowest_bit_index, popcount, unowned

NONZERO_INT64 = st.integers(-(2**63), 2**63 - 1).filter(bool)


@njit
def bits_of(x):
    return popcount(x), lowest_bit_index(x)


@given(NONZERO_INT64)
def test_popcount_and_lowest_bit_index_are_python_s(x):
    unsigned = x % 2**64
    assert bits_of(np.int64(x)) == (bin(unsigned).count("1"), (unsigned & -unsigned).bit_length() - 1)


@njit
def double_through_views(vector, matrix):
    """Double every cell of both arrays through unowned views; return the sums read through the views."""
    v, m = unowned(vector), unowned(matrix)
    for i in range(v.shape[0]):
        v[i] *= 2
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            m[i, j] *= 2
    return v.sum(), m.sum()


def test_an_unowned_view_reads_and_writes_the_array_itself():
    vector = np.arange(5, dtype=np.int64)
    grid = np.arange(24, dtype=np.int64).reshape(4, 6)
    columns = grid[:, ::2]  # strided: the view keeps the shape and strides it is given
    sums = double_through_views(vector, columns)
    assert vector.tolist() == [0, 2, 4, 6, 8]
    assert grid[:, ::2].tolist() == (2 * np.arange(24).reshape(4, 6)[:, ::2]).tolist()
    assert grid[:, 1::2].tolist() == np.arange(24).reshape(4, 6)[:, 1::2].tolist()  # untouched
    assert sums == (20, 2 * int(np.arange(24).reshape(4, 6)[:, ::2].sum()))
