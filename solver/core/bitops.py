"""Bit helpers for the Numba kernel: LLVM's popcount and count-trailing-zeros on int64."""

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def popcount(typingctx, x):
    """Return the number of set bits of an int64."""
    if x != types.int64:
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


@intrinsic
def lowest_bit_index(typingctx, x):
    """Return the index of the lowest set bit of a non-zero int64."""
    if x != types.int64:
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.int64(types.int64), codegen


@intrinsic
def unowned(typingctx, array):
    """Return a view of `array` that holds no reference to its memory (no meminfo), for a caller that keeps
    `array` alive throughout.

    Numba counts references to an array's memory with atomic operations: each call of a kernel function
    takes one for every array it is given and drops it on return. Profiled (perf) on ten realistic-crew games
    of 10 tasks, these lock-prefixed increments and decrements took 22% of the time; a view without meminfo
    makes each a test of a null pointer (the search on such views: 0.74-0.79 of the time on the search-heavy
    sets of benchmarks/bench_versus.py).
    """
    if not isinstance(array, types.Array):
        return None

    def codegen(context, builder, signature, args):
        view = cgutils.create_struct_proxy(array)(context, builder, value=args[0])
        view.meminfo = cgutils.get_null_value(view.meminfo.type)
        view.parent = cgutils.get_null_value(view.parent.type)
        return view._getvalue()

    return array(array), codegen
