"""float32 data over ranges float32 cannot hold (0.7, 1e-3, random doubles): NumPy makes the edges
from the double range (np.linspace, then float32) and compares the data with the range cast to
float32; histogram2d compares them with the double edges. The counts and edges must be NumPy's,
bit for bit, with no warning."""

import warnings

import numpy as np
import pytest

import clatomics
from conftest import at_offset

F32 = np.float32
NUMPY2 = int(np.__version__.split(".")[0]) >= 2


def exact(v):
    """Whether float32 holds the Python float v (compared in double: NumPy 2 would compare
    np.float32(v) == v in float32, always true)."""
    return float(F32(v)) == v


def around(e):
    """Each float32 edge and the floats either side of it (the values the bin rule decides)."""
    e = np.asarray(e, F32)
    return np.concatenate([e, np.nextafter(e, F32(np.inf)), np.nextafter(e, F32(-np.inf))])


def data_for(rng, lo, hi, nbins, n=3000):
    """Uniform values over the range and a margin, NumPy's float32 edges and their neighbours,
    the double edges rounded both ways, and NaN and infinities (NumPy drops them)."""
    wide = np.linspace(lo, hi, nbins + 1)
    margin = (hi - lo) * 0.1
    a = rng.uniform(lo - margin, hi + margin, n).astype(F32)
    down = wide.astype(F32)
    down = np.where(down > wide, np.nextafter(down, F32(-np.inf)), down)  # the float below each double edge
    a = np.concatenate([a, around(wide), around(down), [np.nan, np.inf, -np.inf]]).astype(F32)
    rng.shuffle(a)
    return a


def ranges(rng, count):
    """Random ranges of many magnitudes, none float32-exact, whose bins are wide enough for
    NumPy's first guess to be within one bin (its correction moves a guess by one bin only)."""
    out = []
    while len(out) < count:
        scale = 10.0 ** rng.uniform(-4, 7)
        lo = rng.uniform(-1, 1) * scale
        hi = lo + rng.uniform(0.05, 3) * scale
        nbins = int(rng.integers(1, 400))
        if exact(lo) or exact(hi) or (hi - lo) / nbins < 2.0 ** -10 * max(abs(lo), abs(hi)):
            continue
        out.append((lo, hi, nbins))
    return out


FIXED = [(0.0, 0.7, 100), (-1e-3, 1e7, 100), (0.1, 0.3, 7), (1 / 3, 2 / 3, 9), (-0.7, -0.1, 13), (0.7, 0.7, 4),
         (-1e-3, 1e-3, 10), (1e-8, 3.3e-8, 31), (123456.789, 123999.123, 40)]


def numpy_histogram(a, nbins, rng_):
    with np.errstate(invalid="ignore"):
        return np.histogram(a, nbins, rng_)


@pytest.mark.parametrize("case", range(len(FIXED) + 1))
def test_float32_histogram_over_double_ranges_equals_numpy(queue, case):
    rng = np.random.default_rng(100 + case)
    cases = [FIXED[case]] if case < len(FIXED) else ranges(rng, 60)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the range is NumPy's now: nothing to warn about
        for lo, hi, nbins in cases:
            a = data_for(rng, lo, hi, nbins)
            hist, edges = clatomics.histogram(a, nbins, (lo, hi))
            want, want_edges = numpy_histogram(a, nbins, (lo, hi))
            assert edges.dtype == want_edges.dtype == F32
            np.testing.assert_array_equal(edges, want_edges, err_msg=f"edges of ({lo!r}, {hi!r}), {nbins} bins")
            np.testing.assert_array_equal(hist, want, err_msg=f"counts of ({lo!r}, {hi!r}), {nbins} bins")


def test_float32_histogram_double_range_device_array_and_weights(queue):
    rng = np.random.default_rng(7)
    lo, hi, nbins = 0.0, 0.7, 100
    a = data_for(rng, lo, hi, nbins, 20000)
    view, _ = at_offset(queue, a, 5)
    hist, edges = clatomics.histogram(view, nbins, (lo, hi))
    want, want_edges = numpy_histogram(a, nbins, (lo, hi))
    np.testing.assert_array_equal(hist, want)
    np.testing.assert_array_equal(edges, want_edges)
    w = rng.integers(-8, 8, a.size).astype(F32)  # integer sums: exact in any order
    sums, _ = clatomics.histogram(a, nbins, (lo, hi), weights=w)
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(sums, np.histogram(a, nbins, (lo, hi), weights=w.astype(np.float64))[0])


