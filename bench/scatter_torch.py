#!/usr/bin/env python3
"""The yardstick of `clatomics bench --suite scatter` on CUDA: torch index_add_ and cupyx.scatter_add.

Usage: scatter_torch.py [--size BYTES] [--quick] [--repeats N] [--warmup N] [--device cuda:0]

The cases of bench/bench_scatter.cpp, with the same sizes (--size: the values' bytes, as
`clatomics bench --size`; default 256M = 64M float values; rows: --size / 64 elements of width 32
and 128 into 100,000 bins) and the same data: the same counter-based splitmix64 streams and the
same rules (uniform indices from the top 32 bits, Zipf s = 1.1 over 2^24 ranks by inverse CDF
taken mod M, the uniform indices sorted, one bin at M / 2; values k / 256 for k in [-256, 256)).
The Zipf CDF is summed here by numpy, so a few indices may differ from the C++ ones in the last
place of a rank boundary: the same distribution, not necessarily the same bits.

Timed, each on the GPU with CUDA events, after --warmup untimed calls, median of --repeats
(at least 10): out.index_add_(0, idx, values) (int32 indices; rows: values of shape (E, D) into
out of shape (M, D)), the same under torch.use_deterministic_algorithms(True) (which PyTorch runs
as a sort-based index_put_ with accumulate=True), and cupyx.scatter_add(out, idx, values).
GB/s counts the same bytes as the C++ suite: 4 per index plus 4 per value.

Prints one JSON object per case on stdout (progress on stderr):
  {"suite": "scatter", "distribution", "bins", "width", "elements", "bytes",
   "gbps": {"torch index_add_": ..., "torch index_add_ deterministic": ..., "cupyx scatter_add": ...},
   "ms": {... the medians}, "device", "torch", "cupy"}
The gbps keys are the yardstick names that CLATOMICS_BENCH_SCATTER_TORCH=<this output> adds to
the suite's rows (bench/scatter_compare.sh does both). CLATOMICS_BENCH_SCATTER narrows the cases
as it does for the suite.

Without numpy, or with neither torch nor cupy able to reach a CUDA device: a message on stderr,
nothing on stdout, exit 0.
"""
import argparse
import json
import os
import re
import sys
import time

GOLDEN = 0x9E3779B97F4A7C15
INDEX_SEED, ZIPF_SEED, VALUE_SEED = 11, 12, 13
ZIPF_RANKS, ZIPF_S = 1 << 24, 1.1
TORCH, TORCH_DET, CUPY = "torch index_add_", "torch index_add_ deterministic", "cupyx scatter_add"


def log(*args):
    print("[scatter_torch]", *args, file=sys.stderr, flush=True)


def parse_size(text):
    """4096, 64K, 256M, 1G (powers of 1024, as the clatomics command reads them)."""
    m = re.fullmatch(r"\s*(\d+)\s*([kKmMgGtT]?)(i?[bB])?\s*", text)
    if not m or int(m.group(1)) < 1:
        raise argparse.ArgumentTypeError(f"'{text}' is not a size in bytes (e.g. 4096, 64K, 256M, 1G)")
    return int(m.group(1)) * 1024 ** " KMGT".index((m.group(2) or " ").upper())


def draws(np, seed, first, count):
    """splitmix64 of the counters first+1 .. first+count of stream `seed` (uint64, wrapping)."""
    i = np.arange(first + 1, first + count + 1, dtype=np.uint64)
    with np.errstate(over="ignore"):
        z = np.uint64(seed) + i * np.uint64(GOLDEN)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def chunked(np, n, dtype, fill, chunk=1 << 23):
    """An array of n made by fill(first, count) in chunks (bounded temporaries)."""
    out = np.empty(n, dtype=dtype)
    for first in range(0, n, chunk):
        count = min(chunk, n - first)
        out[first:first + count] = fill(first, count)
    return out


_zipf_cdf = None


def zipf_cdf(np):
    global _zipf_cdf
    if _zipf_cdf is None:
        cdf = np.cumsum(np.arange(1, ZIPF_RANKS + 1, dtype=np.float64) ** -ZIPF_S)
        cdf /= cdf[-1]
        cdf[-1] = 1.0
        _zipf_cdf = cdf
    return _zipf_cdf


