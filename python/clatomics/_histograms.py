"""numpy.histogram, numpy.histogram2d and numpy.bincount on the device."""

import operator

import numpy as np

from . import _clatomics
from ._arrays import Call, as_array, as_called, dtype_code

_ACCUMULATIONS = ("float", "compensated", "double")


def _nbins(bins, what):
    try:
        n = operator.index(bins)
    except TypeError:
        raise TypeError(f"clatomics.{what}: bins must be an integer (even bins), not {type(bins).__name__}") from None
    if n < 1:
        raise ValueError(f"clatomics.{what}: bins must be at least 1, not {n}")
    return n


def _positions(call, name, a):
    if dtype_code(a) not in ("f4", "f8"):
        raise TypeError(f"clatomics.{call.what}: {name} must be float32 or float64, not {a.dtype}")
    return call.device(name, a)


def _weights(call, weights, count):
    """The weight channels: None, one float32 array, or a list of up to 4 (summed in one pass)."""
    if weights is None:
        return [], False
    channels = list(weights) if isinstance(weights, (list, tuple)) else [weights]
    described = []
    for k, w in enumerate(channels):
        w = as_array(f"weights[{k}]", w, call.what)
        if dtype_code(w) != "f4":
            raise TypeError(f"clatomics.{call.what}: weights must be float32, not {w.dtype} (the library sums float weights; "
                            "accumulation='compensated' or 'double' sums them more exactly)")
        if w.size != count:
            raise ValueError(f"clatomics.{call.what}: weights[{k}] has {w.size} elements, and there are {count} values")
        described.append(call.describe(f"weights[{k}]", call.device(f"weights[{k}]", w)))
    return described, isinstance(weights, (list, tuple))


def _accumulation(accumulation, what):
    if accumulation not in _ACCUMULATIONS:
        raise ValueError(f"clatomics.{what}: accumulation must be one of {', '.join(_ACCUMULATIONS)}, not {accumulation!r}")
    return accumulation


def _range_pair(rng, what, dtype, two_d=False):
    """(lo, hi, type): the range as Python floats, and how NumPy 2 makes the edges from its ends'
    types (NEP 50: Python numbers give way to NumPy scalars and 0-d arrays), whatever NumPy runs:
    "python" (np.linspace in double, the data's type after), "positions" (float32 ends over
    float32 data, as (a.min(), a.max()) gives: the ends as float32, np.linspace in float32),
    "float64" (float64 edges for float32 data, compared in double). two_d: np.histogram2d's rule
    (its edges, in np.linspace's type, decide alone)."""
    try:
        lo, hi = rng
        pair = float(lo), float(hi)
    except (TypeError, ValueError):
        raise TypeError(f"clatomics.{what}: range must be a pair (lo, hi), not {rng!r}") from None
    typed = [isinstance(v, np.generic) or (isinstance(v, np.ndarray) and v.ndim == 0) for v in (lo, hi)]
    strong = [np.asarray(v).dtype for v, t in zip((lo, hi), typed) if t]
    if not strong:
        return pair + ("python",)
    arithmetic = np.result_type(*strong)  # np.linspace's, beside the weak float(num)
    if arithmetic.kind in "biu":
        arithmetic = np.dtype(np.float64)
    if arithmetic == np.float32 and dtype == np.float32:
        # A Python number beside a float32 end is taken as a float32, as NumPy 2 takes it.
        return float(np.float32(pair[0])), float(np.float32(pair[1])), "positions"
    if arithmetic == np.float64:
        if two_d or dtype != np.float32 or np.result_type(*strong, dtype) == np.float32:
            return pair + ("python",)
        # float64 edges for float32 data: NumPy 2 compares the data with each end in that end's
        # type, a Python number's in float32, a typed one's in double; the two agree where the
        # Python number is a float32.
        if all(t or float(np.float32(v)) == v for v, t in zip(pair, typed)):
            return pair + ("float64",)
        raise TypeError(f"clatomics.{what}: a range with a Python number beside an end of {strong[0]} over float32 data makes "
                        "NumPy 2 compare the data with each end in another type; give both ends as NumPy float64 (or both as "
                        "Python floats)")
    raise TypeError(f"clatomics.{what}: a range of {' and '.join(sorted({str(t) for t in strong}))} over {np.dtype(dtype)} data makes "
                    f"NumPy 2 compute the edges in {arithmetic}, which clatomics has no rule for; pass Python floats")


