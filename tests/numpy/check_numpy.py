#!/usr/bin/env python3
"""README.md's "Coming from NumPy or PyTorch" table, row by row, against NumPy computed here.

Builds the cases (fixed seeds), runs them on the device through numpy_cases (--cases), and
compares: exactly where NumPy is exact (counts, integer and exactly representable sums, min/max
bits), within the README's stated bounds where the table says the results may differ. Each row
that states a difference also checks that NumPy still behaves as the table says it does.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np

F32, F64, F16 = np.float32, np.float64, np.float16


def bits(a, dtype):
    a = np.asarray(a, dtype)
    return a.view({4: np.uint32, 8: np.uint64, 2: np.uint16}[a.itemsize]).tolist()


def unbits(b, dtype):
    utype = {4: np.uint32, 8: np.uint64, 2: np.uint16}[np.dtype(dtype).itemsize]
    return np.asarray(b, utype).view(dtype)


def same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and a.dtype == b.dtype and bool(np.all(a.view(np.uint8) == b.view(np.uint8)))


class Checker:
    def __init__(self):
        self.cases, self.checks, self.failures = [], [], 0

    def case(self, request, check):
        """A case for the device and the function that judges its result."""
        self.cases.append(request)
        self.checks.append((request["name"], check))

    def expect(self, name, ok, detail=""):
        if not ok:
            self.failures += 1
            print(f"FAIL {name}: {detail}")
        return ok


# Rows 1-3 and the intro's "NumPy 2's edge rules exactly": even histograms.
def histogram_cases(c, rng):
    for dtype, type_name in ((F32, "f32"), (F64, "f64")):
        lo, hi, nbins = -2.0, 3.0, 37
        edges = np.histogram(np.zeros(0, dtype), nbins, (lo, hi))[1]
        # Random values, every edge and its neighbours (the bin rule at each boundary), values
        # outside on both sides, infinities and NaN.
        x = np.concatenate([rng.normal(0.5, 1.5, 5000).astype(dtype), edges.astype(dtype),
                            np.nextafter(edges.astype(dtype), dtype(-np.inf)), np.nextafter(edges.astype(dtype), dtype(np.inf)),
                            np.array([np.nan, np.nan, np.inf, -np.inf, -7, 9], dtype)])
        rng.shuffle(x)

        def check(r, x=x, lo=lo, hi=hi, nbins=nbins, name=f"histogram_even {type_name}: outside values and NaN tallied"):
            with np.errstate(invalid="ignore"):
                counts = np.histogram(x, nbins, (lo, hi))[0]
                below, above, nan = int((x < lo).sum()), int((x > hi).sum()), int(np.isnan(x).sum())
            c.expect(name, r["counts"] == counts.tolist(), "counts differ from np.histogram's")
            c.expect(name, (r["below"], r["above"], r["nan"]) == (below, above, nan),
                     f"below/above/nan {r['below']}/{r['above']}/{r['nan']}, expected {below}/{above}/{nan}")
            c.expect(name + " (NumPy drops them)", counts.sum() + below + above + nan == len(x))

        c.case({"name": f"hist {type_name} range", "call": "histogram_even", "type": type_name, "values": bits(x, dtype),
                "nbins": nbins, "range": bits([lo, hi], F64)}, check)

        # lo == hi: NumPy widens to [lo - 0.5, hi + 0.5].
        y = np.array([2.4, 2.5, 2.9, 3.0, 3.2, 3.5, 3.6, 3.0], dtype)

        def check_equal(r, y=y, dtype=dtype, name=f"histogram_even {type_name}: lo == hi widened"):
            counts, e = np.histogram(y, 4, (3.0, 3.0))
            c.expect(name, r["counts"] == counts.tolist(), f"{r['counts']} vs np.histogram's {counts.tolist()}")
            got = (unbits(r["lo"], F64), unbits(r["hi"], F64))
            c.expect(name, got == (float(e[0]), float(e[-1])), f"lo, hi = {got}, NumPy's edges {e[0]}, {e[-1]}")

        c.case({"name": f"hist {type_name} lo==hi", "call": "histogram_even", "type": type_name, "values": bits(y, dtype),
                "nbins": 4, "range": bits([3.0, 3.0], F64)}, check_equal)

        # lo > hi and non-finite ranges: ValueError in NumPy, std::invalid_argument here.
        for bad, quoted in (((2.0, 1.0), ("2", "1")), ((0.0, np.inf), ("hi is inf",)), ((np.nan, 1.0), ("lo is nan",))):
            def check_bad(r, bad=bad, quoted=quoted, name=f"histogram_even {type_name}: range {bad} refused"):
                try:
                    np.histogram(y, 4, bad)
                    c.expect(name, False, "NumPy accepted it")
                except ValueError:
                    pass
                c.expect(name, r.get("error") == "invalid_argument", f"result {r}")
                c.expect(name, all(q in r.get("what", "") for q in quoted), f"message {r.get('what')!r} does not name {quoted}")

            c.case({"name": f"hist {type_name} bad {bad}", "call": "histogram_even", "type": type_name, "values": bits(y, dtype),
                    "nbins": 4, "range": bits(bad, F64)}, check_bad)

        # No range: np.histogram's, from the data. float32 data get float32 edge arithmetic in
        # NumPy 2 (NEP 50) and float64 arithmetic in NumPy 1: the library follows NumPy 2.
        if dtype is F64 or int(np.__version__.split(".")[0]) >= 2:
            z = np.concatenate([rng.uniform(-1e3, 7e3, 4000).astype(dtype), np.array([-1e3, 7e3], dtype)])
            zedges = np.histogram(z, 53)[1]
            z = np.concatenate([z, zedges.astype(dtype)])

            def check_auto(r, z=z, name=f"histogram_even {type_name}: no range, NumPy's edges"):
                counts, e = np.histogram(z, 53)
                c.expect(name, r["counts"] == counts.tolist(), "counts differ from np.histogram's")
                c.expect(name, (unbits(r["lo"], F64), unbits(r["hi"], F64)) == (float(e[0]), float(e[-1])), "range differs")

            c.case({"name": f"hist {type_name} auto", "call": "histogram_even", "type": type_name, "values": bits(z, dtype),
                    "nbins": 53, "range": None}, check_auto)
        else:
            print(f"skipped: histogram_even f32 without a range needs NumPy 2's float32 edges (NumPy {np.__version__} here)")

    # Row 4: weights. Exact where float sums are exact (multiples of 1/8, small), then each
    # accumulation within its stated bound of the exact sum.
    x = rng.uniform(0, 1, 20000).astype(F32)
    w_exact = (rng.integers(-64, 64, x.size) / 8).astype(F32)
    w_rand = rng.normal(0, 1, x.size).astype(F32)
    for acc in ("float_atomic", "compensated_float2", "double_atomic"):
        def check_w(r, acc=acc, name=f"histogram_even weights, {acc}"):
            ref_exact = np.histogram(x, 10, (0.0, 1.0), weights=w_exact.astype(F64))[0]
            got = unbits(r["sums"][0], F64)
            c.expect(name + " (exact sums)", np.array_equal(got, ref_exact), f"{got} vs {ref_exact}")
            idx = np.minimum((x.astype(F64) * 10).astype(int), 9)
            got = unbits(r["sums"][1], F64)
            u = 2.0 ** -24
            for b in range(10):
                wb = w_rand[idx == b].astype(F64)
                exact, s, nb = math.fsum(wb), float(np.abs(wb).sum()), wb.size
                bound = {"float_atomic": (nb - 1) * u * s * 1.01,  # first order: 1% for the rest
                         "compensated_float2": 3 * u * u / (1 - 4 * u) * nb * s + 2.0 ** -53 * abs(exact),
                         "double_atomic": (nb - 1) * 2.0 ** -53 * s * 1.01}[acc]
                c.expect(name + " (stated bound)", abs(got[b] - exact) <= bound,
                         f"bin {b}: error {abs(got[b] - exact):.3g} > bound {bound:.3g}")

        c.case({"name": f"hist weights {acc}", "call": "histogram_even", "type": "f32", "values": bits(x, F32), "nbins": 10,
                "range": bits([0.0, 1.0], F64), "weights": [bits(w_exact, F32), bits(w_rand, F32)], "accumulation": acc}, check_w)

    # Row 1, 2-D: NumPy's histogram2d counts; outside points tallied per axis.
    for dtype, type_name in ((F32, "f32"), (F64, "f64")):
        n = 6000
        px = rng.normal(0, 1, n).astype(dtype)
        py = rng.normal(1, 2, n).astype(dtype)
        px[:40] = np.nan
        py[20:60] = np.inf
        ex = np.histogram2d(np.zeros(0), np.zeros(0), [17, 9], [[-2, 2], [-3, 5]])[1]
        px[60:60 + ex.size] = ex.astype(dtype)  # points on the x edges

        def check2d(r, px=px, py=py, name=f"histogram2d_even {type_name}: NumPy's counts, outside tallied per axis"):
            with np.errstate(invalid="ignore"):
                counts = np.histogram2d(px, py, [17, 9], [[-2, 2], [-3, 5]])[0].astype(np.int64)
                tx = {"below": int((px < -2).sum()), "above": int((px > 2).sum()), "nan": int(np.isnan(px).sum())}
                ty = {"below": int((py < -3).sum()), "above": int((py > 5).sum()), "nan": int(np.isnan(py).sum())}
                inside = (px >= -2) & (px <= 2) & (py >= -3) & (py <= 5)
            c.expect(name, r["counts"] == counts.ravel().tolist(), "counts differ from np.histogram2d's")
            c.expect(name, (r["x"], r["y"]) == (tx, ty), f"tallies {r['x']} {r['y']}, expected {tx} {ty}")
            c.expect(name, r["outside"] == int((~inside).sum()) == n - int(counts.sum()), f"outside {r['outside']}")

        c.case({"name": f"hist2d {type_name}", "call": "histogram2d_even", "type": type_name, "x": bits(px, dtype),
                "y": bits(py, dtype), "nx": 17, "ny": 9, "xrange": bits([-2, 2], F64), "yrange": bits([-3, 5], F64)}, check2d)


# The intro's "NumPy 2's edge rules exactly" for float32 data over a range float32 cannot hold:
# the range travels as float64, as NumPy takes it; np.histogram makes its edges from it in double
# and rounds them to float32, np.histogram2d compares the data with the double edges.
def double_range_cases(c, rng):
    def around(e):
        e = np.asarray(e, F32)
        return np.concatenate([e, np.nextafter(e, F32(np.inf)), np.nextafter(e, F32(-np.inf))])

    def data(lo, hi, nbins, n):
        wide = np.linspace(lo, hi, nbins + 1)
        down = wide.astype(F32)
        down = np.where(down > wide, np.nextafter(down, F32(-np.inf)), down)
        x = np.concatenate([rng.uniform(lo - (hi - lo) / 10, hi + (hi - lo) / 10, n).astype(F32), around(wide), around(down),
                            np.array([np.nan, np.inf, -np.inf], F32)])
        rng.shuffle(x)
        return x

    ranges = [(0.0, 0.7, 100), (-1e-3, 1e7, 100), (0.1, 0.3, 7), (0.7, 0.7, 4)]
    while len(ranges) < 24:
        scale = 10.0 ** rng.uniform(-4, 7)
        lo = rng.uniform(-1, 1) * scale
        hi, nbins = lo + rng.uniform(0.05, 3) * scale, int(rng.integers(1, 400))
        # float() first: NumPy 2 would compare F32(lo) != lo in float32.
        if float(F32(lo)) != lo and float(F32(hi)) != hi and (hi - lo) / nbins >= 2.0 ** -10 * max(abs(lo), abs(hi)):
            ranges.append((lo, hi, nbins))
    for lo, hi, nbins in ranges:
        x = data(lo, hi, nbins, 2000)

        def check(r, x=x, lo=lo, hi=hi, nbins=nbins, name=f"histogram_even f32 over ({lo!r}, {hi!r}), {nbins} bins: NumPy's counts"):
            with np.errstate(invalid="ignore"):
                counts, e = np.histogram(x, nbins, (lo, hi))
                below, above = int((x < e[0]).sum()), int((x > e[-1]).sum())  # NumPy's keep test, in float32
            c.expect(name, r["counts"] == counts.tolist(), "counts differ from np.histogram's")
            c.expect(name, (r["below"], r["above"], r["nan"]) == (below, above, 1), f"below/above/nan {r['below']}/{r['above']}/{r['nan']}")
            want = (lo, hi) if lo != hi else (lo - 0.5, hi + 0.5)
            c.expect(name, (unbits(r["lo"], F64), unbits(r["hi"], F64)) == want, "the range used is not the one given")

        c.case({"name": f"hist f32 double range {lo!r} {hi!r}", "call": "histogram_even", "type": "f32", "values": bits(x, F32),
                "nbins": nbins, "range": bits([lo, hi], F64)}, check)

    # 2-D: NumPy 1 compares a point with the last edge in float32 (value-based casting), moving a
    # float32 point equal to float32(hi) but not to hi one bin; NumPy 2 compares in double, as the
    # library does: such points are left out under NumPy 1.
    numpy1 = int(np.__version__.split(".")[0]) < 2
    for (xlo, xhi, nx), (ylo, yhi, ny) in zip(ranges[:12], ranges[12:]):
        nx, ny = nx % 40 + 1, ny % 30 + 1
        px, py = data(xlo, xhi, nx, 1500), data(ylo, yhi, ny, 1500)
        m = min(px.size, py.size)
        px, py = px[:m], py[:m]
        if numpy1:
            keep = ~(((px == F32(xhi)) & (float(F32(xhi)) != xhi)) | ((py == F32(yhi)) & (float(F32(yhi)) != yhi)))
            px, py = px[keep], py[keep]

        def check2d(r, px=px, py=py, rr=[[xlo, xhi], [ylo, yhi]], bins=(nx, ny),
                    name=f"histogram2d_even f32 over [[{xlo!r}, {xhi!r}], [{ylo!r}, {yhi!r}]]: NumPy's counts"):
            with np.errstate(invalid="ignore"):
                counts = np.histogram2d(px, py, bins, rr)[0].astype(np.int64)
            c.expect(name, r["counts"] == counts.ravel().tolist(), "counts differ from np.histogram2d's")
            c.expect(name, r["outside"] == px.size - int(counts.sum()), f"outside {r['outside']}")

        c.case({"name": f"hist2d f32 double range {xlo!r} {ylo!r}", "call": "histogram2d_even", "type": "f32", "x": bits(px, F32),
                "y": bits(py, F32), "nx": nx, "ny": ny, "xrange": bits([xlo, xhi], F64), "yrange": bits([ylo, yhi], F64)}, check2d)


# np.bincount: key and byte histograms.
def bincount_cases(c, rng):
    keys = rng.integers(0, 1200, 30000).astype(np.uint32)
    keys[:7] = 0xFFFFFFFF

    def check_keys(r, name="histogram_keys: np.bincount, keys >= nbins counted apart"):
        c.expect(name, r["counts"] == np.bincount(keys[keys < 1000], minlength=1000).tolist(), "counts differ")
        c.expect(name, r["out_of_range"] == int((keys >= 1000).sum()), f"out_of_range {r['out_of_range']}")

    c.case({"name": "keys", "call": "histogram_keys", "keys": keys.tolist(), "nbins": 1000}, check_keys)

    # No bins: np.bincount(keys, minlength=0)[:0] is empty; every key is out of range.
    def check_no_bins(r, name="histogram_keys: nbins 0, every key out of range"):
        c.expect(name, r["counts"] == [], f"counts {r['counts']}")
        c.expect(name, r["out_of_range"] == int(keys.size), f"out_of_range {r['out_of_range']}")

    c.case({"name": "keys no bins", "call": "histogram_keys", "keys": keys.tolist(), "nbins": 0}, check_no_bins)
    b = rng.integers(0, 256, 70000).astype(np.uint8)
    c.case({"name": "bytes", "call": "histogram", "bytes": b.tolist()},
           lambda r: c.expect("histogram: np.bincount(bytes, minlength=256)", r["counts"] == np.bincount(b, minlength=256).tolist()))


def scatter_request(name, type_name, dtype, op, out, idx, values, **extra):
    enc = (lambda a: bits(a, dtype)) if type_name in ("f32", "f64", "f16") else (lambda a: np.asarray(a).tolist())
    req = {"name": name, "call": "scatter", "type": type_name, "op": op,
           "out": enc(out), "values": enc(values)}
    if idx is not None:
        req["indices"] = np.asarray(idx, np.uint32).tolist()
    req.update(extra)
    return req


def out_of(r, dtype):
    return unbits(r["out"], dtype) if dtype in (F16, F32, F64) else np.asarray(r["out"], dtype)


# scatter_reduce against np.<ufunc>.at.
def scatter_cases(c, rng):
    bins, n = 300, 20000
    idx = rng.integers(0, bins, n)
    # The ops that NumPy models exactly: sums of multiples of 1/4 (exact in float), integers.
    for type_name, dtype in (("f32", F32), ("f64", F64), ("i32", np.int32)):
        vals = (rng.integers(-40, 40, n) / (4 if dtype != np.int32 else 1)).astype(dtype)
        out0 = (rng.integers(-5, 5, bins)).astype(dtype)
        for op, ufunc in (("sum", np.add), ("min", np.minimum), ("max", np.maximum)):
            def check(r, op=op, ufunc=ufunc, vals=vals, out0=out0, dtype=dtype, name=f"scatter_reduce {type_name} {op}: np.{ufunc.__name__}.at"):
                ref = out0.copy()
                ufunc.at(ref, idx, vals)
                c.expect(name, same_bits(out_of(r, dtype), ref), "differs")

            c.case(scatter_request(f"{type_name} {op}", type_name, dtype, op, out0, idx, vals), check)
    # Integer mean rounds toward minus infinity (PyTorch's rule): floor(sum / count), out included.
    mvals = rng.integers(-1000, 1000, n).astype(np.int32)
    mout = rng.integers(-50, 50, bins).astype(np.int32)

    def check_mean(r, name="scatter_reduce i32 mean: floor division, as PyTorch"):
        total, cnt = mout.astype(np.int64), np.ones(bins, np.int64)
        np.add.at(total, idx, mvals)
        np.add.at(cnt, idx, 1)
        c.expect(name, np.array_equal(out_of(r, np.int32), total // cnt), "differs")

    c.case(scatter_request("i32 mean", "i32", np.int32, "mean", mout, idx, mvals), check_mean)

    # Row 5: out-of-range indices are skipped and counted; NumPy raises for them, wraps -1.
    bad_idx = idx.astype(np.int64).copy()
    bad_idx[::997] = bins + 3
    bad_idx[5] = 0xFFFFFFFF  # -1 as a cl_uint
    ovals = (rng.integers(-40, 40, n) / 4).astype(F32)
    oout = np.zeros(bins, F32)

    def check_oor(r, name="scatter_reduce out-of-range index: skipped and counted"):
        ok = bad_idx < bins
        ref = oout.copy()
        np.add.at(ref, bad_idx[ok], ovals[ok])
        c.expect(name, same_bits(out_of(r, F32), ref), "in-range sums differ from np.add.at's")
        c.expect(name, r.get("out_of_range") == int((~ok).sum()), f"out_of_range {r.get('out_of_range')}")
        try:
            np.add.at(oout.copy(), bad_idx, ovals)
            c.expect(name + " (np.add.at raises)", False, "NumPy accepted an index >= bins")
        except IndexError:
            pass
        wrapped = np.zeros(3, F32)
        np.add.at(wrapped, [-1], [1.0])
        c.expect(name + " (NumPy wraps -1)", wrapped.tolist() == [0, 0, 1])

    c.case(scatter_request("oor count", "f32", F32, "sum", oout, bad_idx, ovals), check_oor)

    def check_refuse(r, name="scatter_reduce OutOfRange::refuse: raises, out untouched"):
        c.expect(name, r.get("error") == "invalid_argument", f"result {r.get('error')}")
        c.expect(name, same_bits(out_of(r, F32), oout), "out was touched")

    c.case(scatter_request("oor refuse", "f32", F32, "sum", oout, bad_idx, ovals, refuse=True), check_refuse)

    # Row 6: amax/amin with NaN: NaN propagates by default (np.maximum.at / np.minimum.at), written
    # as the positive quiet NaN; NanRule::missing gives np.fmax.at / np.fmin.at; -0 below +0.
    small = 40
    nidx = rng.integers(0, small - 1, 2000)  # bin 39 never reached
    nvals = rng.normal(0, 1, nidx.size).astype(F32)
    nvals[::7] = np.nan
    only_nan = nidx == 3
    nvals[only_nan] = np.nan  # bin 3 receives NaN alone
    zeros = nidx == 5
    nvals[zeros] = np.where(np.arange(zeros.sum()) % 2, F32(0.0), F32(-0.0))  # bin 5: -0 and +0 only
    nout = np.full(small, 0.0, F32)
    nout[5] = np.nan  # out's own NaN, which include_self takes part
    nout[7] = np.nan
    nout.view(np.uint32)[small - 1] = 0x7fc00123  # a bin no index reaches keeps its value, a NaN's payload included

    def signed_zeros(ref, op, missing):
        # -0 < +0: a bin whose result is a zero holds +0 for max and -0 for min when both took part.
        for b in range(small):
            if ref[b] == 0:
                members = np.concatenate([nvals[nidx == b], nout[b:b + 1]])
                zs = members[members == 0]
                if zs.size and np.signbit(zs).any() and (~np.signbit(zs)).any():
                    ref[b] = F32(0.0) if op == "max" else F32(-0.0)
        return ref

    for op, fmodel, propagating in (("max", np.fmax, np.maximum), ("min", np.fmin, np.minimum)):
        def check_nan(r, op=op, propagating=propagating, name=f"scatter_reduce {op} with NaN: np.{propagating.__name__}.at, -0 < +0"):
            ref = nout.copy()
            propagating.at(ref, nidx, nvals)
            ref = signed_zeros(ref, op, False)
            reached = np.isin(np.arange(small), nidx)
            ref[np.isnan(ref) & reached] = np.float32(np.nan)  # np.nan: 0x7fc00000, the NaN the library writes
            got = out_of(r, F32)
            c.expect(name, same_bits(got, ref), f"bins {np.nonzero(got.view(np.uint32) != ref.view(np.uint32))[0].tolist()} differ")
            c.expect(name + " (bin 3: NaN alone)", bool(np.isnan(got[3])))

        def check_missing(r, op=op, fmodel=fmodel, name=f"scatter_reduce {op} with NaN, NanRule::missing: np.f{op}.at, -0 < +0"):
            ref = nout.copy()
            fmodel.at(ref, nidx, nvals)
            ref = signed_zeros(ref, op, True)
            got = out_of(r, F32)
            c.expect(name, same_bits(got, ref), f"bins {np.nonzero(got.view(np.uint32) != ref.view(np.uint32))[0].tolist()} differ")

        c.case(scatter_request(f"nan {op}", "f32", F32, op, nout, nidx, nvals), check_nan)
        c.case(scatter_request(f"nan {op} missing", "f32", F32, op, nout, nidx, nvals, nan="missing"), check_missing)

    # Row 7: half values give a half result: accumulated in float, rounded once to float16 (NumPy
    # keeps float16 and rounds at every step).
    hidx = rng.integers(0, 64, 5000)
    hvals = (rng.integers(-512, 512, hidx.size) / 64).astype(F16)
    hout = (rng.integers(-8, 8, 64) / 4).astype(F16)

    def check_half(r, name="scatter_reduce half: a float16 result, the float sum rounded once"):
        ref = hout.astype(F32)
        np.add.at(ref, hidx, hvals.astype(F32))  # exact here: multiples of 1/64 far below 2^24
        c.expect(name, same_bits(out_of(r, F16), ref.astype(F16)), "differs from np.add.at in float32 rounded to float16")
        h = hout.copy()
        np.add.at(h, hidx, hvals)
        c.expect(name + " (NumPy: float16)", h.dtype == F16)

    c.case(scatter_request("half sum", "f16", F16, "sum", hout, hidx, hvals), check_half)

    # Row 8: empty outputs give empty results, as NumPy's.
    def empty(name, out_of_range=0):
        return lambda r: c.expect(name, "error" not in r and r["out"] == [] and r["out_of_range"] == out_of_range, f"result {r}")

    np.add.at(np.zeros(0, F32), np.zeros(0, np.intp), np.zeros(0, F32))
    c.expect("np.add.at into an empty output", True)
    c.case(scatter_request("empty bins", "f32", F32, "sum", np.zeros(0, F32), [], np.zeros(0, F32)),
           empty("scatter_reduce bins == 0: an empty result (NumPy: the same)"))
    c.expect("np.add.at with rows of width 0", np.add.at(np.zeros((3, 0), F32), [0, 2], np.zeros((2, 0), F32)) is None)
    c.case(scatter_request("width 0", "f32", F32, "sum", np.zeros(0, F32), [0, 2], np.zeros(0, F32), width=0),
           empty("scatter_reduce width 0: nothing to do (NumPy: empty rows)"))
    c.expect("np.bincount minlength 0", np.bincount(np.zeros(0, np.intp), minlength=0).size == 0)
    c.case({"name": "keys nbins 0", "call": "histogram_keys", "keys": [], "nbins": 0},
           lambda r: c.expect("histogram_keys nbins 0 of no keys: empty, as np.bincount(minlength=0)",
                              r.get("counts") == np.bincount(np.zeros(0, np.intp), minlength=0).tolist() and r.get("out_of_range") == 0,
                              f"result {r}"))
    c.case(scatter_request("empty indptr", "f32", F32, "sum", np.zeros(0, F32), None, np.zeros(0, F32), offsets=[]),
           empty("segment_reduce with an empty indptr: an empty result (torch_scatter: the same)"))

    # Row 9: an empty CSR segment with include_self = false gets 0, as torch_scatter's segment_csr.
    offsets = [0, 3, 3, 7, 7, 10]
    svals = np.arange(10, dtype=F32) + 1
    sout = np.array([100, 200, 300, 400, 500], F32)

    def check_seg(r, name="segment_reduce: an empty segment gets 0 (include_self = false, torch_scatter)"):
        ref = np.zeros(5, F32)
        for s in range(5):
            ref[s] = svals[offsets[s]:offsets[s + 1]].sum()
        c.expect(name, same_bits(out_of(r, F32), ref), f"{out_of(r, F32)} vs {ref}")

    c.case(scatter_request("segments", "f32", F32, "sum", sout, None, svals, offsets=offsets, include_self=False), check_seg)

    # Row 10: float sums: any order (within the float bound of the exact sum), or deterministic:
    # the same bits run to run, the exact sum rounded about once.
    fidx = rng.integers(0, 16, 50000)
    fvals = rng.normal(0, 1, fidx.size).astype(F32)
    fout = np.zeros(16, F32)
    exact = np.array([math.fsum(fvals[fidx == b].astype(F64)) for b in range(16)])
    S = np.array([np.abs(fvals[fidx == b].astype(F64)).sum() for b in range(16)])
    nb = np.bincount(fidx, minlength=16)

    def check_fast(r, name="scatter_reduce float sum, any order: within (n_b - 1) 2^-24 S"):
        err = np.abs(out_of(r, F32).astype(F64) - exact)
        c.expect(name, bool(np.all(err <= (nb - 1) * 2.0 ** -24 * S * 1.01)), f"errors {err}")

    c.case(scatter_request("float sum", "f32", F32, "sum", fout, fidx, fvals), check_fast)
    det = []

    def check_det(r, name="scatter_reduce float sum, deterministic: the exact sum rounded about once, same bits"):
        got = out_of(r, F32)
        det.append(got)
        err = np.abs(got.astype(F64) - exact)
        c.expect(name, bool(np.all(err <= np.spacing(np.abs(exact).astype(F32)).astype(F64))), f"errors {err}")
        if len(det) == 2:
            c.expect(name + " (run to run)", same_bits(det[0], det[1]))

    for k in range(2):
        c.case(scatter_request(f"float sum det {k}", "f32", F32, "sum", fout, fidx, fvals, deterministic=True), check_det)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--cases", required=True, help="the numpy_cases program")
    args = ap.parse_args()
    rng = np.random.default_rng(20261130)
    c = Checker()
    histogram_cases(c, rng)
    double_range_cases(c, np.random.default_rng(20261131))  # its own draws: the other cases keep theirs
    bincount_cases(c, rng)
    scatter_cases(c, rng)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "cases.json")
        with open(path, "w") as f:
            json.dump({"cases": c.cases}, f)
        p = subprocess.run([args.cases, path], stdout=subprocess.PIPE, text=True, timeout=300)
    if p.returncode != 0:
        print(f"numpy_cases exited with {p.returncode}")
        return 1
    answer = json.loads(p.stdout)
    print(f"NumPy {np.__version__}; device: {answer['device']}")
    for (name, check), result in zip(c.checks, answer["results"]):
        before = c.failures
        if "error" in result and result["error"] != "invalid_argument":
            c.expect(name, False, f"error {result}")
        else:
            try:
                check(result)
            except Exception as e:  # a malformed result fails its case, not the run
                c.expect(name, False, f"{type(e).__name__}: {e}")
        print(f"{'ok  ' if c.failures == before else 'FAIL'} {name}")
    print(f"{len(c.checks)} cases, {c.failures} failed checks")
    return 1 if c.failures else 0


if __name__ == "__main__":
    sys.exit(main())