def make_indices(np, tag, bins, n):
    m = np.uint64(bins)
    if tag == "onebin":
        return np.full(n, bins // 2, dtype=np.uint32)
    if tag == "zipf":
        cdf = zipf_cdf(np)

        def fill(first, count):
            u = (draws(np, ZIPF_SEED, first, count) >> np.uint64(11)).astype(np.float64) * 2.0 ** -53
            return (np.searchsorted(cdf, u, side="right").astype(np.uint64) % m).astype(np.uint32)
        return chunked(np, n, np.uint32, fill)
    idx = chunked(np, n, np.uint32, lambda first, count: (((draws(np, INDEX_SEED, first, count) >> np.uint64(32)) * m)
                                                          >> np.uint64(32)).astype(np.uint32))
    if tag == "sorted":
        idx.sort()
    return idx


def make_values(np, n):
    return chunked(np, n, np.float32, lambda first, count: ((draws(np, VALUE_SEED, first, count) >> np.uint64(55)).astype(np.int32)
                                                           - 256).astype(np.float32) / np.float32(256))


def cases(value_bytes, quick):
    """(distribution, tag, bins, width, elements) as bench_scatter.cpp's all_cases() (without
    the device's allocation limit, which only a small device reaches)."""
    fit = lambda e: max(1024, e // 1024 * 1024)
    elements, row_elements = fit(value_bytes // 4), fit(value_bytes // 64)
    out = []
    for m in (1, 256, 65536, 16777216):
        if quick and m > 65536:
            continue
        if m == 1:
            out.append(("one bin", "onebin", m, 1, elements))
        elif quick and m == 65536:
            out.append(("uniform", "uniform", m, 1, elements))
        else:
            out += [("uniform", "uniform", m, 1, elements), ("zipf 1.1", "zipf", m, 1, elements),
                    ("sorted uniform", "sorted", m, 1, elements), ("one bin", "onebin", m, 1, elements)]
    for d in (32, 128):
        if not quick or d == 32:
            out.append(("uniform", "rows", 100000, d, row_elements))
    only = [x for x in os.environ.get("CLATOMICS_BENCH_SCATTER", "").split(",") if x]
    tags = {x for x in only if not x[0].isdigit()}
    bins = {int(x) for x in only if x[0].isdigit()}
    return [c for c in out if (not tags or c[1] in tags) and (not bins or c[2] in bins)]


def host_sums(np, idx, vals, bins):
    """The exact sums per bin (and column) and the sums of magnitudes, in float64."""
    if vals.ndim == 1:
        return (np.bincount(idx, weights=vals, minlength=bins), np.bincount(idx, weights=np.abs(vals), minlength=bins))
    exact, magnitude = np.empty((bins, vals.shape[1])), np.empty((bins, vals.shape[1]))
    for d in range(vals.shape[1]):
        column = np.ascontiguousarray(vals[:, d])
        exact[:, d] = np.bincount(idx, weights=column, minlength=bins)
        magnitude[:, d] = np.bincount(idx, weights=np.abs(column), minlength=bins)
    return exact, magnitude


def check(np, got, exact, magnitude):
    """As bench_scatter.cpp checks: the dyadic values sum exactly but for partial sums past 2^16."""
    bad = np.abs(got.astype(np.float64) - exact) > magnitude * 2.0 ** -20
    if bad.any():
        at = np.argwhere(bad)[0]
        raise RuntimeError(f"result {got[tuple(at)]} at {tuple(at)} differs from the host's sum {exact[tuple(at)]}")


def median_ms(fn, warmup, repeats, event, synchronize):
    """Median of CUDA-event times of fn() after warmup untimed calls. Slow calls (PyTorch's
    deterministic index_add_ sorts: seconds at one bin) are timed fewer times: a first call
    over a second is the figure itself, one over 100 ms is followed by 3 timed calls."""
    def timed():
        start, end = event(), event()
        start.record()
        fn()
        end.record()
        end.synchronize()
        return elapsed(start, end)
    synchronize()
    first = timed()
    if first > 1000.0:
        return first
    if first > 100.0:
        repeats, warmup = 3, 0
    for _ in range(max(0, warmup - 1)):
        fn()
    synchronize()
    times = sorted(timed() for _ in range(repeats))
    return times[len(times) // 2]


def elapsed(start, end):
    """Milliseconds between two recorded events, torch's or cupy's."""
    if hasattr(start, "elapsed_time"):  # torch.cuda.Event
        return start.elapsed_time(end)
    import cupy
    return cupy.cuda.get_elapsed_time(start, end)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--size", type=parse_size, default=256 << 20, help="the values' bytes, as clatomics bench --size (default 256M)")
    parser.add_argument("--quick", action="store_true", help="1 MiB of values, 7 cases, as clatomics bench --quick")
    parser.add_argument("--repeats", type=int, default=20, help="timed calls per figure, at least 10 (default 20)")
    parser.add_argument("--warmup", type=int, default=3, help="untimed calls first (default 3)")
    parser.add_argument("--device", default="cuda:0", help="the CUDA device (default cuda:0)")
    args = parser.parse_args(argv[1:])
    repeats = max(10, args.repeats)
    value_bytes = min(args.size, 1 << 20) if args.quick else args.size
    if value_bytes < 4096:
        parser.error("--size must be at least 4096 bytes")

    try:
        import numpy as np
    except ImportError:
        log("skipped: numpy is not importable")
        return 0
    torch = cupy = None
    try:
        import torch as _torch
        if _torch.cuda.is_available():
            torch = _torch
        else:
            log("torch is importable but sees no CUDA device")
    except ImportError:
        log("torch is not importable")
    try:
        import cupy as _cupy
        import cupyx as _cupyx  # noqa: F401
        if _cupy.cuda.runtime.getDeviceCount() > 0:
            cupy = _cupy
    except Exception as e:  # ImportError, or CUDA errors from a machine without a GPU
        log(f"cupy is not usable ({type(e).__name__}: {e})")
    if torch is None and cupy is None:
        log("skipped: neither torch nor cupy can reach a CUDA device")
        return 0

    device_index = int(args.device.split(":")[1]) if ":" in args.device else 0
    if torch is not None:
        dev = torch.device(args.device)
        device_name = torch.cuda.get_device_name(dev)
    else:
        cupy.cuda.Device(device_index).use()
        device_name = cupy.cuda.runtime.getDeviceProperties(device_index)["name"].decode()
    if cupy is not None:
        cupy.cuda.Device(device_index).use()
    log(f"device: {device_name}; torch {torch.__version__ if torch else '-'}, cupy {cupy.__version__ if cupy else '-'}")

    values_host, values_n = None, 0
    for distribution, tag, bins, width, elements in cases(value_bytes, args.quick):
        log(f"{'rows of %d, ' % width if width > 1 else ''}{bins} bins, {distribution} ({elements} elements)")
        t0 = time.time()
        idx_host = make_indices(np, tag, bins, elements)
        if values_n != elements * width:  # the same values for every case of one width
            values_host = None
            values_host, values_n = make_values(np, elements * width), elements * width
        vals_host = values_host.reshape(elements, width) if width > 1 else values_host
        log(f"  data made in {time.time() - t0:.1f} s")
        nbytes = elements * 4 + elements * width * 4
        shape = (bins, width) if width > 1 else (bins,)
        exact, magnitude = host_sums(np, idx_host, vals_host, bins)
        gbps, ms = {}, {}

        if torch is not None:
            idx = torch.from_numpy(idx_host.astype(np.int32)).to(dev)
            vals = torch.from_numpy(vals_host).to(dev)
            out = torch.zeros(shape, dtype=torch.float32, device=dev)
            event = lambda: torch.cuda.Event(enable_timing=True)
            for name, deterministic in ((TORCH, False), (TORCH_DET, True)):
                try:
                    torch.use_deterministic_algorithms(deterministic)
                    out.zero_()
                    out.index_add_(0, idx, vals)
                    torch.cuda.synchronize(dev)
                    check(np, out.cpu().numpy(), exact, magnitude)
                    ms[name] = median_ms(lambda: out.index_add_(0, idx, vals), args.warmup, repeats, event,
                                         lambda: torch.cuda.synchronize(dev))
                    gbps[name] = nbytes / (ms[name] * 1e6)
                except RuntimeError as e:
                    log(f"  {name}: not measured ({e})")
                finally:
                    torch.use_deterministic_algorithms(False)
            del idx, vals, out
            torch.cuda.empty_cache()

        if cupy is not None:
            import cupyx
            with cupy.cuda.Device(device_index):
                idx = cupy.asarray(idx_host.astype(np.int32))
                vals = cupy.asarray(vals_host)
                out = cupy.zeros(shape, dtype=cupy.float32)
                try:
                    cupyx.scatter_add(out, idx, vals)
                    cupy.cuda.Device(device_index).synchronize()
                    check(np, cupy.asnumpy(out), exact, magnitude)
                    ms[CUPY] = median_ms(lambda: cupyx.scatter_add(out, idx, vals), args.warmup, repeats, cupy.cuda.Event,
                                         cupy.cuda.Device(device_index).synchronize)
                    gbps[CUPY] = nbytes / (ms[CUPY] * 1e6)
                except Exception as e:  # CUDA errors from cupy are not RuntimeErrors
                    log(f"  {CUPY}: not measured ({type(e).__name__}: {e})")
                del idx, vals, out
                cupy.get_default_memory_pool().free_all_blocks()

        print(json.dumps({"suite": "scatter", "distribution": distribution, "bins": bins, "width": width, "elements": elements,
                          "bytes": nbytes, "gbps": gbps, "ms": ms, "device": device_name,
                          "torch": torch.__version__ if torch else None, "cupy": cupy.__version__ if cupy else None}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
