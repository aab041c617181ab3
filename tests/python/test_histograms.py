"""histogram, histogram2d and bincount against NumPy's own results on the same data."""

import numpy as np
import pytest

import clatomics
from conftest import at_offset


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_histogram_with_range_equals_numpy(queue, rng, dtype, doubles):
    if dtype == np.float64 and not doubles:
        pytest.skip("no fp64")
    a = (rng.standard_normal(20000) * 3).astype(dtype)
    a[:4] = [np.nan, -np.inf, np.inf, 2.5]  # dropped as NumPy drops them; 2.5 on an edge
    hist, edges = clatomics.histogram(a, 37, (-5, 5))
    want, want_edges = np.histogram(a[np.isfinite(a)], 37, (-5, 5))
    assert hist.dtype == np.int64 and edges.dtype == dtype
    np.testing.assert_array_equal(hist, want)
    np.testing.assert_array_equal(edges, want_edges)


def test_histogram_device_array_at_offset(queue, rng):
    a = rng.random(5000).astype(np.float32)
    view, whole = at_offset(queue, a, 7)
    before = whole.get()
    hist, edges = clatomics.histogram(view, 10, (0.0, 1.0))
    want, want_edges = np.histogram(a, 10, (0.0, 1.0))
    np.testing.assert_array_equal(hist, want)
    np.testing.assert_array_equal(edges, want_edges)
    np.testing.assert_array_equal(whole.get(), before)  # an input is only read


def test_histogram_range_from_data(queue):
    # Values on bin centres: the bins are NumPy's whatever the last ulp of the edges.
    a = ((np.arange(999) % 20) * 0.5 + 0.25).astype(np.float32)
    hist, edges = clatomics.histogram(a, 20)
    want, want_edges = np.histogram(a, 20)
    np.testing.assert_array_equal(hist, want)
    np.testing.assert_allclose(edges, want_edges, rtol=1e-6)
    hist, edges = clatomics.histogram(np.full(5, 3.0, np.float32), 4)  # lo == hi widens by 0.5
    np.testing.assert_array_equal(edges, np.histogram(np.full(5, 3.0, np.float32), 4)[1])
    np.testing.assert_array_equal(hist, [0, 0, 5, 0])


@pytest.mark.parametrize("accumulation", ["float", "compensated"])
def test_histogram_weights_equal_numpy(queue, rng, accumulation):
    a = rng.random(10000).astype(np.float32)
    w = rng.integers(-50, 50, a.size).astype(np.float32)  # integer sums: exact in every order
    hist, edges = clatomics.histogram(a, 16, (0, 1), weights=w, accumulation=accumulation)
    want, _ = np.histogram(a, 16, (0, 1), weights=w.astype(np.float64))
    assert hist.dtype == np.float64
    np.testing.assert_array_equal(hist, want)
    sums, _ = clatomics.histogram(a, 16, (0, 1), weights=[w, 2 * w])  # channels in one pass
    np.testing.assert_array_equal(sums[1], 2 * want)


def test_histogram2d_equals_numpy(queue, rng):
    x = rng.standard_normal(8000).astype(np.float32)
    y = rng.random(8000).astype(np.float32)
    h, xe, ye = clatomics.histogram2d(x, y, (12, 7), [[-2, 2], [0, 1]])
    want, wxe, wye = np.histogram2d(x, y, (12, 7), [[-2, 2], [0, 1]])
    np.testing.assert_array_equal(h, want)
    np.testing.assert_array_equal(xe, wxe)
    np.testing.assert_array_equal(ye, wye)
    w = rng.integers(0, 9, 8000).astype(np.float32)
    vx, _ = at_offset(queue, x, 1)
    hw, _, _ = clatomics.histogram2d(vx, y, 5, [[-2, 2], [0, 1]], weights=w)
    np.testing.assert_array_equal(hw, np.histogram2d(x, y, 5, [[-2, 2], [0, 1]], weights=w)[0])


def test_histogram2d_range_from_data(queue):
    g = np.arange(400)
    x, y = ((g % 8) + 0.5).astype(np.float32), ((g // 50) * 2.0 + 1.0).astype(np.float32)
    h, xe, ye = clatomics.histogram2d(x, y, 8)
    want, wxe, wye = np.histogram2d(x, y, 8)
    np.testing.assert_array_equal(h, want)
    np.testing.assert_allclose(xe, wxe, rtol=1e-7)
    np.testing.assert_allclose(ye, wye, rtol=1e-7)


@pytest.mark.parametrize("dtype", [np.int32, np.uint32, np.int64])
def test_bincount_equals_numpy(queue, rng, dtype):
    x = rng.integers(0, 300, 20000).astype(dtype)
    np.testing.assert_array_equal(clatomics.bincount(x), np.bincount(x))
    np.testing.assert_array_equal(clatomics.bincount(x, minlength=500), np.bincount(x, minlength=500))
    got = clatomics.bincount(x[:0], minlength=3)
    np.testing.assert_array_equal(got, np.bincount(x[:0], minlength=3))


def test_bincount_weights_equal_numpy(queue, rng, doubles):
    x = rng.integers(0, 50, 5000).astype(np.int64)
    w = rng.integers(-8, 8, 5000) * 0.25
    got = clatomics.bincount(x, weights=w)
    assert got.dtype == (np.float64 if doubles else np.float32)
    np.testing.assert_array_equal(got, np.bincount(x, weights=w))