def histogram(a, bins=10, range=None, weights=None, *, accumulation="float", queue=None):  # noqa: A002: NumPy's names
    """numpy.histogram(a, bins, range, weights) with an integer ``bins``: ``(hist, bin_edges)``.

    ``a``: float32 or float64, a NumPy array or a pyopencl.array.Array. NumPy 2's edges: a given
    range of Python floats as np.linspace in double (then a's type), of NumPy scalars in the type
    NumPy 2 promotes them to (float32 scalars over float32 data, as (a.min(), a.max()), in
    float32; float64 scalars give float64 edges), no range from the data in a's own type.
    Values outside the range and NaN are dropped, as NumPy drops them. ``hist``: int64 counts,
    or without weights; float64 sums with ``weights`` (float32, one array, or a list of up to 4
    channels giving a list of sums), added as ``accumulation`` says ("float", "compensated",
    "double")."""
    a = as_array("a", a, "histogram")
    n = _nbins(bins, "histogram")
    call = Call("histogram", queue, a, weights)
    values = _positions(call, "a", a)  # any contiguous shape, as NumPy flattens it
    w, listed = _weights(call, weights, values.size)
    rng = None if range is None else _range_pair(range, "histogram", values.dtype)
    words = [("nbins", "bins"), ("options.accumulation", "accumulation"), ("lo is", "range[0] is"), ("hi is", "range[1] is"),
             ("lo (", "range[0] ("), ("above hi (", "above range[1] (")]
    with as_called("histogram", "histogram_even", words):
        r = _clatomics.histogram(call.handle, dtype_code(values), call.describe("a", values), n, rng, w,
                                 _accumulation(accumulation, "histogram"))
    edges = r["edges"]
    if not w:
        return r["counts"].astype(np.int64), edges
    return (r["sums"] if listed else r["sums"][0]), edges


def histogram2d(x, y, bins=10, range=None, weights=None, *, accumulation="float", queue=None):  # noqa: A002
    """numpy.histogram2d(x, y, bins, range, weights) with integer bins (one, or one per axis):
    ``(H, xedges, yedges)``, H float64 of shape (nx, ny) as NumPy gives it; points outside the
    range and NaN dropped. Without a range, NumPy 2's: each axis' is its data's min and max (a NaN
    or an infinity in the data then raises ValueError, as NumPy does), its edges np.linspace in
    the data's type (float32 edges for float32 data); with one, float64 edges."""
    x, y = as_array("x", x, "histogram2d"), as_array("y", y, "histogram2d")
    if isinstance(bins, (list, tuple)):
        if len(bins) != 2:
            raise ValueError(f"clatomics.histogram2d: bins must be one integer or two, not {len(bins)}")
        nx, ny = _nbins(bins[0], "histogram2d"), _nbins(bins[1], "histogram2d")
    else:
        nx = ny = _nbins(bins, "histogram2d")
    if dtype_code(x) != dtype_code(y):
        raise TypeError(f"clatomics.histogram2d: x is {x.dtype} and y is {y.dtype}; they must be of one type")
    if x.size != y.size:
        raise ValueError(f"clatomics.histogram2d: x has {x.size} elements and y {y.size}; they must be of the same length")
    call = Call("histogram2d", queue, x, y, weights)
    dx, dy = _positions(call, "x", x), _positions(call, "y", y)
    w, listed = _weights(call, weights, dx.size)
    ranges = None
    if range is not None:
        if len(range) != 2:
            raise ValueError("clatomics.histogram2d: range must be [[xmin, xmax], [ymin, ymax]]")
        ranges = (_range_pair(range[0], "histogram2d", dx.dtype, True), _range_pair(range[1], "histogram2d", dx.dtype, True))
    words = [("xbins.nbins * ybins.nbins", "bins[0] * bins[1]"), ("xbins.nbins", "bins[0]"), ("ybins.nbins", "bins[1]"),
             ("xbins:", "range[0]:"), ("ybins:", "range[1]:"), ("options.accumulation", "accumulation")]
    with as_called("histogram2d", "histogram2d_even", words):
        r = _clatomics.histogram2d(call.handle, dtype_code(dx), call.describe("x", dx), call.describe("y", dy), nx, ny, ranges, w,
                                   _accumulation(accumulation, "histogram2d"))
    if not w:
        h = r["counts"].astype(np.float64).reshape(nx, ny)
    else:
        sums = [s.reshape(nx, ny) for s in r["sums"]]
        h = sums if listed else sums[0]
    return h, r["xedges"], r["yedges"]


