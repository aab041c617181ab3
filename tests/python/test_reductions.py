"""reduce, dot and compact against NumPy on the same data; exact where the values make it so."""

import numpy as np
import pyopencl.array as cla
import pytest

import clatomics
from clatomics import where
from conftest import at_offset


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.uint64])
def test_reduce_equals_numpy(queue, rng, dtype):
    a = rng.integers(0, 1000, 30001).astype(dtype)
    view, _ = at_offset(queue, a, 5)
    for op, want in (("sum", a.sum(dtype=dtype)), ("min", a.min()), ("max", a.max())):
        got = clatomics.reduce(view, op)
        assert got.dtype == dtype and got == want, (op, got, want)
    assert clatomics.reduce(np.array([2, 3, 7], dtype), "prod") == 42


def test_reduce_deterministic_and_nan(queue, rng):
    a = (rng.random(50000) - 0.5).astype(np.float32)
    first = clatomics.reduce(a, deterministic=True)
    assert first.tobytes() == clatomics.reduce(a, deterministic=True).tobytes()
    assert abs(float(first) - a.astype(np.float64).sum()) < 1e-3
    b = np.array([3.0, np.nan, -1.0], np.float32)  # NaN is missing data, as numpy.fmin/fmax
    assert clatomics.reduce(b, "min") == np.fmin.reduce(b) and clatomics.reduce(b, "max") == np.fmax.reduce(b)
    assert clatomics.reduce(np.empty(0, np.float32), "max") == -np.inf


def test_dot_equals_numpy(queue, rng):
    a = rng.integers(-8, 8, 20000).astype(np.float32)
    b = rng.integers(-8, 8, 20000).astype(np.float32)
    va, _ = at_offset(queue, a, 3)
    assert clatomics.dot(va, b) == np.dot(a, b)  # small integers: every partial sum exact


@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_compact_equals_numpy(queue, rng, dtype):
    a = rng.integers(-100, 100, 20000).astype(dtype)
    kept = clatomics.compact(a, where.x > 10, stable=True)
    np.testing.assert_array_equal(kept, a[a > 10])
    pred = (where.x >= -5) & (where.x < 5) | (where.x == 99)
    np.testing.assert_array_equal(np.sort(clatomics.compact(a, pred)), np.sort(a[((a >= -5) & (a < 5)) | (a == 99)]))
    np.testing.assert_array_equal(clatomics.compact(a, ~where.in_range(where.x, -90, 90), stable=True),
                                  a[~((a >= -90) & (a < 90))])


def test_compact_nan_string_and_device_out(queue, rng):
    a = rng.random(5000).astype(np.float32)
    a[::7] = np.nan
    np.testing.assert_array_equal(clatomics.compact(a, where.isnan(where.x) | (0.5 < where.x), stable=True),
                                  a[np.isnan(a) | (a > 0.5)])
    view, _ = at_offset(queue, a, 4)
    out = cla.empty(queue, a.size, np.float32)
    got = clatomics.compact(view, "x < 0.25f", stable=True, out=out)  # the checked string form
    assert isinstance(got, cla.Array) and got.base_data is out.base_data
    np.testing.assert_array_equal(got.get(), a[a < 0.25])