def numpy1_on_edge(v, hi):
    """NumPy 1's histogramdd compares points with the last edge in float32 (value-based casting):
    a float32 point equal to float32(hi) but not to hi moves one bin. NumPy 2 compares in double."""
    return (not NUMPY2) & (v == F32(hi)) & (not exact(hi))


@pytest.mark.parametrize("seed", range(4))
def test_float32_histogram2d_over_double_ranges_equals_numpy(queue, seed):
    rng = np.random.default_rng(200 + seed)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for (xlo, xhi, nx), (ylo, yhi, ny) in zip(ranges(rng, 12), ranges(rng, 12)):
            nx, ny = nx % 40 + 1, ny % 40 + 1
            x, y = data_for(rng, xlo, xhi, nx), data_for(rng, ylo, yhi, ny)
            m = min(x.size, y.size)
            x, y = x[:m], y[:m]
            keep = ~(numpy1_on_edge(x, xhi) | numpy1_on_edge(y, yhi))
            x, y = x[keep], y[keep]
            rng_ = [[xlo, xhi], [ylo, yhi]]
            h, xe, ye = clatomics.histogram2d(x, y, (nx, ny), rng_)
            with np.errstate(invalid="ignore"):
                want, wxe, wye = np.histogram2d(x, y, (nx, ny), rng_)
            np.testing.assert_array_equal(xe, wxe)
            np.testing.assert_array_equal(ye, wye)
            np.testing.assert_array_equal(h, want, err_msg=f"range {rng_}, bins {nx, ny}")


def test_float32_histogram2d_at_the_double_edges(queue):
    # Points on and either side of every double edge of (0, 0.7) and (-1e-3, 1e7).
    xr, yr = (0.0, 0.7), (-1e-3, 1e7)
    ex, ey = np.linspace(*xr, 8), np.linspace(*yr, 6)
    x = np.concatenate([around(ex), around(np.nextafter(ex.astype(F32), F32(-np.inf)))])
    y = np.resize(np.concatenate([around(ey), around(np.nextafter(ey.astype(F32), F32(-np.inf)))]), x.size)
    keep = ~(numpy1_on_edge(x, xr[1]) | numpy1_on_edge(y, yr[1]))
    x, y = x[keep], y[keep]
    h, xe, ye = clatomics.histogram2d(x, y, (7, 5), [xr, yr])
    want, wxe, wye = np.histogram2d(x, y, (7, 5), [xr, yr])
    np.testing.assert_array_equal(h, want)
    np.testing.assert_array_equal(xe, wxe)
    np.testing.assert_array_equal(ye, wye)


def numpy2_linspace32(lo, hi, nbins):
    """np.linspace(lo, hi, nbins + 1) for float32 scalars as NumPy 2 computes it (NEP 50: every
    operation in float32), whatever NumPy runs the test."""
    lo, hi = F32(lo), F32(hi)
    delta, n = F32(hi - lo), F32(nbins)
    step = F32(delta / n)
    k = np.arange(nbins + 1, dtype=F32)
    e = (k / n * delta if step == 0 else k * step) + lo
    e[-1] = hi
    return e.astype(F32)


