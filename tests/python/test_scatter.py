"""add_at, scatter_reduce, segment_reduce and reduce_by_key against NumPy (numpy.add.at and a
NumPy model of torch.Tensor.scatter_reduce_) on the same data; exact values throughout."""

import numpy as np
import pyopencl.array as cla
import pytest

import clatomics
from conftest import at_offset

_UFUNC = {"sum": np.add, "prod": np.multiply, "amax": np.maximum, "amin": np.minimum, "mean": np.add}


def scatter_model(out, idx, vals, reduce, include_self):
    """torch.Tensor.scatter_reduce_(0, idx, vals, reduce, include_self) in NumPy, rows too."""
    out = out.copy()
    reached = np.zeros(out.shape[0], bool)
    reached[idx] = True
    start = out.copy()
    if not include_self:
        info = np.finfo(out.dtype) if out.dtype.kind == "f" else np.iinfo(out.dtype)
        identity = {"sum": 0, "mean": 0, "prod": 1, "amax": info.min, "amin": info.max}[reduce]
        start[reached] = identity
    _UFUNC[reduce].at(start, idx, vals)
    if reduce == "mean":
        count = np.bincount(idx, minlength=out.shape[0]) + (1 if include_self else 0)
        count = count.reshape((-1,) + (1,) * (out.ndim - 1))
        mean = start / np.maximum(count, 1) if out.dtype.kind == "f" else start // np.maximum(count, 1)
        start = mean.astype(out.dtype)
    out[reached] = start[reached]
    return out


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.int64])
def test_add_at_equals_numpy(queue, rng, dtype):
    idx = rng.integers(0, 100, 5000)
    vals = rng.integers(-20, 20, 5000).astype(dtype)
    start = rng.integers(-5, 5, 100).astype(dtype)
    want = start.copy()
    np.add.at(want, idx, vals)
    dev = cla.to_device(queue, start)
    assert clatomics.add_at(dev, idx, vals) is dev
    np.testing.assert_array_equal(dev.get(), want)
    host = start.copy()
    clatomics.add_at(host, idx.astype(np.uint32), vals)  # a NumPy out is written back
    np.testing.assert_array_equal(host, want)
    host = start.copy()
    clatomics.add_at(host, idx, 1)  # a scalar, as numpy.add.at takes it
    want = start.copy()
    np.add.at(want, idx, 1)
    np.testing.assert_array_equal(host, want)


def test_add_at_wraps_negative_indices_as_numpy(queue, rng):
    idx = rng.integers(-100, 100, 4000)  # int64, half of them counted from the end
    vals = rng.integers(-20, 20, 4000).astype(np.int32)
    want = np.zeros(100, np.int32)
    np.add.at(want, idx, vals)
    host = np.zeros(100, np.int32)
    clatomics.add_at(host, idx, vals)
    np.testing.assert_array_equal(host, want)
    dev = cla.zeros(queue, 100, np.int32)
    clatomics.add_at(dev, cla.to_device(queue, idx.astype(np.int32)), vals)  # device indices, wrapped on the device
    np.testing.assert_array_equal(dev.get(), want)


def test_add_at_rows_and_offsets(queue, rng):
    idx = rng.integers(0, 40, 3000).astype(np.uint32)
    vals = rng.integers(-9, 9, (3000, 8)).astype(np.float32)
    start = np.zeros((40, 8), np.float32)
    want = start.copy()
    np.add.at(want, idx, vals)
    out, whole = at_offset(queue, start, 5)
    vidx, _ = at_offset(queue, idx, 2)
    vvals, _ = at_offset(queue, vals, 11)
    clatomics.add_at(out, vidx, vvals)
    got = whole.get()
    np.testing.assert_array_equal(got[5:5 + 320].reshape(40, 8), want)
    assert (got[:5] == 77).all() and (got[5 + 320:] == 77).all()  # nothing around it written


@pytest.mark.parametrize("reduce", ["sum", "prod", "amax", "amin", "mean"])
@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce_equals_model(queue, rng, reduce, include_self):
    idx = rng.integers(0, 60, 2000)
    idx = idx[idx != 7]  # bin 7 receives nothing: it keeps its value
    small = reduce == "prod"
    vals = (rng.choice([-1.0, 1.0, 2.0, 0.5], idx.size) if small else rng.integers(-30, 30, idx.size)).astype(np.float32)
    if small:
        idx = idx % 8  # products of a few factors of 2: exact
    out = rng.integers(1, 5, 60).astype(np.float32)
    want = scatter_model(out, idx, vals, reduce, include_self)
    got = clatomics.scatter_reduce(out.copy(), idx, vals, reduce, include_self=include_self)
    np.testing.assert_array_equal(got, want)


