"""reduce, dot and compact on the device."""

import numpy as np

from . import _clatomics
from ._arrays import Call, as_array, dtype_code, is_device
from .where import Predicate

_OPS = ("sum", "prod", "min", "max")


def reduce(a, op="sum", deterministic=False, *, queue=None):  # noqa: A001: the algorithm's name
    """The sum, product, min or max of a's elements (float32, float64, int32, uint32, int64,
    uint64), as a NumPy scalar of a's type. Integers wrap; min and max treat NaN as missing data
    (numpy.fmin/fmax); no elements give the identity. deterministic: float sums with the same
    bits on every run, offset and device (a fixed tree)."""
    a = as_array("a", a, "reduce")
    if op not in _OPS:
        raise ValueError(f"clatomics.reduce: op must be one of {', '.join(_OPS)}, not {op!r}")
    call = Call("reduce", queue, a)
    dev = call.device("a", a)  # any contiguous shape: its elements in order
    return a.dtype.type(_clatomics.reduce(call.handle, dtype_code(a), call.describe("a", dev), op, bool(deterministic)))


def dot(a, b, *, queue=None):
    """numpy.dot of two 1-D float32 or float64 arrays of one length, as a NumPy scalar."""
    a, b = as_array("a", a, "dot"), as_array("b", b, "dot")
    if dtype_code(a) != dtype_code(b):
        raise TypeError(f"clatomics.dot: a is {a.dtype} and b is {b.dtype}; they must be of one type")
    if a.ndim != 1 or b.ndim != 1:
        raise ValueError("clatomics.dot: a and b must be 1-D")
    if a.size != b.size:
        raise ValueError(f"clatomics.dot: a has {a.size} elements and b {b.size}; they must be of the same length")
    call = Call("dot", queue, a, b)
    da, db = call.device("a", a), call.device("b", b)
    return a.dtype.type(_clatomics.dot(call.handle, dtype_code(a), call.describe("a", da), call.describe("b", db)))


def compact(a, predicate, *, stable=False, out=None, queue=None):
    """The elements x of a (float32, int32, uint32) for which the predicate holds, as a[pred]:
    ``compact(a, where.x > 0.5)``, ``(where.x > 0) & ~where.isnan(where.x)``. The order is kept
    with stable=True, else any order. Results as NumPy, or where out= is a device array (as long
    as a) the kept elements are written to its start and the view of them is returned. A str
    predicate is OpenCL C code, checked token by token before it is compiled."""
    a = as_array("a", a, "compact")
    if isinstance(predicate, Predicate):
        tree = predicate.tree
    elif isinstance(predicate, str):
        tree = predicate
    else:
        raise TypeError(f"clatomics.compact: the predicate is built from clatomics.where (where.x > 0.5), not {type(predicate).__name__}")
    call = Call("compact", queue, a, out)
    da = call.device("a", a)
    if out is None:
        dout = call.empty(da.size, da.dtype)
    elif is_device(out):
        dout = call.device("out", out, da.dtype)
    else:
        raise TypeError("clatomics.compact: out= must be a device array (pyopencl.array.Array)")
    kept = _clatomics.compact(call.handle, dtype_code(da), call.describe("a", da), call.describe("out", dout), tree, bool(stable))
    return dout[:kept] if out is not None else dout[:kept].get(queue=call.queue) if kept else np.empty(0, da.dtype)
