"""numpy.add.at, torch's scatter_reduce_, segment reductions and reduce_by_key on the device."""

import re

import numpy as np
import pyopencl.array as cla

from . import _clatomics
from ._arrays import Call, as_array, as_called, dtype_code, is_device

_VALUE_CODES = ("f4", "f8", "i4", "u4", "i8", "u8", "f2")
_REDUCE = ("sum", "prod", "amax", "amin", "mean")


def _reduce_name(reduce, what):
    if reduce not in _REDUCE:
        raise ValueError(f"clatomics.{what}: reduce must be one of {', '.join(_REDUCE)}, not {reduce!r}")
    return reduce


def _index_code(a, what, name):
    code = dtype_code(a)
    if code not in ("i4", "u4", "i8", "u8"):
        raise TypeError(f"clatomics.{what}: {name} must be of int32, uint32, int64 or uint64, not {a.dtype}")
    # Signed indices travel as their bits: a negative one left (scatter_reduce does not wrap, as
    # torch does not) is beyond every bin, refused (IndexError) or counted as out of range.
    return "u" + code[1]


def _wrapped(indices, n):
    """numpy.add.at's negative indices: -1 is the last of n bins; one below -n stays out of range."""
    if indices.dtype.kind != "i":
        return indices
    if is_device(indices):
        if not indices.flags.forc:
            return indices  # refused as not contiguous when the call describes it
        return cla.if_positive(indices + 1, indices, indices + n)  # on the device, into a new array
    return np.where(indices < 0, indices + n, indices).astype(indices.dtype, copy=False)


def _given(given, position, call):
    """given[position] as the caller gave it (signed indices travel to the library as their bits)."""
    flat = given.reshape(-1)
    return int((flat[position:position + 1].get(queue=call.queue) if is_device(flat) else flat[position:position + 1])[0])


def _offsets_refusal(message, offsets, call):
    """The library's refusal of offsets with each offset quoted as given (signed, not its bits)."""
    if offsets.dtype.kind != "i":
        return message
    return re.sub(r"offsets\[(\d+)\] = (\d+)", lambda m: f"offsets[{m.group(1)}] = {_given(offsets, int(m.group(1)), call)}", message)


def _index_refusal(message, what, given, call, wrap):
    """The library's refusal of an index beyond out, as the Python call was made: its name, the
    index as the caller gave it (signed indices travel as their bits, and add_at's negative ones
    were counted from the end before), and its parameters' names."""
    m = re.search(r"indices\[(\d+)\] = (\d+) is >= bins \((\d+)\)", message)
    if m:
        position, bins = int(m.group(1)), int(m.group(3))
        value = _given(given, position, call)
        if value >= 0:
            why = f"is >= out.shape[0] ({bins})"
        elif wrap:
            why = f"is below -{bins} (a negative index counts from the end of out.shape[0] = {bins})"
        else:
            why = f"is negative (not counted from the end, as torch does not), and out.shape[0] is {bins}"
        message = f"{message[:m.start()]}indices[{position}] = {value} {why}{message[m.end():]}"
    message = re.sub(r"^clatomics: \w+:", f"clatomics.{what}:", message)
    option = "" if what == "add_at" else ", and out_of_range is 'refuse'"
    return message.replace(", and options.out_of_range is refuse", option)


def _value_code(a, what):
    code = dtype_code(a)
    if code not in _VALUE_CODES:
        raise TypeError(f"clatomics.{what}: elements of {a.dtype} are not taken "
                        "(float32, float64, int32, uint32, int64, uint64, float16)")
    return code


def _width(out, what):
    if out.ndim == 1:
        return 1
    if out.ndim == 2:
        return out.shape[1]
    raise ValueError(f"clatomics.{what}: out must be 1-D or 2-D (rows), not of {out.ndim} dimensions")