def test_scatter_reduce_rows_int_mean_and_deterministic(queue, rng, doubles):
    idx = rng.integers(0, 20, 700)
    vals = rng.integers(-100, 100, (700, 3)).astype(np.int32)
    out = np.zeros((20, 3), np.int32)
    np.testing.assert_array_equal(clatomics.scatter_reduce(out.copy(), idx, vals, "amax"), scatter_model(out, idx, vals, "amax", True))
    np.testing.assert_array_equal(clatomics.scatter_reduce(out.copy(), idx, vals, "mean", include_self=False),
                                  scatter_model(out, idx, vals, "mean", False))
    if doubles:
        f = (rng.random(700) - 0.5).astype(np.float32)
        a = clatomics.scatter_reduce(np.zeros(20, np.float32), idx, f, deterministic=True)
        b = clatomics.scatter_reduce(np.zeros(20, np.float32), idx[::-1].copy(), f[::-1].copy(), deterministic=True)
        assert a.tobytes() == b.tobytes()  # the same bits in any order of the values
        np.testing.assert_allclose(a, np.bincount(idx, f.astype(np.float64), minlength=20), rtol=1e-6, atol=1e-6)

        assert clatomics.kept_scratch_bytes() > 0  # the fixed-point scratch, kept at zero for the next call
        clatomics.release_scratch()
        assert clatomics.kept_scratch_bytes() == 0
        c = clatomics.scatter_reduce(np.zeros(20, np.float32), idx, f, deterministic=True)
        assert c.tobytes() == a.tobytes()  # fresh scratch: the same bits


def test_scatter_reduce_nan_rules(queue):
    idx = np.array([0, 0, 1, 1], np.uint32)
    vals = np.array([1.0, np.nan, 2.0, 3.0], np.float32)
    got = clatomics.scatter_reduce(np.zeros(2, np.float32), idx, vals, "amax", include_self=False)
    assert np.isnan(got[0]) and got[1] == 3.0  # torch's amax: NaN propagates
    got = clatomics.scatter_reduce(np.zeros(2, np.float32), idx, vals, "amax", include_self=False, nan="missing")
    np.testing.assert_array_equal(got, [1.0, 3.0])  # np.fmax.at's rule


def test_scatter_reduce_count_out_of_range(queue):
    out, skipped = clatomics.scatter_reduce(np.zeros(3, np.int32), np.array([0, 5, 2, 9]), np.array([1, 2, 3, 4], np.int32),
                                            out_of_range="count")
    np.testing.assert_array_equal(out, [1, 0, 3])
    assert skipped == 2


def test_segment_reduce_equals_numpy(queue, rng):
    lengths = rng.integers(0, 30, 50)
    lengths[3] = 0
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    data = rng.integers(-50, 50, offsets[-1]).astype(np.float32)
    got = clatomics.segment_reduce(data, "sum", offsets=offsets)
    want = np.array([data[offsets[s]:offsets[s + 1]].sum() for s in range(50)], np.float32)
    np.testing.assert_array_equal(got, want)
    got = clatomics.segment_reduce(data, "amax", offsets=offsets)
    want = np.array([data[offsets[s]:offsets[s + 1]].max(initial=-np.inf) for s in range(50)], np.float32)
    want[lengths == 0] = 0  # an empty segment gives 0, as torch_scatter's segment_csr
    np.testing.assert_array_equal(got, want)
    dev_out = cla.zeros(queue, 50, np.float32)
    assert clatomics.segment_reduce(data, "sum", offsets=offsets, out=dev_out) is dev_out  # a device out= stays there


def test_reduce_by_key_equals_numpy(queue, rng):
    keys = np.sort(rng.integers(0, 400, 6000)).astype(np.int64)
    vals = rng.integers(-10, 10, 6000).astype(np.int32)
    ukeys, sums = clatomics.reduce_by_key(keys, vals, "sum")
    want_keys, first = np.unique(keys, return_index=True)
    np.testing.assert_array_equal(ukeys, want_keys)
    np.testing.assert_array_equal(sums, np.add.reduceat(vals, first))
    assert ukeys.dtype == np.int64 and sums.dtype == np.int32
    dk, _ = at_offset(queue, keys.astype(np.uint32), 9)
    out = (cla.empty(queue, 6000, np.uint32), cla.empty(queue, 6000, np.int32))
    uk, mx = clatomics.reduce_by_key(dk, vals, "amax", out=out)
    np.testing.assert_array_equal(uk.get(), want_keys)
    np.testing.assert_array_equal(mx.get(), np.maximum.reduceat(vals, first))
