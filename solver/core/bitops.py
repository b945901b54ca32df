"""Bit helpers for the Numba kernel: LLVM's popcount and count-trailing-zeros on int64."""

from llvmlite import ir
from numba import types
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