def _scatter_into(what, out, indices, values, reduce, include_self, deterministic, nan, out_of_range, queue, wrap=False):
    """out[indices[i]] (a row where out is 2-D) reduced with values[i], in place; out a device
    array, or a NumPy array written back. wrap: negative indices count from the end (NumPy).
    Returns out."""
    out = as_array("out", out, what)
    if not is_device(out) and not out.flags.writeable:
        raise ValueError(f"clatomics.{what}: out is a read-only NumPy array")  # before any work, not when writing back
    indices = as_array("indices", indices, what)
    if values is None:
        raise TypeError(f"clatomics.{what}: values is None")
    vcode = _value_code(out, what)
    if not is_device(values) and np.ndim(values) == 0:  # a scalar, as numpy.add.at takes it
        values = np.full((indices.size,) + out.shape[1:], values, dtype=out.dtype)
    values = as_array("values", values, what)
    if dtype_code(values) != vcode and is_device(values):
        raise TypeError(f"clatomics.{what}: values are {values.dtype} and out is {out.dtype}; they must be of one type")
    width = _width(out, what)
    if indices.ndim != 1:
        raise ValueError(f"clatomics.{what}: indices must be 1-D, not of {indices.ndim} dimensions")
    if values.size != indices.size * width:
        raise ValueError(f"clatomics.{what}: {indices.size} indices and {values.size} values; "
                         f"one value (one row of {width}) per index is needed")
    # The same size in another shape is refused too, as numpy.add.at (broadcasting) and torch's
    # scatter_reduce_ refuse it: a flattened (2, 3) for 6 indices is likely a mistake.
    shape = (indices.size,) + tuple(out.shape[1:])
    if tuple(values.shape) != shape:
        raise ValueError(f"clatomics.{what}: values of shape {tuple(values.shape)} for {indices.size} indices into out of shape "
                         f"{tuple(out.shape)}; values of shape {shape} are needed")
    if out_of_range not in ("refuse", "count"):
        raise ValueError(f"clatomics.{what}: out_of_range must be 'refuse' or 'count', not {out_of_range!r}")
    if nan not in ("propagate", "missing"):
        raise ValueError(f"clatomics.{what}: nan must be 'propagate' or 'missing', not {nan!r}")
    icode = _index_code(indices, what, "indices")
    given = indices
    if wrap:
        indices = _wrapped(indices, out.shape[0])
    call = Call(what, queue, out, indices, values)
    dout = call.device("out", out)
    dvalues = call.device("values", values, dtype=out.dtype)
    dindices = call.device("indices", indices)
    try:
        skipped, _ = _clatomics.scatter(call.handle, vcode, icode, call.describe("out", dout), call.describe("indices", dindices),
                                        call.describe("values", dvalues), _reduce_name(reduce, what), width, False, include_self,
                                        deterministic, out_of_range == "refuse", nan)
    except IndexError as e:
        raise IndexError(_index_refusal(str(e), what, given, call, wrap)) from None
    if not is_device(out):
        out[...] = dout.get(queue=call.queue)
    return out if out_of_range == "refuse" else (out, skipped)


def add_at(out, indices, values, *, queue=None):
    """numpy.add.at(out, indices, values) on a device array (or a NumPy array, written back):
    out[indices[i]] += values[i], repeated indices adding up; out 2-D adds rows. values may be a
    scalar. A negative index counts from the end, as NumPy's; one beyond out either way raises
    IndexError, as NumPy's does, before out is touched."""
    return _scatter_into("add_at", out, indices, values, "sum", True, False, "propagate", "refuse", queue, wrap=True)


def scatter_reduce(out, indices, values, reduce="sum", include_self=True, deterministic=False, *, nan="propagate",
                   out_of_range="refuse", queue=None):
    """torch.Tensor.scatter_reduce_(0, indices, values, reduce, include_self=...) on ``out``, in
    place: 1-D, or row-wise where out is (M, D) and values (N, D). reduce: sum, prod, amax, amin,
    mean; a bin no index reaches keeps its value. deterministic: float sums and means with the
    same bits on every run and device. nan="missing" treats NaN as missing data in amax/amin.
    An index beyond out (a negative one too: torch does not wrap them) raises IndexError before out
    is touched; out_of_range="count" skips them and returns (out, skipped) instead."""
    return _scatter_into("scatter_reduce", out, indices, values, reduce, include_self, deterministic, nan, out_of_range, queue)


def _result(call, dev, out):
    """A call's result: the device array given as out=, else NumPy."""
    return dev if out is not None and is_device(out) else dev.get(queue=call.queue)