def bincount(x, weights=None, minlength=0, *, queue=None):
    """numpy.bincount(x, weights, minlength): counts of the non-negative integers of x (int32,
    uint32, int64, uint64) in max(x) + 1 (at least minlength) bins, int64; with weights, their
    float64 sums (float32 sums on a device without fp64)."""
    x = as_array("x", x, "bincount")
    code = dtype_code(x)
    if code not in ("i4", "u4", "i8", "u8"):
        raise TypeError(f"clatomics.bincount: x must be of int32, uint32, int64 or uint64, not {x.dtype}")
    if x.ndim != 1:
        raise ValueError(f"clatomics.bincount: x must be 1-D, not of {x.ndim} dimensions")
    minlength = operator.index(minlength)
    if minlength < 0:
        raise ValueError(f"clatomics.bincount: minlength must be non-negative, not {minlength}")
    call = Call("bincount", queue, x, weights)
    keys = call.device("x", x)
    desc = call.describe("x", keys)
    nbins = minlength
    if keys.size:
        if code[0] == "i" and _clatomics.reduce(call.handle, code, desc, "min", False) < 0:
            raise ValueError("clatomics.bincount: x must have no negative elements")
        nbins = max(nbins, int(_clatomics.reduce(call.handle, code, desc, "max", False)) + 1)
    room = call.queue.device.max_mem_alloc_size // 8  # one device buffer of 8-byte counts or sums
    if nbins > room:
        raise ValueError(f"clatomics.bincount: {nbins} bins (max(x) + 1, or minlength) do not fit one device buffer of "
                         f"{room} eight-byte bins")
    index = "u" + code[1]  # non-negative: the same bits as unsigned
    if weights is None:
        if index == "u4" and nbins <= 2**32 - 4:  # the key histogram's limit; more bins take the scatter below
            counts, _ = _clatomics.histogram_keys(call.handle, desc, nbins)
            return counts.astype(np.int64)
        values, out = call.device("ones", np.ones(keys.size, np.int64)), call.zeros(nbins, np.int64)
    else:
        weights = as_array("weights", weights, "bincount")
        if weights.shape != keys.shape:
            raise ValueError(f"clatomics.bincount: weights has {weights.size} elements and x {keys.size}; they must be of the same length")
        wtype = np.float64 if _clatomics.supports_double(call.handle) else np.float32
        if isinstance(weights, np.ndarray):
            values = call.device("weights", weights.astype(wtype, copy=False))
        else:
            values = weights if weights.dtype == wtype else weights.astype(wtype)
        out = call.zeros(nbins, wtype)
    _clatomics.scatter(call.handle, dtype_code(values), index, call.describe("out", out), desc,
                       call.describe("weights", values), "sum", 1, False, True, False, True, "propagate")
    return out.get(queue=call.queue)
