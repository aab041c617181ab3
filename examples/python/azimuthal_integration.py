"""Azimuthal integration as pyFAI does it: the pixels of a 2-D detector binned by their distance
from the beam centre, each bin summing the signal, the normalisation (solid angle times
polarisation) and the pixel count in one pass, in compensated float pairs (the float2 Kahan sum
pyFAI's ocl_histo.cl writes by hand); I(r) = signal / normalisation. Checked against NumPy's
float64 histograms of the same pixels.

    python3 examples/python/azimuthal_integration.py      (PYTHONPATH=<build>/python, or installed)
"""

import sys

import numpy as np
import pyopencl.array as cla

import clatomics


def detector(shape=(1024, 1024), centre=(498.3, 530.7), pixel=75e-6, distance=0.1):
    """A synthetic powder pattern on a flat detector: radius, signal and normalisation per pixel."""
    y, x = np.indices(shape, dtype=np.float64)
    dy, dx = (y - centre[0]) * pixel, (x - centre[1]) * pixel
    r = np.hypot(dx, dy)
    two_theta = np.arctan2(r, distance)
    solid_angle = np.cos(two_theta) ** 3  # relative to the pixel at the centre
    polarisation = 0.5 * (1 + np.cos(two_theta) ** 2)
    rings = sum(a * np.exp(-0.5 * ((two_theta - t) / 0.002) ** 2) for a, t in ((900, 0.12), (400, 0.21), (250, 0.33)))
    rng = np.random.default_rng(7)
    signal = rng.poisson((rings + 20) * solid_angle * polarisation).astype(np.float32)
    return (r * 1e3).astype(np.float32).ravel(), signal.ravel(), (solid_angle * polarisation).astype(np.float32).ravel()


def main():
    queue = clatomics.default_queue()
    r_mm, signal, norm = detector()
    bins, rng_mm = 500, (0.0, 60.0)
    # The pixels stay on the device, as a pyFAI integrator keeps them between frames.
    r_dev = cla.to_device(queue, r_mm)
    channels = [cla.to_device(queue, w) for w in (signal, norm, np.ones_like(signal))]
    (sig, nrm, count), edges = clatomics.histogram(r_dev, bins, rng_mm, weights=channels, accumulation="compensated")
    with np.errstate(invalid="ignore", divide="ignore"):
        intensity = sig / nrm

    want = [np.histogram(r_mm, bins, rng_mm, weights=w.astype(np.float64))[0] for w in (signal, norm)]
    want_count, want_edges = np.histogram(r_mm, bins, rng_mm)
    with np.errstate(invalid="ignore", divide="ignore"):
        want_intensity = want[0] / want[1]

    ok = np.array_equal(edges, want_edges) and np.array_equal(count, want_count)
    ok &= np.array_equal(sig, want[0])  # integer counts of photons: exact in the pairs
    err_norm = np.max(np.abs(nrm - want[1]) / np.maximum(np.abs(want[1]), 1e-30))
    filled = want[1] > 0
    err_i = np.max(np.abs(intensity[filled] - want_intensity[filled]) / np.abs(want_intensity[filled]))
    ok &= err_norm < 1e-9 and err_i < 1e-9  # the pairs' bound: ~3 * 2^-48 * pixels a bin
    # The same sums as plain float atomics: what a float accumulator loses.
    (plain_norm,), _ = clatomics.histogram(r_dev, bins, rng_mm, weights=[channels[1]], accumulation="float")
    err_plain = np.max(np.abs(plain_norm - want[1]) / np.maximum(np.abs(want[1]), 1e-30))
    print(f"{r_mm.size} pixels into {bins} bins on {queue.device.name.strip()}")
    print(f"normalisation: compensated relative error {err_norm:.2e}, plain float {err_plain:.2e}; I(r) {err_i:.2e}")
    peak = np.nanargmax(intensity)
    print(f"strongest ring at r = {0.5 * (edges[peak] + edges[peak + 1]):.2f} mm")
    print("azimuthal_integration: " + ("PASS" if ok else "FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