def segment_reduce(data, reduce="sum", *, offsets, out=None, include_self=False, deterministic=False, nan="propagate",
                   queue=None):
    """The segments data[offsets[s]:offsets[s + 1]] (rows where data is 2-D) reduced into
    segment s, as torch.segment_reduce(data, reduce, offsets=offsets) and torch_scatter's
    segment_csr: an empty segment gives 0 (1 for prod). include_self=True folds out's own values
    in. Results as NumPy unless out= is a device array."""
    data = as_array("data", data, "segment_reduce")
    offsets = as_array("offsets", offsets, "segment_reduce")
    vcode = _value_code(data, "segment_reduce")
    width = 1 if data.ndim == 1 else int(np.prod(data.shape[1:]))
    segments = max(offsets.size - 1, 0)
    call = Call("segment_reduce", queue, out, data, offsets)
    ocode = _index_code(offsets, "segment_reduce", "offsets")
    if out is None:
        dout = call.zeros((segments,) + data.shape[1:], data.dtype)
    else:
        out = as_array("out", out, "segment_reduce")
        if not is_device(out) and not out.flags.writeable:
            raise ValueError("clatomics.segment_reduce: out is a read-only NumPy array")
        shape = (segments,) + tuple(data.shape[1:])
        if tuple(out.shape) != shape:
            raise ValueError(f"clatomics.segment_reduce: out of shape {tuple(out.shape)} for {segments} segments "
                             f"({offsets.size} offsets); out of shape {shape} is needed")
        dout = call.device("out", out, dtype=data.dtype)
    with as_called("segment_reduce", "segment_reduce", also=lambda message: _offsets_refusal(message, offsets, call)):
        _clatomics.scatter(call.handle, vcode, ocode, call.describe("out", dout), call.describe("offsets", call.device("offsets", offsets)),
                           call.describe("data", call.device("data", data)), _reduce_name(reduce, "segment_reduce"), width, True,
                           include_self, deterministic, True, nan)
    if out is not None and not is_device(out):
        out[...] = dout.get(queue=call.queue)
        return out
    return _result(call, dout, out)


def reduce_by_key(keys, values, reduce="sum", *, deterministic=False, nan="propagate", out=None, queue=None):
    """Runs of equal consecutive keys (sorted keys: each key once) and the reduction of each run's
    values, as thrust::reduce_by_key: ``(unique_keys, reductions)``. keys: int32, uint32, int64
    or uint64; values as scatter_reduce takes them. out=(unique_keys, reductions), device arrays
    as long as keys, receives them and the results are views of their first runs."""
    keys, values = as_array("keys", keys, "reduce_by_key"), as_array("values", values, "reduce_by_key")
    kcode = _index_code(keys, "reduce_by_key", "keys")
    vcode = _value_code(values, "reduce_by_key")
    if keys.ndim != 1 or values.ndim != 1:
        raise ValueError("clatomics.reduce_by_key: keys and values must be 1-D")
    if keys.size != values.size:
        raise ValueError(f"clatomics.reduce_by_key: keys has {keys.size} elements and values {values.size}; they must be of the same length")
    call = Call("reduce_by_key", queue, keys, values, *(out or ()))
    if out is None:
        ukeys, reductions = call.empty(keys.size, keys.dtype), call.empty(keys.size, values.dtype)
    else:
        if len(out) != 2 or not all(is_device(o) for o in out):
            raise TypeError("clatomics.reduce_by_key: out must be (unique_keys, reductions), two device arrays")
        ukeys, reductions = call.device("out[0]", out[0], keys.dtype), call.device("out[1]", out[1], values.dtype)
    with as_called("reduce_by_key", "reduce_by_key", [("unique_keys", "out[0]"), ("reductions", "out[1]")]):
        runs = _clatomics.reduce_by_key(call.handle, kcode, vcode, call.describe("keys", call.device("keys", keys)),
                                        call.describe("values", call.device("values", values)), call.describe("unique_keys", ukeys),
                                        call.describe("reductions", reductions), _reduce_name(reduce, "reduce_by_key"), deterministic, nan)
    if out is not None:
        return ukeys[:runs], reductions[:runs]
    return ukeys[:runs].get(queue=call.queue), reductions[:runs].get(queue=call.queue)