@pytest.mark.parametrize("seed", range(3))
def test_float32_histogram2d_without_range_is_numpy2s(queue, seed):
    # Each axis' range is its data's min and max, the edges np.linspace in float32 (NumPy 2): points
    # on and beside the float32 and the float64 edges of that range tell the two apart.
    rng = np.random.default_rng(300 + seed)
    (xlo, xhi, nx), (ylo, yhi, ny) = ranges(rng, 2)
    nx, ny = nx % 60 + 1, ny % 60 + 1
    x = np.concatenate([[F32(xlo), F32(xhi)], around(numpy2_linspace32(xlo, xhi, nx)), around(np.linspace(F32(xlo), F32(xhi), nx + 1))])
    y = np.concatenate([[F32(ylo), F32(yhi)], around(numpy2_linspace32(ylo, yhi, ny)), around(np.linspace(F32(ylo), F32(yhi), ny + 1))])
    x, y = x[(x >= F32(xlo)) & (x <= F32(xhi))].astype(F32), y[(y >= F32(ylo)) & (y <= F32(yhi))].astype(F32)
    m = min(x.size, y.size)
    x, y = rng.permutation(x)[:m], rng.permutation(y)[:m]
    ex, ey = numpy2_linspace32(x.min(), x.max(), nx), numpy2_linspace32(y.min(), y.max(), ny)
    h, xe, ye = clatomics.histogram2d(x, y, (nx, ny))
    assert xe.dtype == ye.dtype == F32
    np.testing.assert_array_equal(xe, ex)
    np.testing.assert_array_equal(ye, ey)
    np.testing.assert_array_equal(h, np.histogram2d(x, y, [ex, ey])[0])  # explicit edges: the same in NumPy 1 and 2
    if NUMPY2:
        want, wxe, wye = np.histogram2d(x, y, (nx, ny))
        assert wxe.dtype == F32
        np.testing.assert_array_equal(h, want)
        np.testing.assert_array_equal(xe, wxe)


def test_histogram2d_without_range_edge_cases(queue):
    # Equal values widen by 0.5 in float32; a range of one ulp leaves bins empty (no refusal, as
    # np.histogram2d); no points give [0, 1] in float64; a NaN is refused naming its axis.
    one = F32(1)
    x = np.array([one, np.nextafter(one, F32(2)), one], F32)
    y = np.full(3, 3, F32)
    h, xe, ye = clatomics.histogram2d(x, y, (64, 4))
    np.testing.assert_array_equal(ye, numpy2_linspace32(2.5, 3.5, 4))
    np.testing.assert_array_equal(h, np.histogram2d(x, y, [numpy2_linspace32(1, np.nextafter(one, F32(2)), 64), ye])[0])
    h, xe, _ = clatomics.histogram2d(np.zeros(0, F32), np.zeros(0, F32), 3)
    assert xe.dtype == np.float64 and xe[0] == 0 and xe[-1] == 1 and not h.any()
    with pytest.raises(ValueError, match=r"^clatomics\.histogram2d: y: autodetected range of \[nan, nan\] is not finite"):
        clatomics.histogram2d(y, np.array([1, np.nan, 2], F32))


@pytest.mark.parametrize("seed", range(3))
def test_ranges_of_numpy_scalars_make_numpy2s_edges(queue, seed):
    # NEP 50: float32 scalars (as (a.min(), a.max()) of float32 data) make float32 edges by float32
    # arithmetic; float64 scalars make float64 edges, the float32 data compared with them in
    # double. Modelled here as NumPy 2 computes them, compared with NumPy 2 itself where it runs.
    rng = np.random.default_rng(400 + seed)
    for lo, hi, nbins in ranges(rng, 8):
        nbins = nbins % 80 + 1
        f_lo, f_hi = F32(lo), F32(hi)
        e32, e64 = numpy2_linspace32(f_lo, f_hi, nbins), np.linspace(lo, hi, nbins + 1)
        a = np.concatenate([data_for(rng, lo, hi, nbins, 500), around(e32), around(e64)]).astype(F32)
        a = a[np.isfinite(a)]
        for given, edges, data in (((f_lo, f_hi), e32, a), ((np.float64(lo), np.float64(hi)), e64, a.astype(np.float64))):
            hist, got = clatomics.histogram(a, nbins, given)
            assert got.dtype == edges.dtype
            np.testing.assert_array_equal(got, edges, err_msg=f"{given!r}, {nbins} bins")
            np.testing.assert_array_equal(hist, np.histogram(data, edges)[0], err_msg=f"{given!r}, {nbins} bins")
            if NUMPY2:
                want, want_edges = numpy_histogram(a, nbins, given)
                np.testing.assert_array_equal(hist, want)
                np.testing.assert_array_equal(got, want_edges)
        x, y = a, rng.permutation(a)
        h, xe, ye = clatomics.histogram2d(x, y, nbins, [(f_lo, f_hi), (f_lo, f_hi)])
        assert xe.dtype == F32
        np.testing.assert_array_equal(xe, e32)
        np.testing.assert_array_equal(h, np.histogram2d(x, y, [e32, e32])[0])


def test_ranges_numpy2_computes_in_another_type_are_refused(queue):
    with pytest.raises(TypeError, match=r"^clatomics\.histogram: a range of float32 over float64 data"):
        clatomics.histogram(np.zeros(4), 3, (np.float32(0), np.float32(1)))
    with pytest.raises(TypeError, match=r"float16"):
        clatomics.histogram(np.zeros(4, F32), 3, (np.float16(0), 1.0))


@pytest.mark.parametrize("given, kind", [
    ((np.float64(0), 0.5), "float64"),              # a Python number that float32 holds beside a float64 end
    ((np.array(0.0), np.array(0.1)), "float64"),    # 0-d arrays are typed, as NumPy scalars are
    ((np.array(0, F32), np.array(0.1, F32)), "float32"),
    ((np.float32(0), 0.7), "float32"),              # the Python number taken as a float32
    ((np.float32(0.1), 0.1), "float32"),            # equal as float32: widened by 0.5 in float32
    ((np.int8(0), np.int8(1)), "python"),           # float32 bins, np.linspace in double
])
def test_mixed_and_typed_range_ends_as_numpy2_takes_them(queue, given, kind):
    a = np.float32([0.05, 0.1, 0.3, 0.5, 0.6, 0.7, 1.0, -0.4])
    lo, hi = (float(v) for v in given)
    if kind == "float64":
        edges, data = np.linspace(lo, hi, 4), a.astype(np.float64)
    elif kind == "float32":
        lo, hi = F32(lo), F32(hi)
        if lo == hi:
            lo, hi = F32(lo - F32(0.5)), F32(hi + F32(0.5))
        edges, data = numpy2_linspace32(lo, hi, 3), a
    else:
        edges, data = np.linspace(lo, hi, 4).astype(F32), a
    hist, got = clatomics.histogram(a, 3, given)
    assert got.dtype == edges.dtype
    np.testing.assert_array_equal(got, edges)
    np.testing.assert_array_equal(hist, np.histogram(data, edges)[0])
    if NUMPY2:
        want, want_edges = np.histogram(a, 3, given)
        np.testing.assert_array_equal(hist, want)
        np.testing.assert_array_equal(got, want_edges)


def test_range_ends_numpy2_compares_in_two_types_are_refused(queue):
    # np.histogram compares float32 data with the Python 0.1 in float32 and with np.float64(0) in
    # double: no one rule of edges gives that.
    with pytest.raises(TypeError, match=r"^clatomics\.histogram: a range with a Python number beside an end of float64"):
        clatomics.histogram(np.float32([0.1, 0.05]), 1, (np.float64(0), 0.1))
    # np.histogram2d's edges decide alone: the same range is taken there.
    h, xe, _ = clatomics.histogram2d(np.float32([0.1, 0.05]), np.float32([0.1, 0.05]), 1, [(np.float64(0), 0.1), (0, 1)])
    assert xe.dtype == np.float64 and h.sum() == 1  # 0.1f is above the double 0.1


def test_histogram2d_equal_double_edges_are_allowed(queue):
    # Equal edges leave bins empty in np.histogram2d (np.histogram refuses them).
    h, xe, _ = clatomics.histogram2d(np.array([1e17, 1e17]), np.array([0.0, 1.0]), 2)
    np.testing.assert_array_equal(h, [[0, 0], [1, 1]])
    np.testing.assert_array_equal(xe, [1e17] * 3)
    u = np.nextafter(1.0, 2.0)
    h, _, _ = clatomics.histogram2d(np.float32([1, 1]), np.float32([0, 1]), 3, [[1.0, u], [0, 1]])
    np.testing.assert_array_equal(h, [[0, 0, 0], [1, 0, 1], [0, 0, 0]])  # NumPy 2's: the edges 1, 1, 1 + ulp, 1 + ulp
